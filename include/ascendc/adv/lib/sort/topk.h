// lngrad: the Ascend C high-level API TopK (the vendor's adv_api/sort/topk.h), half and float:
// the k largest (isLargest) or smallest values of each of topKInfo.outter rows of topKInfo.inner
// elements, with their indexes.
//
// The sequence of topk_common_impl.h / topk_v220_impl.h: the row (negated with Muls(-1) when
// !isLargest) sorted descending by Sort32 and four-way, then two-way MrgSort merges, which keeps
// equal values in index order (a stable sort); the first k structures' scores and indexes gathered
// out; for !isLargest the first tilling.maskOffset values of dstValueLocal negated back (padding
// included, as the device's Muls does). Indexes: 0 .. inner-1 (isInitIndex false) or
// srcIndexLocal's (one row for TOPK_NORMAL, outter rows for TOPK_NSMALL). All inner elements
// enter the sort: the caller pads elements n .. inner-1 with values that lose.
// Output layout: TOPK_NORMAL row j's values at j * kAlignTwoBytes (half) or j * kAlignFourBytes
// (float), its indexes at j * kAlignFourBytes; with isHasfinish and finishLocal[j] true, row j's
// k indexes are topKInfo.n. TOPK_NSMALL (inner 32) packs rows at j * k, no finish flags.
//
// Checked mode: 1 <= k <= n <= inner, inner a multiple of 32 (at most 4096 for TOPK_NORMAL,
// exactly 32 for TOPK_NSMALL), the scratch at least tilling.tmpLocalSize elements of T.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "kernel_tiling/kernel_tiling.h"
#include "kernel_tiling/sort_config.h"
#include "lib/math/math_common.h"

namespace AscendC {

constexpr TopKConfig defaultTopKConfig = {TopKAlgo::MERGE_SORT, TopKOrder::UNSET, true};

struct TopKInfo {
  int32_t outter = 1;
  int32_t inner;  // n rounded up to 32 elements
  int32_t n;      // the row's actual length
};

}  // namespace AscendC

namespace lngrad::aicore::checks {
// TopK's k, inner, n or mode outside what the API documents.
inline constexpr const char* kTopKParams = "topk_params";
}  // namespace lngrad::aicore::checks

namespace lngrad::aicore::topk_detail {

inline void Check(bool nsmall, int32_t k, const AscendC::TopKInfo& info, uint64_t tmp_bytes,
                  uint64_t tmp_need) {
  if (!CheckedMode()) return;
  std::string bad;
  if (k < 1 || k > info.n) bad = "k must be in [1, n]";
  if (info.n < 1 || info.n > info.inner) bad = "n must be in [1, inner]";
  if (info.inner % 32 != 0) bad = "inner must be a multiple of 32";
  if (!nsmall && info.inner > 4096) bad = "inner must be at most 4096 in TOPK_NORMAL";
  if (nsmall && info.inner != 32) bad = "inner must be 32 in TOPK_NSMALL";
  if (info.outter < 1) bad = "outter must be at least 1";
  if (!bad.empty()) {
    RaiseKernelCheck(checks::kTopKParams, "TopK: " + bad + " (k " + std::to_string(k) + ", inner " +
                                              std::to_string(info.inner) + ", n " +
                                              std::to_string(info.n) + ")");
  }
  if (tmp_bytes < tmp_need) {
    RaiseKernelCheck(checks::kTmpBuffer, "TopK: the scratch holds " + std::to_string(tmp_bytes) +
                                             " bytes, less than tmpLocalSize's " +
                                             std::to_string(tmp_need));
  }
}

// Row j's sorted order: a stable descending sort of the (possibly negated) scores.
template <typename T>
std::vector<uint32_t> SortedRow(const T* row, uint32_t inner, bool largest) {
  std::vector<uint32_t> order(inner);
  for (uint32_t i = 0; i < inner; ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    const float fa = static_cast<float>(row[a]), fb = static_cast<float>(row[b]);
    return largest ? fa > fb : -fa > -fb;
  });
  return order;
}

template <typename T, bool isInitIndex, bool isHasfinish, bool nsmall>
void Run(const AscendC::LocalTensor<T>& dstValue, const AscendC::LocalTensor<int32_t>& dstIndex,
         const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<int32_t>& srcIndex,
         const AscendC::LocalTensor<bool>& finish, uint64_t tmp_bytes, int32_t k,
         const AscendC::tiling::TopkTiling& tiling, const AscendC::TopKInfo& info, bool isLargest,
         SrcLoc loc) {
  Check(nsmall, k, info, tmp_bytes, uint64_t(std::max(tiling.tmpLocalSize, 0)) * sizeof(T));
  const uint32_t inner = static_cast<uint32_t>(info.inner), rows = info.outter;
  const uint32_t kk = static_cast<uint32_t>(k);
  const uint32_t vstride =
      nsmall ? kk : (sizeof(T) == 4 ? tiling.kAlignFourBytes : tiling.kAlignTwoBytes);
  const uint32_t istride = nsmall ? kk : static_cast<uint32_t>(tiling.kAlignFourBytes);
  const uint64_t vcount =
      isLargest ? uint64_t{rows - 1} * vstride + kk
                : std::max<uint64_t>(tiling.maskOffset, uint64_t{rows - 1} * vstride + kk);
  src.Access(0, uint64_t{rows} * inner, "TopK srcLocal");
  dstValue.Access(0, vcount, "TopK dstValueLocal");
  dstIndex.Access(0, uint64_t{rows - 1} * istride + kk, "TopK dstIndexLocal");
  if (isInitIndex)
    srcIndex.Access(0, nsmall ? uint64_t{rows} * inner : inner, "TopK srcIndexLocal");
  if (isHasfinish && !nsmall) finish.Access(0, rows, "TopK finishLocal");
  detail::RestoreMaskAfterCount(detail::MaskContext("TopK"));
  san::Instr rec(Pipe::kV, "TopK", loc);
  if (rec) {
    rec.Read(src.HostPtr(), uint64_t{rows} * inner * sizeof(T));
    rec.Write(dstValue.HostPtr(), vcount * sizeof(T));
    rec.Write(dstIndex.HostPtr(), (uint64_t{rows - 1} * istride + kk) * 4);
  }
  for (uint32_t j = 0; j < rows; ++j) {
    const T* row = src.HostPtr() + uint64_t{j} * inner;
    const std::vector<uint32_t> order = SortedRow(row, inner, isLargest);
    const int32_t* ids = srcIndex.HostPtr() + (nsmall ? uint64_t{j} * inner : 0);
    const bool done = isHasfinish && !nsmall && finish.HostPtr()[j];
    for (uint32_t i = 0; i < kk; ++i) {
      const T v = row[order[i]];
      dstValue.HostPtr()[uint64_t{j} * vstride + i] = isLargest ? v : T(-static_cast<float>(v));
      dstIndex.HostPtr()[uint64_t{j} * istride + i] =
          done ? info.n : (isInitIndex ? ids[order[i]] : static_cast<int32_t>(order[i]));
    }
  }
  if (!isLargest) {
    for (uint64_t i = 0; i < vcount; ++i) {
      T& v = dstValue.HostPtr()[i];
      v = T(-static_cast<float>(v));
    }
  }
}

}  // namespace lngrad::aicore::topk_detail

namespace AscendC {

template <typename T, bool isInitIndex = false, bool isHasfinish = false, bool isReuseSrc = false,
          enum TopKMode topkMode = TopKMode::TOPK_NORMAL,
          const TopKConfig& config = defaultTopKConfig>
void TopK(const LocalTensor<T>& dstValueLocal, const LocalTensor<int32_t>& dstIndexLocal,
          const LocalTensor<T>& srcLocal, const LocalTensor<int32_t>& srcIndexLocal,
          const LocalTensor<bool>& finishLocal, const LocalTensor<uint8_t>& tmpLocal,
          const int32_t k, const TopkTiling& tilling, const TopKInfo& topKInfo,
          const bool isLargest = true,
          lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  static_assert(lngrad::aicore::math_detail::kHalfOrFloat<T>, "TopK: T must be half or float");
  // The 950 configuration's order, when set, overrides isLargest.
  const bool largest =
      config.order == TopKOrder::UNSET ? isLargest : config.order == TopKOrder::LARGEST;
  lngrad::aicore::topk_detail::Run<T, isInitIndex, isHasfinish, topkMode == TopKMode::TOPK_NSMALL>(
      dstValueLocal, dstIndexLocal, srcLocal, srcIndexLocal, finishLocal,
      tmpLocal.View().size_bytes, k, tilling, topKInfo, largest, loc);
}

template <typename T, bool isInitIndex = false, bool isHasfinish = false, bool isReuseSrc = false,
          enum TopKMode topkMode = TopKMode::TOPK_NORMAL,
          const TopKConfig& config = defaultTopKConfig>
void TopK(const LocalTensor<T>& dstValueLocal, const LocalTensor<int32_t>& dstIndexLocal,
          const LocalTensor<T>& srcLocal, const LocalTensor<int32_t>& srcIndexLocal,
          const LocalTensor<bool>& finishLocal, const int32_t k, const TopkTiling& tilling,
          const TopKInfo& topKInfo, const bool isLargest = true,
          lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  TopK<T, isInitIndex, isHasfinish, isReuseSrc, topkMode, config>(
      dstValueLocal, dstIndexLocal, srcLocal, srcIndexLocal, finishLocal,
      lngrad::aicore::math_detail::StackTmp(), k, tilling, topKInfo, isLargest, loc);
}

}  // namespace AscendC
