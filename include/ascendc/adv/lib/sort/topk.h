// lngrad: the Ascend C high-level API TopK (the vendor's adv_api/sort/topk.h), half and float (the
// 950's radix select: more types): the k largest (isLargest) or smallest values of each of
// topKInfo.outter rows of topKInfo.inner elements, with their indexes.
//
// The sequence of topk_common_impl.h / topk_v220_impl.h: the row (negated with Muls(-1) when
// !isLargest) sorted descending by Sort32 and four-way, then two-way MrgSort merges, which keeps
// equal values in index order (a stable sort); the first k structures' scores and indexes gathered
// out; for !isLargest the first tilling.maskOffset values of dstValueLocal negated back (padding
// included, as the device's Muls does). Indexes: 0 .. inner-1 (isInitIndex false) or
// srcIndexLocal's (one row for TOPK_NORMAL, outter rows for TOPK_NSMALL). All inner elements
// enter the sort: the caller pads elements n .. inner-1 with values that lose.
// Arch 2201 runs that sequence on lngrad's instructions (lib/sort/topk_2201.h: the outputs and
// the scratch are the kit's sequence's), arch 2002 topk_v200_impl.h's proposal sequence
// (lib/sort/topk_v200.h); Run below (a stable sort) is what any other product runs.
// Output layout: TOPK_NORMAL row j's values at j * kAlignTwoBytes (half) or j * kAlignFourBytes
// (float), its indexes at j * kAlignFourBytes; with isHasfinish and finishLocal[j] true, row j's
// k indexes are topKInfo.n. TOPK_NSMALL (inner 32) packs rows at j * k, no finish flags.
//
// Arch 3510 with the MERGE_SORT config, the default (topk_3510_impl.h TopKNormal / TopKNSmall,
// RunMerge950 below): the kit's 950 sequence on lngrad's instructions, which differs from 2201's:
// src negated in place for !isLargest (and negated back, so a number comes back bit for bit),
// each row fully sorted by Sort<T, true> (Sort32 and DoFullSort's merge rounds) in the scratch,
// the first k structures gathered out; so NaN scores and ties land where Sort32 and MrgSort put
// them (sort_ops.h's rules), and the scratch holds what the sequence leaves there.
// Arch 3510 with a TopKConfig of algo RADIX_SELECT (topk_3510_impl.h RadixSelectTopK;
// lib/sort/topk_3510.h RunRadix950): the kit's radix select over the row's first n values (keys
// by their bits, so +0 above -0 and NaNs by their bits above +inf or below -inf), no negation
// and no finish flags (the kit refuses them there), the scratch holding the kit's bytes but for
// the radix Sort's own of `sorted`; `order` LARGEST/SMALLEST overrides isLargest; T also the
// kit's 1, 2 and 4-byte integers and bfloat16_t (its 8-byte types are refused). Elsewhere the
// config runs the merge sequence (half and float only).
//
// Checked mode: 1 <= k <= n <= inner, inner a multiple of 32 (at most 4096 for TOPK_NORMAL,
// exactly 32 for TOPK_NSMALL; on arch 2002 at most 2048 for half without isInitIndex, as
// topk_v200_impl.h asserts), the scratch at least tilling.tmpLocalSize elements of T (the 950's
// radix select: and its own layout, topk_3510.h); on the 3510, 2201 and 2002 paths no overlap of
// tmpLocal with a source or destination, nor of a destination with a source (topk_overlap.h).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "kernel_tiling/kernel_tiling.h"
#include "kernel_tiling/sort_config.h"
#include "lib/math/math_common.h"
#include "lib/sort/sort.h"
#include "lngrad_aicore/gather_ops.h"
#include "lngrad_aicore/logic_ops.h"
#include "lngrad_aicore/vector_ops.h"

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

// half_without_index: T half and !isInitIndex, whose indexes the 2002 sequence carries as half
// (topk_v200_impl.h's TopkInputCheck and the kit's 2002 parameter check assert inner <= 2048).
inline void Check(bool nsmall, int32_t k, const AscendC::TopKInfo& info, uint64_t tmp_bytes,
                  uint64_t tmp_need, bool half_without_index = false) {
  if (!CheckedMode()) return;
  std::string bad;
  if (half_without_index && info.inner > 2048 && detail::rep::RunningArch() == NpuArch::k2002) {
    bad = "inner must be at most 2048 on arch 2002 for half without isInitIndex";
  }
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
  Check(nsmall, k, info, tmp_bytes, uint64_t(std::max(tiling.tmpLocalSize, 0)) * sizeof(T),
        sizeof(T) == 2 && !isInitIndex);
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
    // A finish flag is its byte, nonzero true (read as a byte: a C++ bool load of any other
    // byte than 0 or 1 is undefined).
    const bool done =
        isHasfinish && !nsmall && reinterpret_cast<const uint8_t*>(finish.HostPtr())[j] != 0;
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

// What Run (products other than 2002, 2201 and 3510) leaves in tmpLocal is not modelled (it
// computes the outputs only): the tiling's tmpLocalSize elements of T (the whole buffer when the
// tiling gives none) are left unmodelled for initcheck. The 950's merge sort (RunMerge950),
// 2201's (RunMerge2201) and 2002's (RunV200) run lngrad's instructions on the scratch, and the
// 950's radix select (RunRadix950, topk_3510.h) writes the kit's bytes there (all but its radix
// Sort's own scratch when `sorted`), so its bytes are the device's.
template <typename T>
void LeaveTopKScratch(const AscendC::LocalTensor<uint8_t>& tmp,
                      const AscendC::tiling::TopkTiling& tiling, SrcLoc loc) {
  const uint64_t laid = uint64_t(std::max(tiling.tmpLocalSize, 0)) * sizeof(T);
  math_detail::LeaveScratch("TopK", loc, tmp.View(), laid != 0 ? laid : UINT64_MAX);
}

// Arch 3510, the MERGE_SORT config (topk_3510_impl.h TopKNormal / TopKNSmall outside the
// RadixSelectTopK namespace), run on lngrad's instructions as the kit calls them, the scratch
// (tmpLocal as T) laid out by the 950's tiling: the indexes (CreateVecIndex, NSMALL copied to
// each row), !isLargest negating src in place (Muls by -1), per row Sort<T, true> into
// tmp[innerDataSize] with tmp[0, innerDataSize) as its scratch (NSMALL: one Sort32 over the
// outter rows into tmp), the first k scores and indexes gathered out (GatherMask's built-in
// patterns), finished rows' indexes set to n (Duplicate), then dstValue's first maskOffset
// elements and src negated back by Muls.
template <typename T, bool isInitIndex, bool isHasfinish, bool nsmall>
void RunMerge950(const AscendC::LocalTensor<T>& dstValue,
                 const AscendC::LocalTensor<int32_t>& dstIndex, const AscendC::LocalTensor<T>& src,
                 const AscendC::LocalTensor<int32_t>& srcIndex,
                 const AscendC::LocalTensor<bool>& finish, AscendC::LocalTensor<T> tmp, int32_t k,
                 const AscendC::tiling::TopkTiling& t, const AscendC::TopKInfo& info,
                 bool isLargest, SrcLoc loc) {
  using namespace AscendC;
  const int32_t all = info.outter * info.inner;
  const uint32_t valueMask = sizeof(T) == 4 ? 2 * k : 4 * k;
  const uint8_t valuePattern = sizeof(T) == 4 ? 1 : 3;  // REDUCEV2_MODE_ONE / _THREE
  // The indexes Sort32 reads: srcIndexLocal, or those made in the scratch.
  LocalTensor<uint32_t> idx = srcIndex.template ReinterpretCast<uint32_t>();
  if constexpr (!isInitIndex) {
    LocalTensor<int32_t> made =
        tmp[nsmall ? t.innerDataSize : t.srcIndexOffset].template ReinterpretCast<int32_t>();
    CreateVecIndex(made, int32_t{0}, static_cast<uint32_t>(info.inner), loc);
    if (nsmall && info.outter > 1) {
      Copy(made[info.inner], made, static_cast<uint64_t>(info.inner), info.outter - 1, {1, 1, 4, 0},
           loc);
    }
    idx = made.template ReinterpretCast<uint32_t>();
  }
  if (!isLargest) Muls(src, src, T(-1), all, loc);
  uint64_t rsvd = 0;
  if constexpr (nsmall) {
    Sort32(tmp, src, idx, info.outter, loc);
    const GatherMaskParams p(1, static_cast<uint16_t>(info.outter), 8, 0);
    GatherMask(dstValue, tmp, valuePattern, true, valueMask, p, rsvd, loc);
    GatherMask(dstIndex, tmp.template ReinterpretCast<int32_t>(), uint8_t{2}, true, 2 * k, p, rsvd,
               loc);
  } else {
    const GatherMaskParams p(1, 1, 8, 1);
    const LocalTensor<T> sorted = tmp[t.innerDataSize];
    for (int32_t j = 0; j < info.outter; ++j) {
      const int32_t four = j * t.kAlignFourBytes, two = j * t.kAlignTwoBytes;
      Sort<T, true>(sorted, src[j * info.inner], idx, tmp, static_cast<int32_t>(t.sortRepeat));
      GatherMask(dstValue[sizeof(T) == 4 ? four : two], sorted, valuePattern, true, valueMask, p,
                 rsvd, loc);
      GatherMask(dstIndex[four], sorted.template ReinterpretCast<int32_t>(), uint8_t{2}, true,
                 2 * k, p, rsvd, loc);
      if (isHasfinish && finish.GetValue(j)) Duplicate(dstIndex[four], info.n, k, loc);
    }
  }
  if (!isLargest) {
    Muls(dstValue, dstValue, T(-1), t.maskOffset, loc);
    Muls(src, src, T(-1), all, loc);
  }
}

}  // namespace lngrad::aicore::topk_detail

#include "lib/sort/topk_overlap.h"
// Arch 2201's sequence (RunMerge2201).
#include "lib/sort/topk_2201.h"
// Arch 3510's radix select (RunRadix950); it uses TopKInfo and checks::kTmpBuffer above.
#include "lib/sort/topk_3510.h"
// Arch 2002's sequence (RunV200); it uses TopKInfo and Check above.
#include "lib/sort/topk_v200.h"

namespace lngrad::aicore::topk_detail {

// TopK's merge-sort sequences (a TopKConfig of MERGE_SORT, or RADIX_SELECT off arch 3510), half
// and float: arch 3510's, 2201's, 2002's, else Run (a stable sort).
template <typename T, bool isInitIndex, bool isHasfinish, AscendC::TopKMode topkMode>
void TopKMergePaths(const AscendC::LocalTensor<T>& dstValueLocal,
                    const AscendC::LocalTensor<int32_t>& dstIndexLocal,
                    const AscendC::LocalTensor<T>& srcLocal,
                    const AscendC::LocalTensor<int32_t>& srcIndexLocal,
                    const AscendC::LocalTensor<bool>& finishLocal,
                    const AscendC::LocalTensor<uint8_t>& tmpLocal, const int32_t k,
                    const AscendC::tiling::TopkTiling& tilling, const AscendC::TopKInfo& topKInfo,
                    bool largest, SrcLoc loc) {
  constexpr bool kNSmall = topkMode == AscendC::TopKMode::TOPK_NSMALL;
  if (lngrad::aicore::detail::rep::RunningArch() == lngrad::NpuArch::k3510) {
    Check(kNSmall, k, topKInfo, tmpLocal.View().size_bytes,
          uint64_t(std::max(tilling.tmpLocalSize, 0)) * sizeof(T));
    RefuseMergeOverlaps<T, isInitIndex, isHasfinish, kNSmall>(
        steps::kMerge950, dstValueLocal, dstIndexLocal, srcLocal, srcIndexLocal, finishLocal,
        tmpLocal, k, tilling, topKInfo, largest);
    RunMerge950<T, isInitIndex, isHasfinish && !kNSmall, kNSmall>(
        dstValueLocal, dstIndexLocal, srcLocal, srcIndexLocal, finishLocal,
        tmpLocal.template ReinterpretCast<T>(), k, tilling, topKInfo, largest, loc);
    return;
  }
  if (lngrad::aicore::detail::rep::RunningArch() == lngrad::NpuArch::k2201) {
    Check(kNSmall, k, topKInfo, tmpLocal.View().size_bytes,
          uint64_t(std::max(tilling.tmpLocalSize, 0)) * sizeof(T));
    RefuseMergeOverlaps<T, isInitIndex, isHasfinish, kNSmall>(
        steps::kMerge2201, dstValueLocal, dstIndexLocal, srcLocal, srcIndexLocal, finishLocal,
        tmpLocal, k, tilling, topKInfo, largest);
    RunMerge2201<T, isInitIndex, isHasfinish, kNSmall>(
        dstValueLocal, dstIndexLocal, srcLocal, srcIndexLocal, finishLocal,
        tmpLocal.template ReinterpretCast<T>(), k, tilling, topKInfo, largest, loc);
    return;
  }
  if (lngrad::aicore::detail::rep::RunningArch() == lngrad::NpuArch::k2002) {
    RunV200<T, isInitIndex, isHasfinish, kNSmall>(dstValueLocal, dstIndexLocal, srcLocal,
                                                  srcIndexLocal, finishLocal, tmpLocal, k, tilling,
                                                  topKInfo, largest, loc);
    return;
  }
  Run<T, isInitIndex, isHasfinish, kNSmall>(dstValueLocal, dstIndexLocal, srcLocal, srcIndexLocal,
                                            finishLocal, tmpLocal.View().size_bytes, k, tilling,
                                            topKInfo, largest, loc);
  LeaveTopKScratch<T>(tmpLocal, tilling, loc);
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
  namespace td = lngrad::aicore::topk_detail;
  static_assert(config.algo == TopKAlgo::RADIX_SELECT
                    ? td::kRadixType<T>
                    : lngrad::aicore::math_detail::kHalfOrFloat<T>,
                "TopK: T must be half or float (the radix select: also uint8_t, int8_t, uint16_t, "
                "int16_t, bfloat16_t, uint32_t, int32_t; lngrad refuses its 8-byte types)");
  // The 950 configuration's order, when set, overrides isLargest.
  const bool largest =
      config.order == TopKOrder::UNSET ? isLargest : config.order == TopKOrder::LARGEST;
  if constexpr (config.algo == TopKAlgo::RADIX_SELECT) {
    constexpr bool kNSmall = topkMode == TopKMode::TOPK_NSMALL;
    static_assert(!isHasfinish, "TopK: the radix select algorithm takes no finish flags");
    if (lngrad::aicore::detail::rep::RunningArch() == lngrad::NpuArch::k3510) {
      td::Check(kNSmall, k, topKInfo, tmpLocal.View().size_bytes,
                uint64_t(std::max(tilling.tmpLocalSize, 0)) * sizeof(T));
      td::RunRadix950<T, isInitIndex, isReuseSrc, kNSmall>(dstValueLocal, dstIndexLocal, srcLocal,
                                                           srcIndexLocal, tmpLocal, k, topKInfo,
                                                           largest, config.sorted, loc);
      return;
    }
  }
  if constexpr (!lngrad::aicore::math_detail::kHalfOrFloat<T>) {
    lngrad::aicore::RaiseKernelCheck(lngrad::aicore::checks::kProduct,
                                     "TopK: only arch 3510's radix select takes this type");
    return;
  } else {
    td::TopKMergePaths<T, isInitIndex, isHasfinish, topkMode>(
        dstValueLocal, dstIndexLocal, srcLocal, srcIndexLocal, finishLocal, tmpLocal, k, tilling,
        topKInfo, largest, loc);
  }
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
