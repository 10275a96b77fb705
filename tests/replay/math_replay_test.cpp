// The math family's high-level APIs (Exp, Log, Log2, Log10, Erf, Erfc, Tanh, Sin, Cos, Tan,
// Atan, Asin, Acos, Acosh, Asinh, Atanh, Cosh, Sinh, Sign, Power) run as kernels on Ascend910B1
// (arch 2201; Tanh also on the 950 with both TanhConfig algorithms), compared bit for bit with the
// independent replay (replay_math.h): float and half, every overload, counts with tails and several
// chunks of the scratch buffer, inputs over each sequence's branches, clip points and specials. Two
// NaNs match whatever their payloads (docs/ascendc_kernels.md §2 promises NaN-ness, not payloads);
// every other bit must match.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "math_replay_test_util.h"
#include "replay_math.h"
#include "../aicore/sanitizer_off.h"

namespace {

using namespace AscendC;
using namespace lngrad_replay::test;
using lngrad_replay::MathOp;

// n inputs: uniform in [lo, hi), with the specials and `points` (and their neighbours one ulp
// away) spread over the first elements.
std::vector<float> Inputs(uint32_t seed, size_t n, float lo, float hi,
                          const std::vector<float>& points) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> u(lo, hi);
  std::vector<float> v(n);
  for (auto& x : v) x = u(gen);
  std::vector<float> sp = {0.0f, -0.0f, kInf, -kInf, kNan, 1e-30f, -1e-30f, 1e-40f};
  for (float p : points) {
    sp.push_back(p);
    sp.push_back(std::nextafter(p, kInf));
    sp.push_back(std::nextafter(p, -kInf));
  }
  for (size_t i = 0; i < sp.size(); ++i) v[(i * 7) % n] = sp[i];
  return v;
}

// Counts: one element, a tail inside one repeat, several repeats with a tail, several scratch
// chunks with a tail.
const uint32_t kCounts[] = {1, 37, 1000, kFull - 3};

// Every form and count of `api` against ReplayMath, float and half.
template <typename Api>
void CheckUnary(MathOp op, const std::string& name, const std::vector<float>& in_f, Api api) {
  const auto in_h = As<half>(in_f);
  for (int form = 0; form < 4; ++form) {
    for (uint32_t count : kCounts) {
      const uint32_t n = form % 2 == 1 ? kFull : count;
      if (form % 2 == 1 && count != kCounts[0]) continue;  // the whole tensor once
      const auto call = [&](auto d, auto s, auto t, uint32_t c) { api(form, d, s, t, c); };
      const std::string what = name + " form " + std::to_string(form) + " n " + std::to_string(n);
      const auto got_f = RunApi<float>(in_f, n, kUbBufBytes, call).first;
      std::vector<float> want_f(n);
      lngrad_replay::ReplayMath(op, in_f.data(), want_f.data(), n);
      ExpectBitsEqual(got_f.data(), want_f.data(), n, what + " float", in_f.data());
      const uint32_t nh = form % 2 == 1 ? kFull * 2 : n;
      std::vector<half> big_h(in_h);
      big_h.resize(kFull * 2, half(0.5f));
      const auto got_h = RunApi<half>(big_h, nh, kUbBufBytes, call).first;
      std::vector<half> want_h(nh);
      lngrad_replay::ReplayMath(op, reinterpret_cast<const lngrad_replay::Half*>(big_h.data()),
                                reinterpret_cast<lngrad_replay::Half*>(want_h.data()), nh);
      ExpectBitsEqual(got_h.data(), want_h.data(), nh, what + " half", big_h.data());
    }
  }
}

TEST(MathReplay, Erf) {
  CheckUnary(MathOp::kErf, "Erf", Inputs(1, kFull, -5, 5, {3.92f, -3.92f, 0.5f}),
             LNGRAD_MATH_FORMS(Erf, false));
}

TEST(MathReplay, Erfc) {
  CheckUnary(MathOp::kErfc, "Erfc", Inputs(2, kFull, -12, 12, {10, -10, 1, -1}),
             LNGRAD_MATH_FORMS(Erfc, false));
}

// An API on the 950 against its 3510 replay `ref`, float and half (widened, the float result
// rounded to nearest even), every form, element by element.
template <typename Api, typename Ref>
void CheckOn950(const std::string& name, const std::vector<float>& in, Api api, Ref ref) {
  const auto in_h = As<half>(in);
  for (int form = 0; form < 4; ++form) {
    const auto call = [&api, form](auto d, auto s, auto t, uint32_t n) { api(form, d, s, t, n); };
    const auto got_f = RunApi<float>(in, 1000, kUbBufBytes, call, "Ascend950PR_9589").first;
    const auto got_h = RunApi<half>(in_h, 1000, kUbBufBytes, call, "Ascend950PR_9589").first;
    const std::string what = name + " on the 950, form " + std::to_string(form);
    for (uint32_t i = 0; i < 1000; ++i) {
      const float want = ref(in[i]);
      half wh;
      const uint16_t wbits = lngrad_replay::FloatToHalf(ref(static_cast<float>(in_h[i]))).bits;
      std::memcpy(&wh, &wbits, 2);
      ExpectBitsEqual(&got_f[i], &want, 1, what + " float", &in[i]);
      ExpectBitsEqual(&got_h[i], &wh, 1, what + " half", &in_h[i]);
    }
  }
}

// Tanh on the 950: both TanhConfig algorithms (the compensation's 0.55 switch, the clips, the
// specials).
template <const TanhConfig& cfg>
void CheckTanh950(bool compensation) {
  CheckOn950(
      "Tanh", Inputs(31, kFull, -12, 12, {0.55f, -0.55f, 8.8f, 20.0f, 1e-4f}),
      [](int form, auto d, auto s, auto t, uint32_t n) {
        using TT = typename decltype(d)::PrimType;
        if (form == 0) Tanh<TT, false, cfg>(d, s, t, n);
        if (form == 1) Tanh<TT, false, cfg>(d, s, t);
        if (form == 2) Tanh<TT, false, cfg>(d, s, n);
        if (form == 3) Tanh<TT, false, cfg>(d, s);
      },
      [compensation](float x) { return lngrad_replay::ReplayTanh3510(x, compensation); });
}

// Sinh, Cosh and Asinh on the 950 (the 3510 files' e -+ 0.25 / e, half rounded to nearest even;
// Asinh's sign by mask and Or).
TEST(MathReplay, SinhCosh950) {
  const std::vector<float> in = Inputs(32, kFull, -12, 12, {88.0f, -88.0f, 1e-4f, 11.1f});
  CheckOn950("Sinh", in, LNGRAD_MATH_FORMS(Sinh, false), lngrad_replay::ReplaySinh3510);
  CheckOn950("Cosh", in, LNGRAD_MATH_FORMS(Cosh, false), lngrad_replay::ReplayCosh3510);
  CheckOn950("Asinh", Inputs(33, kFull, -100, 100, {1e20f, -1e20f, 1e-20f, -1e-30f}),
             LNGRAD_MATH_FORMS(Asinh, false), lngrad_replay::ReplayAsinh3510);
  // Sinh's two orders differ in the bits (the 2201 replay would fail above).
  std::vector<float> old(1000);
  lngrad_replay::ReplayMath(MathOp::kSinh, in.data(), old.data(), old.size());
  uint32_t differ = 0;
  for (uint32_t i = 0; i < 1000; ++i) differ += old[i] != lngrad_replay::ReplaySinh3510(in[i]);
  EXPECT_GT(differ, 10u);
}

constexpr TanhConfig kTanhCompensation = {TanhAlgo::SUBSECTION_COMPENSATION};

TEST(MathReplay, Tanh950BothConfigs) {
  CheckTanh950<DEFAULT_TANH_CONFIG>(false);
  CheckTanh950<kTanhCompensation>(true);
  // The algorithms differ below 0.55 (so swapping them fails the comparisons above).
  uint32_t differ = 0;
  for (float x = -0.5f; x < 0.5f; x += 0.01f) {
    differ += lngrad_replay::ReplayTanh3510(x, true) != lngrad_replay::ReplayTanh3510(x, false);
  }
  EXPECT_GT(differ, 10u);
}

TEST(MathReplay, Tanh) {
  CheckUnary(MathOp::kTanh, "Tanh", Inputs(3, kFull, -10, 10, {8.8f, -8.8f, 1e-4f}),
             LNGRAD_MATH_FORMS(Tanh, false));
}

TEST(MathReplay, SinCos) {
  const auto in = Inputs(4, kFull, -1000, 1000, {3.14159265f, 1.5707964f, 1e6f, -7.5e5f});
  CheckUnary(MathOp::kSin, "Sin", in, LNGRAD_MATH_FORMS(Sin, false));
  CheckUnary(MathOp::kCos, "Cos", in, LNGRAD_MATH_FORMS(Cos, false));
}

TEST(MathReplay, Tan) {
  CheckUnary(MathOp::kTan, "Tan",
             Inputs(5, kFull, -100, 100, {1.5707964f, -1.5707964f, 3.1415927f}),
             LNGRAD_MATH_FORMS(Tan, false));
}

TEST(MathReplay, Atan) {
  CheckUnary(MathOp::kAtan, "Atan",
             Inputs(6, kFull, -4, 4, {10000, -10000, 0.41421356f, 1, -1, 2.37f, 1e7f}),
             LNGRAD_MATH_FORMS(Atan, false));
}

TEST(MathReplay, AsinAcos) {
  const auto in = Inputs(7, kFull, -1.05f, 1.05f, {0.70710677f, -0.70710677f, 1, -1, 0.7071f});
  CheckUnary(MathOp::kAsin, "Asin", in, LNGRAD_MATH_FORMS(Asin, false));
  CheckUnary(MathOp::kAcos, "Acos", in, LNGRAD_MATH_FORMS(Acos, false));
}

TEST(MathReplay, Hyperbolic) {
  const auto wide = Inputs(8, kFull, -12, 12, {88.7f, -88.7f, 1, -1});
  CheckUnary(MathOp::kCosh, "Cosh", wide, LNGRAD_MATH_FORMS(Cosh, false));
  CheckUnary(MathOp::kSinh, "Sinh", wide, LNGRAD_MATH_FORMS(Sinh, false));
  CheckUnary(MathOp::kAsinh, "Asinh", Inputs(9, kFull, -100, 100, {1e20f, 1e-20f}),
             LNGRAD_MATH_FORMS(Asinh, false));
  CheckUnary(MathOp::kAtanh, "Atanh", Inputs(10, kFull, -1.02f, 1.02f, {1, -1, 0.5f}),
             LNGRAD_MATH_FORMS(Atanh, false));
  CheckUnary(MathOp::kAcosh, "Acosh", Inputs(11, kFull, 0.9f, 50, {1, 2e19f, 1e30f}),
             LNGRAD_MATH_FORMS(Acosh, false));
}

// Every binary16 input (in four runs of 16384) through each unary API's half path: the half
// rounding modes (CAST_ROUND for Erf, Erfc and Cosh on 2201) meet their ties here.
template <typename Api>
void CheckEveryHalf(MathOp op, const std::string& name, Api api) {
  constexpr uint32_t kRun = 16384;
  for (uint32_t base = 0; base < 0x10000u; base += kRun) {
    std::vector<half> in(kRun);
    for (uint32_t i = 0; i < kRun; ++i) {
      const auto bits = static_cast<uint16_t>(base + i);
      std::memcpy(&in[i], &bits, 2);
    }
    const auto got = RunApi<half>(in, kRun, kUbBufBytes, [&](auto d, auto s, auto t, uint32_t c) {
                       api(0, d, s, t, c);
                     }).first;
    std::vector<half> want(kRun);
    lngrad_replay::ReplayMath(op, reinterpret_cast<const lngrad_replay::Half*>(in.data()),
                              reinterpret_cast<lngrad_replay::Half*>(want.data()), kRun);
    ExpectBitsEqual(got.data(), want.data(), kRun, name + " every half", in.data());
  }
}

TEST(MathReplay, EveryHalfInput) {
  CheckEveryHalf(MathOp::kErf, "Erf", LNGRAD_MATH_FORMS(Erf, false));
  CheckEveryHalf(MathOp::kErfc, "Erfc", LNGRAD_MATH_FORMS(Erfc, false));
  CheckEveryHalf(MathOp::kTanh, "Tanh", LNGRAD_MATH_FORMS(Tanh, false));
  CheckEveryHalf(MathOp::kSin, "Sin", LNGRAD_MATH_FORMS(Sin, false));
  CheckEveryHalf(MathOp::kCos, "Cos", LNGRAD_MATH_FORMS(Cos, false));
  CheckEveryHalf(MathOp::kTan, "Tan", LNGRAD_MATH_FORMS(Tan, false));
  CheckEveryHalf(MathOp::kAtan, "Atan", LNGRAD_MATH_FORMS(Atan, false));
  CheckEveryHalf(MathOp::kAsin, "Asin", LNGRAD_MATH_FORMS(Asin, false));
  CheckEveryHalf(MathOp::kAcos, "Acos", LNGRAD_MATH_FORMS(Acos, false));
  CheckEveryHalf(MathOp::kCosh, "Cosh", LNGRAD_MATH_FORMS(Cosh, false));
  CheckEveryHalf(MathOp::kSinh, "Sinh", LNGRAD_MATH_FORMS(Sinh, false));
  CheckEveryHalf(MathOp::kAsinh, "Asinh", LNGRAD_MATH_FORMS(Asinh, false));
  CheckEveryHalf(MathOp::kAtanh, "Atanh", LNGRAD_MATH_FORMS(Atanh, false));
  CheckEveryHalf(MathOp::kAcosh, "Acosh", LNGRAD_MATH_FORMS(Acosh, false));
  CheckEveryHalf(MathOp::kLog, "Log", [](int, auto d, auto s, auto, uint32_t n) { Log(d, s, n); });
  CheckEveryHalf(MathOp::kLog2, "Log2",
                 [](int, auto d, auto s, auto t, uint32_t n) { Log2(d, s, t, n); });
  CheckEveryHalf(MathOp::kLog10, "Log10",
                 [](int, auto d, auto s, auto, uint32_t n) { Log10(d, s, n); });
  CheckEveryHalf(MathOp::kSign, "Sign",
                 [](int, auto d, auto s, auto t, uint32_t n) { Sign(d, s, t, n); });
  CheckEveryHalf(MathOp::kExpBasic, "Exp<half, 0>",
                 [](int, auto d, auto s, auto t, uint32_t n) { Exp<half, 0>(d, s, t, n); });
}

// isReuseSource = true changes nothing for the APIs whose 2201 sources ignore it (all but Sin,
// Cos and Exp): the same result, the source untouched.
template <typename ApiReuse>
void CheckReuseIgnored(MathOp op, const std::string& name, ApiReuse api) {
  const auto in = Inputs(12, kFull, -3, 3, {});
  const uint32_t n = 1000;
  const auto got = RunApi<float>(in, n, kUbBufBytes,
                                 [&](auto d, auto s, auto t, uint32_t c) { api(0, d, s, t, c); });
  std::vector<float> want(n);
  lngrad_replay::ReplayMath(op, in.data(), want.data(), n);
  ExpectBitsEqual(got.first.data(), want.data(), n, name + " isReuseSource dst", in.data());
  ExpectBitsEqual(got.second.data(), in.data(), kFull, name + " isReuseSource src", in.data());
}

TEST(MathReplay, ReuseSourceIgnoredElsewhere) {
  CheckReuseIgnored(MathOp::kErf, "Erf", LNGRAD_MATH_FORMS(Erf, true));
  CheckReuseIgnored(MathOp::kErfc, "Erfc", LNGRAD_MATH_FORMS(Erfc, true));
  CheckReuseIgnored(MathOp::kTanh, "Tanh", LNGRAD_MATH_FORMS(Tanh, true));
  CheckReuseIgnored(MathOp::kTan, "Tan", LNGRAD_MATH_FORMS(Tan, true));
  CheckReuseIgnored(MathOp::kAtan, "Atan", LNGRAD_MATH_FORMS(Atan, true));
  CheckReuseIgnored(MathOp::kAsin, "Asin", LNGRAD_MATH_FORMS(Asin, true));
  CheckReuseIgnored(MathOp::kAcos, "Acos", LNGRAD_MATH_FORMS(Acos, true));
  CheckReuseIgnored(MathOp::kCosh, "Cosh", LNGRAD_MATH_FORMS(Cosh, true));
  CheckReuseIgnored(MathOp::kSinh, "Sinh", LNGRAD_MATH_FORMS(Sinh, true));
  CheckReuseIgnored(MathOp::kAsinh, "Asinh", LNGRAD_MATH_FORMS(Asinh, true));
  CheckReuseIgnored(MathOp::kAtanh, "Atanh", LNGRAD_MATH_FORMS(Atanh, true));
  CheckReuseIgnored(MathOp::kAcosh, "Acosh", LNGRAD_MATH_FORMS(Acosh, true));
}

}  // namespace
