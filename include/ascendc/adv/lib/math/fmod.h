// lngrad: the Ascend C high-level API Fmod (the vendor's adv_api/math/fmod.h), half and float.
//
// The result is the device's operation sequence on arch 2201/2002 (fmod_common_impl.h), each
// step one IEEE binary32 operation: q = a / b; t = Trunc(q); r = a - t * b (the product rounded
// before the subtraction), half through float (exact) and back to half with round-to-nearest-
// even. It is C's fmod when every step is exact (integer-valued operands below 2^12, for one);
// otherwise the rounding of q and of t * b shows (large quotients differ from C's fmod by far),
// and Fmod(x, 0) = Fmod(x, ±inf) = NaN. That is what the device gives. Arch 3510
// (fmod_3510_impl.h, register code), FmodConfig NORMAL: r = fma(Trunc(a / b), -b, a) (one
// fused multiply-add), then its exception cases: a for b = +-inf, NaN for a and b both infinite,
// a (its signed zero) for a = +-0 and b neither zero nor NaN; half through float and back to
// nearest even without saturation. Its ITERATION_COMPENSATION (float) scheme is not modelled:
// NORMAL's sequence runs for it there.
//
// Checked mode: calCount within every operand, operands 32-byte aligned and dst disjoint from
// src0 and src1, sharedTmpBuffer at least GetFmodMaxMinTmpSize's minimum on 2201/2002 (256
// bytes for float, 2048 for half) and disjoint from the operands.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>

#include "lib/math/math_common.h"
#include "lib/math/math_steps.h"

namespace lngrad::aicore::math_detail {

// One element of Fmod on the running arch, in float.
inline float FmodOf(float a, float b) {
  if (!On3510()) {
    const float t = std::trunc(a / b);
    const float p = t * b;
    return a - p;
  }
  float r = std::fma(std::trunc(a / b), -b, a);
  if (std::isinf(b)) r = a;
  if (std::isinf(a) && std::isinf(b)) r = std::numeric_limits<float>::quiet_NaN();
  if (a == 0.0f && b != 0.0f && !std::isnan(b)) r = a;
  return r;
}

}  // namespace lngrad::aicore::math_detail

namespace AscendC {

inline constexpr uint32_t FMOD_ITERATION_NUM_MAX = 11;

enum class FmodAlgo {
  NORMAL = 0,
  ITERATION_COMPENSATION = 1,
};

struct FmodConfig {
  FmodAlgo algo = FmodAlgo::NORMAL;
  uint32_t iterationNum = FMOD_ITERATION_NUM_MAX;
};

constexpr FmodConfig DEFAULT_FMOD_CONFIG = {FmodAlgo::NORMAL, FMOD_ITERATION_NUM_MAX};

template <typename T, bool isReuseSource = false, const FmodConfig& config = DEFAULT_FMOD_CONFIG>
void Fmod(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
          const LocalTensor<T>& src1Tensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
          const uint32_t calCount, lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  namespace m = lngrad::aicore::math_detail;
  static_assert(m::kHalfOrFloat<T>, "Fmod: T must be half or float");
  static_assert(config.algo == FmodAlgo::NORMAL || std::is_same_v<T, float>,
                "Fmod: ITERATION_COMPENSATION supports float only");
  const uint64_t tmp_min = m::TmpMinBytes(sizeof(T) == 4 ? 1 : 8);
  m::BinaryPass("Fmod", m::Products::kAll, m::Overlap::kNone, dstTensor, src0Tensor, src1Tensor,
                &sharedTmpBuffer, tmp_min, calCount, loc,
                [](T a, T b) { return m::Narrow<T>(m::FmodOf(m::Widen(a), m::Widen(b))); });
}

template <typename T, bool isReuseSource = false, const FmodConfig& config = DEFAULT_FMOD_CONFIG>
void Fmod(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
          const LocalTensor<T>& src1Tensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
          lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  Fmod<T, isReuseSource, config>(dstTensor, src0Tensor, src1Tensor, sharedTmpBuffer,
                                 src0Tensor.GetSize(), loc);
}

template <typename T, bool isReuseSource = false, const FmodConfig& config = DEFAULT_FMOD_CONFIG>
void Fmod(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
          const LocalTensor<T>& src1Tensor, const uint32_t calCount,
          lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  Fmod<T, isReuseSource, config>(dstTensor, src0Tensor, src1Tensor,
                                 lngrad::aicore::math_detail::StackTmp(), calCount, loc);
}

template <typename T, bool isReuseSource = false, const FmodConfig& config = DEFAULT_FMOD_CONFIG>
void Fmod(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
          const LocalTensor<T>& src1Tensor,
          lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  Fmod<T, isReuseSource, config>(dstTensor, src0Tensor, src1Tensor, src0Tensor.GetSize(), loc);
}

}  // namespace AscendC
