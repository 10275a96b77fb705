// The math family against the replay, continued: Exp with its Taylor levels (and the source it
// overwrites with isReuseSource), Log/Log2/Log10, Sign, Sin/Cos with isReuseSource, Power in
// its three forms (float, half, int32), on Ascend910B1, bit for bit; and checks of the replay
// alone (its binary16 rounding against include/lngrad/half.h, its sequences against float64).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "math_replay_test_util.h"
#include "lngrad/half.h"
#include "replay_math.h"

namespace {

using namespace AscendC;
using namespace lngrad_replay::test;
using lngrad_replay::MathOp;
using RHalf = lngrad_replay::Half;

std::vector<float> Uniform(uint32_t seed, size_t n, float lo, float hi) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> u(lo, hi);
  std::vector<float> v(n);
  for (auto& x : v) x = u(gen);
  const float sp[] = {0.0f, -0.0f, kInf, -kInf, kNan, 1.0f, -1.0f, 1e-40f};
  for (size_t i = 0; i < std::size(sp); ++i) v[(i * 5) % n] = sp[i];
  return v;
}

template <typename T>
const RHalf* R(const std::vector<T>& v) {
  return reinterpret_cast<const RHalf*>(v.data());
}
template <typename T>
RHalf* R(std::vector<T>& v) {
  return reinterpret_cast<RHalf*>(v.data());
}

const uint32_t kCounts[] = {1, 37, 1000, kFull - 3};

template <uint8_t L>
void CheckExpLevel() {
  const auto in = Uniform(20 + L, kFull, -80, 80);
  const auto in_h = As<half>(Uniform(40 + L, kFull, -11, 11));
  const auto tmp_call = [](auto d, auto s, auto t, uint32_t n) {
    Exp<typename decltype(d)::PrimType, L, false>(d, s, t, n);
  };
  const auto stack_call = [](auto d, auto s, auto, uint32_t n) {
    Exp<typename decltype(d)::PrimType, L, false>(d, s, n);
  };
  for (uint32_t n : kCounts) {
    const std::string what = "Exp level " + std::to_string(L) + " n " + std::to_string(n);
    std::vector<float> want(n);
    std::vector<half> want_h(n);
    if (L == 0) {
      lngrad_replay::ReplayMath(MathOp::kExpBasic, in.data(), want.data(), n);
      lngrad_replay::ReplayMath(MathOp::kExpBasic, R(in_h), R(want_h), n);
    } else {
      lngrad_replay::ReplayExpTaylor(L, in.data(), want.data(), n);
      lngrad_replay::ReplayExpTaylor(L, R(in_h), R(want_h), n);
    }
    ExpectBitsEqual(RunApi<float>(in, n, kUbBufBytes, tmp_call).first.data(), want.data(), n,
                    what + " float tmp");
    ExpectBitsEqual(RunApi<float>(in, n, kUbBufBytes, stack_call).first.data(), want.data(), n,
                    what + " float stack");
    ExpectBitsEqual(RunApi<half>(in_h, n, kUbBufBytes, tmp_call).first.data(), want_h.data(), n,
                    what + " half tmp");
    ExpectBitsEqual(RunApi<half>(in_h, n, kUbBufBytes, stack_call).first.data(), want_h.data(), n,
                    what + " half stack");
  }
}

TEST(MathReplayExp, TaylorLevels) {
  CheckExpLevel<0>();
  CheckExpLevel<1>();
  CheckExpLevel<5>();
  CheckExpLevel<10>();
}

// Every binary16 input through Exp<half, 10> (and through Power as the base, with exponents
// cycling over integers of both parities, fractions, 0, +-inf and NaN).
TEST(MathReplayExp, EveryHalfInputLevel10AndPowerBase) {
  constexpr uint32_t kRun = 16384;
  const float ys[] = {2, 3, -1, 0.5f, -2.5f, 0, kInf, -kInf, 7, -4, kNan, 1e-4f, 11.5f};
  for (uint32_t base = 0; base < 0x10000u; base += kRun) {
    std::vector<half> in(kRun), y(kRun);
    for (uint32_t i = 0; i < kRun; ++i) {
      const auto bits = static_cast<uint16_t>(base + i);
      std::memcpy(&in[i], &bits, 2);
      y[i] = half(ys[i % std::size(ys)]);
    }
    const auto got = RunApi<half>(in, kRun, kUbBufBytes, [](auto d, auto s, auto t, uint32_t c) {
                       Exp<half, 10>(d, s, t, c);
                     }).first;
    std::vector<half> want(kRun), got_p, want_p(kRun);
    lngrad_replay::ReplayExpTaylor(10, R(in), R(want), kRun);
    ExpectBitsEqual(got.data(), want.data(), kRun, "Exp<half, 10> every half", in.data());
    OnBlock(
        [&](Ub& ub) {
          ub.Put<half>(0, in);
          ub.Put<half>(1, y);
          Power(ub.Get<half>(2), ub.Get<half>(0), ub.Get<half>(1), ub.Get<uint8_t>(3), kRun);
          got_p = ub.Take<half>(2);
        },
        kSoc);
    lngrad_replay::ReplayPower(R(in), R(y), R(want_p), kRun);
    ExpectBitsEqual(got_p.data(), want_p.data(), kRun, "Power half every base", in.data());
  }
}

// Float with isReuseSource: the result, and the source holding the fractional parts at its
// base, chunk after chunk (scratch of 2 KiB: chunks of 256 floats).
TEST(MathReplayExp, ReuseSourceOverwritesItsBase) {
  const auto in = Uniform(60, kFull, -30, 30);
  for (uint32_t tmpBytes : {2048u, 2080u, static_cast<uint32_t>(kUbBufBytes)}) {
    for (uint32_t n : {37u, 1000u, kFull - 3}) {
      const auto got = RunApi<float>(in, n, tmpBytes, [](auto d, auto s, auto t, uint32_t c) {
        Exp<float, 10, true>(d, s, t, c);
      });
      std::vector<float> src(in), want(n);
      lngrad_replay::ReplayExpTaylorReuse(10, src.data(), want.data(), n, tmpBytes);
      const std::string what =
          "Exp reuse tmp " + std::to_string(tmpBytes) + " n " + std::to_string(n);
      ExpectBitsEqual(got.first.data(), want.data(), n, what + " dst");
      ExpectBitsEqual(got.second.data(), src.data(), kFull, what + " src");
    }
  }
}

TEST(MathReplay, LogLog2Log10Sign) {
  const auto in = Uniform(70, kFull, -5, 1000);
  const auto in_h = As<half>(Uniform(71, kFull, -5, 60000));
  struct Case {
    MathOp op;
    const char* name;
    std::function<void(LocalTensor<float>, LocalTensor<float>, LocalTensor<uint8_t>, uint32_t)> f;
    std::function<void(LocalTensor<half>, LocalTensor<half>, LocalTensor<uint8_t>, uint32_t)> h;
  };
#define LNGRAD_BOTH(Call) \
  [](auto d, auto s, auto t, uint32_t n) { Call; }, [](auto d, auto s, auto t, uint32_t n) { Call; }
  const Case cases[] = {
      {MathOp::kLog, "Log", LNGRAD_BOTH((void)t; Log(d, s, n))},
      {MathOp::kLog2, "Log2 tmp", LNGRAD_BOTH(Log2(d, s, t, n))},
      {MathOp::kLog2, "Log2", LNGRAD_BOTH((void)t; Log2(d, s, n))},
      {MathOp::kLog10, "Log10", LNGRAD_BOTH((void)t; Log10(d, s, n))},
      {MathOp::kSign, "Sign tmp", LNGRAD_BOTH(Sign(d, s, t, n))},
      {MathOp::kSign, "Sign", LNGRAD_BOTH((void)t; Sign(d, s, n))},
  };
#undef LNGRAD_BOTH
  for (const Case& c : cases) {
    for (uint32_t n : kCounts) {
      const std::string what = std::string(c.name) + " n " + std::to_string(n);
      std::vector<float> want(n);
      std::vector<half> want_h(n);
      lngrad_replay::ReplayMath(c.op, in.data(), want.data(), n);
      lngrad_replay::ReplayMath(c.op, R(in_h), R(want_h), n);
      ExpectBitsEqual(RunApi<float>(in, n, kUbBufBytes, c.f).first.data(), want.data(), n,
                      what + " float");
      ExpectBitsEqual(RunApi<half>(in_h, n, kUbBufBytes, c.h).first.data(), want_h.data(), n,
                      what + " half");
    }
  }
}

// Sin and Cos with isReuseSource on float: the result and the reduced argument left in src.
TEST(MathReplay, SinCosReuseSource) {
  const auto in = Uniform(80, kFull, -500, 500);
  for (MathOp op : {MathOp::kSin, MathOp::kCos}) {
    for (uint32_t n : {37u, kFull - 3}) {
      const auto got = RunApi<float>(in, n, kUbBufBytes, [op](auto d, auto s, auto t, uint32_t c) {
        if (op == MathOp::kSin) Sin<float, true>(d, s, t, c);
        if (op == MathOp::kCos) Cos<float, true>(d, s, t, c);
      });
      std::vector<float> src(in), want(n);
      lngrad_replay::ReplaySinCosReuse(op, src.data(), want.data(), n);
      const std::string what =
          std::string(op == MathOp::kSin ? "Sin" : "Cos") + " reuse n " + std::to_string(n);
      ExpectBitsEqual(got.first.data(), want.data(), n, what + " dst");
      ExpectBitsEqual(got.second.data(), src.data(), kFull, what + " src");
    }
  }
}

// Power(dst, x, y) and its scalar forms: x in buffer 0, y in buffer 1, dst buffer 2, tmp 3.
template <typename T, typename Api>
std::vector<T> RunPower(const std::vector<T>& x, const std::vector<T>& y, uint32_t n, Api api) {
  std::vector<T> out;
  OnBlock(
      [&](Ub& ub) {
        ub.Put<T>(0, x);
        ub.Put<T>(1, y);
        api(ub.Get<T>(2), ub.Get<T>(0), ub.Get<T>(1), ub.Get<uint8_t>(3), n);
        out = ub.Take<T>(2);
      },
      kSoc);
  return out;
}

template <typename T, typename Replay>
void CheckPowerForms(const std::vector<T>& x, const std::vector<T>& y, const std::string& name,
                     Replay replay) {
  const uint32_t cap = kUbBufBytes / sizeof(T);
  for (uint32_t n : {1u, 37u, 1000u, cap - 3}) {
    const T sx = x[3], sy = y[5];
    const std::vector<T> bx(cap, sx), by(cap, sy);
    std::vector<T> want(n), want_s(n), want_v(n);
    replay(x.data(), y.data(), want.data(), n);
    replay(x.data(), by.data(), want_s.data(), n);
    replay(bx.data(), y.data(), want_v.data(), n);
    const std::string what = name + " n " + std::to_string(n);
    const auto tt = [](auto d, auto a, auto b, auto t, uint32_t c) { Power(d, a, b, t, c); };
    const auto tt_stack = [](auto d, auto a, auto b, auto, uint32_t c) { Power(d, a, b, c); };
    const auto ts = [sy](auto d, auto a, auto, auto t, uint32_t c) { Power(d, a, sy, t, c); };
    const auto st = [sx](auto d, auto, auto b, auto t, uint32_t c) { Power(d, sx, b, t, c); };
    ExpectBitsEqual(RunPower<T>(x, y, n, tt).data(), want.data(), n, what + " tensor-tensor");
    ExpectBitsEqual(RunPower<T>(x, y, n, tt_stack).data(), want.data(), n, what + " stack");
    ExpectBitsEqual(RunPower<T>(x, y, n, ts).data(), want_s.data(), n, what + " tensor-scalar");
    ExpectBitsEqual(RunPower<T>(x, y, n, st).data(), want_v.data(), n, what + " scalar-tensor");
  }
}

// x and y over signs, integral and fractional exponents, and the special cases the masks
// handle: y = 0, +-inf; x = 1, -1, +-0, +-inf, NaN.
std::pair<std::vector<float>, std::vector<float>> PowerInputs(uint32_t seed, size_t n, float xmax,
                                                              float ymax) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> ux(-xmax, xmax), uy(-ymax, ymax);
  std::vector<float> x(n), y(n);
  for (size_t i = 0; i < n; ++i) {
    x[i] = ux(gen);
    y[i] = i % 3 == 0 ? std::round(uy(gen)) : uy(gen);
  }
  const float xs[] = {1, -1, 0, -0.0f, kInf, -kInf, kNan, -2, 2, -1, 0.5f, -3};
  const float ys[] = {kInf, -kInf, 0, -0.0f, 2, 3, kNan, 0.5f, kInf, -kInf, -3, 1e-9f};
  for (size_t a = 0; a < std::size(xs); ++a) {
    for (size_t b = 0; b < std::size(ys); ++b) {
      x[7 + a * std::size(ys) + b] = xs[a];
      y[7 + a * std::size(ys) + b] = ys[b];
    }
  }
  return {x, y};
}

TEST(MathReplayPower, FloatHalfInt32AllForms) {
  const auto [x, y] = PowerInputs(90, kFull, 6, 12);
  CheckPowerForms<float>(x, y, "Power float",
                         [](const float* a, const float* b, float* d, size_t n) {
                           lngrad_replay::ReplayPower(a, b, d, n);
                         });
  const auto [xh, yh] = PowerInputs(91, kFull * 2, 3, 8);
  CheckPowerForms<half>(As<half>(xh), As<half>(yh), "Power half",
                        [](const half* a, const half* b, half* d, size_t n) {
                          lngrad_replay::ReplayPower(reinterpret_cast<const RHalf*>(a),
                                                     reinterpret_cast<const RHalf*>(b),
                                                     reinterpret_cast<RHalf*>(d), n);
                        });
  std::mt19937 gen(92);
  std::uniform_int_distribution<int32_t> ux(-40, 40), uy(-12, 40);
  std::vector<int32_t> xi(kFull), yi(kFull);
  for (uint32_t i = 0; i < kFull; ++i) {
    xi[i] = ux(gen);
    yi[i] = uy(gen);
  }
  CheckPowerForms<int32_t>(xi, yi, "Power int32",
                           [](const int32_t* a, const int32_t* b, int32_t* d, size_t n) {
                             lngrad_replay::ReplayPower(a, b, d, n);
                           });
}

// The replay on its own: its double -> half rounding against include/lngrad/half.h on every
// float that is a half value or halfway between two, and its sequences near float64.
TEST(MathReplaySelf, DoubleToHalfAgreesWithHalfH) {
  for (uint32_t b = 0; b < 0x10000u; ++b) {
    for (int mid = 0; mid < 2; ++mid) {
      const uint16_t lo = static_cast<uint16_t>(b);
      const float f = lngrad::HalfBitsToFloat(lo);
      if (std::isnan(f) || std::isinf(f)) continue;
      const float g = mid ? (f + lngrad::HalfBitsToFloat(static_cast<uint16_t>(b + 1))) / 2 : f;
      if (std::isnan(g) || std::isinf(g)) continue;
      ASSERT_EQ(lngrad_replay::DoubleToHalf(g).bits, lngrad::FloatToHalfBits(g)) << g;
    }
  }
  EXPECT_EQ(lngrad_replay::DoubleToHalf(2.5 * std::ldexp(1.0, -24), true).bits, 3);  // away
  EXPECT_EQ(lngrad_replay::DoubleToHalf(2.5 * std::ldexp(1.0, -24), false).bits, 2);
}

TEST(MathReplaySelf, SequencesNearFloat64) {
  for (float x = -3.0f; x <= 3.0f; x += 0.01f) {
    EXPECT_NEAR(lngrad_replay::ReplayMathFloat(MathOp::kErf, x), std::erf(x), 1e-6) << x;
    const float a = x * 100;  // the argument as the sequence sees it
    EXPECT_NEAR(lngrad_replay::ReplayMathFloat(MathOp::kSin, a), std::sin(double{a}), 1e-6) << a;
    EXPECT_NEAR(lngrad_replay::ReplayMathFloat(MathOp::kCos, a), std::cos(double{a}), 1e-6) << a;
    EXPECT_NEAR(lngrad_replay::ReplayMathFloat(MathOp::kAtan, x), std::atan(x), 6e-6) << x;
    EXPECT_NEAR(lngrad_replay::ReplayMathFloat(MathOp::kAsin, x / 3), std::asin(x / 3.0), 6e-5);
    EXPECT_NEAR(lngrad_replay::ReplayPowerFloat(std::fabs(x) + 0.5f, x),
                std::pow(std::fabs(x) + 0.5, x), 1e-5 * std::pow(std::fabs(x) + 0.5, x));
  }
  EXPECT_EQ(lngrad_replay::ReplayPowerFloat(-2.0f, 3.0f), -8.0f);
  EXPECT_TRUE(std::isnan(lngrad_replay::ReplayPowerFloat(-2.0f, 0.5f)));
  EXPECT_EQ(lngrad_replay::ReplayPowerFloat(kNan, 0.0f), 1.0f);
}

// CumSum on both axes, with the last row, float and half; several chunks of rows for the last
// axis (a scratch of 4 KiB holds 32 float rows of 16); -0 at row starts (the `+ 0` copies).
// On the 950 (`soc`) against the replay of its 3510 file (plain copies: the -0 stay).
template <typename T, const CumSumConfig& kConfig>
void CheckCumSum(uint32_t outer, uint32_t inner, uint32_t tmpBytes, const char* soc = kSoc) {
  const bool on950 = std::string(soc) != kSoc;
  const auto replay = [on950](const auto* src, auto* dst, auto* last, uint32_t o, uint32_t i,
                              bool last_axis) {
    if (on950) {
      lngrad_replay::ReplayCumSum3510(src, dst, last, o, i, last_axis);
    } else {
      lngrad_replay::ReplayCumSum(src, dst, last, o, i, last_axis);
    }
  };
  std::vector<float> v = Uniform(100 + outer, outer * inner, -2, 2);
  for (uint32_t r = 0; r < outer; r += 3) v[r * inner] = -0.0f;
  const auto in = As<T>(v);
  std::vector<T> dst, last;
  OnBlock(
      [&](Ub& ub) {
        ub.Put<T>(0, in);
        LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(3);
        tmp.SetSize(tmpBytes);
        LocalTensor<T> d = ub.Get<T>(1), l = ub.Get<T>(2), s = ub.Get<T>(0);
        CumSum<T, kConfig>(d, l, s, tmp, CumSumInfo{outer, inner});
        dst = ub.Take<T>(1);
        last = ub.Take<T>(2);
      },
      soc);
  std::vector<T> want(outer * inner), want_last(inner);
  if constexpr (sizeof(T) == 2) {
    replay(R(in), R(want), R(want_last), outer, inner, kConfig.isLastAxis);
  } else {
    replay(in.data(), want.data(), want_last.data(), outer, inner, kConfig.isLastAxis);
  }
  const std::string what = std::string("CumSum ") + soc +
                           (kConfig.isLastAxis ? " last" : " first") + " axis [" +
                           std::to_string(outer) + ", " + std::to_string(inner) + "]";
  ExpectBitsEqual(dst.data(), want.data(), outer * inner, what + " dst");
  ExpectBitsEqual(last.data(), want_last.data(), inner, what + " last row");
}

constexpr CumSumConfig kFirstAxis = {false, false, true};
constexpr CumSumConfig kLastAxis = {true, false, true};

TEST(MathReplayCumSum, BothAxesFloatAndHalf) {
  CheckCumSum<float, kFirstAxis>(37, 24, kUbBufBytes);
  CheckCumSum<float, kFirstAxis>(1, 64, kUbBufBytes);
  CheckCumSum<half, kFirstAxis>(37, 32, kUbBufBytes);
  CheckCumSum<float, kLastAxis>(37, 24, kUbBufBytes);
  CheckCumSum<float, kLastAxis>(100, 16, 4096);
  CheckCumSum<float, kLastAxis>(5, 200, kUbBufBytes);
  CheckCumSum<half, kLastAxis>(37, 32, kUbBufBytes);
  CheckCumSum<half, kLastAxis>(70, 16, 4096);
}

// The 950 (regbase/3510/cumsum_3510_impl.h): the same sums, but its copies keep a -0 (row 0 of
// the first axis, each row start of the last axis, the last row), where 2201's Adds(x, 0) gives
// +0; the scratch as 2201's (the 3510 source asserts the same minima).
TEST(MathReplayCumSum, BothAxesOn950) {
  constexpr const char* k950 = "Ascend950PR_9589";
  CheckCumSum<float, kFirstAxis>(37, 24, kUbBufBytes, k950);
  CheckCumSum<half, kFirstAxis>(37, 32, kUbBufBytes, k950);
  CheckCumSum<float, kLastAxis>(37, 24, kUbBufBytes, k950);
  CheckCumSum<float, kLastAxis>(5, 200, kUbBufBytes, k950);
  CheckCumSum<half, kLastAxis>(37, 32, kUbBufBytes, k950);
  std::vector<float> in = {-0.0f, 1.0f, -0.0f, 2.0f}, a(4), b(4);
  lngrad_replay::ReplayCumSum(in.data(), a.data(), nullptr, 2, 2, true);
  lngrad_replay::ReplayCumSum3510(in.data(), b.data(), nullptr, 2, 2, true);
  EXPECT_NE(BitsOf(a[0]), BitsOf(b[0]));  // +0 on 2201, -0 on the 950
}

}  // namespace
