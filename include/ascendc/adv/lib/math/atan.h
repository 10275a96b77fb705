// lngrad: the Ascend C high-level API Atan (the vendor's adv_api/math/atan.h), half and float.
//
// The result is the device's sequence on arch 2201 (atan_common_impl.h), per element in float
// (half widened exactly, the result rounded to half, CAST_NONE), each step one instruction
// (math_steps.h): c = Maxs(Mins(x, 10000), -10000); a = |c|; P_n(v) = ((v^2 f_n + f_{n-1})
// v^2 + ... + f_1) v^2 + 1) v with f_i = (-1)^i / (2i + 1) in float; the minimum (Min) of four
// candidates: P_4(a); P_4(|(a - t) / (a t + 1)|) + pi/8 with t = tan(pi/8); P_4(u) + pi/4 with
// u = |(a - 1) / (a + 1)|; P_6(|(u - t) / (u t + 1)|) + pi/8 + pi/4; times the sign (c * 2^62) /
// (|c * 2^62| + 2^-62). Arch 3510 runs its register implementation, whose bits lngrad does not
// model: there the same sequence runs.
//
// Checked mode: calCount within every operand, operands 32-byte aligned and dst disjoint from
// src, sharedTmpBuffer at least GetAtanMaxMinTmpSize's minimum on 2201/2002 (256 bytes times 5
// for float, 12 for half) and disjoint from the operands.
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "lib/math/math_steps.h"

namespace lngrad::aicore::math_detail {

// The Taylor polynomial of atan of degree 2n + 1 at v.
inline float AtanTaylor(float v, int n) {
  constexpr float kFactors[7] = {1.0f,
                                 static_cast<float>(-0.3333333333333333),
                                 0.2f,
                                 static_cast<float>(-0.14285714285714285),
                                 static_cast<float>(0.1111111111111111),
                                 static_cast<float>(-0.09090909090909091),
                                 static_cast<float>(0.07692307692307693)};
  const float sq = v * v;
  float d = v * v;
  d = d * kFactors[n];
  for (int i = n - 1; i > 0; --i) {
    d = d + kFactors[i];
    d = d * sq;
  }
  d = d + kFactors[0];
  return d * v;
}

// |(v - t) / (v t + 1)|: atan(v) - atan(t) as a tangent.
inline float AtanTransform(float v, float t) {
  float d = v * t;
  d = d + 1.0f;
  const float num = v + (0.0f - t);
  return std::fabs(num / d);
}

template <typename T>
T AtanOf(T x) {
  constexpr float kPi4 = 0.78539816339744830961566084581988f;
  constexpr float kPi8 = 0.39269908169872415480783042290994f;
  constexpr float kTanPi8 = 0.4142135623730950f;
  const float c = MaxsF(MinsF(Widen(x), 10000.0f), -10000.0f);
  const float a = std::fabs(c);
  float res = AtanTaylor(a, 4);
  res = MinOf(res, AtanTaylor(AtanTransform(a, kTanPi8), 4) + kPi8);
  const float num = a + -1.0f;
  const float den = a + 1.0f;
  const float u = std::fabs(num / den);
  res = MinOf(res, AtanTaylor(u, 4) + kPi4);
  float r4 = AtanTaylor(AtanTransform(u, kTanPi8), 6) + kPi8;
  r4 = r4 + kPi4;
  res = MinOf(res, r4);
  return Narrow<T>(res * SignByDivision(c));
}

}  // namespace lngrad::aicore::math_detail

namespace AscendC {

LNGRAD_MATH_UNARY_API(Atan, 5, 12, AtanOf)

}  // namespace AscendC
