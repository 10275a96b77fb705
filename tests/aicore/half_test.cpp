// The kernel-side `half` type, the Cast instruction's round modes and the half/float vector
// arithmetic, against an independent rounding routine (scaled nearbyint in double).
#include <gtest/gtest.h>

#include <cfenv>
#include <cmath>
#include <cstring>
#include <random>
#include <type_traits>
#include <vector>

#include "kernel_operator.h"
#include "sanitizer_off.h"
#include "lngrad/half.h"

namespace {

using namespace AscendC;

// Independent binary16 rounding of a double (round to nearest even; overflow to inf). Exact for
// any x whose rounding to binary16 is well defined, because the quantum scaling is exact.
uint16_t RoundToHalfBits(double x) {
  if (std::isnan(x)) return 0x7E00;
  const bool neg = std::signbit(x);
  const double a = std::fabs(x);
  double q = 0.0;
  if (a != 0.0) {
    int e = 0;
    (void)std::frexp(a, &e);                // a = m * 2^e, m in [0.5, 1): leading bit 2^(e-1)
    const int lead = std::max(e - 1, -14);  // subnormals share the quantum of the lowest binade
    const double quantum = std::ldexp(1.0, lead - 10);
    q = std::nearbyint(a / quantum) * quantum;  // default mode: ties to even
  }
  uint16_t bits;
  if (q >= 65520.0 || std::isinf(a)) {
    bits = 0x7C00;
  } else {
    bits = lngrad::FloatToHalfBits(static_cast<float>(q));  // q is a binary16 value: exact
  }
  return static_cast<uint16_t>(bits | (neg ? 0x8000 : 0));
}

double HalfValue(uint16_t bits) { return static_cast<double>(lngrad::HalfBitsToFloat(bits)); }

TEST(AscendcHalf, ConversionsRoundToNearestEven) {
  ASSERT_EQ(std::fegetround(), FE_TONEAREST);
  EXPECT_EQ(half(1.0f).bits, 0x3C00);
  EXPECT_EQ(half(65504.0f).bits, 0x7BFF);
  EXPECT_EQ(half(65519.0f).bits, 0x7BFF);
  EXPECT_EQ(half(65520.0f).bits, 0x7C00);                      // halfway to 2^16: ties to inf
  EXPECT_EQ(half(1.0f + std::ldexp(1.0f, -11)).bits, 0x3C00);  // tie -> even
  EXPECT_EQ(half(1.0f + 3 * std::ldexp(1.0f, -11)).bits, 0x3C02);
  EXPECT_EQ(half(std::ldexp(1.0f, -24)).bits, 0x0001);
  EXPECT_EQ(half(std::ldexp(1.0f, -25)).bits, 0x0000);
  EXPECT_EQ(half(3 * std::ldexp(1.0f, -26)).bits, 0x0001);
  EXPECT_EQ(half(-2.0f).bits, 0xC000);
  EXPECT_EQ(half(3).bits, 0x4200);
  EXPECT_EQ(half(65505).bits, 0x7BFF);
  EXPECT_EQ(float(half::FromBits(0x3555)), lngrad::HalfBitsToFloat(0x3555));
  // double -> half rounds once: via float this value would tie and round down to 1.0.
  const double d = 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40);
  EXPECT_EQ(static_cast<float>(d), 1.0f + std::ldexp(1.0f, -11));
  EXPECT_EQ(half(d).bits, 0x3C01);
  EXPECT_EQ(half(-d).bits, 0xBC01);
}

TEST(AscendcHalf, ArithmeticIsCorrectlyRoundedBinary16) {
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> pick(0, 0x7BFF);
  for (int n = 0; n < 20000; ++n) {
    const half a = half::FromBits(static_cast<uint16_t>(pick(rng) | ((n & 1) ? 0x8000 : 0)));
    const half b = half::FromBits(static_cast<uint16_t>(pick(rng)));
    const double x = HalfValue(a.bits);
    const double y = HalfValue(b.bits);
    half sum = a + b;
    half diff = a - b;
    half prod = a * b;  // the spelling kernels use
    half quot = b.bits == 0 ? half(0.0f) : a / b;
    ASSERT_EQ(sum.bits, RoundToHalfBits(x + y)) << x << " + " << y;
    ASSERT_EQ(diff.bits, RoundToHalfBits(x - y)) << x << " - " << y;
    ASSERT_EQ(prod.bits, RoundToHalfBits(x * y)) << x << " * " << y;
    if (b.bits != 0) {
      ASSERT_EQ(quot.bits, RoundToHalfBits(x / y)) << x << " / " << y;
    }
    half acc = a;
    acc += b;
    ASSERT_EQ(acc.bits, sum.bits);
  }
}

TEST(AscendcHalf, MixedOperandsPromoteLikeANarrowFloat) {
  const half h(1.5f);
  static_assert(std::is_same_v<decltype(h * 2.0f), float>);
  static_assert(std::is_same_v<decltype(h + 1.0), double>);
  static_assert(std::is_same_v<decltype(2 * h), float>);
  static_assert(std::is_same_v<decltype(h * h), half>);
  static_assert(sizeof(half) == 2);
  EXPECT_EQ(h * 2.0f, 3.0f);
  EXPECT_TRUE(h == 1.5f);
  EXPECT_TRUE(h < 2);
  EXPECT_EQ((-h).bits, 0xBE00);
  EXPECT_EQ(std::numeric_limits<half>::max().bits, 0x7BFF);
  EXPECT_EQ(float(std::numeric_limits<half>::epsilon()), std::ldexp(1.0f, -10));
}

TEST(AscendcHalf, FloatToHalfRoundModes) {
  namespace d = lngrad::aicore::detail;
  const float tie = 1.0f + std::ldexp(1.0f, -11);  // halfway between 0x3C00 and 0x3C01
  struct Case {
    float f;
    RoundMode mode;
    uint16_t want;
  };
  const Case cases[] = {
      {tie, RoundMode::CAST_NONE, 0x3C00},
      {tie, RoundMode::CAST_RINT, 0x3C00},
      {tie, RoundMode::CAST_ROUND, 0x3C01},
      {tie, RoundMode::CAST_FLOOR, 0x3C00},
      {tie, RoundMode::CAST_CEIL, 0x3C01},
      {tie, RoundMode::CAST_TRUNC, 0x3C00},
      {tie, RoundMode::CAST_ODD, 0x3C01},
      {-tie, RoundMode::CAST_FLOOR, 0xBC01},
      {-tie, RoundMode::CAST_CEIL, 0xBC00},
      {-tie, RoundMode::CAST_TRUNC, 0xBC00},
      {-tie, RoundMode::CAST_ROUND, 0xBC01},
      {1.0f, RoundMode::CAST_ODD, 0x3C00},  // exact stays
      {70000.0f, RoundMode::CAST_RINT, 0x7C00},
      {70000.0f, RoundMode::CAST_FLOOR, 0x7BFF},
      {70000.0f, RoundMode::CAST_CEIL, 0x7C00},
      {70000.0f, RoundMode::CAST_TRUNC, 0x7BFF},
      {70000.0f, RoundMode::CAST_ODD, 0x7BFF},
      {70000.0f, RoundMode::CAST_ROUND, 0x7C00},
      {65510.0f, RoundMode::CAST_ROUND, 0x7BFF},
      {-70000.0f, RoundMode::CAST_CEIL, 0xFBFF},
      {std::ldexp(1.0f, -26), RoundMode::CAST_CEIL, 0x0001},
      {-std::ldexp(1.0f, -26), RoundMode::CAST_ODD, 0x8001},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(d::FloatToHalf(c.f, c.mode).bits, c.want)
        << c.f << " " << d::RoundModeName(c.mode) << " got 0x" << std::hex
        << d::FloatToHalf(c.f, c.mode).bits;
  }
  EXPECT_TRUE(std::isnan(float(d::FloatToHalf(std::nanf(""), RoundMode::CAST_FLOOR))));
}

TEST(AscendcHalf, CastInstructionCoversEveryHalfAndEveryMode) {
  // half -> float is exact for all 65536 patterns; float -> half matches the scalar routine.
  std::vector<uint16_t> all(65536);
  for (uint32_t i = 0; i < 65536; ++i) all[i] = static_cast<uint16_t>(i);
  std::vector<float> widened(65536);
  std::vector<float> probes;
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> u(-70000.0f, 70000.0f);
  for (int i = 0; i < 8192; ++i) probes.push_back(i % 3 == 0 ? u(rng) * 1e-5f : u(rng));
  std::vector<std::vector<uint16_t>> narrowed(7, std::vector<uint16_t>(probes.size()));
  const lngrad::Status s = lngrad::aicore::Launch(1, [&] {
    // The inf/NaN overflow mode: infinities convert as IEEE (cast_test.cpp covers the default
    // saturation mode).
    AscendCUtils::SetOverflow(1);
    TPipe pipe;
    TBuf<> hb;
    TBuf<> fb;
    pipe.InitBuffer(hb, 8192 * sizeof(half));
    pipe.InitBuffer(fb, 8192 * sizeof(float));
    LocalTensor<half> h = hb.Get<half>();
    LocalTensor<float> f = fb.Get<float>();
    for (uint32_t chunk = 0; chunk < 65536; chunk += 8192) {
      std::memcpy(h.HostPtr(), all.data() + chunk, 8192 * sizeof(half));
      Cast(f, h, RoundMode::CAST_NONE, 8192);
      std::memcpy(widened.data() + chunk, f.HostPtr(), 8192 * sizeof(float));
    }
    for (int m = 0; m < 7; ++m) {
      std::memcpy(f.HostPtr(), probes.data(), probes.size() * sizeof(float));
      Cast(h, f, static_cast<RoundMode>(m), static_cast<uint32_t>(probes.size()));
      std::memcpy(narrowed[m].data(), h.HostPtr(), probes.size() * sizeof(half));
    }
  });
  ASSERT_TRUE(s.ok()) << s.ToString();
  for (uint32_t i = 0; i < 65536; ++i) {
    const float want = lngrad::HalfBitsToFloat(static_cast<uint16_t>(i));
    if (std::isnan(want)) {
      ASSERT_TRUE(std::isnan(widened[i])) << i;
    } else {
      ASSERT_EQ(std::memcmp(&widened[i], &want, 4), 0) << "half 0x" << std::hex << i;
    }
  }
  for (int m = 0; m < 7; ++m) {
    for (size_t i = 0; i < probes.size(); ++i) {
      ASSERT_EQ(narrowed[m][i],
                lngrad::aicore::detail::FloatToHalf(probes[i], static_cast<RoundMode>(m)).bits)
          << probes[i] << " mode " << m;
    }
  }
  // The nearest modes agree with the independent rounding.
  for (size_t i = 0; i < probes.size(); ++i)
    ASSERT_EQ(narrowed[1][i], RoundToHalfBits(probes[i])) << probes[i];
}

TEST(AscendcHalf, VectorInstructionsAreCorrectlyRoundedPerElement) {
  constexpr uint32_t kN = 4096;
  std::mt19937 rng(11);
  std::uniform_int_distribution<int> pick(0x0400, 0x7000);  // normal halfs well inside the range
  std::uniform_real_distribution<float> uf(0.01f, 1000.0f);
  std::vector<uint16_t> ha(kN), hb(kN);
  std::vector<float> fa(kN), fb(kN);
  for (uint32_t i = 0; i < kN; ++i) {
    ha[i] = static_cast<uint16_t>(pick(rng));
    hb[i] = static_cast<uint16_t>(pick(rng));
    fa[i] = uf(rng);
    fb[i] = uf(rng);
  }
  std::vector<std::vector<uint16_t>> hout(6, std::vector<uint16_t>(kN));
  std::vector<std::vector<float>> fout(6, std::vector<float>(kN));
  const lngrad::Status s = lngrad::aicore::Launch(1, [&] {
    TPipe pipe;
    TBuf<> bufs[3];
    for (auto& b : bufs) pipe.InitBuffer(b, kN * sizeof(float));
    LocalTensor<half> x = bufs[0].Get<half>();
    LocalTensor<half> y = bufs[1].Get<half>();
    LocalTensor<half> z = bufs[2].Get<half>();
    std::memcpy(x.HostPtr(), ha.data(), kN * 2);
    std::memcpy(y.HostPtr(), hb.data(), kN * 2);
    // Outputs 0-4: Add, Sub, Mul, Div, Sqrt; output 5: `last` (a scalar form).
    auto run = [&](const auto& a, const auto& b, const auto& c, auto* out, const auto& last) {
      const auto grab = [&](int k) {
        std::memcpy(out[k].data(), c.HostPtr(), kN * sizeof(out[k][0]));
      };
      Add(c, a, b, kN);
      grab(0);
      Sub(c, a, b, kN);
      grab(1);
      Mul(c, a, b, kN);
      grab(2);
      Div(c, a, b, kN);
      grab(3);
      Sqrt(c, a, kN);
      grab(4);
      last();
      grab(5);
    };
    run(x, y, z, hout.data(), [&] { Muls(z, x, 0.3f, kN); });  // scalar rounded to half first
    LocalTensor<float> p = bufs[0].Get<float>();
    LocalTensor<float> q = bufs[1].Get<float>();
    LocalTensor<float> r = bufs[2].Get<float>();
    std::memcpy(p.HostPtr(), fa.data(), kN * 4);
    std::memcpy(q.HostPtr(), fb.data(), kN * 4);
    run(p, q, r, fout.data(), [&] { Adds(r, p, 0.1f, kN); });
  });
  ASSERT_TRUE(s.ok()) << s.ToString();
  const double s03 = HalfValue(half(0.3f).bits);
  for (uint32_t i = 0; i < kN; ++i) {
    const double x = HalfValue(ha[i]);
    const double y = HalfValue(hb[i]);
    ASSERT_EQ(hout[0][i], RoundToHalfBits(x + y)) << i;
    ASSERT_EQ(hout[1][i], RoundToHalfBits(x - y)) << i;
    ASSERT_EQ(hout[2][i], RoundToHalfBits(x * y)) << i;
    ASSERT_EQ(hout[3][i], RoundToHalfBits(x / y)) << i;
    ASSERT_EQ(hout[4][i], RoundToHalfBits(std::sqrt(x))) << i;
    ASSERT_EQ(hout[5][i], RoundToHalfBits(x * s03)) << i;
    // float: one IEEE binary32 operation per element (the test is built without contraction).
    ASSERT_EQ(fout[0][i], fa[i] + fb[i]) << i;
    ASSERT_EQ(fout[1][i], fa[i] - fb[i]) << i;
    ASSERT_EQ(fout[2][i], fa[i] * fb[i]) << i;
    ASSERT_EQ(fout[3][i], fa[i] / fb[i]) << i;
    ASSERT_EQ(fout[4][i], std::sqrt(fa[i])) << i;
    ASSERT_EQ(fout[5][i], fa[i] + 0.1f) << i;
    // and, independently, the float results are the double results rounded once to float.
    ASSERT_EQ(fout[3][i], static_cast<float>(static_cast<double>(fa[i]) / fb[i])) << i;
  }
}

}  // namespace
