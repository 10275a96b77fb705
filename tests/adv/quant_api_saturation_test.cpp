// The saturation of the quantization APIs' narrowing casts under the three control states of the
// register Cast page's table 5, with overflowing values, +-inf and NaN:
// - the default (CTRL[60] = 1, CTRL[48] = 0): global saturation;
// - AscendCUtils::SetOverflow(1) (CTRL[48] = 1): global inf/NaN mode, whatever the trait;
// - SetCtrlSpr<60, 60>(0) after SetOverflow(1): each register Cast's own SatMode; the 3510
//   sources' output casts carry SatS (LayoutZMrgZRndRSatS), so they saturate.
// The 2201 forms use the vector Cast, which follows the block's overflow mode (the first two
// states; Atlas A2 has no CTRL[60]).
//
// Expected values from the page's table 4 (float -> float): saturating, NaN -> 0 and a value past
// the destination's largest -> the largest of its sign; not saturating, NaN stays NaN and an
// overflow is +-inf. The value before the cast is the float result of the sequence (one float
// Mul of exact operands here), computed by the test.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "quant_api_test_util.h"
#include "../aicore/sanitizer_off.h"

namespace lngrad::adv::testing {
namespace {

enum class Ctrl { kDefault, kInfNan, kPerInstruction };

const char* Name(Ctrl c) {
  return c == Ctrl::kDefault ? "default" : c == Ctrl::kInfNan ? "SetOverflow(1)" : "CTRL[60]=0";
}

void Apply(Ctrl c) {
  if (c == Ctrl::kDefault) return;
  AscendC::AscendCUtils::SetOverflow(1);
  if (c == Ctrl::kPerInstruction) AscendC::SetCtrlSpr<60, 60>(0);
}

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

// Five cases (source value, scale): past the half range both signs, an infinite scale, a NaN
// scale, an ordinary value.
struct Case {
  int32_t x;
  float s;
};
constexpr Case kCases[5] = {{1000, 1000.0f}, {-1000, 1000.0f}, {1, kInf}, {2, kNaN}, {3, 1.5f}};
// The bfloat16 forms: past the float range (the float product is infinite).
constexpr Case kBigCases[5] = {{100, 3.0e38f}, {-100, 3.0e38f}, {1, kInf}, {2, kNaN}, {3, 1.5f}};

// The destination value of the float v by table 4.
template <typename D>
float Expected(float v, bool sat) {
  if (!sat) return static_cast<float>(D(v));  // IEEE: NaN stays, overflow to +-inf
  if (std::isnan(v)) return 0.0f;
  const float big = std::is_same_v<D, half> ? 65504.0f : std::bit_cast<float>(0x7F7F0000u);
  const float d = static_cast<float>(D(v));
  return std::isinf(d) ? std::copysign(big, v) : d;
}

template <typename D>
void ExpectOut(const std::vector<D>& got, uint32_t count, const std::function<Case(uint32_t)>& at,
               bool sat, const std::string& what) {
  for (uint32_t e = 0; e < count; ++e) {
    const Case c = at(e);
    const float v = static_cast<float>(c.x) * c.s;
    const float want = Expected<D>(v, sat), g = static_cast<float>(got[e]);
    if (std::isnan(want)) {
      ASSERT_TRUE(std::isnan(g)) << what << " " << e << " got " << g;
    } else {
      ASSERT_EQ(g, want) << what << " " << e << " v " << v;
    }
  }
}

// A case's source value as the int8 the anti-quantization forms take.
int8_t Clamp8(int32_t x) { return static_cast<int8_t>(x > 127 ? 127 : (x < -128 ? -128 : x)); }

constexpr uint32_t kM = 5, kN = 16;  // a row per case (per token) or a column per case

constexpr AscendC::DequantizeConfig kDqToken = {AscendC::DequantizePolicy::PER_TOKEN, false, 1};
constexpr AscendC::AntiQuantizeConfig kAqToken = {AscendC::AntiQuantizePolicy::PER_TOKEN, false, 1};
constexpr AscendC::AscendDeQuantPolicy kPolToken = AscendC::AscendDeQuantPolicy::PER_TOKEN;
constexpr AscendC::AscendDeQuantConfig kPolCfg = {false, 1};

// Dequantize, AscendDequant's policy form and AntiQuantize, PER_TOKEN into half (arch 3510).
template <typename D>
void TokenForms(Ctrl ctrl, const Case (&cases)[5]) {
  std::vector<int32_t> x(kM * kN);
  std::vector<int8_t> x8(kM * kN);
  std::vector<float> s(kM);
  for (uint32_t e = 0; e < kM * kN; ++e) {
    x[e] = cases[e / kN].x;
    x8[e] = Clamp8(cases[e / kN].x);
  }
  for (uint32_t i = 0; i < kM; ++i) s[i] = cases[i].s;
  std::vector<D> dq, pol, aq;
  OnBlock(
      [&](Ub& ub) {
        Apply(ctrl);
        ub.Put<int32_t>(1, x);
        ub.Put<float>(2, s);
        AscendC::Dequantize<kDqToken>(ub.Get<D>(0), ub.Get<int32_t>(1), ub.Get<float>(2),
                                      ub.Get<float>(2), AscendC::DequantizeParams{kM, kN, 0});
        dq = ub.Take<D>(0);
        AscendC::AscendDequant<D, int32_t, float, kPolCfg, kPolToken>(
            ub.Get<D>(0), ub.Get<int32_t>(1), ub.Get<float>(2), ub.Get<float>(3),
            AscendC::AscendDeQuantParam{kM, kN, kM * kN, 0});
        pol = ub.Take<D>(0);
        std::memcpy(ub.Get<int8_t>(1).HostPtr(), x8.data(), x8.size());
        AscendC::AntiQuantize<kAqToken>(ub.Get<D>(0), ub.Get<int8_t>(1), ub.Get<float>(2),
                                        ub.Get<float>(2), AscendC::AntiQuantizeParams{kM, kN, 0});
        aq = ub.Take<D>(0);
      },
      k950);
  const bool sat = ctrl != Ctrl::kInfNan;
  const auto at = [&](uint32_t e) { return cases[e / kN]; };
  const auto at8 = [&](uint32_t e) { return Case{x8[e], cases[e / kN].s}; };
  ExpectOut(dq, kM * kN, at, sat, std::string("Dequantize ") + Name(ctrl));
  ExpectOut(pol, kM * kN, at, sat, std::string("AscendDequant policy ") + Name(ctrl));
  ExpectOut(aq, kM * kN, at8, sat, std::string("AntiQuantize ") + Name(ctrl));
}

TEST(QuantSaturation, PerTokenFormsFollowTheControlStateOn950) {
  for (Ctrl c : {Ctrl::kDefault, Ctrl::kInfNan, Ctrl::kPerInstruction}) {
    TokenForms<half>(c, kCases);
    TokenForms<bfloat16_t>(c, kBigCases);
  }
}

// AscendDequant (DequantParams, a scale per column: uint64 into half, float into bfloat16), and the
// scalar AscendAntiQuant into bfloat16 (one case per call): 2201's vector Cast and 3510's SatS
// register Cast.
template <typename D>
void OlderForms(const char* soc, Ctrl ctrl, const Case (&cases)[5]) {
  constexpr uint32_t m = 2;
  // half: uint64 scales (the float in the low word), the page's pair for a half destination
  using Sc = std::conditional_t<std::is_same_v<D, half>, uint64_t, float>;
  std::vector<int32_t> x(m * kN);
  std::vector<float> s(kN);
  std::vector<Sc> sc(kN);
  for (uint32_t e = 0; e < m * kN; ++e) x[e] = cases[e % kN % 5].x;
  for (uint32_t j = 0; j < kN; ++j) {
    s[j] = cases[j % 5].s;
    if constexpr (std::is_same_v<Sc, uint64_t>) {
      sc[j] = std::bit_cast<uint32_t>(s[j]);
    } else {
      sc[j] = s[j];
    }
  }
  std::vector<D> dq;
  std::vector<std::vector<bfloat16_t>> aq(5);
  OnBlock(
      [&](Ub& ub) {
        Apply(ctrl);
        ub.Put<int32_t>(1, x);
        ub.Put<Sc>(2, sc);
        AscendC::AscendDequant(ub.Get<D>(0), ub.Get<int32_t>(1), ub.Get<Sc>(2), ub.Get<uint8_t>(3),
                               {m, kN, kN});
        dq = ub.Take<D>(0);
        for (int c = 0; c < 5; ++c) {
          std::vector<int8_t> x8(256, Clamp8(cases[c].x));
          std::memcpy(ub.Get<int8_t>(1).HostPtr(), x8.data(), x8.size());
          AscendC::LocalTensor<int8_t> src = ub.Get<int8_t>(1);
          src.SetSize(256);
          AscendC::AscendAntiQuant<int8_t, bfloat16_t, false>(
              ub.Get<bfloat16_t>(0), src, bfloat16_t(cases[c].s), ub.Get<uint8_t>(3), 8);
          aq[c] = ub.Take<bfloat16_t>(0);
        }
      },
      soc);
  const bool sat = ctrl != Ctrl::kInfNan;
  const std::string what = std::string(soc) + " " + Name(ctrl);
  const auto at = [&](uint32_t e) { return Case{x[e], s[e % kN]}; };
  ExpectOut(dq, m * kN, at, sat, "AscendDequant " + what);
  for (int c = 0; c < 5; ++c) {
    const int32_t x8 = Clamp8(cases[c].x);
    const float sb = static_cast<float>(bfloat16_t(cases[c].s));
    ExpectOut(
        aq[c], 256,
        [&](uint32_t) {
          return Case{x8, sb};
        },
        sat, "AscendAntiQuant bf16 " + what + " case " + std::to_string(c));
  }
}

TEST(QuantSaturation, OlderFormsFollowTheControlStateOn2201And950) {
  for (Ctrl c : {Ctrl::kDefault, Ctrl::kInfNan}) {
    OlderForms<half>(k910B, c, kCases);
    OlderForms<bfloat16_t>(k910B, c, kBigCases);
  }
  for (Ctrl c : {Ctrl::kDefault, Ctrl::kInfNan, Ctrl::kPerInstruction}) {
    OlderForms<half>(k950, c, kCases);
    OlderForms<bfloat16_t>(k950, c, kBigCases);
  }
}

// Quantize PER_TENSOR from float into fp8_e5m2_t (its register Cast carries SatS): saturating,
// past 57344 the largest code and NaN code 0; not, +-inf (0x7C / 0xFC) and a NaN code.
constexpr AscendC::QuantizeConfig kQTensor = {AscendC::QuantizePolicy::PER_TENSOR, false,
                                              AscendC::RoundMode::CAST_RINT, -1};

TEST(QuantSaturation, QuantizeFp8FollowsTheControlStateOn950) {
  const std::vector<float> x = {1.0e6f, -1.0e6f, kInf, -kInf, kNaN, 3.0f, 0.0f, 1.0f};
  for (Ctrl c : {Ctrl::kDefault, Ctrl::kInfNan, Ctrl::kPerInstruction}) {
    std::vector<fp8_e5m2_t> got;
    OnBlock(
        [&](Ub& ub) {
          Apply(c);
          std::vector<float> in(32);
          for (size_t i = 0; i < in.size(); ++i) in[i] = x[i % x.size()];
          ub.Put<float>(1, in);
          AscendC::Quantize<kQTensor>(ub.Get<fp8_e5m2_t>(0), ub.Get<float>(1), 1.0f, 0.0f,
                                      AscendC::QuantizeParams{1, 32, 0});
          got = ub.Take<fp8_e5m2_t>(0);
        },
        k950);
    for (size_t i = 0; i < 32; ++i) {
      const float v = x[i % x.size()];
      const float g = Decode(got[i]);
      if (c == Ctrl::kInfNan && std::isnan(v)) {
        ASSERT_TRUE(std::isnan(g)) << Name(c) << " " << i;
      } else if (c == Ctrl::kInfNan && std::fabs(v) > 57344.0f) {
        ASSERT_EQ(g, std::copysign(kInf, v)) << Name(c) << " " << i;
      } else {
        ASSERT_EQ(got[i].bits, NearestCode<fp8_e5m2_t>(v, false)) << Name(c) << " " << i;
      }
    }
  }
}

}  // namespace
}  // namespace lngrad::adv::testing
