// lngrad: the Ascend C high-level API Atan (the vendor's adv_api/math/atan.h), half and float.
//
// The result is the device's sequence on arch 2201 (atan_common_impl.h), per element in float
// (half widened exactly, the result rounded to half, CAST_NONE), each step one instruction
// (math_steps.h): c = Maxs(Mins(x, 10000), -10000); a = |c|; P_n(v) = ((v^2 f_n + f_{n-1})
// v^2 + ... + f_1) v^2 + 1) v with f_i = (-1)^i / (2i + 1) in float; the minimum (Min) of four
// candidates: P_4(a); P_4(|(a - t) / (a t + 1)|) + pi/8 with t = tan(pi/8); P_4(u) + pi/4 with
// u = |(a - 1) / (a + 1)|; P_6(|(u - t) / (u t + 1)|) + pi/8 + pi/4; times the sign (c * 2^62) /
// (|c * 2^62| + 2^-62). Arch 3510 (atan_3510_impl.h, register code) by AtanConfig.algo:
//   TAYLOR_EXPANSION (the default): the same candidates with the register Mins/Maxs/Min (NaN
//   stays NaN) and the 3510 TaylorExpand, which adds f_n once more after v^2 f_n (P_4: ((((v^2 f4
//   + f4) v^2 + f3) v^2 + f2) v^2 + f1) v^2 + 1, then * v) and, for n = 6, adds f5 and f4 in a
//   row; half rounded back to nearest even without saturation;
//   POLYNOMIAL_APPROXIMATION (float only): v = |x| >= 1 ? 1 / |x| : |x|, s = v^2, y = a8 s + a7
//   then y = y s + a_i (i = 6..1), each one fused multiply-add, y = fma(y s, v, v); for |x| >= 1
//   y = fma(b1, b2, -y) (b1 b2 ~ pi/2); the result y with x's sign bit or-ed in.
// The config is the 950's (off it the 2201 sequence runs whatever it says).
// The scratch on 2201/2002 (sharedTmpBuffer or the stack buffer; the same kit file on both) is
// left as the kit's rounds leave it (LeaveAtanScratch: the sign, c, |c|, Sign's denominator, the
// last transform squared, and for half the float result).
//
// Checked mode: calCount within every operand, operands 32-byte aligned and dst disjoint from
// src, sharedTmpBuffer at least GetAtanMaxMinTmpSize's minimum on 2201/2002 (256 bytes times 5
// for float, 12 for half) and disjoint from the operands.
#pragma once

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "lib/math/math_scratch.h"
#include "lib/math/math_steps.h"

namespace AscendC {

enum class AtanAlgo {
  TAYLOR_EXPANSION = 0,
  POLYNOMIAL_APPROXIMATION,
};

struct AtanConfig {
  AtanAlgo algo = AtanAlgo::TAYLOR_EXPANSION;
};

constexpr AtanConfig defaultAtanConfig = {AtanAlgo::TAYLOR_EXPANSION};

}  // namespace AscendC

namespace lngrad::aicore::math_detail {

// f_i = (-1)^i / (2i + 1) as the sources write them (double literals rounded to float).
inline constexpr float kAtanFactors[7] = {1.0f,
                                          static_cast<float>(-0.3333333333333333),
                                          0.2f,
                                          static_cast<float>(-0.14285714285714285),
                                          static_cast<float>(0.1111111111111111),
                                          static_cast<float>(-0.09090909090909091),
                                          static_cast<float>(0.07692307692307693)};

// The Taylor polynomial of atan of degree 2n + 1 at v.
inline float AtanTaylor(float v, int n) {
  const float* kFactors = kAtanFactors;
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

// The 3510 TaylorExpand of level n (4 or 6) at v, the source's chain.
inline float AtanTaylor3510(float v, int n) {
  const auto f = [](int i) { return kAtanFactors[i]; };
  const float sq = v * v;
  float d = (v * v) * f(n);
  if (n == 6) d = ((d + f(6)) * sq + f(5));
  d = d + f(4);
  for (int i = 3; i >= 0; --i) d = d * sq + f(i);
  return d * v;
}

// What the 2201 sequence leaves in its clip, abs and square tensors: c, |c| and w * w, w the
// last transform |(u - t) / (u t + 1)|.
struct AtanParts {
  float clip = 0, abs = 0, square = 0;
};

// The four-candidate sequence; on 3510 with the register clip and Min and its TaylorExpand.
inline float AtanTaylorForm(float x, bool arch3510, AtanParts* parts = nullptr) {
  // (These float literals equal the 3510 file's double literals rounded to float.)
  constexpr float kPi4 = 0.78539816339744830961566084581988f;
  constexpr float kPi8 = 0.39269908169872415480783042290994f;
  constexpr float kTanPi8 = 0.4142135623730950f;
  const auto taylor = [arch3510](float v, int n) {
    return arch3510 ? AtanTaylor3510(v, n) : AtanTaylor(v, n);
  };
  const auto min = [arch3510](float a, float b) { return arch3510 ? RegMinOf(a, b) : MinOf(a, b); };
  const float c =
      arch3510 ? RegMaxOf(RegMinOf(x, 10000.0f), -10000.0f) : MaxsF(MinsF(x, 10000.0f), -10000.0f);
  const float a = std::fabs(c);
  float res = taylor(a, 4);
  res = min(res, taylor(AtanTransform(a, kTanPi8), 4) + kPi8);
  const float num = a + -1.0f;
  const float den = a + 1.0f;
  const float u = std::fabs(num / den);
  res = min(res, taylor(u, 4) + kPi4);
  const float w = AtanTransform(u, kTanPi8);
  float r4 = taylor(w, 6) + kPi8;
  r4 = r4 + kPi4;
  res = min(res, r4);
  if (parts != nullptr) *parts = {c, a, w * w};
  return res * SignByDivision(c);
}

// POLYNOMIAL_APPROXIMATION on 3510 (AtanPolynomialVFImpl), float.
inline float AtanPolynomial3510(float x) {
  const auto k = [](double c) { return static_cast<float>(c); };  // the source's literals
  const float kA[9] = {0.0f,
                       k(-0.333329409),
                       k(0.199887753),
                       k(-0.141718030),
                       k(0.105184801),
                       k(-0.0725297481),
                       k(0.0398497507),
                       k(-0.0143969795),
                       k(0.00245002890)};
  const float ax = std::fabs(x);
  const bool big = ax >= 1.0f;
  const float v = big ? 1.0f / ax : ax;
  const float s = v * v;
  float y = std::fma(kA[8], s, kA[7]);
  for (int i = 6; i >= 1; --i) y = std::fma(y, s, kA[i]);
  y = std::fma(y * s, v, v);
  if (big) y = std::fma(k(1.68325555), k(0.933189452), -y);
  return std::bit_cast<float>(std::bit_cast<uint32_t>(y) |
                              (std::bit_cast<uint32_t>(x) & 0x80000000u));
}

template <typename T, AscendC::AtanAlgo kAlgo = AscendC::AtanAlgo::TAYLOR_EXPANSION>
T AtanOf(T x) {
  const bool arch3510 = On3510();
  if (arch3510 && kAlgo == AscendC::AtanAlgo::POLYNOMIAL_APPROXIMATION) {
    return Narrow<T>(AtanPolynomial3510(Widen(x)));
  }
  return Narrow<T>(AtanTaylorForm(Widen(x), arch3510));
}

// What Atan leaves in its scratch on 2201/2002 (AtanImpl, AtanFormulaImpl): calSize = bytes / 4
// / (5 float, 6 half) down to 32, float tensors at k * calSize: the sign (c * 2^62) / den, c,
// |c|, den = |c * 2^62| + 2^-62 (Sign's denominator), w * w (AtanParts), and for half the float
// result in the conversion tensor.
template <typename T>
void LeaveAtanScratch(const AscendC::LocalTensor<uint8_t>& tmp, const T* in, uint64_t n,
                      SrcLoc loc) {
  constexpr bool kHalf = std::is_same_v<T, half>;
  constexpr size_t kSlots = kHalf ? 6 : 5;
  const uint64_t cal = ChunkOf(tmp.GetSize(), kSlots, 32);
  std::array<uint64_t, kSlots> slot{};
  for (size_t k = 0; k < kSlots; ++k) slot[k] = k * cal;
  LeaveChunkScratch<kSlots>("Atan", loc, tmp, n, cal, slot, [in](uint64_t i) {
    AtanParts p;
    const float r = AtanTaylorForm(Widen(in[i]), false, &p);
    const float d = p.clip * 0x1p62f;
    const float den = std::fabs(d) + 0x1p-62f;
    std::array<float, kSlots> v{d / den, p.clip, p.abs, den, p.square};
    if constexpr (kHalf) v[5] = r;
    return v;
  });
}

}  // namespace lngrad::aicore::math_detail

namespace AscendC {

template <typename T, bool isReuseSource = false, const AtanConfig& config = defaultAtanConfig>
void Atan(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
          const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount,
          lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  namespace m = lngrad::aicore::math_detail;
  static_assert(m::kHalfOrFloat<T>, "Atan: T must be half or float");
  static_assert(config.algo == AtanAlgo::TAYLOR_EXPANSION || std::is_same_v<T, float>,
                "Atan: POLYNOMIAL_APPROXIMATION takes float only");
  const uint64_t tmp_min = m::TmpMinBytes(std::is_same_v<T, float> ? 5 : 12);
  m::UnaryPass<m::PassScratch::kModelled>("Atan", m::Products::kAll, m::Overlap::kNone, dstTensor,
                                          srcTensor, &sharedTmpBuffer, tmp_min, calCount, loc,
                                          [](T x) { return m::AtanOf<T, config.algo>(x); });
  m::LeaveAtanScratch<T>(sharedTmpBuffer, srcTensor.HostPtr(), calCount, loc);
}

LNGRAD_MATH_UNARY_FORWARDS_CONFIG(Atan, AtanConfig, defaultAtanConfig)

}  // namespace AscendC
