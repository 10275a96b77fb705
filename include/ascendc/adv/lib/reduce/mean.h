// lngrad: the Ascend C high-level API Mean (the vendor's adv_api/reduce/mean.h, mean_utils.h):
// dst[r] = the mean of the first n elements of row r (rows of `inner` elements), r < outter;
// T = accType (half or float), or half data accumulated in float.
//
// The sequence of mean_common_impl.h: the row's repeat sums level by level (Sum's trees, sum.h),
// then one Muls by T(1.0f / n). half with accType float: the row cast to float (exact), float
// repeat sums, Muls by 1.0f / n in float, the cast to half (round to nearest even) and one
// RepeatReduceSum of that single half (+0 lanes). Arch 3510 (mean_3510_impl.h): the repeat sums
// are register trees (reduce_3510.h SumRow3510) and the half-in-float form ends at the cast;
// the level sums are left in sharedTmpBuffer as the 950 stores them (as float for half in float).
//
// Checked mode: n in [1, inner], inner * sizeof(T) a multiple of 32, 32-byte aligned operands,
// sharedTmpBuffer at least GetMeanMaxMinTmpSize's value.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "lib/reduce/reduce_model.h"
#include "lib/reduce/sum.h"

namespace AscendC {

struct MeanParams {
  uint32_t outter = 1;
  uint32_t inner;  // n rounded up to 32 bytes
  uint32_t n;      // the elements averaged per row
};

template <typename T, typename accType = T, bool isReuseSource = false, bool isBasicBlock = false,
          int32_t reduceDim = -1>
void Mean(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
          const LocalTensor<uint8_t>& sharedTmpBuffer, const MeanParams& meanParams,
          lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  namespace rd = lngrad::aicore::reduce_detail;
  namespace r = lngrad::aicore::detail::rep;
  static_assert(lngrad::aicore::math_detail::kHalfOrFloat<T>, "Mean: T must be half or float");
  constexpr bool kWiden = std::is_same_v<T, half> && std::is_same_v<accType, float>;
  static_assert(std::is_same_v<T, accType> || kWiden, "Mean: accType must be T, or float for half");
  const SumParams p{meanParams.outter, meanParams.inner, meanParams.n};
  rd::SumCheck(dstTensor, srcTensor, sharedTmpBuffer, p, "Mean",
               rd::MeanTmpBytes(meanParams.n, meanParams.inner, sizeof(T), kWiden));
  lngrad::aicore::detail::RestoreMaskAfterCount(lngrad::aicore::detail::MaskContext("Mean"));
  rd::RecordRows("Mean", loc, dstTensor, srcTensor, p);
  const float rec = 1.0f / static_cast<float>(static_cast<int32_t>(meanParams.n));
  const bool on3510 = rd::On3510();
  using Conv = std::conditional_t<kWiden, float, T>;  // the kit's ConvType
  const uint64_t offset = rd::SumLevelsOffset<Conv>(meanParams.inner);
  rd::Mem<Conv> tm = on3510 ? rd::Mem<Conv>::Of(sharedTmpBuffer, meanParams.outter * offset)
                            : rd::Mem<Conv>(nullptr, 0, 0);
  uint32_t row = 0;
  auto sum = [&](const Conv* v) {
    return on3510 ? rd::SumRowMem3510(v, meanParams.n, tm, row * offset)
                  : rd::SumRow(v, meanParams.n);
  };
  for (; row < meanParams.outter; ++row) {
    const T* x = srcTensor.HostPtr() + uint64_t{row} * meanParams.inner;
    if constexpr (kWiden) {
      std::vector<float> f(x, x + meanParams.n);
      half single[r::kLanes<half>] = {};
      single[0] = half(sum(f.data()) * rec);
      dstTensor.HostPtr()[row] = on3510 ? single[0] : r::RepeatSum(single);
    } else {
      (void)rec;
      dstTensor.HostPtr()[row] = rd::Scale(sum(x), meanParams.n);
    }
  }
  rd::CommitScratch("Mean", loc, tm);
  // 2201/2002: mean_common_impl.h's casts and level sums in sharedTmpBuffer are not modelled.
  if (!on3510) lngrad::aicore::math_detail::LeaveScratch("Mean", loc, sharedTmpBuffer.View());
}

template <typename T, typename accType = T, bool isReuseSource = false, bool isBasicBlock = false,
          int32_t reduceDim = -1>
void Mean(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
          const MeanParams& meanParams,
          lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  Mean<T, accType, isReuseSource, isBasicBlock, reduceDim>(
      dstTensor, srcTensor, lngrad::aicore::math_detail::StackTmp(), meanParams, loc);
}

}  // namespace AscendC
