// lngrad: the Ascend C sort combinations built on Sort32 and MrgSort (the vendor's
// kernel_operator_proposal_intf.h high-level entries: Concat, Sort<T, isFullSort>, Extract, the
// six-argument MrgSort, GetSortOffset, GetSortLen) and the Ascend 950 Sort API (adv_api/sort/
// sort.h, SortConfig), half and float.
//
// Arch 2201 and 3510 (the vendor's dav_c220 sequences): Concat hands back src (no data moves);
// Sort runs Sort32 over repeatTime groups of 32 and, when isFullSort, the full merge of
// DoFullSort: the sorted runs copied to tmp, then rounds of four-way MrgSort of runs of 32,
// 128, 512 ... (a last group of fewer runs merged with fewer queues, a single run copied) until
// one run remains, each round written to dst and copied back to tmp. The result is a stable
// descending sort by score (equal scores keep their order). Extract picks, from the 8-byte
// (score, index) structures, the scores to dstValue and the indexes to dstIndex (the device's two
// GatherMask passes). Arch 2002's region-proposal forms are not modelled (checks::kProduct).
//
// The 950 Sort (calCount elements, ascending unless config.isDescend): RADIX_SORT is a stable
// sort by the bits as the device's radix passes order them (floats by value, -0 before +0, NaNs
// by their bits after +inf or before -inf); with both indexes and sharedTmpBuffer (isReuseSource
// false) its scratch holds what the kit's passes leave (radix_sort_950_scratch.h); the other
// overloads' sharedTmpBuffer and, with isReuseSource and 2 or 4-byte values, src and srcIndex
// (where the kit's even passes land) are left marked unmodelled (LeaveRadixUnmodelled); MERGE_SORT
// runs the kit's sequence (sort_impl.h: sign flip of src for ascending, Sort32, DoFullSort's merge
// rounds, Extract in place, flip back; MergeSort950 below), so NaNs, zeros and ties land where
// Sort32 and MrgSort put them (sort_ops.h), and dst, tmp and src keep what the sequence leaves
// there.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "kernel_tiling/sort_config.h"
#include "lib/math/math_common.h"
#include "lib/sort/radix_sort_950_scratch.h"
#include "lngrad_aicore/data_copy.h"
#include "lngrad_aicore/sort_ops.h"

namespace AscendC {

constexpr SortConfig DEFAULT_SORT_CONFIG = {SortType::RADIX_SORT, false};

}  // namespace AscendC

namespace lngrad::aicore::sort_detail {

inline void RefuseArch(const char* api) {
  const NpuArch arch = detail::rep::RunningArch();
  if (arch == NpuArch::k2201 || arch == NpuArch::k3510) return;
  RaiseKernelCheck(checks::kProduct, std::string(api) + ": lngrad models arch 2201 and 3510 only");
}

// The queues of one full-sort round: merge groups of up to four runs of `run` structures.
template <typename T>
void MergeRound(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& tmp,
                uint32_t total, uint32_t run) {
  constexpr uint32_t kElems = 8 / sizeof(T);
  for (uint32_t start = 0; start < total; start += 4 * run) {
    uint16_t lens[4] = {0, 0, 0, 0};
    uint32_t queues = 0;
    for (uint32_t q = 0; q < 4 && start + q * run < total; ++q) {
      lens[q] = static_cast<uint16_t>(std::min(run, total - start - q * run));
      ++queues;
    }
    const uint32_t off = start * kElems;
    if (queues == 1) {
      AscendC::DataCopy(dst[off], tmp[off], lens[0] * kElems);
      continue;
    }
    const uint32_t r = run * kElems;
    AscendC::MrgSortSrcList<T> list(tmp[off], tmp[off + r], tmp[off + (queues > 2 ? 2 : 1) * r],
                                    tmp[off + (queues > 3 ? 3 : 1) * r]);
    const uint16_t valid = queues == 2 ? 0b11 : (queues == 3 ? 0b111 : 0b1111);
    AscendC::MrgSort(dst[off], list, AscendC::MrgSort4Info(lens, false, valid, 1));
  }
}

template <typename T>
void FullSort(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& tmp,
              int32_t repeatTime) {
  constexpr uint32_t kElems = 8 / sizeof(T);
  const uint32_t total = static_cast<uint32_t>(repeatTime) * 32;
  AscendC::DataCopy(tmp, dst, total * kElems);
  AscendC::PipeBarrier<PIPE_V>();
  for (uint32_t run = 32; run < total; run *= 4) {
    MergeRound(dst, tmp, total, run);
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::DataCopy(tmp, dst, total * kElems);
    AscendC::PipeBarrier<PIPE_V>();
  }
}

// The key order of the 950 radix sort: the bits, sign-flipped for signed types and floats
// (negative floats fully inverted), complemented for descending.
template <typename T>
uint64_t RadixKey(T v, bool descend) {
  uint64_t bits = 0;
  std::memcpy(&bits, &v, sizeof(T));
  const uint64_t sign = uint64_t{1} << (sizeof(T) * 8 - 1);
  const uint64_t all = sizeof(T) == 8 ? ~uint64_t{0} : (uint64_t{1} << (sizeof(T) * 8)) - 1;
  if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, half> ||
                std::is_same_v<T, bfloat16_t>) {
    bits = (bits & sign) ? (~bits & all) : (bits | sign);
  } else if constexpr (std::is_signed_v<T>) {
    bits ^= sign;
  }
  return descend ? (~bits & all) : bits;
}

}  // namespace lngrad::aicore::sort_detail

namespace AscendC {

template <typename T>
void Concat(LocalTensor<T>& concat, const LocalTensor<T>& src, const LocalTensor<T>& tmp,
            const int32_t repeatTime) {
  static_assert(lngrad::aicore::math_detail::kHalfOrFloat<T>, "Concat: T must be half or float");
  (void)tmp;
  (void)repeatTime;
  lngrad::aicore::sort_detail::RefuseArch("Concat");
  concat = src;
}

template <typename T, bool isFullSort>
void Sort(const LocalTensor<T>& dst, const LocalTensor<T>& concat,
          const LocalTensor<uint32_t>& index, LocalTensor<T>& tmp, const int32_t repeatTime) {
  static_assert(lngrad::aicore::math_detail::kHalfOrFloat<T>, "Sort: T must be half or float");
  lngrad::aicore::sort_detail::RefuseArch("Sort");
  Sort32(dst, concat, index, repeatTime);
  if constexpr (isFullSort) {
    PipeBarrier<PIPE_V>();
    if (repeatTime > 0) lngrad::aicore::sort_detail::FullSort(dst, tmp, repeatTime);
  }
}

template <typename T>
void Extract(const LocalTensor<T>& dstValue, const LocalTensor<uint32_t>& dstIndex,
             const LocalTensor<T>& sorted, const int32_t repeatTime,
             lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  static_assert(lngrad::aicore::math_detail::kHalfOrFloat<T>, "Extract: T must be half or float");
  lngrad::aicore::sort_detail::RefuseArch("Extract");
  const int64_t n = int64_t{std::max(repeatTime, 0)} * 32;
  if (lngrad::aicore::CheckedMode() && (repeatTime < 0 || repeatTime > 255)) {
    lngrad::aicore::RaiseKernelCheck(lngrad::aicore::checks::kRepeatTimes,
                                     "Extract: repeatTime must be in [0, 255]");
  }
  sorted.Access(0, static_cast<uint64_t>(n) * 8 / sizeof(T), "Extract sorted");
  dstValue.Access(0, static_cast<uint64_t>(n), "Extract dstValue");
  dstIndex.Access(0, static_cast<uint64_t>(n), "Extract dstIndex");
  {
    lngrad::aicore::san::Instr rec(lngrad::aicore::Pipe::kV, "Extract", loc);
    if (rec) {
      rec.Read(sorted.HostPtr(), static_cast<uint64_t>(n) * 8);
      rec.Write(dstValue.HostPtr(), static_cast<uint64_t>(n) * sizeof(T));
      rec.Write(dstIndex.HostPtr(), static_cast<uint64_t>(n) * 4);
    }
  }
  const auto* bytes = reinterpret_cast<const uint8_t*>(sorted.HostPtr());
  std::vector<T> values(static_cast<size_t>(n));
  std::vector<uint32_t> idx(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    std::memcpy(&values[i], bytes + i * 8, sizeof(T));
    std::memcpy(&idx[i], bytes + i * 8 + 4, 4);
  }
  std::copy(values.begin(), values.end(), dstValue.HostPtr());
  std::copy(idx.begin(), idx.end(), dstIndex.HostPtr());
}

template <typename T, bool isExhaustedSuspension = false>
void MrgSort(const LocalTensor<T>& dst, const MrgSortSrcList<T>& sortList,
             const uint16_t elementCountList[4], uint32_t sortedNum[4], uint16_t validBit,
             const int32_t repeatTime) {
  lngrad::aicore::sort_detail::RefuseArch("MrgSort");
  MrgSort(dst, sortList,
          MrgSort4Info(elementCountList, isExhaustedSuspension, validBit,
                       static_cast<uint16_t>(repeatTime)));
  if (isExhaustedSuspension) {
    uint16_t taken[4];
    GetMrgSortResult(taken[0], taken[1], taken[2], taken[3]);
    for (int i = 0; i < 4; ++i) sortedNum[i] = taken[i];
  }
}

template <typename T>
uint32_t GetSortOffset(const uint32_t elemOffset) {
  static_assert(lngrad::aicore::math_detail::kHalfOrFloat<T>, "GetSortOffset: half or float");
  return elemOffset * (8 / sizeof(T));
}

template <typename T>
uint32_t GetSortLen(const uint32_t elemCount) {
  static_assert(lngrad::aicore::math_detail::kHalfOrFloat<T>, "GetSortLen: half or float");
  return elemCount * (8 / sizeof(T));
}

}  // namespace AscendC

namespace lngrad::aicore::sort_detail {

// The sign flip of the 950 MERGE_SORT's ascending form (sort_impl.h DescendProcess): the sign
// bits of t[0, count), in place (NaNs and zeros too).
template <typename T>
void FlipSigns(const AscendC::LocalTensor<T>& t, uint32_t count, SrcLoc loc) {
  using Bits = std::conditional_t<sizeof(T) == 4, uint32_t, uint16_t>;
  constexpr Bits kSign = static_cast<Bits>(Bits{1} << (sizeof(T) * 8 - 1));
  san::Instr rec(Pipe::kV, "Sort", loc);
  if (rec) {
    rec.Read(t.HostPtr(), uint64_t{count} * sizeof(T));
    rec.Write(t.HostPtr(), uint64_t{count} * sizeof(T));
  }
  auto* bytes = reinterpret_cast<std::byte*>(t.HostPtr());
  for (uint32_t i = 0; i < count; ++i) {
    Bits b;
    std::memcpy(&b, bytes + uint64_t{i} * sizeof(T), sizeof(T));
    b ^= kSign;
    std::memcpy(bytes + uint64_t{i} * sizeof(T), &b, sizeof(T));
  }
}

// GenSrcIndex: 0, 1, ..., count - 1 into idx.
inline void IotaIndex(const AscendC::LocalTensor<uint32_t>& idx, uint32_t count, SrcLoc loc) {
  san::Instr rec(Pipe::kV, "Sort", loc);
  if (rec) rec.Write(idx.HostPtr(), uint64_t{count} * 4);
  for (uint32_t i = 0; i < count; ++i) idx.HostPtr()[i] = i;
}

// Checked mode: the kit's MERGE_SORT rules (calCount a multiple of 32, dst holding the count
// 8-byte structures), the scratch of GetSortMaxMinTmpSize (count * 8 bytes) and, when src's own
// bytes are Sort32's indexes (src_as_index), count * 4 bytes of src's buffer.
template <typename T>
void CheckMerge(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                const AscendC::LocalTensor<uint8_t>& tmp, uint32_t count, bool src_as_index) {
  if (!CheckedMode()) return;
  const uint64_t need = uint64_t{count} * 8;
  const auto* end = src.Buffer().end;
  const auto* begin = reinterpret_cast<const std::byte*>(src.HostPtr());
  if (src_as_index && end != nullptr && begin + need / 2 > end) {
    RaiseKernelCheck(
        checks::kTensorBounds,
        "Sort: MERGE_SORT without indexes reads calCount * 4 = " + std::to_string(need / 2) +
            " bytes of srcTensor as Sort32's indexes (the kit passes srcLocal); its "
            "buffer holds " +
            std::to_string(end - begin) + " bytes from srcTensor's start");
  }
  if (count % 32 != 0) {
    RaiseKernelCheck(checks::kSortParams, "Sort: calCount is " + std::to_string(count) +
                                              ", which MERGE_SORT needs a multiple of 32");
  }
  if (uint64_t{dst.GetSize()} * sizeof(T) < need) {
    RaiseKernelCheck(checks::kTensorBounds,
                     "Sort: dstTensor holds " + std::to_string(dst.GetSize() * sizeof(T)) +
                         " bytes; MERGE_SORT builds its calCount * 8 = " + std::to_string(need) +
                         " bytes of (score, index) structures there");
  }
  math_detail::CheckTmpBuffer("Sort", tmp.View(), need, count, {math_detail::Op(src, "srcTensor")});
  if (math_detail::Overlaps(tmp.View(), need, dst.View(), need)) {
    math_detail::RaiseOverlap("Sort", "sharedTmpBuffer", "dstTensor");
  }
}

// The 950 Sort's MERGE_SORT (sort_impl.h): ascending flips the sign bits of src[0, count) in
// place; Sort32 of src into dst with the indexes of srcIndex, else 0, 1, ... written to tmp when
// dstIndex is asked for, else src's own bytes read as count uint32 (count * 4 bytes from src);
// DoFullSort's rounds through tmp (FullSort); Extract of dst into itself, the indexes to
// dstIndex or else to tmp; ascending flips dst[0, count) back. Left behind: src flipped
// (ascending), dst's bytes [count * sizeof(T), count * 8) the tail of the sorted structures,
// tmp's count * 8 bytes the sorted structures (their first count * 4 bytes the indexes when no
// dstIndex).
template <typename T, bool isDescend>
void MergeSort950(const AscendC::LocalTensor<T>& dst,
                  const AscendC::LocalTensor<uint32_t>* dstIndex,
                  const AscendC::LocalTensor<T>& src,
                  const AscendC::LocalTensor<uint32_t>* srcIndex,
                  const AscendC::LocalTensor<uint8_t>& tmp, uint32_t count, SrcLoc loc) {
  static_assert(math_detail::kHalfOrFloat<T>, "Sort: MERGE_SORT takes half or float values");
  CheckMerge(dst, src, tmp, count, srcIndex == nullptr && dstIndex == nullptr);
  const auto repeat = static_cast<int32_t>(count / 32);
  if constexpr (!isDescend) FlipSigns(src, count, loc);
  AscendC::LocalTensor<uint32_t> index = tmp.ReinterpretCast<uint32_t>();
  if (srcIndex != nullptr) {
    index = *srcIndex;
  } else if (dstIndex != nullptr) {
    IotaIndex(index, count, loc);
  } else {
    index = src.template ReinterpretCast<uint32_t>();
    if (index.GetSize() < count) index.SetSize(count);  // half: past src's count elements
  }
  AscendC::Sort32(dst, src, index, repeat, loc);
  FullSort(dst, tmp.ReinterpretCast<T>(), repeat);
  AscendC::Extract(dst, dstIndex != nullptr ? *dstIndex : tmp.ReinterpretCast<uint32_t>(), dst,
                   repeat, loc);
  if constexpr (!isDescend) FlipSigns(dst, count, loc);
}

// The RADIX_SORT form: a stable sort by RadixKey. tmp (the overload with both indexes and
// sharedTmpBuffer, isReuseSource false): its scratch as the kit's passes leave it
// (radix_sort_950_scratch.h, the keys RadixKey makes, which are TwiddleInData's); a scratch
// below the end of those writes raises tmp_buffer in any mode (they would leave the buffer).
template <typename T, typename U, bool isDescend>
void RadixSort950(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<U>* dstIndex,
                  const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<U>* srcIndex,
                  const AscendC::LocalTensor<uint8_t>* tmp, uint32_t count, SrcLoc loc) {
  if (tmp != nullptr) {
    const uint64_t end = RadixScratchOf950(sizeof(T), sizeof(U), count).end;
    if (tmp->View().size_bytes < end) {
      RaiseKernelCheck(checks::kTmpBuffer, "Sort: RADIX_SORT's passes write " +
                                               std::to_string(end) +
                                               " bytes of sharedTmpBuffer, which holds " +
                                               std::to_string(tmp->View().size_bytes));
    }
  }
  std::vector<uint32_t> order(count);
  for (uint32_t i = 0; i < count; ++i) order[i] = i;
  const T* x = src.HostPtr();
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    return RadixKey(x[a], isDescend) < RadixKey(x[b], isDescend);
  });
  san::Instr rec(Pipe::kV, "Sort", loc);
  if (rec) {
    rec.Read(x, uint64_t{count} * sizeof(T));
    rec.Write(dst.HostPtr(), uint64_t{count} * sizeof(T));
    if (dstIndex != nullptr) rec.Write(dstIndex->HostPtr(), uint64_t{count} * sizeof(U));
    if (tmp != nullptr) {
      for (const auto& [off, len] : RadixScratchWrites950(sizeof(T), sizeof(U), count)) {
        rec.Write(tmp->HostPtr() + off, len);
      }
    }
  }
  std::vector<T> values(count);
  std::vector<U> idx(count);
  for (uint32_t i = 0; i < count; ++i) {
    values[i] = x[order[i]];
    idx[i] = srcIndex != nullptr ? srcIndex->HostPtr()[order[i]] : static_cast<U>(order[i]);
  }
  if (tmp != nullptr) {
    std::vector<uint64_t> keys(count);
    std::vector<uint8_t> ids(uint64_t{count} * sizeof(U));
    for (uint32_t i = 0; i < count; ++i) keys[i] = RadixKey(x[i], isDescend);
    std::memcpy(ids.data(), srcIndex->HostPtr(), ids.size());
    WriteRadixScratch950(tmp->HostPtr(), std::move(keys), std::move(ids), sizeof(T), sizeof(U));
  }
  std::copy(values.begin(), values.end(), dst.HostPtr());
  if (dstIndex != nullptr) std::copy(idx.begin(), idx.end(), dstIndex->HostPtr());
}

// RADIX_SORT's bytes lngrad does not model, marked for initcheck (san::LeaveScratchUnmodelled):
// sharedTmpBuffer of the overloads without indexes or with dstIndex only (sort_impl.h's other
// SortImpl layouts) and of isReuseSource (whose passes put the values and indexes areas in src
// and srcIndex), the whole buffer; with isReuseSource and 2 or 4-byte values, srcTensor's count
// values and srcIndexTensor's count indexes, where the kit's even passes leave their values and
// indexes (not marked where they share bytes with dstTensor, whose bytes are modelled).
template <typename T, typename U>
void LeaveRadixUnmodelled(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                          const AscendC::LocalTensor<U>* srcIndex,
                          const AscendC::LocalTensor<uint8_t>* tmp, uint32_t count,
                          bool radixScratch, bool reuseSource, SrcLoc loc) {
  if (tmp != nullptr && !radixScratch) math_detail::LeaveScratch("Sort", loc, tmp->View());
  if (!reuseSource || sizeof(T) == 1) return;
  const uint64_t vb = uint64_t{count} * sizeof(T);
  if (!math_detail::Overlaps(src.View(), vb, dst.View(), vb)) {
    san::LeaveScratchUnmodelled("Sort", loc, src.HostPtr(), vb);
  }
  if (srcIndex != nullptr) {
    san::LeaveScratchUnmodelled("Sort", loc, srcIndex->HostPtr(), uint64_t{count} * sizeof(U));
  }
}

// The 950 Sort: dst (and dstIndex when given) = src (with srcIndex, else 0, 1, ...) sorted.
// tmp null: the stack buffer (the overloads without sharedTmpBuffer). radixScratch: RADIX_SORT
// writes tmp as the kit does (the overload with both indexes and tmp, isReuseSource false);
// reuseSource: the overload's isReuseSource (LeaveRadixUnmodelled).
template <typename T, typename U, const AscendC::SortConfig& config>
void Sort950(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<U>* dstIndex,
             const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<U>* srcIndex,
             const AscendC::LocalTensor<uint8_t>* tmp, uint32_t count, SrcLoc loc,
             bool radixScratch = false, bool reuseSource = false) {
  const char* api = "Sort";
  math_detail::CheckElementwise(
      api, count, math_detail::Products::kOnly3510, math_detail::Overlap::kIdentical,
      {math_detail::Op(dst, "dstTensor"), math_detail::Op(src, "srcTensor")});
  if constexpr (config.type == AscendC::SortType::MERGE_SORT) {
    static_assert(std::is_same_v<U, uint32_t>, "Sort: MERGE_SORT takes uint32_t indexes");
    const AscendC::LocalTensor<uint8_t> scratch = tmp != nullptr ? *tmp : math_detail::StackTmp();
    MergeSort950<T, config.isDescend>(dst, dstIndex, src, srcIndex, scratch, count, loc);
  } else {
    RadixSort950<T, U, config.isDescend>(dst, dstIndex, src, srcIndex, radixScratch ? tmp : nullptr,
                                         count, loc);
    LeaveRadixUnmodelled(dst, src, srcIndex, tmp, count, radixScratch, reuseSource, loc);
  }
}

}  // namespace lngrad::aicore::sort_detail

namespace AscendC {

// ---- Ascend 950 (arch 3510) Sort ----

template <typename T, typename U, bool isReuseSource = false,
          const SortConfig& config = DEFAULT_SORT_CONFIG>
void Sort(const LocalTensor<T>& dstTensor, const LocalTensor<U>& dstIndexTensor,
          const LocalTensor<T>& srcTensor, const LocalTensor<U>& srcIndexTensor,
          const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount,
          lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::aicore::sort_detail::Sort950<T, U, config>(dstTensor, &dstIndexTensor, srcTensor,
                                                     &srcIndexTensor, &sharedTmpBuffer, calCount,
                                                     loc, !isReuseSource, isReuseSource);
}

template <typename T, typename U, bool isReuseSource = false,
          const SortConfig& config = DEFAULT_SORT_CONFIG>
void Sort(const LocalTensor<T>& dstTensor, const LocalTensor<U>& dstIndexTensor,
          const LocalTensor<T>& srcTensor, const LocalTensor<U>& srcIndexTensor,
          const uint32_t calCount, lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::aicore::sort_detail::Sort950<T, U, config>(dstTensor, &dstIndexTensor, srcTensor,
                                                     &srcIndexTensor, nullptr, calCount, loc, false,
                                                     isReuseSource);
}

template <typename T, bool isReuseSource = false, const SortConfig& config = DEFAULT_SORT_CONFIG>
void Sort(LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
          const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount,
          lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::aicore::sort_detail::Sort950<T, uint32_t, config>(dstTensor, nullptr, srcTensor, nullptr,
                                                            &sharedTmpBuffer, calCount, loc, false,
                                                            isReuseSource);
}

template <typename T, bool isReuseSource = false, const SortConfig& config = DEFAULT_SORT_CONFIG>
void Sort(LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const uint32_t calCount,
          lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::aicore::sort_detail::Sort950<T, uint32_t, config>(
      dstTensor, nullptr, srcTensor, nullptr, nullptr, calCount, loc, false, isReuseSource);
}

template <typename T, bool isReuseSource = false, const SortConfig& config = DEFAULT_SORT_CONFIG>
void Sort(LocalTensor<T>& dstTensor, LocalTensor<uint32_t>& dstIndexTensor,
          const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
          const uint32_t calCount, lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::aicore::sort_detail::Sort950<T, uint32_t, config>(dstTensor, &dstIndexTensor, srcTensor,
                                                            nullptr, &sharedTmpBuffer, calCount,
                                                            loc, false, isReuseSource);
}

template <typename T, bool isReuseSource = false, const SortConfig& config = DEFAULT_SORT_CONFIG>
void Sort(LocalTensor<T>& dstTensor, LocalTensor<uint32_t>& dstIndexTensor,
          const LocalTensor<T>& srcTensor, const uint32_t calCount,
          lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::aicore::sort_detail::Sort950<T, uint32_t, config>(
      dstTensor, &dstIndexTensor, srcTensor, nullptr, nullptr, calCount, loc, false, isReuseSource);
}

}  // namespace AscendC
