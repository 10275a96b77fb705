// lngrad: the Ascend C high-level API Acosh (the vendor's adv_api/math/acosh.h), half and float.
//
// The result is the device's sequence on arch 2201 (acosh_common_impl.h), per element in float
// (half widened exactly), each step one float instruction (math_steps.h): t = x * x; t = t +
// (-1); t = Sqrt(t); t = x + t; d = t / t; t = t * d; r = Ln(t) (double, rounded once); half:
// rounded to half (CAST_NONE). So x < 1 gives NaN (Sqrt of a negative), x = 1 gives 0, and
// x*x overflowing (|x| > ~1.8e19 in float) gives inf / inf = NaN, as on the device. Arch 3510
// (acosh_3510_impl.h, register code): the same steps without t * (t / t), so there x*x
// overflowing gives Ln(inf) = inf; half rounded back CAST_RINT without saturation.
//
// Checked mode: calCount within every operand, operands 32-byte aligned and dst disjoint from
// src, sharedTmpBuffer at least GetAcoshMaxMinTmpSize's minimum on 2201/2002 (256 bytes for
// float, 512 for half) and disjoint from the operands.
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "lib/math/math_steps.h"

namespace lngrad::aicore::math_detail {

inline float AcoshSteps(float x) {
  float t = x * x;
  t = t + -1.0f;
  t = std::sqrt(t);
  t = x + t;
  if (On3510()) return LnF(t);
  const float d = t / t;
  t = t * d;
  return LnF(t);
}

}  // namespace lngrad::aicore::math_detail

namespace AscendC {

template <typename T, bool isReuseSource = false>
void Acosh(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
           const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount,
           lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  namespace m = lngrad::aicore::math_detail;
  static_assert(m::kHalfOrFloat<T>, "Acosh: T must be half or float");
  const uint64_t tmp_min = m::TmpMinBytes(std::is_same_v<T, float> ? 1 : 2);
  m::UnaryPass("Acosh", m::Products::kAll, m::Overlap::kNone, dstTensor, srcTensor,
               &sharedTmpBuffer, tmp_min, calCount, loc,
               [](T x) { return m::Narrow<T>(m::AcoshSteps(m::Widen(x))); });
}

LNGRAD_MATH_UNARY_FORWARDS(Acosh)

}  // namespace AscendC
