// The transcendental high-level math APIs Exp (Taylor), Log, Log2, Log10, Erf, Acosh, Tanh, Sign
// (lib/math/*.h) against a float64 oracle (the C library's double functions) with the bounds
// each test states, half and float, on Ascend910B1 (arch 2201) and Ascend950PR (arch 3510), with
// counts that are not a multiple of a repeat, every overload, and the checked-mode rules. The
// bounds are in units in the last place of the oracle's value in the operand type (ulp), from
// the error analysis of each API's instruction sequence in docs/ascendc_kernels.md.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "../aicore/repeat_test_util.h"
#include "../aicore/sanitizer_off.h"
#include "kernel_operator.h"
#include "math_transcendental_test_util.h"

namespace {

using namespace AscendC;
using namespace lngrad::adv::testing;

constexpr uint32_t kCount = 1000;  // 15 repeats of 64 floats and a tail of 40

// The four overloads of a unary API as callables (dst, src, sharedTmpBuffer, count): with
// sharedTmpBuffer and calCount, with sharedTmpBuffer only, with calCount only, with neither.
#define LNGRAD_UNARY_FORMS(Name)                                                   \
  const auto tmp_n = [](auto d, auto s, auto t, uint32_t n) { Name(d, s, t, n); }; \
  const auto tmp = [](auto d, auto s, auto t, uint32_t) { Name(d, s, t); };        \
  const auto count = [](auto d, auto s, auto, uint32_t n) { Name(d, s, n); };      \
  const auto all = [](auto d, auto s, auto, uint32_t) { Name(d, s); }

// Exp with the default Taylor level (10), every overload, against e^x.
TEST(MathExp, TaylorLevel10WithinBounds) {
  for (const char* soc : kSocs) {
    const auto in_f = Uniform<float>(1, kCount, -80.0f, 80.0f);
    const auto in_h = Uniform<half>(2, kCount, -10.0f, 10.0f);
    const auto exp = [](double x) { return std::exp(x); };
    ExpectWithinUlps(in_f,
                     RunUnary<float>(soc, in_f, kCount,
                                     [](auto d, auto s, auto t, uint32_t n) {
                                       Exp<float, 10, false>(d, s, t, n);
                                     }),
                     exp, 8.0, "Exp float tmp");
    ExpectWithinUlps(
        in_f,
        RunUnary<float>(soc, in_f, kCount,
                        [](auto d, auto s, auto, uint32_t n) { Exp<float, 10, false>(d, s, n); }),
        exp, 8.0, "Exp float stack");
    ExpectWithinUlps(in_h,
                     RunUnary<half>(soc, in_h, kCount,
                                    [](auto d, auto s, auto t, uint32_t n) {
                                      Exp<half, 10, false>(d, s, t, n);
                                    }),
                     exp, 1.0, "Exp half tmp");
    ExpectWithinUlps(
        in_h,
        RunUnary<half>(soc, in_h, kCount,
                       [](auto d, auto s, auto, uint32_t n) { Exp<half, 10>(d, s, n); }),
        exp, 1.0, "Exp half stack");
  }
}

// Level 0 is the basic instruction (correctly rounded from double); isReuseSource (float) leaves
// the fractional parts x - floor(x) in the source.
TEST(MathExp, LevelZeroAndReuseSource) {
  const auto in = Uniform<float>(3, kCount, -20.0f, 20.0f);
  const auto out = RunUnary<float>(
      k910B, in, kCount, [](auto d, auto s, auto t, uint32_t n) { Exp<float, 0>(d, s, t, n); });
  ExpectWithinUlps(
      in, out, [](double x) { return std::exp(x); }, 0.5, "Exp level 0");
  std::vector<float> src_after;
  OnBlock([&](Ub& ub) {
    ub.Put<float>(0, in);
    Exp<float, 10, true>(ub.Get<float>(1), ub.Get<float>(0), ub.Get<uint8_t>(2), kCount);
    src_after = ub.Take<float>(0);
  });
  for (uint32_t i = 0; i < kCount; ++i) {
    ASSERT_EQ(src_after[i], in[i] - std::floor(in[i])) << i;
  }
}

// The sequence's specials: x - floor(x) is NaN for infinite x, so Exp(+-inf) is NaN.
TEST(MathExp, InfinitiesGiveNaNAsTheSequenceDoes) {
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<float> in = {inf, -inf, 0.0f, -0.0f};
  const auto out = RunUnary<float>(
      k910B, in, 4, [](auto d, auto s, auto t, uint32_t n) { Exp<float, 10>(d, s, t, n); });
  EXPECT_TRUE(std::isnan(out[0]));
  EXPECT_TRUE(std::isnan(out[1]));
  EXPECT_EQ(out[2], 1.0f);
  EXPECT_EQ(out[3], 1.0f);
}

TEST(MathLog, LogLog2Log10WithinBounds) {
  for (const char* soc : kSocs) {
    const auto in_f = LogUniform<float>(4, kCount, -30, 30);
    const auto in_h = LogUniform<half>(5, kCount, -14, 15);
    const auto ln = [](double x) { return std::log(x); };
    const auto l2 = [](double x) { return std::log2(x); };
    const auto l10 = [](double x) { return std::log10(x); };
    const auto log = [](auto d, auto s, auto, uint32_t n) { Log(d, s, n); };
    const auto log_all = [](auto d, auto s, auto, uint32_t) { Log(d, s); };
    const auto log2_tmp = [](auto d, auto s, auto t, uint32_t n) { Log2(d, s, t, n); };
    const auto log2 = [](auto d, auto s, auto, uint32_t n) { Log2(d, s, n); };
    const auto log10 = [](auto d, auto s, auto, uint32_t n) { Log10(d, s, n); };
    ExpectWithinUlps(in_f, RunUnary<float>(soc, in_f, kCount, log), ln, 0.5, "Log float");
    ExpectWithinUlps(in_h, RunUnary<half>(soc, in_h, kCount, log_all), ln, 0.5, "Log half all");
    ExpectWithinUlps(in_f, RunUnary<float>(soc, in_f, kCount, log2_tmp), l2, 2.5, "Log2 float");
    ExpectWithinUlps(in_h, RunUnary<half>(soc, in_h, kCount, log2_tmp), l2, 0.5, "Log2 half");
    ExpectWithinUlps(in_h, RunUnary<half>(soc, in_h, kCount, log2), l2, 0.5, "Log2 half stack");
    ExpectWithinUlps(in_f, RunUnary<float>(soc, in_f, kCount, log10), l10, 2.5, "Log10 float");
    ExpectWithinUlps(in_h, RunUnary<half>(soc, in_h, kCount, log10), l10, 2.5, "Log10 half");
  }
}

TEST(MathLog, Specials) {
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<float> in = {0.0f, -0.0f, -1.0f, inf, 1.0f};
  const auto out =
      RunUnary<float>(k910B, in, 5, [](auto d, auto s, auto, uint32_t n) { Log(d, s, n); });
  EXPECT_EQ(out[0], -inf);
  EXPECT_EQ(out[1], -inf);
  EXPECT_TRUE(std::isnan(out[2]));
  EXPECT_EQ(out[3], inf);
  EXPECT_EQ(out[4], 0.0f);
}

// Erf's rational approximation on [-3.92, 3.92] (constant beyond): absolute error bound.
TEST(MathErf, WithinBoundsEveryOverload) {
  for (const char* soc : kSocs) {
    const auto in_f = Uniform<float>(6, kCount, -6.0f, 6.0f);
    const auto in_h = Uniform<half>(7, kCount, -6.0f, 6.0f);
    const auto erf = [](double x) { return std::erf(x); };
    LNGRAD_UNARY_FORMS(Erf);
    ExpectWithinAbs(in_f, RunUnary<float>(soc, in_f, kCount, tmp_n), erf, 1e-6, "Erf float");
    ExpectWithinAbs(in_f, RunUnary<float>(soc, in_f, kCount, count), erf, 1e-6, "Erf float n");
    ExpectWithinAbs(in_h, RunUnary<half>(soc, in_h, kCount, tmp), erf, 1e-3, "Erf half tmp");
    ExpectWithinAbs(in_h, RunUnary<half>(soc, in_h, kCount, all), erf, 1e-3, "Erf half all");
  }
}

// Acosh: relative bound for x >= 2, absolute near 1 (x * x - 1 cancels), NaN below 1.
TEST(MathAcosh, WithinBoundsEveryOverload) {
  for (const char* soc : kSocs) {
    const auto in_f = LogUniform<float>(8, kCount, 0, 18);
    const auto in_h = LogUniform<half>(9, kCount, 0, 8);
    const auto acosh = [](double x) { return std::acosh(x); };
    LNGRAD_UNARY_FORMS(Acosh);
    ExpectWithinAbsOrUlps(in_f, RunUnary<float>(soc, in_f, kCount, tmp_n), acosh, 3e-4, 3.0,
                          "Acosh float");
    ExpectWithinAbsOrUlps(in_f, RunUnary<float>(soc, in_f, kCount, count), acosh, 3e-4, 3.0,
                          "Acosh float n");
    ExpectWithinAbsOrUlps(in_h, RunUnary<half>(soc, in_h, kCount, tmp), acosh, 3e-4, 1.0,
                          "Acosh half");
    ExpectWithinAbsOrUlps(in_h, RunUnary<half>(soc, in_h, kCount, all), acosh, 3e-4, 1.0,
                          "Acosh half all");
  }
  const std::vector<float> low = {0.5f, -2.0f, 1.0f};
  const auto out =
      RunUnary<float>(k910B, low, 3, [](auto d, auto s, auto, uint32_t n) { Acosh(d, s, n); });
  EXPECT_TRUE(std::isnan(out[0]));
  EXPECT_TRUE(std::isnan(out[1]));
  EXPECT_EQ(out[2], 0.0f);
}

// Tanh: (e^2x - 1) / (e^2x + 1) with |x| clipped at 8.8 (tanh(8.8) rounds to 1 in float): the
// cancellation in e^2x - 1 near 0 gives an absolute bound there, 3 ulps elsewhere.
TEST(MathTanh, WithinBoundsEveryOverload) {
  for (const char* soc : kSocs) {
    const auto in_f = Uniform<float>(12, kCount, -12.0f, 12.0f);
    const auto in_h = Uniform<half>(13, kCount, -6.0f, 6.0f);
    const auto tanh = [](double x) { return std::tanh(x); };
    LNGRAD_UNARY_FORMS(Tanh);
    ExpectWithinAbsOrUlps(in_f, RunUnary<float>(soc, in_f, kCount, tmp_n), tanh, 1.2e-7, 3.0,
                          "Tanh float");
    ExpectWithinAbsOrUlps(in_f, RunUnary<float>(soc, in_f, kCount, all), tanh, 1.2e-7, 3.0,
                          "Tanh float all");
    ExpectWithinAbsOrUlps(in_h, RunUnary<half>(soc, in_h, kCount, tmp), tanh, 1e-7, 1.0,
                          "Tanh half");
    ExpectWithinAbsOrUlps(in_h, RunUnary<half>(soc, in_h, kCount, count), tanh, 1e-7, 1.0,
                          "Tanh half n");
  }
}

// Sign is exact: -1, 1, +0 for zeros and NaN.
TEST(MathSign, ExactEveryOverloadAndType) {
  const auto sign = [](double x) { return x > 0 ? 1.0 : (x < 0 ? -1.0 : 0.0); };
  for (const char* soc : kSocs) {
    const auto in_f = Inputs<float>(14, kCount);
    const auto in_h = Inputs<half>(15, kCount);
    const auto tmp_n = [](auto d, auto s, auto t, uint32_t n) { Sign(d, s, t, n); };
    const auto count = [](auto d, auto s, auto, uint32_t n) { Sign(d, s, n); };
    const auto out_f = RunUnary<float>(soc, in_f, kCount, tmp_n);
    const auto out_h = RunUnary<half>(soc, in_h, kCount, count);
    for (uint32_t i = 0; i < kCount; ++i) {
      const double want_f = std::isnan(in_f[i]) ? 0.0 : sign(in_f[i]);
      const double want_h = std::isnan(D(in_h[i])) ? 0.0 : sign(D(in_h[i]));
      ASSERT_EQ(Bits(out_f[i]), Bits(static_cast<float>(want_f))) << i;
      ASSERT_EQ(Bits(out_h[i]), Bits(half(static_cast<float>(want_h)))) << i;
    }
  }
  const std::vector<int64_t> in = {-5, 0, 7, INT64_MIN};
  const auto out =
      RunUnary<int64_t>(k950, in, 4, [](auto d, auto s, auto t, uint32_t n) { Sign(d, s, t, n); });
  EXPECT_EQ(out, (std::vector<int64_t>{-1, 0, 1, -1}));
}

TEST(MathTranscendental, CheckedModeRules) {
  ExpectCheck(
      [](Ub& ub) {
        LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(2);
        tmp.SetSize(512);  // float without isReuseSource needs 3 * 256
        Exp<float, 10>(ub.Get<float>(1), ub.Get<float>(0), tmp, 64);
      },
      "tmp_buffer", "less than the 768");
  ExpectCheck(
      [](Ub& ub) {
        LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(2);
        tmp.SetSize(1024);  // half needs 8 * 256
        Erf(ub.Get<half>(1), ub.Get<half>(0), tmp, 64);
      },
      "tmp_buffer", "less than the 2048");
  ExpectCheck(
      [](Ub& ub) {
        LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(2);
        tmp.SetSize(256);  // half needs 2 * 256
        Acosh(ub.Get<half>(1), ub.Get<half>(0), tmp, 64);
      },
      "tmp_buffer", "less than the 512");
  ExpectCheck(
      [](Ub& ub) {
        LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(2);
        tmp.SetSize(0);
        Log2(ub.Get<half>(1), ub.Get<half>(0), tmp, 64);
      },
      "tmp_buffer", "less than the 256");
  ExpectCheck([](Ub& ub) { Log(ub.Get<float>(0), ub.Get<float>(0), 64); }, "address_overlap",
              "dst and src");
  ExpectCheck([](Ub& ub) { Erf(ub.Get<float>(0)[8], ub.Get<float>(0), ub.Get<uint8_t>(2), 64); },
              "address_overlap", "dst and src");
  ExpectCheck([](Ub& ub) { Acosh(ub.Get<float>(1), ub.Get<float>(0), ub.Get<uint8_t>(1), 64); },
              "address_overlap", "sharedTmpBuffer and dst");
  ExpectCheck(
      [](Ub& ub) {
        LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(2);
        tmp.SetSize(512);  // half needs 4 * 256
        Tanh(ub.Get<half>(1), ub.Get<half>(0), tmp, 64);
      },
      "tmp_buffer", "less than the 1024");
  ExpectCheck([](Ub& ub) { Sign(ub.Get<int64_t>(1), ub.Get<int64_t>(0), 16); }, "product",
              "Ascend 950");
  // Arch 3510 needs no scratch: an empty sharedTmpBuffer is accepted there.
  ExpectCheck(
      [](Ub& ub) {
        LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(2);
        tmp.SetSize(0);
        Exp<float, 10>(ub.Get<float>(1), ub.Get<float>(0), tmp, 64);
      },
      "", "", k950);
}

}  // namespace
