// lngrad SIMT runtime: the float functions of the SIMT API that the C library does not have
// (rsqrtf, sinpif/cospif/tanpif/sincospif, rhypotf, norm3df .. rnormf, rcbrtf, erfinvf,
// erfcinvf, erfcxf, normcdff, normcdfinvf, cyl_bessel_i0f/i1f, fdividef, __fdividef,
// __saturatef). Those it has (sqrtf, expf, sinf, fmodf, floorf, ...) are the C library's own,
// declared by <cmath> in the global namespace, which simt_api/math_functions.h includes.
//
// Numbers: each is computed in double from the exact float operands and rounded once to float
// (docs/ascendc_kernels.md, "SIMT math functions": the bounds).
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>

namespace lngrad::simt::math {

inline constexpr double kPi = 3.141592653589793;
inline constexpr double kSqrt2 = 1.4142135623730951;
inline constexpr double kTwoOverSqrtPi = 1.1283791670955126;

// sin(pi x) and cos(pi x): x reduced exactly modulo 2 first. sinpi of an integer is a zero of
// x's sign; cospi of a half-integer is +0.
inline double SinPi(double x) noexcept {
  const double r = std::remainder(x, 2.0);  // exact, in [-1, 1]
  if (r == 0 || std::fabs(r) == 1.0) return std::copysign(0.0, x);
  return std::sin(kPi * r);
}
inline double CosPi(double x) noexcept {
  const double r = std::fabs(std::remainder(x, 2.0));
  if (r == 0.5) return 0.0;
  return std::cos(kPi * r);
}

// The y in [lo, hi] with f(y) == target for an increasing f: Newton steps with df, kept inside
// a shrinking bracket (bisection where a step leaves it).
template <typename F, typename DF>
double SolveIncreasing(F f, DF df, double target, double lo, double hi, double y) noexcept {
  for (int i = 0; i < 200 && lo < hi; ++i) {
    const double v = f(y) - target;
    if (v == 0) return y;
    (v < 0 ? lo : hi) = y;
    double next = y - v / df(y);
    if (!(next > lo && next < hi)) next = lo + (hi - lo) / 2;
    if (next == y) return y;
    y = next;
  }
  return y;
}

// erf^-1 on [-1, 1]: the root of erf(y) = |x| by safeguarded Newton in double.
inline double ErfInv(double x) noexcept {
  if (std::isnan(x) || std::fabs(x) > 1) return std::numeric_limits<double>::quiet_NaN();
  if (std::fabs(x) == 1) return std::copysign(std::numeric_limits<double>::infinity(), x);
  if (x == 0) return x;
  const double a = std::fabs(x);
  const double y = SolveIncreasing([](double t) { return std::erf(t); },
                                   [](double t) { return kTwoOverSqrtPi * std::exp(-t * t); }, a,
                                   0.0, 6.0, a / kTwoOverSqrtPi);
  return std::copysign(y, x);
}

// erfc^-1 on [0, 2]: for x <= 1 the root of -log(erfc(y)) = -log(x) (increasing in y >= 0);
// above 1 by the symmetry erfcinv(x) = -erfcinv(2 - x) (2 - x exact for a float x).
inline double ErfcInv(double x) noexcept {
  if (std::isnan(x) || x < 0 || x > 2) return std::numeric_limits<double>::quiet_NaN();
  if (x == 0) return std::numeric_limits<double>::infinity();
  if (x == 2) return -std::numeric_limits<double>::infinity();
  if (x > 1) return -ErfcInv(2 - x);
  const auto neg_log_erfc = [](double t) { return -std::log(std::erfc(t)); };
  const auto slope = [](double t) { return kTwoOverSqrtPi * std::exp(-t * t) / std::erfc(t); };
  return SolveIncreasing(neg_log_erfc, slope, -std::log(x), 0.0, 27.0, std::sqrt(-std::log(x)));
}

// exp(x^2) erfc(x): directly while erfc(x) is a normal double, by its asymptotic series above.
inline double ErfcX(double x) noexcept {
  if (x < 25) return std::exp(x * x) * std::erfc(x);
  if (std::isinf(x)) return 0.0;
  const double inv2x2 = 1.0 / (2 * x * x);
  double term = 1.0;
  double sum = 1.0;
  for (int k = 1; k < 8; ++k) {
    term *= -(2 * k - 1) * inv2x2;
    sum += term;
  }
  return sum / (x * std::sqrt(kPi));
}

// The modified Bessel functions I0 (even) and I1 (odd) of the first kind.
inline double BesselI0(double x) noexcept { return std::cyl_bessel_i(0.0, std::fabs(x)); }
inline double BesselI1(double x) noexcept {
  return std::copysign(std::cyl_bessel_i(1.0, std::fabs(x)), x);
}

// sqrt of a sum of squares (each square exact in double); any infinite operand gives +inf, NaN
// otherwise propagates.
inline double NormD(int n, const float* a) noexcept {
  double sum = 0;
  bool inf = false;
  for (int i = 0; i < n; ++i) {
    inf = inf || std::isinf(a[i]);
    sum += static_cast<double>(a[i]) * a[i];
  }
  return inf ? std::numeric_limits<double>::infinity() : std::sqrt(sum);
}

inline float Saturate(float x) noexcept { return x > 0 ? (x < 1 ? x : 1.0f) : 0.0f; }

}  // namespace lngrad::simt::math

// One-operand functions: X(name, result in double of the operand v).
#define LNGRAD_SIMT_FLOAT_UNARY(X)                                            \
  X(rsqrtf, 1.0 / std::sqrt(v))                                               \
  X(rcbrtf, 1.0 / std::cbrt(v))                                               \
  X(sinpif, LNGRAD_SIMT_MATH::SinPi(v))                                       \
  X(cospif, LNGRAD_SIMT_MATH::CosPi(v))                                       \
  X(tanpif, LNGRAD_SIMT_MATH::SinPi(v) / LNGRAD_SIMT_MATH::CosPi(v))          \
  X(erfinvf, LNGRAD_SIMT_MATH::ErfInv(v))                                     \
  X(erfcinvf, LNGRAD_SIMT_MATH::ErfcInv(v))                                   \
  X(erfcxf, LNGRAD_SIMT_MATH::ErfcX(v))                                       \
  X(normcdff, 0.5 * std::erfc(-v / LNGRAD_SIMT_MATH::kSqrt2))                 \
  X(normcdfinvf, -LNGRAD_SIMT_MATH::kSqrt2* LNGRAD_SIMT_MATH::ErfcInv(2 * v)) \
  X(cyl_bessel_i0f, LNGRAD_SIMT_MATH::BesselI0(v))                            \
  X(cyl_bessel_i1f, LNGRAD_SIMT_MATH::BesselI1(v))
#define LNGRAD_SIMT_DEF_FLOAT_UNARY(name, expr) \
  inline float name(const float x) noexcept {   \
    const double v = x;                         \
    return static_cast<float>(expr);            \
  }
LNGRAD_SIMT_FLOAT_UNARY(LNGRAD_SIMT_DEF_FLOAT_UNARY)
#undef LNGRAD_SIMT_DEF_FLOAT_UNARY

// Norms of 2, 3, 4 and n operands and their reciprocals (hypotf is the C library's).
inline float rhypotf(const float a, const float b) noexcept {
  const float v[] = {a, b};
  return static_cast<float>(1.0 / LNGRAD_SIMT_MATH::NormD(2, v));
}
inline float norm3df(const float a, const float b, const float c) noexcept {
  const float v[] = {a, b, c};
  return static_cast<float>(LNGRAD_SIMT_MATH::NormD(3, v));
}
inline float rnorm3df(const float a, const float b, const float c) noexcept {
  const float v[] = {a, b, c};
  return static_cast<float>(1.0 / LNGRAD_SIMT_MATH::NormD(3, v));
}
inline float norm4df(const float a, const float b, const float c, const float d) noexcept {
  const float v[] = {a, b, c, d};
  return static_cast<float>(LNGRAD_SIMT_MATH::NormD(4, v));
}
inline float normf(const int n, const float* a) noexcept {
  return static_cast<float>(LNGRAD_SIMT_MATH::NormD(n, a));
}
inline float rnormf(const int n, const float* a) noexcept {
  return static_cast<float>(1.0 / LNGRAD_SIMT_MATH::NormD(n, a));
}
inline float rnorm4df(const float a, const float b, const float c, const float d) noexcept {
  const float v[] = {a, b, c, d};
  return rnormf(4, v);
}

inline void sincospif(const float x, float* s, float* c) noexcept {
  *s = sinpif(x);
  *c = cospif(x);
}
inline float fdividef(const float x, const float y) noexcept { return x / y; }
inline float __fdividef(const float x, const float y) noexcept { return x / y; }
inline float __saturatef(const float x) noexcept { return LNGRAD_SIMT_MATH::Saturate(x); }
