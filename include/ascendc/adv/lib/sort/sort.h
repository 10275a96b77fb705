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
// The 950 Sort (calCount elements, ascending unless config.isDescend) is a stable sort by key:
// RADIX_SORT orders by the bits as the device's radix passes do (floats by value, -0 before +0,
// NaNs by their bits after +inf or before -inf), MERGE_SORT by score as Sort32/MrgSort.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "kernel_tiling/sort_config.h"
#include "lib/math/math_common.h"
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

// The 950 Sort: dst (and dstIndex when given) = src (with srcIndex, else 0, 1, ...) sorted.
template <typename T, typename U, const AscendC::SortConfig& config>
void Sort950(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<U>* dstIndex,
             const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<U>* srcIndex,
             uint32_t count, SrcLoc loc) {
  const char* api = "Sort";
  math_detail::CheckElementwise(
      api, count, math_detail::Products::kOnly3510, math_detail::Overlap::kIdentical,
      {math_detail::Op(dst, "dstTensor"), math_detail::Op(src, "srcTensor")});
  std::vector<uint32_t> order(count);
  for (uint32_t i = 0; i < count; ++i) order[i] = i;
  const T* x = src.HostPtr();
  if constexpr (config.type == AscendC::SortType::MERGE_SORT) {
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
      const float fa = static_cast<float>(x[a]), fb = static_cast<float>(x[b]);
      return config.isDescend ? fa > fb : fa < fb;
    });
  } else {
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
      return RadixKey(x[a], config.isDescend) < RadixKey(x[b], config.isDescend);
    });
  }
  san::Instr rec(Pipe::kV, api, loc);
  if (rec) {
    rec.Read(x, uint64_t{count} * sizeof(T));
    rec.Write(dst.HostPtr(), uint64_t{count} * sizeof(T));
    if (dstIndex != nullptr) rec.Write(dstIndex->HostPtr(), uint64_t{count} * sizeof(U));
  }
  std::vector<T> values(count);
  std::vector<U> idx(count);
  for (uint32_t i = 0; i < count; ++i) {
    values[i] = x[order[i]];
    idx[i] = srcIndex != nullptr ? srcIndex->HostPtr()[order[i]] : static_cast<U>(order[i]);
  }
  std::copy(values.begin(), values.end(), dst.HostPtr());
  if (dstIndex != nullptr) std::copy(idx.begin(), idx.end(), dstIndex->HostPtr());
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

// ---- Ascend 950 (arch 3510) Sort ----

template <typename T, typename U, bool isReuseSource = false,
          const SortConfig& config = DEFAULT_SORT_CONFIG>
void Sort(const LocalTensor<T>& dstTensor, const LocalTensor<U>& dstIndexTensor,
          const LocalTensor<T>& srcTensor, const LocalTensor<U>& srcIndexTensor,
          const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount,
          lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  (void)sharedTmpBuffer;
  lngrad::aicore::sort_detail::Sort950<T, U, config>(dstTensor, &dstIndexTensor, srcTensor,
                                                     &srcIndexTensor, calCount, loc);
}

template <typename T, typename U, bool isReuseSource = false,
          const SortConfig& config = DEFAULT_SORT_CONFIG>
void Sort(const LocalTensor<T>& dstTensor, const LocalTensor<U>& dstIndexTensor,
          const LocalTensor<T>& srcTensor, const LocalTensor<U>& srcIndexTensor,
          const uint32_t calCount, lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::aicore::sort_detail::Sort950<T, U, config>(dstTensor, &dstIndexTensor, srcTensor,
                                                     &srcIndexTensor, calCount, loc);
}

template <typename T, bool isReuseSource = false, const SortConfig& config = DEFAULT_SORT_CONFIG>
void Sort(LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
          const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount,
          lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  (void)sharedTmpBuffer;
  lngrad::aicore::sort_detail::Sort950<T, uint32_t, config>(dstTensor, nullptr, srcTensor, nullptr,
                                                            calCount, loc);
}

template <typename T, bool isReuseSource = false, const SortConfig& config = DEFAULT_SORT_CONFIG>
void Sort(LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const uint32_t calCount,
          lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::aicore::sort_detail::Sort950<T, uint32_t, config>(dstTensor, nullptr, srcTensor, nullptr,
                                                            calCount, loc);
}

template <typename T, bool isReuseSource = false, const SortConfig& config = DEFAULT_SORT_CONFIG>
void Sort(LocalTensor<T>& dstTensor, LocalTensor<uint32_t>& dstIndexTensor,
          const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
          const uint32_t calCount, lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  (void)sharedTmpBuffer;
  lngrad::aicore::sort_detail::Sort950<T, uint32_t, config>(dstTensor, &dstIndexTensor, srcTensor,
                                                            nullptr, calCount, loc);
}

template <typename T, bool isReuseSource = false, const SortConfig& config = DEFAULT_SORT_CONFIG>
void Sort(LocalTensor<T>& dstTensor, LocalTensor<uint32_t>& dstIndexTensor,
          const LocalTensor<T>& srcTensor, const uint32_t calCount,
          lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::aicore::sort_detail::Sort950<T, uint32_t, config>(dstTensor, &dstIndexTensor, srcTensor,
                                                            nullptr, calCount, loc);
}

}  // namespace AscendC
