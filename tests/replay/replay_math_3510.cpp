// The element-wise math APIs on arch 3510 (replay_math.h), each re-read from the toolkit's
// impl/adv_api/detail/math/<api>/<api>_3510_impl.h: the register instructions on one lane, one
// IEEE binary32 operation each, the register Exp and Log in double rounded once to float.
// Half sources are widened exactly by the caller; the saturating cast back is the caller's
// (FloatToHalfSaturate). No code shared with lngrad.
#include <bit>
#include <cmath>
#include <cstdint>
#include <algorithm>
#include <initializer_list>

#include "replay_math.h"

namespace lngrad_replay {
namespace {

float RegExp(float v) { return static_cast<float>(std::exp(static_cast<double>(v))); }
float RegLog(float v) { return static_cast<float>(std::log(static_cast<double>(v))); }

uint32_t BitsOf(float v) { return std::bit_cast<uint32_t>(v); }
float AsFloat(uint32_t b) { return std::bit_cast<float>(b); }

// The register Mins / Maxs: a NaN lane stays NaN.
float RegMins(float a, float s) { return std::isnan(a) ? a : (s < a ? s : a); }
float RegMaxs(float a, float s) { return std::isnan(a) ? a : (s > a ? s : a); }

// ErfPadeCompute: ErfClip (Mins 3.92, Maxs -3.92), ErfComputeP, ErfComputeQ, Div.
float ErfPade(float x) {
  const float bound = static_cast<float>(3.92);
  const float c = RegMaxs(RegMins(x, bound), -bound);
  const float sq = c * c;
  const double pk[] = {0.75517016694e1, 0.10162808918e3, 0.13938061484e4, 0.50637915060e4};
  float p = sq * static_cast<float>(0.053443748819);
  for (double k : pk) {
    p = p + static_cast<float>(k);
    p = p * sq;
  }
  p = p + static_cast<float>(0.29639384698e5);
  p = p * c;
  const double qk[] = {0.39856963806e3, 0.30231248150e4, 0.13243365831e5, 0.26267224157e5};
  float q = sq + static_cast<float>(0.31212858877e2);
  for (double k : qk) {
    q = q * sq;
    q = q + static_cast<float>(k);
  }
  return p / q;
}

// ErfSubsectionCompute and ErfSpecialCaseCompute (the source's comments are CUDA's erff).
float ErfSubsection(float f4) {
  const uint32_t p1[] = {0x38EB4C3Au, 0xBAAE005Bu, 0x3C09919Fu, 0xBD24D99Au,
                         0x3E235519u, 0x3F69B4F9u, 0x3F210A14u};
  const uint32_t p2[] = {0x38B1E96Au, 0xBA574D20u, 0x3BAAD5EAu, 0xBCDC1BE7u,
                         0x3DE718AFu, 0xBEC093ACu, 0x3E0375D3u};
  const float f5 = std::fabs(f4);
  const bool ge = f5 >= AsFloat(0x3F8060FEu);
  const float f6 = f4 * f4;
  const float f7 = ge ? f5 : f6;
  float acc = AsFloat(ge ? p1[0] : p2[0]);
  for (int k = 1; k < 7; ++k) acc = std::fma(acc, f7, AsFloat(ge ? p1[k] : p2[k]));
  const float f22 = ge ? -f5 : f4;
  const float f26 = std::fma(acc, f22, f22);
  const float f23 = RegExp(f26 * RegLog(2.0f));
  const float f25 = AsFloat(0x3F800000u) - f23;
  const uint32_t r4 = (BitsOf(f4) & 0x80000000u) | BitsOf(f25);
  return f5 < AsFloat(0x3F8060FEu) ? f26 : AsFloat(r4);
}

// ErfcClip and ErfcPublicSteps: MulAdds(d, a, b, k) = a * b + k.
float Erfc(float x) {
  const float c = RegMaxs(RegMins(x, 10.0f), -10.0f);
  const float xa = std::fabs(c) + static_cast<float>(2.168404344971009e-19);
  float d = RegExp(-(xa * xa));
  const float z = RegMins(xa, 10.0f);
  const float xb = c / xa;
  d = d * xb;
  const double rk[] = {-0.9856738394e-6, 0.2517003236e-4, -0.3848015171e-3, 0.5681528564e0,
                       0.5245623129e1,   0.2107740710e2,  0.4212761755e2,   0.4380524149e2};
  float rz = z * static_cast<float>(0.1735313680e-7) + static_cast<float>(rk[0]);
  for (int i = 1; i < 8; ++i) rz = rz * z + static_cast<float>(rk[i]);
  const double sk[] = {0.3756930664e2, 0.8058268949e2, 0.9155653738e2, 0.4380524152e2};
  float sz = z + static_cast<float>(0.9349684299e1);
  for (double v : sk) sz = sz * z + static_cast<float>(v);
  d = d * rz;
  d = d / sz;
  return d + (1.0f - xb);
}

// TanRound and TanPolynomialApproximation: k = Truncate<RINT>(x * invpi); x0 and the two
// distances to +-pi/2 reduced by k * pi0 .. k * pi4; x0 * P(x0^2) / ((x0^2 + R3) * d1 * d2).
float Tan(float x) {
  const auto f = [](double v) { return static_cast<float>(v); };
  const float k = std::nearbyint(x * f(0.3183098733425140380859375));
  float r = x - k * f(3.140625);
  r = r - k * f(0.0009670257568359375);
  float d1 = r + f(1.57079637050628662109375);
  float d2 = r + f(-1.57079637050628662109375);
  float t = k * f(6.2771141529083251953125e-7);
  r = r - t;
  d1 = d1 - t;
  d2 = d2 - t;
  d1 = d1 + f(-0.00000004371139000189375);
  d2 = d2 + f(0.00000004371139000189375);
  for (double pi_k :
       {1.21644916362129151821136474609375e-10, -1.0291767438275201129727065563201904296875e-13}) {
    t = k * f(pi_k);
    r = r - t;
    d1 = d1 - t;
    d2 = d2 - t;
  }
  const float x2 = r * r;
  float up = x2 * f(0.0698520831551998762793) + f(-6.8711573651634203789);
  up = (up * x2 + f(61.20362572811089435388)) * r;
  float down = x2 + f(-24.8048928861126769186219);
  down = down * d1;
  down = down * d2;
  return up / down;
}

// Asin (asin_3510_impl.h, math_constant_util.h): kCOEF, BOUNDARY = 1/sqrt2, HALF_PI.
const double kCoef[8] = {1.0,
                         0.16666666666666666666666666666667,
                         0.075,
                         0.04464285714285714285714285714286,
                         0.03038194444444444444444444444444,
                         0.02237215909090909090909090909091,
                         0.01735276442307692307692307692308,
                         0.01396484375};
const float kBoundary = static_cast<float>(0.70710678118654752440084436210485);
const float kHalfPiF = static_cast<float>(1.5707963267948966192313216916398);

// AsinTaylorComputeInner on float lanes: d * c7, + c6, * sq, ..., + c0; `coef` gives c_i as the
// lanes see it (a float, or a half scalar widened).
template <class Coef>
float Inner(float d, float sq, Coef coef) {
  d = d * coef(7);
  for (int i = 6; i >= 0; --i) {
    d = d + coef(i);
    if (i > 0) d = d * sq;
  }
  return d;
}

float CoefF(int i) { return static_cast<float>(kCoef[i]); }
float CoefH(int i) { return HalfToFloat(FloatToHalf(static_cast<float>(kCoef[i]))); }

// -Floor(Min(v, B) - B) through the integer casts (Min as the register Mins: NaN stays).
float Choice(float v, float b) {
  const float t = (std::isnan(v) ? v : (b < v ? b : v)) + (-b);
  // Cast<int32_t, FLOOR, SAT> then back: an integer (no -0), NaN as 0.
  const int32_t k = std::isnan(t) ? 0 : static_cast<int32_t>(std::floor(t));
  return static_cast<float>(k) * -1.0f;
}

float AsinF(float x) {
  float t = x * x;
  t = t * -1.0f + 1.0f;
  const float r = std::sqrt(t);
  float res2 = Inner(r * r, r * r, CoefF) * r;
  res2 = res2 * -1.0f + kHalfPiF;
  const float sq = x * x;
  const float root = std::sqrt(sq);  // AsinTaylorComputeBySquareValue leaves Sqrt(x * x) there
  float res1 = Inner(sq * 1.0f, sq, CoefF) * root;
  const float c1 = Choice(root, kBoundary);
  res1 = res1 * c1;
  res2 = res2 * (c1 * -1.0f + 1.0f);
  res1 = res1 + res2;
  float sign = x * 4611686018427387904.0f;
  sign = sign / (std::fabs(sign) + static_cast<float>(2.168404344971009e-19));
  return res1 * sign;
}

// One half instruction: the float result of half operands rounded to half.
float H(float v) { return HalfToFloat(FloatToHalf(v)); }

float AsinH(float x) {
  float f2 = x * x;
  f2 = f2 * -1.0f + 1.0f;
  float f1 = Inner(f2 * 1.0f, f2, CoefH) * std::sqrt(f2);
  f1 = f1 * -1.0f + kHalfPiF;
  const float ax = std::fabs(x);
  const float sq = H(ax * ax);
  float small = H(sq * CoefH(7));
  for (int i = 6; i >= 0; --i) {
    small = H(small + CoefH(i));
    if (i > 0) small = H(small * sq);
  }
  small = H(small * ax);
  const float hb = H(kBoundary);
  float m = H((std::isnan(ax) ? ax : (hb < ax ? hb : ax)) + H(-kBoundary));
  m = static_cast<float>(std::isnan(m) ? 0
                                       : static_cast<int32_t>(std::max(std::floor(m), -128.0f)));
  m = H(m * -1.0f);
  small = H(small * m);
  m = H(H(m * -1.0f) + 1.0f);
  f1 = small + f1 * m;
  const float d = H(x * 32768.0f);
  const float sign = H(d / H(std::fabs(d) + H(3.0517578125e-05f)));
  return f1 * sign;
}

// Atan's TaylorExpand (atan_3510_impl.h): sq = v * v; d = v * v * f[level]; for level 6 the loop
// body once (+ f6, * sq, + f5); then + f4, * sq, + f3, * sq, + f2, * sq, + f1, * sq, + f0, * v.
float AtanTaylorExpand(float v, int level) {
  const double f[7] = {1,
                       -0.3333333333333333,
                       0.2,
                       -0.14285714285714285,
                       0.1111111111111111,
                       -0.09090909090909091,
                       0.07692307692307693};
  const auto fl = [&f](int i) { return static_cast<float>(f[i]); };
  const float sq = v * v;
  float d = v * v;
  d = d * fl(level);
  if (level == 6) {
    d = d + fl(6);
    d = d * sq;
    d = d + fl(5);
  }
  d = d + fl(4);
  d = d * sq;
  d = d + fl(3);
  d = d * sq;
  d = d + fl(2);
  d = d * sq;
  d = d + fl(1);
  d = d * sq;
  d = d + fl(0);
  return d * v;
}

// AtanTransform: |(v + (-t)) / (v * t + 1)|.
float AtanTrans(float v, float t) { return std::fabs((v + (-t)) / (v * t + 1.0f)); }

// AtanCompute: the register clip and Min (NaN stays), the four candidates, the sign.
float AtanTaylorPath(float x) {
  const float pi4 = static_cast<float>(0.78539816339744830961566084581988);
  const float pi8 = static_cast<float>(0.39269908169872415480783042290994);
  const float t8 = static_cast<float>(0.4142135623730950);
  const auto rmin = [](float a, float b) {
    return std::isnan(a) || std::isnan(b) ? a + b : (b < a ? b : a);
  };
  const float clip = RegMaxs(RegMins(x, 10000.0f), -10000.0f);
  const float a = std::fabs(clip);
  float dst = AtanTaylorExpand(a, 4);
  dst = rmin(dst, AtanTaylorExpand(AtanTrans(a, t8), 4) + pi8);
  const float u = std::fabs((a + -1.0f) / (a + 1.0f));
  dst = rmin(dst, AtanTaylorExpand(u, 4) + pi4);
  float w = AtanTaylorExpand(AtanTrans(u, t8), 6) + pi8;
  w = w + pi4;
  dst = rmin(dst, w);
  float sign = clip * 4611686018427387904.0f;
  sign = sign / (std::fabs(sign) + static_cast<float>(2.168404344971009e-19));
  return dst * sign;
}

// AtanPolynomialVFImpl: MulAddDst and FusedMulDstAdd fused; the sign bit of x or-ed in.
float AtanPolyPath(float x) {
  const double a[9] = {0,
                       -0.333329409,
                       0.199887753,
                       -0.141718030,
                       0.105184801,
                       -0.0725297481,
                       0.0398497507,
                       -0.0143969795,
                       0.00245002890};
  const auto af = [&a](int i) { return static_cast<float>(a[i]); };
  const float xa = std::fabs(x);
  const float xcon = xa >= 1.0f ? 1.0f / xa : xa;
  const float sx = xcon * xcon;
  float y = std::fma(af(8), sx, af(7));
  for (int i = 6; i >= 1; --i) y = std::fma(y, sx, af(i));
  float t = y * sx;
  t = std::fma(t, xcon, xcon);
  const float yif = std::fma(static_cast<float>(1.68325555), static_cast<float>(0.933189452), -t);
  const float r = xa >= 1.0f ? yif : t;
  return AsFloat(BitsOf(r) | (BitsOf(x) & 0x80000000u));
}

}  // namespace

float ReplayAtan3510(float x, bool polynomial) {
  return polynomial ? AtanPolyPath(x) : AtanTaylorPath(x);
}

float ReplayAsin3510(float x, bool half_path) { return half_path ? AsinH(x) : AsinF(x); }
float ReplayAcos3510(float x, bool half_path) {
  return (ReplayAsin3510(x, half_path) + (-kHalfPiF)) * -1.0f;
}

float ReplayTan3510(float x) { return Tan(x); }

float ReplayErfc3510(float x) { return Erfc(x); }

float ReplayErf3510(float x, bool subsection) { return subsection ? ErfSubsection(x) : ErfPade(x); }

// ExpCompute: the factor table is Div(1, Arange(2)): lane j holds 1 / (j + 2); per lane
// i = Truncate<FLOOR>(x), d = x - i, e = Exp(i), s = d + 1, then for j < level - 1:
// p = p * d, p = p * table[j], s = s + p (p starting at d); r = e * s; the -inf lanes select 0,
// then the +inf lanes select +inf (both found by comparing the bits).
float ReplayExpTaylor3510(uint32_t level, float x) {
  const float i = std::floor(x);
  const float d = x - i;
  const float e = RegExp(i);
  float s = d + 1.0f;
  float p = d;
  for (uint32_t j = 0; level > 1 && j < level - 1u; ++j) {
    const float table_j = 1.0f / static_cast<float>(j + 2);
    p = p * d;
    p = p * table_j;
    s = s + p;
  }
  float r = e * s;
  if (BitsOf(x) == 0xff800000u) r = 0.0f;
  if (BitsOf(x) == 0x7f800000u) r = x;
  return r;
}

// ExpCompute's first steps (read from exp_3510_impl.h by the helper who added lngrad's
// StoreExpTable3510, a separate reading): Duplicate(tmpReg, 1.0f), Arange<float>(factorialReg,
// 2.0f) (lane i holds 2 + i), Div(factorialReg, tmpReg, factorialReg) under the all-lanes mask,
// StoreAlign(taylorExpandTmpBuffer, factorialReg): one IEEE division per lane.
void ReplayExpTable3510(float table[64]) {
  for (uint32_t i = 0; i < 64; ++i) table[i] = 1.0f / (2.0f + static_cast<float>(i));
}

// LogXImpl: Log, then Muls by the float of 1.4426950408889634 (Log2) or 0.43429448190325176
// (Log10).
float ReplayLog2_3510(float x) { return RegLog(x) * static_cast<float>(1.4426950408889634); }
float ReplayLog10_3510(float x) { return RegLog(x) * static_cast<float>(0.43429448190325176); }

// AcoshImplVF: t = x * x, t = t + (-1), Sqrt, t = t + x, Ln (no t / t step).
float ReplayAcosh3510(float x) {
  float t = x * x;
  t = t + -1.0f;
  t = std::sqrt(t);
  t = t + x;
  return RegLog(t);
}

// Fmod on arch 3510 with FmodConfig NORMAL (fmod_3510_impl.h, FmodComputeVF): Div, Truncate
// CAST_TRUNC, Neg, FusedMulDstAdd (dst = dst * src0 + src1: t * (-b) + a, fused), then
// SolveExceptionScenarios' selects in its order.
float ReplayFmod3510(float a, float b) {
  const float q = a / b;
  float dst = std::trunc(q);
  const float neg = -b;
  dst = std::fma(dst, neg, a);
  const float inf = AsFloat(0x7f800000u), ninf = AsFloat(0xff800000u);
  const bool b_inf = b == inf, b_ninf = b == ninf;
  if (b_inf) dst = a;
  if (b_ninf) dst = a;
  const bool a_inf = a == inf || a == ninf;
  if (a_inf && (b_inf || b_ninf)) dst = AsFloat(0x7fc00000u);
  const bool a_zero = a == 0.0f || a == -0.0f;
  const bool b_not0 = (b != 0.0f || b != -0.0f) && !(b != b);
  if (a_zero && b_not0) dst = a;
  return dst;
}

}  // namespace lngrad_replay
