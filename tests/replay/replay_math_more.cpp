// The math family's replay, continued (replay_math.h): Asin/Acos (asin_common_impl.h,
// acos_common_impl.h), the hyperbolic APIs (acosh/asinh/atanh/cosh/sinh _common_impl.h), Sign,
// Log's half paths, Exp's Taylor form (exp_common_impl.h), Power (power_float_impl.h,
// power_int_impl.h, power_common_impl.h) and the binary16 rounding of a double.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "replay_math.h"
#include "replay_math_ops.h"

namespace lngrad_replay {
namespace {

using namespace math_ops;

constexpr float kHalfPi = 1.5707963267948966192313216916398f;
constexpr float kBoundary = 0.70710678118654752440084436210485f;  // 1/sqrt(2)
// asin's Taylor coefficients, highest index last (kCOEF of the toolkit, 8 of them).
constexpr float kAsinCoef[8] = {1.0f,
                                static_cast<float>(0.16666666666666666666666666666667),
                                0.075f,
                                static_cast<float>(0.04464285714285714285714285714286),
                                static_cast<float>(0.03038194444444444444444444444444),
                                static_cast<float>(0.02237215909090909090909090909091),
                                static_cast<float>(0.01735276442307692307692307692308),
                                0.01396484375f};

// AsinTaylorCompute in float: s * (((c7 s^2 + c6) s^2 + ...) s^2 + c0).
float AsinTaylor(float s) {
  float d = s * s;
  const float sq = s * s;
  d = d * kAsinCoef[7];
  for (int i = 6; i > 0; --i) {
    d = d + kAsinCoef[i];
    d = d * sq;
  }
  d = d + kAsinCoef[0];
  return d * s;
}

// AsinTaylorComputeBySquareValue: the same polynomial on a square q, times Sqrt(q).
float AsinTaylorOfSquare(float q) {
  float d = q * 1.0f;
  d = d * kAsinCoef[7];
  for (int i = 6; i > 0; --i) {
    d = d + kAsinCoef[i];
    d = d * q;
  }
  d = d + kAsinCoef[0];
  return d * std::sqrt(q);
}

// Asin's float path (AsinCompute<float>).
float AsinFloat(float x) {
  float big = x * x;
  big = big * -1.0f;
  big = big + 1.0f;
  big = AsinTaylor(std::sqrt(big));
  big = big * -1.0f;
  big = big + kHalfPi;
  const float q = x * x;
  float small = AsinTaylorOfSquare(q);
  float m = Mins(std::sqrt(q), kBoundary);
  m = m + -kBoundary;
  m = static_cast<float>(static_cast<int32_t>(std::floor(m)));  // int32 CAST_FLOOR and back
  m = m * -1.0f;
  small = small * m;
  m = m * -1.0f;
  m = m + 1.0f;
  big = big * m;
  small = small + big;
  return small * SignBy2p62(x);
}

Half H(float v) { return HalfOp(v); }
Half HalfConst(float c) { return FloatToHalf(c); }

// AsinTaylorCompute in half arithmetic with the half coefficients.
Half AsinTaylorHalf(Half s) {
  Half d = H(W(s) * W(s));
  const Half sq = H(W(s) * W(s));
  d = H(W(d) * W(HalfConst(kAsinCoef[7])));
  for (int i = 6; i > 0; --i) {
    d = H(W(d) + W(HalfConst(kAsinCoef[i])));
    d = H(W(d) * W(sq));
  }
  d = H(W(d) + W(HalfConst(kAsinCoef[0])));
  return H(W(d) * W(s));
}

// AsinFp16Compute up to its last float (before the cast to half): Acos continues from it.
float AsinHalfAsFloat(Half x) {
  float big = W(x);
  big = big * big;
  big = big * -1.0f;
  big = big + 1.0f;
  big = AsinTaylorOfSquare(big);
  big = big * -1.0f;
  big = big + kHalfPi;
  const Half ax{static_cast<uint16_t>(x.bits & 0x7fffu)};
  Half small = AsinTaylorHalf(ax);
  const Half bound = HalfConst(kBoundary);
  Half m = W(ax) < W(bound) ? ax : bound;
  m = H(W(m) + W(HalfConst(-kBoundary)));
  m = H(static_cast<float>(static_cast<int8_t>(std::floor(W(m)))));  // int8 CAST_FLOOR, back
  m = H(W(m) * -1.0f);
  small = H(W(small) * W(m));
  m = H(W(m) * -1.0f);
  m = H(W(m) + 1.0f);
  big = big * W(m);
  big = W(small) + big;
  // GetSign<half>: 2^15 x / (|2^15 x| + 2^-15) in half arithmetic.
  const Half s = H(W(x) * 32768.0f);
  Half den{static_cast<uint16_t>(s.bits & 0x7fffu)};
  den = H(W(den) + W(HalfConst(3.0517578125e-05f)));
  const Half sign = H(W(s) / W(den));
  return big * W(sign);
}

constexpr float kNegLn2 = -0.69314718055994530941723212145818f;

float Cosh(float x) {
  const float t = x + kNegLn2;
  const float e = ExpF(t);
  const float q = 0.25f / e;
  return e + q;
}

float Sinh(float x) {
  float a = x * -1.0f;
  a = a + kNegLn2;
  a = ExpF(a);
  float d = x + kNegLn2;
  d = ExpF(d);
  return d - a;
}

float Asinh(float x) {
  const float a = std::fabs(x);
  float t = a * a;
  t = t + 1.0f;
  t = std::sqrt(t);
  t = t + a;
  t = LnF(t);
  return t * SignBy2p62(x);
}

float Atanh(float x) {
  const float p = x + 1.0f;
  float m = x * -1.0f;
  m = m + 1.0f;
  float d = p / m;
  d = LnF(d);
  return d * 0.5f;
}

float Acosh(float x) {
  float t = x * x;
  t = t + -1.0f;
  t = std::sqrt(t);
  t = x + t;
  const float d = t / t;
  t = t * d;
  return LnF(t);
}

float SignOf(float x) {
  const float a = x < 0 ? 0.0f : 1.0f;
  const float b = x > 0 ? 0.0f : -1.0f;
  return a + b;
}

// Exp<T, level> on the widened value: floor split, Exp of the integral part, Taylor sum of the
// fraction; *frac receives the fraction (the value left in FloorX).
float ExpTaylorCore(float v, uint32_t level, float* frac) {
  const float i = std::floor(v);
  const float f = v - i;
  *frac = f;
  const float e = ExpF(i);
  float p = f + 0.0f;
  float r = f + 0.0f;
  r = r + 1.0f;
  for (uint32_t n = 2; n < level + 1; ++n) {
    p = f * p;
    p = p * (1.0f / static_cast<float>(n));
    r = r + p;
  }
  return r * e;
}

}  // namespace

Half DoubleToHalf(double d, bool away) {
  const uint16_t sign = std::signbit(d) ? 0x8000u : 0u;
  if (std::isnan(d)) return Half{static_cast<uint16_t>(sign | 0x7e00u)};
  const double a = std::fabs(d);
  if (std::isinf(a)) return Half{static_cast<uint16_t>(sign | 0x7c00u)};
  if (a == 0) return Half{sign};
  int e = std::max(std::ilogb(a), -14);
  double m = std::ldexp(a, 10 - e);  // exact: the significand at 11 bits' scale
  m = away ? std::round(m) : std::nearbyint(m);
  if (m >= 2048.0) {
    m = m / 2;  // 2048 exactly: the carry into the next binade
    ++e;
  }
  if (e > 15) return Half{static_cast<uint16_t>(sign | 0x7c00u)};
  const auto q = static_cast<uint32_t>(m);
  if (q < 1024) return Half{static_cast<uint16_t>(sign | q)};  // subnormal (e = -14)
  return Half{static_cast<uint16_t>(sign | ((e + 15) << 10) | (q - 1024))};
}

float ReplayMathFloatMore(MathOp op, float x) {
  switch (op) {
    case MathOp::kAsin:
      return AsinFloat(x);
    case MathOp::kAcos: {
      float r = AsinFloat(x) + -kHalfPi;
      return r * -1.0f;
    }
    case MathOp::kAcosh:
      return Acosh(x);
    case MathOp::kAsinh:
      return Asinh(x);
    case MathOp::kAtanh:
      return Atanh(x);
    case MathOp::kCosh:
      return Cosh(x);
    case MathOp::kSinh:
      return Sinh(x);
    case MathOp::kSign:
      return SignOf(x);
    default:
      return std::numeric_limits<float>::quiet_NaN();  // not an element-wise op of this file
  }
}

Half ReplayMathHalfMore(MathOp op, Half x) {
  const double ln = std::log(static_cast<double>(W(x)));
  switch (op) {
    case MathOp::kExpBasic:
      return DoubleToHalf(std::exp(static_cast<double>(W(x))));
    case MathOp::kLog:
      return DoubleToHalf(ln);
    case MathOp::kLog10:  // Ln and Muls in half, the constant rounded to half
      return H(W(DoubleToHalf(ln)) * W(DoubleToHalf(0.43429448190325176)));
    case MathOp::kSign:
      return H(SignOf(W(x)));
    case MathOp::kAsin:
      return FloatToHalf(AsinHalfAsFloat(x));
    case MathOp::kAcos: {
      float r = AsinHalfAsFloat(x) + -kHalfPi;
      return FloatToHalf(r * -1.0f);
    }
    default:  // the float sequence on the widened value, rounded to nearest even
      return FloatToHalf(ReplayMathFloat(op, W(x)));
  }
}

void ReplayExpTaylor(uint32_t level, const float* src, float* dst, size_t n) {
  float frac = 0;
  for (size_t i = 0; i < n; ++i) dst[i] = ExpTaylorCore(src[i] + 0.0f, level, &frac);
}

void ReplayExpTaylor(uint32_t level, const Half* src, Half* dst, size_t n) {
  float frac = 0;
  for (size_t i = 0; i < n; ++i) dst[i] = FloatToHalf(ExpTaylorCore(W(src[i]), level, &frac));
}

void ReplayExpTaylorReuse(uint32_t level, float* src, float* dst, size_t n, uint32_t tmpBytes) {
  const size_t chunk = tmpBytes / 4 / 2 / 8 * 8;
  for (size_t off = 0; off < n; off += chunk) {
    const size_t len = std::min(chunk, n - off);
    for (size_t j = 0; j < len; ++j) {
      float frac = 0;
      dst[off + j] = ExpTaylorCore(src[off + j] + 0.0f, level, &frac);
      src[j] = frac;  // FloorX is the source tensor at its base
    }
  }
}

float ReplayPowerFloat(float x, float y) {
  float d = LnF(std::fabs(x));
  d = y * d;
  d = ExpF(d);
  const float ay = std::fabs(y);
  // DetermineSign: 1 for an even rint|y|, -1 for an odd one.
  float t1 = std::nearbyint(ay);
  float t2 = t1 * 0.5f;
  t2 = std::floor(t2);
  t2 = t2 * 2.0f;
  t1 = t1 - t2;
  t1 = t1 * -2.0f;
  t1 = t1 + 1.0f;
  t1 = std::nearbyint(t1);
  // GenMaskForSign: x's sign bit and |y - rint y| < 1e-8.
  float t3 = std::nearbyint(ay);
  t3 = ay - t3;
  t3 = std::fabs(t3);
  const bool integral_y = t3 < 1e-8f;
  const float sign = std::signbit(x) && integral_y ? t1 : 1.0f;
  d = sign * d;
  const float inf = std::numeric_limits<float>::infinity();
  const bool not_one = ay != 0 && x != 1.0f && (x != -1.0f || ay != inf);  // GenMaskForOne
  d = not_one ? d : 1.0f;
  const bool defined = ay == inf || integral_y || x >= 0 || x == -inf;  // GenMaskForNan
  uint32_t nan_bits = 0x7fc00000u;
  float nan;
  std::memcpy(&nan, &nan_bits, 4);
  return defined ? d : nan;
}

void ReplayPower(const float* x, const float* y, float* dst, size_t n) {
  for (size_t i = 0; i < n; ++i) dst[i] = ReplayPowerFloat(x[i], y[i]);
}

void ReplayPower(const Half* x, const Half* y, Half* dst, size_t n) {
  for (size_t i = 0; i < n; ++i) dst[i] = FloatToHalf(ReplayPowerFloat(W(x[i]), W(y[i])));
}

// CommonPowerI: |y| by repeated squaring then single products (wrapping int32 products, the
// order does not change a product modulo 2^32); y = 0 gives 1; y < 0: trunc(1.0f / p) for a
// nonzero p, 0 for p = 0.
void ReplayPower(const int32_t* x, const int32_t* y, int32_t* dst, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    const uint32_t e = y[i] < 0 ? 0u - static_cast<uint32_t>(y[i]) : static_cast<uint32_t>(y[i]);
    uint32_t p = 1, base = static_cast<uint32_t>(x[i]);
    for (uint32_t k = e; k != 0; k >>= 1) {
      if (k & 1u) p = p * base;
      base = base * base;
    }
    auto r = static_cast<int32_t>(p);
    if (y[i] < 0 && r != 0) r = static_cast<int32_t>(std::trunc(1.0f / static_cast<float>(r)));
    dst[i] = r;
  }
}

}  // namespace lngrad_replay
