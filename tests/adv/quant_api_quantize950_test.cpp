// Quantize, Dequantize and AntiQuantize on the 950 (arch 3510) bit for bit against a replay, and
// Quantize's fp4 destinations against a float64 nearest-code oracle.
//
// The replay (Rp* below) is written from a separate reading of the kit's sources (session quant4;
// the same session wrote lngrad's fp4 Quantize, not the other paths): quantize_impl.h
// (QuantizePerTensor/PerChannel/PerToken VFs, QuantizePerGroupForK{Col,Row}{Common,Fp4}VF,
// TransRegForS8 and TransRegForFp4: every value in a float register, v = src * scale
// (+ offset), one float operation each), dequantize_impl.h's delegation to
// ascend_dequant_3510_impl.h (DequantPertensorVFImpl, DequantPerchannelVFImpl, the per-token /
// per-group VFs: int32 -> float ties away from zero, one float Mul, a LayoutZMrgZRndRSatS Cast or
// the float as is) and antiquantize_3510_impl.h (the source through half to float, + offset,
// * scale in float, a LayoutZMrgZRndRSatS Cast). Its conversions are its own: the int8 path
// clamps the mode's integer to int16 and then to int8 (int16 -> half -> int8 keeps every value
// past the int8 range past it), bfloat16 by rounding the float's bits, fp4 by bracketing the
// value between two of the format's magnitudes.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "quant_api_test_util.h"
#include "../aicore/sanitizer_off.h"

namespace lngrad::adv::testing {
namespace {

using AscendC::RoundMode;

// ---- the replay's conversions -----------------------------------------------------------------

// float -> bfloat16 bits, nearest even on the dropped half, SatS (NaN -> 0, inf and overflow ->
// the largest finite value of the sign).
uint16_t RpBf16Bits(float v) {
  if (std::isnan(v)) return 0;
  uint32_t b = std::bit_cast<uint32_t>(v);
  const uint32_t sign = b & 0x80000000u;
  if ((b & 0x7FFFFFFFu) >= 0x7F800000u) return static_cast<uint16_t>((sign >> 16) | 0x7F7F);
  b += 0x7FFFu + ((b >> 16) & 1u);
  if ((b & 0x7FFFFFFFu) >= 0x7F800000u) return static_cast<uint16_t>((sign >> 16) | 0x7F7F);
  return static_cast<uint16_t>(b >> 16);
}
float RpBf16(float v) { return std::bit_cast<float>(uint32_t{RpBf16Bits(v)} << 16); }

// float -> half SatS (table 4 of the register Cast page): NaN -> 0, past 65504 -> +-65504.
float RpHalf(float v) {
  if (std::isnan(v)) return 0.0f;
  const float h = static_cast<float>(half(v));
  return std::isinf(h) ? std::copysign(65504.0f, v) : h;
}

template <typename D>
float RpOut(float v) {
  if constexpr (std::is_same_v<D, half>) {
    return RpHalf(v);
  } else if constexpr (std::is_same_v<D, bfloat16_t>) {
    return RpBf16(v);
  } else {
    return v;
  }
}

// The integer of v in mode m (the five TransRegForS8 lists; the others CAST_RINT).
double RpRound(double v, RoundMode m) {
  switch (m) {
    case RoundMode::CAST_ROUND:
      return std::round(v);
    case RoundMode::CAST_FLOOR:
      return std::floor(v);
    case RoundMode::CAST_CEIL:
      return std::ceil(v);
    case RoundMode::CAST_TRUNC:
      return std::trunc(v);
    default:
      return std::nearbyint(v);
  }
}

int8_t RpInt8(float v, RoundMode m) {
  if (std::isnan(v)) return 0;
  double r = RpRound(v, m);
  r = r < -32768 ? -32768 : (r > 32767 ? 32767 : r);  // the int16 step
  return static_cast<int8_t>(r < -128 ? -128 : (r > 127 ? 127 : r));
}

// bfloat16 value b -> the fp4 code in mode m: bracket |b| between two magnitudes of the format.
template <typename D>
uint8_t RpFp4(float b, RoundMode m) {
  const float* mag = std::is_same_v<D, fp4x2_e1m2_t> ? kE1m2 : kE2m1;
  const bool neg = std::signbit(b);
  const float a = std::fabs(b);
  int k = 7;
  while (k > 0 && mag[k] > a) --k;  // mag[k] <= a
  uint8_t code = static_cast<uint8_t>(k);
  if (k < 7 && mag[k] != a) {
    const float lo = mag[k], hi = mag[k + 1];
    const bool away = (m == RoundMode::CAST_CEIL && !neg) || (m == RoundMode::CAST_FLOOR && neg);
    const bool toward = m == RoundMode::CAST_TRUNC || (m == RoundMode::CAST_CEIL && neg) ||
                        (m == RoundMode::CAST_FLOOR && !neg);
    bool up;
    if (away || toward) {
      up = away;
    } else if (a - lo != hi - a) {
      up = hi - a < a - lo;
    } else {
      up = m == RoundMode::CAST_ROUND || (k % 2) == 1;  // ROUND away, RINT to the even code
    }
    code = static_cast<uint8_t>(up ? k + 1 : k);
  }
  return static_cast<uint8_t>((neg ? 0x8 : 0x0) | code);
}

RoundMode RpListed(RoundMode m) {
  return m == RoundMode::CAST_ROUND || m == RoundMode::CAST_FLOOR || m == RoundMode::CAST_CEIL ||
                 m == RoundMode::CAST_TRUNC
             ? m
             : RoundMode::CAST_RINT;
}

// How many parameters a policy takes for m x n data (the layout RpAt indexes).
uint32_t RpCount(int policy, int kDim, uint32_t m, uint32_t n, uint32_t g) {
  switch (policy) {
    case 1:
      return n;
    case 2:
      return m;
    case 3:
      return kDim == 1 ? m * ((n + g - 1) / g) : (m + g - 1) / g * n;
    default:
      return 1;
  }
}

// Where the parameter of (i, j) lies: 0 tensor, 1 channel j, 2 token i, 3 group (kDim 1: row i
// of ceil(n / g) groups; kDim 0: group row i / g, which the KRow loops' tail block reaches as
// mainRowGroup).
uint32_t RpAt(int policy, int kDim, uint32_t n, uint32_t g, uint32_t i, uint32_t j) {
  switch (policy) {
    case 1:
      return j;
    case 2:
      return i;
    case 3:
      return kDim == 1 ? i * ((n + g - 1) / g) + j / g : (i / g) * n + j;
    default:
      return 0;
  }
}

template <typename T>
float F(T v) {
  return static_cast<float>(v);
}

// ---- Quantize ---------------------------------------------------------------------------------

template <typename S>
std::vector<S> Inputs(uint32_t seed, uint32_t count, float range) {
  std::vector<S> v = As<S>(Uniform(seed, count, -range, range));
  const float specials[] = {std::numeric_limits<float>::infinity(),
                            -std::numeric_limits<float>::infinity(),
                            std::numeric_limits<float>::quiet_NaN(),
                            1.0e4f,
                            -0.0f,
                            0.0f};
  for (size_t i = 0; i < std::size(specials) && i < v.size(); ++i) v[i] = S(specials[i]);
  return v;
}

// The fp4 code of element e of a packed destination.
uint8_t Nibble(const std::vector<uint8_t>& b, uint32_t e) {
  return (b[e / 2] >> (e % 2 == 0 ? 0 : 4)) & 0xF;
}

// The float64 nearest-code oracle: E = x s exactly (double), rounded once to bfloat16 (8
// significant bits, nearest even), then the code of the format nearest to it in the mode found
// by searching the 8 codes of E's sign (ties: RINT the even code, ROUND the larger magnitude;
// directed modes the nearest on their side), past the largest magnitude the largest. The device
// rounds x s to float first: where that rounding is inexact the oracle skips E within 2^-14
// bfloat16 steps of a tie, where it can decide the tie.
template <typename D>
bool OracleCode(double e, RoundMode m, uint8_t* out) {
  const float* mag = std::is_same_v<D, fp4x2_e1m2_t> ? kE1m2 : kE2m1;
  if (std::isnan(e)) {
    *out = 0;
    return true;
  }
  const uint8_t sign = std::signbit(e) ? 0x8 : 0x0;
  double w = std::fabs(e);
  if (std::isfinite(w) && w != 0) {
    int ex = 0;
    std::frexp(w, &ex);
    const double f = std::ldexp(w, 8 - ex);
    const bool floatExact = static_cast<double>(static_cast<float>(e)) == e;
    if (!floatExact && std::fabs(f - std::floor(f) - 0.5) < 0x1p-14) return false;
    w = std::ldexp(std::nearbyint(f), ex - 8);
  }
  if (w >= mag[7]) {
    *out = sign | 7;
    return true;
  }
  const bool neg = sign != 0;
  int best = -1;
  for (int c = 0; c < 8; ++c) {
    const double d = mag[c];
    const bool below = d <= w, above = d >= w;
    bool take;
    if (m == RoundMode::CAST_TRUNC || (m == RoundMode::CAST_FLOOR && !neg) ||
        (m == RoundMode::CAST_CEIL && neg)) {
      take = below && (best < 0 || d > mag[best]);
    } else if ((m == RoundMode::CAST_CEIL && !neg) || (m == RoundMode::CAST_FLOOR && neg)) {
      take = above && (best < 0 || d < mag[best]);
    } else {
      const double dd = std::fabs(d - w), db = best < 0 ? 1e300 : std::fabs(mag[best] - w);
      const bool tie = dd == db;
      take =
          best < 0 || dd < db || (tie && (m == RoundMode::CAST_ROUND ? d > mag[best] : c % 2 == 0));
    }
    if (take) best = c;
  }
  *out = static_cast<uint8_t>(sign | best);
  return true;
}

template <typename D, typename S, typename Sc, const AscendC::QuantizeConfig& cfg>
void QuantizeFp4(uint32_t m, uint32_t n, uint32_t g) {
  const uint32_t count = m * n;
  const uint32_t nsc = cfg.kDim == 1 ? m * ((n + g - 1) / g) : (m + g - 1) / g * n;
  const std::vector<S> x = Inputs<S>(70 + g + cfg.kDim, count, 40.0f);
  const std::vector<Sc> sc = As<Sc>(Uniform(71 + g, nsc, -0.2f, 0.2f));
  std::vector<uint8_t> got;
  OnBlock(
      [&](Ub& ub) {
        ub.Put<S>(1, x);
        ub.Put<Sc>(2, sc);
        ub.Put<uint8_t>(0, std::vector<uint8_t>(count / 2, 0x77));
        AscendC::Quantize<cfg>(ub.Get<D>(0), ub.Get<S>(1), ub.Get<Sc>(2), Sc(100.0f),
                               AscendC::QuantizeParams{m, n, g});
        got = ub.Take<uint8_t>(0);
      },
      k950);
  const std::string what = std::string(std::is_same_v<D, fp4x2_e1m2_t> ? "e1m2" : "e2m1") +
                           " kDim " + std::to_string(cfg.kDim) + " g " + std::to_string(g) +
                           " mode " + std::to_string(static_cast<int>(cfg.roundMode));
  uint32_t skipped = 0;
  for (uint32_t i = 0; i < m; ++i) {
    for (uint32_t j = 0; j < n; ++j) {
      const uint32_t e = i * n + j, c = RpAt(3, cfg.kDim, n, g, i, j);
      const uint8_t code = Nibble(got, e);
      const float v = F(x[e]) * F(sc[c]);  // offset ignored for fp4
      ASSERT_EQ(code, RpFp4<D>(RpBf16(v), RpListed(cfg.roundMode))) << what << " element " << e;
      uint8_t want = 0;
      if (!OracleCode<D>(static_cast<double>(F(x[e])) * F(sc[c]), RpListed(cfg.roundMode), &want)) {
        ++skipped;
        continue;
      }
      ASSERT_EQ(code, want) << what << " element " << e << " x " << F(x[e]) << " s " << F(sc[c]);
    }
  }
  EXPECT_LT(skipped, count / 100) << what;
}

constexpr AscendC::QuantizeConfig kFp4K1Rint = {AscendC::QuantizePolicy::PER_GROUP, true,
                                                RoundMode::CAST_RINT, 1};  // offset unused
constexpr AscendC::QuantizeConfig kFp4K0Round = {AscendC::QuantizePolicy::PER_GROUP, false,
                                                 RoundMode::CAST_ROUND, 0};
constexpr AscendC::QuantizeConfig kFp4K1Floor = {AscendC::QuantizePolicy::PER_GROUP, false,
                                                 RoundMode::CAST_FLOOR, 1};
constexpr AscendC::QuantizeConfig kFp4K0Ceil = {AscendC::QuantizePolicy::PER_GROUP, false,
                                                RoundMode::CAST_CEIL, 0};
constexpr AscendC::QuantizeConfig kFp4K1Trunc = {AscendC::QuantizePolicy::PER_GROUP, false,
                                                 RoundMode::CAST_TRUNC, 1};
constexpr AscendC::QuantizeConfig kFp4K0Hybrid = {AscendC::QuantizePolicy::PER_GROUP, false,
                                                  RoundMode::CAST_HYBRID, 0};  // -> CAST_RINT

template <typename D, typename S, typename Sc>
void QuantizeFp4Modes() {
  QuantizeFp4<D, S, Sc, kFp4K1Rint>(70, 128, 32);
  QuantizeFp4<D, S, Sc, kFp4K0Round>(70, 128, 64);  // a tail block of 6 rows
  QuantizeFp4<D, S, Sc, kFp4K1Floor>(9, 192, 64);
  QuantizeFp4<D, S, Sc, kFp4K0Ceil>(40, 64, 32);
  QuantizeFp4<D, S, Sc, kFp4K1Trunc>(5, 64, 96);  // one partial group per row
  QuantizeFp4<D, S, Sc, kFp4K0Hybrid>(33, 64, 32);
}

// The page's table 6: (half, half), (bfloat16, bfloat16), (float, float), (half, float),
// (bfloat16, float), into both formats.
TEST(QuantQuantize950, Fp4DestinationsPerGroupEveryPairAndMode) {
  QuantizeFp4Modes<fp4x2_e2m1_t, half, half>();
  QuantizeFp4Modes<fp4x2_e2m1_t, bfloat16_t, bfloat16_t>();
  QuantizeFp4Modes<fp4x2_e2m1_t, float, float>();
  QuantizeFp4Modes<fp4x2_e1m2_t, half, float>();
  QuantizeFp4Modes<fp4x2_e1m2_t, bfloat16_t, float>();
  QuantizeFp4Modes<fp4x2_e1m2_t, float, float>();
}

// int8 in every policy: the float v, the mode's integer (the page's five; others CAST_RINT),
// int16 and int8 saturation. PER_TENSOR scalars, PER_CHANNEL tensors, PER_TOKEN a tensor scale
// and a scalar offset, PER_GROUP both kDims with an offset tensor.
template <typename S, typename Sc, const AscendC::QuantizeConfig& cfg>
void QuantizeInt8(uint32_t m, uint32_t n, uint32_t g) {
  constexpr int kPolicy = static_cast<int>(cfg.policy);
  const uint32_t count = m * n;
  const uint32_t nsc = RpCount(kPolicy, cfg.kDim, m, n, g);
  const std::vector<S> x = Inputs<S>(80 + kPolicy, count, 300.0f);
  const std::vector<Sc> sc = As<Sc>(Uniform(81, nsc, -0.9f, 0.9f));
  const std::vector<Sc> of = As<Sc>(Uniform(82, nsc, -20.0f, 20.0f));
  const Sc sScalar = Sc(0.37f), oScalar = Sc(-3.25f);
  std::vector<int8_t> got;
  OnBlock(
      [&](Ub& ub) {
        ub.Put<S>(1, x);
        ub.Put<Sc>(2, sc);
        ub.Put<Sc>(3, of);
        const AscendC::QuantizeParams p{m, n, g};
        if constexpr (kPolicy == 0) {
          AscendC::Quantize<cfg>(ub.Get<int8_t>(0), ub.Get<S>(1), sScalar, oScalar, p);
        } else if constexpr (kPolicy == 2) {
          AscendC::Quantize<cfg>(ub.Get<int8_t>(0), ub.Get<S>(1), ub.Get<Sc>(2), oScalar, p);
        } else {
          AscendC::Quantize<cfg>(ub.Get<int8_t>(0), ub.Get<S>(1), ub.Get<Sc>(2), ub.Get<Sc>(3), p);
        }
        got = ub.Take<int8_t>(0);
      },
      k950);
  for (uint32_t i = 0; i < m; ++i) {
    for (uint32_t j = 0; j < n; ++j) {
      const uint32_t e = i * n + j, c = RpAt(kPolicy, cfg.kDim, n, g, i, j);
      const float s = kPolicy == 0 ? F(sScalar) : F(sc[c]);
      const float o = kPolicy == 0 || kPolicy == 2 ? F(oScalar) : F(of[c]);
      float v = F(x[e]) * s;
      if (cfg.hasOffset) v = v + o;
      ASSERT_EQ(got[e], RpInt8(v, RpListed(cfg.roundMode)))
          << "policy " << kPolicy << " kDim " << cfg.kDim << " element " << e;
    }
  }
}

constexpr AscendC::QuantizeConfig kQTensorTrunc = {AscendC::QuantizePolicy::PER_TENSOR, true,
                                                   RoundMode::CAST_TRUNC, -1};
constexpr AscendC::QuantizeConfig kQChannelRound = {AscendC::QuantizePolicy::PER_CHANNEL, true,
                                                    RoundMode::CAST_ROUND, -1};
constexpr AscendC::QuantizeConfig kQTokenFloor = {AscendC::QuantizePolicy::PER_TOKEN, true,
                                                  RoundMode::CAST_FLOOR, -1};
constexpr AscendC::QuantizeConfig kQGroupK1Ceil = {AscendC::QuantizePolicy::PER_GROUP, true,
                                                   RoundMode::CAST_CEIL, 1};
constexpr AscendC::QuantizeConfig kQGroupK0Odd = {AscendC::QuantizePolicy::PER_GROUP, true,
                                                  RoundMode::CAST_ODD, 0};  // -> CAST_RINT

template <typename S, typename Sc>
void QuantizeInt8Policies() {
  QuantizeInt8<S, Sc, kQTensorTrunc>(7, 64, 0);
  QuantizeInt8<S, Sc, kQChannelRound>(7, 64, 0);
  QuantizeInt8<S, Sc, kQTokenFloor>(9, 128, 0);
  QuantizeInt8<S, Sc, kQGroupK1Ceil>(6, 160, 64);
  QuantizeInt8<S, Sc, kQGroupK0Odd>(70, 64, 32);
}

TEST(QuantQuantize950, Int8EveryPolicyAgainstTheReplay) {
  QuantizeInt8Policies<half, half>();
  QuantizeInt8Policies<bfloat16_t, bfloat16_t>();
  QuantizeInt8Policies<float, float>();
  QuantizeInt8Policies<half, float>();
  QuantizeInt8Policies<bfloat16_t, float>();
}

// ---- Dequantize -------------------------------------------------------------------------------

// int32 -> float, ties away from zero (the MrgZRndA Cast), from the integer's bits.
float RpTiesAway(int32_t x) {
  const int64_t a = x < 0 ? -int64_t{x} : x;
  int shift = 0;
  while ((a >> shift) >= (int64_t{1} << 24)) ++shift;
  int64_t q = a >> shift;
  if (shift > 0 && ((a >> (shift - 1)) & 1) != 0) ++q;  // half or more of the dropped part
  const float f = std::ldexp(static_cast<float>(q), shift);
  return x < 0 ? -f : f;
}

std::vector<int32_t> Ints(uint32_t seed, uint32_t count) {
  std::vector<float> u = Uniform(seed, count, -1.0f, 1.0f);
  std::vector<int32_t> v(count);
  for (uint32_t i = 0; i < count; ++i) v[i] = static_cast<int32_t>(u[i] * 2.0e9f);
  v[0] = (1 << 24) + 1;  // ties of the int32 -> float Cast
  v[1] = -((1 << 25) + 2);
  v[2] = 2147483647;
  return v;
}

// Scale element j of a scale vector as the float the source multiplies by (uint64: the low word).
template <typename Sc>
float ScaleF(const std::vector<Sc>& sc, uint32_t c) {
  if constexpr (std::is_same_v<Sc, uint64_t>) {
    return std::bit_cast<float>(static_cast<uint32_t>(sc[c]));
  } else {
    return F(sc[c]);
  }
}

template <typename Sc>
std::vector<Sc> DqScales(uint32_t seed, uint32_t count) {
  const std::vector<float> u = Uniform(seed, count, -1e-3f, 1e-3f);
  std::vector<Sc> v(count);
  for (uint32_t i = 0; i < count; ++i) {
    if constexpr (std::is_same_v<Sc, uint64_t>) {
      v[i] = (uint64_t{0xABCD} << 32) | std::bit_cast<uint32_t>(u[i]);  // a high word unused
    } else {
      v[i] = Sc(u[i]);
    }
  }
  if (count > 3) v[3] = Sc(std::is_same_v<Sc, uint64_t> ? 0 : 1e38f);  // bfloat16: past its range
  return v;
}

template <typename D, typename S, typename Sc, const AscendC::DequantizeConfig& cfg>
void DequantizeCase(uint32_t m, uint32_t n, uint32_t g) {
  constexpr int kPolicy = static_cast<int>(cfg.policy);
  const uint32_t count = m * n;
  const uint32_t nsc = RpCount(kPolicy, cfg.kDim, m, n, g);
  const std::vector<int32_t> xi = Ints(90 + kPolicy, count);
  const std::vector<float> xf = Uniform(91, count, -3e5f, 3e5f);
  const std::vector<Sc> sc = DqScales<Sc>(92 + kPolicy, nsc);
  std::vector<D> got;
  OnBlock(
      [&](Ub& ub) {
        if constexpr (std::is_same_v<S, int32_t>) {
          ub.Put<int32_t>(1, xi);
        } else {
          ub.Put<float>(1, xf);
        }
        ub.Put<Sc>(2, sc);
        const AscendC::DequantizeParams p{m, n, g};
        if constexpr (kPolicy == 0) {
          AscendC::Dequantize<cfg>(ub.Get<D>(0), ub.Get<S>(1), sc[0], Sc(0.0f), p);
        } else {
          AscendC::Dequantize<cfg>(ub.Get<D>(0), ub.Get<S>(1), ub.Get<Sc>(2), ub.Get<Sc>(2), p);
        }
        got = ub.Take<D>(0);
      },
      k950);
  for (uint32_t i = 0; i < m; ++i) {
    for (uint32_t j = 0; j < n; ++j) {
      const uint32_t e = i * n + j;
      const float x = std::is_same_v<S, int32_t> ? RpTiesAway(xi[e]) : xf[e];
      const float want = RpOut<D>(x * ScaleF(sc, RpAt(kPolicy, cfg.kDim, n, g, i, j)));
      ASSERT_EQ(std::bit_cast<uint32_t>(F(got[e])), std::bit_cast<uint32_t>(want))
          << "policy " << kPolicy << " kDim " << cfg.kDim << " element " << e << ": " << F(got[e])
          << " vs " << want;
    }
  }
}

constexpr AscendC::DequantizeConfig kDqTensor = {AscendC::DequantizePolicy::PER_TENSOR, false, 1};
constexpr AscendC::DequantizeConfig kDqChannel = {AscendC::DequantizePolicy::PER_CHANNEL, false, 1};
constexpr AscendC::DequantizeConfig kDqToken = {AscendC::DequantizePolicy::PER_TOKEN, false, 1};
constexpr AscendC::DequantizeConfig kDqGroupK1 = {AscendC::DequantizePolicy::PER_GROUP, false, 1};
constexpr AscendC::DequantizeConfig kDqGroupK0 = {AscendC::DequantizePolicy::PER_GROUP, false, 0};

TEST(QuantDequantize950, EveryPolicyAndTypePairAgainstTheReplay) {
  DequantizeCase<float, int32_t, float, kDqTensor>(5, 64, 0);
  DequantizeCase<bfloat16_t, int32_t, bfloat16_t, kDqTensor>(5, 64, 0);
  DequantizeCase<half, int32_t, uint64_t, kDqChannel>(5, 64, 0);
  DequantizeCase<float, int32_t, bfloat16_t, kDqChannel>(5, 64, 0);
  DequantizeCase<bfloat16_t, int32_t, float, kDqChannel>(5, 64, 0);
  DequantizeCase<half, int32_t, half, kDqToken>(9, 32, 0);
  DequantizeCase<bfloat16_t, float, float, kDqToken>(9, 32, 0);
  DequantizeCase<half, float, float, kDqGroupK1>(6, 96, 64);
  DequantizeCase<float, int32_t, float, kDqGroupK0>(70, 32, 32);
  DequantizeCase<bfloat16_t, int32_t, bfloat16_t, kDqGroupK0>(70, 32, 64);
}

// ---- AntiQuantize (int8 sources) --------------------------------------------------------------

template <typename D, typename P, const AscendC::AntiQuantizeConfig& cfg>
void AntiQuantizeCase(uint32_t m, uint32_t n, uint32_t g) {
  constexpr int kPolicy = static_cast<int>(cfg.policy);
  const uint32_t count = m * n;
  const uint32_t nsc = RpCount(kPolicy, cfg.kDim, m, n, g);
  std::vector<int8_t> x(count);
  for (uint32_t e = 0; e < count; ++e) x[e] = static_cast<int8_t>((e * 89 + 7) % 256 - 128);
  const std::vector<P> sc = As<P>(Uniform(100 + kPolicy, nsc, -600.0f, 600.0f));
  const std::vector<P> of = As<P>(Uniform(101 + kPolicy, nsc, -50.0f, 50.0f));
  const P sScalar = P(611.5f), oScalar = P(-7.75f);
  std::vector<D> got;
  OnBlock(
      [&](Ub& ub) {
        std::memcpy(ub.Get<int8_t>(1).HostPtr(), x.data(), x.size());
        ub.Put<P>(2, sc);
        ub.Put<P>(3, of);
        const AscendC::AntiQuantizeParams p{m, n, g};
        if constexpr (kPolicy == 0) {
          AscendC::AntiQuantize<cfg>(ub.Get<D>(0), ub.Get<int8_t>(1), sScalar, oScalar, p);
        } else {
          AscendC::AntiQuantize<cfg>(ub.Get<D>(0), ub.Get<int8_t>(1), ub.Get<P>(2), ub.Get<P>(3),
                                     p);
        }
        got = ub.Take<D>(0);
      },
      k950);
  for (uint32_t i = 0; i < m; ++i) {
    for (uint32_t j = 0; j < n; ++j) {
      const uint32_t e = i * n + j, c = RpAt(kPolicy, cfg.kDim, n, g, i, j);
      float v = static_cast<float>(x[e]);  // int8 -> half -> float: exact
      if (cfg.hasOffset) v = v + (kPolicy == 0 ? F(oScalar) : F(of[c]));
      v = v * (kPolicy == 0 ? F(sScalar) : F(sc[c]));
      const float want = RpOut<D>(v);
      ASSERT_EQ(std::bit_cast<uint32_t>(F(got[e])), std::bit_cast<uint32_t>(want))
          << "policy " << kPolicy << " kDim " << cfg.kDim << " element " << e;
    }
  }
}

constexpr AscendC::AntiQuantizeConfig kAqTensor = {AscendC::AntiQuantizePolicy::PER_TENSOR, true,
                                                   -1};
constexpr AscendC::AntiQuantizeConfig kAqChannel = {AscendC::AntiQuantizePolicy::PER_CHANNEL, true,
                                                    -1};
constexpr AscendC::AntiQuantizeConfig kAqToken = {AscendC::AntiQuantizePolicy::PER_TOKEN, false, 1};
constexpr AscendC::AntiQuantizeConfig kAqGroupK1 = {AscendC::AntiQuantizePolicy::PER_GROUP, true,
                                                    1};
constexpr AscendC::AntiQuantizeConfig kAqGroupK0 = {AscendC::AntiQuantizePolicy::PER_GROUP, true,
                                                    0};

// The products past 65504 saturate in half (SatS); bfloat16 and float keep them.
TEST(QuantAntiQuantize950, Int8EveryPolicyAgainstTheReplay) {
  AntiQuantizeCase<half, half, kAqTensor>(4, 64, 0);
  AntiQuantizeCase<bfloat16_t, bfloat16_t, kAqTensor>(4, 64, 0);
  AntiQuantizeCase<half, half, kAqChannel>(5, 64, 0);
  AntiQuantizeCase<bfloat16_t, bfloat16_t, kAqChannel>(5, 64, 0);
  AntiQuantizeCase<half, float, kAqToken>(6, 32, 0);
  AntiQuantizeCase<float, float, kAqToken>(6, 32, 0);
  AntiQuantizeCase<bfloat16_t, bfloat16_t, kAqGroupK1>(5, 128, 64);
  AntiQuantizeCase<half, float, kAqGroupK0>(70, 32, 32);
}

}  // namespace
}  // namespace lngrad::adv::testing
