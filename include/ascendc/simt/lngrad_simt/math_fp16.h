// lngrad SIMT runtime: the half / half2 and bfloat16_t / bfloat16x2_t functions of the SIMT API
// (arithmetic, comparisons, maths, conversions), written once for both 16-bit types:
// simt_api/asc_fp16.h expands LNGRAD_SIMT_DEFINE_FP16_API for half, simt_api/asc_bf16.h for
// bfloat16_t.
//
// Numbers: the operands widen exactly to double and every result is rounded once to the 16-bit
// type with CAST_RINT (round to nearest, ties to even). + - * / and sqrt in double and then to a
// 16-bit type equal a single rounding (53 >= 2 * 11 + 2); fma rounds the double sum "to odd"
// first, so its final rounding is exact too. The transcendental functions are the C library's
// double functions rounded once. Saturation is not modelled for arithmetic (IEEE results: inf
// and nan); the _sat conversions saturate (see docs/ascendc_kernels.md, "SIMT math functions").
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "lngrad_simt/math_convert.h"
#include "lngrad_simt/vector_types.h"

namespace lngrad::simt::math {

// The comparisons of the API (eq, ne, le, ge, lt, gt).
enum class Cmp { kEq, kNe, kLe, kGe, kLt, kGt };

// a <op> b on non-NaN values; any NaN gives `unordered` (false for the ordered forms, true for
// the ...u forms).
inline bool Compare(double a, double b, Cmp op, bool unordered) noexcept {
  if (std::isnan(a) || std::isnan(b)) return unordered;
  switch (op) {
    case Cmp::kEq:
      return a == b;
    case Cmp::kNe:
      return a != b;
    case Cmp::kLe:
      return a <= b;
    case Cmp::kGe:
      return a >= b;
    case Cmp::kLt:
      return a < b;
    default:
      return a > b;
  }
}

// max / min with +0 above -0. A NaN operand gives the other operand (both NaN: NaN), or NaN
// where nan_wins (the _nan forms).
inline double MaxMin(double a, double b, bool is_max, bool nan_wins) noexcept {
  const bool a_nan = std::isnan(a);
  const bool b_nan = std::isnan(b);
  if (a_nan || b_nan) {
    if (nan_wins || (a_nan && b_nan)) return std::numeric_limits<double>::quiet_NaN();
    return a_nan ? b : a;
  }
  if (a == b) return (std::signbit(a) == is_max) ? b : a;
  return (a > b) == is_max ? a : b;
}

// a + b rounded to double "to odd" (an inexact sum gets an odd last bit), so that rounding it
// once more to a format of at most 51 bits equals rounding a + b directly.
inline double SumToOdd(double a, double b) noexcept {
  const double s = a + b;
  if (!std::isfinite(s)) return s;
  const double bb = s - a;
  const double err = (a - (s - bb)) + (b - bb);  // a + b == s + err exactly (TwoSum)
  if (err == 0 || (std::bit_cast<uint64_t>(s) & 1u) != 0) return s;
  return std::nextafter(s, err > 0 ? std::numeric_limits<double>::infinity()
                                   : -std::numeric_limits<double>::infinity());
}

// x * y + z for 16-bit operands (the product is exact in double), rounded to odd in double.
inline double FmaToOdd(double x, double y, double z) noexcept { return SumToOdd(x * y, z); }

inline double Relu(double x) noexcept { return x < 0 ? 0.0 : x; }

template <Fp16 H>
constexpr H RoundRn(double x) noexcept {
  return DoubleToFp<H>(x, Round::kRn);
}
template <Fp16 H>
constexpr double Wide(H x) noexcept {
  return static_cast<double>(static_cast<float>(x));
}

}  // namespace lngrad::simt::math

// The one-operand functions: X(..., scalar name, pair name, result in double of the operand
// v).
#define LNGRAD_SIMT_FP16_UNARY(X, ...)                                                            \
  X(__VA_ARGS__, __habs, __habsx2, std::fabs(v))                                                  \
  X(__VA_ARGS__, __hneg, __hnegx2, -v)                                                            \
  X(__VA_ARGS__, htanh, h2tanh, std::tanh(v))                                                     \
  X(__VA_ARGS__, hexp, h2exp, std::exp(v))                                                        \
  X(__VA_ARGS__, hexp2, h2exp2, std::exp2(v))                                                     \
  X(__VA_ARGS__, hexp10, h2exp10, std::pow(10.0, v))                                              \
  X(__VA_ARGS__, hlog, h2log, std::log(v))                                                        \
  X(__VA_ARGS__, hlog2, h2log2, std::log2(v))                                                     \
  X(__VA_ARGS__, hlog10, h2log10, std::log10(v))                                                  \
  X(__VA_ARGS__, hcos, h2cos, std::cos(v))                                                        \
  X(__VA_ARGS__, hsin, h2sin, std::sin(v))                                                        \
  X(__VA_ARGS__, hsqrt, h2sqrt, std::sqrt(v))                                                     \
  X(__VA_ARGS__, hrsqrt, h2rsqrt, 1.0 / std::sqrt(v))                                             \
  X(__VA_ARGS__, hrcp, h2rcp, 1.0 / v)                                                            \
  X(__VA_ARGS__, hrint, h2rint, LNGRAD_SIMT_MATH::RoundIntegral(v, LNGRAD_SIMT_MATH::Round::kRn)) \
  X(__VA_ARGS__, hfloor, h2floor,                                                                 \
    LNGRAD_SIMT_MATH::RoundIntegral(v, LNGRAD_SIMT_MATH::Round::kRd))                             \
  X(__VA_ARGS__, hceil, h2ceil, LNGRAD_SIMT_MATH::RoundIntegral(v, LNGRAD_SIMT_MATH::Round::kRu)) \
  X(__VA_ARGS__, htrunc, h2trunc, LNGRAD_SIMT_MATH::RoundIntegral(v, LNGRAD_SIMT_MATH::Round::kRz))

// The two-operand functions: X(..., scalar name, pair name, result in double of a and b).
#define LNGRAD_SIMT_FP16_BINARY(X, ...)                                                \
  X(__VA_ARGS__, __hadd, __haddx2, a + b)                                              \
  X(__VA_ARGS__, __hsub, __hsubx2, a - b)                                              \
  X(__VA_ARGS__, __hmul, __hmulx2, a* b)                                               \
  X(__VA_ARGS__, __hdiv, __hdivx2, a / b)                                              \
  X(__VA_ARGS__, __hmax, __hmaxx2, LNGRAD_SIMT_MATH::MaxMin(a, b, true, false))        \
  X(__VA_ARGS__, __hmin, __hminx2, LNGRAD_SIMT_MATH::MaxMin(a, b, false, false))       \
  X(__VA_ARGS__, __hmax_nan, __hmaxx2_nan, LNGRAD_SIMT_MATH::MaxMin(a, b, true, true)) \
  X(__VA_ARGS__, __hmin_nan, __hminx2_nan, LNGRAD_SIMT_MATH::MaxMin(a, b, false, true))

// The three-operand functions: X(..., scalar name, pair name, result in double of a, b and
// c).
#define LNGRAD_SIMT_FP16_TERNARY(X, ...)                                \
  X(__VA_ARGS__, __hfma, __hfmax2, LNGRAD_SIMT_MATH::FmaToOdd(a, b, c)) \
  X(__VA_ARGS__, __hfma_relu, __hfmax2_relu,                            \
    LNGRAD_SIMT_MATH::Relu(LNGRAD_SIMT_MATH::FmaToOdd(a, b, c)))

// The comparisons: X(..., name in the API, lngrad::simt::math::Cmp enumerator).
#define LNGRAD_SIMT_FP16_COMPARISONS(X, ...) \
  X(__VA_ARGS__, eq, kEq)                    \
  X(__VA_ARGS__, ne, kNe)                    \
  X(__VA_ARGS__, le, kLe)                    \
  X(__VA_ARGS__, ge, kGe)                    \
  X(__VA_ARGS__, lt, kLt)                    \
  X(__VA_ARGS__, gt, kGt)

#define LNGRAD_SIMT_FP16_DEF_UNARY(H, H2, name, name2, expr) \
  inline H name(const H x) noexcept {                        \
    const double v = LNGRAD_SIMT_MATH::Wide(x);              \
    return LNGRAD_SIMT_MATH::RoundRn<H>(expr);               \
  }                                                          \
  inline H2 name2(const H2 x) noexcept { return H2{name(x.x), name(x.y)}; }
#define LNGRAD_SIMT_FP16_DEF_BINARY(H, H2, name, name2, expr) \
  inline H name(const H x, const H y) noexcept {              \
    const double a = LNGRAD_SIMT_MATH::Wide(x);               \
    const double b = LNGRAD_SIMT_MATH::Wide(y);               \
    return LNGRAD_SIMT_MATH::RoundRn<H>(expr);                \
  }                                                           \
  inline H2 name2(const H2 x, const H2 y) noexcept { return H2{name(x.x, y.x), name(x.y, y.y)}; }
#define LNGRAD_SIMT_FP16_DEF_TERNARY(H, H2, name, name2, expr)   \
  inline H name(const H x, const H y, const H z) noexcept {      \
    const double a = LNGRAD_SIMT_MATH::Wide(x);                  \
    const double b = LNGRAD_SIMT_MATH::Wide(y);                  \
    const double c = LNGRAD_SIMT_MATH::Wide(z);                  \
    return LNGRAD_SIMT_MATH::RoundRn<H>(expr);                   \
  }                                                              \
  inline H2 name2(const H2 x, const H2 y, const H2 z) noexcept { \
    return H2{name(x.x, y.x, z.x), name(x.y, y.y, z.y)};         \
  }

// One comparison in its eight forms: scalar (ordered, unordered), both-components bool, 1.0/0.0
// per component, 0xFFFF/0 mask per component (low 16 bits: x).
#define LNGRAD_SIMT_FP16_DEF_COMPARE_FORM(H, H2, op, opk, u, unordered)                       \
  inline bool __h##op##u(const H x, const H y) noexcept {                                     \
    return LNGRAD_SIMT_MATH::Compare(LNGRAD_SIMT_MATH::Wide(x), LNGRAD_SIMT_MATH::Wide(y),    \
                                     LNGRAD_SIMT_MATH::Cmp::opk, unordered);                  \
  }                                                                                           \
  inline bool __hb##op##u##x2(const H2 x, const H2 y) noexcept {                              \
    return __h##op##u(x.x, y.x) && __h##op##u(x.y, y.y);                                      \
  }                                                                                           \
  inline H2 __h##op##u##x2(const H2 x, const H2 y) noexcept {                                 \
    return H2{H(__h##op##u(x.x, y.x) ? 1.0f : 0.0f), H(__h##op##u(x.y, y.y) ? 1.0f : 0.0f)};  \
  }                                                                                           \
  inline unsigned int __h##op##u##x2_mask(const H2 x, const H2 y) noexcept {                  \
    return (__h##op##u(x.x, y.x) ? 0xFFFFu : 0u) | (__h##op##u(x.y, y.y) ? 0xFFFF0000u : 0u); \
  }
#define LNGRAD_SIMT_FP16_DEF_COMPARE(H, H2, op, opk)         \
  LNGRAD_SIMT_FP16_DEF_COMPARE_FORM(H, H2, op, opk, , false) \
  LNGRAD_SIMT_FP16_DEF_COMPARE_FORM(H, H2, op, opk, u, true)

// Predicates, the complex multiply-add and the moves between the halves of a pair.
#define LNGRAD_SIMT_FP16_DEF_MISC(H, H2)                                                     \
  inline bool __hisnan(const H x) noexcept { return std::isnan(LNGRAD_SIMT_MATH::Wide(x)); } \
  inline bool __hisinf(const H x) noexcept { return std::isinf(LNGRAD_SIMT_MATH::Wide(x)); } \
  inline H2 __isnanx2(const H2 x) noexcept {                                                 \
    return H2{H(__hisnan(x.x) ? 1.0f : 0.0f), H(__hisnan(x.y) ? 1.0f : 0.0f)};               \
  }                                                                                          \
  inline H2 __hcmadd(const H2 x, const H2 y, const H2 z) noexcept {                          \
    return H2{__hfma(__hneg(x.y), y.y, __hfma(x.x, y.x, z.x)),                               \
              __hfma(x.y, y.x, __hfma(x.x, y.y, z.y))};                                      \
  }                                                                                          \
  inline float __low2float(const H2 x) noexcept { return static_cast<float>(x.x); }          \
  inline float __high2float(const H2 x) noexcept { return static_cast<float>(x.y); }         \
  inline H2 __lowhigh2highlow(const H2 x) noexcept { return H2{x.y, x.x}; }

// The conversions and moves whose names carry the type: N is "half" or "bfloat16", N2 "half2"
// or "bfloat162".
#define LNGRAD_SIMT_FP16_DEF_NAMED(N, H, N2, H2)                                   \
  inline float __##N##2float(const H x) noexcept { return static_cast<float>(x); } \
  inline H __float2##N(const float x) noexcept {                                   \
    return LNGRAD_SIMT_MATH::FloatToFp<H>(x, LNGRAD_SIMT_MATH::Round::kRn);        \
  }                                                                                \
  inline H2 __floats2##N2##_rn(const float x, const float y) noexcept {            \
    return H2{__float2##N(x), __float2##N(y)};                                     \
  }                                                                                \
  inline H __low2##N(const H2 x) noexcept { return x.x; }                          \
  inline H __high2##N(const H2 x) noexcept { return x.y; }                         \
  inline H2 __low2##N2(const H2 x) noexcept { return H2{x.x, x.x}; }               \
  inline H2 __high2##N2(const H2 x) noexcept { return H2{x.y, x.y}; }              \
  inline H2 __lows2##N2(const H2 x, const H2 y) noexcept { return H2{x.x, y.x}; }  \
  inline H2 __highs2##N2(const H2 x, const H2 y) noexcept { return H2{x.y, y.y}; } \
  inline H2 __halves2##N2(const H x, const H y) noexcept { return H2{x, y}; }      \
  inline float2 __##N2##2float2(const H2 x) noexcept {                             \
    return float2{static_cast<float>(x.x), static_cast<float>(x.y)};               \
  }                                                                                \
  inline H __ushort_as_##N(const unsigned short x) noexcept {                      \
    return LNGRAD_SIMT_MATH::FpTraits<H>::FromBits(x);                             \
  }

// Everything above for one 16-bit type, plus its conversions from and to float and the
// integers: MODES is LNGRAD_SIMT_FOR_MODES6 where the type has CAST_ODD (half), else ..._MODES5.
#define LNGRAD_SIMT_DEFINE_FP16_API(N, H, N2, H2, MODES)            \
  LNGRAD_SIMT_FP16_UNARY(LNGRAD_SIMT_FP16_DEF_UNARY, H, H2)         \
  LNGRAD_SIMT_FP16_BINARY(LNGRAD_SIMT_FP16_DEF_BINARY, H, H2)       \
  LNGRAD_SIMT_FP16_TERNARY(LNGRAD_SIMT_FP16_DEF_TERNARY, H, H2)     \
  LNGRAD_SIMT_FP16_COMPARISONS(LNGRAD_SIMT_FP16_DEF_COMPARE, H, H2) \
  LNGRAD_SIMT_FP16_DEF_MISC(H, H2)                                  \
  LNGRAD_SIMT_FP16_DEF_NAMED(N, H, N2, H2)                          \
  MODES(LNGRAD_SIMT_DEF_FP_TO_FP, float, float, N, H, , false)      \
  MODES(LNGRAD_SIMT_DEF_FP_TO_FP, float, float, N, H, _sat, true)   \
  MODES(LNGRAD_SIMT_DEF_FLOAT2_TO_PAIR, N2, H2, H, , false)         \
  MODES(LNGRAD_SIMT_DEF_FLOAT2_TO_PAIR, N2, H2, H, _sat, true)      \
  LNGRAD_SIMT_FOR_MODES5(LNGRAD_SIMT_DEF_TO_INTEGRAL, N, H)         \
  LNGRAD_SIMT_FOR_INTS(LNGRAD_SIMT_DEF_TO_INT_MODES, N, H)          \
  LNGRAD_SIMT_FOR_INTS(LNGRAD_SIMT_DEF_FROM_INT_MODES, N, H, , false)
