// lngrad: TopK's merge sequence on arch 2201 (topk_common_impl.h TopKNormal / TopKNSmall with
// topk_v220_impl.h), run on lngrad's instructions as the kit calls them, the scratch (tmpLocal
// as T) laid out by the 2201 tiling, so dstValue, dstIndex and the scratch hold what the kit's
// sequence leaves there:
// - TOPK_NORMAL: without isInitIndex ArithProgression writes the indexes 0 .. inner-1 (int32) at
//   tmp[srcIndexOffset]. Per row j: for the smallest, Muls(-1) of the row into
//   tmp[innerDataSize] (B; tmp[0] is A); Sort32 of sortRepeat runs into A (from the row or B,
//   the indexes made or srcIndexLocal's first row); A copied to B (DataCopy,
//   copyUbToUbBlockCount blocks). Four-way rounds while 4z <= inner (z = 32, 128, ...): MrgSort
//   of 4 queues of z, mrgSortRepeat / z repeats, from A or B (by the round count) into the
//   other, then that result copied back over the source. Two-way rounds: inner split greedily
//   into runs of z, z / 4, ..., 32, each next run merged with the prefix merged so far, both
//   lengths capped at k, the buffers alternating (no copy back). Then GatherMask (counter mode)
//   out of the last round's buffer: the k scores (float: pattern 1 over 2k, half: pattern 3
//   over 4k) to dstValue at j * kAlignFourBytes / kAlignTwoBytes and the k index words
//   (pattern 2 over 2k floats) to dstIndex at j * kAlignFourBytes; with isHasfinish and
//   finishLocal[j] true, Duplicate of n over those k indexes.
// - TOPK_NSMALL (inner 32): without isInitIndex the indexes at tmp[topkNSmallSrcIndexOffset],
//   copied to each of the outter rows (Copy); for the smallest Muls(-1) of allDataSize src
//   elements into tmp[innerDataSize]; one Sort32 of outter runs into tmp[0]; the tiling's
//   GatherMask pattern words stored by the scalar unit at tmp[topkMrgSrc1MaskSizeOffset]
//   (float: uint32 words 0, 1 the value masks, 8, 9 the index masks; half: uint16 0 .. 7 the
//   value masks, uint32 words from half 16 the index masks); GatherMask of outter repeats (64
//   floats or 128 halves each, one pattern) for the values and the index words, rows packed at
//   j * k. No finish flags.
// - Both: for the smallest, Muls(-1) of dstValue's first maskOffset elements; the mask left in
//   normal mode, all bits set (SetMaskNorm, ResetMask).
// NaN scores and ties land where Sort32 and MrgSort put them (sort_ops.h's rules). isReuseSource
// changes nothing (the kit's 2201 code does not read it).
#pragma once

#include <algorithm>
#include <cstdint>

#include "kernel_tiling/kernel_tiling.h"
#include "lib/index/arithprogression.h"
#include "lngrad_aicore/data_copy.h"
#include "lngrad_aicore/gather_ops.h"
#include "lngrad_aicore/mask.h"
#include "lngrad_aicore/sort_ops.h"
#include "lngrad_aicore/vector_ops.h"

namespace lngrad::aicore::topk_detail {

// The two-way rounds of TOPK_NORMAL (MrgTwoQueueSort): `z` the first run length the four-way
// rounds did not reach, `rounds` the four-way rounds run, `last` the buffer (0 A, 1 B) the last
// merge wrote.
template <typename T>
void MergeTwoWay2201(const AscendC::LocalTensor<T>& tmp, const AscendC::tiling::TopkTiling& t,
                     int32_t inner, uint32_t z, int32_t rounds, int32_t k, int32_t& last,
                     SrcLoc loc) {
  using namespace AscendC;
  if (z >= static_cast<uint32_t>(inner)) return;
  uint32_t runs[15] = {};  // at most 3 runs per length: 2048, 512, 128, 32
  int32_t count = 0, left = inner;
  for (uint32_t len = z; len >= 32; len /= 4) {
    for (; left >= static_cast<int32_t>(len); left -= static_cast<int32_t>(len)) {
      runs[count++] = len;
    }
  }
  uint16_t merged = 0;
  for (int32_t i = 0; i + 1 < count; ++i) {
    const LocalTensor<T> src = (rounds + i) % 2 == 1 ? tmp[t.innerDataSize] : tmp[0];
    last = (rounds + 1 + i) % 2;
    const LocalTensor<T> dst = last == 1 ? tmp[t.innerDataSize] : tmp[0];
    merged = static_cast<uint16_t>(merged + runs[i]);
    const uint16_t lengths[MRG_SORT_ELEMENT_LEN] = {
        static_cast<uint16_t>(merged > k ? k : merged),
        static_cast<uint16_t>(static_cast<int32_t>(runs[i + 1]) > k ? k : runs[i + 1]), 0, 0};
    const MrgSort4Info info(lengths, false, 0b0011, 1);
    MrgSort(dst, MrgSortSrcList<T>(src, src[merged * t.mrgSortTwoQueueSrc1Offset], src, src), info,
            loc);
  }
}

// One TOPK_NORMAL row: sorted and merged in the scratch, its k values and indexes gathered out.
template <typename T, bool isHasfinish>
void NormalRow2201(const AscendC::LocalTensor<T>& dstValue,
                   const AscendC::LocalTensor<int32_t>& dstIndex,
                   const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<uint32_t>& idx,
                   const AscendC::LocalTensor<bool>& finish, const AscendC::LocalTensor<T>& tmp,
                   int32_t k, const AscendC::tiling::TopkTiling& t, const AscendC::TopKInfo& info,
                   bool largest, int32_t j, SrcLoc loc) {
  using namespace AscendC;
  const LocalTensor<T> bufB = tmp[t.innerDataSize];
  const DataCopyParams whole{static_cast<uint16_t>(t.copyUbToUbBlockCount), 1, 0, 0};
  const int32_t sortRepeat = static_cast<int32_t>(t.sortRepeat);
  if (!largest) {
    Muls(bufB, src[j * info.inner], T(-1), info.inner, loc);
    Sort32(tmp, bufB, idx, sortRepeat, loc);
  } else {
    Sort32(tmp, src[j * info.inner], idx, sortRepeat, loc);
  }
  DataCopy(bufB, tmp, whole, loc);
  int32_t rounds = 0, last = 0;
  uint16_t z = 32;
  for (; z * 4u <= static_cast<uint16_t>(info.inner); z = static_cast<uint16_t>(z * 4)) {
    const LocalTensor<T> from = rounds % 2 == 1 ? bufB : tmp[0];
    last = (rounds + 1) % 2;
    const LocalTensor<T> to = last == 1 ? bufB : tmp[0];
    ++rounds;
    const uint16_t lengths[MRG_SORT_ELEMENT_LEN] = {z, z, z, z};
    const MrgSort4Info mi(lengths, false, 0b1111, static_cast<uint16_t>(t.mrgSortRepeat / z));
    MrgSort(to,
            MrgSortSrcList<T>(from, from[z * t.mrgSortSrc1offset], from[z * t.mrgSortSrc2offset],
                              from[z * t.mrgSortSrc3offset]),
            mi, loc);
    DataCopy(from, to, whole, loc);
  }
  MergeTwoWay2201(tmp, t, info.inner, z, rounds, k, last, loc);
  const LocalTensor<T> sorted = tmp[t.innerDataSize * last];
  const int32_t four = j * t.kAlignFourBytes;
  const GatherMaskParams p(1, 1, 8, 1);
  uint64_t rsvd = 0;
  if constexpr (sizeof(T) == 4) {
    GatherMask(dstValue[four], sorted, uint8_t{1}, true,
               static_cast<uint32_t>(t.maskVreducev2FourBytes), p, rsvd, loc);
  } else {
    GatherMask(dstValue[j * t.kAlignTwoBytes], sorted, uint8_t{3}, true,
               static_cast<uint32_t>(t.maskVreducev2TwoBytes), p, rsvd, loc);
  }
  GatherMask(dstIndex[four].template ReinterpretCast<float>(),
             sorted.template ReinterpretCast<float>(), uint8_t{2}, true,
             static_cast<uint32_t>(t.maskVreducev2FourBytes), p, rsvd, loc);
  if (isHasfinish && finish.GetValue(j)) Duplicate(dstIndex[four], info.n, k, loc);
}

// TOPK_NSMALL's pattern words (the scalar unit's SetValue) and its two GatherMask passes.
template <typename T>
void NSmallGather2201(const AscendC::LocalTensor<T>& dstValue,
                      const AscendC::LocalTensor<int32_t>& dstIndex,
                      const AscendC::LocalTensor<T>& tmp, const AscendC::tiling::TopkTiling& t,
                      const AscendC::TopKInfo& info, SrcLoc loc) {
  using namespace AscendC;
  const GatherMaskParams p(1, static_cast<uint16_t>(info.outter), 8, 0);
  uint64_t rsvd = 0;
  const LocalTensor<uint32_t> idxMask =
      tmp[t.topkMrgSrc1MaskSizeOffset].template ReinterpretCast<uint32_t>()[8];
  if constexpr (sizeof(T) == 4) {
    LocalTensor<uint32_t> valMask =
        tmp[t.topkMrgSrc1MaskSizeOffset].template ReinterpretCast<uint32_t>();
    valMask.SetValue(0, t.vreduceValMask0, loc);
    valMask.SetValue(1, t.vreduceValMask1, loc);
    valMask.SetValue(8, t.vreduceIdxMask0, loc);
    valMask.SetValue(9, t.vreduceIdxMask1, loc);
    GatherMask(dstValue, tmp, valMask, true, 64, p, rsvd, loc);
  } else {
    LocalTensor<uint16_t> valMask =
        tmp[t.topkMrgSrc1MaskSizeOffset].template ReinterpretCast<uint16_t>();
    const uint16_t words[8] = {t.vreducehalfValMask0, t.vreducehalfValMask1, t.vreducehalfValMask2,
                               t.vreducehalfValMask3, t.vreducehalfValMask4, t.vreducehalfValMask5,
                               t.vreducehalfValMask6, t.vreducehalfValMask7};
    for (uint32_t i = 0; i < 8; ++i) valMask.SetValue(i, words[i], loc);
    LocalTensor<uint32_t> idxWords = idxMask;
    idxWords.SetValue(0, t.vreduceIdxMask0, loc);
    idxWords.SetValue(1, t.vreduceIdxMask1, loc);
    GatherMask(dstValue, tmp, valMask, true, 128, p, rsvd, loc);
  }
  GatherMask(dstIndex.template ReinterpretCast<float>(), tmp.template ReinterpretCast<float>(),
             idxMask, true, 64, p, rsvd, loc);
}

// The operand sizes the kit's parameter check asserts (topk_check_common.h, built for 2201 and
// 2002 alike; RunMerge2201 and topk_v200.h's RunV200 call it): src inner * outter; srcIndexLocal
// inner (TOPK_NORMAL) or inner * outter (TOPK_NSMALL), isInitIndex or not; TOPK_NORMAL dstValue k
// rounded up to 32 bytes of T times outter, dstIndex k rounded up to 8 times outter, finishLocal
// outter with isHasfinish; TOPK_NSMALL dstValue and dstIndex k * outter, and no isHasfinish
// (checks::kTopKParams).
template <typename T, bool isHasfinish, bool nsmall>
void CheckOperands(const AscendC::LocalTensor<T>& dstValue,
                   const AscendC::LocalTensor<int32_t>& dstIndex,
                   const AscendC::LocalTensor<T>& src,
                   const AscendC::LocalTensor<int32_t>& srcIndex,
                   const AscendC::LocalTensor<bool>& finish, int32_t k,
                   const AscendC::TopKInfo& info) {
  if (!CheckedMode()) return;
  const uint64_t rows = uint64_t(std::max(info.outter, 0));
  const uint64_t all = rows * uint64_t(std::max(info.inner, 0));
  const uint64_t kk = uint64_t(std::max(k, 0)), perBlock = 32 / sizeof(T);
  src.Access(0, all, "TopK srcLocal");
  srcIndex.Access(0, nsmall ? all : static_cast<uint64_t>(info.inner), "TopK srcIndexLocal");
  if constexpr (nsmall) {
    if (isHasfinish) {
      RaiseKernelCheck(checks::kTopKParams, "TopK: isHasfinish must be false in TOPK_NSMALL");
    }
    dstValue.Access(0, kk * rows, "TopK dstValueLocal");
    dstIndex.Access(0, kk * rows, "TopK dstIndexLocal");
  } else {
    dstValue.Access(0, (kk + perBlock - 1) / perBlock * perBlock * rows, "TopK dstValueLocal");
    dstIndex.Access(0, (kk + 7) / 8 * 8 * rows, "TopK dstIndexLocal");
    if (isHasfinish) finish.Access(0, rows, "TopK finishLocal");
  }
}

template <typename T, bool isInitIndex, bool isHasfinish, bool nsmall>
void RunMerge2201(const AscendC::LocalTensor<T>& dstValue,
                  const AscendC::LocalTensor<int32_t>& dstIndex, const AscendC::LocalTensor<T>& src,
                  const AscendC::LocalTensor<int32_t>& srcIndex,
                  const AscendC::LocalTensor<bool>& finish, const AscendC::LocalTensor<T>& tmp,
                  int32_t k, const AscendC::tiling::TopkTiling& t, const AscendC::TopKInfo& info,
                  bool largest, SrcLoc loc) {
  using namespace AscendC;
  CheckOperands<T, isHasfinish, nsmall>(dstValue, dstIndex, src, srcIndex, finish, k, info);
  LocalTensor<uint32_t> idx = srcIndex.template ReinterpretCast<uint32_t>();
  if constexpr (!isInitIndex) {
    LocalTensor<int32_t> made = tmp[nsmall ? t.topkNSmallSrcIndexOffset : t.srcIndexOffset]
                                    .template ReinterpretCast<int32_t>();
    ArithProgression(made, int32_t{0}, int32_t{1}, info.inner, loc);
    if (nsmall && info.outter > 1) {
      Copy(made[info.inner], made, uint64_t{32}, info.outter - 1, {1, 1, 4, 0}, loc);
    }
    idx = made.template ReinterpretCast<uint32_t>();
  }
  if constexpr (nsmall) {
    if (!largest) {
      Muls(tmp[t.innerDataSize], src, T(-1), t.allDataSize, loc);
      Sort32(tmp, tmp[t.innerDataSize], idx, info.outter, loc);
    } else {
      Sort32(tmp, src, idx, info.outter, loc);
    }
    NSmallGather2201(dstValue, dstIndex, tmp, t, info, loc);
  } else {
    for (int32_t j = 0; j < info.outter; ++j) {
      NormalRow2201<T, isHasfinish>(dstValue, dstIndex, src, idx, finish, tmp, k, t, info, largest,
                                    j, loc);
    }
  }
  if (!largest) Muls(dstValue, dstValue, T(-1), t.maskOffset, loc);
  SetMaskNorm(loc);
  ResetMask(loc);
}

}  // namespace lngrad::aicore::topk_detail
