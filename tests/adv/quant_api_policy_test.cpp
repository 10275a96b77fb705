// The Ascend 950 forms of AscendQuant templated on the destination type (the dstT/srcT
// PER_TENSOR / PER_CHANNEL overloads and the AscendQuantPolicy PER_TOKEN / PER_GROUP forms) and
// AscendDequant's AscendDeQuantPolicy forms (lib/quantization/ascend_quant_policy.h,
// ascend_dequant.h): bit exact against a replay of the 3510 sequences, against a float64 oracle
// with the bound of their roundings, and the checked-mode refusals.
//
// The replay (the Replay* functions) is written from a separate reading of the vendor's
// ascend_quant_3510_impl.h (QuantPertensorForB8VF / ForFp8VF, QuantPerchannelForB8VF /
// ForFp8VF), ascend_quant_per_group_3510_impl.h (QuantPerToken*VF, QuantPerGroupForKCol*VF,
// QuantPerGroupForKRow*VF with its tail block; TransRegForS8 / Hif8 / Fp8) and
// ascend_dequant_3510_impl.h (DeQuantPerToken*VF, DeQuantPerGroupFor{Col,Row}*VF, StoreRes);
// the same author (session quant3) wrote it and the implementation. It walks the source's loops
// (rows, vector repeats, groups, tail rows) and indexes the scales as the source does, and does
// each operation in the register type of the source (float arithmetic, then the rounding to
// half / bfloat16 by the type's constructor); the 8-bit codes come from the 256-code search of
// quant_api_test_util.h, the int8 rounding from <cmath>.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "quant_api_test_util.h"
#include "../aicore/sanitizer_off.h"

namespace lngrad::adv::testing {
namespace {

using AscendC::RoundMode;

// ---- the replay -------------------------------------------------------------------------------

// A value rounded to the register type R of the source (float, half, bfloat16_t) by float
// arithmetic: R's constructor rounds the float result to nearest even.
template <typename R>
float InReg(float v) {
  return static_cast<float>(R(v));
}

// A Cast to half with SatS (the source's LayoutZMrgZRndRSatS): infinities to +-65504, NaN to 0.
float SatHalf(float v) {
  if (std::isnan(v)) return 0.0f;
  const float h = InReg<half>(v);
  if (std::isinf(h)) return h > 0 ? 65504.0f : -65504.0f;
  return h;
}

// The int8 of a value in one of TransRegForS8's modes (others fall back to CAST_RINT), saturated.
double RoundInMode(double v, RoundMode m) {
  switch (m) {
    case RoundMode::CAST_FLOOR:
      return std::floor(v);
    case RoundMode::CAST_CEIL:
      return std::ceil(v);
    case RoundMode::CAST_TRUNC:
      return std::trunc(v);
    case RoundMode::CAST_ROUND:
      return std::round(v);  // ties away from zero
    default:
      return std::nearbyint(v);  // CAST_RINT and every fallback
  }
}

// The byte of destination D for the value v (already in the register type).
template <typename D>
uint8_t OutByte(float v, RoundMode m) {
  if constexpr (std::is_same_v<D, int8_t>) {
    return static_cast<uint8_t>(Sat8(RoundInMode(v, m)));
  } else if constexpr (std::is_same_v<D, hifloat8_t>) {
    return NearestCode<hifloat8_t>(v, true);  // CAST_ROUND (tests do not configure HYBRID here)
  } else {
    return NearestCode<D>(v, false);  // fp8: CAST_RINT whatever the mode
  }
}

// dstT/srcT int8 / hifloat8: half register (a bfloat16 / float source or scale / offset tensor
// Cast to half with SatS, a half one loaded as is, a scalar converted by static_cast<half>);
// fp8: float register. One element; sTensor / oTensor: the scale / offset came from a tensor.
template <typename D, typename S>
uint8_t ReplayDstSrc(S x, float s, float o, bool sTensor, bool oTensor) {
  constexpr bool kHalfSrc = std::is_same_v<S, half>;
  const auto toHalf = [&](float v, bool tensor) {
    return tensor && !kHalfSrc ? SatHalf(v) : InReg<half>(v);
  };
  if constexpr (std::is_same_v<D, int8_t> || std::is_same_v<D, hifloat8_t>) {
    const float p = InReg<half>(toHalf(static_cast<float>(x), true) * toHalf(s, sTensor));
    const float a = InReg<half>(p + toHalf(o, oTensor));
    return OutByte<D>(a, RoundMode::CAST_RINT);  // hifloat8: CAST_ROUND (OutByte)
  } else {
    return OutByte<D>(static_cast<float>(x) * s + o, RoundMode::CAST_RINT);
  }
}

// The policy forms: R = float for fp8, else scaleT; product, then the offset, each rounded to R.
template <typename D, typename S, typename Sc>
uint8_t ReplayPolicy(S x, Sc s, const Sc* o, RoundMode m) {
  using R = std::conditional_t<std::is_same_v<D, fp8_e4m3fn_t> || std::is_same_v<D, fp8_e5m2_t>,
                               float, Sc>;
  float v = InReg<R>(static_cast<float>(x) * static_cast<float>(s));
  if (o != nullptr) v = InReg<R>(v + static_cast<float>(*o));
  return OutByte<D>(v, m);
}

// The scale row / column the source reads for element (i, j): per token (GetPerTokenScale at
// scaleUb + i), KCol (gather at scaleUb + i * scaleK, index (j) / groupSize), KRow (main groups
// at scaleUb + g * n + j; the tail block at scaleUb + mainRowGroup * n + j).
size_t ScaleAt(int policy, int kDim, uint32_t rows, uint32_t n, uint32_t g, uint32_t i,
               uint32_t j) {
  if (policy == 2) return i;
  if (kDim == 1) return size_t{i} * ((n + g - 1) / g) + j / g;
  const uint32_t mainGroups = rows / g;
  const uint32_t grp = i / g < mainGroups ? i / g : mainGroups;
  return size_t{grp} * n + j;
}

// ---- the float64 oracle -----------------------------------------------------------------------

// |q - clamp(x s + o)| <= r + eps (|x s| + |o|): r the rounding of the mode (0.5 to nearest, 1
// directed); eps the register roundings: float 2^-23 (product and sum, 2^-24 each), bfloat16
// 2^-7 (product and sum, 2^-8 each), half 2^-9 (source, scale, offset, product, sum at 2^-11
// each: at most four of them on |x s|, two on |o|).
void ExpectInt8Oracle(double x, double s, double o, int8_t q, double eps, RoundMode m,
                      const std::string& what) {
  const bool directed =
      m == RoundMode::CAST_FLOOR || m == RoundMode::CAST_CEIL || m == RoundMode::CAST_TRUNC;
  const double exact = std::fmin(127.0, std::fmax(-128.0, x * s + o));
  const double bound = (directed ? 1.0 : 0.5) + eps * (std::fabs(x * s) + std::fabs(o));
  ASSERT_LE(std::fabs(q - exact), bound) << what << " x " << x << " s " << s << " o " << o;
}

// fp8 (p significant bits: e4m3 4, e5m2 3): below the largest value |dec(q) - E| <= 2^-p |v| +
// half the smallest subnormal + |v - E|, E = x s + o, v the register value (|v - E| as above).
template <typename D>
void ExpectFp8Oracle(double x, double s, double o, uint8_t q, double eps, const std::string& what) {
  constexpr bool kE4 = std::is_same_v<D, fp8_e4m3fn_t>;
  const double p = kE4 ? 4 : 3, maxv = kE4 ? 448.0 : 57344.0, sub = kE4 ? 0x1p-10 : 0x1p-17;
  const double e = x * s + o, dv = eps * (std::fabs(x * s) + std::fabs(o));
  const double dec = Decode(D::FromBits(q));
  if (std::fabs(e) + dv >= maxv) return;  // saturation: checked bit exact by the replay
  ASSERT_LE(std::fabs(dec - e), std::ldexp(std::fabs(e) + dv, -p) + sub + dv)
      << what << " x " << x << " s " << s << " o " << o;
}

template <typename T>
double AsDouble(T x) {
  return static_cast<double>(static_cast<float>(x));
}

template <typename T>
double Eps() {
  if constexpr (std::is_same_v<T, float>) return 0x1p-23;
  if constexpr (std::is_same_v<T, bfloat16_t>) return 0x1p-7;
  return 0x1p-9;
}

template <typename D, typename R>
void ExpectOracle(double x, double s, double o, uint8_t q, RoundMode m, const std::string& what) {
  if constexpr (std::is_same_v<D, int8_t>) {
    ExpectInt8Oracle(x, s, o, static_cast<int8_t>(q), Eps<R>(), m, what);
  } else if constexpr (!std::is_same_v<D, hifloat8_t>) {
    ExpectFp8Oracle<D>(x, s, o, q, Eps<R>(), what);
  }
  // hifloat8 (tapered precision): the 256-code search of the replay is its oracle.
}

// ---- dstT/srcT PER_TENSOR and PER_CHANNEL ------------------------------------------------------

constexpr uint32_t kCount = 960;  // a multiple of 32 (PER_CHANNEL), not of 64 or 128: a tail

template <typename S>
std::vector<S> Source(uint32_t seed, uint32_t count, float range) {
  std::vector<float> v = Uniform(seed, count, -range, range);
  v[0] = 0.5f;
  v[1] = -2.5f;
  v[2] = 1e5f;  // beyond half: saturated results
  v[3] = -1e5f;
  return As<S>(v);
}

template <typename D, typename S>
void PerTensor(int form) {
  const std::vector<S> x = Source<S>(31, kCount, 70.0f);
  const float s = 1.7f, o = -0.9f;
  std::vector<uint8_t> got;
  OnBlock(
      [&](Ub& ub) {
        ub.Put<S>(1, x);
        AscendC::LocalTensor<D> dst = ub.Get<D>(0);
        AscendC::LocalTensor<S> src = ub.Get<S>(1);
        src.SetSize(kCount);
        if (form == 0) AscendC::AscendQuant<D, S>(dst, src, ub.Get<uint8_t>(3), s, o, kCount);
        if (form == 1) AscendC::AscendQuant<D, S>(dst, src, ub.Get<uint8_t>(3), s, o);
        if (form == 2) AscendC::AscendQuant<D, S>(dst, src, s, o, kCount);
        if (form == 3) AscendC::AscendQuant<D, S>(dst, src, s, o);
        got = ub.Take<uint8_t>(0);
      },
      k950);
  using R =
      std::conditional_t<std::is_same_v<D, int8_t> || std::is_same_v<D, hifloat8_t>, half, float>;
  for (uint32_t e = 0; e < kCount; ++e) {
    ASSERT_EQ(got[e], (ReplayDstSrc<D, S>(x[e], s, o, false, false)))
        << "form " << form << " element " << e;
    if (e >= 4)
      ExpectOracle<D, R>(AsDouble(x[e]), s, o, got[e], RoundMode::CAST_RINT, "per tensor");
  }
}

template <typename S>
void PerTensorEveryDst() {
  for (int form = 0; form < 4; ++form) {
    PerTensor<int8_t, S>(form);
    PerTensor<hifloat8_t, S>(form);
    PerTensor<fp8_e4m3fn_t, S>(form);
    PerTensor<fp8_e5m2_t, S>(form);
  }
}

TEST(QuantAscendQuantDstSrc, PerTensorEverySourceAndDestinationOn950) {
  PerTensorEveryDst<half>();
  PerTensorEveryDst<bfloat16_t>();
  PerTensorEveryDst<float>();
}

template <typename D, typename S>
void PerChannel(int form) {
  constexpr uint32_t kSc = 96;  // 10 rows
  const std::vector<S> x = Source<S>(32, kCount, 30.0f);
  const std::vector<S> sc = As<S>(Uniform(33, kSc, -3.0f, 3.0f));
  const std::vector<S> of = As<S>(Uniform(34, kSc, -2.0f, 2.0f));
  const S scalarOff = S(0.75f);
  const bool tensorOff = form % 2 == 1;
  std::vector<uint8_t> got;
  OnBlock(
      [&](Ub& ub) {
        ub.Put<S>(1, x);
        ub.Put<S>(2, sc);
        ub.Put<S>(3, of);
        AscendC::LocalTensor<D> dst = ub.Get<D>(0);
        AscendC::LocalTensor<S> src = ub.Get<S>(1), scale = ub.Get<S>(2), off = ub.Get<S>(3);
        AscendC::LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(0)[kCount * 4];
        src.SetSize(kCount);
        scale.SetSize(kSc);
        off.SetSize(kSc);
        if (form == 0) AscendC::AscendQuant<D, S>(dst, src, tmp, scale, scalarOff, kSc, kCount);
        if (form == 1) AscendC::AscendQuant<D, S>(dst, src, tmp, scale, off, kSc, kSc, kCount);
        if (form == 2) AscendC::AscendQuant<D, S>(dst, src, tmp, scale, scalarOff);
        if (form == 3) AscendC::AscendQuant<D, S>(dst, src, tmp, scale, off);
        if (form == 4) AscendC::AscendQuant<D, S>(dst, src, scale, scalarOff, kSc, kCount);
        if (form == 5) AscendC::AscendQuant<D, S>(dst, src, scale, off, kSc, kSc, kCount);
        if (form == 6) AscendC::AscendQuant<D, S>(dst, src, scale, scalarOff);
        if (form == 7) AscendC::AscendQuant<D, S>(dst, src, scale, off);
        got = ub.Take<uint8_t>(0);
      },
      k950);
  using R =
      std::conditional_t<std::is_same_v<D, int8_t> || std::is_same_v<D, hifloat8_t>, half, float>;
  for (uint32_t i = 0; i < kCount / kSc; ++i) {
    for (uint32_t j = 0; j < kSc; ++j) {
      const uint32_t e = i * kSc + j;
      const float s = static_cast<float>(sc[j]);
      const float o = static_cast<float>(tensorOff ? of[j] : scalarOff);
      ASSERT_EQ(got[e], (ReplayDstSrc<D, S>(x[e], s, o, true, tensorOff)))
          << "form " << form << " element " << e;
      if (e >= 4)
        ExpectOracle<D, R>(AsDouble(x[e]), s, o, got[e], RoundMode::CAST_RINT, "per channel");
    }
  }
}

template <typename S>
void PerChannelEveryDst() {
  for (int form = 0; form < 8; ++form) {
    PerChannel<int8_t, S>(form);
    PerChannel<hifloat8_t, S>(form);
    PerChannel<fp8_e4m3fn_t, S>(form);
    PerChannel<fp8_e5m2_t, S>(form);
  }
}

TEST(QuantAscendQuantDstSrc, PerChannelEverySourceDestinationAndOverloadOn950) {
  PerChannelEveryDst<half>();
  PerChannelEveryDst<bfloat16_t>();
  PerChannelEveryDst<float>();
}

// ---- AscendQuantPolicy PER_TOKEN / PER_GROUP ----------------------------------------------------

constexpr AscendC::AscendQuantPolicy kToken = AscendC::AscendQuantPolicy::PER_TOKEN;
constexpr AscendC::AscendQuantPolicy kGroup = AscendC::AscendQuantPolicy::PER_GROUP;
constexpr AscendC::AscendQuantConfig kOffK1 = {true, 1, RoundMode::CAST_RINT};
constexpr AscendC::AscendQuantConfig kNoOffK1 = {false, 1, RoundMode::CAST_FLOOR};
constexpr AscendC::AscendQuantConfig kOffK0 = {true, 0, RoundMode::CAST_ROUND};
constexpr AscendC::AscendQuantConfig kNoOffK0 = {false, 0, RoundMode::CAST_TRUNC};

struct Shape {
  uint32_t rows, n, g;
};

// The elements the scale (offset) tensor holds for the policy and shape.
size_t ScaleCount(int policy, int kDim, const Shape& sh) {
  if (policy == 2) return sh.rows;
  if (kDim == 1) return size_t{sh.rows} * ((sh.n + sh.g - 1) / sh.g);
  return size_t{(sh.rows + sh.g - 1) / sh.g} * sh.n;
}

// One policy-form call in form 0..3: offset tensor with / without sharedTmpBuffer, scalar
// offset with / without it.
template <typename D, typename S, typename Sc, const AscendC::AscendQuantConfig& cfg,
          const AscendC::AscendQuantPolicy& pol>
void CallPolicy(Ub& ub, int form, Sc scalarOff, const AscendC::AscendQuantParam& para) {
  AscendC::LocalTensor<D> dst = ub.Get<D>(0);
  AscendC::LocalTensor<S> src = ub.Get<S>(1);
  AscendC::LocalTensor<Sc> sc = ub.Get<Sc>(2), of = ub.Get<Sc>(3);
  AscendC::LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(3)[16384];
  if (form == 0) AscendC::AscendQuant<D, S, Sc, false, cfg, pol>(dst, src, tmp, sc, of, para);
  if (form == 1) AscendC::AscendQuant<D, S, Sc, false, cfg, pol>(dst, src, sc, of, para);
  if (form == 2)
    AscendC::AscendQuant<D, S, Sc, false, cfg, pol>(dst, src, tmp, sc, scalarOff, para);
  if (form == 3) AscendC::AscendQuant<D, S, Sc, false, cfg, pol>(dst, src, sc, scalarOff, para);
}

template <typename D, typename S, typename Sc, const AscendC::AscendQuantConfig& cfg,
          const AscendC::AscendQuantPolicy& pol>
void Policy(const Shape& sh, int form) {
  const int policy = pol == kToken ? 2 : 3;
  const uint32_t count = sh.rows * sh.n;
  const size_t nsc = ScaleCount(policy, cfg.kDim, sh);
  const std::vector<S> x = Source<S>(41 + form, count, 50.0f);
  const std::vector<Sc> sc = As<Sc>(Uniform(42, nsc, -2.0f, 2.0f));
  const std::vector<Sc> of = As<Sc>(Uniform(43, nsc, -3.0f, 3.0f));
  const Sc scalarOff = Sc(0.625f);
  std::vector<uint8_t> got;
  OnBlock(
      [&](Ub& ub) {
        ub.Put<S>(1, x);
        ub.Put<Sc>(2, sc);
        ub.Put<Sc>(3, of);
        CallPolicy<D, S, Sc, cfg, pol>(ub, form, scalarOff, {sh.rows, sh.n, count, sh.g});
        got = ub.Take<uint8_t>(0);
      },
      k950);
  using R = std::conditional_t<std::is_same_v<D, fp8_e4m3fn_t> || std::is_same_v<D, fp8_e5m2_t>,
                               float, Sc>;
  const std::string what = "policy " + std::to_string(policy) + " kDim " +
                           std::to_string(cfg.kDim) + " g " + std::to_string(sh.g) + " form " +
                           std::to_string(form);
  for (uint32_t i = 0; i < sh.rows; ++i) {
    for (uint32_t j = 0; j < sh.n; ++j) {
      const uint32_t e = i * sh.n + j;
      const size_t c = ScaleAt(policy, cfg.kDim, sh.rows, sh.n, sh.g, i, j);
      const Sc o = form < 2 ? of[c] : scalarOff;
      ASSERT_EQ(got[e],
                (ReplayPolicy<D, S, Sc>(x[e], sc[c], cfg.hasOffset ? &o : nullptr, cfg.roundMode)))
          << what << " element " << e;
      if (e < 4) continue;
      ExpectOracle<D, R>(AsDouble(x[e]), AsDouble(sc[c]), cfg.hasOffset ? AsDouble(o) : 0.0, got[e],
                         cfg.roundMode, what);
    }
  }
}

// Every form, the token policy and the group policy along both axes with several group sizes
// (96 columns: groups of 64 leave a partial one; 70 rows: a tail block of 6 rows).
// The four forms take turns over the shapes (the overloads share one pass).
template <typename D, typename S, typename Sc>
void PolicyEveryShape() {
  Policy<D, S, Sc, kOffK1, kToken>({70, 96, 0}, 0);
  Policy<D, S, Sc, kOffK1, kToken>({70, 96, 0}, 3);
  Policy<D, S, Sc, kNoOffK1, kToken>({70, 96, 0}, 1);
  int form = 0;
  for (uint32_t g : {32u, 64u}) {
    Policy<D, S, Sc, kOffK1, kGroup>({70, 96, g}, form++ % 4);
    Policy<D, S, Sc, kNoOffK1, kGroup>({70, 96, g}, form++ % 4);
    Policy<D, S, Sc, kOffK0, kGroup>({70, 96, g}, form++ % 4);
    Policy<D, S, Sc, kNoOffK0, kGroup>({70, 96, g}, form++ % 4);
  }
}

template <typename S, typename Sc>
void PolicyEveryDst() {
  PolicyEveryShape<int8_t, S, Sc>();
  PolicyEveryShape<hifloat8_t, S, Sc>();
  PolicyEveryShape<fp8_e4m3fn_t, S, Sc>();
  PolicyEveryShape<fp8_e5m2_t, S, Sc>();
}

// The page's table: (half, half), (bfloat16, bfloat16), (float, float), (half, float),
// (bfloat16, float) as (srcT, scaleT), each into int8, hifloat8, fp8_e4m3fn and fp8_e5m2.
TEST(QuantAscendQuantPolicy, PerTokenAndPerGroupEveryPairDestinationAndFormOn950) {
  PolicyEveryDst<half, half>();
  PolicyEveryDst<bfloat16_t, bfloat16_t>();
  PolicyEveryDst<float, float>();
  PolicyEveryDst<half, float>();
  PolicyEveryDst<bfloat16_t, float>();
}

constexpr AscendC::AscendQuantConfig kCeil = {true, 1, RoundMode::CAST_CEIL};
constexpr AscendC::AscendQuantConfig kNone = {true, 1, RoundMode::CAST_NONE};
constexpr AscendC::AscendQuantConfig kOdd = {true, 1, RoundMode::CAST_ODD};
constexpr AscendC::AscendQuantConfig kHybrid = {false, 1, RoundMode::CAST_HYBRID};

// int8 takes CAST_CEIL and falls back to CAST_RINT for the modes it does not list; hifloat8
// keeps CAST_HYBRID (16, low bits all zero, rounds up to 20: lngrad_aicore/fp8.h).
TEST(QuantAscendQuantPolicy, RoundModesAndFallbacks) {
  Policy<int8_t, float, float, kCeil, kToken>({8, 64, 0}, 1);
  Policy<int8_t, half, half, kCeil, kToken>({8, 64, 0}, 1);
  Policy<int8_t, bfloat16_t, float, kNone, kToken>({8, 64, 0}, 1);
  Policy<int8_t, half, half, kOdd, kToken>({8, 64, 0}, 1);
  std::vector<uint8_t> got;
  OnBlock(
      [&](Ub& ub) {
        ub.Put<float>(1, std::vector<float>(64, 16.0f));
        ub.Put<float>(2, std::vector<float>(1, 1.0f));
        AscendC::AscendQuant<hifloat8_t, float, float, false, kHybrid, kToken>(
            ub.Get<hifloat8_t>(0), ub.Get<float>(1), ub.Get<float>(2), 0.0f, {1, 64, 64, 0});
        got = ub.Take<uint8_t>(0);
      },
      k950);
  EXPECT_EQ(Decode(hifloat8_t::FromBits(got[5])), 20.0f);
}

// ---- fp4 destinations (PER_GROUP) -------------------------------------------------------------

// TransRegForFp4: the register value to bfloat16 (CAST_RINT, SatS), then to the 4-bit code in
// the mode (TransRegForS8's list, others CAST_RINT), saturating to the largest magnitude.
template <typename D>
uint8_t ReplayFp4(float v, RoundMode m) {
  const float* mag = std::is_same_v<D, fp4x2_e1m2_t> ? kE1m2 : kE2m1;
  float b = std::isnan(v) ? 0.0f : InReg<bfloat16_t>(v);
  if (std::isinf(b)) b = b > 0 ? 3.3895314e38f : -3.3895314e38f;
  const uint8_t sign = std::signbit(b) ? 0x8 : 0x0;
  const float a = std::fabs(b);
  if (a >= mag[7]) return sign | 7;
  int lo = 0;
  while (mag[lo + 1] <= a) ++lo;
  if (a == mag[lo]) return sign | lo;
  const float dLo = a - mag[lo], dHi = mag[lo + 1] - a;
  bool up;  // to the larger magnitude
  if (m == RoundMode::CAST_FLOOR) {
    up = sign != 0;
  } else if (m == RoundMode::CAST_CEIL) {
    up = sign == 0;
  } else if (m == RoundMode::CAST_TRUNC) {
    up = false;
  } else if (m == RoundMode::CAST_ROUND) {
    up = dHi <= dLo;
  } else {
    up = dHi < dLo || (dHi == dLo && lo % 2 == 1);
  }
  return sign | static_cast<uint8_t>(up ? lo + 1 : lo);
}

// |dec(q) - E| <= r u |E'| + r s + 2^-8 |E'| + dv below the largest magnitude: E = x s, dv the
// register roundings (eps |x s|), E' = |E| + dv, u the relative spacing (e2m1 2^-1, e1m2 2^-2),
// s the subnormal spacing (0.5, 0.25), r one spacing for the directed modes and half of one to
// nearest, 2^-8 the bfloat16 rounding before it.
template <typename D>
void ExpectFp4Oracle(double x, double s, uint8_t code, double eps, RoundMode m,
                     const std::string& what) {
  constexpr bool kE1 = std::is_same_v<D, fp4x2_e1m2_t>;
  const float* mag = kE1 ? kE1m2 : kE2m1;
  const double e = x * s, dv = eps * std::fabs(e), ep = std::fabs(e) + dv;
  if (ep * (1 + 0x1p-7) >= mag[7]) return;  // saturation: checked by the replay
  const bool nearest = m == RoundMode::CAST_RINT || m == RoundMode::CAST_ROUND;
  const double r = nearest ? 0.5 : 1.0, u = kE1 ? 0x1p-2 : 0x1p-1, sub = kE1 ? 0.25 : 0.5;
  const double dec = (code & 0x8) != 0 ? -mag[code & 7] : mag[code & 7];
  ASSERT_LE(std::fabs(dec - e), r * u * ep + r * sub + 0x1p-8 * ep + dv)
      << what << " x " << x << " s " << s;
}

constexpr AscendC::AscendQuantConfig kFp4Rint = {true, 1, RoundMode::CAST_RINT};  // offset unused
constexpr AscendC::AscendQuantConfig kFp4Floor = {false, 0, RoundMode::CAST_FLOOR};
constexpr AscendC::AscendQuantConfig kFp4Ceil = {false, 1, RoundMode::CAST_CEIL};
constexpr AscendC::AscendQuantConfig kFp4Odd = {false, 0, RoundMode::CAST_ODD};  // -> CAST_RINT

template <typename D, typename S, typename Sc, const AscendC::AscendQuantConfig& cfg>
void Fp4Group(const Shape& sh, int form) {
  const uint32_t count = sh.rows * sh.n;
  const size_t nsc = ScaleCount(3, cfg.kDim, sh);
  const std::vector<S> x = Source<S>(61 + form, count, 50.0f);
  const std::vector<Sc> sc = As<Sc>(Uniform(62, nsc, -0.1f, 0.1f));
  std::vector<uint8_t> got;
  OnBlock(
      [&](Ub& ub) {
        ub.Put<S>(1, x);
        ub.Put<Sc>(2, sc);
        CallPolicy<D, S, Sc, cfg, kGroup>(ub, form, Sc(0.5f), {sh.rows, sh.n, count, sh.g});
        got = ub.Take<uint8_t>(0);
      },
      k950);
  const std::string what = "fp4 kDim " + std::to_string(cfg.kDim) + " g " + std::to_string(sh.g) +
                           " form " + std::to_string(form);
  for (uint32_t e = 0; e < count; ++e) {
    const size_t c = ScaleAt(3, cfg.kDim, sh.rows, sh.n, sh.g, e / sh.n, e % sh.n);
    const float v = InReg<Sc>(static_cast<float>(x[e]) * static_cast<float>(sc[c]));
    const uint8_t code = (got[e / 2] >> (e % 2 == 0 ? 0 : 4)) & 0xF;
    ASSERT_EQ(code, ReplayFp4<D>(v, cfg.roundMode)) << what << " element " << e;
    if (e >= 4) {
      ExpectFp4Oracle<D>(
          AsDouble(x[e]), AsDouble(sc[c]), code, Eps<Sc>(),
          cfg.roundMode == RoundMode::CAST_ODD ? RoundMode::CAST_RINT : cfg.roundMode, what);
    }
  }
}

template <typename D, typename S, typename Sc>
void Fp4EveryShape() {
  int form = 0;
  for (uint32_t g : {32u, 64u}) {
    Fp4Group<D, S, Sc, kFp4Rint>({70, 128, g}, form++ % 4);
    Fp4Group<D, S, Sc, kFp4Floor>({70, 128, g}, form++ % 4);
    Fp4Group<D, S, Sc, kFp4Ceil>({70, 128, g}, form++ % 4);
    Fp4Group<D, S, Sc, kFp4Odd>({70, 128, g}, form++ % 4);
  }
}

// The page's fp4 pairs: (half, half), (half, float), (bfloat16, bfloat16), (bfloat16, float).
TEST(QuantAscendQuantPolicy, PerGroupFp4DestinationsEveryPairOn950) {
  Fp4EveryShape<fp4x2_e2m1_t, half, half>();
  Fp4EveryShape<fp4x2_e2m1_t, half, float>();
  Fp4EveryShape<fp4x2_e2m1_t, bfloat16_t, bfloat16_t>();
  Fp4EveryShape<fp4x2_e2m1_t, bfloat16_t, float>();
  Fp4EveryShape<fp4x2_e1m2_t, half, half>();
  Fp4EveryShape<fp4x2_e1m2_t, half, float>();
  Fp4EveryShape<fp4x2_e1m2_t, bfloat16_t, bfloat16_t>();
  Fp4EveryShape<fp4x2_e1m2_t, bfloat16_t, float>();
}

// ---- AscendDequant, AscendDeQuantPolicy PER_TOKEN / PER_GROUP -----------------------------------

// int32 -> float rounding ties away from zero (the source's MrgZRndA Cast).
float TiesAway(int32_t v) {
  const float f = static_cast<float>(v);
  const double d = static_cast<double>(v) - static_cast<double>(f);
  if (d == 0) return f;
  const float other = std::nextafter(f, d > 0 ? INFINITY : -INFINITY);
  const bool tie = std::fabs(static_cast<double>(other) - static_cast<double>(v)) == std::fabs(d);
  return tie && std::fabs(other) > std::fabs(f) ? other : f;
}

// StoreRes: float as is, half / bfloat16 Cast CAST_RINT with SatS.
template <typename D>
uint64_t ReplayDequantOut(float v) {
  if constexpr (std::is_same_v<D, float>) {
    return Bits(v);
  } else if constexpr (std::is_same_v<D, half>) {
    return Bits(half(SatHalf(v)));
  } else {
    if (std::isnan(v)) return Bits(bfloat16_t(0.0f));
    const bfloat16_t b(v);
    if (!std::isinf(static_cast<float>(b))) return Bits(b);
    return Bits(v > 0 ? std::numeric_limits<bfloat16_t>::max()
                      : std::numeric_limits<bfloat16_t>::lowest());
  }
}

constexpr AscendC::AscendDeQuantPolicy kDqToken = AscendC::AscendDeQuantPolicy::PER_TOKEN;
constexpr AscendC::AscendDeQuantPolicy kDqGroup = AscendC::AscendDeQuantPolicy::PER_GROUP;
constexpr AscendC::AscendDeQuantConfig kDqK1 = {false, 1};
constexpr AscendC::AscendDeQuantConfig kDqK0 = {false, 0};

template <typename S>
std::vector<S> DequantSource(uint32_t count) {
  std::vector<S> x(count);
  const std::vector<float> u = Uniform(51, count, -3000.0f, 3000.0f);
  for (uint32_t e = 0; e < count; ++e) x[e] = static_cast<S>(std::trunc(u[e]));
  if constexpr (std::is_same_v<S, int32_t>) {
    x[0] = 16777217;  // ties: RNE and ties-away differ
    x[1] = -16777219;
    x[2] = 2147483647;
  } else {
    x[0] = 0.375f;
    x[1] = 3e38f;  // beyond half and bfloat16 after the scale: saturated
  }
  return x;
}

// |out - x s| <= (2^-23 + u) |x s| + 2^-25: the int32 conversion and the Mul (2^-24 each), the
// destination rounding u (float 0, bfloat16 2^-8, half 2^-11) and half's subnormal spacing.
template <typename D>
void ExpectDequantOracle(double x, double s, D out, const std::string& what) {
  const double u = std::is_same_v<D, float> ? 0.0 : (std::is_same_v<D, half> ? 0x1p-11 : 0x1p-8);
  const double e = x * s, maxv = std::is_same_v<D, half> ? 65504.0 : 3.3e38;
  if (std::fabs(e) * (1 + 0x1p-7) >= maxv) return;  // saturation: the replay checks it
  ASSERT_LE(std::fabs(static_cast<float>(out) - e), (0x1p-23 + u) * std::fabs(e) + 0x1p-25)
      << what << " x " << x << " s " << s;
}

template <typename D, typename S, typename Sc, const AscendC::AscendDeQuantConfig& cfg,
          const AscendC::AscendDeQuantPolicy& pol>
void DequantPolicy(const Shape& sh, bool withTmp) {
  const int policy = pol == kDqToken ? 2 : 3;
  const uint32_t count = sh.rows * sh.n;
  const size_t nsc = ScaleCount(policy, cfg.kDim, sh);
  const std::vector<S> x = DequantSource<S>(count);
  const std::vector<Sc> sc = As<Sc>(Uniform(52, nsc, -2.0f, 2.0f));
  std::vector<D> got;
  OnBlock(
      [&](Ub& ub) {
        ub.Put<S>(1, x);
        ub.Put<Sc>(2, sc);
        const AscendC::AscendDeQuantParam para{sh.rows, sh.n, count, sh.g};
        if (withTmp) {
          AscendC::AscendDequant<D, S, Sc, cfg, pol>(ub.Get<D>(0), ub.Get<S>(1), ub.Get<Sc>(2),
                                                     ub.Get<Sc>(3), ub.Get<uint8_t>(3), para);
        } else {
          AscendC::AscendDequant<D, S, Sc, cfg, pol>(ub.Get<D>(0), ub.Get<S>(1), ub.Get<Sc>(2),
                                                     ub.Get<Sc>(3), para);
        }
        got = ub.Take<D>(0);
      },
      k950);
  const std::string what = "policy " + std::to_string(policy) + " kDim " +
                           std::to_string(cfg.kDim) + " g " + std::to_string(sh.g);
  for (uint32_t i = 0; i < sh.rows; ++i) {
    for (uint32_t j = 0; j < sh.n; ++j) {
      const uint32_t e = i * sh.n + j;
      const float s = static_cast<float>(sc[ScaleAt(policy, cfg.kDim, sh.rows, sh.n, sh.g, i, j)]);
      float v;
      if constexpr (std::is_same_v<S, int32_t>) {
        v = TiesAway(x[e]) * s;
      } else {
        v = x[e] * s;
      }
      ASSERT_EQ(Bits(got[e]), ReplayDequantOut<D>(v)) << what << " element " << e;
      ExpectDequantOracle<D>(static_cast<double>(x[e]), s, got[e], what);
    }
  }
}

template <typename D, typename S, typename Sc>
void DequantEveryShape() {
  for (bool tmp : {false, true}) {
    DequantPolicy<D, S, Sc, kDqK1, kDqToken>({70, 96, 0}, tmp);
    for (uint32_t g : {32u, 64u}) {
      DequantPolicy<D, S, Sc, kDqK1, kDqGroup>({70, 96, g}, tmp);
      DequantPolicy<D, S, Sc, kDqK0, kDqGroup>({70, 96, g}, tmp);
    }
  }
}

template <typename S, typename Sc>
void DequantEveryDst() {
  DequantEveryShape<half, S, Sc>();
  DequantEveryShape<bfloat16_t, S, Sc>();
  DequantEveryShape<float, S, Sc>();
}

// The page's types: int32_t / float source, half / bfloat16_t / float scale and destination.
TEST(QuantAscendDequantPolicy, PerTokenAndPerGroupEveryTypeOn950) {
  DequantEveryDst<int32_t, half>();
  DequantEveryDst<int32_t, bfloat16_t>();
  DequantEveryDst<int32_t, float>();
  DequantEveryDst<float, half>();
  DequantEveryDst<float, bfloat16_t>();
  DequantEveryDst<float, float>();
}

// ---- checked mode
// ---------------------------------------------------------------------------------

TEST(QuantAscendQuantPolicy, CheckedModeRefusals) {
  ExpectCheck(
      [](Ub& ub) {
        AscendC::AscendQuant<fp8_e4m3fn_t, float>(ub.Get<fp8_e4m3fn_t>(0), ub.Get<float>(1), 1.0f,
                                                  0.0f, 64);
      },
      "product", "Ascend 950", k910B);
  ExpectCheck(
      [](Ub& ub) {
        AscendC::AscendQuant<int8_t, half, half, false, kOffK1, kGroup>(
            ub.Get<int8_t>(0), ub.Get<half>(1), ub.Get<half>(2), ub.Get<half>(3), {4, 64, 256, 48});
      },
      "quant_filter_arg", "groupSize 48", k950);
  ExpectCheck(
      [](Ub& ub) {
        AscendC::AscendQuant<int8_t, float, float, false, kOffK1, kToken>(
            ub.Get<int8_t>(0), ub.Get<float>(1), ub.Get<float>(2), 0.0f, {4, 64, 200, 0});
      },
      "quant_filter_arg", "multiple of n", k950);
  ExpectCheck(
      [](Ub& ub) {
        AscendC::AscendQuant<int8_t, float, float, false, kOffK1, kToken>(
            ub.Get<int8_t>(0), ub.Get<float>(1), ub.Get<float>(2), 0.0f, {4, 40, 160, 0});
      },
      "quant_filter_arg", "32-byte aligned", k950);
  ExpectCheck(
      [](Ub& ub) {  // 96 fp4 elements are 48 bytes
        AscendC::AscendQuant<fp4x2_e2m1_t, half, half, false, kFp4Floor, kGroup>(
            ub.Get<fp4x2_e2m1_t>(0), ub.Get<half>(1), ub.Get<half>(2), half(0.0f),
            {4, 96, 384, 32});
      },
      "quant_filter_arg", "32-byte aligned", k950);
  ExpectCheck(
      [](Ub& ub) {
        AscendC::AscendQuant<hifloat8_t, half>(ub.Get<hifloat8_t>(0), ub.Get<half>(1),
                                               ub.Get<half>(2), half(0.0f), 20, 100);
      },
      "quant_filter_arg", "multiple of 32", k950);
  ExpectCheck(
      [](Ub& ub) {
        AscendC::AscendQuant<int8_t, float>(ub.Get<int8_t>(0), ub.Get<float>(1), ub.Get<float>(2),
                                            ub.Get<float>(3), 32, 64, 128);
      },
      "quant_filter_arg", "offsetCount", k950);
  ExpectCheck(
      [](Ub& ub) {
        AscendC::AscendDequant<float, int32_t, float, kDqK0, kDqGroup>(
            ub.Get<float>(0), ub.Get<int32_t>(1), ub.Get<float>(2), ub.Get<float>(3),
            {4, 64, 256, 0});
      },
      "quant_filter_arg", "groupSize 0", k950);
  ExpectCheck(
      [](Ub& ub) {
        AscendC::AscendDequant<half, float, half, kDqK1, kDqToken>(
            ub.Get<half>(0), ub.Get<float>(1), ub.Get<half>(2), ub.Get<half>(3), {4, 64, 256, 0});
      },
      "product", "Ascend 950", k910B);
}

}  // namespace
}  // namespace lngrad::adv::testing
