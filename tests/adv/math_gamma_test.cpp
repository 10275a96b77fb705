// Digamma and Lgamma (lib/math/digamma.h, lgamma.h) and SinCos (lib/math/sincos.h) against a
// float64 oracle with the bounds each test states, half and float, on Ascend910B1 (arch 2201) and
// Ascend950PR (arch 3510) where the API exists, counts that are not a multiple of a repeat, every
// overload and isReuseSource, the specials, the checked-mode rules and the host scratch sizes.
// The bounds come from the error analysis in docs/ascendc_kernels.md ("Math: Digamma, Lgamma,
// SinCos").
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
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

constexpr uint32_t kCount = 1000;  // 15 repeats of 64 floats and a tail of 40
constexpr double kPi = 3.14159265358979323846;
const float kInf = std::numeric_limits<float>::infinity();
const float kNaN = std::numeric_limits<float>::quiet_NaN();

// psi(x) in double: the recurrence up to x >= 10, then the asymptotic series (error < 1e-15);
// the reflection psi(1 - x) - pi / tan(pi x) below 0; NaN at the poles.
double Digamma(double x) {
  if (std::isnan(x) || x == -INFINITY) return NAN;
  if (x <= 0 && x == std::floor(x)) return x == 0 ? (std::signbit(x) ? INFINITY : -INFINITY) : NAN;
  if (x < 0) return Digamma(1 - x) - kPi / std::tan(kPi * x);
  double r = 0;
  for (; x < 10; x += 1) r -= 1 / x;
  const double z = 1 / (x * x);
  const double series =
      z * (1.0 / 12 - z * (1.0 / 120 - z * (1.0 / 252 - z * (1.0 / 240 - z * (1.0 / 132)))));
  return r + std::log(x) - 0.5 / x - series;
}

double Lgamma(double x) {
  if (std::isnan(x)) return NAN;
  return std::lgamma(x);
}

// The forms: with sharedTmpBuffer (0) or the stack buffer (1), isReuseSource false or true.
template <typename T, bool Reuse, typename Api>
std::vector<T> RunForm(const char* soc, const std::vector<T>& in, int form, Api api) {
  return RunUnary<T>(soc, in, kCount, [&](auto d, auto s, auto t, uint32_t n) {
    api(std::integral_constant<bool, Reuse>{}, form, d, s, t, n);
  });
}

#define LNGRAD_GAMMA_CALL(Name)                                  \
  [](auto reuse, int form, auto d, auto s, auto t, uint32_t n) { \
    using T = typename decltype(d)::PrimType;                    \
    if (form == 0) Name<T, decltype(reuse)::value>(d, s, t, n);  \
    if (form == 1) Name<T, decltype(reuse)::value>(d, s, n);     \
  }

struct Bound {
  double abs, ulps;
};

template <typename T, typename Api>
void CheckEveryForm(const std::string& name, const std::vector<T>& in,
                    const std::function<double(double)>& oracle, Bound b, Api api,
                    const std::vector<const char*>& socs = {k910B, k950}) {
  for (const char* soc : socs) {
    for (int form = 0; form < 2; ++form) {
      const std::string what = name + " " + soc + " form " + std::to_string(form);
      ExpectWithinAbsOrUlps(in, RunForm<T, false>(soc, in, form, api), oracle, b.abs, b.ulps, what);
      ExpectWithinAbsOrUlps(in, RunForm<T, true>(soc, in, form, api), oracle, b.abs, b.ulps,
                            what + " reuse");
    }
  }
}

// Values away from the poles (the negative integers and 0), where psi's condition number is
// bounded: x uniform in [lo, hi), kept at least `gap` from an integer when negative.
template <typename T>
std::vector<T> OffPoles(uint32_t seed, float lo, float hi, float gap) {
  auto v = Uniform<T>(seed, kCount, lo, hi);
  for (auto& x : v) {
    const double d = D(x);
    if (d < 0.5 && std::fabs(d - std::round(d)) < gap) x = T(static_cast<float>(d) + 0.5f);
  }
  return v;
}

// Digamma, float: P(x) sums ten reciprocals and the series on x + 10 (each step rounded): the
// sum's rounding errors are a few ulps of its largest term; near psi's zeros (x0 = 1.4616, and
// one between each pair of negative integers) only an absolute bound holds: 2e-6 or 8 ulps.
// The reflection adds the cotangent polynomial's error, relative 2^-22 about, times pi / |sin|:
// checked at least 0.05 from the poles with 3e-5 absolute or 64 ulps. Half: P_h's series on
// x + 3 truncates at (1/w)^8 / 240 <= 2.7e-6 and the float steps stay far below half's ulp:
// 1 ulp or 4e-3 absolute (half's ulp near psi's zeros).
TEST(MathDigamma, WithinBoundsEveryForm) {
  CheckEveryForm<float>("Digamma pos", Uniform<float>(1, kCount, 0.001f, 60.0f), Digamma,
                        {2e-6, 8.0}, LNGRAD_GAMMA_CALL(Digamma));
  CheckEveryForm<float>("Digamma neg", OffPoles<float>(2, -30.0f, 0.0f, 0.05f), Digamma,
                        {3e-5, 64.0}, LNGRAD_GAMMA_CALL(Digamma));
  CheckEveryForm<half>("Digamma half", OffPoles<half>(3, -8.0f, 20.0f, 0.05f), Digamma, {4e-3, 1.0},
                       LNGRAD_GAMMA_CALL(Digamma));
}

// The specials follow the sequence: NaN for NaN, -inf, x <= -2^23 and the negative integers;
// +inf at +inf; -inf at +0 and +inf at -0 (1 / x in the reciprocal sum).
TEST(MathDigamma, Specials) {
  for (const char* soc : kSocs) {
    const std::vector<float> in = {kNaN,  -kInf, -1e30f, -8388608.0f, -3.0f,
                                   -1.0f, kInf,  0.0f,   -0.0f};
    const auto got =
        RunUnary<float>(soc, in, static_cast<uint32_t>(in.size()),
                        [](auto d, auto s, auto t, uint32_t n) { Digamma(d, s, t, n); });
    for (size_t i = 0; i < 6; ++i) EXPECT_TRUE(std::isnan(got[i])) << soc << " " << in[i];
    EXPECT_EQ(got[6], kInf);
    EXPECT_EQ(got[7], -kInf);
    EXPECT_EQ(got[8], kInf);
    const std::vector<half> in_h = {half(kNaN), half(-kInf), half(-2.0f), half(kInf)};
    const auto got_h = RunUnary<half>(
        soc, in_h, 4, [](auto d, auto s, auto t, uint32_t n) { Digamma(d, s, t, n); });
    for (size_t i = 0; i < 3; ++i) EXPECT_TRUE(std::isnan(D(got_h[i]))) << soc << " " << i;
    EXPECT_EQ(D(got_h[3]), INFINITY);
  }
}

// isReuseSource with float: on 2201 the source ends holding the reflection term -pi cot(pi x)
// (the device's scratch there); the 950 leaves it untouched; the result is the one without
// reuse.
TEST(MathDigamma, ReuseSourceKeepsTheReflectionTermOn2201) {
  const auto in = OffPoles<float>(4, -10.0f, 10.0f, 0.05f);
  for (const char* soc : kSocs) {
    std::vector<float> src_after;
    OnBlock(
        [&](Ub& ub) {
          ub.Put<float>(0, in);
          Digamma<float, true>(ub.Get<float>(1), ub.Get<float>(0), ub.Get<uint8_t>(2), kCount);
          src_after = ub.Take<float>(0);
        },
        soc);
    for (uint32_t i = 0; i < kCount; ++i) {
      if (soc == k950) {
        ASSERT_EQ(src_after[i], in[i]) << i;
        continue;
      }
      const double want = -kPi / std::tan(kPi * D(in[i]));
      ASSERT_NEAR(src_after[i], want, 1e-5 * (1 + std::fabs(want))) << i << " x = " << in[i];
    }
  }
}

// Half on the 950 runs the float sequence and rounds once: the float bounds above (3e-5 absolute
// at most) plus half an ulp of half, which the float's relative error (64 ulps of float at most,
// 2^-7 of a half ulp) moves to 0.51 ulps.
TEST(MathDigamma, HalfOn950RoundsTheFloatSequence) {
  const auto in = OffPoles<half>(14, -8.0f, 20.0f, 0.05f);
  const auto got = RunUnary<half>(k950, in, kCount,
                                  [](auto d, auto s, auto t, uint32_t n) { Digamma(d, s, t, n); });
  ExpectWithinAbsOrUlps(in, got, Digamma, 3e-5, 0.51, "Digamma half on the 950");
}

// Past calCount (digamma_common_impl.h, DigammaCompute): on 2201 and 2002 the last chunk runs
// calCount rounded up to 8 elements, so dst up to that gets the sequence's value for the src
// elements there (the value a longer call gives them, and within the oracle's bound) and, float
// isReuseSource, src there the reflection term; nothing past it is written. The 950's register
// loop stops at calCount.
template <typename T, bool Reuse>
void CheckDigammaPastCount(const char* soc, uint32_t n) {
  const auto in = Uniform<T>(20 + n, 2048, 0.5f, 30.0f);
  const T mark = T(-1234.0f);
  std::vector<T> dst, src;
  OnBlock(
      [&](Ub& ub) {
        ub.Put<T>(0, in, mark);
        ub.Put<T>(1, {}, mark);
        Digamma<T, Reuse>(ub.Get<T>(1), ub.Get<T>(0), ub.Get<uint8_t>(2), n);
        dst = ub.Take<T>(1);
        src = ub.Take<T>(0);
      },
      soc);
  const std::vector<T> longer = RunUnary<T>(
      soc, in, 2048, [](auto d, auto s, auto t, uint32_t c) { Digamma<T, false>(d, s, t, c); });
  const uint32_t dev = soc == k950 ? n : (n + 7) / 8 * 8;
  const std::string what = std::string("Digamma ") + soc + (sizeof(T) == 2 ? " half" : " float") +
                           (Reuse ? " reuse" : "") + " n " + std::to_string(n);
  for (uint32_t i = 0; i < dev; ++i) {
    ASSERT_EQ(Bits(dst[i]), Bits(longer[i])) << what << " element " << i;
    const double want = Digamma(D(in[i]));
    // WithinBoundsEveryForm's bounds on (0.5, 30): float 2e-6 or 8 ulps, half 4e-3 or 1 ulp.
    const double bound =
        sizeof(T) == 4 ? std::max(2e-6, 8 * UlpAt<T>(want)) : std::max(4e-3, UlpAt<T>(want));
    ASSERT_LE(std::fabs(D(dst[i]) - want), bound) << what << " element " << i;
  }
  for (uint32_t i = dev; i < 2048; ++i) ASSERT_EQ(Bits(dst[i]), Bits(mark)) << what << " " << i;
  for (uint32_t i = 0; i < 2048; ++i) {
    if (!(Reuse && std::is_same_v<T, float> && soc != k950 && i < dev)) {
      ASSERT_EQ(Bits(src[i]), Bits(in[i])) << what << " src " << i;
      continue;
    }
    const double pc = -kPi / std::tan(kPi * D(in[i]));
    ASSERT_NEAR(D(src[i]), pc, 1e-5 * (1 + std::fabs(pc))) << what << " src " << i;
  }
}

TEST(MathDigamma, TailChunkRunsToAMultipleOf8On2201And2002) {
  for (const char* soc : {k910B, k310P, k950}) {
    for (uint32_t n : {1u, 13u, 37u, 1000u, 1003u}) {
      CheckDigammaPastCount<float, false>(soc, n);
      CheckDigammaPastCount<float, true>(soc, n);
      CheckDigammaPastCount<half, false>(soc, n);
    }
  }
}

// A dst (or src) that ends before the rounded-up count is the device's overrun: checked mode
// reports the elements it would write (tensor_bounds); unchecked, they are written in the UB
// past the tensor, as the device does. The 950 writes calCount elements only.
TEST(MathDigamma, TailPastAShortTensorIsTheDevicesOverrun) {
  const auto short_dst = [](Ub& ub) {
    LocalTensor<float> d = ub.Get<float>(1);
    d.SetSize(37);
    Digamma(d, ub.Get<float>(0), ub.Get<uint8_t>(2), 37);
  };
  ExpectCheck(short_dst, "tensor_bounds", "dstTensor: elements [0, 40)");
  ExpectCheck(short_dst, "tensor_bounds", "dstTensor: elements [0, 40)", k310P);
  ExpectCheck(
      [](Ub& ub) {
        LocalTensor<half> s = ub.Get<half>(0);
        s.SetSize(21);
        Digamma(ub.Get<half>(1), s, ub.Get<uint8_t>(2), 21);
      },
      "tensor_bounds", "srcTensor: elements [0, 24)");
  ExpectCheck(short_dst, "", "", k950);
  const bool was = lngrad::aicore::CheckedMode();
  lngrad::aicore::SetCheckedMode(false);
  std::vector<float> dst;
  OnBlock([&](Ub& ub) {
    ub.Put<float>(0, Uniform<float>(9, 64, 1.0f, 2.0f));
    ub.Put<float>(1, {}, -5.0f);
    short_dst(ub);
    dst = ub.Take<float>(1);
  });
  lngrad::aicore::SetCheckedMode(was);
  for (uint32_t i = 0; i < 40; ++i) EXPECT_LT(dst[i], 0.5f) << i;  // psi on [1, 2): below 0.43
  EXPECT_GT(dst[37], -1.0f);  // written past the tensor's 37 elements
  EXPECT_EQ(dst[40], -5.0f);
}

// Lgamma on 2201 (the 950 runs another algorithm, tested below), float: the pieces on [0, 3) and
// Stirling from 5.8 are accurate to about 2^-27
// relative (the approximations alone, evaluated in double: at most 7e-9 absolute below 3, 6e-9
// relative from 5.8); the float steps add a few ulps; near lgamma's zeros at 1 and 2 only an
// absolute bound holds: 4e-7 or 8 ulps. The rational piece on [3, 5.8) is the sequence's weak
// point: y + N(y) / D(y), y = x - 3, departs from lgamma by up to 1.83e-4 at 5.8 (in double;
// 2.5e-6 at 4, 2.5e-5 at 4.76): 1.9e-4 absolute there, for x and for the reflection of -x.
// Elsewhere below 0 the reflection adds ln |sin| and the sin / cos polynomials (relative
// 2^-22) with the condition 1 / |x - n|: 0.05 from the poles, 4e-6 or 16 ulps. Half: Stirling
// on x + 4 with the 1 / (12x - 0.1/x) correction departs by at most 6e-7 (in double): 1 ulp or
// 2e-3 absolute (half's ulp near the zeros).
TEST(MathLgamma, WithinBoundsEveryForm) {
  CheckEveryForm<float>("Lgamma below 3", Uniform<float>(5, kCount, 0.0f, 3.0f), Lgamma,
                        {4e-7, 8.0}, LNGRAD_GAMMA_CALL(Lgamma), {k910B});
  CheckEveryForm<float>("Lgamma [3, 5.8)", Uniform<float>(6, kCount, 3.0f, 5.8f), Lgamma,
                        {1.9e-4, 0.0}, LNGRAD_GAMMA_CALL(Lgamma), {k910B});
  CheckEveryForm<float>("Lgamma from 5.8", LogUniform<float>(7, kCount, 3, 120), Lgamma, {0.0, 8.0},
                        LNGRAD_GAMMA_CALL(Lgamma), {k910B});
  auto neg = OffPoles<float>(8, -40.0f, 0.0f, 0.05f);
  for (auto& x : neg) x = x < -3.0f && x > -5.8f ? x - 3.0f : x;
  CheckEveryForm<float>("Lgamma neg", neg, Lgamma, {4e-6, 16.0}, LNGRAD_GAMMA_CALL(Lgamma),
                        {k910B});
  CheckEveryForm<float>("Lgamma neg [-5.8, -3)", OffPoles<float>(9, -5.8f, -3.0f, 0.05f), Lgamma,
                        {1.9e-4, 0.0}, LNGRAD_GAMMA_CALL(Lgamma), {k910B});
  CheckEveryForm<half>("Lgamma half", OffPoles<half>(10, -8.0f, 100.0f, 0.05f), Lgamma, {2e-3, 1.0},
                       LNGRAD_GAMMA_CALL(Lgamma), {k910B});
}

// Lgamma on the 950 (lgamma_3510.h): fdlibm's intervals, rational fits accurate to well below
// float's ulp (the fits alone, in double, depart by less than 2^-30 relative), evaluated in at
// most ~20 float steps each: 3 ulps over the positive axis (measured 2.7 at most on 2^18 points
// per interval; relative even near lgamma's zeros 1 and 2, where the fits work on x - 1 and
// x - 2). Below 0 the reflection ln(pi) - ln|SinPi(x)| - ln(-x) - lgamma(-x) cancels near
// lgamma's negative zeros: 1e-6 absolute (a few ulps of its terms, at most ln 40 + 3) or 4
// ulps, 0.05 from the poles. Half rounds the float result once (saturating): half an ulp of
// half plus the float error, 0.51 ulps above 0; below 0 the float's 1e-6 absolute error makes
// 2e-6 or 1 ulp.
TEST(MathLgamma, On950WithinItsBounds) {
  const std::vector<const char*> on950 = {k950};
  CheckEveryForm<float>("Lgamma below 8", Uniform<float>(15, kCount, 0.0f, 8.0f), Lgamma,
                        {0.0, 3.0}, LNGRAD_GAMMA_CALL(Lgamma), on950);
  CheckEveryForm<float>("Lgamma 2^-69 to 2^120", LogUniform<float>(16, kCount, -69, 120), Lgamma,
                        {0.0, 3.0}, LNGRAD_GAMMA_CALL(Lgamma), on950);
  CheckEveryForm<float>("Lgamma neg", OffPoles<float>(17, -40.0f, 0.0f, 0.05f), Lgamma, {1e-6, 4.0},
                        LNGRAD_GAMMA_CALL(Lgamma), on950);
  CheckEveryForm<half>("Lgamma half pos", Uniform<half>(18, kCount, 0.0f, 200.0f), Lgamma,
                       {0.0, 0.51}, LNGRAD_GAMMA_CALL(Lgamma), on950);
  CheckEveryForm<half>("Lgamma half neg", OffPoles<half>(19, -8.0f, 0.0f, 0.05f), Lgamma,
                       {2e-6, 1.0}, LNGRAD_GAMMA_CALL(Lgamma), on950);
}

// +inf at the poles (0, the negative integers), at +-inf and for |x| >= 65504 in half; NaN
// for NaN; -ln|x| for tiny negative x (both sequences).
TEST(MathLgamma, Specials) {
  for (const char* soc : kSocs) {
    const std::vector<float> in = {0.0f, -0.0f, -1.0f, -7.0f, kInf, -kInf, -1e-30f, kNaN};
    const auto got =
        RunUnary<float>(soc, in, static_cast<uint32_t>(in.size()),
                        [](auto d, auto s, auto t, uint32_t n) { Lgamma(d, s, t, n); });
    for (size_t i = 0; i < 6; ++i) EXPECT_EQ(got[i], kInf) << soc << " " << in[i];
    EXPECT_FLOAT_EQ(got[6], static_cast<float>(-std::log(1e-30)));
    EXPECT_TRUE(std::isnan(got[7]));
    const std::vector<half> in_h = {half(0.0f), half(-3.0f), half(65504.0f), half(-65504.0f),
                                    half(kNaN)};
    const auto got_h = RunUnary<half>(
        soc, in_h, 5, [](auto d, auto s, auto t, uint32_t n) { Lgamma(d, s, t, n); });
    // The 950 casts back with saturation: 65504 for an infinite or too large result, +0 for
    // NaN.
    const bool sat = soc == k950;
    for (size_t i = 0; i < 4; ++i) {
      EXPECT_EQ(D(got_h[i]), sat ? 65504.0 : INFINITY) << soc << " " << i;
    }
    EXPECT_TRUE(sat ? D(got_h[4]) == 0.0 && !std::signbit(D(got_h[4])) : std::isnan(D(got_h[4])));
  }
}

// isReuseSource with float: the device keeps its zero scalar in the source.
TEST(MathLgamma, ReuseSourceLeavesZeros) {
  const auto in = Uniform<float>(11, kCount, -10.0f, 10.0f);
  std::vector<float> src_after;
  OnBlock([&](Ub& ub) {
    ub.Put<float>(0, in, 5.0f);
    Lgamma<float, true>(ub.Get<float>(1), ub.Get<float>(0), ub.Get<uint8_t>(2), kCount);
    src_after = ub.Take<float>(0);
  });
  for (uint32_t i = 0; i < kCount; ++i) ASSERT_EQ(src_after[i], 0.0f) << i;
  EXPECT_EQ(src_after[kCount], 5.0f);  // past calCount untouched
}

// SinCos (arch 3510): the sequence is CUDA's sincosf (Payne-Hanek for float beyond pi/4, the
// same minimax polynomials with fused multiply-adds), whose documented bound is 2 ulps over the
// whole float range; half rounds a float result of that accuracy once: half an ulp of half and
// 2^-12 of one for the float error, 0.51 ulps.
TEST(MathSinCos3510, WithinBoundsBothOverloads) {
  const auto in_f = LogUniform<float>(12, kCount, -20, 100);
  const auto in_h = Uniform<half>(13, kCount, -6e4f, 6e4f);
  for (int form = 0; form < 2; ++form) {
    for (int which = 0; which < 2; ++which) {
      const auto run = [&](auto d, auto s, auto t, uint32_t n) {
        using T = typename decltype(d)::PrimType;
        // The other output past the scratch's 12288 bytes (at least 4 * 2 * 1024 + 32).
        const LocalTensor<T> other = t.template ReinterpretCast<T>()[16384 / sizeof(T)];
        const LocalTensor<T>& d0 = which == 0 ? d : other;
        const LocalTensor<T>& d1 = which == 0 ? other : d;
        LocalTensor<uint8_t> tmp = t;
        tmp.SetSize(12288);
        if (form == 0) SinCos(d0, d1, s, tmp, n);
        if (form == 1) SinCos(d0, d1, s, n);
      };
      const std::function<double(double)> f = [which](double x) {
        return which == 0 ? std::sin(x) : std::cos(x);
      };
      std::vector<float> neg_f = in_f;
      for (auto& x : neg_f) x = -x;
      const std::string what =
          "SinCos form " + std::to_string(form) + " output " + std::to_string(which);
      ExpectWithinUlps(in_f, RunUnary<float>(k950, in_f, kCount, run), f, 2.0, what + " float");
      ExpectWithinUlps(neg_f, RunUnary<float>(k950, neg_f, kCount, run), f, 2.0,
                       what + " float, negative");
      ExpectWithinUlps(in_h, RunUnary<half>(k950, in_h, kCount, run), f, 0.51, what + " half");
    }
  }
}

// Infinities and NaN give NaN (a * 0 + a first); -0 keeps its sign in sin; the quadrant's
// swaps give exact 0 and 1 only where the polynomials do.
TEST(MathSinCos3510, Specials) {
  const std::vector<float> in = {kInf, -kInf, kNaN, -0.0f, 0.0f};
  std::vector<float> s, c;
  OnBlock(
      [&](Ub& ub) {
        ub.Put<float>(0, in);
        SinCos(ub.Get<float>(1), ub.Get<float>(2), ub.Get<float>(0), ub.Get<uint8_t>(3), 5);
        s = ub.Take<float>(1);
        c = ub.Take<float>(2);
      },
      k950);
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(std::isnan(s[i]) && std::isnan(c[i])) << in[i];
  EXPECT_TRUE(s[3] == 0.0f && std::signbit(s[3]));
  EXPECT_TRUE(s[4] == 0.0f && !std::signbit(s[4]));
  EXPECT_EQ(c[3], 1.0f);
  EXPECT_EQ(c[4], 1.0f);
}

template <typename T, typename Api>
void ExpectTmpTooSmall(uint32_t bytes, const std::string& needle, Api api,
                       const char* soc = k910B) {
  ExpectCheck(
      [&](Ub& ub) {
        LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(2);
        tmp.SetSize(bytes);
        api(ub.Get<T>(1), ub.Get<T>(0), tmp);
      },
      "tmp_buffer", needle, soc);
}

TEST(MathGamma, CheckedModeRules) {
  ExpectTmpTooSmall<float>(1536, "less than the 1792",
                           [](auto d, auto s, auto t) { Digamma(d, s, t, 64); });
  ExpectTmpTooSmall<float>(1280, "less than the 1536",
                           [](auto d, auto s, auto t) { Digamma<float, true>(d, s, t, 64); });
  ExpectTmpTooSmall<half>(3840, "less than the 4096",
                          [](auto d, auto s, auto t) { Digamma(d, s, t, 64); });
  ExpectTmpTooSmall<half>(
      1024, "less than the 1056", [](auto d, auto s, auto t) { Digamma(d, s, t, 132); }, k950);
  ExpectTmpTooSmall<float>(1792, "less than the 2048",
                           [](auto d, auto s, auto t) { Lgamma(d, s, t, 64); });
  ExpectTmpTooSmall<float>(1536, "less than the 1792",
                           [](auto d, auto s, auto t) { Lgamma<float, true>(d, s, t, 64); });
  ExpectTmpTooSmall<half>(6400, "less than the 6656",
                          [](auto d, auto s, auto t) { Lgamma(d, s, t, 64); });
  ExpectTmpTooSmall<float>(
      252, "less than the 256", [](auto d, auto s, auto t) { Lgamma(d, s, t, 64); }, k950);
  ExpectCheck([](Ub& ub) { Digamma(ub.Get<float>(0), ub.Get<float>(0), 64); }, "address_overlap",
              "dst and src");
  ExpectCheck([](Ub& ub) { Lgamma(ub.Get<half>(1), ub.Get<half>(0), ub.Get<uint8_t>(1), 64); },
              "address_overlap", "sharedTmpBuffer and dst");
  // SinCos: the 950 only; its scratch is 4 * 2 * 96 + 32 bytes for 70 elements.
  ExpectCheck([](Ub& ub) { SinCos(ub.Get<float>(1), ub.Get<float>(3), ub.Get<float>(0), 64); },
              "product", "Ascend 950");
  ExpectTmpTooSmall<float>(
      768, "less than the 800", [](auto d, auto s, auto t) { SinCos(d, d[128], s, t, 70); }, k950);
  ExpectCheck([](Ub& ub) { SinCos(ub.Get<float>(1), ub.Get<float>(0), ub.Get<float>(0), 64); },
              "address_overlap", "dst1 and src", k950);
}

// Host scratch sizes on arch 2201 (the default product of this process).
TEST(MathGammaTiling, EveryFunctionPinned) {
  const ge::Shape s({1000});
  uint32_t mx = 0, mn = 0, k = 0, extra = 9;
  GetDigammaMaxMinTmpSize(s, 4, false, mx, mn);
  EXPECT_EQ(mx, 7u * 4000);
  EXPECT_EQ(mn, 7u * 256);
  GetDigammaMaxMinTmpSize(s, 4, true, mx, mn);
  EXPECT_EQ(mx, 6u * 4000);
  EXPECT_EQ(mn, 6u * 256);
  GetDigammaMaxMinTmpSize(ge::Shape({40}), 2, false, mx, mn);
  EXPECT_EQ(mx, 16u * 256);  // 80 bytes of half: the 256-byte floor
  EXPECT_EQ(mn, 16u * 256);
  GetDigammaTmpBufferFactorSize(2, k, extra);
  EXPECT_EQ(k, 16u);
  EXPECT_EQ(extra, 0u);
  GetDigammaTmpBufferFactorSize(4, k, extra);
  EXPECT_EQ(k, 7u);
  GetLgammaMaxMinTmpSize(s, 4, false, mx, mn);
  EXPECT_EQ(mx, 8u * 4000);
  EXPECT_EQ(mn, 8u * 256);
  GetLgammaMaxMinTmpSize(s, 4, true, mx, mn);
  EXPECT_EQ(mx, 7u * 4000);
  EXPECT_EQ(mn, 7u * 256);
  GetLgammaMaxMinTmpSize(s, 2, false, mx, mn);
  EXPECT_EQ(mx, 26u * 2000);
  EXPECT_EQ(mn, 26u * 256);
  extra = 9;
  GetLgammaTmpBufferFactorSize(2, k, extra);
  EXPECT_EQ(k, 13u);  // the toolkit's factor for half is half its MaxMin's k
  EXPECT_EQ(extra, 0u);
  GetLgammaTmpBufferFactorSize(4, k, extra);
  EXPECT_EQ(k, 8u);
  mx = mn = 7;
  GetDigammaMaxMinTmpSize(ge::Shape({0}), 4, false, mx, mn);
  EXPECT_EQ(mx + mn, 14u);  // untouched
  EXPECT_FALSE(lngrad::tiling::LastTilingStatus().ok());
}

// SinCos's sizes take the platform: the 950's; arch 2201 is refused.
TEST(MathGammaTiling, SinCosPinned) {
  const platform_ascendc::PlatformAscendC& p =
      *platform_ascendc::PlatformAscendCManager::GetInstance(k950);
  const ge::Shape s({1000});
  uint32_t mx = 0, mn = 0, k = 0, extra = 9;
  GetSinCosMaxMinTmpSize(p, ge::Shape({1001}), 2, false, mx, mn);
  EXPECT_EQ(mx, 4u * 1024 * 2 + 32);
  EXPECT_EQ(mn, 4u * 1024 * 2 + 32);
  GetSinCosMaxMinTmpSize(p, s, 4, false, mx, mn);
  EXPECT_EQ(mx, 4u * 1024 * 2 + 32);
  GetSinCosTmpBufferFactorSize(p, 4, k, extra);
  EXPECT_EQ(k, 2u);
  EXPECT_EQ(extra, 32u);
  GetSinCosTmpBufferFactorSize(p, 2, k, extra);
  EXPECT_EQ(k, 4u);
  EXPECT_EQ(extra, 0u);
  mx = 7;
  GetSinCosMaxMinTmpSize(p, s, 4, true, mx, mn);  // isReuseSource is refused
  EXPECT_FALSE(lngrad::tiling::LastTilingStatus().ok());
  EXPECT_EQ(mx, 7u);
  GetSinCosMaxMinTmpSize(*platform_ascendc::PlatformAscendCManager::GetInstance(k910B), s, 4, false,
                         mx, mn);
  EXPECT_FALSE(lngrad::tiling::LastTilingStatus().ok());
  EXPECT_EQ(mx, 7u);
  GetSinCosTmpBufferFactorSize(p, 8, k, extra);
  EXPECT_FALSE(lngrad::tiling::LastTilingStatus().ok());
}

// Arch 3510's sizes: the process's product must be a 950 (LNGRAD_SOC, read once per process):
// CTest runs this test again as adv.MathGammaTiling950.PinnedOn950 with
// LNGRAD_SOC=Ascend950PR_9589; elsewhere it skips.
TEST(MathGammaTiling950, Pinned) {
  if (platform_ascendc::PlatformAscendCManager::GetInstance()->SimulatedProduct().arch !=
      lngrad::NpuArch::k3510) {
    GTEST_SKIP() << "needs LNGRAD_SOC set to a 950 product";
  }
  const ge::Shape s({1000});
  uint32_t mx = 0, mn = 0, k = 0, extra = 9;
  GetDigammaMaxMinTmpSize(s, 2, false, mx, mn);
  EXPECT_EQ(mx, 4u * 2000);
  EXPECT_EQ(mn, 4u * 2000);
  GetDigammaMaxMinTmpSize(s, 4, false, mx, mn);
  EXPECT_EQ(mx + mn, 0u);
  GetDigammaTmpBufferFactorSize(2, k, extra);
  EXPECT_EQ(k, 4u);
  GetDigammaTmpBufferFactorSize(4, k, extra);
  EXPECT_EQ(k, 0u);
  EXPECT_EQ(extra, 0u);
  GetLgammaMaxMinTmpSize(s, 2, false, mx, mn);
  EXPECT_EQ(mx, 4000u);
  EXPECT_EQ(mn, 4000u);
  GetLgammaTmpBufferFactorSize(2, k, extra);
  EXPECT_EQ(k, 13u);
}

}  // namespace
