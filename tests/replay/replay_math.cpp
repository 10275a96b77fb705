// The math family's replay (replay_math.h): each API's arch-2201 sequence on one element, one
// IEEE binary32 operation per vector instruction in the order the toolkit issues them; Exp and
// Ln in double rounded once (docs/ascendc_kernels.md §2). Written from the toolkit's
// impl/adv_api/detail/math/<api>/<api>_common_impl.h (and sin/cos/tan/cosh _v220_impl.h).
#include "replay_math.h"

#include <cmath>
#include <cstring>

#include "replay_math_ops.h"

namespace lngrad_replay {
namespace {

using namespace math_ops;

// Erf: clip to +-3.92, x * P(x^2) / Q(x^2) (erf_common_impl.h ErfClip, ErfComputeP/Q).
float Erf(float x) {
  const float c = Maxs(Mins(x, 3.92f), -3.92f);
  const float s = c * c;
  const float p_coef[] = {0.053443748819f,  0.75517016694e1f, 0.10162808918e3f,
                          0.13938061484e4f, 0.50637915060e4f, 0.29639384698e5f};
  const float big_p = c * HornerFromProduct(s, p_coef, 6);
  const float q_coef[] = {0.31212858877e2f, 0.39856963806e3f, 0.30231248150e4f, 0.13243365831e5f,
                          0.26267224157e5f};
  return big_p / HornerMonic(s, q_coef, 5);
}

// Erfc: clip to +-10; s = c / (|c| + 2^-62); exp(-a^2) * R(a) / S(a) on a = |c| + 2^-62;
// (s * -1 + 1) + E * s (erfc_common_impl.h).
float Erfc(float x) {
  const float c = Maxs(Mins(x, 10.0f), -10.0f);
  const float a = std::fabs(c) + 2.168404344971009e-19f;
  const float s = c / a;
  const float r_coef[] = {0.1735313680e-7f,  -0.9856738394e-6f, 0.2517003236e-4f,
                          -0.3848015171e-3f, 0.5681528564e0f,   0.5245623129e1f,
                          0.2107740710e2f,   0.4212761755e2f,   0.4380524149e2f};
  const float r = HornerFromProduct(a, r_coef, 9);
  const float s_coef[] = {0.9349684299e1f, 0.3756930664e2f, 0.8058268949e2f, 0.9155653738e2f,
                          0.4380524152e2f};
  const float sp = HornerMonic(a, s_coef, 5);
  float e = r / sp;
  float g = a * a;
  g = g * -1.0f;
  g = ExpF(g);
  e = g * e;
  float one_minus = s * -1.0f;
  one_minus = one_minus + 1.0f;
  e = e * s;
  return e + one_minus;
}

// Tanh: clip to +-8.8, e = Exp(2x), (e - 1) / (e + 1) (tanh_common_impl.h).
float Tanh(float x) {
  float c = Maxs(Mins(x, 8.8f), -8.8f);
  c = c * 2.0f;
  const float e = ExpF(c);
  const float num = e + -1.0f;
  const float den = e + 1.0f;
  return num / den;
}

// The sign (-1)^k of Sin and Cos from k: floor(k / 2) * 4 - 2k + 1 (SinSignCompute).
float SignOfK(float k) {
  float d = k * 0.5f;
  d = std::floor(d);
  d = d * 4.0f;
  const float k2 = k * -2.0f;
  d = d + k2;
  return d + 1.0f;
}

// x0 * P(x0^2) * sign (SinPolynomialApproximation / CosPolynomialApproximation).
float SinPolynomial(float x0, float k) {
  const float z = x0 * x0;
  const float sign = SignOfK(k);
  float r = z * 2.604926501e-6f;
  r = r + -0.0001980894471f;
  r = r * z;
  r = r + 0.008333049340f;
  r = r * z;
  r = r + -0.1666665792f;
  r = r * z;
  r = r + 1.0f;
  r = r * x0;
  return r * sign;
}

constexpr float kInvPi = 0.3183098733425140380859375f;
constexpr float kPi0 = 3.140625f;
constexpr float kPi1 = 0.0009670257568359375f;
constexpr float kPi2 = 6.2771141529083251953125e-7f;
constexpr float kPi3 = 1.21644916362129151821136474609375e-10f;

// Sin: k = round-half-away(x / pi), x0 = x - k(pi0 + pi1 + pi2 + pi3) term by term.
float SinReduce(float x, float* k_out) {
  const float k = std::round(x * kInvPi);
  float x0 = x - k * kPi0;
  x0 = x0 - k * kPi1;
  x0 = x0 - k * kPi2;
  x0 = x0 - k * kPi3;
  *k_out = k;
  return x0;
}

// Cos: k = rint(x / pi + 0.5); x0 = x - k pi0 - k pi1 + pi/2 - k pi2 - k pi3 - k pi4 + c.
float CosReduce(float x, float* k_out) {
  float k = x * kInvPi;
  k = k + 0.5f;
  k = std::nearbyint(k);
  float x0 = x - k * kPi0;
  x0 = x0 - k * kPi1;
  x0 = x0 + 1.57079637050628662109375f;
  x0 = x0 - k * kPi2;
  x0 = x0 - k * kPi3;
  x0 = x0 - k * -1.0290623200529979163359041220560e-13f;
  x0 = x0 + -0.00000004371139000189375f;
  *k_out = k;
  return x0;
}

float Sin(float x) {
  float k = 0;
  const float x0 = SinReduce(x, &k);
  return SinPolynomial(x0, k);
}

float Cos(float x) {
  float k = 0;
  const float x0 = CosReduce(x, &k);
  return Maxs(Mins(SinPolynomial(x0, k), 1.0f), -1.0f);
}

// Tan (tan_common_impl.h): k = rint(x / pi); x0, x0 + pi/2 and x0 - pi/2 reduced together;
// x0 (R0 x0^2 + R1) x0^2 + R2) / ((x0^2 + R3) (x0 + pi/2) (x0 - pi/2)). `copy`: the float path
// starts from x + 0, the half path from the widened value itself.
float Tan(float x, bool copy) {
  float v = copy ? x + 0.0f : x;
  const float k = std::nearbyint(v * kInvPi);
  v = v - k * kPi0;
  v = v - k * kPi1;
  float up = v + 1.57079637050628662109375f;
  float down = v + -1.57079637050628662109375f;
  float kp = k * kPi2;
  v = v - kp;
  up = up - kp;
  down = down - kp;
  up = up + -0.00000004371139000189375f;
  down = down + 0.00000004371139000189375f;
  const float tail[] = {kPi3, -1.0291767438275201129727065563201904296875e-13f};
  for (float pi_part : tail) {
    kp = k * pi_part;
    v = v - kp;
    up = up - kp;
    down = down - kp;
  }
  const float z = v * v;
  float num = z * 0.0698520831551998762793f;
  num = num + -6.8711573651634203789f;
  num = num * z;
  num = num + 61.20362572811089435388f;
  num = num * v;
  float den = z + -24.8048928861126769186219f;
  den = den * up;
  den = den * down;
  return num / den;
}

// Atan's Taylor polynomial of `level` terms (TaylorExpand).
float AtanTaylor(float a, int level) {
  const float f[] = {1.0f,
                     static_cast<float>(-0.3333333333333333),
                     0.2f,
                     static_cast<float>(-0.14285714285714285),
                     static_cast<float>(0.1111111111111111),
                     static_cast<float>(-0.09090909090909091),
                     static_cast<float>(0.07692307692307693)};
  const float sq = a * a;
  float d = a * a;
  d = d * f[level];
  for (int i = level - 1; i > 0; --i) {
    d = d + f[i];
    d = d * sq;
  }
  d = d + f[0];
  return d * a;
}

// |(a - t) / (a t + 1)| (AtanTransform).
float AtanTransform(float a, float t) {
  float den = a * t;
  den = den + 1.0f;
  const float num = a + (0.0f - t);
  return std::fabs(num / den);
}

float Atan(float x) {
  constexpr float kPiBy4 = 0.78539816339744830961566084581988f;
  constexpr float kPiBy8 = 0.39269908169872415480783042290994f;
  constexpr float kTanPiBy8 = 0.4142135623730950f;
  const float c = Maxs(Mins(x, 10000.0f), -10000.0f);
  const float a = std::fabs(c);
  float d = AtanTaylor(a, 4);
  float t2 = AtanTaylor(AtanTransform(a, kTanPiBy8), 4);
  t2 = t2 + kPiBy8;
  d = Min(d, t2);
  const float ap1 = a + 1.0f;
  float u = a + -1.0f;
  u = u / ap1;
  u = std::fabs(u);
  t2 = AtanTaylor(u, 4);
  t2 = t2 + kPiBy4;
  d = Min(d, t2);
  float t = AtanTaylor(AtanTransform(u, kTanPiBy8), 6);
  t = t + kPiBy8;
  t = t + kPiBy4;
  d = Min(d, t);
  return d * SignBy2p62(c);
}

}  // namespace

float ReplayMathFloat(MathOp op, float x) {
  switch (op) {
    case MathOp::kExpBasic:
      return ExpF(x);
    case MathOp::kLog:
      return LnF(x);
    case MathOp::kLog2:
      return LnF(x) * static_cast<float>(1.4426950408889634);
    case MathOp::kLog10:
      return LnF(x) * static_cast<float>(0.43429448190325176);
    case MathOp::kErf:
      return Erf(x);
    case MathOp::kErfc:
      return Erfc(x);
    case MathOp::kTanh:
      return Tanh(x);
    case MathOp::kSin:
      return Sin(x);
    case MathOp::kCos:
      return Cos(x);
    case MathOp::kTan:
      return Tan(x, true);
    case MathOp::kAtan:
      return Atan(x);
    default:
      return ReplayMathFloatMore(op, x);
  }
}

void ReplaySinCosReuse(MathOp op, float* src, float* dst, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    float k = 0;
    const float x0 = op == MathOp::kSin ? SinReduce(src[i], &k) : CosReduce(src[i], &k);
    src[i] = x0;
    const float r = SinPolynomial(x0, k);
    dst[i] = op == MathOp::kSin ? r : Maxs(Mins(r, 1.0f), -1.0f);
  }
}

void ReplayMath(MathOp op, const float* src, float* dst, size_t n) {
  for (size_t i = 0; i < n; ++i) dst[i] = ReplayMathFloat(op, src[i]);
}

void ReplayMath(MathOp op, const Half* src, Half* dst, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    const float x = HalfToFloat(src[i]);
    switch (op) {
      case MathOp::kTan:
        dst[i] = FloatToHalf(Tan(x, false));
        break;
      case MathOp::kErf:
      case MathOp::kErfc:
      case MathOp::kCosh:  // CAST_ROUND on arch 2201 (the _v220 / GetErf(c)CastType choice)
        dst[i] = DoubleToHalf(ReplayMathFloat(op, x), true);
        break;
      default:
        dst[i] = ReplayMathHalfMore(op, src[i]);
        break;
    }
  }
}

float ReplayTanh3510(float x, bool compensation) {
  // Reg::Mins / Reg::Maxs: a NaN lane stays NaN (lngrad's register semantics).
  const auto mins = [](float a, float s) { return a != a ? a : (s < a ? s : a); };
  const auto maxs = [](float a, float s) { return a != a ? a : (s > a ? s : a); };
  if (!compensation) {
    const float c = maxs(mins(x, 8.8f), -8.8f) * 2.0f;
    const float e = ExpF(c);
    return (e + -1.0f) / (e + 1.0f);
  }
  const float sq = x * x;  // Mul
  float out = sq * 0.0157296831f;
  out = out + -0.0523029624f;              // Adds
  out = std::fma(out, sq, 0.133152977f);   // FusedMulDstAdd(out, sq, scalar1)
  out = std::fma(out, sq, -0.333327681f);  // FusedMulDstAdd(out, sq, scalar2)
  out = out * sq;                          // Mul
  out = std::fma(out, x, x);               // FusedMulDstAdd(out, x, x)
  const float e = ExpF(mins(x, 20.0f) * 2.0f);
  const float mid = (e + -1.0f) / (e + 1.0f);
  return std::fabs(x) < 0.55f ? out : mid;  // CompareScalar LT on |x|, Select
}

float ReplaySinh3510(float x) {
  const float e = ExpF(x + -0.6931472f);  // Adds(scalarNegLnTwo), Exp
  return e - 0.25f / e;                   // Div(dup 0.25, e), Sub
}

float ReplayCosh3510(float x) {
  const float e = ExpF(x + -0.6931472f);
  return e + 0.25f / e;  // Div, Add
}

float ReplayAsinh3510(float x) {
  const bool negative = x < 0.0f;  // CompareScalar LT 0
  float t2 = x * x;                // Mul
  t2 = t2 + 1.0f;                  // Adds
  t2 = std::sqrt(t2);              // Sqrt
  const float t1 = LnF(std::fabs(x) + t2);
  const float masked = negative ? t1 * -1.0f : 0.0f;  // Muls under the sign mask (zeroing)
  return FromBits(Bits(masked) | Bits(t1));           // Or
}

}  // namespace lngrad_replay
