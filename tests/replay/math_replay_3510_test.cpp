// The math APIs whose 950 (arch 3510) register code lngrad follows, run as kernels on
// Ascend950PR_9589 and compared bit for bit with the independent replay of the 3510 files
// (replay_math.h: Lgamma's 64-lane passes, replay_lgamma_3510.cpp; Exp with its Taylor levels,
// Log2 and Log10 and the others, replay_math_3510.cpp; Sin and Cos with both configs,
// replay_trig_3510.cpp): float and half, the overloads, isReuseSource, counts
// with tails, inputs on every interval end of the source and one ulp either side, the poles, the
// specials and every binary16 input. Two NaNs match whatever their
// payloads; every other bit must match.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "kernel_operator.h"
#include "math_replay_test_util.h"
#include "replay_math.h"
#include "../aicore/sanitizer_off.h"

namespace {

using namespace AscendC;
using namespace lngrad_replay::test;

constexpr const char* k950 = "Ascend950PR_9589";

// n values: |x| log-uniform over [2^-80, 2^70) with random signs, then the points (and one ulp
// either side of each) and the specials at the front.
std::vector<float> SpreadInputs(uint32_t seed, size_t n, const std::vector<float>& points) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> e(-80.0, 70.0);
  std::bernoulli_distribution neg(0.5);
  std::vector<float> v(n);
  for (auto& x : v) x = static_cast<float>((neg(gen) ? -1.0 : 1.0) * std::exp2(e(gen)));
  std::vector<float> front = {0.0f, -0.0f, kInf, -kInf, kNan, -kNan, 1e-40f, -1e-40f};
  for (float p : points) {
    for (float q : {p, -p}) {
      front.insert(front.end(), {q, std::nextafter(q, kInf), std::nextafter(q, -kInf)});
    }
  }
  for (size_t i = 0; i < front.size() && i < n; ++i) v[i] = front[i];
  // A dense middle band (the fits' range) after the front.
  std::uniform_real_distribution<float> mid(-12.0f, 12.0f);
  for (size_t i = front.size(); i < n / 2; ++i) v[i] = mid(gen);
  return v;
}

// Lgamma's interval ends on the 950 (lgamma_3510_impl.h), the poles and the big-x switch.
const std::vector<float> kLgammaPoints = {0x1p-70f, 0.23f, 0.2317f, 0.7f,    1.0f, 1.23f, 1.73f,
                                          2.0f,     2.2f,  2.5f,    3.0f,    4.0f, 5.0f,  6.0f,
                                          7.0f,     8.0f,  0x1p58f, 0x1p24f, 0.5f, 1.5f,  100.5f};

// Lgamma on the 950 with the scratch of `form` (0: sharedTmpBuffer, buffer 2; 1: the stack
// buffer) filled with a marker first: dst, src and the scratch's bytes after the call.
struct LgammaRun {
  std::vector<uint8_t> dst, src, work;
};

constexpr uint8_t kWorkMark = 0xa5;

template <typename T, bool Reuse>
LgammaRun RunLgammaOn950(const std::vector<T>& in, uint32_t n, int form) {
  LgammaRun r;
  OnBlock(
      [&](Ub& ub) {
        ub.Put<T>(0, in);
        LocalTensor<uint8_t> work = ub.Get<uint8_t>(2);
        if (form == 1) PopStackBuffer<uint8_t, TPosition::VECCALC>(work);
        const uint32_t work_bytes = std::min<uint32_t>(work.GetSize(), kUbBufBytes);
        std::memset(work.HostPtr(), kWorkMark, work_bytes);
        if (form == 0) Lgamma<T, Reuse>(ub.Get<T>(1), ub.Get<T>(0), work, n);
        if (form == 1) Lgamma<T, Reuse>(ub.Get<T>(1), ub.Get<T>(0), n);
        r.dst = ub.Take<uint8_t>(1);
        r.src = ub.Take<uint8_t>(0);
        r.work.assign(work.HostPtr(), work.HostPtr() + work_bytes);
      },
      k950);
  return r;
}

template <typename T, bool Reuse>
void CheckLgammaOn950(const std::vector<float>& in_f, uint32_t n, int form) {
  std::vector<T> in(in_f.begin(), in_f.end());
  if (in.size() < kFull) in.resize(kFull, T(0.5f));
  const LgammaRun got = RunLgammaOn950<T, Reuse>(in, n, form);
  std::vector<T> want(n);
  std::vector<float> want_work(n);
  if constexpr (std::is_same_v<T, float>) {
    lngrad_replay::ReplayLgamma3510(in.data(), want.data(), n, want_work.data());
  } else {
    lngrad_replay::ReplayLgamma3510(reinterpret_cast<const lngrad_replay::Half*>(in.data()),
                                    reinterpret_cast<lngrad_replay::Half*>(want.data()), n,
                                    want_work.data());
  }
  const std::string what = std::string("Lgamma on the 950, ") +
                           (sizeof(T) == 4 ? "float" : "half") + " form " + std::to_string(form) +
                           (Reuse ? " reuse" : "") + " n " + std::to_string(n);
  const auto as = [](const std::vector<uint8_t>& b, auto* type) {
    std::vector<std::remove_pointer_t<decltype(type)>> v(b.size() / sizeof(*type));
    std::memcpy(v.data(), b.data(), v.size() * sizeof(*type));
    return v;
  };
  ExpectBitsEqual(as(got.dst, static_cast<T*>(nullptr)).data(), want.data(), n, what, in.data());
  // The 950's code reads the source only (isReuseSource included).
  ExpectBitsEqual(as(got.src, static_cast<T*>(nullptr)).data(), in.data(), kFull, what + " src",
                  in.data());
  // The work buffer: the first pass's floats in its first 4n bytes, the rest not written.
  ASSERT_GE(got.work.size(), size_t{n} * 4) << what;
  ExpectBitsEqual(as(got.work, static_cast<float*>(nullptr)).data(), want_work.data(), n,
                  what + " work buffer");
  for (size_t b = size_t{n} * 4; b < got.work.size(); ++b) {
    ASSERT_EQ(got.work[b], kWorkMark) << what << ": scratch byte " << b << " past the work buffer";
  }
}

TEST(MathReplay3510, Lgamma950) {
  const auto in = SpreadInputs(41, kFull, kLgammaPoints);
  for (uint32_t n : {1u, 37u, 1000u, kFull - 3}) {
    for (int form = 0; form < 2; ++form) {
      CheckLgammaOn950<float, false>(in, n, form);
      CheckLgammaOn950<half, false>(in, n, form);
    }
  }
  CheckLgammaOn950<float, true>(in, 1000, 0);
  CheckLgammaOn950<half, true>(in, 1000, 1);
}

// Every binary16 input (eight runs of 8192, the scratch 4 bytes each): the saturating cast back
// meets 65504, the poles and NaN here.
TEST(MathReplay3510, Lgamma950EveryHalf) {
  constexpr uint32_t kRun = 8192;
  for (uint32_t base = 0; base < 0x10000u; base += kRun) {
    std::vector<float> in(kRun);
    for (uint32_t i = 0; i < kRun; ++i) {
      const auto bits = static_cast<uint16_t>(base + i);
      half h;
      std::memcpy(&h, &bits, 2);
      in[i] = static_cast<float>(h);
    }
    CheckLgammaOn950<half, false>(in, kRun, 0);
  }
}

// The 950 sequence is another algorithm: on 2201 (another product) the bits differ for most
// inputs, so a model that ran the 2201 sequence on the 950 fails the comparisons above.
TEST(MathReplay3510, Lgamma950DiffersFrom2201) {
  const auto in = SpreadInputs(42, 1000, kLgammaPoints);
  const auto run = [](auto d, auto s, auto t, uint32_t c) { Lgamma(d, s, t, c); };
  const auto old = RunApi<float>(in, 1000, kUbBufBytes, run).first;
  std::vector<float> now(1000);
  lngrad_replay::ReplayLgamma3510(in.data(), now.data(), 1000);
  uint32_t differ = 0;
  for (uint32_t i = 0; i < 1000; ++i) differ += BitsOf(old[i]) != BitsOf(now[i]);
  EXPECT_GT(differ, 300u);
}

// api(form, dst, src, tmp, n) on the 950 against `ref` (one float lane of the 3510 file; half
// widened, or `half_ref` where the half path is another; the result cast back with saturation
// unless `saturate` is false), float and half, forms
// 0 and 1, every count; the source must stay as it was (`Reuse` only names the instantiation the
// caller ran).
template <typename Api, typename Ref>
void CheckLanesOn950(const std::string& name, const std::vector<float>& in_f, int forms, Api api,
                     Ref ref, bool saturate = true,
                     const std::function<float(float)>& half_ref = nullptr) {
  const auto in_h = As<half>(in_f);
  for (int form = 0; form < forms; ++form) {
    for (uint32_t n : {1u, 37u, 1000u, kFull - 3}) {
      const auto call = [&api, form](auto d, auto s, auto t, uint32_t c) { api(form, d, s, t, c); };
      const auto got_f = RunApi<float>(in_f, n, kUbBufBytes, call, k950);
      const auto got_h = RunApi<half>(in_h, n, kUbBufBytes, call, k950);
      std::vector<float> want_f(n);
      std::vector<half> want_h(n);
      for (uint32_t i = 0; i < n; ++i) {
        want_f[i] = ref(in_f[i]);
        const float hx = static_cast<float>(in_h[i]);
        const float r = half_ref ? half_ref(hx) : ref(hx);
        const uint16_t b =
            (saturate ? lngrad_replay::FloatToHalfSaturate(r) : lngrad_replay::FloatToHalf(r)).bits;
        std::memcpy(&want_h[i], &b, 2);
      }
      const std::string what =
          name + " on the 950, form " + std::to_string(form) + " n " + std::to_string(n);
      ExpectBitsEqual(got_f.first.data(), want_f.data(), n, what + " float", in_f.data());
      ExpectBitsEqual(got_h.first.data(), want_h.data(), n, what + " half", in_h.data());
      ExpectBitsEqual(got_f.second.data(), in_f.data(), kFull, what + " float src", in_f.data());
    }
  }
}

// Exp<T, level, isReuseSource> for a level: (tmp, count) and (count) forms.
template <uint8_t kLevel, bool kReuse>
void CheckExpOn950() {
  CheckLanesOn950(
      "Exp level " + std::to_string(kLevel) + (kReuse ? " reuse" : ""),
      SpreadInputs(43 + kLevel, kFull, {88.0f, 88.7f, 89.0f, -87.0f, -104.0f, 11.09f, 0.5f}), 2,
      [](int form, auto d, auto s, auto t, uint32_t n) {
        using TT = typename decltype(d)::PrimType;
        if (form == 0) Exp<TT, kLevel, kReuse>(d, s, t, n);
        if (form == 1) Exp<TT, kLevel, kReuse>(d, s, n);
      },
      [](float x) { return lngrad_replay::ReplayExpTaylor3510(kLevel, x); });
}

// The scratch Exp<T, level> leaves on the 950: the register of 1 / n at its start (256 bytes),
// the rest untouched; the stack form leaves buffer 2 alone. Level 0 (the basic Exp) stores none.
template <typename T, uint8_t kLevel>
void CheckExpScratchOn950() {
  for (int form : {0, 1}) {
    std::vector<uint8_t> work;
    OnBlock(
        [&](Ub& ub) {
          ub.Put<T>(0, std::vector<T>(kFull, T(0.75f)));
          LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(2);
          std::memset(tmp.HostPtr(), 0xa5, kUbBufBytes);
          if (form == 0) Exp<T, kLevel, false>(ub.Get<T>(1), ub.Get<T>(0), tmp, kFull);
          if (form == 1) Exp<T, kLevel, false>(ub.Get<T>(1), ub.Get<T>(0), kFull);
          work = ub.Take<uint8_t>(2);
        },
        k950);
    float table[64];
    lngrad_replay::ReplayExpTable3510(table);
    std::vector<uint8_t> want(kUbBufBytes, 0xa5);
    if (form == 0 && kLevel != 0) std::memcpy(want.data(), table, sizeof(table));
    EXPECT_EQ(work, want) << "level " << int{kLevel} << " form " << form
                          << (std::is_same_v<T, half> ? " half" : " float");
  }
}

TEST(MathReplay3510, ExpTaylorScratchOn950) {
  CheckExpScratchOn950<float, 1>();
  CheckExpScratchOn950<float, 10>();
  CheckExpScratchOn950<half, 3>();
  CheckExpScratchOn950<float, 0>();
}

TEST(MathReplay3510, ExpTaylorOn950) {
  CheckExpOn950<1, false>();
  CheckExpOn950<2, false>();
  CheckExpOn950<10, false>();
  CheckExpOn950<10, true>();  // the 950 keeps the source (2201 writes fractions there)
}

TEST(MathReplay3510, Log2Log10On950) {
  const auto in = SpreadInputs(47, kFull, {1.0f, 2.0f, 10.0f, 0.1f, 65504.0f, 6e-8f});
  CheckLanesOn950(
      "Log2", in, 2,
      [](int form, auto d, auto s, auto t, uint32_t n) {
        if (form == 0) Log2(d, s, t, n);
        if (form == 1) Log2(d, s, n);
      },
      lngrad_replay::ReplayLog2_3510);
  CheckLanesOn950(
      "Log10", in, 1, [](int, auto d, auto s, auto, uint32_t n) { Log10(d, s, n); },
      lngrad_replay::ReplayLog10_3510);
  // Log10 on half: the 950 works in float, 2201 in half: the bits differ for many inputs.
  uint32_t differ = 0;
  const auto in_h = As<half>(in);
  const auto run = [](auto d, auto s, auto, uint32_t n) { Log10(d, s, n); };
  const auto on2201 = RunApi<half>(in_h, 1000, kUbBufBytes, run).first;
  const auto on950 = RunApi<half>(in_h, 1000, kUbBufBytes, run, k950).first;
  for (uint32_t i = 0; i < 1000; ++i) differ += BitsOf(on2201[i]) != BitsOf(on950[i]);
  EXPECT_GT(differ, 50u);
}

// Acosh: the 3510 file drops 2201's t * (t / t), so x * x overflowing gives +inf, not NaN.
TEST(MathReplay3510, AcoshOn950) {
  CheckLanesOn950("Acosh", SpreadInputs(49, kFull, {1.0f, 1.5f, 1.8e19f, 2e19f, 65504.0f}), 4,
                  LNGRAD_MATH_FORMS(Acosh, false), lngrad_replay::ReplayAcosh3510, false);
  const std::vector<float> big = {2e19f};
  const auto got = RunApi<float>(
      big, 1, kUbBufBytes, [](auto d, auto s, auto t, uint32_t n) { Acosh(d, s, t, n); }, k950);
  EXPECT_EQ(got.first[0], kInf);
}

// Erf with both ErfConfig algorithms (the subsection's switch at 0x3F8060FE, the Pade clip at
// 3.92 and its NaN).
template <const ErfConfig& cfg>
void CheckErfOn950(bool subsection) {
  CheckLanesOn950(
      std::string("Erf ") + (subsection ? "subsection" : "pade"),
      SpreadInputs(50, kFull, {std::bit_cast<float>(0x3F8060FEu), 3.92f, 1.0f, 4.0f, 0.5f}), 4,
      [](int form, auto d, auto s, auto t, uint32_t n) {
        using TT = typename decltype(d)::PrimType;
        if (form == 0) Erf<TT, false, cfg>(d, s, t, n);
        if (form == 1) Erf<TT, false, cfg>(d, s, t);
        if (form == 2) Erf<TT, false, cfg>(d, s, n);
        if (form == 3) Erf<TT, false, cfg>(d, s);
      },
      [subsection](float x) { return lngrad_replay::ReplayErf3510(x, subsection); }, false);
}

constexpr ErfConfig kErfSubsection = {ErfAlgo::SUBSECTION_POLYNOMIAL_APPROXIMATION};

TEST(MathReplay3510, ErfBothConfigsOn950) {
  CheckErfOn950<defaultErfConfig>(false);
  CheckErfOn950<kErfSubsection>(true);
  uint32_t differ = 0;  // the algorithms differ (swapping them fails above)
  for (float x = -3.0f; x < 3.0f; x += 0.01f) {
    differ += BitsOf(lngrad_replay::ReplayErf3510(x, false)) !=
              BitsOf(lngrad_replay::ReplayErf3510(x, true));
  }
  EXPECT_GT(differ, 100u);
}

// Erfc: the 3510 order ((e * s) * R) / S + (1 - s), the clips at +-10 and NaN.
TEST(MathReplay3510, ErfcOn950) {
  CheckLanesOn950("Erfc", SpreadInputs(51, kFull, {10.0f, 9.0f, 1.0f, 0.5f, 3.0f}), 4,
                  LNGRAD_MATH_FORMS(Erfc, false), lngrad_replay::ReplayErfc3510, false);
  // The 2201 order differs in the bits (a model running it on the 950 fails above).
  const auto in = SpreadInputs(52, 1000, {});
  std::vector<float> old(1000);
  lngrad_replay::ReplayMath(lngrad_replay::MathOp::kErfc, in.data(), old.data(), 1000);
  uint32_t differ = 0;
  for (uint32_t i = 0; i < 1000; ++i) {
    differ += BitsOf(old[i]) != BitsOf(lngrad_replay::ReplayErfc3510(in[i]));
  }
  EXPECT_GT(differ, 20u);
}

// Tan: the 2201 steps; half saturates (the poles' huge results give 65504, NaN gives +0).
TEST(MathReplay3510, TanOn950) {
  CheckLanesOn950("Tan",
                  SpreadInputs(53, kFull, {1.5707964f, 3.1415927f, 1.0f, 100.0f, 1e6f, 0.785f}), 4,
                  LNGRAD_MATH_FORMS(Tan, false), lngrad_replay::ReplayTan3510);
}

// Asin and Acos: the float path's mask from Sqrt(x * x), the half path's big branch with the
// constants rounded to half, the saturating cast (|x| > 1 and NaN give +0 in half).
TEST(MathReplay3510, AsinAcosOn950) {
  auto in = SpreadInputs(54, kFull, {0.70710677f, 0.7071068f, 1.0f, 0.5f, 1e-20f, 0.99f});
  for (auto& x : in) x = std::fabs(x) > 4.0f ? std::fmod(x, 1.2f) : x;  // most inside [-1.2, 1.2]
  // 512 floats either side of 1/sqrt2 (the source's mask reads Sqrt(x * x), lngrad's |x|).
  float b = 0.70710677f;
  for (int i = 0; i < 512; ++i) b = std::nextafter(b, 0.0f);
  for (size_t i = 100; i < 1124; ++i, b = std::nextafter(b, 1.0f)) in[i] = i % 2 ? b : -b;
  CheckLanesOn950(
      "Asin", in, 4, LNGRAD_MATH_FORMS(Asin, false),
      [](float x) { return lngrad_replay::ReplayAsin3510(x, false); }, true,
      [](float x) { return lngrad_replay::ReplayAsin3510(x, true); });
  CheckLanesOn950(
      "Acos", in, 4, LNGRAD_MATH_FORMS(Acos, false),
      [](float x) { return lngrad_replay::ReplayAcos3510(x, false); }, true,
      [](float x) { return lngrad_replay::ReplayAcos3510(x, true); });
}

// Atan with both AtanConfig algorithms (POLYNOMIAL_APPROXIMATION float only): the clip at
// 10000, the switches at tan(pi/8), 1 and the Min's choices, NaN.
constexpr AtanConfig kAtanPolynomial = {AtanAlgo::POLYNOMIAL_APPROXIMATION};

TEST(MathReplay3510, AtanBothConfigsOn950) {
  const auto in = SpreadInputs(55, kFull, {0.41421357f, 1.0f, 2.4142137f, 10000.0f, 0.5f, 3.0f});
  CheckLanesOn950(
      "Atan taylor", in, 4, LNGRAD_MATH_FORMS(Atan, false),
      [](float x) { return lngrad_replay::ReplayAtan3510(x, false); }, false);
  for (uint32_t n : {1u, 37u, 1000u, kFull - 3}) {
    const auto got = RunApi<float>(
        in, n, kUbBufBytes,
        [](auto d, auto s, auto t, uint32_t c) { Atan<float, false, kAtanPolynomial>(d, s, t, c); },
        k950);
    std::vector<float> want(n);
    for (uint32_t i = 0; i < n; ++i) want[i] = lngrad_replay::ReplayAtan3510(in[i], true);
    ExpectBitsEqual(got.first.data(), want.data(), n, "Atan polynomial on the 950", in.data());
  }
  // The 950's Taylor chain differs from 2201's (the doubled f_n): the bits differ.
  std::vector<float> old(1000);
  lngrad_replay::ReplayMath(lngrad_replay::MathOp::kAtan, in.data(), old.data(), 1000);
  uint32_t differ = 0;
  for (uint32_t i = 0; i < 1000; ++i) {
    differ += BitsOf(old[i]) != BitsOf(lngrad_replay::ReplayAtan3510(in[i], false));
  }
  EXPECT_GT(differ, 50u);
}

// Log: the 950's register Log on T is 2201's Ln on T, the same bits (the 2201 replay).
TEST(MathReplay3510, LogOn950IsTheLnInstruction) {
  const auto in = SpreadInputs(48, 1000, {1.0f, 0.5f});
  const auto in_h = As<half>(in);
  const auto run = [](auto d, auto s, auto, uint32_t n) { Log(d, s, n); };
  const auto got_f = RunApi<float>(in, 1000, kUbBufBytes, run, k950).first;
  const auto got_h = RunApi<half>(in_h, 1000, kUbBufBytes, run, k950).first;
  std::vector<float> want_f(1000);
  std::vector<half> want_h(1000);
  lngrad_replay::ReplayMath(lngrad_replay::MathOp::kLog, in.data(), want_f.data(), 1000);
  lngrad_replay::ReplayMath(lngrad_replay::MathOp::kLog,
                            reinterpret_cast<const lngrad_replay::Half*>(in_h.data()),
                            reinterpret_cast<lngrad_replay::Half*>(want_h.data()), 1000);
  ExpectBitsEqual(got_f.data(), want_f.data(), 1000, "Log on the 950, float", in.data());
  ExpectBitsEqual(got_h.data(), want_h.data(), 1000, "Log on the 950, half", in_h.data());
}

// Sin and Cos on the 950 (sin_3510_impl.h, cos_3510_impl.h; replay_trig_3510.cpp reads them apart
// from lngrad). POLYNOMIAL_APPROXIMATION: Sin's k rounds to even (the ties x / pi = n + 1/2 are
// common above 2^22 and at the points below), the source stays as it was (isReuseSource too), half
// is cast back without saturation. RADIAN_REDUCTION: SinCos's Payne-Hanek (float) or Cody-Waite
// (half) reduction and its fused polynomials.
const std::vector<float> kTrigPoints = {
    1.5707964f, 3.1415927f, 4.712389f, 0.785398f, 0.7853982f, 1e4f,   13176795.0f, 13176796.0f,
    6588397.5f, 1e6f,       65504.0f,  1e30f,     3.4e38f,    100.5f, 0x1p-126f,   0x1p23f};

TEST(MathReplay3510, SinCosPolynomialOn950) {
  const auto in = SpreadInputs(56, kFull, kTrigPoints);
  const auto sin_ref = [](float x) { return lngrad_replay::ReplaySin3510(x, false, false); };
  const auto cos_ref = [](float x) { return lngrad_replay::ReplayCos3510(x, false, false); };
  CheckLanesOn950("Sin", in, 4, LNGRAD_MATH_FORMS(Sin, false), sin_ref, false);
  CheckLanesOn950("Sin reuse", in, 4, LNGRAD_MATH_FORMS(Sin, true), sin_ref, false);
  CheckLanesOn950("Cos", in, 4, LNGRAD_MATH_FORMS(Cos, false), cos_ref, false);
  CheckLanesOn950("Cos reuse", in, 4, LNGRAD_MATH_FORMS(Cos, true), cos_ref, false);
  // 2201 rounds Sin's k away from zero: the bits differ where x / pi lands on a half.
  std::vector<float> old(kFull);
  lngrad_replay::ReplayMath(lngrad_replay::MathOp::kSin, in.data(), old.data(), kFull);
  uint32_t differ = 0;
  for (uint32_t i = 0; i < kFull; ++i) differ += BitsOf(old[i]) != BitsOf(sin_ref(in[i]));
  EXPECT_GT(differ, 10u);
}

constexpr SinConfig kSinRadian = {SinAlgo::RADIAN_REDUCTION};
constexpr CosConfig kCosRadian = {CosAlgo::RADIAN_REDUCTION};

// RADIAN_REDUCTION on float and half against the replay: the (tmp, count) and (count) forms
// (the scratch must hold 8 bytes an element, so the counts stay below 5000 with the 40 KiB
// buffer), and the reused source left as it was.
template <bool kSin, bool kReuse>
void CheckRadianOn950(const std::vector<float>& in_f) {
  const auto in_h = As<half>(in_f);
  const auto ref = [](float x, bool half_path) {
    return kSin ? lngrad_replay::ReplaySin3510(x, true, half_path)
                : lngrad_replay::ReplayCos3510(x, true, half_path);
  };
  for (int form : {0, 2}) {
    for (uint32_t n : {1u, 37u, 1000u, 5000u}) {
      const auto call = [form](auto d, auto s, auto t, uint32_t c) {
        using TT = typename decltype(d)::PrimType;
        if constexpr (kSin) {
          if (form == 0) Sin<TT, kReuse, kSinRadian>(d, s, t, c);
          if (form == 2) Sin<TT, kReuse, kSinRadian>(d, s, c);
        } else {
          if (form == 0) Cos<TT, kReuse, kCosRadian>(d, s, t, c);
          if (form == 2) Cos<TT, kReuse, kCosRadian>(d, s, c);
        }
      };
      const auto got_f = RunApi<float>(in_f, n, kUbBufBytes, call, k950);
      const auto got_h = RunApi<half>(in_h, n, kUbBufBytes, call, k950);
      std::vector<float> want_f(n);
      std::vector<half> want_h(n);
      for (uint32_t i = 0; i < n; ++i) {
        want_f[i] = ref(in_f[i], false);
        const uint16_t b = lngrad_replay::FloatToHalf(ref(static_cast<float>(in_h[i]), true)).bits;
        std::memcpy(&want_h[i], &b, 2);
      }
      const std::string what = std::string(kSin ? "Sin" : "Cos") + " radian on the 950, form " +
                               std::to_string(form) + " n " + std::to_string(n);
      ExpectBitsEqual(got_f.first.data(), want_f.data(), n, what + " float", in_f.data());
      ExpectBitsEqual(got_h.first.data(), want_h.data(), n, what + " half", in_h.data());
      ExpectBitsEqual(got_f.second.data(), in_f.data(), kFull, what + " float src", in_f.data());
    }
  }
}

TEST(MathReplay3510, SinCosRadianReductionOn950) {
  const auto in = SpreadInputs(57, kFull, kTrigPoints);
  CheckRadianOn950<true, false>(in);
  CheckRadianOn950<false, false>(in);
  CheckRadianOn950<true, true>(in);
  CheckRadianOn950<false, true>(in);
  // Payne-Hanek against the Cody-Waite polynomial path: another algorithm, other bits.
  uint32_t differ = 0;
  for (uint32_t i = 0; i < kFull; ++i) {
    differ += BitsOf(lngrad_replay::ReplaySin3510(in[i], true, false)) !=
              BitsOf(lngrad_replay::ReplaySin3510(in[i], false, false));
  }
  EXPECT_GT(differ, 1000u);
}

// Every binary16 input (eight runs of 8192) through each 950 half path against its replay
// (widened, the float reference, the cast back saturating or not; Asin and Acos their half path):
// the roundings and the saturation meet every value here.
template <typename Api, typename Ref>
void CheckEveryHalfOn950(const std::string& name, Api api, Ref ref, bool saturate) {
  constexpr uint32_t kRun = 8192;
  for (uint32_t base = 0; base < 0x10000u; base += kRun) {
    std::vector<half> in(kRun), want(kRun);
    for (uint32_t i = 0; i < kRun; ++i) {
      const auto bits = static_cast<uint16_t>(base + i);
      std::memcpy(&in[i], &bits, 2);
      const float r = ref(static_cast<float>(in[i]));
      const uint16_t w =
          (saturate ? lngrad_replay::FloatToHalfSaturate(r) : lngrad_replay::FloatToHalf(r)).bits;
      std::memcpy(&want[i], &w, 2);
    }
    const auto got = RunApi<half>(
        in, kRun, kUbBufBytes, [&api](auto d, auto s, auto t, uint32_t c) { api(0, d, s, t, c); },
        k950);
    ExpectBitsEqual(got.first.data(), want.data(), kRun, name + " every half on the 950",
                    in.data());
  }
}

TEST(MathReplay3510, EveryHalfOn950) {
  namespace r = lngrad_replay;
  CheckEveryHalfOn950(
      "Exp", [](int, auto d, auto s, auto t, uint32_t n) { Exp<half, 10>(d, s, t, n); },
      [](float x) { return r::ReplayExpTaylor3510(10, x); }, true);
  CheckEveryHalfOn950(
      "Log2", [](int, auto d, auto s, auto t, uint32_t n) { Log2(d, s, t, n); }, r::ReplayLog2_3510,
      true);
  CheckEveryHalfOn950(
      "Log10", [](int, auto d, auto s, auto, uint32_t n) { Log10(d, s, n); }, r::ReplayLog10_3510,
      true);
  CheckEveryHalfOn950("Tan", LNGRAD_MATH_FORMS(Tan, false), r::ReplayTan3510, true);
  CheckEveryHalfOn950(
      "Asin", LNGRAD_MATH_FORMS(Asin, false), [](float x) { return r::ReplayAsin3510(x, true); },
      true);
  CheckEveryHalfOn950(
      "Acos", LNGRAD_MATH_FORMS(Acos, false), [](float x) { return r::ReplayAcos3510(x, true); },
      true);
  CheckEveryHalfOn950("Acosh", LNGRAD_MATH_FORMS(Acosh, false), r::ReplayAcosh3510, false);
  CheckEveryHalfOn950(
      "Atan", LNGRAD_MATH_FORMS(Atan, false), [](float x) { return r::ReplayAtan3510(x, false); },
      false);
  CheckEveryHalfOn950("Erfc", LNGRAD_MATH_FORMS(Erfc, false), r::ReplayErfc3510, false);
  CheckEveryHalfOn950(
      "Sin", LNGRAD_MATH_FORMS(Sin, false),
      [](float x) { return r::ReplaySin3510(x, false, false); }, false);
  CheckEveryHalfOn950(
      "Cos", LNGRAD_MATH_FORMS(Cos, false),
      [](float x) { return r::ReplayCos3510(x, false, false); }, false);
  // RADIAN_REDUCTION needs 8 bytes of scratch an element: the (count) form's stack buffer.
  CheckEveryHalfOn950(
      "Sin radian",
      [](int, auto d, auto s, auto, uint32_t n) { Sin<half, false, kSinRadian>(d, s, n); },
      [](float x) { return r::ReplaySin3510(x, true, true); }, false);
  CheckEveryHalfOn950(
      "Cos radian",
      [](int, auto d, auto s, auto, uint32_t n) { Cos<half, false, kCosRadian>(d, s, n); },
      [](float x) { return r::ReplayCos3510(x, true, true); }, false);
  CheckEveryHalfOn950(
      "Erf", LNGRAD_MATH_FORMS(Erf, false), [](float x) { return r::ReplayErf3510(x, false); },
      false);
}

}  // namespace
