// AscendQuant and Quantize (lib/quantization/ascend_quant.h) against the step model of the
// documented sequence (bit exact) and a float64 oracle with the bound of its roundings; the
// checked-mode refusals; the host scratch sizes field by field.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "quant_api_test_util.h"
#include "tiling/tiling_api.h"
#include "../aicore/sanitizer_off.h"

namespace lngrad::adv::testing {
namespace {

constexpr uint32_t kCount = 1000;  // not a multiple of 64 or 128: a tail

// The 2201 sequence: half(src), * half(scale), + half(offset) in half, then int8 ties to even.
template <typename T>
int8_t QuantModel(T x, double s, double o) {
  const half hx = H(static_cast<float>(x));
  const half p = H(D(hx) * D(H(s)));
  const half a = H(D(p) + D(H(o)));
  return Sat8(Rint(D(a)));
}

// The float64 oracle: |q - clamp(x * s + o)| <= 0.5 + 2^-9 (|x s| + |o|) - one half rounding
// of the source, the scale, the product, the offset and the sum (each at most 2^-11 relative).
template <typename T>
void ExpectOracle(const std::vector<T>& x, const std::vector<int8_t>& q, double s,
                  const std::vector<double>& o) {
  for (size_t i = 0; i < x.size(); ++i) {
    const double xs = static_cast<double>(static_cast<float>(x[i])) * s;
    const double exact = std::fmin(127.0, std::fmax(-128.0, xs + o[i % o.size()]));
    const double bound = 0.5 + std::ldexp(std::fabs(xs) + std::fabs(o[i % o.size()]), -9);
    ASSERT_LE(std::fabs(q[i] - exact), bound) << "element " << i;
  }
}

template <typename T>
void PerTensor(const char* soc, bool withTmp) {
  const std::vector<T> x = As<T>(Uniform(7, kCount, -70.0f, 70.0f));
  const float s = 1.7f, o = -0.9f;
  std::vector<int8_t> got;
  OnBlock(
      [&](Ub& ub) {
        ub.Put<T>(1, x);
        if (withTmp) {
          AscendC::AscendQuant<T>(ub.Get<int8_t>(0), ub.Get<T>(1), ub.Get<uint8_t>(2), s, o,
                                  kCount);
        } else {
          AscendC::AscendQuant<T>(ub.Get<int8_t>(0), ub.Get<T>(1), s, o, kCount);
        }
        got = ub.Take<int8_t>(0);
      },
      soc);
  got.resize(kCount);
  for (uint32_t i = 0; i < kCount; ++i) ASSERT_EQ(got[i], QuantModel(x[i], s, o)) << i;
  ExpectOracle(x, got, s, {o});
}

TEST(QuantAscendQuant, PerTensorHalfAndFloatEveryProductAndOverload) {
  for (const char* soc : {k910B, k950}) {
    for (bool tmp : {true, false}) {
      PerTensor<float>(soc, tmp);
      PerTensor<half>(soc, tmp);
    }
  }
}

template <typename T>
void PerChannel(bool offsetTensor) {
  constexpr uint32_t kSc = 40;
  const std::vector<T> x = As<T>(Uniform(9, kCount, -30.0f, 30.0f));
  const std::vector<float> sc = Uniform(10, kSc, -3.0f, 3.0f), of = Uniform(11, kSc, -2.0f, 2.0f);
  std::vector<int8_t> got;
  std::vector<T> scaleAfter;
  OnBlock([&](Ub& ub) {
    ub.Put<T>(1, x);
    AscendC::LocalTensor<T> scale = ub.Get<T>(2);
    AscendC::LocalTensor<T> offset = ub.Get<T>(2)[256];
    for (uint32_t j = 0; j < kSc; ++j) {
      scale.HostPtr()[j] = T(sc[j]);
      offset.HostPtr()[j] = T(of[j]);
    }
    if (offsetTensor) {
      AscendC::AscendQuant<T>(ub.Get<int8_t>(0), ub.Get<T>(1), ub.Get<uint8_t>(3), scale, offset,
                              kSc, kSc, kCount);
    } else {
      AscendC::AscendQuant<T>(ub.Get<int8_t>(0), ub.Get<T>(1), ub.Get<uint8_t>(3), scale, T(of[0]),
                              kSc, kCount);
    }
    got = ub.Take<int8_t>(0);
    scaleAfter.assign(scale.HostPtr(), scale.HostPtr() + kSc);
  });
  for (uint32_t i = 0; i < kCount; ++i) {
    const double o = offsetTensor ? of[i % kSc] : static_cast<double>(static_cast<float>(T(of[0])));
    ASSERT_EQ(got[i], QuantModel(x[i], static_cast<float>(T(sc[i % kSc])), o)) << i;
  }
  if constexpr (std::is_same_v<T, float>) {  // the float scale was converted in place to half
    const half* h = reinterpret_cast<const half*>(scaleAfter.data());
    for (uint32_t j = 0; j < kSc; ++j) EXPECT_EQ(Bits(h[j]), Bits(H(sc[j]))) << j;
  }
}

TEST(QuantAscendQuant, PerChannelScaleTensorOffsetScalarOrTensor) {
  for (bool t : {false, true}) {
    PerChannel<float>(t);
    PerChannel<half>(t);
  }
}

TEST(QuantAscendQuant, CheckedModeRules) {
  ExpectCheck(
      [](Ub& ub) {
        AscendC::AscendQuant<float>(ub.Get<int8_t>(0), ub.Get<float>(1), ub.Get<uint8_t>(2)[0],
                                    1.0f, 0.0f, 64);
      },
      "", "");
  ExpectCheck(
      [](Ub& ub) {
        AscendC::LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(2);
        tmp.SetSize(256);
        AscendC::AscendQuant<float>(ub.Get<int8_t>(0), ub.Get<float>(1), tmp, 1.0f, 0.0f, 64);
      },
      "tmp_buffer", "512");
  ExpectCheck(
      [](Ub& ub) {
        AscendC::AscendQuant<half>(ub.Get<int8_t>(0), ub.Get<half>(1), ub.Get<uint8_t>(3),
                                   ub.Get<half>(2), half(0.0f), 48, 100);
      },
      "quant_filter_arg", "multiple of scaleCount");
}

// The kit's IsQuantParamValid (ascend_quant_common_impl.h) asserts calCount > 0 and a multiple
// of scaleCount on the runtime counts, in the static config forms too (they then run the
// config's counts): checked mode refuses calCount 0 on 2201 and 2002.
constexpr AscendC::AscendQuantConfig kStatic128 = {128, 64, 64, 0};
template <const AscendC::AscendQuantConfig& cfg>
void ExpectPerChannelCount(const char* soc, uint32_t scaleCount, uint32_t calCount,
                           bool offsetTensor, const std::string& check) {
  SCOPED_TRACE(std::string(soc) + " calCount " + std::to_string(calCount) +
               (offsetTensor ? " offset tensor" : " scalar offset"));
  ExpectCheck(
      [=](Ub& ub) {
        if (offsetTensor) {
          AscendC::AscendQuant<half, false, cfg>(
              ub.Get<int8_t>(0), ub.Get<half>(1), ub.Get<uint8_t>(3), ub.Get<half>(2),
              ub.Get<half>(2)[1024], scaleCount, scaleCount, calCount);
        } else {
          AscendC::AscendQuant<half, false, cfg>(ub.Get<int8_t>(0), ub.Get<half>(1),
                                                 ub.Get<uint8_t>(3), ub.Get<half>(2), half(0.5f),
                                                 scaleCount, calCount);
        }
      },
      check, check.empty() ? "" : "calCount 0 must be a nonzero multiple", soc);
}

TEST(QuantAscendQuant, CheckedModeRefusesCalCountZeroAlsoInTheStaticForms) {
  for (const char* soc : {k910B, k310P}) {
    for (bool offT : {false, true}) {
      ExpectPerChannelCount<AscendC::ASCEND_QUANT_DEFAULT_CFG>(soc, 64, 128, offT, "");
      ExpectPerChannelCount<AscendC::ASCEND_QUANT_DEFAULT_CFG>(soc, 64, 0, offT,
                                                               "quant_filter_arg");
      ExpectPerChannelCount<kStatic128>(soc, 64, 128, offT, "");
      ExpectPerChannelCount<kStatic128>(soc, 64, 0, offT, "quant_filter_arg");
    }
  }
}

// Quantize: float value, rounded in the config's mode, saturated to int8.
template <const AscendC::QuantizeConfig& cfg, typename S, typename Sc, typename Of>
void RunQuantize(const std::vector<S>& x, uint32_t m, uint32_t n, const Sc& scale, const Of& offset,
                 std::vector<int8_t>* got, const std::function<void(Ub&)>& prep) {
  OnBlock(
      [&](Ub& ub) {
        ub.Put<S>(1, x);
        prep(ub);
        AscendC::Quantize<cfg>(ub.Get<int8_t>(0), ub.Get<S>(1), scale(ub), offset(ub),
                               AscendC::QuantizeParams{m, n, 0});
        *got = ub.Take<int8_t>(0);
      },
      k950);
}

constexpr AscendC::QuantizeConfig kTensorRint = {AscendC::QuantizePolicy::PER_TENSOR, true,
                                                 AscendC::RoundMode::CAST_RINT, 1};
constexpr AscendC::QuantizeConfig kTensorFloor = {AscendC::QuantizePolicy::PER_TENSOR, false,
                                                  AscendC::RoundMode::CAST_FLOOR, 1};
constexpr AscendC::QuantizeConfig kChannel = {AscendC::QuantizePolicy::PER_CHANNEL, true,
                                              AscendC::RoundMode::CAST_ROUND, 1};
constexpr AscendC::QuantizeConfig kToken = {AscendC::QuantizePolicy::PER_TOKEN, true,
                                            AscendC::RoundMode::CAST_TRUNC, 1};

TEST(QuantQuantize, PerTensorChannelTokenInTheConfigRoundMode) {
  constexpr uint32_t m = 5, n = 72;
  const std::vector<float> x = Uniform(3, m * n, -90.0f, 90.0f);
  std::vector<int8_t> got;
  auto scalar = [](float v) { return [v](Ub&) { return v; }; };
  RunQuantize<kTensorRint>(x, m, n, scalar(1.5f), scalar(0.25f), &got, [](Ub&) {});
  for (uint32_t i = 0; i < m * n; ++i) {
    ASSERT_EQ(got[i], Sat8(Rint(static_cast<double>(x[i] * 1.5f + 0.25f)))) << i;
  }
  RunQuantize<kTensorFloor>(x, m, n, scalar(0.5f), scalar(100.0f), &got, [](Ub&) {});
  for (uint32_t i = 0; i < m * n; ++i) ASSERT_EQ(got[i], Sat8(std::floor(x[i] * 0.5f))) << i;
  const std::vector<float> sc = Uniform(4, n, -2.0f, 2.0f), of = Uniform(5, n, -3.0f, 3.0f);
  auto tensorAt = [](int off) { return [off](Ub& ub) { return ub.Get<float>(2)[off]; }; };
  auto fill = [&](Ub& ub) {
    for (uint32_t j = 0; j < n; ++j) {
      ub.Get<float>(2).HostPtr()[j] = sc[j];
      ub.Get<float>(2).HostPtr()[256 + j] = of[j];
    }
  };
  RunQuantize<kChannel>(x, m, n, tensorAt(0), tensorAt(256), &got, fill);
  for (uint32_t i = 0; i < m * n; ++i) {
    const float v = x[i] * sc[i % n] + of[i % n];
    ASSERT_EQ(got[i], Sat8(std::round(static_cast<double>(v)))) << i;
  }
  RunQuantize<kToken>(x, m, n, tensorAt(0), tensorAt(256), &got, fill);
  for (uint32_t i = 0; i < m * n; ++i) {
    const float v = x[i] * sc[i / n] + of[i / n];
    ASSERT_EQ(got[i], Sat8(std::trunc(static_cast<double>(v)))) << i;
  }
}

constexpr AscendC::QuantizeConfig kGroupCol = {AscendC::QuantizePolicy::PER_GROUP, true,
                                               AscendC::RoundMode::CAST_RINT, 1};
constexpr AscendC::QuantizeConfig kGroupRow = {AscendC::QuantizePolicy::PER_GROUP, false,
                                               AscendC::RoundMode::CAST_CEIL, 0};

TEST(QuantQuantize, PerGroupAlongRowsAndColumns) {
  constexpr uint32_t m = 7, n = 80, g = 32;  // tails: ceil(80 / 32) = 3, ceil(7 / 32) = 1
  const std::vector<float> x = Uniform(14, m * n, -60.0f, 60.0f);
  const std::vector<float> sc = Uniform(15, 1024, -2.0f, 2.0f), of = Uniform(16, 1024, -3.0f, 3.0f);
  auto fill = [&](Ub& ub) {
    for (uint32_t j = 0; j < 1024; ++j) {
      ub.Get<float>(2).HostPtr()[j] = sc[j];
      ub.Get<float>(3).HostPtr()[j] = of[j];
    }
  };
  std::vector<int8_t> got;
  auto tensor = [](int b) { return [b](Ub& ub) { return ub.Get<float>(b); }; };
  OnBlock(
      [&](Ub& ub) {
        ub.Put<float>(1, x);
        fill(ub);
        AscendC::Quantize<kGroupCol>(ub.Get<int8_t>(0), ub.Get<float>(1), tensor(2)(ub),
                                     tensor(3)(ub), AscendC::QuantizeParams{m, n, g});
        got = ub.Take<int8_t>(0);
      },
      k950);
  for (uint32_t i = 0; i < m; ++i) {
    for (uint32_t j = 0; j < n; ++j) {
      const uint32_t c = i * 3 + j / g;
      ASSERT_EQ(got[i * n + j], Sat8(Rint(static_cast<double>(x[i * n + j] * sc[c] + of[c]))));
    }
  }
  OnBlock(
      [&](Ub& ub) {
        ub.Put<float>(1, x);
        fill(ub);
        AscendC::Quantize<kGroupRow>(ub.Get<int8_t>(0), ub.Get<float>(1), tensor(2)(ub), 0.0f,
                                     AscendC::QuantizeParams{m, n, 4});
        got = ub.Take<int8_t>(0);
      },
      k950);
  for (uint32_t i = 0; i < m; ++i) {
    for (uint32_t j = 0; j < n; ++j) {
      const float v = x[i * n + j] * sc[(i / 4) * n + j];
      ASSERT_EQ(got[i * n + j], Sat8(std::ceil(static_cast<double>(v))));
    }
  }
}

TEST(QuantQuantize, RefusedOffArch3510) {
  ExpectCheck(
      [](Ub& ub) {
        AscendC::Quantize<kTensorRint>(ub.Get<int8_t>(0), ub.Get<float>(1), 1.0f, 0.0f,
                                       AscendC::QuantizeParams{1, 64, 0});
      },
      "product", "Quantize");
}

TEST(QuantTiling, AscendQuantAndQuantizeSizes) {
  uint32_t mx = 0, mn = 0;
  AscendC::GetAscendQuantMaxMinTmpSize(ge::Shape({1024}), 4, mx, mn);
  EXPECT_EQ(mx, 2048u);
  EXPECT_EQ(mn, 512u);
  AscendC::GetAscendQuantMaxMinTmpSize(ge::Shape({48}), 2, mx, mn);
  EXPECT_EQ(mx, 512u);  // max(96, 512)
  AscendC::GetQuantizeMaxMinTmpSize(ge::Shape({3, 1000}), 4, mx, mn);
  EXPECT_EQ(mx, 6016u);  // align32(6000)
  EXPECT_EQ(mn, 512u);
  uint32_t live = 9, extra = 9;
  AscendC::GetAscendQuantTmpBufferFactorSize(live, extra);
  EXPECT_EQ(live, 2u);
  EXPECT_EQ(extra, 0u);
  mx = mn = 7;  // a source of 3 halves is not 32-byte aligned: outputs untouched
  AscendC::GetAscendQuantMaxMinTmpSize(ge::Shape({3}), 2, mx, mn);
  EXPECT_EQ(mx, 7u);
  EXPECT_FALSE(lngrad::tiling::LastTilingStatus().ok());
}

// Quantize to the 950's 8-bit floats: the float value, then the saturating cast. Checked against
// the nearest value of each format found by searching all 256 codes (ties: e4m3/e5m2 to the even
// code, hifloat8 away from zero), not against lngrad's rounding code; the configured mode's
// fallbacks (fp8: CAST_RINT always; hifloat8: CAST_ROUND unless CAST_HYBRID) and the saturation.
constexpr AscendC::QuantizeConfig kFp8Floor = {AscendC::QuantizePolicy::PER_CHANNEL, true,
                                               AscendC::RoundMode::CAST_FLOOR, 1};
constexpr AscendC::QuantizeConfig kHif8Trunc = {AscendC::QuantizePolicy::PER_CHANNEL, true,
                                                AscendC::RoundMode::CAST_TRUNC, 1};
constexpr AscendC::QuantizeConfig kHif8Hybrid = {AscendC::QuantizePolicy::PER_TENSOR, false,
                                                 AscendC::RoundMode::CAST_HYBRID, 1};

template <const AscendC::QuantizeConfig& cfg, typename D>
std::vector<uint8_t> QuantizeTo8(const std::vector<float>& x, uint32_t m, uint32_t n,
                                 const std::vector<float>& sc, const std::vector<float>& of) {
  std::vector<uint8_t> got;
  OnBlock(
      [&](Ub& ub) {
        ub.Put<float>(1, x);
        for (size_t j = 0; j < sc.size() && j < of.size(); ++j) {
          ub.Get<float>(2).HostPtr()[j] = sc[j];
          ub.Get<float>(3).HostPtr()[j] = of[j];
        }
        if constexpr (cfg.policy == AscendC::QuantizePolicy::PER_TENSOR) {
          AscendC::Quantize<cfg>(ub.Get<D>(0), ub.Get<float>(1), sc[0], of[0],
                                 AscendC::QuantizeParams{m, n, 0});
        } else {
          AscendC::Quantize<cfg>(ub.Get<D>(0), ub.Get<float>(1), ub.Get<float>(2), ub.Get<float>(3),
                                 AscendC::QuantizeParams{m, n, 0});
        }
        got = ub.Take<uint8_t>(0);
      },
      k950);
  got.resize(size_t{m} * n);
  return got;
}

TEST(QuantQuantize, EightBitFloatDestinationsOn950) {
  constexpr uint32_t m = 6, n = 64;
  std::vector<float> x = Uniform(21, m * n, -300.0f, 300.0f);
  x[0] = NAN;
  x[1] = 1e30f;  // beyond every format: saturates
  x[2] = -1e30f;
  const std::vector<float> sc = Uniform(22, n, -1.5f, 1.5f), of = Uniform(23, n, -2.0f, 2.0f);
  const auto value = [&](uint32_t i) { return x[i] * sc[i % n] + of[i % n]; };
  const std::vector<uint8_t> e4 = QuantizeTo8<kFp8Floor, fp8_e4m3fn_t>(x, m, n, sc, of);
  const std::vector<uint8_t> e5 = QuantizeTo8<kFp8Floor, fp8_e5m2_t>(x, m, n, sc, of);
  const std::vector<uint8_t> h8 = QuantizeTo8<kHif8Trunc, hifloat8_t>(x, m, n, sc, of);
  for (uint32_t i = 0; i < m * n; ++i) {
    ASSERT_EQ(e4[i], NearestCode<fp8_e4m3fn_t>(value(i), false)) << i << " v " << value(i);
    ASSERT_EQ(e5[i], NearestCode<fp8_e5m2_t>(value(i), false)) << i << " v " << value(i);
    ASSERT_EQ(h8[i], NearestCode<hifloat8_t>(value(i), true)) << i << " v " << value(i);
  }
  EXPECT_EQ(e4[0], 0x00);  // NaN -> 0
  EXPECT_EQ(Decode(fp8_e4m3fn_t::FromBits(e4[1 + (sc[1] < 0)])), 448.0f);
  EXPECT_EQ(Decode(fp8_e5m2_t::FromBits(e5[1 + (sc[1] < 0)])), 57344.0f);
  EXPECT_EQ(Decode(hifloat8_t::FromBits(h8[1 + (sc[1] < 0)])), 32768.0f);
  // CAST_HYBRID is kept for hifloat8: 16 (low bits all zero) rounds up to 20 (lngrad_aicore/fp8.h).
  const std::vector<uint8_t> hy =
      QuantizeTo8<kHif8Hybrid, hifloat8_t>(std::vector<float>(64, 16.0f), 1, 64, {1.0f}, {0.0f});
  EXPECT_EQ(Decode(hifloat8_t::FromBits(hy[5])), 20.0f);
}

}  // namespace
}  // namespace lngrad::adv::testing
