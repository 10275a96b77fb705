// lngrad: Lgamma's sequence on arch 3510 (the vendor's lgamma_3510_impl.h, register code), per
// element in float, each step one instruction (math_steps.h: + - * / one rounding each, no
// fusing; Ln in double rounded once; Truncate CAST_FLOOR exact).
//
// On a = |x| (LgammaCompute1; the first interval that holds, 0 where none does):
//   a <= 2^-70: -Ln(a);  (2^-70, 0.23): R(a) - Ln(a);  [0.23, 0.7): a chain of five divisions;
//   [0.7, 1.23), a != 1: R(a - 1) (a = 1 keeps 0);  [1.23, 1.73): the polynomial in
//   w = (a + tc)^3 about lgamma's minimum;  [1.73, 2), [2, 2.2), [2.2, 2.5), [2.5, 3): chains of
//   divisions;  [3, 8): 0.5 y + A(y) / B(y) + Ln((y + 2) ... (y + floor(a) - 1)), y = a - floor a;
//   [8, 2^58): (a - 0.5)(Ln a - 1) + the Stirling series in 1/a; 2^58 and above, inf, NaN: 0.
//   R(t) = (t A5(t)) t - 0.0772... over B5(t) t + 1, plus t * -0.5 (the chains "Mul5" below:
//   Muls by the first constant, then Adds, Mul, Adds, ...).
// Then on x (LgammaCompute2, each case overriding the one before): |x| >= 2^58:
//   (Ln|x| - 1) * x;  x < -2^-70: ((ln pi - Ln|SinPi(x)|) - Ln(-x)) - the value so far;
//   x = -inf: +inf;  NaN (exponent all ones, mantissa not 0): the quiet NaN 0x7fc00000.
// SinPi: y = |x| - floor|x|, S(1 - y) for y >= 0.5, S(y) below, times the sign of x (0 at 0).
// Half: widened exactly, the float result cast with saturation (CAST_RINT, SAT: an infinity
// becomes 65504, NaN +0, lngrad's saturation choice, vector_cast.h).
#pragma once

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "lib/math/math_steps.h"

namespace lngrad::aicore::math_detail {

// The interval ends of the source, as bit patterns.
inline constexpr uint32_t kLg3510Bounds[] = {0x3e6d3308u, 0x3f333333u, 0x3f9da620u, 0x3fdda618u,
                                             0x40000000u, 0x400ccccdu, 0x40200000u, 0x40400000u,
                                             0x41000000u, 0x5c800000u};
inline float Lg3510Bound(int i) { return std::bit_cast<float>(kLg3510Bounds[i]); }
inline constexpr float kLg3510Pow70 = 0x1p-70f;

// t * c0 + c1, then * t + c_i (LGammaCalcMulAdd).
inline float Lg3510Mul5(float t, const std::array<double, 5>& c) {
  float r = t * static_cast<float>(c[0]);
  for (size_t i = 1; i < c.size(); ++i) r = (i == 1 ? r : r * t) + static_cast<float>(c[i]);
  return r;
}

// A constant of the source (a double literal converted to float).
inline float Lg3510C(double c) { return static_cast<float>(c); }

inline float Lg3510Rational(float t) {  // LgammaCalPow70To023
  float a = Lg3510Mul5(
      t, {1.33810918536787660377e-02, 2.28963728064692451092e-01, 9.77717527963372745603e-01,
          1.45492250137234768737e+00, 6.32827064025093366517e-01});
  a = ((a * t) + Lg3510C(-7.72156649015328655494e-02)) * t;
  float b = Lg3510Mul5(
      t, {3.21709242282423911810e-03, 1.04222645593369134254e-01, 7.69285150456672783825e-01,
          2.12848976379893395361e+00, 2.45597793713041134822e+00});
  b = (b * t) + 1.0f;
  return a / b + t * -0.5f;
}

inline float Lg3510From07(float x) { return Lg3510Rational(x + -1.0f); }  // LgammaCal07To123

inline float Lg3510From023(float x) {  // LgammaCal023To073
  const float a = x + Lg3510C(-1.0348905219959115);
  const float b = Lg3510C(0.20700451798849123) / x;
  const float c = b + Lg3510C(-0.3808607740435038);
  const float d = Lg3510C(-0.3713263607336305) - b;
  const float e = b + Lg3510C(1.8253839945289898);
  const float f = Lg3510C(-0.577911391162728) / d;
  float r = Lg3510C(-1.7736742652812825) / (f - e);
  r = (r + f) * a;
  r = (Lg3510C(0.10589227895856956) - r) * c;
  return r - a;
}

inline float Lg3510From123(float x) {  // LgammaCal123o173
  const float a = Lg3510Mul5(
      x, {1.08704044e-07, -6.47978282e-07, 1.45738871e-06, -1.47723704e-06, 5.73642027e-07});
  const float y = x + Lg3510C(-1.46163214496836224576e+00);
  const float z = y * y;
  const float w = z * y;
  const float b = Lg3510Mul5(
      w, {3.15632070903625950361e-04, -1.40346469989232843813e-03, 6.10053870246291332635e-03,
          -3.27885410759859649565e-02, 4.83836122723810047042e-01});
  const float c = Lg3510Mul5(
      w, {-3.12754168375120860518e-04, 8.81081882437654011382e-04, -3.68452016781138256760e-03,
          1.79706750811820387126e-02, -1.47587722994593911752e-01});
  const float d = Lg3510Mul5(
      w, {3.35529192635519073543e-04, -5.38595305356740546715e-04, 2.25964780900612472250e-03,
          -1.03142241298341437450e-02, 6.46249402391333854778e-02});
  const float t = Lg3510C(-3.63867699703950536541e-18) - ((y * d) + c) * w;
  return ((z * b - t) + Lg3510C(-1.21486290535849611461e-01)) + a;
}

inline float Lg3510From173(float x) {  // LgammaCal173To2
  const float a = x + Lg3510C(-2.000000000156967);
  const float b = x + Lg3510C(1.5704527182920263);
  const float c = x / Lg3510C(-2.351768784938553);
  const float d = Lg3510C(11.072315459770081) / a;
  const float r = b / ((Lg3510C(4.56346777685429) - c) + d);
  return a * (r + Lg3510C(0.422784325282832));
}

inline float Lg3510From2(float x) {  // LgammaCal2To22
  const float a = x + Lg3510C(-0.9987077407790342);
  const float b = a + Lg3510C(-1.0012922592272755);
  const float c = Lg3510C(1.7427676919841077) / (a / b);
  const float r = Lg3510C(0.18634242386907246) / (Lg3510C(2.2595210499965988) - c);
  return b / (Lg3510C(2.4477420497054303) - (c + r));
}

inline float Lg3510From22(float x) {  // LgammaCal22To25
  const float a = x + Lg3510C(-2.0000069063575214);
  const float r = Lg3510C(-0.7681154946764155) / (x * -1.0f + Lg3510C(-1.7452430203554998));
  const float b = Lg3510C(-0.08525477083158943) - r;
  return a * (Lg3510C(0.5071375856257216) - b * (b + a));
}

inline float Lg3510From25(float x) {  // LgammaCal25To3
  const float r0 = Lg3510C(-2.225444571099429), r1 = Lg3510C(-2.7949471270267456);
  const float a = x + r0;
  const float b = x * -1.0f + Lg3510C(0.2566236573575009);
  float c = x + (a + r1);
  float d = Lg3510C(0.14449865133660186) / (b + r0);
  d = d + Lg3510C(-0.017787316457839795);
  c = d + c;
  const float e = c * d;
  return a - e * (c + r1);
}

inline float Lg3510From3(float x) {  // LgammaCal3To8
  const float i = FloorF(x);
  const float y = x - i;
  float a = Lg3510Mul5(
      y, {3.19475326584100867617e-05, 1.84028451407337715652e-03, 2.66422703033638609560e-02,
          1.46350472652464452805e-01, 3.25778796408930981787e-01});
  a = (((a * y) + Lg3510C(2.14982415960608852501e-01)) * y + Lg3510C(-7.72156649015328655494e-02)) *
      y;
  float b = Lg3510Mul5(
      y, {7.32668430744625636189e-06, 7.77942496381893596434e-04, 1.86459191715652901344e-02,
          1.71933865632803078993e-01, 7.21935547567138069525e-01});
  b = ((b * y) + Lg3510C(1.39200533467621045958e+00)) * y + 1.0f;
  const float r = y * 0.5f + a / b;
  float p = 1.0f;
  for (float k = 3.0f; k <= 7.0f; k += 1.0f) p = i >= k ? p * (y + (k - 1.0f)) : p;
  return r + LnF(p);
}

inline float Lg3510From8(float x) {  // LgammaCal8ToPow58
  const float l = LnF(x);
  const float b = 1.0f / x;
  const float y = b * b;
  float r = Lg3510Mul5(
      y, {-1.63092934096575273989e-03, 8.36339918996282139126e-04, -5.95187557450339963135e-04,
          7.93650558643019558500e-04, -2.77777777728775536470e-03});
  r = ((r * y) + Lg3510C(8.33333333333329678849e-02)) * b + Lg3510C(4.18938533204672725052e-01);
  return r + (l + -1.0f) * (x + -0.5f);
}

// LgammaCompute1 on a = |x|: the piece of the first interval holding a.
inline float Lg3510OnAbs(float a) {
  using Piece = float (*)(float);
  static constexpr Piece kPieces[] = {Lg3510From023, Lg3510From07, Lg3510From123,
                                      Lg3510From173, Lg3510From2,  Lg3510From22,
                                      Lg3510From25,  Lg3510From3,  Lg3510From8};
  if (a <= kLg3510Pow70) return LnF(a) * -1.0f;
  if (a < Lg3510Bound(0)) return Lg3510Rational(a) - LnF(a);
  for (int i = 1; i < 10; ++i) {
    if (a < Lg3510Bound(i)) return i == 2 && a == 1.0f ? 0.0f : kPieces[i - 1](a);
  }
  return 0.0f;
}

// The odd polynomial of sin(pi x) on [0, 0.5] (SearchSinPi).
inline float Lg3510SinPiPoly(float x) {
  const float r0 = Lg3510C(0.9452154240716536);
  const float a = x * x;
  const float b = a * Lg3510C(0.27798021173736565);
  const float c = b - r0;
  float r = ((c + Lg3510C(0.96602443393936)) * c + Lg3510C(-0.01134864151666764)) *
            Lg3510C(-3.605483266634817);
  r = ((r + b) + Lg3510C(-5.189778155221027)) * a;
  r = (r + Lg3510C(1.323678940948241)) * c;
  return ((r0 - r) + r0) * x;
}

inline float Lg3510SinPi(float x) {
  const float a = std::fabs(x);
  const float y = a - FloorF(a);
  float r = 0.0f;
  if (y >= 0.5f) r = Lg3510SinPiPoly(1.0f - y);
  if (y < 0.5f) r = Lg3510SinPiPoly(y);
  const float sign = x < 0.0f ? -1.0f : (x > 0.0f ? 1.0f : 0.0f);
  return r * sign;
}

// LgammaCompute2: the large, negative and special x over Compute1's value `v`.
inline float Lgamma3510(float x) {
  const float a = std::fabs(x);
  float v = Lg3510OnAbs(a);
  if (a >= Lg3510Bound(9)) v = (LnF(a) + -1.0f) * x;
  if (x < -kLg3510Pow70) {
    const float s = Lg3510C(1.14472988584940016388e+00) - LnF(std::fabs(Lg3510SinPi(x)));
    v = (s - LnF(x * -1.0f)) - v;
  }
  if (x == -std::numeric_limits<float>::infinity()) v = std::numeric_limits<float>::infinity();
  if (std::isnan(x)) v = std::bit_cast<float>(0x7fc00000u);
  return v;
}

}  // namespace lngrad::aicore::math_detail
