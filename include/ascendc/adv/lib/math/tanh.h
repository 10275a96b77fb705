// lngrad: the Ascend C high-level API Tanh (the vendor's adv_api/math/tanh.h), half and float.
//
// The result is the device's sequence on arch 2201 (tanh_common_impl.h), per element in float
// (half widened exactly, the result rounded to half, CAST_NONE), each step one instruction
// (math_steps.h): c = Maxs(Mins(x, 8.8), -8.8) (a NaN becomes 8.8, so Tanh(NaN) = 1, the
// device's Mins convention); c = c * 2; e = Exp(c) (double, rounded once); r = (e + -1) / (e +
// 1). Arch 3510 runs its register implementation, whose bits lngrad does not model: there the
// same sequence runs.
//
// Checked mode: calCount within every operand, operands 32-byte aligned and dst disjoint from
// src, sharedTmpBuffer at least GetTanhMaxMinTmpSize's minimum on 2201/2002 (256 bytes for
// float, 1024 for half) and disjoint from the operands.
#pragma once

#include <cstdint>
#include <type_traits>

#include "lib/math/math_steps.h"

namespace lngrad::aicore::math_detail {

inline float TanhSteps(float x) {
  float c = MaxsF(MinsF(x, 8.8f), -8.8f);
  c = c * 2.0f;
  const float e = ExpF(c);
  const float num = e + -1.0f;
  const float den = e + 1.0f;
  return num / den;
}

}  // namespace lngrad::aicore::math_detail

namespace AscendC {

template <typename T, bool isReuseSource = false>
void Tanh(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
          const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount,
          lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  namespace m = lngrad::aicore::math_detail;
  static_assert(m::kHalfOrFloat<T>, "Tanh: T must be half or float");
  const uint64_t tmp_min = m::TmpMinBytes(std::is_same_v<T, float> ? 1 : 4);
  m::UnaryPass("Tanh", m::Products::kAll, m::Overlap::kNone, dstTensor, srcTensor, &sharedTmpBuffer,
               tmp_min, calCount, loc, [](T x) { return m::Narrow<T>(m::TanhSteps(m::Widen(x))); });
}

LNGRAD_MATH_UNARY_FORWARDS(Tanh)

}  // namespace AscendC
