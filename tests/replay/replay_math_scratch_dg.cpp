// Digamma on arch 2201/2002 (replay_math_scratch_dg.h). Provenance: written by helper dg
// (session 18) from the toolkit's sources at the mirror's HEAD, read whole for this file before
// lngrad's digamma.h was compared or changed: impl/adv_api/detail/math/digamma/
// digamma_common_impl.h (DigammaCompute, DigammaComputeImpl for half and float,
// DigammaPositiveHalf, DigammaNegativeHalf, DigammaPositiveTmp0, DigammaPositiveTmp1,
// DigammaPositive, DigammaNegPicotPix, DigammaNegative), digamma_common_basic_impl.h (the
// constants, DigammaGenCompareMask, DigammaGenNegIntMask, DigammaGenRangeMask,
// DigammaGenNanMask, DigammaSelect, DigammaNegativeRange, DigammaInitParams), digamma_v220_impl.h
// and digamma_v200_impl.h (DigammaCast); for the half path's sub-sequences tan_common_impl.h
// (TanCompute<float>, TanRound, KPI_0..KPI_4, TanPolynomialApproximation), sin_common_impl.h
// (SinCompute<float>, SinRound, SinKpi, SinSignCompute, SinPolynomialApproximation),
// cos_common_impl.h (CosCompute<float>, CosRound, KPI, SignCompute,
// CosPolynomialApproximation) and their _v220 / _v200 casts. A separate reading by the same
// helper who then compared lngrad (include/ascendc/adv/lib/math/digamma.h). One IEEE binary32
// operation per instruction (replay_math_ops.h: Ln in double rounded once, Mins/Maxs with the
// scalar for NaN); a Select where the mask is clear gives +0; And over the 16-bit halves of an
// int32 with 1 is the int32's low bit.
#include "replay_math_scratch_dg.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "replay_math_ops.h"

namespace lngrad_replay {
namespace {

using math_ops::LnF;
using math_ops::Maxs;
using math_ops::Mins;

enum class Mode { kRound, kFloor, kRint };

float Integral(Mode m, float x) {
  switch (m) {
    case Mode::kRound:
      return std::round(x);  // CAST_ROUND: half away from zero
    case Mode::kFloor:
      return std::floor(x);
    default:
      return std::nearbyint(x);  // CAST_RINT: half to even
  }
}

// Cast<int32_t, float>(mode): saturating, NaN -> 0.
int32_t ToInt32(Mode m, float x) {
  if (std::isnan(x)) return 0;
  const double r = static_cast<double>(Integral(m, x));
  return static_cast<int32_t>(std::clamp(r, -2147483648.0, 2147483647.0));
}

// DigammaCast / TanCast / SinCast / CosCast: 2201 one float -> float Cast; 2002 through int32
// and back (CAST_NONE: to nearest even).
float ArchCast(Mode m, float x, bool a2002) {
  return a2002 ? static_cast<float>(ToInt32(m, x)) : Integral(m, x);
}

constexpr float kPi = 3.141592653589793238f;  // DIGAMMA_PI
constexpr float kNegPi = -3.141592653589793238f;
constexpr float kMinNeg = -8388608.0f;
float NanConst() { return FromBits(0x7fc00000u); }  // F32_NAN

// Select where mask else +0, then Add(dst, tmp, dst).
float SelAdd(bool mask, float v, float sum) { return (mask ? v : 0.0f) + sum; }

// DigammaPositiveTmp0 - DigammaPositiveTmp1 (DigammaPositive).
float PositiveF(float x) {
  float w = x + 10.0f;
  float t0 = LnF(w);
  w = 1.0f / w;
  float c2 = w * 0.5f;
  t0 = t0 - c2;
  const float z = w * w;
  c2 = static_cast<float>(8.33333333333333333333e-2);
  const float k[] = {2.10927960927960927961e-2f, 7.57575757575757575758e-3f,
                     4.16666666666666666667e-3f, 3.96825396825396825397e-3f,
                     8.33333333333333333333e-3f, 8.33333333333333333333e-2f};
  for (const float c : k) {
    c2 = z * c2;
    c2 = c - c2;
  }
  c2 = z * c2;
  t0 = t0 - c2;
  float t1 = 1.0f / x;
  for (int i = 1; i <= 9; ++i) {
    float u = x + static_cast<float>(i);
    u = 1.0f / u;
    t1 = t1 + u;
  }
  return t0 - t1;
}

// DigammaNegPicotPix.
float Picot(float x, bool a2002) {
  float f7 = x + x;
  float f8 = ArchCast(Mode::kRound, f7, a2002);
  f7 = f7 - f8;
  const float f36 = f7 * 1.5707963267948966f;
  const int32_t r51 = ToInt32(Mode::kRound, f8);
  const float p9 = static_cast<float>(r51 & 1);
  const bool even = p9 < 0.5f, odd = p9 >= 0.5f;
  const float f17 = f36 * f36;
  float d = 0.0093383789065f;
  const float c[] = {0.00326538085938f, 0.0242919921875f, 0.053466796875f, 0.133377909660f,
                     0.333332300186f};
  for (const float k : c) {
    d = d * f17;
    d = d + k;
  }
  d = d * f17;
  d = d * f36;
  const float f30 = d + f36;
  float r = 0.0f;
  r = SelAdd(odd, f30, r);
  const float f34 = -1.0f / f30;
  r = SelAdd(even, f34, r);
  return r * kPi;
}

float NegativeF(float x, bool a2002) {
  float y = x * -1.0f;
  y = y + 1.0f;
  const float p = PositiveF(y);
  return p + Picot(x, a2002);
}

// The special cases both paths start with (x the float value), onto sum.
float Specials(float x, bool a2002) {
  float sum = 0.0f;
  sum = SelAdd(x <= kMinNeg, NanConst(), sum);
  const float r = ArchCast(Mode::kRound, x, a2002);
  sum = SelAdd((x < 0.0f) && (x > kMinNeg) && (x == r), NanConst(), sum);
  sum = SelAdd(!(x < 0.0f) && !(x >= 0.0f), x, sum);
  return sum;
}

// DigammaPositiveHalf.
float PositiveH(float x) {
  float w = x + 3.0f;
  float t0 = LnF(w);
  w = 1.0f / w;
  float s = w * 0.5f;
  t0 = t0 - s;
  w = w * w;
  s = w * 0.0833333333333333f;
  t0 = t0 - s;
  float w2 = w * w;
  s = w2 * 0.0083333333333333f;
  t0 = t0 - s;
  w2 = w2 * w;
  s = w2 * 0.003968253968254f;
  t0 = t0 - s;
  float t1 = 1.0f / x;
  for (const float c : {1.0f, 2.0f}) {
    float u = x + c;
    u = 1.0f / u;
    t1 = t1 + u;
  }
  return t0 - t1;
}

// TanCompute<float>.
float TanF(float a, bool a2002) {
  float v = a + 0.0f;
  float k = v * 0.3183098733425140380859375f;
  k = ArchCast(Mode::kRint, k, a2002);
  float d = k * 3.140625f;
  v = v - d;
  d = k * 0.0009670257568359375f;
  v = v - d;
  float up = v + 1.57079637050628662109375f;
  float down = v + -1.57079637050628662109375f;
  d = k * 6.2771141529083251953125e-7f;
  v = v - d;
  up = up - d;
  down = down - d;
  up = up + -0.00000004371139000189375f;
  down = down + 0.00000004371139000189375f;
  for (const float p : {1.21644916362129151821136474609375e-10f,
                        -1.0291767438275201129727065563201904296875e-13f}) {
    d = k * p;
    v = v - d;
    up = up - d;
    down = down - d;
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

// SinSignCompute / SignCompute and the shared polynomial (x0 the reduced argument, k the round).
float SinCosPoly(float x0, float k, bool a2002) {
  const float z = x0 * x0;
  float sign = k * 0.5f;
  sign = ArchCast(Mode::kFloor, sign, a2002);
  sign = sign * 4.0f;
  const float k2 = k * -2.0f;
  sign = sign + k2;
  sign = sign + 1.0f;
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

// SinCompute<float> (isReuseSource: the reduction in the source, same values).
float SinF(float s, bool a2002) {
  float k = s * 0.3183098733425140380859375f;
  k = ArchCast(Mode::kRound, k, a2002);
  float x0 = s - k * 3.140625f;
  x0 = x0 - k * 0.0009670257568359375f;
  x0 = x0 - k * 6.2771141529083251953125e-7f;
  x0 = x0 - k * 1.21644916362129151821136474609375e-10f;
  return SinCosPoly(x0, k, a2002);
}

// CosCompute<float>: the clamp to [-1, 1] with Mins then Maxs.
float CosF(float s, bool a2002) {
  float k = s * 0.3183098733425140380859375f;
  k = k + 0.5f;
  k = ArchCast(Mode::kRint, k, a2002);
  float x0 = s - k * 3.140625f;
  x0 = x0 - k * 0.0009670257568359375f;
  x0 = x0 + 1.57079637050628662109375f;
  x0 = x0 - k * 6.2771141529083251953125e-7f;
  x0 = x0 - k * 1.21644916362129151821136474609375e-10f;
  x0 = x0 - k * -1.0290623200529979163359041220560e-13f;
  x0 = x0 + -0.00000004371139000189375f;
  return Maxs(Mins(SinCosPoly(x0, k, a2002), 1.0f), -1.0f);
}

// DigammaComputeImpl<half> on one widened element: the float sum before the cast to half.
float HalfSum(float x, bool a2002) {
  float t4 = ArchCast(Mode::kFloor, x, a2002);
  t4 = x - t4;
  t4 = t4 * kPi;
  const float tan = TanF(t4, a2002);
  const float piOverTan = kPi / tan;
  float sum = Specials(x, a2002);
  sum = SelAdd(x >= 0.0f, PositiveH(x), sum);
  // DigammaNegativeHalf: tmpCal5 = 1 - x, Positive, saved + 0 in tmpCal2, minus pi / tan.
  const float oneMinus = 1.0f - x;
  const float pos = PositiveH(oneMinus);
  const float saved = pos + 0.0f;
  sum = SelAdd(x < -0.0001f, pos - piOverTan, sum);
  // DigammaNegativeRange on the re-widened x.
  float fr = ArchCast(Mode::kFloor, x, a2002);
  fr = x - fr;
  fr = fr * kPi;
  float cs = CosF(fr, a2002);
  const float negPiX = x * kNegPi;
  const float sn = SinF(negPiX, a2002);
  cs = cs * kPi;
  cs = cs / sn;
  const bool range = (x < 0.0f) && (x >= -0.0001f);
  return SelAdd(range, saved - cs, sum);
}

uint32_t SplitSize(uint32_t tmpBytes, uint32_t k) { return tmpBytes / 4 / k / 32 * 32; }

// The kit's rounds: (offset, length) of each, the tail rounded up to 8.
template <class F>
void Rounds(uint32_t n, uint32_t split, F f) {
  uint32_t off = 0;
  for (uint32_t i = 0; i < n / split; ++i, off += split) f(off, split);
  if (n % split != 0) f(off, (n % split + 7) / 8 * 8);
}

}  // namespace

float ReplayDigammaFloat(float x, bool arch2002) {
  float sum = Specials(x, arch2002);
  sum = SelAdd(x >= 0.0f, PositiveF(x), sum);
  return SelAdd(x < 0.0f, NegativeF(x, arch2002), sum);
}

float ReplayDigammaReflection(float x, bool arch2002) { return Picot(x, arch2002); }

float ReplayDigammaHalfSum(float x, bool arch2002) { return HalfSum(x, arch2002); }

bool ReplayDigamma(float* src, float* dst, uint32_t n, uint32_t tmpBytes, bool arch2002,
                   bool reuse) {
  const uint32_t split = SplitSize(tmpBytes, reuse ? 6 : 7);
  if (split == 0) return false;
  Rounds(n, split, [&](uint32_t off, uint32_t len) {
    const std::vector<float> x(src + off, src + off + len);
    for (uint32_t j = 0; j < len; ++j) dst[off + j] = ReplayDigammaFloat(x[j], arch2002);
    if (reuse) {
      for (uint32_t j = 0; j < len; ++j) src[j] = Picot(x[j], arch2002);
    }
  });
  return true;
}

bool ReplayDigamma(const Half* src, Half* dst, uint32_t n, uint32_t tmpBytes, bool arch2002) {
  const uint32_t split = SplitSize(tmpBytes, 8);
  if (split == 0) return false;
  Rounds(n, split, [&](uint32_t off, uint32_t len) {
    for (uint32_t j = 0; j < len; ++j) {
      dst[off + j] = FloatToHalf(HalfSum(HalfToFloat(src[off + j]), arch2002));
    }
  });
  return true;
}

}  // namespace lngrad_replay
