// Power and CumSum (lib/math/power.h, cumsum.h) against a float64 oracle with stated bounds,
// half, float and int32_t, on Ascend910B1 (arch 2201) and Ascend950PR (arch 3510), every
// overload, the checked-mode rules; and the host scratch sizes of every transcendental API
// (tiling/math/math_transcendental_tiling.h) pinned against the documented formulas.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "../aicore/repeat_test_util.h"
#include "../aicore/sanitizer_off.h"
#include "kernel_operator.h"
#include "math_transcendental_test_util.h"
#include "tiling/tiling_api.h"

namespace {

using namespace AscendC;
using namespace lngrad::adv::testing;

constexpr uint32_t kCount = 1000;

// Power's bound: exp(t) with t = y * ln|x| carries t's rounding (|t| * 2^-23 relative, one ulp
// of t and y times half an ulp of ln|x|) into a relative error, plus Exp's own rounding: in ulps
// of the result, 2|t| + 2 (float). Half: one ulp of half (the float error is far below it).
double PowerBoundUlps(double x, double y, bool is_half) {
  return is_half ? 1.0 : 2.0 * std::fabs(y * std::log(std::fabs(x))) + 2.0;
}

template <typename T>
void ExpectPowerWithin(const std::vector<T>& x, const std::vector<T>& y, const std::vector<T>& got,
                       const std::string& what) {
  for (size_t i = 0; i < got.size(); ++i) {
    const double want = std::pow(D(x[i]), D(y[i]));
    const double bound = PowerBoundUlps(D(x[i]), D(y[i]), sizeof(T) == 2) * UlpAt<T>(want);
    if (ErrorOf(got[i], want) > bound) {
      ADD_FAILURE() << what << ": element " << i << " " << D(x[i]) << " ^ " << D(y[i]) << " gives "
                    << D(got[i]) << ", oracle " << want;
      return;
    }
  }
}

// Bases in (2^-4, 2^4) of either sign, exponents integral (for the negative bases) or not.
template <typename T>
void PowerInputs(uint32_t seed, std::vector<T>* x, std::vector<T>* y) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> mag(-4.0f, 4.0f), ex(-8.0f, 8.0f);
  x->resize(kCount);
  y->resize(kCount);
  for (uint32_t i = 0; i < kCount; ++i) {
    const float b = std::exp2(mag(gen));
    (*x)[i] = T(i % 3 == 0 ? -b : b);
    (*y)[i] = T(i % 3 == 0 ? std::round(ex(gen)) : ex(gen));
  }
}

template <typename T>
void CheckPowerForms(const char* soc) {
  std::vector<T> x, y;
  PowerInputs<T>(11, &x, &y);
  const std::vector<T> ys(kCount, y[1]), xs(kCount, x[1]);
  for (int form = 0; form < 12; ++form) {
    std::vector<T> out;
    lngrad::aicore::test::OnBlock(
        [&](lngrad::aicore::test::Ub& ub) {
          ub.Put<T>(0, x);
          ub.Put<T>(1, y);
          const LocalTensor<T> a = ub.Get<T>(0), b = ub.Get<T>(1);
          LocalTensor<T> d = ub.Get<T>(2);
          const LocalTensor<uint8_t> t = ub.Get<uint8_t>(3);
          const T sx = x[1], sy = y[1];
          switch (form) {
            case 0:
              Power(d, a, b, t, kCount);
              break;
            case 1:
              Power(d, a, b, kCount);
              break;
            case 2:
              Power(d, a, b, t);
              break;
            case 3:
              Power(d, a, b);
              break;
            case 4:
              Power(d, a, sy, t, kCount);
              break;
            case 5:
              Power(d, a, sy, kCount);
              break;
            case 6:
              Power(d, a, sy, t);
              break;
            case 7:
              Power(d, a, sy);
              break;
            case 8:
              Power(d, sx, b, t, kCount);
              break;
            case 9:
              Power(d, sx, b, kCount);
              break;
            case 10:
              Power(d, sx, b, t);
              break;
            default:
              Power(d, sx, b);
              break;
          }
          out = ub.Take<T>(2);
        },
        soc);
    out.resize(kCount);
    const std::string what = std::string(soc) + " form " + std::to_string(form);
    if (form < 4) ExpectPowerWithin(x, y, out, what);
    if (form >= 4 && form < 8) ExpectPowerWithin(x, ys, out, what);
    if (form >= 8) ExpectPowerWithin(xs, y, out, what);
  }
}

TEST(MathPower, FloatAndHalfEveryFormWithinBounds) {
  for (const char* soc : kSocs) {
    CheckPowerForms<float>(soc);
    CheckPowerForms<half>(soc);
  }
}

TEST(MathPower, SpecialCasesFollowTheSequence) {
  const float inf = std::numeric_limits<float>::infinity(), nan = std::nanf("");
  const std::vector<float> x = {2.0f, 1.0f, -1.0f, -2.0f, -2.0f, 0.0f, -8.0f, -inf, nan, 0.0f};
  const std::vector<float> y = {0.0f, nan, inf, 3.0f, 0.5f, 0.0f, 2.0f, 0.5f, 1.0f, -1.0f};
  std::vector<float> out;
  lngrad::aicore::test::OnBlock([&](lngrad::aicore::test::Ub& ub) {
    ub.Put<float>(0, x);
    ub.Put<float>(1, y);
    Power(ub.Get<float>(2), ub.Get<float>(0), ub.Get<float>(1), ub.Get<uint8_t>(3), 10);
    out = ub.Take<float>(2);
  });
  EXPECT_EQ(out[0], 1.0f);  // y = 0
  EXPECT_EQ(out[1], 1.0f);  // x = 1, even with a NaN exponent
  EXPECT_EQ(out[2], 1.0f);  // (-1)^inf
  EXPECT_NEAR(out[3], -8.0f, 8 * 1e-6);
  EXPECT_TRUE(std::isnan(out[4]));  // negative base, non-integral exponent
  EXPECT_EQ(out[5], 1.0f);
  EXPECT_NEAR(out[6], 64.0f, 64 * 1e-6);
  EXPECT_EQ(out[7], inf);  // -inf is exempt from the NaN rule: exp(0.5 * inf)
  EXPECT_TRUE(std::isnan(out[8]));
  EXPECT_EQ(out[9], inf);
}

// DOUBLE_FLOAT_TECH on the 950 (power_3510_impl.h: CUDA's powf): ln|x| carried as a float pair
// to about 2^-46 relative, y times it split exactly by a fused multiply-add, so the error is the
// final Exp's and the correction's: within 2 ulps float whatever |y ln|x|| (half: 1 ulp), where
// INTRINSIC grows with it. Off the 950 the config changes nothing.
constexpr PowerConfig kPowerDoubleFloat = {PowerAlgo::DOUBLE_FLOAT_TECH};
TEST(MathPower, DoubleFloatTechOn950WithinTwoUlps) {
  std::vector<float> x, y;
  PowerInputs<float>(12, &x, &y);
  std::mt19937 gen(13);
  std::uniform_real_distribution<float> e(-120.0f, 120.0f), t(-80.0f, 80.0f);
  for (uint32_t i = 0; i < kCount / 2; ++i) {  // wide bases, y ln|x| up to +-80
    const float xe = e(gen);
    x[i] = std::exp2(xe);
    y[i] = t(gen) / (xe * 0.6931472f);
  }
  std::vector<half> xh, yh;
  PowerInputs<half>(14, &xh, &yh);
  const auto run = [](auto d, auto a, auto b, auto tmp, uint32_t n) {
    Power<typename decltype(d)::PrimType, false, kPowerDoubleFloat>(d, a, b, tmp, n);
  };
  const auto check = [&run](const auto& xs, const auto& ys, double ulps, const char* what) {
    using T = typename std::decay_t<decltype(xs)>::value_type;
    std::vector<T> out;
    lngrad::aicore::test::OnBlock(
        [&](lngrad::aicore::test::Ub& ub) {
          ub.Put<T>(0, xs);
          ub.Put<T>(1, ys);
          run(ub.Get<T>(2), ub.Get<T>(0), ub.Get<T>(1), ub.Get<uint8_t>(3), kCount);
          out = ub.Take<T>(2);
        },
        k950);
    for (uint32_t i = 0; i < kCount; ++i) {
      const double want = std::pow(D(xs[i]), D(ys[i]));
      if (ErrorOf(out[i], want) > ulps * UlpAt<T>(want)) {
        ADD_FAILURE() << what << ": " << D(xs[i]) << " ^ " << D(ys[i]) << " gives " << D(out[i])
                      << ", oracle " << want;
        return;
      }
    }
  };
  check(x, y, 2.0, "Power double-float float");
  check(xh, yh, 1.0, "Power double-float half");
}

// Fmod on the 950 (FmodConfig NORMAL: fma(Trunc(a / b), -b, a)): the fused step makes
// a - k * b exact for the quotient k it takes, so the result is C's fmod (float64 oracle) where
// |a / b| < 2^22, except where a / b rounds up onto an integer: then k is one too far and the
// result is off by exactly |b| (and carries the other sign). Half: rounded once from that.
TEST(MathFmod, NormalOn950ExactOrOneDivisorOff) {
  std::mt19937 gen(15);
  std::uniform_real_distribution<float> q(-4e6f, 4e6f), m(-30.0f, 30.0f);
  std::vector<float> a(kCount), b(kCount);
  for (uint32_t i = 0; i < kCount; ++i) {
    b[i] = std::ldexp(1.0f + std::fabs(m(gen)) / 31.0f, static_cast<int>(m(gen)));
    a[i] = q(gen) * b[i];
    if (i % 4 == 0) a[i] = std::nextafter(std::round(a[i] / b[i]) * b[i], 0.0f);  // near k * b
  }
  std::vector<float> out;
  lngrad::aicore::test::OnBlock(
      [&](lngrad::aicore::test::Ub& ub) {
        ub.Put<float>(0, a);
        ub.Put<float>(1, b);
        Fmod(ub.Get<float>(2), ub.Get<float>(0), ub.Get<float>(1), ub.Get<uint8_t>(3), kCount);
        out = ub.Take<float>(2);
      },
      k950);
  uint32_t exact = 0;
  for (uint32_t i = 0; i < kCount; ++i) {
    const double want = std::fmod(D(a[i]), D(b[i]));
    const double err = std::fabs(D(out[i]) - want);
    exact += err == 0.0;
    EXPECT_TRUE(err == 0.0 || err == std::fabs(D(b[i])))
        << a[i] << " fmod " << b[i] << " gives " << out[i] << ", oracle " << want;
  }
  EXPECT_GT(exact, kCount / 2);  // a quarter sits just below k * b on purpose
}

// Fmod with ITERATION_COMPENSATION on the 950 (fmod_3510_impl.h): each round takes off a
// multiple of b scaled by up to 2^240 with one exact fused step, so the result is C's fmod
// (float64 oracle, exact) whenever the exponents of a and b differ by at most 24 * iterationNum,
// as the page says: every pair of floats with 11 rounds, subnormal divisors and the exception
// cases included; within 48 with 2 rounds. Off the 950 the config changes nothing.
template <uint32_t kRounds>
std::vector<float> FmodIterated(const std::vector<float>& a, const std::vector<float>& b,
                                const char* soc) {
  static constexpr FmodConfig kCfg = {FmodAlgo::ITERATION_COMPENSATION, kRounds};
  std::vector<float> out;
  lngrad::aicore::test::OnBlock(
      [&](lngrad::aicore::test::Ub& ub) {
        ub.Put<float>(0, a);
        ub.Put<float>(1, b);
        Fmod<float, false, kCfg>(ub.Get<float>(2), ub.Get<float>(0), ub.Get<float>(1),
                                 ub.Get<uint8_t>(3), static_cast<uint32_t>(a.size()));
        out = ub.Take<float>(2);
      },
      soc);
  return out;
}

void ExpectCsFmod(const std::vector<float>& a, const std::vector<float>& b,
                  const std::vector<float>& out, const char* what) {
  for (size_t i = 0; i < a.size(); ++i) {
    const float want = static_cast<float>(std::fmod(D(a[i]), D(b[i])));  // exact
    const bool same = std::isnan(want)
                          ? std::isnan(out[i])
                          : out[i] == want && std::signbit(out[i]) == std::signbit(want);
    ASSERT_TRUE(same) << what << ": " << a[i] << " fmod " << b[i] << " gives " << out[i]
                      << ", oracle " << want;
  }
}

TEST(MathFmod, IterationCompensationOn950IsCsFmodWithinTheGap) {
  std::mt19937 gen(16);
  std::uniform_int_distribution<uint32_t> bits(0, 0x7f7fffffu);  // every finite magnitude
  std::uniform_int_distribution<int> gap(-8, 48), exp_b(-140, 79);
  std::uniform_real_distribution<float> frac(1.0f, 2.0f);
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<float> a(kCount), b(kCount), near_a(kCount), near_b(kCount);
  for (uint32_t i = 0; i < kCount; ++i) {
    a[i] = std::bit_cast<float>(bits(gen) | (i % 2 ? 0x80000000u : 0));
    b[i] = std::bit_cast<float>(bits(gen) | (i % 3 ? 0 : 0x80000000u));
    const int e = exp_b(gen);  // subnormal divisors below -126
    near_b[i] = std::ldexp(frac(gen), e) * (i % 5 ? 1.0f : -1.0f);
    near_a[i] = std::ldexp(frac(gen), e + gap(gen)) * (i % 2 ? 1.0f : -1.0f);
  }
  const float specials[][2] = {{5.5f, inf},   {-5.5f, -inf},    {inf, 3.0f},      {-0.0f, 3.0f},
                               {0.0f, -0.0f}, {7.0f, 0.0f},     {NAN, 2.0f},      {2.0f, NAN},
                               {inf, inf},    {1e-45f, 1e-45f}, {3e-38f, 1e-40f}, {-1.0f, 1e-45f}};
  for (uint32_t i = 0; i < std::size(specials); ++i) {
    a[i] = specials[i][0];
    b[i] = specials[i][1];
  }
  ExpectCsFmod(a, b, FmodIterated<11>(a, b, k950), "11 rounds, any floats");
  ExpectCsFmod(near_a, near_b, FmodIterated<2>(near_a, near_b, k950), "2 rounds, gap <= 48");
  // Off the 950 the config is ignored: the 2201 sequence's bits.
  std::vector<float> plain;
  lngrad::aicore::test::OnBlock(
      [&](lngrad::aicore::test::Ub& ub) {
        ub.Put<float>(0, near_a);
        ub.Put<float>(1, near_b);
        Fmod(ub.Get<float>(2), ub.Get<float>(0), ub.Get<float>(1), ub.Get<uint8_t>(3), kCount);
        plain = ub.Take<float>(2);
      },
      k910B);
  const std::vector<float> iterated = FmodIterated<2>(near_a, near_b, k910B);
  EXPECT_EQ(0, std::memcmp(plain.data(), iterated.data(), plain.size() * sizeof(float)));
}

// int32_t: x^|y| with wrapping products; negative y gives 1 / p truncated (0 for p = 0).
TEST(MathPower, Int32MatchesWrappingPower) {
  std::mt19937 gen(5);
  std::uniform_int_distribution<int32_t> b(-9, 9), e(-4, 20);
  std::vector<int32_t> x(kCount), y(kCount);
  for (uint32_t i = 0; i < kCount; ++i) {
    x[i] = b(gen);
    y[i] = e(gen);
  }
  for (const char* soc : kSocs) {
    std::vector<int32_t> out;
    lngrad::aicore::test::OnBlock(
        [&](lngrad::aicore::test::Ub& ub) {
          ub.Put<int32_t>(0, x);
          ub.Put<int32_t>(1, y);
          Power(ub.Get<int32_t>(2), ub.Get<int32_t>(0), ub.Get<int32_t>(1), ub.Get<uint8_t>(3),
                kCount);
          out = ub.Take<int32_t>(2);
        },
        soc);
    for (uint32_t i = 0; i < kCount; ++i) {
      uint32_t p = 1;
      for (int32_t k = 0; k < std::abs(y[i]); ++k) p *= static_cast<uint32_t>(x[i]);
      int32_t want = static_cast<int32_t>(p);
      if (y[i] < 0) want = want == 0 ? 0 : (want == 1 ? 1 : (want == -1 ? -1 : 0));
      ASSERT_EQ(out[i], want) << soc << " " << x[i] << " ^ " << y[i];
    }
  }
}

// Hypot (950 only): the scaled sum of squares, one fused multiply-add, Sqrt and the exact
// rescaling: 2 ulps float, 1 ulp half; the specials replaced as the device does.
TEST(MathHypot, WithinBoundsAndSpecials) {
  const auto x = Uniform<float>(40, kCount, -1e30f, 1e30f),
             y = Uniform<float>(41, kCount, -1e3f, 1e3f);
  const auto hx = Uniform<half>(42, kCount, -200.0f, 200.0f),
             hy = Uniform<half>(43, kCount, -200.0f, 200.0f);
  for (int form = 0; form < 4; ++form) {
    std::vector<float> out;
    std::vector<half> hout;
    lngrad::aicore::test::OnBlock(
        [&](lngrad::aicore::test::Ub& ub) {
          ub.Put<float>(0, x);
          ub.Put<float>(1, y);
          const LocalTensor<uint8_t> t = ub.Get<uint8_t>(3);
          if (form == 0) Hypot(ub.Get<float>(2), ub.Get<float>(0), ub.Get<float>(1), t, kCount);
          if (form == 1) Hypot(ub.Get<float>(2), ub.Get<float>(0), ub.Get<float>(1), t);
          if (form == 2) Hypot(ub.Get<float>(2), ub.Get<float>(0), ub.Get<float>(1), kCount);
          if (form == 3) Hypot(ub.Get<float>(2), ub.Get<float>(0), ub.Get<float>(1));
          out = ub.Take<float>(2);
          ub.Put<half>(0, hx);
          ub.Put<half>(1, hy);
          Hypot(ub.Get<half>(2), ub.Get<half>(0), ub.Get<half>(1), kCount);
          hout = ub.Take<half>(2);
        },
        k950);
    for (uint32_t i = 0; i < kCount; ++i) {
      const double want = std::hypot(D(x[i]), D(y[i])), hwant = std::hypot(D(hx[i]), D(hy[i]));
      ASSERT_LE(ErrorOf(out[i], want), 2 * UlpAt<float>(want)) << form << " " << i;
      ASSERT_LE(ErrorOf(hout[i], hwant), UlpAt<half>(hwant)) << form << " " << i;
    }
  }
  const float inf = std::numeric_limits<float>::infinity(), nan = std::nanf("");
  const std::vector<float> a = {0.0f, -0.0f, nan, 3.0f, -inf, nan, 3.0f};
  const std::vector<float> b = {0.0f, 0.0f, 1.0f, nan, nan, inf, 4.0f};
  std::vector<float> out;
  lngrad::aicore::test::OnBlock(
      [&](lngrad::aicore::test::Ub& ub) {
        ub.Put<float>(0, a);
        ub.Put<float>(1, b);
        Hypot(ub.Get<float>(2), ub.Get<float>(0), ub.Get<float>(1), 7);
        out = ub.Take<float>(2);
      },
      k950);
  EXPECT_EQ(Bits(out[0]), 0u);
  EXPECT_EQ(out[1], 0.0f);
  EXPECT_TRUE(std::isnan(out[2]));
  EXPECT_TRUE(std::isnan(out[3]));
  EXPECT_EQ(out[4], inf);  // an infinity wins over a NaN
  EXPECT_EQ(out[5], inf);
  EXPECT_EQ(out[6], 5.0f);
  ExpectCheck([](Ub& ub) { Hypot(ub.Get<float>(2), ub.Get<float>(0), ub.Get<float>(1), 16); },
              "product", "Ascend 950");
}

// ------------------------------------------------------------------------------------------
// CumSum.

// The oracle: prefix sums in double; bound k * 2^-24 * (sum of |x| so far) for a sum of k
// terms in float, plus half an ulp of half for the half results.
template <typename T, const CumSumConfig& kConfig>
void CheckCumSum(const char* soc, uint32_t outter, uint32_t inner) {
  const uint32_t n = outter * inner;
  const std::vector<T> in = Uniform<T>(outter * 7 + inner, n, -4.0f, 4.0f);
  std::vector<T> out, last;
  lngrad::aicore::test::OnBlock(
      [&](lngrad::aicore::test::Ub& ub) {
        ub.Put<T>(0, in);
        const CumSumInfo info{outter, inner};
        CumSum<T, kConfig>(ub.Get<T>(1), ub.Get<T>(2), ub.Get<T>(0), ub.Get<uint8_t>(3), info);
        out = ub.Take<T>(1);
        last = ub.Take<T>(2);
      },
      soc);
  std::vector<double> sum(n), abs_sum(n);
  for (uint32_t r = 0; r < outter; ++r) {
    for (uint32_t c = 0; c < inner; ++c) {
      const uint32_t i = r * inner + c;
      const bool first = kConfig.isLastAxis ? c == 0 : r == 0;
      const uint32_t prev = kConfig.isLastAxis ? i - 1 : i - inner;
      sum[i] = D(in[i]) + (first ? 0.0 : sum[prev]);
      abs_sum[i] = std::fabs(D(in[i])) + (first ? 0.0 : abs_sum[prev]);
    }
  }
  const uint32_t terms = kConfig.isLastAxis ? inner : outter;
  for (uint32_t i = 0; i < n; ++i) {
    const double bound = terms * 0x1p-24 * abs_sum[i] + (sizeof(T) == 2 ? UlpAt<T>(sum[i]) / 2 : 0);
    ASSERT_LE(std::fabs(D(out[i]) - sum[i]), bound) << soc << " element " << i;
  }
  if (kConfig.outputLastRow) {
    for (uint32_t c = 0; c < inner; ++c) ASSERT_EQ(D(last[c]), D(out[n - inner + c])) << c;
  }
}

constexpr CumSumConfig kFirstAxis = {false, false, true};
constexpr CumSumConfig kLastAxis = {true, false, true};
constexpr CumSumConfig kLastAxisSklansky = {true, false, false,
                                            CumSumAlgorithm::CUMSUM_ALGORITHM_SKLANSKY};

TEST(MathCumSum, BothAxesHalfAndFloatWithinBounds) {
  for (const char* soc : kSocs) {
    CheckCumSum<float, kFirstAxis>(soc, 37, 24);
    CheckCumSum<float, kLastAxis>(soc, 19, 72);
    CheckCumSum<half, kFirstAxis>(soc, 21, 48);
    CheckCumSum<half, kLastAxis>(soc, 5, 80);
  }
  CheckCumSum<float, kLastAxisSklansky>(k950, 9, 40);
}

TEST(MathCumSum, NegativeZeroBecomesPositiveWhereTheDeviceAddsZero) {
  std::vector<float> out, last;
  lngrad::aicore::test::OnBlock([&](lngrad::aicore::test::Ub& ub) {
    ub.Put<float>(0, std::vector<float>(16, -0.0f));
    CumSum<float, kFirstAxis>(ub.Get<float>(1), ub.Get<float>(2), ub.Get<float>(0),
                              ub.Get<uint8_t>(3), CumSumInfo{2, 8});
    out = ub.Take<float>(1);
    last = ub.Take<float>(2);
  });
  EXPECT_FALSE(std::signbit(out[0]));  // row 0: -0 + 0
  EXPECT_TRUE(std::signbit(out[8]));   // row 1: -0 + -0
  EXPECT_FALSE(std::signbit(last[0]));
}

TEST(MathPowerCumSum, CheckedModeRules) {
  ExpectCheck(
      [](Ub& ub) {
        LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(3);
        tmp.SetSize(1024);  // float tensor^tensor needs 4 * 256 + 256
        Power(ub.Get<float>(2), ub.Get<float>(0), ub.Get<float>(1), tmp, 64);
      },
      "tmp_buffer", "less than the 1280");
  ExpectCheck(
      [](Ub& ub) {
        const LocalTensor<float> a = ub.Get<float>(0);
        Power(a, a, 2.0f, ub.Get<uint8_t>(3), 64);
      },
      "address_overlap", "dst and src");
  ExpectCheck(
      [](Ub& ub) {
        CumSum<float, kFirstAxis>(ub.Get<float>(1), ub.Get<float>(2), ub.Get<float>(0),
                                  ub.Get<uint8_t>(3), CumSumInfo{4, 10});
      },
      "invalid_count", "multiple of 32");
  ExpectCheck(
      [](Ub& ub) {
        LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(3);
        tmp.SetSize(1024);  // half, first axis: outter * inner * 4 = 2048 bytes
        CumSum<half, kFirstAxis>(ub.Get<half>(1), ub.Get<half>(2), ub.Get<half>(0), tmp,
                                 CumSumInfo{32, 16});
      },
      "tmp_buffer", "less than the 2048");
  // The 950's CumSum asserts the same minima (cumsum_3510_impl.h): half first axis
  // outter * inner * 4; last axis (half) 16 * inner * 2 for the cast and 16 * inner * 2 * 2.
  ExpectCheck(
      [](Ub& ub) {
        LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(3);
        tmp.SetSize(2016);
        CumSum<half, kFirstAxis>(ub.Get<half>(1), ub.Get<half>(2), ub.Get<half>(0), tmp,
                                 CumSumInfo{32, 16});
      },
      "tmp_buffer", "less than the 2048", k950);
  ExpectCheck(
      [](Ub& ub) {
        LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(3);
        tmp.SetSize(1504);
        CumSum<half, kLastAxis>(ub.Get<half>(1), ub.Get<half>(2), ub.Get<half>(0), tmp,
                                CumSumInfo{4, 16});
      },
      "tmp_buffer", "less than the 1536", k950);
  // The 950's DOUBLE_FLOAT_TECH keeps three float arrays of the count (GetPowerMaxMinTmpSize's
  // 12 bytes an element there); INTRINSIC needs none.
  ExpectCheck(
      [](Ub& ub) {
        LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(3);
        tmp.SetSize(512);
        Power<float, false, kPowerDoubleFloat>(ub.Get<float>(2), ub.Get<float>(0), 2.0f, tmp, 64);
      },
      "tmp_buffer", "less than the 768", k950);
  ExpectCheck(
      [](Ub& ub) {
        LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(3);
        tmp.SetSize(0);
        Power(ub.Get<float>(2), ub.Get<float>(0), 2.0f, tmp, 64);
      },
      "", "", k950);
}

// ------------------------------------------------------------------------------------------
// Host scratch sizes (arch 2201: the default product of this process).

TEST(MathTranscendentalTiling, EveryFunctionPinned) {
  const ge::Shape s({1000});
  uint32_t mx = 0, mn = 0, k = 0, extra = 9;
  EXPECT_TRUE(GetExpMaxMinTmpSize(s, 4, false, mx, mn));
  EXPECT_EQ(mx, 3u * 4000);
  EXPECT_EQ(mn, 3u * 256);
  GetExpMaxMinTmpSize(s, 4, true, mx, mn);
  EXPECT_EQ(mx, 2u * 4000);
  GetExpMaxMinTmpSize(s, 2, false, mx, mn);
  EXPECT_EQ(mx, 4u * 4000);  // half counts its float copies
  EXPECT_EQ(mn, 1024u);
  GetExpTmpBufferFactorSize(2, k, extra);
  EXPECT_EQ(k, 8u);
  EXPECT_EQ(extra, 0u);
  GetLogMaxMinTmpSize(s, 2, false, mx, mn);
  EXPECT_EQ(mx + mn, 0u);
  GetLog2MaxMinTmpSize(s, 2, false, mx, mn);
  EXPECT_EQ(mx, 4000u);
  EXPECT_EQ(mn, 256u);
  GetLog2MaxMinTmpSize(s, 4, false, mx, mn);
  EXPECT_EQ(mx + mn, 0u);
  GetLog2TmpBufferFactorSize(2, k, extra);
  EXPECT_EQ(k, 2u);
  GetErfMaxMinTmpSize(s, 2, false, mx, mn);
  EXPECT_EQ(mx, 8u * 2000);
  EXPECT_EQ(mn, 8u * 256);
  GetAcoshMaxMinTmpSize(s, 2, false, mx, mn);
  EXPECT_EQ(mx, 2u * 1000 * 2);
  EXPECT_EQ(mn, 512u);
  GetAcoshMaxMinTmpSize(ge::Shape({16}), 4, false, mx, mn);
  EXPECT_EQ(mx, 256u * 4);
  EXPECT_EQ(mn, 256u);
  GetTanhMaxMinTmpSize(s, 2, false, mx, mn);
  EXPECT_EQ(mx, 4u * 2000);
  EXPECT_EQ(mn, 1024u);
  GetTanhMaxMinTmpSize(ge::Shape({16}), 4, false, mx, mn);
  EXPECT_EQ(mx, 256u);
  GetSignMaxMinTmpSize(s, 4, false, mx, mn);
  EXPECT_EQ(mx, 3u * 4000);
  EXPECT_EQ(mn, 768u);
  GetSignMaxMinTmpSize(ge::Shape({16}), 2, false, mx, mn);
  EXPECT_EQ(mx, 768u);
  GetSignTmpBufferFactorSize(2, k, extra);
  EXPECT_EQ(k, 3u);
  GetTanhTmpBufferFactorSize(2, k, extra);
  EXPECT_EQ(k, 4u);
  GetCoshMaxMinTmpSize(s, 2, false, mx, mn);
  EXPECT_EQ(mx, 6u * 2000);
  EXPECT_EQ(mn, 6u * 256);
  GetSinhMaxMinTmpSize(s, 4, false, mx, mn);
  EXPECT_EQ(mx, 4000u);
  EXPECT_EQ(mn, 256u);
  GetAsinhMaxMinTmpSize(ge::Shape({16}), 2, false, mx, mn);
  EXPECT_EQ(mx, 3u * 256);
  EXPECT_EQ(mn, 3u * 256);
  GetAtanhTmpBufferFactorSize(2, k, extra);
  EXPECT_EQ(k, 4u);
  GetSinMaxMinTmpSize(s, 4, true, mx, mn);
  EXPECT_EQ(mx, 2u * 4000);
  EXPECT_EQ(mn, 512u);
  GetSinMaxMinTmpSize(ge::Shape({16}), 2, false, mx, mn);
  EXPECT_EQ(mx, 8u * 256);
  GetCosMaxMinTmpSize(s, 2, false, mx, mn);
  EXPECT_EQ(mx, 8u * 2000);
  EXPECT_EQ(mn, 8u * 256);
  GetCosTmpBufferFactorSize(4, k, extra);
  EXPECT_EQ(k, 3u);
  GetAtanMaxMinTmpSize(s, 2, false, mx, mn);
  EXPECT_EQ(mx, 12u * 2000);
  EXPECT_EQ(mn, 12u * 256);
  GetAsinMaxMinTmpSize(s, 4, false, mx, mn);
  EXPECT_EQ(mx, 2u * 4000);
  EXPECT_EQ(mn, 512u);
  GetAcosTmpBufferFactorSize(2, k, extra);
  EXPECT_EQ(k, 6u);
  GetTanMaxMinTmpSize(s, 2, false, mx, mn);
  EXPECT_EQ(mx, 10u * 2000);
  EXPECT_EQ(mn, 10u * 256);
  GetErfcMaxMinTmpSize(s, 4, false, mx, mn);
  EXPECT_EQ(mx, 7u * 4000);
  EXPECT_EQ(mn, 7u * 256);
  mx = mn = 7;
  GetHypotMaxMinTmpSize(s, 4, false, mx, mn);
  EXPECT_EQ(mx + mn, 0u);
  GetErfMaxMinTmpSize(ge::Shape({0}), 4, false, mx, mn);
  EXPECT_FALSE(lngrad::tiling::LastTilingStatus().ok());
}

TEST(MathTranscendentalTiling, PowerAndCumSumPinned) {
  const ge::Shape t({1000}), scalar({1});
  uint32_t mx = 0, mn = 0, k = 0, extra = 0;
  GetPowerMaxMinTmpSize(t, t, false, 4, false, mx, mn);
  EXPECT_EQ(mx, 4000u * 4 + 256);
  EXPECT_EQ(mn, 256u * 4 + 256);
  GetPowerMaxMinTmpSize(t, scalar, false, 4, false, mx, mn);
  EXPECT_EQ(mx, 4000u * 5 + 256);
  EXPECT_EQ(mn, 256u * 5 + 256);
  GetPowerMaxMinTmpSize(scalar, t, false, 2, false, mx, mn);
  EXPECT_EQ(mx, 2000u * 14 + 256);
  EXPECT_EQ(mn, 128u * 14 + 256);
  GetPowerMaxMinTmpSize(t, t, true, 4, false, mx, mn);
  EXPECT_EQ(mx, 4000u * 6);
  EXPECT_EQ(mn, 256u * 6);
  GetPowerTmpBufferFactorSize(true, false, true, 4, k, extra);
  EXPECT_EQ(k, 7u);
  EXPECT_EQ(extra, 0u);
  GetPowerTmpBufferFactorSize(true, true, false, 2, k, extra);
  EXPECT_EQ(k, 14u);
  EXPECT_EQ(extra, 256u);
  const ge::Shape m({20, 8});
  GetCumSumMaxMinTmpSize(m, 4, false, false, mx, mn);
  EXPECT_EQ(mx + mn, 0u);
  GetCumSumMaxMinTmpSize(ge::Shape({20, 16}), 2, false, false, mx, mn);
  EXPECT_EQ(mx, 20u * 16 * 4);
  EXPECT_EQ(mn, mx);
  GetCumSumMaxMinTmpSize(m, 4, true, false, mx, mn);
  EXPECT_EQ(mn, 16u * 8 * 4 * 2);
  EXPECT_EQ(mx, 32u * 8 * 4 * 2);  // 20 rows rounded up to 32
  GetCumSumMaxMinTmpSize(ge::Shape({20, 16}), 2, true, false, mx, mn);
  EXPECT_EQ(mn, 16u * 16 * 2 + 16u * 16 * 2 * 2);
  EXPECT_EQ(mx, 16u * 32 * 2 + 32u * 16 * 2 * 2);
  mx = mn = 7;
  GetCumSumMaxMinTmpSize(ge::Shape({20, 5}), 4, true, false, mx, mn);
  EXPECT_EQ(mx, 7u);  // untouched: 5 floats are not 32 bytes
  EXPECT_FALSE(lngrad::tiling::LastTilingStatus().ok());
}

// Sin's and Cos's config-taking sizes exist on the 950 only: elsewhere an error naming the
// product, the outputs untouched.
TEST(MathTranscendentalTiling, SinCosConfigFormsRefusedOff950) {
  ASSERT_NE(platform_ascendc::PlatformAscendCManager::GetInstance()->SimulatedProduct().arch,
            lngrad::NpuArch::k3510);
  uint32_t mx = 7, mn = 7, k = 9, extra = 9;
  GetSinMaxMinTmpSize(SinConfig{SinAlgo::RADIAN_REDUCTION}, ge::Shape({64}), 4, false, mx, mn);
  EXPECT_EQ(mx + mn, 14u);
  const lngrad::Status s = lngrad::tiling::LastTilingStatus();
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("[GetSinMaxMinTmpSize] Sin exists on arch 3510 only"),
            std::string::npos)
      << s.message();
  GetCosTmpBufferFactorSize(CosConfig{}, 4, k, extra);
  EXPECT_EQ(k + extra, 18u);
  EXPECT_FALSE(lngrad::tiling::LastTilingStatus().ok());
}

// Arch 3510's Power sizes: the process's product must be a 950 (LNGRAD_SOC, read once per
// process): CTest runs this test again as adv.MathTranscendentalTiling950.PinnedOn950 with
// LNGRAD_SOC=Ascend950PR_9589; elsewhere it skips.
TEST(MathTranscendentalTiling950, PowerPinned) {
  if (platform_ascendc::PlatformAscendCManager::GetInstance()->SimulatedProduct().arch !=
      lngrad::NpuArch::k3510) {
    GTEST_SKIP() << "needs LNGRAD_SOC set to a 950 product";
  }
  const ge::Shape t({1000}), scalar({1});
  uint32_t mx = 0, mn = 0, k = 0, extra = 9;
  GetPowerMaxMinTmpSize(t, t, false, 4, false, mx, mn);
  EXPECT_EQ(mx, 12000u);
  EXPECT_EQ(mn, 12000u);
  GetPowerMaxMinTmpSize(scalar, t, false, 2, false, mx, mn);
  EXPECT_EQ(mx, 12000u);  // 4 * n * 3 for half too
  GetPowerMaxMinTmpSize(t, t, true, 4, false, mx, mn);
  EXPECT_EQ(mx + mn, 0u);
  GetPowerTmpBufferFactorSize(true, true, false, 2, k, extra);
  EXPECT_EQ(k, 6u);
  EXPECT_EQ(extra, 0u);
}

// Sin's and Cos's config-taking sizes (the 950's sin_tiling / cos_tiling): nothing for the
// polynomial, two float planes of the count rounded up to 32 and 32 bytes for the radian
// reduction (no shape check: a count of 0 still gets its 32 bytes).
TEST(MathTranscendentalTiling950, SinCosConfigPinned) {
  if (platform_ascendc::PlatformAscendCManager::GetInstance()->SimulatedProduct().arch !=
      lngrad::NpuArch::k3510) {
    GTEST_SKIP() << "needs LNGRAD_SOC set to a 950 product";
  }
  constexpr SinConfig kPoly{};
  constexpr SinConfig kRadian{SinAlgo::RADIAN_REDUCTION};
  constexpr CosConfig kCosRadian{CosAlgo::RADIAN_REDUCTION};
  uint32_t mx = 7, mn = 7, k = 9, extra = 9;
  GetSinMaxMinTmpSize(kPoly, ge::Shape({1000}), 4, false, mx, mn);
  EXPECT_EQ(mx + mn, 0u);
  GetSinMaxMinTmpSize(kRadian, ge::Shape({1001}), 4, false, mx, mn);
  EXPECT_EQ(mx, 4u * 1024 * 2 + 32);
  EXPECT_EQ(mn, 4u * 1024 * 2 + 32);
  GetCosMaxMinTmpSize(kCosRadian, ge::Shape({4, 8}), 2, false, mx, mn);
  EXPECT_EQ(mx, 4u * 32 * 2 + 32);
  EXPECT_EQ(mn, 4u * 32 * 2 + 32);
  GetCosMaxMinTmpSize(kCosRadian, ge::Shape({0}), 2, false, mx, mn);
  EXPECT_EQ(mx, 32u);
  GetCosMaxMinTmpSize(CosConfig{}, ge::Shape({33}), 2, false, mx, mn);
  EXPECT_EQ(mx + mn, 0u);
  GetSinTmpBufferFactorSize(kRadian, 4, k, extra);
  EXPECT_EQ(k, 2u);
  EXPECT_EQ(extra, 32u);
  GetCosTmpBufferFactorSize(kCosRadian, 2, k, extra);
  EXPECT_EQ(k, 4u);
  EXPECT_EQ(extra, 0u);
  GetSinTmpBufferFactorSize(kPoly, 2, k, extra);
  EXPECT_EQ(k + extra, 0u);
  EXPECT_TRUE(lngrad::tiling::LastTilingStatus().ok());
  // The config-free forms keep the 2201 sequence's sizes on the 950 too, as the toolkit's.
  GetSinMaxMinTmpSize(ge::Shape({1000}), 4, false, mx, mn);
  EXPECT_EQ(mx, 3u * 4000);
}

}  // namespace
