// AscendDequant, Dequantize, AscendAntiQuant and AntiQuantize (lib/quantization/) against the
// step model of the documented sequences (bit exact) and a float64 oracle with the bound of
// their roundings; the checked-mode refusals; the host scratch sizes field by field.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <string>
#include <random>
#include <type_traits>
#include <vector>

#include "quant_api_test_util.h"
#include "../aicore/checked_mode_scope.h"
#include "tiling/tiling_api.h"
#include "../aicore/sanitizer_off.h"

namespace lngrad::adv::testing {
namespace {

std::vector<int32_t> Ints(uint32_t seed, size_t n, int32_t lo, int32_t hi) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int32_t> d(lo, hi);
  std::vector<int32_t> v(n);
  for (int32_t& x : v) x = d(gen);
  return v;
}

// Dequant, float output: float(src) * scale (one float rounding; 2^-24 relative oracle bound).
TEST(QuantAscendDequant, FloatScaleShapesCalCountAndOverloads) {
  constexpr uint32_t m = 7, n = 40, cal = 24;
  const std::vector<int32_t> x = Ints(1, m * n, -100000, 100000);
  const std::vector<float> s = Uniform(2, n, -50.0f, 50.0f);
  for (int form = 0; form < 3; ++form) {
    std::vector<float> got;
    OnBlock([&](Ub& ub) {
      ub.Put<int32_t>(1, x);
      ub.Put<float>(2, s);
      if (form == 0) {
        AscendC::AscendDequant(ub.Get<float>(0), ub.Get<int32_t>(1), ub.Get<float>(2),
                               ub.Get<uint8_t>(3), {m, n, cal});
      } else if (form == 1) {
        AscendC::AscendDequant(ub.Get<float>(0), ub.Get<int32_t>(1), ub.Get<float>(2), {m, n, cal});
      } else {  // [size / 40, 40], the first 100 elements
        AscendC::LocalTensor<float> sc = ub.Get<float>(2);
        sc.SetSize(n);
        AscendC::AscendDequant(ub.Get<float>(0), ub.Get<int32_t>(1), sc, ub.Get<uint8_t>(3), 100u);
      }
      got = ub.Take<float>(0);
    });
    const uint32_t total = form == 2 ? 100 : m * n;
    const uint32_t scaled = form == 2 ? n : cal;
    for (uint32_t e = 0; e < total; ++e) {
      const float v = static_cast<float>(x[e]);
      const float want = e % n < scaled ? v * s[e % n] + 0.0f : v + 0.0f;
      ASSERT_EQ(Bits(got[e]), Bits(want)) << form << " " << e;
      const double exact = static_cast<double>(x[e]) * (e % n < scaled ? s[e % n] : 1.0);
      ASSERT_LE(std::fabs(got[e] - exact), std::ldexp(std::fabs(exact), -23)) << e;
    }
  }
}

TEST(QuantAscendDequant, HalfFromUint64ScaleAndBf16Outputs) {
  constexpr uint32_t m = 3, n = 24;  // half rows padded to 32
  const std::vector<int32_t> x = Ints(3, m * n, -3000, 3000);
  const std::vector<float> s = Uniform(4, n, -2.0f, 2.0f);
  std::vector<half> gotH;
  std::vector<bfloat16_t> gotB;
  OnBlock([&](Ub& ub) {
    ub.Put<int32_t>(1, x);
    uint64_t* u = ub.Get<uint64_t>(2).HostPtr();
    for (uint32_t j = 0; j < n; ++j) u[j] = (uint64_t{0xABCD} << 32) | Bits(s[j]);
    AscendC::AscendDequant(ub.Get<half>(0), ub.Get<int32_t>(1), ub.Get<uint64_t>(2), {m, n, n});
    gotH = ub.Take<half>(0);
    AscendC::AscendDequant<bfloat16_t, float>(ub.Get<bfloat16_t>(0), ub.Get<int32_t>(1), 0.375f,
                                              ub.Get<uint8_t>(3), {m, n, n});
    gotB = ub.Take<bfloat16_t>(0);
  });
  for (uint32_t r = 0; r < m; ++r) {
    for (uint32_t c = 0; c < n; ++c) {
      const float v = static_cast<float>(x[r * n + c]);
      ASSERT_EQ(Bits(gotH[r * 32 + c]), Bits(half(v * s[c]))) << r << " " << c;
      ASSERT_EQ(Bits(gotB[r * 32 + c]), Bits(bfloat16_t(v * 0.375f))) << r << " " << c;
    }
  }
}

constexpr AscendC::DequantizeConfig kDqChannel = {AscendC::DequantizePolicy::PER_CHANNEL, false, 1};
constexpr AscendC::DequantizeConfig kDqTensor = {AscendC::DequantizePolicy::PER_TENSOR, false, 1};

TEST(QuantDequantize, PerChannelAndPerTensorOn950) {
  constexpr uint32_t m = 9, n = 48;
  const std::vector<int32_t> x = Ints(5, m * n, -1000, 1000);
  const std::vector<float> s = Uniform(6, n, -9.0f, 9.0f);
  std::vector<float> ch, te;
  OnBlock(
      [&](Ub& ub) {
        ub.Put<int32_t>(1, x);
        ub.Put<float>(2, s);
        AscendC::Dequantize<kDqChannel>(ub.Get<float>(0), ub.Get<int32_t>(1), ub.Get<float>(2),
                                        ub.Get<float>(2), AscendC::DequantizeParams{m, n, 0});
        ch = ub.Take<float>(0);
        AscendC::Dequantize<kDqTensor>(ub.Get<float>(0), ub.Get<int32_t>(1), 2.5f, 0.0f,
                                       AscendC::DequantizeParams{m, n, 0});
        te = ub.Take<float>(0);
      },
      k950);
  for (uint32_t e = 0; e < m * n; ++e) {
    ASSERT_EQ(ch[e], static_cast<float>(x[e]) * s[e % n]) << e;
    ASSERT_EQ(te[e], static_cast<float>(x[e]) * 2.5f) << e;
  }
  ExpectCheck(
      [](Ub& ub) {
        AscendC::Dequantize<kDqTensor>(ub.Get<float>(0), ub.Get<int32_t>(1), 2.5f, 0.0f,
                                       AscendC::DequantizeParams{1, 8, 0});
      },
      "product", "Dequantize");
}

// int32 -> float rounding ties away from zero (the 3510 Cast).
float TiesAway(int32_t x) {
  const double d = x;
  if (std::fabs(d) < 16777216.0) return static_cast<float>(x);
  const double ulp = std::ldexp(1.0, std::ilogb(d) - 23);
  return static_cast<float>(std::round(d / ulp) * ulp);
}

constexpr AscendC::DequantizeConfig kDqToken = {AscendC::DequantizePolicy::PER_TOKEN, false, 1};
constexpr AscendC::DequantizeConfig kDqGroupRow = {AscendC::DequantizePolicy::PER_GROUP, false, 0};

TEST(QuantDequantize, PerTokenFloatSourceAndPerGroupRowsOn950) {
  constexpr uint32_t m = 70, n = 32;
  const std::vector<float> xf = Uniform(19, m * n, -500.0f, 500.0f);
  std::vector<int32_t> xi = Ints(20, m * n, -(1 << 26), 1 << 26);
  xi[0] = (1 << 24) + 1;  // a tie of the int32 -> float Cast: 3510 rounds it away from zero
  const std::vector<float> s = Uniform(21, 3 * n, -4.0f, 4.0f);
  std::vector<half> tok;
  std::vector<float> grp;
  OnBlock(
      [&](Ub& ub) {
        ub.Put<float>(1, xf);
        ub.Put<float>(2, s);
        AscendC::Dequantize<kDqToken>(ub.Get<half>(0), ub.Get<float>(1), ub.Get<float>(2),
                                      ub.Get<float>(2), AscendC::DequantizeParams{m, n, 0});
        tok = ub.Take<half>(0);
        ub.Put<int32_t>(1, xi);
        AscendC::Dequantize<kDqGroupRow>(ub.Get<float>(0), ub.Get<int32_t>(1), ub.Get<float>(2),
                                         ub.Get<float>(2), AscendC::DequantizeParams{m, n, 32});
        grp = ub.Take<float>(0);
      },
      k950);
  for (uint32_t e = 0; e < m * n; ++e) {
    ASSERT_EQ(Bits(tok[e]), Bits(half(xf[e] * s[e / n]))) << e;
    const float v = TiesAway(xi[e]);
    ASSERT_EQ(grp[e], v * s[(e / n / 32) * n + e % n]) << e;
  }
}

TEST(QuantAscendDequant, CheckedModeRules) {
  ExpectCheck(
      [](Ub& ub) {
        AscendC::AscendDequant(ub.Get<float>(0), ub.Get<int32_t>(1), ub.Get<float>(2),
                               {2u, 12u, 12u});
      },
      "quant_filter_arg", "multiple of 32 bytes");
  ExpectCheck(
      [](Ub& ub) {
        AscendC::LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(3);
        tmp.SetSize(64);
        AscendC::AscendDequant(ub.Get<float>(0), ub.Get<int32_t>(1), ub.Get<float>(2), tmp,
                               {2u, 32u, 32u});
      },
      "tmp_buffer", "256");
}

// AntiQuant, 2201 half: half(src) + half offset, * half scale, each rounded to half; 950 and
// bf16: in float, rounded once. Oracle bound: 2^-10 relative per half rounding, two roundings.
template <typename D, bool transpose>
void AntiQuantCase(const char* soc, uint32_t K = 64) {
  // N 48: the half path without transpose with an offset steps rows by N * 2 / 32 blocks, so
  // checked mode refuses N not a multiple of 16 (its rows would overlap).
  constexpr uint32_t N = 48, G = 2;
  std::vector<int8_t> x(K * N);
  std::mt19937 gen(8);
  for (int8_t& v : x) v = static_cast<int8_t>(static_cast<int>(gen() % 256) - 128);
  const std::vector<float> of = Uniform(9, G * N, -10.0f, 10.0f),
                           sc = Uniform(10, G * N, -4.0f, 4.0f);
  std::vector<D> got;
  OnBlock(
      [&](Ub& ub) {
        std::memcpy(ub.Get<int8_t>(1).HostPtr(), x.data(), x.size());
        AscendC::LocalTensor<D> off = ub.Get<D>(2), scl = ub.Get<D>(2)[1024];
        for (uint32_t i = 0; i < G * N; ++i) {
          off.HostPtr()[i] = D(of[i]);
          scl.HostPtr()[i] = D(sc[i]);
        }
        AscendC::LocalTensor<int8_t> src = ub.Get<int8_t>(1);
        src.SetSize(K * N);
        AscendC::AntiQuantShapeInfo info{transpose ? N : G, transpose ? G : N, transpose ? N : G,
                                         transpose ? G : N};
        AscendC::AscendAntiQuant<int8_t, D, transpose>(ub.Get<D>(0), src, off, scl,
                                                       ub.Get<uint8_t>(3), K, info);
        got = ub.Take<D>(0);
      },
      soc);
  const bool halfSteps = std::is_same_v<D, half> && std::string(soc) == k910B;
  // 2201 bfloat16 not transposed: the scale tensor (to the buffer's end) asks more
  // sharedTmpBuffer than the performance path gets, so AntiQuantNoTransposeImplScalar runs: rows
  // below K / G only (the rest keep the zeroed UB), each with the offset's and scale's row 0
  // (replay.AntiQuantFallbackReplay.Bf16NoTransposeRunsTheFirstRowsWithRowZero).
  const bool ntFallback = std::is_same_v<D, bfloat16_t> && !transpose;
  for (uint32_t i = 0; i < K * N; ++i) {
    const uint32_t r = i / (transpose ? K : N), c = i % (transpose ? K : N);
    const uint32_t k = transpose ? c : r, nn = transpose ? r : c;
    if (ntFallback && k >= K / G) {
      ASSERT_EQ(Bits(got[i]), 0u) << soc << " " << i << ": a row the fallback does not write";
      continue;
    }
    // 2201 half: the toolkit's performance (not transposed) and Brcb (transposed) paths take
    // element n of offset and scale, not the groups (ascend_antiquant_impl.h).
    const uint32_t idx = halfSteps || ntFallback ? nn
                         : transpose             ? nn * G + k / (K / G)
                                                 : (k / (K / G)) * N + nn;
    const float o = static_cast<float>(D(of[idx])), s = static_cast<float>(D(sc[idx]));
    D want = halfSteps ? D(static_cast<float>(half(static_cast<float>(half(x[i] + o)) * s)))
                       : D((static_cast<float>(x[i]) + o) * s);
    ASSERT_EQ(Bits(got[i]), Bits(want)) << soc << " " << i;
    const double exact = (x[i] + static_cast<double>(o)) * s;
    const double rel = std::is_same_v<D, half> ? std::ldexp(1.0, -10) : std::ldexp(1.0, -7);
    ASSERT_LE(std::fabs(static_cast<float>(got[i]) - exact),
              rel * (std::fabs(exact) + std::fabs((std::fabs(x[i]) + std::fabs(o)) * s)) + 1e-7)
        << i;
  }
}

// The 950's forms with an offset hold no groups (ascend_antiquant_3510_impl.h; tested in
// quant_api_older950_test.cpp); 2201's paths are the ones above.
TEST(QuantAscendAntiQuant, PerGroupHalfAndBf16TransposedOrNotOn2201) {
  for (const char* soc : {k910B}) {
    AntiQuantCase<half, false>(soc);
    AntiQuantCase<half, true>(soc);
    AntiQuantCase<bfloat16_t, false>(soc);
    // Transposed bfloat16 with k a multiple of 64 runs 2201's Brcb path, row n taking element n
    // (replay.AntiQuantBf16TransposeReplay.*); other k the groups (AntiQuantImplScalar).
    AntiQuantCase<bfloat16_t, true>(soc, 96);
  }
}

TEST(QuantAscendAntiQuant, ScalarFormsInt4SourceWithAndWithoutOffset) {
  constexpr uint32_t n = 256;
  std::vector<half> withOff, scaleOnly;
  OnBlock([&](Ub& ub) {
    uint8_t* p = ub.Get<uint8_t>(1).HostPtr();
    for (uint32_t i = 0; i < n / 2; ++i) {  // element 2i in the low nibble
      p[i] = static_cast<uint8_t>(((2 * i) % 16) | (((2 * i + 1) % 16) << 4));
    }
    AscendC::LocalTensor<AscendC::int4b_t> src = ub.Get<AscendC::int4b_t>(1);
    src.SetSize(n);
    AscendC::AscendAntiQuant<AscendC::int4b_t, half, false>(ub.Get<half>(0), src, half(1.5f),
                                                            half(-0.75f), ub.Get<uint8_t>(3), 8);
    withOff = ub.Take<half>(0);
    AscendC::AscendAntiQuant<AscendC::int4b_t, half, false>(ub.Get<half>(0), src, half(3.0f),
                                                            ub.Get<uint8_t>(3), 8);
    scaleOnly = ub.Take<half>(0);
  });
  for (uint32_t i = 0; i < n; ++i) {
    const int v = static_cast<int>(i % 16) - ((i % 16) >= 8 ? 16 : 0);  // two's complement nibble
    ASSERT_EQ(Bits(withOff[i]), Bits(half(static_cast<float>(half(v + 1.5f)) * -0.75f))) << i;
    ASSERT_EQ(Bits(scaleOnly[i]), Bits(half(v * 3.0f))) << i;
  }
}

constexpr AscendC::AntiQuantizeConfig kAqChannel = {AscendC::AntiQuantizePolicy::PER_CHANNEL, true,
                                                    -1};

TEST(QuantAntiQuantize, PerChannelFloatSequenceOn950) {
  constexpr uint32_t m = 6, n = 96;
  std::vector<int8_t> x(m * n);
  for (uint32_t i = 0; i < m * n; ++i) x[i] = static_cast<int8_t>(i * 37 % 256 - 128);
  const std::vector<float> of = Uniform(12, n, -10.0f, 10.0f), sc = Uniform(13, n, -10.0f, 10.0f);
  std::vector<half> got;
  OnBlock(
      [&](Ub& ub) {
        std::memcpy(ub.Get<int8_t>(1).HostPtr(), x.data(), x.size());
        ub.Put<half>(2, As<half>(sc));
        ub.Put<half>(3, As<half>(of));
        AscendC::AntiQuantize<kAqChannel>(ub.Get<half>(0), ub.Get<int8_t>(1), ub.Get<half>(2),
                                          ub.Get<half>(3), AscendC::AntiQuantizeParams{m, n, 0});
        got = ub.Take<half>(0);
      },
      k950);
  for (uint32_t i = 0; i < m * n; ++i) {
    const float o = static_cast<float>(half(of[i % n])), s = static_cast<float>(half(sc[i % n]));
    ASSERT_EQ(Bits(got[i]), Bits(half((x[i] + o) * s))) << i;
  }
}

constexpr AscendC::AntiQuantizeConfig kAqToken = {AscendC::AntiQuantizePolicy::PER_TOKEN, false, 1};
constexpr AscendC::AntiQuantizeConfig kAqGroup = {AscendC::AntiQuantizePolicy::PER_GROUP, true, 1};

TEST(QuantAntiQuantize, PerTokenAndPerGroupBf16On950) {
  constexpr uint32_t m = 5, n = 64, g = 32;
  std::vector<int8_t> x(m * n);
  for (uint32_t i = 0; i < m * n; ++i) x[i] = static_cast<int8_t>(i * 53 % 256 - 128);
  const std::vector<float> sc = Uniform(17, 64, -3.0f, 3.0f), of = Uniform(18, 64, -5.0f, 5.0f);
  std::vector<bfloat16_t> tok, grp;
  OnBlock(
      [&](Ub& ub) {
        std::memcpy(ub.Get<int8_t>(1).HostPtr(), x.data(), x.size());
        ub.Put<bfloat16_t>(2, As<bfloat16_t>(sc));
        ub.Put<bfloat16_t>(3, As<bfloat16_t>(of));
        AscendC::AntiQuantize<kAqToken>(ub.Get<bfloat16_t>(0), ub.Get<int8_t>(1),
                                        ub.Get<bfloat16_t>(2), ub.Get<bfloat16_t>(3),
                                        AscendC::AntiQuantizeParams{m, n, 0});
        tok = ub.Take<bfloat16_t>(0);
        AscendC::AntiQuantize<kAqGroup>(ub.Get<bfloat16_t>(0), ub.Get<int8_t>(1),
                                        ub.Get<bfloat16_t>(2), ub.Get<bfloat16_t>(3),
                                        AscendC::AntiQuantizeParams{m, n, g});
        grp = ub.Take<bfloat16_t>(0);
      },
      k950);
  auto bf = [](float v) { return static_cast<float>(bfloat16_t(v)); };
  for (uint32_t i = 0; i < m; ++i) {
    for (uint32_t j = 0; j < n; ++j) {
      const uint32_t e = i * n + j, c = i * 2 + j / g;
      ASSERT_EQ(Bits(tok[e]), Bits(bfloat16_t(x[e] * bf(sc[i])))) << e;
      ASSERT_EQ(Bits(grp[e]), Bits(bfloat16_t((x[e] + bf(of[c])) * bf(sc[c])))) << e;
    }
  }
}

// The 8-bit float sources (950): each code decoded exactly (its value from fp8.h's decoder, which
// tests/simt/math_fp8_test.cpp checks against every code built field by field), then the float
// sequence; float parameters per token / per group, and float destinations.
// The destination cast's saturation (the block's default overflow mode, the vendor's SatS):
// beyond the half range +-65504, NaN +0.
half SatHalf(float x) {
  if (std::isnan(x)) return half(0.0f);
  const half h(x);
  if (std::isinf(static_cast<float>(h))) return half(x > 0 ? 65504.0f : -65504.0f);
  return h;
}

template <typename S>
void CheckFp8AntiQuantize() {
  constexpr uint32_t m = 4, n = 64;  // every code once
  std::vector<uint8_t> x(m * n);
  for (uint32_t i = 0; i < m * n; ++i) x[i] = static_cast<uint8_t>(i * 7 % 256);
  const std::vector<float> sc = Uniform(21, n, -3.0f, 3.0f), of = Uniform(22, n, -5.0f, 5.0f);
  std::vector<half> chan, tokHalf;
  std::vector<float> tokFloat;
  OnBlock(
      [&](Ub& ub) {
        std::memcpy(ub.Get<uint8_t>(1).HostPtr(), x.data(), x.size());
        const AscendC::LocalTensor<S> src = ub.Get<uint8_t>(1).template ReinterpretCast<S>();
        ub.Put<half>(2, As<half>(sc));
        ub.Put<half>(3, As<half>(of));
        AscendC::AntiQuantize<kAqChannel>(ub.Get<half>(0), src, ub.Get<half>(2), ub.Get<half>(3),
                                          AscendC::AntiQuantizeParams{m, n, 0});
        chan = ub.Take<half>(0);
        ub.Put<float>(2, sc);  // per token: the first m scales, float
        AscendC::AntiQuantize<kAqToken>(ub.Get<half>(0), src, ub.Get<float>(2), ub.Get<float>(3),
                                        AscendC::AntiQuantizeParams{m, n, 0});
        tokHalf = ub.Take<half>(0);
        AscendC::AntiQuantize<kAqToken>(ub.Get<float>(0), src, ub.Get<float>(2), ub.Get<float>(3),
                                        AscendC::AntiQuantizeParams{m, n, 0});
        tokFloat = ub.Take<float>(0);
      },
      k950);
  for (uint32_t i = 0; i < m * n; ++i) {
    const float v = static_cast<float>(S::FromBits(x[i]));
    const float o = static_cast<float>(half(of[i % n])), s = static_cast<float>(half(sc[i % n]));
    ASSERT_EQ(Bits(chan[i]), Bits(SatHalf((v + o) * s))) << i;
    const float t = v * sc[i / n];
    ASSERT_EQ(Bits(tokHalf[i]), Bits(SatHalf(t))) << i;
    ASSERT_TRUE(tokFloat[i] == t || (std::isnan(t) && std::isnan(tokFloat[i]))) << i;
  }
}

TEST(QuantAntiQuantize, EightBitFloatSourcesOn950) {
  CheckFp8AntiQuantize<hifloat8_t>();
  CheckFp8AntiQuantize<fp8_e5m2_t>();
  CheckFp8AntiQuantize<fp8_e4m3fn_t>();
}

// AntiQuantize PER_GROUP from fp4 with fp8_e8m0 scales (950). The replay, written from a
// separate reading of ascend_antiquant_3510_impl.h's AntiQuantPerGroupFor{Col,Row}Fp4 (same
// author as the implementation): the code's value from quant_api_test_util.h's tables, the scale
// byte b as 2^(b - 127) (b = 0: the bfloat16 0x0040, 2^-127; 0xFF: NaN), their product rounded
// to bfloat16, then to half with SatS. Oracle: the product of a 3-bit significand and a power
// of 2 is exact in bfloat16 inside its normal range, so |out - x 2^(b-127)| <= u |E| + 2^-25
// with u = 0 (bfloat16) or 2^-11 (half), below half's / bfloat16's largest value.
template <typename S>
float Fp4Value(uint8_t code) {
  const float* mag = std::is_same_v<S, fp4x2_e1m2_t> ? kE1m2 : kE2m1;
  return (code & 0x8) != 0 ? -mag[code & 7] : mag[code & 7];
}

double E8m0Value(uint8_t b) {
  if (b == 0xFF) return NAN;
  return std::ldexp(1.0, static_cast<int>(b) - 127);  // b = 0: 2^-127, the same as 0x0040
}

template <typename D>
float ReplayFp4Anti(float x, double s) {
  const float p = static_cast<float>(bfloat16_t(static_cast<float>(x * s)));
  if constexpr (std::is_same_v<D, half>) {
    if (std::isnan(p)) return 0.0f;
    const float h = static_cast<float>(half(p));  // beyond 65504 (or infinite): saturated
    return std::isinf(h) ? (h > 0 ? 65504.0f : -65504.0f) : h;
  }
  return p;
}

constexpr AscendC::AntiQuantizeConfig kAqFp4K1 = {AscendC::AntiQuantizePolicy::PER_GROUP, false, 1};
constexpr AscendC::AntiQuantizeConfig kAqFp4K0 = {AscendC::AntiQuantizePolicy::PER_GROUP, false, 0};

template <typename D, typename S, const AscendC::AntiQuantizeConfig& cfg>
void Fp4Anti(uint32_t m, uint32_t n, uint32_t g) {
  const uint32_t count = m * n;
  const size_t nsc = cfg.kDim == 1 ? size_t{m} * ((n + g - 1) / g) : size_t{(m + g - 1) / g} * n;
  std::vector<uint8_t> src(count / 2), sc(nsc);
  std::mt19937 gen(71 + g);
  for (uint8_t& b : src) b = static_cast<uint8_t>(gen());
  for (uint8_t& b : sc) b = static_cast<uint8_t>(100 + gen() % 50);
  sc[0] = 0x00;
  sc[1] = 0xFF;
  sc[2] = 254;  // 2^127: beyond half; beyond bfloat16 with codes of 2 and up
  std::vector<D> got;
  OnBlock(
      [&](Ub& ub) {
        ub.Put<uint8_t>(1, src);
        ub.Put<uint8_t>(2, sc);
        AscendC::AntiQuantize<cfg>(ub.Get<D>(0), ub.Get<S>(1), ub.Get<fp8_e8m0_t>(2),
                                   ub.Get<fp8_e8m0_t>(3), AscendC::AntiQuantizeParams{m, n, g});
        got = ub.Take<D>(0);
      },
      k950);
  for (uint32_t e = 0; e < count; ++e) {
    const uint32_t i = e / n, j = e % n;
    const size_t c = cfg.kDim == 1 ? size_t{i} * ((n + g - 1) / g) + j / g : size_t{i / g} * n + j;
    const float x = Fp4Value<S>((src[e / 2] >> (e % 2 == 0 ? 0 : 4)) & 0xF);
    const float want = ReplayFp4Anti<D>(x, E8m0Value(sc[c]));
    const float v = static_cast<float>(got[e]);
    ASSERT_TRUE(std::isnan(want) ? std::isnan(v) : Bits(got[e]) == Bits(D(want)))
        << "kDim " << cfg.kDim << " g " << g << " element " << e << ": " << v << " vs " << want;
    const double exact = x * E8m0Value(sc[c]);
    const double maxv = std::is_same_v<D, half> ? 65504.0 : 3.38e38;
    if (std::isnan(exact) || std::fabs(exact) >= maxv) continue;
    const double u = std::is_same_v<D, half> ? 0x1p-11 : 0.0;
    ASSERT_LE(std::fabs(v - exact), u * std::fabs(exact) + 0x1p-25) << "element " << e;
  }
}

template <typename D, typename S>
void Fp4AntiShapes() {
  for (uint32_t g : {32u, 64u}) {
    Fp4Anti<D, S, kAqFp4K1>(70, 128, g);
    Fp4Anti<D, S, kAqFp4K0>(70, 128, g);
  }
}

TEST(QuantAntiQuantize, Fp4SourcesWithE8m0ScalesPerGroupOn950) {
  Fp4AntiShapes<half, fp4x2_e2m1_t>();
  Fp4AntiShapes<half, fp4x2_e1m2_t>();
  Fp4AntiShapes<bfloat16_t, fp4x2_e2m1_t>();
  Fp4AntiShapes<bfloat16_t, fp4x2_e1m2_t>();
  ExpectCheck(
      [](Ub& ub) {
        AscendC::AntiQuantize<kAqFp4K1>(ub.Get<half>(0), ub.Get<fp4x2_e2m1_t>(1),
                                        ub.Get<fp8_e8m0_t>(2), ub.Get<fp8_e8m0_t>(3),
                                        AscendC::AntiQuantizeParams{4, 96, 32});
      },
      "quant_filter_arg", "multiple of 64", k950);
  ExpectCheck(
      [](Ub& ub) {
        AscendC::AntiQuantize<kAqFp4K0>(ub.Get<half>(0), ub.Get<fp4x2_e1m2_t>(1),
                                        ub.Get<fp8_e8m0_t>(2), ub.Get<fp8_e8m0_t>(3),
                                        AscendC::AntiQuantizeParams{4, 128, 16});
      },
      "quant_filter_arg", "groupSize 16", k950);
}

// AscendAntiQuant from fp4 with fp8_e8m0 scales (950). Replay written from a separate reading of
// ascend_antiquant_3510_impl.h (same author as the implementation): AscendAntiQuantNoTranspose
// walks ceil(k / 32) groups of 32 rows (rows past k included), row r scaled by scale row r / 32;
// ProcessByLine takes both operands to half (SatS: NaN -> 0, beyond 65504 -> 65504) and
// multiplies in half (one rounding, infinite past 65504), or multiplies in bfloat16.
// AscendAntiQuantTranspose converts every 32nd element's scale (CastScale) and
// AntiQuantProcessByNum makes ceil(count / 128) / 2 passes of 256 (one for a single repeat): with
// an odd repeat count the last 128 elements stay as they were. Oracle (normal range): bfloat16
// exact, half 2^-11 relative plus 2^-25 (the half scale is exact when 2^-24 <= s <= 2^15).
float HalfSatS(double v) {
  if (std::isnan(v)) return 0.0f;
  const float h = static_cast<float>(half(static_cast<float>(v)));
  return std::isinf(h) ? (h > 0 ? 65504.0f : -65504.0f) : h;
}

template <typename D>
float ReplayAscendFp4(float x, double s) {
  if constexpr (std::is_same_v<D, half>) {
    // the Mul is not a Cast: an overflow gives infinity
    return static_cast<float>(half(HalfSatS(x) * HalfSatS(s)));
  } else {
    return static_cast<float>(bfloat16_t(static_cast<float>(x * s)));
  }
}

template <typename D>
void ExpectAscendFp4(D got, float x, double s, const std::string& what) {
  const float want = ReplayAscendFp4<D>(x, s);
  ASSERT_TRUE(std::isnan(want) ? std::isnan(static_cast<float>(got)) : Bits(got) == Bits(D(want)))
      << what << ": " << static_cast<float>(got) << " vs " << want;
  const double e = x * s;
  const bool inRange = std::is_same_v<D, half>
                           ? (s >= 0x1p-24 && s <= 0x1p15 && std::fabs(e) < 65504)
                           : std::isfinite(e);
  if (!inRange) return;
  const double u = std::is_same_v<D, half> ? 0x1p-11 : 0.0;
  ASSERT_LE(std::fabs(static_cast<float>(got) - e), u * std::fabs(e) + 0x1p-25) << what;
}

template <typename D, typename S>
void AscendFp4(bool transposed, uint32_t k, uint32_t n) {
  const uint32_t rows = transposed ? n : (k + 31) / 32 * 32;
  const uint32_t count = transposed ? n * k : rows * n;
  const size_t nsc = transposed ? size_t{n} * k / 32 : size_t{rows} / 32 * n;
  std::vector<uint8_t> src(count / 2), sc(nsc);
  std::mt19937 gen(81 + k + n);
  for (uint8_t& b : src) b = static_cast<uint8_t>(gen());
  for (uint8_t& b : sc) b = static_cast<uint8_t>(110 + gen() % 30);
  // Zero, NaN and 2^15 (the largest power of 2 in half) as the first scales, where there are as
  // many.
  const uint8_t specials[] = {0x00, 0xFF, 142};
  for (size_t i = 0; i < std::min(sc.size(), std::size(specials)); ++i) sc[i] = specials[i];
  std::vector<D> got;
  OnBlock(
      [&](Ub& ub) {
        ub.Put<uint8_t>(1, src);
        ub.Put<uint8_t>(2, sc);
        ub.Put<D>(0, std::vector<D>(count, D(7.0f)));
        AscendC::AntiQuantShapeInfo info;
        info.scaleHeight = transposed ? n : 0;
        info.scaleWidth = transposed ? 0 : n;
        if (transposed) {
          AscendC::AscendAntiQuant<S, D, true>(ub.Get<D>(0), ub.Get<S>(1), ub.Get<fp8_e8m0_t>(2),
                                               ub.Get<uint8_t>(3), k, info);
        } else {
          AscendC::AscendAntiQuant<S, D, false>(ub.Get<D>(0), ub.Get<S>(1), ub.Get<fp8_e8m0_t>(2),
                                                ub.Get<uint8_t>(3), k, info);
        }
        got = ub.Take<D>(0);
      },
      k950);
  const uint32_t repeats = (count + 127) / 128;
  const uint32_t done =
      transposed ? std::min(count, (repeats == 1 ? 1 : repeats / 2) * 256) : count;
  for (uint32_t e = 0; e < count; ++e) {
    const std::string what = std::string(transposed ? "transposed" : "rows") + " k " +
                             std::to_string(k) + " n " + std::to_string(n) + " element " +
                             std::to_string(e);
    if (e >= done) {
      ASSERT_EQ(static_cast<float>(got[e]), 7.0f) << what << " (not written by the source)";
      continue;
    }
    const size_t c = transposed ? e / 32 : size_t{e / n / 32} * n + e % n;
    const float x = Fp4Value<S>((src[e / 2] >> (e % 2 == 0 ? 0 : 4)) & 0xF);
    ExpectAscendFp4<D>(got[e], x, E8m0Value(sc[c]), what);
  }
}

// One block of arch 3510 without the Ub helper's buffers (the cases below need most of the UB).
void OnBare950(const std::function<void()>& body) {
  lngrad::aicore::LaunchOptions o;
  o.soc = k950;
  const lngrad::Status st = lngrad::aicore::Launch(1, body, o);
  EXPECT_TRUE(st.ok()) << st.ToString();
}

// Not transposed, rows past 65536 / n1: the source (AscendAntiQuantNoTranspose, a separate
// reading) keeps the row's element offset i * 32 * n + j * n in a uint16_t srcAddrCount and
// halves it for the fp4 types, so row r reads its codes from byte ((r * n1) mod 65536) / 2;
// the destination row r * n1 and the scale row (r / 32) * n1 are not truncated. k = 50 gives
// rows 0..63 (the second group's rows past k too); n1 = 1088 puts rows 61..63 past 65536.
template <typename D, typename S>
void AscendFp4SixteenBitOffset() {
  constexpr uint32_t k = 50, n1 = 1088, rows = 64, count = rows * n1;
  static_assert(61 * n1 >= 65536 && 60 * n1 < 65536);
  std::vector<uint8_t> src(count / 2), sc(rows / 32 * n1);
  std::mt19937 gen(97);
  for (uint8_t& b : src) b = static_cast<uint8_t>(gen());
  for (uint8_t& b : sc) b = static_cast<uint8_t>(112 + gen() % 24);
  std::vector<D> got(count);
  OnBare950([&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<> bd, bs, bc, bt;
    pipe.InitBuffer(bd, count * sizeof(D));
    pipe.InitBuffer(bs, count / 2);
    pipe.InitBuffer(bc, (sc.size() + 31) / 32 * 32);
    pipe.InitBuffer(bt, 32);
    std::memcpy(bs.Get<uint8_t>().HostPtr(), src.data(), src.size());
    std::memcpy(bc.Get<uint8_t>().HostPtr(), sc.data(), sc.size());
    AscendC::AntiQuantShapeInfo info;
    info.scaleWidth = n1;
    // the source as the buffer's bytes, two codes each (TBuf::Get<S>() spans half of them here)
    AscendC::AscendAntiQuant<S, D, false>(bd.Get<D>(), bs.Get<uint8_t>().ReinterpretCast<S>(),
                                          bc.Get<fp8_e8m0_t>(), bt.Get<uint8_t>(), k, info);
    std::memcpy(got.data(), bd.Get<D>().HostPtr(), count * sizeof(D));
  });
  for (uint32_t r = 0; r < rows; ++r) {
    const uint32_t firstByte = static_cast<uint16_t>(r * n1) / 2;
    for (uint32_t c = 0; c < n1; ++c) {
      const uint32_t code = firstByte * 2 + c;
      const float x = Fp4Value<S>((src[code / 2] >> (code % 2 == 0 ? 0 : 4)) & 0xF);
      ExpectAscendFp4<D>(got[r * n1 + c], x, E8m0Value(sc[(r / 32) * n1 + c]),
                         "row " + std::to_string(r) + " column " + std::to_string(c));
    }
  }
}

// Transposed with a one-element scale (AscendAntiQuantTranspose's scale.GetSize() == 1 branch, a
// separate reading): B = sharedTmpBuffer's bytes rounded up to 32 (over sizeof(SrcType) = 1);
// chunk i of min(B, rest) elements converts the scales from element i * B of the scale tensor
// (CastScale reads past its one element), reads the codes from byte i * B of the source (element
// 2 i B) and writes dst from element i * B; element l of a chunk takes scale l / 32; a chunk of
// R = ceil(len / 128) repeats makes (R == 1 ? 1 : R / 2) passes of 256, so with B = 384 (three
// repeats) its last 128 elements stay unwritten. The last chunk (256) is written whole.
template <typename D, typename S>
void AscendFp4OneElementScale() {
  constexpr uint32_t k = 256, n = 4, count = n * k, b = 384;
  std::vector<uint8_t> src(count), sc(1024);  // the bytes the chunks read past the ends
  std::mt19937 gen(98);
  for (uint8_t& v : src) v = static_cast<uint8_t>(gen());
  for (uint8_t& v : sc) v = static_cast<uint8_t>(112 + gen() % 24);
  std::vector<D> got;
  const auto run = [&](Ub& ub) {
    ub.Put<uint8_t>(1, src);
    ub.Put<uint8_t>(2, sc);
    ub.Put<D>(0, std::vector<D>(count, D(7.0f)));
    AscendC::LocalTensor<fp8_e8m0_t> scale = ub.Get<fp8_e8m0_t>(2);
    scale.SetSize(1);
    AscendC::LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(3);
    tmp.SetSize(b - 20);  // rounded up to 384
    AscendC::AntiQuantShapeInfo info;
    info.scaleHeight = n;
    AscendC::AscendAntiQuant<S, D, true>(ub.Get<D>(0), ub.Get<S>(1), scale, tmp, k, info);
    got = ub.Take<D>(0);
  };
  // Checked mode reports the reads past the one-element scale; unchecked, the device's values.
  ExpectCheck(run, "tensor_bounds", "AscendAntiQuant scale", k950);
  {
    const lngrad::aicore::test::CheckedModeScope unchecked(false);
    OnBlock(run, k950);
  }
  for (uint32_t first = 0; first < count; first += b) {
    const uint32_t len = std::min(b, count - first);
    const uint32_t reps = (len + 127) / 128;
    const uint32_t written = std::min(len, (reps == 1 ? 1 : reps / 2) * 256);
    for (uint32_t l = 0; l < len; ++l) {
      const std::string what =
          "chunk at " + std::to_string(first) + " element " + std::to_string(l);
      if (l >= written) {
        ASSERT_EQ(static_cast<float>(got[first + l]), 7.0f) << what << " (not written)";
        continue;
      }
      const uint32_t code = 2 * first + l;
      const float x = Fp4Value<S>((src[code / 2] >> (code % 2 == 0 ? 0 : 4)) & 0xF);
      ExpectAscendFp4<D>(got[first + l], x, E8m0Value(sc[first + l / 32]), what);
    }
  }
}

TEST(QuantAscendAntiQuant, Fp4SixteenBitSourceOffsetAndOneElementScaleOn950) {
  AscendFp4SixteenBitOffset<half, fp4x2_e2m1_t>();
  AscendFp4SixteenBitOffset<bfloat16_t, fp4x2_e1m2_t>();
  AscendFp4OneElementScale<half, fp4x2_e1m2_t>();
  AscendFp4OneElementScale<bfloat16_t, fp4x2_e2m1_t>();
}

template <typename D, typename S>
void AscendFp4Shapes() {
  AscendFp4<D, S>(false, 70, 128);  // rows 70..95 of the last group too
  AscendFp4<D, S>(false, 64, 64);
  AscendFp4<D, S>(true, 128, 3);  // 384 elements: 3 repeats, one pass, the last 128 unwritten
  AscendFp4<D, S>(true, 128, 4);
  AscendFp4<D, S>(true, 64, 1);
}

TEST(QuantAscendAntiQuant, Fp4SourcesWithE8m0ScalesOn950) {
  AscendFp4Shapes<half, fp4x2_e2m1_t>();
  AscendFp4Shapes<half, fp4x2_e1m2_t>();
  AscendFp4Shapes<bfloat16_t, fp4x2_e2m1_t>();
  AscendFp4Shapes<bfloat16_t, fp4x2_e1m2_t>();
  ExpectCheck(
      [](Ub& ub) {
        AscendC::AscendAntiQuant<fp4x2_e2m1_t, half, true>(ub.Get<half>(0), ub.Get<fp4x2_e2m1_t>(1),
                                                           ub.Get<fp8_e8m0_t>(2), 96, {});
      },
      "quant_filter_arg", "32-byte aligned", k950);
  ExpectCheck(
      [](Ub& ub) {
        AscendC::AscendAntiQuant<fp4x2_e2m1_t, half, false>(
            ub.Get<half>(0), ub.Get<fp4x2_e2m1_t>(1), ub.Get<fp8_e8m0_t>(2), 64, {});
      },
      "product", "Ascend 950", k910B);
}

TEST(QuantTiling, DequantAndAntiQuantSizes) {
  uint32_t mx = 0, mn = 0, live = 0, extra = 0;
  AscendC::GetAscendDequantMaxMinTmpSize(ge::Shape({128, 32}), 4, mx, mn);
  EXPECT_EQ(mx, (64u + 128u * 32u + 40u) * 4u);
  EXPECT_EQ(mn, (64u + 32u + 40u) * 4u);
  AscendC::GetDequantizeMaxMinTmpSize(ge::Shape({100}), 4, mx, mn);
  EXPECT_EQ(mx, (64u + 100u + 108u) * 4u);
  EXPECT_EQ(mn, mx);
  AscendC::GetAscendDequantTmpBufferFactorSize(ge::Shape({5, 24}), live, extra);
  EXPECT_EQ(live, 1u);
  EXPECT_EQ(extra, 96u);
  AscendC::GetAscendDequantTmpBufferFactorSize(ge::Shape({24}), live, extra);
  EXPECT_EQ(live, 2u);
  EXPECT_EQ(extra, 72u);
  using ge::DT_BF16;
  using ge::DT_FLOAT16;
  using ge::DT_INT8;
  AscendC::GetAscendAntiQuantMaxMinTmpSize(ge::Shape({1024}), ge::Shape({128}), false, DT_INT8,
                                           DT_FLOAT16, mx, mn);
  EXPECT_EQ(mx, 0u);
  EXPECT_EQ(mn, 0u);
  AscendC::GetAscendAntiQuantMaxMinTmpSize(ge::Shape({64, 40}), ge::Shape({2, 40}), false, DT_INT8,
                                           DT_BF16, mx, mn);
  EXPECT_EQ(mx, 80u * 2 * 4 + 64u * 64 * 4);
  EXPECT_EQ(mn, mx);
  AscendC::GetAscendAntiQuantMaxMinTmpSize(ge::Shape({40, 64}), ge::Shape({40, 2}), true, DT_INT8,
                                           DT_BF16, mx, mn);
  EXPECT_EQ(mx, 80u * 80 * 4);
  AscendC::GetAscendAntiQuantMaxMinTmpSize(ge::Shape({40, 64}), ge::Shape({1}), true, DT_INT8,
                                           DT_BF16, mx, mn);
  EXPECT_EQ(mx, 40u * 64 * 4);
  EXPECT_EQ(mn, 1024u);
  AscendC::GetAscendAntiQuantTmpBufferFactorSize(ge::Shape({40, 64}), ge::Shape({1}), true, DT_INT8,
                                                 DT_BF16, live, extra);
  EXPECT_EQ(live, 1u);
  EXPECT_EQ(extra, 0u);
  AscendC::GetAntiQuantizeMaxMinTmpSize(ge::Shape({8, 128}), ge::Shape({128}), false, DT_INT8,
                                        DT_FLOAT16, mx, mn);
  EXPECT_EQ(mx + mn, 0u);
}

}  // namespace
}  // namespace lngrad::adv::testing
