// Digamma on arch 2201/2002 (replay_math_scratch_digamma.h). Provenance: written by helper dg
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
#include "replay_math_scratch_digamma.h"

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

// ---- The float path's scratch (helper dg2, session 18): a second, instruction-by-instruction
// reading of the same kit files (DigammaCompute, DigammaInitParams<float>, DigammaComputeImpl
// <float>, DigammaGenCompareMask, DigammaGenNegIntMask, DigammaGenNanMask, DigammaSelect,
// DigammaPositiveTmp0/Tmp1, DigammaPositive, DigammaNegPicotPix, DigammaNegative), written
// before lngrad's digamma.h modelled the scratch. Each instruction runs over the round's L lanes
// (counter mode) and stores into the scratch at the kit's offsets; Compare alone runs whole
// 64-lane repeats (DivCeil(L * 4, 256) of them): the bits of lanes past L compare elements this
// replay does not follow (src past the round, tmpScalar past L, the very mask bytes it writes
// when L is an odd multiple of 32), so those bytes are marked unknown.
namespace {

struct FloatRound {
  uint8_t* t;      // scratch
  uint8_t* known;  // per scratch byte
  uint32_t S, L;
  bool a2002;
  uint8_t *res, *c1, *c2, *c3, *c4, *sc, *mk, *mk1, *mk2;
  const uint8_t* x;
  uint8_t* d;

  static float Ld(const uint8_t* p, uint32_t j) {
    float v;
    std::memcpy(&v, p + 4 * j, 4);
    return v;
  }
  static void St(uint8_t* p, uint32_t j, float v) { std::memcpy(p + 4 * j, &v, 4); }
  template <class F>
  void U(uint8_t* dp, const uint8_t* a, F f) {
    for (uint32_t j = 0; j < L; ++j) St(dp, j, f(Ld(a, j)));
  }
  template <class F>
  void B(uint8_t* dp, const uint8_t* a, const uint8_t* b, F f) {
    for (uint32_t j = 0; j < L; ++j) St(dp, j, f(Ld(a, j), Ld(b, j)));
  }
  void Dup(uint8_t* dp, float v) {
    U(dp, dp, [v](float) { return v; });
  }
  void MarkKnown(const uint8_t* p, uint32_t bytes, bool k) {
    std::fill(known + (p - t), known + (p - t) + bytes, uint8_t{k});
  }
  // Compare(m, a, b) over DivCeil(L * 4, 256) repeats of 64 lanes.
  template <class P>
  void Cmp(uint8_t* m, const uint8_t* a, const uint8_t* b, P pred) {
    const uint32_t reach = (L * 4 + 255) / 256 * 8;
    std::fill(m, m + reach, uint8_t{0});
    for (uint32_t j = 0; j < L; ++j) {
      if (pred(Ld(a, j), Ld(b, j))) m[j / 8] |= static_cast<uint8_t>(1u << (j % 8));
    }
    MarkKnown(m, L / 8, true);
    MarkKnown(m + L / 8, reach - L / 8, false);
  }
  template <class P>
  void GenMask(uint8_t* m, const uint8_t* a, float s, P pred) {
    Dup(sc, s);
    Cmp(m, a, sc, pred);
  }
  // And / Not over ConstCeil(L, 16) uint16 elements.
  void And16(uint8_t* dp, const uint8_t* a, const uint8_t* b, uint32_t bytes) {
    for (uint32_t i = 0; i < bytes; ++i) {
      const bool k = known[a - t + i] && known[b - t + i];
      dp[i] = a[i] & b[i];
      known[dp - t + i] = k;
    }
  }
  uint32_t MaskBytes() const { return (L + 15) / 16 * 2; }
  void Not16(uint8_t* p) {
    for (uint32_t i = 0; i < MaskBytes(); ++i) p[i] = static_cast<uint8_t>(~p[i]);
  }
  // DigammaSelect: tmp = mask ? s : tmpScalar[0] (the Duplicate'd 0), then dst = tmp + dst.
  void Select(uint8_t* dp, const uint8_t* s, const uint8_t* m, uint8_t* tmp) {
    Dup(sc, 0.0f);
    const float z = Ld(sc, 0);
    for (uint32_t j = 0; j < L; ++j) St(tmp, j, ((m[j / 8] >> (j % 8)) & 1) ? Ld(s, j) : z);
    B(dp, tmp, dp, [](float p, float q) { return p + q; });
  }
  void Cast(uint8_t* dp, const uint8_t* a, Mode m) {
    U(dp, a, [&](float v) { return ArchCast(m, v, a2002); });
  }

  void PositiveTmp0(uint8_t* dp, const uint8_t* s) {
    U(c1, s, [](float v) { return v + 10.0f; });
    U(dp, c1, [](float v) { return LnF(v); });
    Dup(sc, 1.0f);
    B(c1, sc, c1, [](float p, float q) { return p / q; });
    U(c2, c1, [](float v) { return v * 0.5f; });
    B(dp, dp, c2, [](float p, float q) { return p - q; });
    B(c1, c1, c1, [](float p, float q) { return p * q; });
    Dup(c2, static_cast<float>(8.33333333333333333333e-2));
    const float k[] = {2.10927960927960927961e-2f, 7.57575757575757575758e-3f,
                       4.16666666666666666667e-3f, 3.96825396825396825397e-3f,
                       8.33333333333333333333e-3f, 8.33333333333333333333e-2f};
    for (const float c : k) {
      Dup(sc, c);
      B(c2, c1, c2, [](float p, float q) { return p * q; });
      B(c2, sc, c2, [](float p, float q) { return p - q; });
    }
    B(c2, c1, c2, [](float p, float q) { return p * q; });
    B(dp, dp, c2, [](float p, float q) { return p - q; });
  }
  void PositiveTmp1(uint8_t* dp, const uint8_t* s) {
    Dup(sc, 1.0f);
    B(dp, sc, s, [](float p, float q) { return p / q; });
    for (int i = 1; i <= 9; ++i) {
      const float c = static_cast<float>(i);
      U(c2, s, [c](float v) { return v + c; });
      B(c2, sc, c2, [](float p, float q) { return p / q; });
      B(dp, dp, c2, [](float p, float q) { return p + q; });
    }
  }
  void Positive(uint8_t* dp, const uint8_t* s) {
    PositiveTmp0(dp, s);
    PositiveTmp1(c1, s);
    B(dp, dp, c1, [](float p, float q) { return p - q; });
  }
  void PicotPix(uint8_t* dp, const uint8_t* s) {
    B(c1, s, s, [](float p, float q) { return p + q; });
    Cast(c2, c1, Mode::kRound);
    B(c1, c1, c2, [](float p, float q) { return p - q; });
    U(c1, c1, [](float v) { return v * 1.5707963267948966f; });
    for (uint32_t j = 0; j < L; ++j) {  // Cast<int32_t, float>(CAST_ROUND) in place
      const int32_t r = ToInt32(Mode::kRound, Ld(c2, j));
      std::memcpy(c2 + 4 * j, &r, 4);
    }
    for (uint32_t j = 0; j < L; ++j) {  // Duplicate<int32_t> 1
      const int32_t one = 1;
      std::memcpy(c3 + 4 * j, &one, 4);
    }
    for (uint32_t i = 0; i < 4 * L; ++i) c2[i] &= c3[i];  // And<uint16_t> over 2L halves
    for (uint32_t j = 0; j < L; ++j) {                    // Cast<float, int32_t>
      int32_t r;
      std::memcpy(&r, c2 + 4 * j, 4);
      St(c2, j, static_cast<float>(r));
    }
    GenMask(mk1, c2, 0.5f, [](float p, float q) { return p < q; });
    GenMask(mk2, c2, 0.5f, [](float p, float q) { return p >= q; });
    B(c2, c1, c1, [](float p, float q) { return p * q; });
    Dup(dp, 0.0093383789065f);
    const float c[] = {0.00326538085938f, 0.0242919921875f, 0.053466796875f, 0.133377909660f,
                       0.333332300186f};
    for (const float k : c) {
      B(dp, dp, c2, [](float p, float q) { return p * q; });
      U(dp, dp, [k](float v) { return v + k; });
    }
    B(dp, dp, c2, [](float p, float q) { return p * q; });
    B(dp, dp, c1, [](float p, float q) { return p * q; });
    B(c1, dp, c1, [](float p, float q) { return p + q; });
    Dup(dp, 0.0f);
    Select(dp, c1, mk2, c3);
    Dup(sc, -1.0f);
    B(c1, sc, c1, [](float p, float q) { return p / q; });
    Select(dp, c1, mk1, c3);
    U(dp, dp, [](float v) { return v * kPi; });
  }
  void Negative(uint8_t* dp, const uint8_t* s) {
    U(c3, s, [](float v) { return v * -1.0f; });
    U(c3, c3, [](float v) { return v + 1.0f; });
    Positive(dp, c3);
    PicotPix(c4, s);
    B(dp, dp, c4, [](float p, float q) { return p + q; });
  }
  void Run() {
    const uint8_t* s = x;
    Dup(d, 0.0f);
    Dup(res, NanConst());
    GenMask(mk, s, kMinNeg, [](float p, float q) { return p <= q; });
    Select(d, res, mk, c3);
    // DigammaGenNegIntMask(params.mask1, ...): its And writes its mask argument, mask1 itself.
    GenMask(mk1, s, 0.0f, [](float p, float q) { return p < q; });
    GenMask(mk2, s, kMinNeg, [](float p, float q) { return p > q; });
    And16(mk1, mk1, mk2, MaskBytes());
    Cast(c1, s, Mode::kRound);
    Cmp(mk2, s, c1, [](float p, float q) { return p == q; });
    And16(mk1, mk1, mk2, MaskBytes());
    Select(d, res, mk1, c3);
    GenMask(mk1, s, 0.0f, [](float p, float q) { return p < q; });
    GenMask(mk2, s, 0.0f, [](float p, float q) { return p >= q; });
    Not16(mk1);
    Not16(mk2);
    And16(mk, mk1, mk2, MaskBytes());
    Select(d, s, mk, c3);
    GenMask(mk, s, 0.0f, [](float p, float q) { return p >= q; });
    Positive(res, s);
    Select(d, res, mk, c3);
    GenMask(mk, s, 0.0f, [](float p, float q) { return p < q; });
    Negative(res, s);
    Select(d, res, mk, c3);
  }
};

}  // namespace

bool ReplayDigammaScratch(float* src, float* dst, uint32_t n, uint8_t* tmp, uint8_t* known,
                          uint32_t tmpBytes, bool arch2002, bool reuse) {
  const uint32_t split = SplitSize(tmpBytes, reuse ? 6 : 7);
  if (split == 0) return false;
  FloatRound r{};
  r.t = tmp;
  r.known = known;
  r.S = split;
  r.a2002 = arch2002;
  r.res = tmp;
  r.c1 = tmp + 4 * split;
  r.c2 = tmp + 8 * split;
  r.c3 = tmp + 12 * split;
  r.c4 = reuse ? reinterpret_cast<uint8_t*>(src) : tmp + 16 * split;
  r.sc = tmp + 4 * split * (reuse ? 4 : 5);
  r.mk = r.sc + 4 * split;
  r.mk1 = r.mk + split;
  r.mk2 = r.mk1 + split;
  Rounds(n, split, [&](uint32_t off, uint32_t len) {
    // The round's elements: with isReuseSource the first round's tmpCal4 IS src[0, len), first
    // written by PicotPix's Duplicate after the sequence's last read of src, and a later round
    // (off >= split) reads past what the earlier ones wrote; the copy holds the same values.
    std::vector<float> x(src + off, src + off + len);
    r.L = len;
    r.x = reinterpret_cast<const uint8_t*>(x.data());
    r.d = reinterpret_cast<uint8_t*>(dst + off);
    r.Run();
  });
  return true;
}
}  // namespace lngrad_replay
