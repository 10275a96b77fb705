// The element-wise transcendental high-level math APIs (lib/math/*.h: Exp with its Taylor
// levels, Log, Log2, Log10, Erf, Erfc, Acosh, Tanh, Sign, Sin, Cos, Tan, Atan, Asin, Acos, Cosh,
// Sinh, Asinh, Atanh) against a float64 oracle (the C library's double functions) with the bounds
// each test states, half and float, on Ascend910B1 (arch 2201) and Ascend950PR (arch 3510), with
// counts that are not a multiple of a repeat, every overload, and the checked-mode rules. The
// bounds are in units in the last place of the oracle's value in the operand type (ulp) or
// absolute, from the error analysis of each API's instruction sequence in
// docs/ascendc_kernels.md ("Math: transcendental APIs").
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <functional>
#include <iterator>
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

// The four overloads of a unary API, chosen by `form`: with sharedTmpBuffer and calCount (0),
// sharedTmpBuffer only (1), calCount only (2), neither (3).
#define LNGRAD_UNARY_CALL(Name)                      \
  [](int form, auto d, auto s, auto t, uint32_t n) { \
    if (form == 0) Name(d, s, t, n);                 \
    if (form == 1) Name(d, s, t);                    \
    if (form == 2) Name(d, s, n);                    \
    if (form == 3) Name(d, s);                       \
  }

// A bound: within `abs` or within `ulps` ulps of the oracle's value, the larger.
struct Bound {
  double abs, ulps;
};

// Every form of `api` on float (in_f) and half (in_h) inputs against the oracle.
template <typename Api>
void CheckUnaryApi(const char* soc, const std::string& name, const std::vector<float>& in_f,
                   const std::vector<half>& in_h, const std::function<double(double)>& oracle,
                   Bound bf, Bound bh, Api api) {
  for (int form = 0; form < 4; ++form) {
    const auto run = [&](auto d, auto s, auto t, uint32_t n) { api(form, d, s, t, n); };
    const std::string what = name + " " + soc + " form " + std::to_string(form);
    ExpectWithinAbsOrUlps(in_f, RunUnary<float>(soc, in_f, kCount, run), oracle, bf.abs, bf.ulps,
                          what + " float");
    ExpectWithinAbsOrUlps(in_h, RunUnary<half>(soc, in_h, kCount, run), oracle, bh.abs, bh.ulps,
                          what + " half");
  }
}

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

// The 950 (exp_3510_impl.h, log_3510_impl.h) selects +inf for +inf and 0 for -inf after the
// chain, and casts half back with saturation (an infinity to 65504, NaN to +0); so do Log2 and
// Log10 on half; its Exp leaves the source alone with isReuseSource.
TEST(MathExp, SpecialsAndSaturationOn950) {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const auto exp10 = [](auto d, auto s, auto t, uint32_t n) { Exp<float, 10, true>(d, s, t, n); };
  const std::vector<float> in = {inf, -inf, 0.0f, nan, 89.0f};
  std::vector<float> out, src_after;
  OnBlock(
      [&](Ub& ub) {
        ub.Put<float>(0, in);
        exp10(ub.Get<float>(1), ub.Get<float>(0), ub.Get<uint8_t>(2), 5);
        out = ub.Take<float>(1);
        src_after = ub.Take<float>(0);
      },
      k950);
  EXPECT_EQ(out[0], inf);
  EXPECT_TRUE(out[1] == 0.0f && !std::signbit(out[1]));
  EXPECT_EQ(out[2], 1.0f);
  EXPECT_TRUE(std::isnan(out[3]));
  EXPECT_EQ(out[4], inf);
  EXPECT_EQ(src_after[0], inf);
  EXPECT_EQ(src_after[4], 89.0f);
  const std::vector<half> in_h = {half(inf),   half(-inf), half(nan),
                                  half(12.0f), half(0.0f), half(-1.0f)};
  const auto exp_h = RunUnary<half>(
      k950, in_h, 6, [](auto d, auto s, auto t, uint32_t n) { Exp<half, 10>(d, s, t, n); });
  const std::vector<double> want_exp = {65504, 0, 0, 65504, 1, std::exp(-1.0)};
  for (size_t i = 0; i < 5; ++i) EXPECT_EQ(D(exp_h[i]), want_exp[i]) << i;
  EXPECT_NEAR(D(exp_h[5]), want_exp[5], 1e-3);
  const auto l2 =
      RunUnary<half>(k950, in_h, 6, [](auto d, auto s, auto t, uint32_t n) { Log2(d, s, t, n); });
  const auto l10 =
      RunUnary<half>(k950, in_h, 6, [](auto d, auto s, auto, uint32_t n) { Log10(d, s, n); });
  const std::vector<double> want_log = {65504, 0, 0, -1, -65504, 0};  // 12: checked apart
  for (size_t i : {0, 1, 2, 4, 5}) {
    EXPECT_EQ(D(l2[i]), want_log[i]) << i;
    EXPECT_EQ(D(l10[i]), want_log[i]) << i;
  }
  EXPECT_NEAR(D(l2[3]), std::log2(12.0), 2e-3);
  EXPECT_NEAR(D(l10[3]), std::log10(12.0), 1e-3);
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
    CheckUnaryApi(
        soc, "Erf", Uniform<float>(6, kCount, -6.0f, 6.0f), Uniform<half>(7, kCount, -6.0f, 6.0f),
        [](double x) { return std::erf(x); }, {1e-6, 0}, {1e-3, 0}, LNGRAD_UNARY_CALL(Erf));
  }
}

// Acosh: relative bound for x >= 2, absolute near 1 (x * x - 1 cancels), NaN below 1.
TEST(MathAcosh, WithinBoundsEveryOverload) {
  for (const char* soc : kSocs) {
    CheckUnaryApi(
        soc, "Acosh", LogUniform<float>(8, kCount, 0, 18), LogUniform<half>(9, kCount, 0, 8),
        [](double x) { return std::acosh(x); }, {3e-4, 3.0}, {3e-4, 1.0}, LNGRAD_UNARY_CALL(Acosh));
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
    CheckUnaryApi(
        soc, "Tanh", Uniform<float>(12, kCount, -12.0f, 12.0f),
        Uniform<half>(13, kCount, -6.0f, 6.0f), [](double x) { return std::tanh(x); },
        {1.2e-7, 3.0}, {1e-7, 1.0}, LNGRAD_UNARY_CALL(Tanh));
  }
}

// Tanh's 950 SUBSECTION_COMPENSATION: the odd polynomial below 0.55 (at most 2.7 ulps from
// tanh, checked in double over every float there), the exponential form above: the same bounds.
constexpr TanhConfig kCompensation = {TanhAlgo::SUBSECTION_COMPENSATION};
TEST(MathTanh, CompensationOn950WithinBounds) {
  CheckUnaryApi(
      k950, "Tanh", Uniform<float>(14, kCount, -3.0f, 3.0f), Uniform<half>(15, kCount, -3.0f, 3.0f),
      [](double x) { return std::tanh(x); }, {1.2e-7, 3.0}, {1e-7, 1.0},
      [](int form, auto d, auto s, auto t, uint32_t n) {
        using TT = typename decltype(d)::PrimType;
        if (form == 0) Tanh<TT, false, kCompensation>(d, s, t, n);
        if (form == 1) Tanh<TT, false, kCompensation>(d, s, t);
        if (form == 2) Tanh<TT, false, kCompensation>(d, s, n);
        if (form == 3) Tanh<TT, false, kCompensation>(d, s);
      });
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

// Cosh, Sinh: the rounding of x - ln2 (half an ulp of x) becomes |x| 2^-24 relative in the Exp:
// (2|x| + 3) ulps, 23 on [-10, 10]; Sinh's b - a cancels near 0 (absolute 1.2e-7 there).
// Asinh, Atanh: 4 ulps, or 1.2e-7 absolute near 0 where 1 + x rounds.
TEST(MathHyperbolic, WithinBoundsEveryOverload) {
  for (const char* soc : kSocs) {
    const auto in_f = Uniform<float>(16, kCount, -10.0f, 10.0f);
    const auto in_h = Uniform<half>(17, kCount, -10.0f, 10.0f);
    CheckUnaryApi(
        soc, "Cosh", in_f, in_h, [](double x) { return std::cosh(x); }, {0, 23.0}, {0, 1.0},
        LNGRAD_UNARY_CALL(Cosh));
    CheckUnaryApi(
        soc, "Sinh", in_f, in_h, [](double x) { return std::sinh(x); }, {1.2e-7, 23.0}, {1e-7, 1.0},
        LNGRAD_UNARY_CALL(Sinh));
    CheckUnaryApi(
        soc, "Asinh", Uniform<float>(20, kCount, -1e4f, 1e4f), in_h,
        [](double x) { return std::asinh(x); }, {1.2e-7, 4.0}, {1e-7, 1.0},
        LNGRAD_UNARY_CALL(Asinh));
    CheckUnaryApi(
        soc, "Atanh", Uniform<float>(18, kCount, -0.999f, 0.999f),
        Uniform<half>(19, kCount, -0.99f, 0.99f), [](double x) { return std::atanh(x); },
        {1.2e-7, 4.0}, {1e-7, 1.0}, LNGRAD_UNARY_CALL(Atanh));
  }
}

// Checked mode refuses a sharedTmpBuffer of `bytes` for api(dst, src, tmp) on 64 elements.
template <typename T, typename Api>
void ExpectTmpTooSmall(uint32_t bytes, const std::string& needle, Api api) {
  ExpectCheck(
      [&](Ub& ub) {
        LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(2);
        tmp.SetSize(bytes);
        api(ub.Get<T>(1), ub.Get<T>(0), tmp);
      },
      "tmp_buffer", needle);
}

// Sin, Cos: the four- (five-) part pi reduction keeps x0 within an ulp or so of the exact reduction
// for |x| < 2^10; the polynomial's own error is about 2^-24: 4 ulps or 1.2e-7 absolute (near the
// zeros, where the reduced argument's absolute error shows).
TEST(MathSinCos, WithinBoundsEveryOverload) {
  for (const char* soc : kSocs) {
    CheckUnaryApi(
        soc, "Sin", Uniform<float>(21, kCount, -1000.0f, 1000.0f),
        Uniform<half>(22, kCount, -100.0f, 100.0f), [](double x) { return std::sin(x); },
        {1.2e-7, 4.0}, {1e-7, 1.0}, LNGRAD_UNARY_CALL(Sin));
  }
  const auto in = Uniform<float>(23, kCount, -20.0f, 20.0f);
  std::vector<float> src_after;
  OnBlock([&](Ub& ub) {
    ub.Put<float>(0, in);
    Sin<float, true>(ub.Get<float>(1), ub.Get<float>(0), ub.Get<uint8_t>(2), kCount);
    src_after = ub.Take<float>(0);
  });
  for (uint32_t i = 0; i < kCount; ++i) {
    ASSERT_LE(std::fabs(src_after[i]), 1.5708f) << i;  // the reduced argument
    ASSERT_NEAR(std::fabs(std::sin(src_after[i])), std::fabs(std::sin(in[i])), 1e-5) << i;
  }
}

// Sin and Cos with RADIAN_REDUCTION on the 950 (sincos_3510_impl.h, CUDA's sinf/cosf): float
// reduced by Payne-Hanek to within 2^-60 or so relative, then fused polynomials: 2 ulps over
// the whole range (huge arguments included); half (Cody-Waite on the widened value, rounded
// once): 1 ulp. Off the 950 the config changes nothing.
constexpr SinConfig kSinRadianCfg = {SinAlgo::RADIAN_REDUCTION};
constexpr CosConfig kCosRadianCfg = {CosAlgo::RADIAN_REDUCTION};
TEST(MathSinCos, RadianReductionOn950WithinBounds) {
  const auto small = Uniform<float>(30, kCount, -1000.0f, 1000.0f);
  const auto wide = LogUniform<float>(31, kCount, -40, 127);
  const auto in_h = Uniform<half>(32, kCount, -65504.0f, 65504.0f);
  const auto sin_run = [](auto d, auto s, auto t, uint32_t n) {
    Sin<typename decltype(d)::PrimType, false, kSinRadianCfg>(d, s, t, n);
  };
  const auto cos_run = [](auto d, auto s, auto t, uint32_t n) {
    Cos<typename decltype(d)::PrimType, false, kCosRadianCfg>(d, s, t, n);
  };
  const auto sin = [](double x) { return std::sin(x); };
  const auto cos = [](double x) { return std::cos(x); };
  for (const auto* in : {&small, &wide}) {
    ExpectWithinUlps(*in, RunUnary<float>(k950, *in, kCount, sin_run), sin, 2.0, "Sin radian");
    ExpectWithinUlps(*in, RunUnary<float>(k950, *in, kCount, cos_run), cos, 2.0, "Cos radian");
  }
  ExpectWithinUlps(in_h, RunUnary<half>(k950, in_h, kCount, sin_run), sin, 1.0, "Sin radian half");
  ExpectWithinUlps(in_h, RunUnary<half>(k950, in_h, kCount, cos_run), cos, 1.0, "Cos radian half");
  // Its scratch: 8 bytes an element, rounded up to 32 elements, + 32 (checked).
  ExpectCheck(
      [](Ub& ub) {
        LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(2);
        tmp.SetSize(512);
        Sin<float, false, kSinRadianCfg>(ub.Get<float>(1), ub.Get<float>(0), tmp, 64);
      },
      "tmp_buffer", "less than the 544", k950);
}

// Cos's final clamp (docs/ascendc_kernels.md, "Math: transcendental APIs"): 2201 and 2002
// (cos_common_impl.h) end with the vector Mins(1) / Maxs(-1), which give 1 for a NaN, so
// Cos(+-inf) = Cos(NaN) = 1 on 2201; on 2002 k's cast goes through int32 (cos_v200_impl.h), so
// +-inf reduce with k = +-2^31: Cos(+inf) = 1, Cos(-inf) = -inf clamped to -1, Cos(NaN) = 1;
// the 950's POLYNOMIAL_APPROXIMATION (cos_3510_impl.h) clamps with
// the register Mins / Maxs, which keep the NaN; its RADIAN_REDUCTION is SinCos's cos
// (sincos_3510_impl.h), no clamp. Without the clamp the polynomial gives 1 + 1 ulp at x = 0.
TEST(MathSinCos, CosClampsWhereTheDeviceDoes) {
  std::vector<float> in = Uniform<float>(33, kCount, -30.0f, 30.0f);
  const float specials[] = {0.0f, -0.0f, 1e-8f, -1e-8f, 6.2831855f, -6.2831855f, 3.1415927f};
  std::copy(std::begin(specials), std::end(specials), in.begin());
  in[7] = std::numeric_limits<float>::infinity();
  in[8] = -in[7];
  in[9] = std::numeric_limits<float>::quiet_NaN();
  const auto cos_run = [](auto d, auto s, auto t, uint32_t n) { Cos(d, s, t, n); };
  for (const char* soc : {k910B, k310P, k950}) {
    const std::vector<float> got = RunUnary<float>(soc, in, kCount, cos_run);
    EXPECT_EQ(got[0], 1.0f) << soc;
    EXPECT_EQ(got[1], 1.0f) << soc;
    for (uint32_t i = 0; i < kCount; ++i) {
      if (i >= 7 && i <= 9) continue;
      ASSERT_LE(std::fabs(got[i]), 1.0f) << soc << " x = " << in[i];
    }
    for (int i = 7; i <= 9; ++i) {
      if (soc == k950) {
        EXPECT_TRUE(std::isnan(got[i])) << soc << " x = " << in[i];
      } else if (soc == k310P && i == 8) {
        EXPECT_EQ(got[i], -1.0f) << soc << " x = " << in[i];
      } else {
        EXPECT_EQ(got[i], 1.0f) << soc << " x = " << in[i];
      }
    }
  }
  // RADIAN_REDUCTION: SinCos's cos output, bit for bit (NaN for +-inf and NaN).
  const std::vector<float> radian = RunUnary<float>(
      k950, in, kCount,
      [](auto d, auto s, auto t, uint32_t n) { Cos<float, false, kCosRadianCfg>(d, s, t, n); });
  std::vector<float> sincos_cos;
  OnBlock(
      [&](Ub& ub) {
        ub.Put<float>(0, in);
        SinCos(ub.Get<float>(1), ub.Get<float>(2), ub.Get<float>(0), ub.Get<uint8_t>(3), kCount);
        sincos_cos = ub.Take<float>(2);
      },
      k950);
  for (uint32_t i = 0; i < kCount; ++i) {
    if (std::isnan(radian[i]) && std::isnan(sincos_cos[i])) continue;
    ASSERT_EQ(std::bit_cast<uint32_t>(radian[i]), std::bit_cast<uint32_t>(sincos_cos[i]))
        << "x = " << in[i];
  }
  EXPECT_TRUE(std::isnan(radian[7]) && std::isnan(radian[9]));
}

// Atan: the minimum of four Taylor candidates; the degree-9 one on u = |(a - 1) / (a + 1)| up to
// tan(pi/8) is the sequence's weak point (truncation u^11 / 11 <= 5.4e-6, e.g. 4.1e-6 at
// x = 2.37): 6e-6 absolute, or 4 ulps. The 950's TaylorExpand (atan_3510_impl.h) adds the last
// coefficient twice, so its degree-11 term is +u^11 / 9 where atan's is -u^11 / 11: (1/9 + 1/11)
// tan(pi/8)^11 = 1.22e-5 at most (1.18e-5 measured, at x = 2.414): 1.25e-5 there. Its
// POLYNOMIAL_APPROXIMATION (a degree-17 odd minimax fit with fused multiply-adds, 1/x above 1):
// 2 ulps (1.15 measured).
constexpr AtanConfig kAtanPoly = {AtanAlgo::POLYNOMIAL_APPROXIMATION};
TEST(MathAtan, WithinBoundsEveryOverload) {
  for (const char* soc : kSocs) {
    const double abs = soc == k950 ? 1.25e-5 : 6e-6;
    CheckUnaryApi(
        soc, "Atan", Uniform<float>(26, kCount, -20.0f, 20.0f),
        Uniform<half>(27, kCount, -20.0f, 20.0f), [](double x) { return std::atan(x); }, {abs, 4.0},
        {abs, 1.0}, LNGRAD_UNARY_CALL(Atan));
  }
  const auto in = Uniform<float>(28, kCount, -20.0f, 20.0f);
  const auto wide = LogUniform<float>(29, kCount, -40, 40);
  const auto run = [](auto d, auto s, auto t, uint32_t n) {
    Atan<float, false, kAtanPoly>(d, s, t, n);
  };
  const auto atan = [](double x) { return std::atan(x); };
  ExpectWithinUlps(in, RunUnary<float>(k950, in, kCount, run), atan, 2.0, "Atan polynomial");
  ExpectWithinUlps(wide, RunUnary<float>(k950, wide, kCount, run), atan, 2.0,
                   "Atan polynomial, 2^-40 to 2^40");
}

// Asin, Acos: the degree-15 Taylor series of asin on |x| < 1/sqrt2 (directly, or on
// sqrt(1 - x^2)) truncates by up to 5.6e-5 at |x| = 1/sqrt2 (asin's series converges slowly;
// checked in double): 6e-5 absolute, or 4 ulps; half: its Taylor branch runs in half, 2 ulps.
TEST(MathAsinAcos, WithinBoundsEveryOverload) {
  for (const char* soc : kSocs) {
    const auto in_f = Uniform<float>(28, kCount, -1.0f, 1.0f);
    const auto in_h = Uniform<half>(29, kCount, -1.0f, 1.0f);
    CheckUnaryApi(
        soc, "Asin", in_f, in_h, [](double x) { return std::asin(x); }, {6e-5, 4.0}, {6e-5, 2.0},
        LNGRAD_UNARY_CALL(Asin));
    CheckUnaryApi(
        soc, "Acos", in_f, in_h, [](double x) { return std::acos(x); }, {6e-5, 4.0}, {6e-5, 2.0},
        LNGRAD_UNARY_CALL(Acos));
  }
}

// Tan: the reduced argument carries Sin's reduction error, and the rational approximation about
// 2^-23; near the poles tan's condition number |x| (1 + tan^2) amplifies the reduction's absolute
// error: checked away from them (|cos x| > 0.05), 8 ulps or 2.4e-7 absolute near the zeros.
TEST(MathTan, WithinBoundsEveryOverload) {
  for (const char* soc : kSocs) {
    auto in_f = Uniform<float>(30, kCount, -100.0f, 100.0f);
    auto in_h = Uniform<half>(31, kCount, -10.0f, 10.0f);
    for (auto& x : in_f) x = std::fabs(std::cos(x)) > 0.05 ? x : 0.5f;
    for (auto& x : in_h) x = std::fabs(std::cos(D(x))) > 0.05 ? x : half(0.5f);
    CheckUnaryApi(
        soc, "Tan", in_f, in_h, [](double x) { return std::tan(x); }, {2.4e-7, 8.0}, {1e-7, 1.0},
        LNGRAD_UNARY_CALL(Tan));
  }
}

// Erf's SUBSECTION_POLYNOMIAL_APPROXIMATION on the 950 is CUDA's erff (fused multiply-adds, then
// 1 - e^f above 1.003), whose documented bound is 2 ulps over the whole range; half rounds that
// once: 0.51 ulps. Off the 950 the config changes nothing (the 2201 sequence runs).
constexpr ErfConfig kErfSubsection = {ErfAlgo::SUBSECTION_POLYNOMIAL_APPROXIMATION};
TEST(MathErf, SubsectionConfigOn950WithinCudaBound) {
  const auto in_f = Uniform<float>(40, kCount, -5.0f, 5.0f);
  const auto in_h = Uniform<half>(41, kCount, -5.0f, 5.0f);
  const auto erf = [](double x) { return std::erf(x); };
  const auto run = [](auto d, auto s, auto t, uint32_t n) {
    Erf<typename decltype(d)::PrimType, false, kErfSubsection>(d, s, t, n);
  };
  ExpectWithinUlps(in_f, RunUnary<float>(k950, in_f, kCount, run), erf, 2.0, "Erf subsection");
  ExpectWithinUlps(in_h, RunUnary<half>(k950, in_h, kCount, run), erf, 0.51, "Erf subsection half");
  const auto tiny = LogUniform<float>(42, kCount, -40, 0);
  ExpectWithinUlps(tiny, RunUnary<float>(k950, tiny, kCount, run), erf, 2.0,
                   "Erf subsection small");
}

// Erfc: E = e^(-a^2) R(a) / S(a) is a relative approximation of erfc(|x|) (the clip at 10 is
// below float's range of erfc); 1 - E for negative x: 16 ulps of the result or 1e-7 absolute
// (measured: the rational approximation's own error dominates).
TEST(MathErfc, WithinBoundsEveryOverload) {
  for (const char* soc : kSocs) {
    CheckUnaryApi(
        soc, "Erfc", Uniform<float>(32, kCount, -5.0f, 9.0f),
        Uniform<half>(33, kCount, -4.0f, 4.0f), [](double x) { return std::erfc(x); }, {1e-7, 16.0},
        {1e-7, 1.0}, LNGRAD_UNARY_CALL(Erfc));
  }
}

TEST(MathTranscendental, CheckedModeRules) {
  ExpectTmpTooSmall<float>(512, "less than the 768", [](auto d, auto s, auto t) {
    Exp<float, 10>(d, s, t, 64);
  });  // float without isReuseSource needs 3 * 256
  ExpectCheck(
      [](Ub& ub) {
        LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(2);
        tmp.SetSize(224);
        Exp<half, 10>(ub.Get<half>(1), ub.Get<half>(0), tmp, 64);
      },
      "tmp_buffer", "less than the 256", k950);  // the 950 stores its 64 floats of 1 / n there
  ExpectTmpTooSmall<half>(1024, "less than the 2048",
                          [](auto d, auto s, auto t) { Erf(d, s, t, 64); });  // half needs 8 * 256
  ExpectTmpTooSmall<half>(256, "less than the 512", [](auto d, auto s, auto t) {
    Acosh(d, s, t, 64);
  });  // half needs 2 * 256
  ExpectTmpTooSmall<half>(0, "less than the 256",
                          [](auto d, auto s, auto t) { Log2(d, s, t, 64); });
  ExpectCheck([](Ub& ub) { Log(ub.Get<float>(0), ub.Get<float>(0), 64); }, "address_overlap",
              "dst and src");
  ExpectCheck([](Ub& ub) { Erf(ub.Get<float>(0)[8], ub.Get<float>(0), ub.Get<uint8_t>(2), 64); },
              "address_overlap", "dst and src");
  ExpectCheck([](Ub& ub) { Acosh(ub.Get<float>(1), ub.Get<float>(0), ub.Get<uint8_t>(1), 64); },
              "address_overlap", "sharedTmpBuffer and dst");
  ExpectTmpTooSmall<half>(512, "less than the 1024",
                          [](auto d, auto s, auto t) { Tanh(d, s, t, 64); });  // half needs 4 * 256
  ExpectCheck([](Ub& ub) { Sign(ub.Get<int64_t>(1), ub.Get<int64_t>(0), 16); }, "product",
              "Ascend 950");
  ExpectTmpTooSmall<half>(1024, "less than the 1536",
                          [](auto d, auto s, auto t) { Cosh(d, s, t, 64); });  // half needs 6 * 256
  // Most of arch 3510's sequences keep everything in registers: an empty sharedTmpBuffer is
  // accepted there (Erf's erf_3510_impl.h never touches it; Exp's does, above).
  ExpectCheck(
      [](Ub& ub) {
        LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(2);
        tmp.SetSize(0);
        Erf(ub.Get<float>(1), ub.Get<float>(0), tmp, 64);
      },
      "", "", k950);
}

}  // namespace
