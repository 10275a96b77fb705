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
// 2201/2002: the scratch holds what the kit's loop leaves (the last row's levels, sum.h
// LeaveSumLevels; half in float: its float row, levels and cast, LeaveMeanCastScratch).
//
// Checked mode: n in [1, inner], inner * sizeof(T) a multiple of 32, 32-byte aligned operands,
// sharedTmpBuffer at least GetMeanMaxMinTmpSize's value.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
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

}  // namespace AscendC

namespace lngrad::aicore::reduce_detail {

// What mean_common_impl.h's MeanCast (Mean<half, float>, 2201/2002) leaves in sharedTmpBuffer:
// the last row (`x`) cast to float at the scratch's start (n floats), its float levels of
// repeat sums from float `inner` on, each over the one before down to the single sum (no
// one-repeat shortcut), that sum times `rec` (Muls), and the half of it (the Cast) over the
// first two bytes. Past the scratch: an overrun (the kit's minimum, GetMeanMaxMinTmpSize,
// counts the levels' floats as bytes: n past 512 overruns it; checked mode raises).
inline void LeaveMeanCastScratch(SrcLoc loc, const AscendC::LocalTensor<uint8_t>& tmp,
                                 const half* x, uint32_t n, uint32_t inner, float rec) {
  constexpr uint32_t kL = detail::rep::kLanes<float>;
  uint8_t* base = tmp.HostPtr();
  if (base == nullptr || n == 0) return;
  const uint64_t first = (uint64_t{n} + kL - 1) / kL;
  const uint64_t words = std::max<uint64_t>(n, inner + first);
  if (words * sizeof(float) > tmp.View().size_bytes) {
    detail::OnTensorOverrun(tmp.View(), 0, words, sizeof(float),
                            "Mean sharedTmpBuffer (the float row and its level sums)");
  }
  std::vector<float> v(x, x + n);
  std::memcpy(base, v.data(), sizeof(float) * n);
  uint8_t* sums = base + sizeof(float) * uint64_t{inner};
  while (true) {
    const uint32_t repeats = (static_cast<uint32_t>(v.size()) + kL - 1) / kL;
    std::vector<float> next(repeats);
    for (uint32_t i = 0; i < repeats; ++i) {
      float lanes[kL] = {};
      const uint32_t end = std::min<uint32_t>(static_cast<uint32_t>(v.size()), (i + 1) * kL);
      std::copy(v.begin() + i * kL, v.begin() + end, lanes);
      next[i] = detail::rep::RepeatSum(lanes);
    }
    std::memcpy(sums, next.data(), sizeof(float) * repeats);
    v.swap(next);
    if (repeats == 1) break;
  }
  const float mean = v[0] * rec;
  std::memcpy(sums, &mean, sizeof mean);
  const half h = half(mean);
  std::memcpy(base, &h, sizeof h);
  san::Instr r(Pipe::kV, "Mean", loc);
  if (!r) return;
  r.Write(base, sizeof(float) * uint64_t{n});
  r.Write(sums, sizeof(float) * first);
}

}  // namespace lngrad::aicore::reduce_detail

namespace AscendC {

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
  if (on3510 || meanParams.outter == 0) return;
  const T* last = srcTensor.HostPtr() + uint64_t{meanParams.outter - 1} * meanParams.inner;
  if constexpr (kWiden) {
    rd::LeaveMeanCastScratch(loc, sharedTmpBuffer, last, meanParams.n, meanParams.inner, rec);
  } else {
    rd::LeaveSumLevels("Mean", loc, sharedTmpBuffer, last, meanParams.n);
  }
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
