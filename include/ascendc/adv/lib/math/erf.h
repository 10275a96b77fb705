// lngrad: the Ascend C high-level API Erf (the vendor's adv_api/math/erf.h), half and float.
//
// The result is the device's sequence on arch 2201 (erf_common_impl.h), per element in float
// (half widened exactly), each step one float instruction (math_steps.h): x = Maxs(Mins(x,
// 3.92), -3.92) (a NaN becomes 3.92, the device's Mins convention); s = x * x;
//   P = x * (((((0.053443748819 s + 7.5517016694) s + 101.62808918) s + 1393.8061484) s
//       + 5063.7915060) s + 29639.384698),
//   Q = ((((s + 31.212858877) s + 398.56963806) s + 3023.1248150) s + 13243.365831) s
//       + 26267.224157
// (every * and + rounded, the constants rounded to float); Erf = P / Q; half: rounded to half
// with CAST_ROUND (ties away from zero) as on arch 2201. Arch 3510 runs its register
// implementations (ErfConfig), whose bits lngrad does not model: there the same sequence runs
// for either algo.
//
// Checked mode: calCount within every operand, operands 32-byte aligned and dst disjoint from
// src, sharedTmpBuffer at least GetErfMaxMinTmpSize's minimum on 2201/2002 (768 bytes for
// float, 2048 for half) and disjoint from the operands.
#pragma once

#include <cstdint>
#include <type_traits>

#include "lib/math/math_steps.h"

namespace AscendC {

enum class ErfAlgo {
  PADE_APPROXIMATION = 0,
  SUBSECTION_POLYNOMIAL_APPROXIMATION,
};

struct ErfConfig {
  ErfAlgo algo = ErfAlgo::PADE_APPROXIMATION;
};

constexpr ErfConfig defaultErfConfig = {ErfAlgo::PADE_APPROXIMATION};

}  // namespace AscendC

namespace lngrad::aicore::math_detail {

// The rational approximation above, in float.
inline float ErfRational(float x0) {
  const float x = MaxsF(MinsF(x0, 3.92f), -3.92f);
  const float s = x * x;
  float p = s * 0.053443748819f;
  for (const float c : {7.5517016694f, 101.62808918f, 1393.8061484f, 5063.7915060f}) {
    p = p + c;
    p = s * p;
  }
  p = p + 29639.384698f;
  p = x * p;
  float q = s + 31.212858877f;
  for (const float c : {398.56963806f, 3023.1248150f, 13243.365831f}) {
    q = s * q;
    q = q + c;
  }
  q = s * q;
  q = q + 26267.224157f;
  return p / q;
}

template <typename T>
T ErfOf(T x) {
  return Narrow<T>(ErfRational(Widen(x)), AscendC::RoundMode::CAST_ROUND);
}

}  // namespace lngrad::aicore::math_detail

namespace AscendC {

template <typename T, bool isReuseSource = false, const ErfConfig& config = defaultErfConfig>
void Erf(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
         const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount,
         lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  namespace m = lngrad::aicore::math_detail;
  static_assert(m::kHalfOrFloat<T>, "Erf: T must be half or float");
  const uint64_t tmp_min = m::TmpMinBytes(std::is_same_v<T, float> ? 3 : 8);
  m::UnaryPass("Erf", m::Products::kAll, m::Overlap::kNone, dstTensor, srcTensor, &sharedTmpBuffer,
               tmp_min, calCount, loc, [](T x) { return m::ErfOf(x); });
}

LNGRAD_MATH_UNARY_FORWARDS_CONFIG(Erf, ErfConfig, defaultErfConfig)

}  // namespace AscendC
