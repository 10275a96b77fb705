// lngrad: the Ascend C high-level API Sign (the vendor's adv_api/math/sign.h): half and float
// (int64_t on Ascend 950 only).
//
// The result is the device's sequence on arch 2201 (sign_common_impl.h), per element in T: lt =
// x < 0, gt = x > 0 (Compare against a block of 0); a = lt ? 0 : 1; b = gt ? 0 : -1 (Select);
// r = a + b. So -1 for x < 0, 1 for x > 0, +0 for either zero and for NaN (which compares
// neither less nor greater): exact. Arch 3510 runs its register implementation; the result is
// the same exact function.
//
// Checked mode: calCount within every operand, operands 32-byte aligned and dst disjoint from
// src, sharedTmpBuffer at least GetSignMaxMinTmpSize's minimum (768 bytes) on 2201/2002 and
// disjoint from the operands, int64_t on arch 3510 only.
#pragma once

#include <cstdint>
#include <type_traits>

#include "lib/math/math_steps.h"

namespace lngrad::aicore::math_detail {

template <typename T>
T SignSteps(T x) {
  if constexpr (std::is_same_v<T, int64_t>) {
    return static_cast<T>((x < 0 ? 0 : 1) + (x > 0 ? 0 : -1));
  } else {
    const float v = static_cast<float>(x);
    const float a = v < 0.0f ? 0.0f : 1.0f, b = v > 0.0f ? 0.0f : -1.0f;
    return T(a + b);
  }
}

}  // namespace lngrad::aicore::math_detail

namespace AscendC {

template <typename T, bool isReuseSource = false>
void Sign(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
          const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount,
          lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  namespace m = lngrad::aicore::math_detail;
  static_assert(m::kHalfOrFloat<T> || std::is_same_v<T, int64_t>,
                "Sign: T must be half, float or int64_t");
  const m::Products products =
      std::is_same_v<T, int64_t> ? m::Products::kOnly3510 : m::Products::kAll;
  m::UnaryPass("Sign", products, m::Overlap::kNone, dstTensor, srcTensor, &sharedTmpBuffer,
               m::TmpMinBytes(3), calCount, loc, [](T x) { return m::SignSteps(x); });
}

LNGRAD_MATH_UNARY_FORWARDS(Sign)

}  // namespace AscendC
