// Power's paths (and Fmod's NORMAL one, fmod_3510_impl.h) on the 950 (arch 3510) against the
// independent replay of power_3510_impl.h (replay_power_3510.cpp, a separate reading of the
// register code: it shares no code with lngrad's power_3510.h): PowerConfig INTRINSIC and
// DOUBLE_FLOAT_TECH, float, half and bfloat16, the three forms (tensor^tensor, tensor^scalar,
// scalar^tensor) with and without sharedTmpBuffer and calCount, counts with tails, bases and
// exponents over the special values
// (+-0, +-inf, NaN, 1, -1, subnormals, odd and even integers, fractions, the Exp clamps), and
// every binary16 and every bfloat16 input as a base and as an exponent; half and bfloat16 cast
// back to nearest even without saturation (the replay's own FloatToHalf / FloatToBf16). Two NaNs
// match whatever their payloads; every other bit must match.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <climits>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "math_replay_test_util.h"
#include "replay_math.h"

namespace {

using namespace AscendC;
using namespace lngrad_replay::test;

constexpr const char* k950 = "Ascend950PR_9589";
constexpr PowerConfig kIntrinsic = {PowerAlgo::INTRINSIC};
constexpr PowerConfig kDoubleFloat = {PowerAlgo::DOUBLE_FLOAT_TECH};

// The specials at the front, then bases log-uniform over [2^-130, 2^40) with random signs.
std::vector<float> Bases(uint32_t seed, size_t n) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> e(-130.0, 40.0);
  std::bernoulli_distribution neg(0.5);
  std::vector<float> v(n);
  for (auto& x : v) x = static_cast<float>((neg(gen) ? -1.0 : 1.0) * std::exp2(e(gen)));
  return v;
}

// Exponents: the specials, integers of both parities, halves, fractions, big values.
std::vector<float> Exponents(uint32_t seed, size_t n) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int> k(-40, 40);
  std::uniform_real_distribution<float> f(-30.0f, 30.0f);
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) {
    const int kind = static_cast<int>(i % 4);
    v[i] = kind == 0 ? static_cast<float>(k(gen)) : kind == 1 ? k(gen) + 0.5f : f(gen);
    if (kind == 3) v[i] = f(gen) * 1e4f;
  }
  return v;
}

// Every pair of special base and special exponent at the front of x and y.
void PutSpecialGrid(std::vector<float>& x, std::vector<float>& y) {
  const float bases[] = {0.0f,  -0.0f,  kInf,    -kInf,     kNan,        1.0f,
                         -1.0f, 1e-40f, -1e-40f, 2.0f,      -2.0f,       0.5f,
                         -0.5f, 10.0f,  -3.0f,   0x1p-126f, 0.70710678f, 0.7071068f};
  const float exps[] = {0.0f, -0.0f, kInf, -kInf,  kNan,  1.0f,  -1.0f,  2.0f,
                        3.0f, -3.0f, 0.5f, 1e-45f, 1e-9f, -2.5f, 100.0f, -150.0f};
  size_t i = 0;
  for (float a : bases) {
    for (float b : exps) {
      x[i] = a;
      y[i++] = b;
    }
  }
}

// Power on the 950 in form `form` (0: tensor^tensor, 1: tensor^scalar y[0], 2: scalar x[0]^tensor)
// with (tmp, count) or with (count) only (`stack`).
template <typename T, const PowerConfig& cfg>
std::vector<T> RunPower(const std::vector<T>& x, const std::vector<T>& y, uint32_t n, int form,
                        bool stack) {
  std::vector<T> out;
  OnBlock(
      [&](Ub& ub) {
        ub.Put<T>(0, x);
        ub.Put<T>(1, y);
        const LocalTensor<T> d = ub.Get<T>(2), a = ub.Get<T>(0), b = ub.Get<T>(1);
        const LocalTensor<uint8_t> t = ub.Get<uint8_t>(3);
        const T xs = x[0], ys = y[0];
        if (form == 0)
          stack ? Power<T, false, cfg>(d, a, b, n) : Power<T, false, cfg>(d, a, b, t, n);
        if (form == 1)
          stack ? Power<T, false, cfg>(d, a, ys, n) : Power<T, false, cfg>(d, a, ys, t, n);
        if (form == 2)
          stack ? Power<T, false, cfg>(d, xs, b, n) : Power<T, false, cfg>(d, xs, b, t, n);
        out = ub.Take<T>(2);
      },
      k950);
  out.resize(n);
  return out;
}

template <typename T>
T Round(float r) {
  return ReplayRound<T>(r);
}

template <typename T>
const char* TypeName() {
  return sizeof(T) == 4 ? " float" : std::is_same_v<T, bfloat16_t> ? " bfloat16" : " half";
}

template <typename T, const PowerConfig& cfg>
void CheckPowerOn950(const std::vector<float>& xf, const std::vector<float>& yf) {
  const bool dbl = cfg.algo == PowerAlgo::DOUBLE_FLOAT_TECH;
  const auto x = As<T>(xf), y = As<T>(yf);
  // DOUBLE_FLOAT_TECH's scratch: three float arrays of n rounded up to 32 (3380: 40656 bytes of
  // the 40960; 3400 would pass them, MathScratch3510.PowerDoubleFloatScratchPastTheKitsMinimum).
  for (uint32_t n : {1u, 37u, 1000u, 3380u}) {
    for (int form = 0; form < 3; ++form) {
      std::vector<T> want(n);
      for (uint32_t i = 0; i < n; ++i) {
        const float a = ReplayWiden(form == 2 ? x[0] : x[i]);
        const float b = ReplayWiden(form == 1 ? y[0] : y[i]);
        want[i] = Round<T>(lngrad_replay::ReplayPower3510(a, b, dbl));
      }
      for (bool stack : {false, true}) {
        const std::string what = std::string("Power 950 ") + (dbl ? "double-float" : "intrinsic") +
                                 TypeName<T>() + " form " + std::to_string(form) +
                                 (stack ? " stack" : " tmp") + " n " + std::to_string(n);
        const auto got = RunPower<T, cfg>(x, y, n, form, stack);
        ExpectBitsEqual(got.data(), want.data(), n, what, x.data());
      }
    }
  }
}

TEST(MathReplay3510, PowerBothConfigsOn950) {
  auto x = Bases(61, kFull), y = Exponents(62, kFull);
  PutSpecialGrid(x, y);
  CheckPowerOn950<float, kIntrinsic>(x, y);
  CheckPowerOn950<float, kDoubleFloat>(x, y);
  std::vector<float> xh = Bases(63, kFull);
  for (auto& v : xh) v = std::fabs(v) > 60000.0f ? std::fmod(v, 300.0f) : v;
  std::vector<float> yh = Exponents(64, kFull);
  for (auto& v : yh) v = std::fabs(v) > 60000.0f ? std::fmod(v, 20.0f) : v;
  PutSpecialGrid(xh, yh);
  CheckPowerOn950<half, kIntrinsic>(xh, yh);
  CheckPowerOn950<half, kDoubleFloat>(xh, yh);
  // The two algorithms differ; INTRINSIC differs from 2201's sequence in its special cases (a
  // negative base with a tiny fractional exponent: 2201 takes |y - Rint y| < 1e-8 as integral).
  const auto on2201 = [&](uint32_t n) {
    std::vector<float> r(n);
    lngrad_replay::ReplayPower(x.data(), y.data(), r.data(), n);
    return r;
  }(1000);
  uint32_t algos = 0, archs = 0;
  for (uint32_t i = 0; i < 1000; ++i) {
    const float a = lngrad_replay::ReplayPower3510(x[i], y[i], false);
    const float b = lngrad_replay::ReplayPower3510(x[i], y[i], true);
    algos += BitsOf(a) != BitsOf(b) && !(IsNan(a) && IsNan(b));
    archs += BitsOf(a) != BitsOf(on2201[i]) && !(IsNan(a) && IsNan(on2201[i]));
  }
  EXPECT_GT(algos, 50u);
  EXPECT_GT(archs, 0u);
}

// Every binary16 (half or bfloat16) input as the base (exponents cycling over both parities,
// fractions, 0, +-inf, NaN) and as the exponent (bases cycling), both configs.
template <typename T, const PowerConfig& cfg>
void CheckEvery16BitPower() {
  const bool dbl = cfg.algo == PowerAlgo::DOUBLE_FLOAT_TECH;
  constexpr uint32_t kRun = 3200;
  const float other[] = {2, 3, -1, 0.5f, -2.5f, 0, kInf, -kInf, 7, -4, kNan, 1e-4f, 11.5f, -0.0f};
  for (uint32_t start = 0; start < 0x10000u; start += kRun) {
    const uint32_t n = std::min(kRun, 0x10000u - start);
    std::vector<T> all(n), cyc(n);
    for (uint32_t i = 0; i < n; ++i) {
      const auto bits = static_cast<uint16_t>(start + i);
      std::memcpy(&all[i], &bits, 2);
      cyc[i] = T(other[i % std::size(other)]);
    }
    for (bool as_base : {true, false}) {
      const auto& xs = as_base ? all : cyc;
      const auto& ys = as_base ? cyc : all;
      std::vector<T> want(n);
      for (uint32_t i = 0; i < n; ++i) {
        want[i] =
            Round<T>(lngrad_replay::ReplayPower3510(ReplayWiden(xs[i]), ReplayWiden(ys[i]), dbl));
      }
      const auto got = RunPower<T, cfg>(xs, ys, n, 0, false);
      ExpectBitsEqual(got.data(), want.data(), n,
                      std::string("Power 950 every") + TypeName<T>() +
                          (as_base ? " base" : " exponent") +
                          (dbl ? " double-float" : " intrinsic"),
                      all.data());
    }
  }
}

TEST(MathReplay3510, PowerEveryHalfOn950) {
  CheckEvery16BitPower<half, kIntrinsic>();
  CheckEvery16BitPower<half, kDoubleFloat>();
}

// bfloat16_t (the 950 only: the A2/A3 files have no bfloat16 Power, refused there,
// adv.MathBf16.RefusedOffThe950): the float sequence on the widened operands, the result cast
// back CAST_RINT without saturation (power_3510_impl.h's LoadSrcData / StoreDstData), every
// bfloat16 input as base and as exponent, and the three forms over random bases and exponents.
TEST(MathReplay3510, PowerEveryBfloat16On950) {
  CheckEvery16BitPower<bfloat16_t, kIntrinsic>();
  CheckEvery16BitPower<bfloat16_t, kDoubleFloat>();
  auto x = Bases(66, kFull), y = Exponents(67, kFull);
  PutSpecialGrid(x, y);
  CheckPowerOn950<bfloat16_t, kIntrinsic>(x, y);
  CheckPowerOn950<bfloat16_t, kDoubleFloat>(x, y);
}

// int32 on the 950: the exponent's bit loop and the special cases (a negative exponent gives 0
// but for x = +-1, INT_MIN included, where 2201's trunc(1 / p) gives 1 for an odd x).
TEST(MathReplay3510, PowerInt32On950) {
  std::mt19937 gen(65);
  std::uniform_int_distribution<int32_t> b(-9, 9), e(-6, 40);
  std::vector<int32_t> x(kFull), y(kFull);
  for (uint32_t i = 0; i < kFull; ++i) {
    x[i] = b(gen);
    y[i] = e(gen);
  }
  const int32_t sx[] = {0, 1, -1, 3, -3, 2, 65537, -7, INT32_MIN, INT32_MAX};
  const int32_t sy[] = {0, 1, -1, 2, 31, INT32_MIN, -2, INT32_MAX, 63, 17};
  for (size_t i = 0; i < std::size(sx) * std::size(sy); ++i) {
    x[i] = sx[i / std::size(sy)];
    y[i] = sy[i % std::size(sy)];
  }
  // GetMaxLoop: the bit length of the largest exponent (32 when it is negative).
  const auto loops = [](int32_t v) {
    uint32_t k = 0;
    while (k < 32 && (v >> k) != 0) ++k;
    return v < 0 ? 32u : k;
  };
  for (uint32_t n : {1u, 37u, 1000u, kFull - 3}) {
    int32_t ymax = y[0];
    for (uint32_t i = 0; i < n; ++i) ymax = std::max(ymax, y[i]);
    std::vector<int32_t> want(n), want_s(n);
    for (uint32_t i = 0; i < n; ++i) {
      want[i] = lngrad_replay::ReplayPowerInt3510(x[i], y[i], loops(ymax));
      want_s[i] = lngrad_replay::ReplayPowerInt3510(x[i], y[3], loops(y[3]));
    }
    std::vector<int32_t> got, got_s;
    OnBlock(
        [&](Ub& ub) {
          ub.Put<int32_t>(0, x);
          ub.Put<int32_t>(1, y);
          Power(ub.Get<int32_t>(2), ub.Get<int32_t>(0), ub.Get<int32_t>(1), ub.Get<uint8_t>(3), n);
          got = ub.Take<int32_t>(2);
          Power(ub.Get<int32_t>(2), ub.Get<int32_t>(0), y[3], ub.Get<uint8_t>(3), n);
          got_s = ub.Take<int32_t>(2);
        },
        k950);
    ExpectBitsEqual(got.data(), want.data(), n, "Power int32 950 n " + std::to_string(n));
    ExpectBitsEqual(got_s.data(), want_s.data(), n,
                    "Power int32 950 scalar n " + std::to_string(n));
  }
}

// Fmod on the 950, FmodConfig NORMAL (fmod_3510_impl.h's FmodComputeVF): float and half, the
// (tmp, count) and (tmp) forms, the special grid, wide random operands, every binary16 input as
// a dividend and as a divisor.
template <typename T>
void CheckFmodOn950(const std::vector<T>& a, const std::vector<T>& b, uint32_t n,
                    const std::string& what) {
  std::vector<T> want(n);
  for (uint32_t i = 0; i < n; ++i) {
    want[i] =
        Round<T>(lngrad_replay::ReplayFmod3510(static_cast<float>(a[i]), static_cast<float>(b[i])));
  }
  for (int form = 0; form < 2; ++form) {
    std::vector<T> got;
    OnBlock(
        [&](Ub& ub) {
          ub.Put<T>(0, a);
          ub.Put<T>(1, b);
          LocalTensor<T> d = ub.Get<T>(2), x = ub.Get<T>(0), y = ub.Get<T>(1);
          if (form == 1) {
            x.SetSize(n);
            y.SetSize(n);
            d.SetSize(n);
            Fmod(d, x, y, ub.Get<uint8_t>(3));
          } else {
            Fmod(d, x, y, ub.Get<uint8_t>(3), n);
          }
          got = ub.Take<T>(2);
        },
        k950);
    ExpectBitsEqual(got.data(), want.data(), n, what + " form " + std::to_string(form), a.data());
  }
}

TEST(MathReplay3510, FmodOn950) {
  auto x = Bases(66, kFull), y = Bases(67, kFull);
  PutSpecialGrid(x, y);
  for (size_t i = 300; i < 600; ++i) y[i] = std::trunc(y[i] * 7.0f) + 1.0f;  // small divisors
  for (uint32_t n : {1u, 37u, 1000u, kFull - 3}) {
    CheckFmodOn950<float>(x, y, n, "Fmod 950 float n " + std::to_string(n));
  }
  constexpr uint32_t kRun = 8192;
  const float other[] = {3, -3, 0.5f, -0.1f, 0, -0.0f, kInf, -kInf, kNan, 65504, 1e-7f, 7.25f};
  for (uint32_t start = 0; start < 0x10000u; start += kRun) {
    std::vector<half> all(kRun), cyc(kRun);
    for (uint32_t i = 0; i < kRun; ++i) {
      const auto bits = static_cast<uint16_t>(start + i);
      std::memcpy(&all[i], &bits, 2);
      cyc[i] = half(other[i % std::size(other)]);
    }
    CheckFmodOn950<half>(all, cyc, kRun, "Fmod 950 every half dividend");
    CheckFmodOn950<half>(cyc, all, kRun, "Fmod 950 every half divisor");
  }
  // 2201 rounds t * b before subtracting and gives NaN for an infinite divisor: other bits.
  uint32_t differ = 0;
  for (uint32_t i = 0; i < 1000; ++i) {
    const float t = std::trunc(x[i] / y[i]);
    const float p = t * y[i];
    const float old = x[i] - p;
    const float now = lngrad_replay::ReplayFmod3510(x[i], y[i]);
    differ += BitsOf(old) != BitsOf(now) && !(IsNan(old) && IsNan(now));
  }
  EXPECT_GT(differ, 10u);
}

}  // namespace
