// Digamma on arch 2201/2002 over a UB image (replay_math_scratch_digamma_ub.h). Provenance:
// written by helper dgh (session 19) from the toolkit's sources at the mirror's HEAD, read whole
// for this file before lngrad's digamma.h was changed: impl/adv_api/detail/math/digamma/
// digamma_common_impl.h (DigammaCompute, both DigammaComputeImpl, DigammaPositiveHalf,
// DigammaNegativeHalf, DigammaPositiveTmp0/Tmp1, DigammaPositive, DigammaNegPicotPix,
// DigammaNegative), digamma_common_basic_impl.h (constants, DigammaParams, DigammaGenCompareMask,
// DigammaGenNegIntMask, DigammaGenRangeMask, DigammaGenNanMask, DigammaSelect,
// DigammaNegativeRange, both DigammaInitParams), digamma_v220_impl.h / digamma_v200_impl.h
// (DigammaCast), tan/tan_common_impl.h (TanCompute<float>, TanRound, KPI_0..KPI_4,
// TanPolynomialApproximation), sin/sin_common_impl.h (SinCompute<float>, SinRound, SinKpi,
// SinSignCompute, SinPolynomialApproximation), cos/cos_common_impl.h (CosCompute<float>,
// CosRound, KPI, SignCompute, CosPolynomialApproximation) and their _v220 / _v200 casts. A
// separate reading by the same helper who then changed lngrad (digamma_scratch.h); it shares no
// code with the older per-element replay (replay_math_scratch_digamma.cpp).
//
// The model of the vector unit: counter mode, every instruction runs the round's L lanes
// (params.splitSize: the split, or the tail rounded up to 8), one IEEE binary32 operation each
// (Ln in double rounded once); And / Not run ConstCeil(L, 16) uint16 words; Compare<float,
// uint8_t> runs its DivCeil(L * 4, 256) whole repeats of 64 lanes, each repeat reading its 64
// lanes of both operands before it writes its 8 mask bytes (so a repeat that reads the mask it
// writes sees the earlier repeats' bytes and its own old ones); Select with the scalar of
// SetCmpMask (tmpScalar's first float) where the bit is clear. Tan, Sin and Cos get params.result
// as their temp buffer with calSize = params.splitSize (L, not the split, in the tail round).
#include "replay_math_scratch_digamma_ub.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "replay.h"
#include "replay_math_ops.h"

namespace lngrad_replay {
namespace {

enum class Rm { kRound, kFloor, kRint };

float Integral(Rm m, float x) {
  if (m == Rm::kRound) return std::round(x);
  if (m == Rm::kFloor) return std::floor(x);
  return std::nearbyint(x);
}

int32_t ToI32(Rm m, float x) {
  if (std::isnan(x)) return 0;
  const double r = static_cast<double>(Integral(m, x));
  return static_cast<int32_t>(std::clamp(r, -2147483648.0, 2147483647.0));
}

constexpr float kPi = 3.141592653589793238f;
constexpr float kNegPi = -3.141592653589793238f;
constexpr float kMinNeg = -8388608.0f;

using Addr = int64_t;  // a byte offset in the UB image

struct Vm {
  uint8_t* ub;
  int64_t size;
  uint32_t L = 0;
  bool v200 = false;

  float F(Addr a) const {
    if (a < 0 || a + 4 > size) return std::numeric_limits<float>::quiet_NaN();
    float v;
    std::memcpy(&v, ub + a, 4);
    return v;
  }
  void Set(Addr a, float v) { std::memcpy(ub + a, &v, 4); }
  int32_t I(Addr a) const {
    int32_t v;
    std::memcpy(&v, ub + a, 4);
    return v;
  }
  void SetI(Addr a, int32_t v) { std::memcpy(ub + a, &v, 4); }

  template <class Fn>
  void Un(Addr d, Addr a, Fn f) {
    for (uint32_t j = 0; j < L; ++j) Set(d + 4 * j, f(F(a + 4 * j)));
  }
  template <class Fn>
  void Bi(Addr d, Addr a, Addr b, Fn f) {
    for (uint32_t j = 0; j < L; ++j) Set(d + 4 * j, f(F(a + 4 * j), F(b + 4 * j)));
  }
  void Dup(Addr d, float v) {
    for (uint32_t j = 0; j < L; ++j) Set(d + 4 * j, v);
  }
  void Adds(Addr d, Addr a, float s) {
    Un(d, a, [s](float x) { return x + s; });
  }
  void Muls(Addr d, Addr a, float s) {
    Un(d, a, [s](float x) { return x * s; });
  }
  void Add(Addr d, Addr a, Addr b) {
    Bi(d, a, b, [](float x, float y) { return x + y; });
  }
  void Sub(Addr d, Addr a, Addr b) {
    Bi(d, a, b, [](float x, float y) { return x - y; });
  }
  void Mul(Addr d, Addr a, Addr b) {
    Bi(d, a, b, [](float x, float y) { return x * y; });
  }
  void Div(Addr d, Addr a, Addr b) {
    Bi(d, a, b, [](float x, float y) { return x / y; });
  }
  // DigammaCast / TanCast / SinCast / CosCast: 2201 Cast<float, float>(mode); 2002
  // Cast<int32_t, float>(mode) into d then Cast<float, int32_t>(CAST_NONE) in place.
  void ArchCast(Addr d, Addr a, Rm m) {
    if (!v200) {
      Un(d, a, [m](float x) { return Integral(m, x); });
      return;
    }
    for (uint32_t j = 0; j < L; ++j) SetI(d + 4 * j, ToI32(m, F(a + 4 * j)));
    for (uint32_t j = 0; j < L; ++j) Set(d + 4 * j, static_cast<float>(I(d + 4 * j)));
  }
  template <class P>
  void Compare(Addr m, Addr a, Addr b, P p) {
    const uint32_t rep = (L * 4 + 255) / 256;
    for (uint32_t r = 0; r < rep; ++r) {
      uint8_t out[8] = {};
      for (uint32_t k = 0; k < 64; ++k) {
        const Addr lane = 4 * static_cast<Addr>(64 * r + k);
        if (p(F(a + lane), F(b + lane)))
          out[k / 8] = static_cast<uint8_t>(out[k / 8] | 1u << (k % 8));
      }
      std::memcpy(ub + m + 8 * r, out, 8);
    }
  }
  uint32_t Words16() const { return (L + 15) / 16; }
  void And16(Addr d, Addr a, Addr b) {
    for (uint32_t i = 0; i < Words16(); ++i) {
      uint16_t x, y;
      std::memcpy(&x, ub + a + 2 * i, 2);
      std::memcpy(&y, ub + b + 2 * i, 2);
      const uint16_t r = static_cast<uint16_t>(x & y);
      std::memcpy(ub + d + 2 * i, &r, 2);
    }
  }
  void Not16(Addr d) {
    for (uint32_t i = 0; i < Words16(); ++i) {
      uint16_t x;
      std::memcpy(&x, ub + d + 2 * i, 2);
      x = static_cast<uint16_t>(~x);
      std::memcpy(ub + d + 2 * i, &x, 2);
    }
  }
};

// DigammaParams: the slots of the scratch.
struct Params {
  Addr res, c1, c2, c3, c4, c5, sc, mk, mk1, mk2;
};

struct Digamma : Vm {
  Params p{};

  void GenCmp(Addr m, Addr a, float s, int op) {
    Dup(p.sc, s);
    Compare(m, a, p.sc, [op](float x, float y) {
      switch (op) {
        case 0:
          return x < y;
        case 1:
          return x >= y;
        case 2:
          return x <= y;
        default:
          return x > y;
      }
    });
  }
  static constexpr int kLt = 0, kGe = 1, kLe = 2, kGt = 3;

  void NegIntMask(Addr m, Addr s) {
    GenCmp(p.mk1, s, 0.0f, kLt);
    GenCmp(p.mk2, s, kMinNeg, kGt);
    And16(p.mk1, p.mk1, p.mk2);
    ArchCast(p.c1, s, Rm::kRound);
    Compare(p.mk2, s, p.c1, [](float x, float y) { return x == y; });
    And16(m, p.mk1, p.mk2);
  }
  void RangeMask(Addr m, Addr s, float lo, float hi) {
    GenCmp(p.mk1, s, hi, kLt);
    GenCmp(p.mk2, s, lo, kGe);
    And16(m, p.mk1, p.mk2);
  }
  void NanMask(Addr m, Addr s) {
    GenCmp(p.mk1, s, 0.0f, kLt);
    GenCmp(p.mk2, s, 0.0f, kGe);
    Not16(p.mk1);
    Not16(p.mk2);
    And16(m, p.mk1, p.mk2);
  }
  void Select(Addr d, Addr s, Addr m, Addr tmp) {
    Dup(p.sc, 0.0f);
    const float z = F(p.sc);
    for (uint32_t j = 0; j < L; ++j) {
      const bool bit = ((ub[m + j / 8] >> (j % 8)) & 1u) != 0;
      Set(tmp + 4 * j, bit ? F(s + 4 * j) : z);
    }
    Add(d, tmp, d);
  }

  // ---- float
  void PositiveTmp0(Addr d, Addr s) {
    Adds(p.c1, s, 10.0f);
    Un(d, p.c1, [](float x) { return math_ops::LnF(x); });
    Dup(p.sc, 1.0f);
    Div(p.c1, p.sc, p.c1);
    Muls(p.c2, p.c1, 0.5f);
    Sub(d, d, p.c2);
    Mul(p.c1, p.c1, p.c1);
    Dup(p.c2, static_cast<float>(8.33333333333333333333e-2));
    for (const float k :
         {2.10927960927960927961e-2f, 7.57575757575757575758e-3f, 4.16666666666666666667e-3f,
          3.96825396825396825397e-3f, 8.33333333333333333333e-3f, 8.33333333333333333333e-2f}) {
      Dup(p.sc, k);
      Mul(p.c2, p.c1, p.c2);
      Sub(p.c2, p.sc, p.c2);
    }
    Mul(p.c2, p.c1, p.c2);
    Sub(d, d, p.c2);
  }
  void PositiveTmp1(Addr d, Addr s) {
    Dup(p.sc, 1.0f);
    Div(d, p.sc, s);
    for (int i = 1; i <= 9; ++i) {
      Adds(p.c2, s, static_cast<float>(i));
      Div(p.c2, p.sc, p.c2);
      Add(d, d, p.c2);
    }
  }
  void Positive(Addr d, Addr s) {
    PositiveTmp0(d, s);
    PositiveTmp1(p.c1, s);
    Sub(d, d, p.c1);
  }
  void PicotPix(Addr d, Addr s) {
    Add(p.c1, s, s);
    ArchCast(p.c2, p.c1, Rm::kRound);
    Sub(p.c1, p.c1, p.c2);
    Muls(p.c1, p.c1, 1.5707963267948966f);
    for (uint32_t j = 0; j < L; ++j) SetI(p.c2 + 4 * j, ToI32(Rm::kRound, F(p.c2 + 4 * j)));
    for (uint32_t j = 0; j < L; ++j) SetI(p.c3 + 4 * j, 1);
    for (uint32_t i = 0; i < 4 * L; ++i) ub[p.c2 + i] &= ub[p.c3 + i];  // And<uint16_t>, 2L words
    for (uint32_t j = 0; j < L; ++j) Set(p.c2 + 4 * j, static_cast<float>(I(p.c2 + 4 * j)));
    GenCmp(p.mk1, p.c2, 0.5f, kLt);
    GenCmp(p.mk2, p.c2, 0.5f, kGe);
    Mul(p.c2, p.c1, p.c1);
    Dup(d, 0.0093383789065f);
    for (const float k :
         {0.00326538085938f, 0.0242919921875f, 0.053466796875f, 0.133377909660f, 0.333332300186f}) {
      Mul(d, d, p.c2);
      Adds(d, d, k);
    }
    Mul(d, d, p.c2);
    Mul(d, d, p.c1);
    Add(p.c1, d, p.c1);
    Dup(d, 0.0f);
    Select(d, p.c1, p.mk2, p.c3);
    Dup(p.sc, -1.0f);
    Div(p.c1, p.sc, p.c1);
    Select(d, p.c1, p.mk1, p.c3);
    Muls(d, d, kPi);
  }
  void Negative(Addr d, Addr s) {
    Muls(p.c3, s, -1.0f);
    Adds(p.c3, p.c3, 1.0f);
    Positive(d, p.c3);
    PicotPix(p.c4, s);
    Add(d, d, p.c4);
  }
  void FloatRound(Addr d, Addr s) {
    Dup(d, 0.0f);
    Dup(p.res, FromBits(0x7fc00000u));
    GenCmp(p.mk, s, kMinNeg, kLe);
    Select(d, p.res, p.mk, p.c3);
    NegIntMask(p.mk1, s);
    Select(d, p.res, p.mk1, p.c3);
    NanMask(p.mk, s);
    Select(d, s, p.mk, p.c3);
    GenCmp(p.mk, s, 0.0f, kGe);
    Positive(p.res, s);
    Select(d, p.res, p.mk, p.c3);
    GenCmp(p.mk, s, 0.0f, kLt);
    Negative(p.res, s);
    Select(d, p.res, p.mk, p.c3);
  }

  // ---- half
  void PositiveHalf(Addr d, Addr s) {
    Adds(p.c1, s, 3.0f);
    Un(d, p.c1, [](float x) { return math_ops::LnF(x); });
    Dup(p.sc, 1.0f);
    Div(p.c1, p.sc, p.c1);
    Muls(p.sc, p.c1, 0.5f);
    Sub(d, d, p.sc);
    Mul(p.c1, p.c1, p.c1);
    Muls(p.sc, p.c1, 0.0833333333333333f);
    Sub(d, d, p.sc);
    Mul(p.c2, p.c1, p.c1);
    Muls(p.sc, p.c2, 0.0083333333333333f);
    Sub(d, d, p.sc);
    Mul(p.c2, p.c2, p.c1);
    Muls(p.sc, p.c2, 0.003968253968254f);
    Sub(d, d, p.sc);
    Dup(p.sc, 1.0f);
    Div(p.c1, p.sc, s);
    for (const float c : {1.0f, 2.0f}) {
      Adds(p.c2, s, c);
      Div(p.c2, p.sc, p.c2);
      Add(p.c1, p.c1, p.c2);
    }
    Sub(d, d, p.c1);
  }
  void NegativeHalf(Addr d, Addr s) {
    Dup(p.sc, 1.0f);
    Sub(p.c5, p.sc, s);
    PositiveHalf(d, p.c5);
    Adds(p.c2, d, 0.0f);
    Sub(d, d, p.c3);
  }
  // TanCompute<float>(dst, src, tmp, calSize = L).
  void Tan(Addr dst, Addr src, Addr tmp) {
    const Addr t1 = tmp, t2 = tmp + 4 * L, t3 = tmp + 8 * L, t4 = tmp + 12 * L;
    Adds(t4, src, 0.0f);
    Muls(t1, t4, 0.3183098733425140380859375f);
    ArchCast(t1, t1, Rm::kRint);
    Muls(dst, t1, 3.140625f);
    Sub(t4, t4, dst);
    Muls(dst, t1, 0.0009670257568359375f);
    Sub(t4, t4, dst);
    Adds(t2, t4, 1.57079637050628662109375f);
    Adds(t3, t4, -1.57079637050628662109375f);
    Muls(dst, t1, 6.2771141529083251953125e-7f);
    Sub(t4, t4, dst);
    Sub(t2, t2, dst);
    Sub(t3, t3, dst);
    Adds(t2, t2, -0.00000004371139000189375f);
    Adds(t3, t3, 0.00000004371139000189375f);
    for (const float k : {1.21644916362129151821136474609375e-10f,
                          -1.0291767438275201129727065563201904296875e-13f}) {
      Muls(dst, t1, k);
      Sub(t4, t4, dst);
      Sub(t2, t2, dst);
      Sub(t3, t3, dst);
    }
    Mul(t1, t4, t4);
    Muls(dst, t1, 0.0698520831551998762793f);
    Adds(dst, dst, -6.8711573651634203789f);
    Mul(dst, dst, t1);
    Adds(dst, dst, 61.20362572811089435388f);
    Mul(dst, dst, t4);
    Adds(t1, t1, -24.8048928861126769186219f);
    Mul(t1, t1, t2);
    Mul(t1, t1, t3);
    Div(dst, dst, t1);
  }
  // SinSignCompute / SignCompute and the polynomial (both kits' files give the same steps).
  void SinCosPoly(Addr dst, Addr x, Addr round, Addr kpi) {
    Mul(kpi, x, x);
    Muls(dst, round, 0.5f);
    ArchCast(dst, dst, Rm::kFloor);
    Muls(dst, dst, 4.0f);
    Muls(round, round, -2.0f);
    Add(dst, dst, round);
    Adds(dst, dst, 1.0f);
    Muls(round, kpi, 2.604926501e-6f);
    Adds(round, round, -0.0001980894471f);
    for (const float c : {0.008333049340f, -0.1666665792f, 1.0f}) {
      Mul(round, round, kpi);
      Adds(round, round, c);
    }
    Mul(round, round, x);
    Mul(dst, round, dst);
  }
  // SinCompute<float>(dst, src, tmp, L, isReuseSource true): inputX is src.
  void Sin(Addr dst, Addr src, Addr tmp) {
    const Addr round = tmp, kpi = tmp + 4 * L;
    Muls(round, src, 0.3183098733425140380859375f);
    ArchCast(round, round, Rm::kRound);
    Muls(kpi, round, 3.140625f);
    Sub(src, src, kpi);
    for (const float k : {0.0009670257568359375f, 6.2771141529083251953125e-7f,
                          1.21644916362129151821136474609375e-10f}) {
      Muls(kpi, round, k);
      Sub(src, src, kpi);
    }
    SinCosPoly(dst, src, round, kpi);
  }
  // CosCompute<float>(dst, src, tmp, L, true).
  void Cos(Addr dst, Addr src, Addr tmp) {
    const Addr round = tmp, kpi = tmp + 4 * L;
    Muls(round, src, 0.3183098733425140380859375f);
    Adds(round, round, 0.5f);
    ArchCast(round, round, Rm::kRint);
    Muls(kpi, round, 3.140625f);
    Sub(src, src, kpi);
    Muls(kpi, round, 0.0009670257568359375f);
    Sub(src, src, kpi);
    Adds(src, src, 1.57079637050628662109375f);
    for (const float k : {6.2771141529083251953125e-7f, 1.21644916362129151821136474609375e-10f,
                          -1.0290623200529979163359041220560e-13f}) {
      Muls(kpi, round, k);
      Sub(src, src, kpi);
    }
    Adds(src, src, -0.00000004371139000189375f);
    SinCosPoly(dst, src, round, kpi);
    Un(dst, dst, [](float x) { return math_ops::Mins(x, 1.0f); });
    Un(dst, dst, [](float x) { return math_ops::Maxs(x, -1.0f); });
  }
  void NegativeRange(Addr d, Addr s) {
    ArchCast(p.sc, s, Rm::kFloor);
    Sub(p.sc, s, p.sc);
    Muls(p.sc, p.sc, kPi);
    Cos(p.c3, p.sc, p.res);
    Muls(s, s, kNegPi);
    Sin(p.sc, s, p.res);
    Muls(p.c3, p.c3, kPi);
    Div(p.c3, p.c3, p.sc);
    Sub(d, p.c2, p.c3);
  }
  void Widen(Addr d, Addr src) {
    for (uint32_t j = 0; j < L; ++j) {
      Half h;
      std::memcpy(&h, ub + src + 2 * j, 2);
      Set(d + 4 * j, HalfToFloat(h));
    }
  }
  void HalfRound(Addr dst, Addr src) {
    Widen(p.c5, src);
    ArchCast(p.c4, p.c5, Rm::kFloor);
    Sub(p.c4, p.c5, p.c4);
    Muls(p.c4, p.c4, kPi);
    Tan(p.sc, p.c4, p.res);
    Dup(p.c1, kPi);
    Div(p.c3, p.c1, p.sc);
    Dup(p.c4, 0.0f);
    Dup(p.res, FromBits(0x7fc00000u));
    GenCmp(p.mk, p.c5, kMinNeg, kLe);
    Select(p.c4, p.res, p.mk, p.c1);
    NegIntMask(p.mk1, p.c5);
    Select(p.c4, p.res, p.mk1, p.c1);
    NanMask(p.mk, p.c5);
    Select(p.c4, p.c5, p.mk, p.c1);
    GenCmp(p.mk, p.c5, 0.0f, kGe);
    PositiveHalf(p.res, p.c5);
    Select(p.c4, p.res, p.mk, p.c1);
    GenCmp(p.mk, p.c5, -0.0001f, kLt);
    NegativeHalf(p.res, p.c5);
    Select(p.c4, p.res, p.mk, p.c1);
    Widen(p.c5, src);
    RangeMask(p.mk, p.c5, -0.0001f, 0.0f);
    NegativeRange(p.res, p.c5);
    Select(p.c4, p.res, p.mk, p.c1);
    for (uint32_t j = 0; j < L; ++j) {
      const Half h = FloatToHalf(F(p.c4 + 4 * j));
      std::memcpy(ub + dst + 2 * j, &h, 2);
    }
  }
};

// DigammaCompute's rounds: full rounds of the split, then the tail rounded up to 8.
template <class Fn>
void Rounds(uint32_t n, uint32_t split, Fn f) {
  uint32_t off = 0;
  for (uint32_t i = 0; i < n / split; ++i, off += split) f(off, split);
  if (n % split != 0) f(off, (n % split + 7) / 8 * 8);
}

}  // namespace

bool ReplayDigammaUbFloat(uint8_t* ub, uint32_t ubBytes, const DigammaUbCall& c, bool reuse) {
  const uint32_t split = c.tmpBytes / 4 / (reuse ? 6 : 7) / 32 * 32;
  if (split == 0) return false;
  Digamma m;
  m.ub = ub;
  m.size = ubBytes;
  m.v200 = c.arch2002;
  const Addr t = c.tmp, s4 = 4 * static_cast<Addr>(split);
  m.p.res = t;
  m.p.c1 = t + s4;
  m.p.c2 = t + 2 * s4;
  m.p.c3 = t + 3 * s4;
  m.p.c4 = reuse ? c.src : t + 4 * s4;
  m.p.sc = reuse ? t + 4 * s4 : t + 5 * s4;
  m.p.mk = m.p.sc + s4;
  m.p.mk1 = m.p.mk + split;
  m.p.mk2 = m.p.mk1 + split;
  Rounds(c.count, split, [&](uint32_t off, uint32_t len) {
    m.L = len;
    m.FloatRound(c.dst + 4 * static_cast<Addr>(off), c.src + 4 * static_cast<Addr>(off));
  });
  return true;
}

bool ReplayDigammaUbHalf(uint8_t* ub, uint32_t ubBytes, const DigammaUbCall& c) {
  const uint32_t split = c.tmpBytes / 4 / 8 / 32 * 32;
  if (split == 0) return false;
  Digamma m;
  m.ub = ub;
  m.size = ubBytes;
  m.v200 = c.arch2002;
  const Addr t = c.tmp, s4 = 4 * static_cast<Addr>(split);
  m.p.res = t;
  m.p.c1 = t + s4;
  m.p.c2 = t + 2 * s4;
  m.p.c3 = t + 3 * s4;
  m.p.c4 = t + 4 * s4;
  m.p.c5 = t + 5 * s4;
  m.p.sc = t + 6 * s4;
  m.p.mk = t + 7 * s4;
  m.p.mk1 = m.p.mk + split;
  m.p.mk2 = m.p.mk1 + split;
  Rounds(c.count, split, [&](uint32_t off, uint32_t len) {
    m.L = len;
    m.HalfRound(c.dst + 2 * static_cast<Addr>(off), c.src + 2 * static_cast<Addr>(off));
  });
  return true;
}

}  // namespace lngrad_replay
