// lngrad: the Ascend C high-level APIs Asin and Acos (the vendor's adv_api/math/asin.h, acos.h),
// half and float.
//
// The results are the device's sequences on arch 2201 (asin_common_impl.h,
// acos_common_impl.h), each step one instruction (math_steps.h), with the Taylor polynomial
// A(v) = (((c7 v^2 + c6) v^2 + ...) v^2 + c0) v of asin (c_i the float constants of the
// series) and its form on a square, A2(s) = (((c7 s + c6) s + ...) s + c0) sqrt(s):
//   float: big = pi/2 - A(Sqrt(1 - x^2)); small = A2(x^2); m = -Floor(Min(|x|, 1/sqrt2) -
//   1/sqrt2) (1 below 1/sqrt2, else 0, through an int32 cast); r = (small * m + big * (1 - m))
//   * (x * 2^62) / (|x * 2^62| + 2^-62);
//   half: big in float (A2 on the widened 1 - x^2), small = A(|x|) in half arithmetic (the
//   constants rounded to half), the mask through an int8 cast, the sign step in half (2^15,
//   2^-15), the blend and the product in float, rounded to half (CAST_NONE).
//   Acos: (Asin's float result + (-pi/2)) * -1, then rounded to T.
// |x| > 1 gives NaN (Sqrt of a negative). Arch 3510 (asin_3510_impl.h, register code): the same
// sequences but for two steps: half's A2 (the big branch, in float registers) adds the
// constants rounded to half (the source's static_cast<half>), and half results are cast back
// with saturation (NaN, |x| > 1, to +0). (Its float mask reads Sqrt(x * x), the register the
// square form leaves: |x| itself in binary32, or a value below the boundary where x * x
// underflows, so the same choice.)
// The scratch on 2201/2002 (sharedTmpBuffer or the stack buffer; the same kit files on both) is
// left as the kit's rounds leave it (LeaveAsinAcosScratch: float: the sign step's denominator and
// quotient; half: the float result and the widened sign, then the half sign and its denominator).
//
// Checked mode: calCount within every operand, operands 32-byte aligned and dst disjoint from
// src, sharedTmpBuffer at least the GetAsinMaxMinTmpSize / GetAcosMaxMinTmpSize minimum on
// 2201/2002 (512 bytes for float, 1536 for half) and disjoint from the operands.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "lib/math/math_scratch.h"
#include "lib/math/math_steps.h"

namespace lngrad::aicore::math_detail {

inline constexpr float kHalfPi = 1.5707963267948966192313216916398f;
inline constexpr float kInvSqrt2 = 0.70710678118654752440084436210485f;
inline constexpr float kAsinCoef[8] = {1.0f,
                                       static_cast<float>(0.16666666666666666666666666666667),
                                       0.075f,
                                       static_cast<float>(0.04464285714285714285714285714286),
                                       static_cast<float>(0.03038194444444444444444444444444),
                                       static_cast<float>(0.02237215909090909090909090909091),
                                       static_cast<float>(0.01735276442307692307692307692308),
                                       0.01396484375f};

// A(v) in U (float, or half with every step and constant rounded to half).
template <typename U>
U AsinTaylor(U v) {
  const U sq = U(static_cast<float>(v) * static_cast<float>(v));
  U d = sq;
  d = U(static_cast<float>(d) * static_cast<float>(U(kAsinCoef[7])));
  for (int i = 6; i > 0; --i) {
    d = U(static_cast<float>(d) + static_cast<float>(U(kAsinCoef[i])));
    d = U(static_cast<float>(d) * static_cast<float>(sq));
  }
  d = U(static_cast<float>(d) + static_cast<float>(U(kAsinCoef[0])));
  return U(static_cast<float>(d) * static_cast<float>(v));
}

// A2(s) in float; with half_coefs the constants rounded to half first (3510's half path).
inline float AsinTaylorSquare(float s, bool half_coefs = false) {
  const auto c = [half_coefs](int i) {
    return half_coefs ? static_cast<float>(half(kAsinCoef[i])) : kAsinCoef[i];
  };
  float d = s * 1.0f;
  d = d * c(7);
  for (int i = 6; i > 0; --i) {
    d = d + c(i);
    d = d * s;
  }
  d = d + c(0);
  return d * std::sqrt(s);
}

// 1 where |x| < 1/sqrt2, else 0: -Floor(Min(|x|, b) - b) through an integer cast.
inline float AsinSmallMask(float ax) {
  float t = MinsF(ax, kInvSqrt2);
  t = t + -kInvSqrt2;
  t = static_cast<float>(FloatToInt32(t, AscendC::RoundMode::CAST_FLOOR));
  return t * -1.0f;
}

inline float AsinFloat(float x) {
  float t = x * x;
  t = t * -1.0f;
  t = t + 1.0f;
  float big = AsinTaylor(std::sqrt(t));
  big = big * -1.0f;
  big = big + kHalfPi;
  float small = AsinTaylorSquare(x * x);
  const float m = AsinSmallMask(std::fabs(x));
  small = small * m;
  float not_m = m * -1.0f;
  not_m = not_m + 1.0f;
  big = big * not_m;
  small = small + big;
  return small * SignByDivision(x);
}

// What the half sequence leaves in its half tensors: GetSign's quotient and denominator.
struct AsinHalfParts {
  half sign, den;
};

// The half sequence, up to its float result (before the final rounding to half).
inline float AsinHalfToFloat(half x, AsinHalfParts* parts = nullptr) {
  const float xf = Widen(x);
  float t = xf * xf;
  t = t * -1.0f;
  t = t + 1.0f;
  float big = AsinTaylorSquare(t, On3510());
  big = big * -1.0f;
  big = big + kHalfPi;
  const half ax = half(std::fabs(xf));
  half small = AsinTaylor(ax);
  half m = half(MinsF(Widen(ax), Widen(half(kInvSqrt2))));
  m = half(Widen(m) + Widen(half(-kInvSqrt2)));
  m = half(static_cast<float>(FloatToIntSat(Widen(m), AscendC::RoundMode::CAST_FLOOR, -128, 127)));
  m = half(Widen(m) * -1.0f);
  small = half(Widen(small) * Widen(m));
  m = half(Widen(m) * -1.0f);
  m = half(Widen(m) + 1.0f);
  big = big * Widen(m);
  big = Widen(small) + big;
  const half d = half(xf * 32768.0f);
  const half den = half(std::fabs(Widen(d)) + Widen(half(0x1p-15f)));
  const half sign = half(Widen(d) / Widen(den));
  if (parts != nullptr) *parts = {sign, den};
  return big * Widen(sign);
}

template <typename T>
float AsinToFloat(T x) {
  if constexpr (std::is_same_v<T, half>) {
    return AsinHalfToFloat(x);
  } else {
    return AsinFloat(x);
  }
}

template <typename T>
T AsinOf(T x) {
  return On3510() ? NarrowSaturated<T>(AsinToFloat(x)) : Narrow<T>(AsinToFloat(x));
}

// Acos's float result from Asin's: (r + (-pi/2)) * -1.
inline float AcosFromAsin(float r) {
  r = r + -kHalfPi;
  return r * -1.0f;
}

template <typename T>
T AcosOf(T x) {
  const float r = AcosFromAsin(AsinToFloat(x));
  return On3510() ? NarrowSaturated<T>(r) : Narrow<T>(r);
}

// What Asin (kAcos: Acos) leaves in its scratch on 2201/2002 (AsinImpl, AsinCompute,
// AsinFp16Compute; AcosCompute): calSize = bytes / sizeof(T) / (4 float, 6 half) down to 32.
// float: GetSign's denominator |x * 2^62| + 2^-62 at 0, its quotient at calSize; half: float
// tensors at 0 and calSize floats, the float result (Acos's after its two steps) and the widened
// sign, then half tensors at 4 calSize and 5 calSize halves, the sign and its denominator in half
// (the int8 mask stored under the sign before).
template <typename T, bool kAcos>
void LeaveAsinAcosScratch(const AscendC::LocalTensor<uint8_t>& tmp, const T* in, uint64_t n,
                          SrcLoc loc) {
  const char* api = kAcos ? "Acos" : "Asin";
  if constexpr (std::is_same_v<T, half>) {
    const uint64_t cal = ChunkOf(tmp.GetSize(), 3, 32);
    LeaveChunkScratch<2>(api, loc, tmp, n, cal, {0, cal}, [in](uint64_t i) {
      AsinHalfParts p{};
      const float r = AsinHalfToFloat(in[i], &p);
      return std::array<float, 2>{kAcos ? AcosFromAsin(r) : r, Widen(p.sign)};
    });
    if (On3510()) return;
    const auto halves = [cal](uint64_t) { return std::array<uint64_t, 2>{4 * cal, 5 * cal}; };
    MakeChunkScratch<half, 2>(tmp, n, cal, halves).Write(api, loc, [in](uint64_t i) {
      AsinHalfParts p{};
      AsinHalfToFloat(in[i], &p);
      return std::array<half, 2>{p.sign, p.den};
    });
  } else {
    LeaveChunkScratch<2>(api, loc, tmp, n, ChunkOf(tmp.GetSize(), 4, 32),
                         {0, ChunkOf(tmp.GetSize(), 4, 32)}, [in](uint64_t i) {
                           const float d = in[i] * 0x1p62f;
                           const float den = std::fabs(d) + 0x1p-62f;
                           return std::array<float, 2>{den, d / den};
                         });
  }
}

template <typename T>
void LeaveAsinScratch(const AscendC::LocalTensor<uint8_t>& tmp, const T* in, uint64_t n,
                      SrcLoc loc) {
  LeaveAsinAcosScratch<T, false>(tmp, in, n, loc);
}

template <typename T>
void LeaveAcosScratch(const AscendC::LocalTensor<uint8_t>& tmp, const T* in, uint64_t n,
                      SrcLoc loc) {
  LeaveAsinAcosScratch<T, true>(tmp, in, n, loc);
}

}  // namespace lngrad::aicore::math_detail

namespace AscendC {

LNGRAD_MATH_UNARY_API_MODELLED(Asin, 2, 6, AsinOf, LeaveAsinScratch)
LNGRAD_MATH_UNARY_API_MODELLED(Acos, 2, 6, AcosOf, LeaveAcosScratch)

}  // namespace AscendC
