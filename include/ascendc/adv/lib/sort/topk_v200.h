// lngrad: TopK on arch 2002 (Atlas inference, Ascend310P1): the kit's topk_v200_impl.h sequence
// (with topk_common_impl.h's TopKNormal / TopKNSmall around it) run on lngrad's instructions in
// tmpLocal (as T), so the outputs and every byte the sequence leaves in the scratch are the
// device's (sort_ops.h's rules for ties and NaNs). Included by topk.h (TopKInfo, Check).
//
// TOPK_NORMAL: the indexes 0 .. inner-1 (ArithProgression at srcIndexOffset, or srcIndexLocal's
// first inner) cast to float and, for half, to half in place there (so indexes half or float
// cannot hold come back rounded); per row j: the row (Muls(-1) into tmp[innerDataSize] for
// !isLargest) and the indexes concatenated as the scores and x1 of inner proposals at tmp[0],
// RpSort16 into tmp[innerDataSize] and copied back, four-way MrgSort4 rounds (z = 16, 64, ..
// while 4z <= inner; mrgSortRepeat / z repeats) ping-ponging between the two proposal buffers,
// each copied back onto its source, then two-way merges of the runs left (the lengths: as many z
// as fit, then z / 4, .., 16); the sorted proposals' scores extracted into the other buffer and
// stored to dstValue by Adds(x, 0) (so -0 comes out +0), the indexes extracted there, cast
// (half: to float past the inner halves) to int32 with CAST_ROUND and stored by Adds(i, 0);
// isHasfinish rows' k indexes set to n. !isLargest: dstValue's first maskOffset elements negated.
// TOPK_NSMALL (inner 32): the indexes of each row (made once and copied: CopyData), for
// !isLargest the whole source negated into tmp[innerDataSize], one RpSort16 over the outter
// rows, the two 16-proposal runs of each row merged only for n > 16 (else the sorted proposals
// copied back), scores and indexes extracted, the indexes to int32, and GatherMask (normal mode,
// its pattern of the first k lanes Duplicated at tmp[0]) packs each row's k values and indexes
// into dstValue / dstIndex at j * k, zeros after them to whole repeats (outter * 256 bytes of
// each). No finish flags in TOPK_NSMALL (the kit ignores them).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "kernel_tiling/kernel_tiling.h"
#include "lib/index/arithprogression.h"
#include "lngrad_aicore/data_copy.h"
#include "lngrad_aicore/gather_ops.h"
#include "lngrad_aicore/sort_ops.h"
#include "lngrad_aicore/vector_ops.h"

namespace lngrad::aicore::topk_detail {

// The indexes (made at `at`, or srcIndexLocal's) as T at tmp[at] (CastIdxTypeToValType).
template <typename T, bool isInitIndex>
void IndexesToT200(const AscendC::LocalTensor<int32_t>& srcIndex, AscendC::LocalTensor<T> tmp,
                   int32_t count, int32_t at, SrcLoc loc) {
  using namespace AscendC;
  const LocalTensor<float> f = tmp[at].template ReinterpretCast<float>();
  if constexpr (isInitIndex) {
    Cast(f, srcIndex, RoundMode::CAST_NONE, static_cast<uint32_t>(count), loc);
  } else {
    Cast(f, tmp[at].template ReinterpretCast<int32_t>(), RoundMode::CAST_NONE,
         static_cast<uint32_t>(count), loc);
  }
  if constexpr (sizeof(T) == 2) {
    // Cast<half, float> in place (CAST_NONE: nearest even, overflow to inf), a partial overlap
    // the checked Cast refuses: half i lands in bytes [2i, 2i + 2), inside float i / 2, already
    // read in index order (as in the device's repeats), so the halves are written here.
    san::Instr rec(Pipe::kV, "Cast", loc);
    if (rec) {
      rec.Read(f.HostPtr(), uint64_t(count) * 4);
      rec.Write(f.HostPtr(), uint64_t(count) * 2);
    }
    auto* bytes = reinterpret_cast<std::byte*>(f.HostPtr());
    for (int32_t i = 0; i < count; ++i) {
      float v;
      std::memcpy(&v, bytes + uint64_t(i) * 4, 4);
      const half h = static_cast<half>(v);
      std::memcpy(bytes + uint64_t(i) * 2, &h, 2);
    }
  }
}

// Cast<int32_t, float> CAST_ROUND in place, as topk_v200_impl.h runs it: the vendor's Cast table
// for the inference AI Core lists no float -> int32 pair (the checked Cast refuses it), but the
// kit's 2002 code casts so, here as lngrad's other 2002 paths through int32 do (rounding.h, Sin):
// nearest with ties away from zero, saturating, NaN to 0.
inline void RoundToInt32InPlace200(const AscendC::LocalTensor<float>& f, int32_t count,
                                   SrcLoc loc) {
  san::Instr rec(Pipe::kV, "Cast", loc);
  if (rec) {
    rec.Read(f.HostPtr(), uint64_t(count) * 4);
    rec.Write(f.HostPtr(), uint64_t(count) * 4);
  }
  auto* bytes = reinterpret_cast<std::byte*>(f.HostPtr());
  for (int32_t i = 0; i < count; ++i) {
    float v;
    std::memcpy(&v, bytes + uint64_t(i) * 4, 4);
    int32_t r = 0;
    if (v >= 2147483648.0f) {
      r = INT32_MAX;
    } else if (v < -2147483648.0f) {
      r = INT32_MIN;
    } else if (v == v) {
      r = static_cast<int32_t>(std::round(v));
    }
    std::memcpy(bytes + uint64_t(i) * 4, &r, 4);
  }
}

// RpSort16(dst, src, repeats) as sort_ops.h runs it (the same checks and order), except for what
// the sanitizer sees it read: the score and x1 that ProposalConcat filled. The proposals' other
// six elements are whatever tmpLocal held (the kit never writes them) and travel with their
// proposals; they reach no output, so initcheck does not report the kit's read of them, and from
// here on they count as written (the scratch's bytes are modelled: the device leaves them so).
template <typename T>
void RpSort16Filled200(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                       int32_t repeats, SrcLoc loc) {
  namespace r = detail::rep;
  const uint64_t n = uint64_t(repeats) * 16, bytes = n * 8 * sizeof(T);
  const std::string how = std::to_string(repeats) + " repeats";
  r::CheckOperand("RpSort16", "src", src.View(), bytes, 32, how);
  r::CheckOperand("RpSort16", "dst", dst.View(), bytes, 32, how);
  r::CheckDisjoint("RpSort16", "dst", dst.View(), bytes, "src", src.View(), bytes);
  if (n == 0) return;
  san::Instr in(Pipe::kV, "RpSort16", loc);
  if (in) {
    in.ReadBlocks(src.HostPtr(), n, sizeof(T), 8 * sizeof(T));
    in.ReadBlocks(src.HostPtr() + 4, n, sizeof(T), 8 * sizeof(T));
    in.Write(dst.HostPtr(), bytes);
  }
  std::vector<T> buf(src.HostPtr(), src.HostPtr() + n * 8);
  for (uint64_t k = 0; k < n / 16; ++k) detail::sort::SortStructs(buf.data() + k * 128, 16, 8, 4);
  std::memcpy(dst.HostPtr(), buf.data(), bytes);
}

// One TOPK_NORMAL row's merge rounds after RpSort16 (MrgSort4FourQueueSort, then
// MrgSort4TwoQueueSort): which proposal buffer (0 or 1) holds the sorted row.
template <typename T>
int32_t MergeRow200(AscendC::LocalTensor<T> tmp, const AscendC::tiling::TopkTiling& t,
                    int32_t inner, SrcLoc loc) {
  using namespace AscendC;
  const DataCopyParams whole{static_cast<uint16_t>(t.copyUbToUbBlockCount), 1, 0, 0};
  const auto buffer = [&](int32_t which) { return which == 1 ? tmp[t.innerDataSize] : tmp[0]; };
  uint16_t z = 16;
  int32_t sorted = 0, rounds = 0;
  for (; z * 4 <= static_cast<uint16_t>(inner); z = static_cast<uint16_t>(z * 4)) {
    const LocalTensor<T> src = buffer(rounds % 2);
    sorted = (rounds + 1) % 2;
    const LocalTensor<T> dst = buffer(sorted);
    ++rounds;
    const uint16_t lengths[MRG_SORT_ELEMENT_LEN] = {z, z, z, z};
    const MrgSort4Info info(lengths, false, 0b1111, static_cast<uint16_t>(t.mrgSortRepeat / z));
    const MrgSortSrcList<T> list(src, src[z * t.mrgSortSrc1offset], src[z * t.mrgSortSrc2offset],
                                 src[z * t.mrgSortSrc3offset]);
    MrgSort4(dst, list, info, loc);
    DataCopy(src, dst, whole, loc);
  }
  if (z >= inner) return sorted;
  int32_t runs[15] = {}, count = 0, left = inner;
  for (int32_t len = z; len >= 16; len /= 4) {
    for (; left >= len; left -= len) runs[count++] = len;
  }
  uint16_t merged = 0;
  const int32_t first = sorted;
  for (int32_t i = 0; i + 1 < count; ++i) {
    const LocalTensor<T> src = buffer((first + i) % 2);
    sorted = (first + 1 + i) % 2;
    merged = static_cast<uint16_t>(merged + runs[i]);
    const uint16_t lengths[MRG_SORT_ELEMENT_LEN] = {merged, static_cast<uint16_t>(runs[i + 1]), 0,
                                                    0};
    const MrgSort4Info info(lengths, false, 0b0011, 1);
    MrgSort4(buffer(sorted), MrgSortSrcList<T>(src, src[merged * 8], src, src), info, loc);
  }
  return sorted;
}

template <typename T, bool isInitIndex, bool isHasfinish>
void RunNormal200(const AscendC::LocalTensor<T>& dstValue,
                  const AscendC::LocalTensor<int32_t>& dstIndex, const AscendC::LocalTensor<T>& src,
                  const AscendC::LocalTensor<int32_t>& srcIndex,
                  const AscendC::LocalTensor<bool>& finish, AscendC::LocalTensor<T> tmp, int32_t k,
                  const AscendC::tiling::TopkTiling& t, const AscendC::TopKInfo& info,
                  bool isLargest, SrcLoc loc) {
  using namespace AscendC;
  const int32_t inner = info.inner;
  if constexpr (!isInitIndex) {
    ArithProgression(tmp[t.srcIndexOffset].template ReinterpretCast<int32_t>(), int32_t{0},
                     int32_t{1}, inner, loc);
  }
  IndexesToT200<T, isInitIndex>(srcIndex, tmp, inner, t.srcIndexOffset, loc);
  const DataCopyParams whole{static_cast<uint16_t>(t.copyUbToUbBlockCount), 1, 0, 0};
  for (int32_t j = 0; j < info.outter; ++j) {
    if (!isLargest) {
      Muls(tmp[t.innerDataSize], src[j * inner], T(-1), inner, loc);
      ProposalConcat(tmp, tmp[t.innerDataSize], t.sortRepeat, 4, loc);
    } else {
      ProposalConcat(tmp, src[j * inner], t.sortRepeat, 4, loc);
    }
    ProposalConcat(tmp, tmp[t.srcIndexOffset], t.sortRepeat, 0, loc);
    RpSort16Filled200(tmp[t.innerDataSize], tmp, t.sortRepeat, loc);
    DataCopy(tmp, tmp[t.innerDataSize], whole, loc);
    const int32_t sorted = MergeRow200(tmp, t, inner, loc);
    // ProposalExtractValIdx: the other buffer as the flat workspace.
    const LocalTensor<T> props = tmp[t.innerDataSize * sorted];
    const LocalTensor<T> work = tmp[t.innerDataSize * (1 - sorted)];
    const int32_t four = j * t.kAlignFourBytes;
    ProposalExtract(work, props, t.sortRepeat, 4, loc);
    Adds(dstValue[sizeof(T) == 2 ? j * t.kAlignTwoBytes : four], work, T(0), k, loc);
    ProposalExtract(work, props, t.sortRepeat, 0, loc);
    LocalTensor<float> f = work.template ReinterpretCast<float>();
    if constexpr (sizeof(T) == 2) {
      f = work[inner].template ReinterpretCast<float>();
      Cast(f, work, RoundMode::CAST_NONE, static_cast<uint32_t>(inner), loc);
    }
    RoundToInt32InPlace200(f, inner, loc);
    Adds(dstIndex[four], f.template ReinterpretCast<int32_t>(), int32_t{0}, k, loc);
    if constexpr (isHasfinish) {
      if (finish.template ReinterpretCast<uint8_t>().GetValue(j) != 0) {
        Duplicate(dstIndex[four], info.n, k, loc);
      }
    }
  }
}

// TopKNSmallGet{Float,Half}TopKValue: the GatherMask patterns Duplicated at tmp[0], then the
// packed values and indexes (srcIndexOffset: the int32 indexes).
template <typename T>
void GatherNSmall200(const AscendC::LocalTensor<T>& dstValue,
                     const AscendC::LocalTensor<int32_t>& dstIndex, AscendC::LocalTensor<T> tmp,
                     const AscendC::tiling::TopkTiling& t, int32_t outter, SrcLoc loc) {
  using namespace AscendC;
  uint64_t rsvd = 0;
  const uint16_t rows = static_cast<uint16_t>(outter);
  const LocalTensor<float> ids = tmp[t.srcIndexOffset].template ReinterpretCast<float>();
  const LocalTensor<float> idsOut = dstIndex.template ReinterpretCast<float>();
  if constexpr (sizeof(T) == 4) {
    const LocalTensor<uint32_t> pattern = tmp.template ReinterpretCast<uint32_t>();
    Duplicate(pattern, uint32_t{0}, 8, loc);
    Duplicate(pattern, static_cast<uint32_t>(t.vreduceValMask0), 1, loc);
    const GatherMaskParams p(1, rows, 4, 0);
    GatherMask(dstValue, tmp[t.innerDataSize], pattern, false, 0, p, rsvd, loc);
    GatherMask(idsOut, ids, pattern, false, 0, p, rsvd, loc);
  } else {
    const LocalTensor<uint16_t> pattern = tmp.template ReinterpretCast<uint16_t>();
    Duplicate(pattern, uint16_t{0}, 8, loc);
    Duplicate(pattern, static_cast<uint16_t>(t.vreduceValMask1), 2, loc);
    Duplicate(pattern, static_cast<uint16_t>(t.vreduceValMask0), 1, loc);
    GatherMask(dstValue, tmp[t.innerDataSize], pattern, false, 0, GatherMaskParams(1, rows, 2, 0),
               rsvd, loc);
    const LocalTensor<uint32_t> idxPattern = tmp.template ReinterpretCast<uint32_t>();
    Duplicate(idxPattern, uint32_t{0}, 2, loc);
    Duplicate(idxPattern, static_cast<uint32_t>(t.vreduceIdxMask0), 1, loc);
    GatherMask(idsOut, ids, idxPattern, false, 0, GatherMaskParams(1, rows, 4, 0), rsvd, loc);
  }
}

template <typename T, bool isInitIndex>
void RunNSmall200(const AscendC::LocalTensor<T>& dstValue,
                  const AscendC::LocalTensor<int32_t>& dstIndex, const AscendC::LocalTensor<T>& src,
                  const AscendC::LocalTensor<int32_t>& srcIndex, AscendC::LocalTensor<T> tmp,
                  const AscendC::tiling::TopkTiling& t, const AscendC::TopKInfo& info,
                  bool isLargest, SrcLoc loc) {
  using namespace AscendC;
  const int32_t at = t.topkNSmallSrcIndexOffset;
  if constexpr (!isInitIndex) {
    const LocalTensor<int32_t> made = tmp[at].template ReinterpretCast<int32_t>();
    ArithProgression(made, int32_t{0}, int32_t{1}, info.inner, loc);
    if (info.outter > 1) {  // CopyData
      Adds(made[info.inner], made, int32_t{0}, static_cast<uint64_t>(info.inner),
           static_cast<uint8_t>(info.outter - 1), {1, 1, 4, 0}, loc);
    }
  }
  if (!isLargest) Muls(tmp[t.innerDataSize], src, T(-1), t.allDataSize, loc);
  IndexesToT200<T, isInitIndex>(srcIndex, tmp, t.allDataSize, at, loc);
  ProposalConcat(tmp, isLargest ? src : tmp[t.innerDataSize], t.sortRepeat, 4, loc);
  ProposalConcat(tmp, tmp[at], t.sortRepeat, 0, loc);
  RpSort16Filled200(tmp[t.innerDataSize], tmp, t.sortRepeat, loc);
  if (info.n > 16) {
    const uint16_t lengths[MRG_SORT_ELEMENT_LEN] = {16, 16, 0, 0};
    const MrgSort4Info mi(lengths, false, 0b0011, 1);
    for (int32_t j = 0; j < info.outter; ++j) {
      const LocalTensor<T> s = tmp[t.innerDataSize + t.mrgSortSrc1offset * j];
      MrgSort4(tmp[t.mrgSortSrc1offset * j],
               MrgSortSrcList<T>(s, s[t.mrgSortTwoQueueSrc1Offset], s, s), mi, loc);
    }
  } else {
    DataCopy(tmp, tmp[t.innerDataSize],
             DataCopyParams{static_cast<uint16_t>(t.copyUbToUbBlockCount), 1, 0, 0}, loc);
  }
  ProposalExtract(tmp[t.innerDataSize], tmp, t.sortRepeat, 4, loc);
  ProposalExtract(tmp[at], tmp, t.sortRepeat, 0, loc);
  // CastIdxToInt
  const LocalTensor<float> f = tmp[t.srcIndexOffset].template ReinterpretCast<float>();
  if constexpr (sizeof(T) == 2) {
    Cast(f, tmp[at], RoundMode::CAST_NONE, static_cast<uint32_t>(t.allDataSize), loc);
  }
  RoundToInt32InPlace200(f, t.allDataSize, loc);
  GatherNSmall200(dstValue, dstIndex, tmp, t, info.outter, loc);
}

template <typename T, bool isInitIndex, bool isHasfinish, bool nsmall>
void RunV200(const AscendC::LocalTensor<T>& dstValue, const AscendC::LocalTensor<int32_t>& dstIndex,
             const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<int32_t>& srcIndex,
             const AscendC::LocalTensor<bool>& finish,
             const AscendC::LocalTensor<uint8_t>& tmpLocal, int32_t k,
             const AscendC::tiling::TopkTiling& t, const AscendC::TopKInfo& info, bool isLargest,
             SrcLoc loc) {
  Check(nsmall, k, info, tmpLocal.View().size_bytes,
        uint64_t(std::max(t.tmpLocalSize, 0)) * sizeof(T), sizeof(T) == 2 && !isInitIndex);
  // The kit's parameter check, as on 2201 (topk_2201.h; TOPK_NSMALL without finish flags).
  CheckOperands<T, isHasfinish, nsmall>(dstValue, dstIndex, src, srcIndex, finish, k, info);
  // No overlaps (topk_overlap.h); TOPK_NSMALL's GatherMask writes outter * 256 bytes of each.
  RefuseMergeOverlaps<T, isInitIndex, isHasfinish, nsmall>(
      steps::kV200, dstValue, dstIndex, src, srcIndex, finish, tmpLocal, k, t, info, isLargest,
      nsmall ? uint64_t(std::max(info.outter, 1)) * 256 : 0);
  const AscendC::LocalTensor<T> tmp = tmpLocal.template ReinterpretCast<T>();
  if constexpr (nsmall) {
    RunNSmall200<T, isInitIndex>(dstValue, dstIndex, src, srcIndex, tmp, t, info, isLargest, loc);
  } else {
    RunNormal200<T, isInitIndex, isHasfinish>(dstValue, dstIndex, src, srcIndex, finish, tmp, k, t,
                                              info, isLargest, loc);
  }
  if (!isLargest) Muls(dstValue, dstValue, T(-1), t.maskOffset, loc);
}

}  // namespace lngrad::aicore::topk_detail
