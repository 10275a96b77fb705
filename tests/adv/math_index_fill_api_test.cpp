// The index and GM-fill APIs (lib/index/arithprogression.h, lib/utils/init_global_memory.h)
// against a replay of the vendor's sequence written here, and the host scratch sizes of the math
// APIs (tiling/math/math_tiling.h) against the toolkit's formulas. The shared helpers are in
// math_api_test_util.h.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "../aicore/checked_mode_scope.h"
#include "../aicore/repeat_test_util.h"
#include "../aicore/sanitizer_off.h"
#include "kernel_operator.h"
#include "run_on.h"
#include "math_api_test_util.h"
#include "tiling/tiling_api.h"

namespace {

using namespace AscendC;
using namespace lngrad::adv::testing;

// ----------------------------------------------------------------------------------------------
// Arange: the replay of the vendor's sequence (scalar first block, block doubling within the
// first repeat, repeat by repeat after it), written independently of the library.

template <typename T>
std::vector<T> ArangeReplay(double first, double diff, int count) {
  const int blk = 32 / sizeof(T), rep = 256 / sizeof(T);
  const int total = (count + blk - 1) / blk * blk;
  std::vector<double> v(total, 0.0);
  auto to_t = [](double x) {
    if constexpr (std::is_integral_v<T>) {
      return static_cast<double>(static_cast<T>(static_cast<int64_t>(x)));
    } else {
      return D(Round<T>(x));
    }
  };
  const int base = std::min(count, blk);
  for (int i = 0; i < base; ++i) {
    // half: in float; float: diff * i rounded, then the sum rounded.
    const double prod = std::is_integral_v<T> ? diff * i : static_cast<float>(diff * i);
    v[i] = to_t(std::is_integral_v<T> ? first + prod : static_cast<float>(first + prod));
  }
  if (count <= blk) {
    std::vector<T> r(count);
    for (int i = 0; i < count; ++i) r[i] = static_cast<T>(v[i]);
    return r;
  }
  const double bstep = to_t(std::is_integral_v<T> ? diff * blk : static_cast<float>(diff * blk));
  const double rstep = to_t(std::is_integral_v<T> ? diff * rep : static_cast<float>(diff * rep));
  auto add = [&](int at, int from, double s, int n) {
    for (int j = 0; j < n; ++j) v[at + j] = to_t(v[from + j] + s);
  };
  if (count > rep) {
    for (int i = 0; i < 7; ++i) add((i + 1) * blk, i * blk, bstep, blk);
    const int repeat = count / rep, tail = count % rep;
    for (int i = 0; i < repeat - 1; ++i) add((i + 1) * rep, i * rep, rstep, rep);
    if (tail > 0) add(repeat * rep, (repeat - 1) * rep, rstep, (tail + blk - 1) / blk * blk);
  } else {
    for (int i = 0; i < total / blk - 1; ++i) add((i + 1) * blk, i * blk, bstep, blk);
  }
  std::vector<T> r(total);
  for (int i = 0; i < total; ++i) r[i] = static_cast<T>(v[i]);
  return r;
}

template <typename T>
void CheckArange(double first, double diff, int count, const char* soc = k910B) {
  std::vector<T> out;
  OnBlock(
      [&](Ub& ub) {
        Arange<T>(ub.Get<T>(0), static_cast<T>(first), static_cast<T>(diff), count);
        out = ub.Take<T>(0);
      },
      soc);
  const std::vector<T> want =
      ArangeReplay<T>(D(static_cast<T>(first)), D(static_cast<T>(diff)), count);
  out.resize(want.size());
  ExpectSame(out, want, "Arange count " + std::to_string(count));
}

TEST(MathArange, MatchesTheVendorSequenceForEveryBranch) {
  for (int count : {1, 5, 8, 9, 16, 63, 64, 65, 100, 128, 129, 1000, 1001}) {
    CheckArange<float>(0.1, 0.3, count);
    CheckArange<half>(-3.0, 0.37, count);
    CheckArange<int32_t>(-100, 7, count);
    CheckArange<int16_t>(30000, 97, count);  // wraps in 16 bits
  }
  CheckArange<int64_t>(-5, 3, 300, k950);
  // Exactly representable progressions are exact: dst[i] = first + i * diff.
  OnBlock([](Ub& ub) {
    LocalTensor<float> d = ub.Get<float>(0);
    ArithProgression<float>(d, 1.0f, 0.5f, 777);
    for (int i = 0; i < 777; ++i) ASSERT_EQ(d.HostPtr()[i], 1.0f + 0.5f * i) << i;
    EXPECT_EQ(Bits(d.HostPtr()[777]), Bits(1.0f + 0.5f * 777));  // the whole block is written
    EXPECT_EQ(Bits(d.HostPtr()[784]), 0u);
  });
  ExpectCheck([](Ub& ub) { Arange<float>(ub.Get<float>(0), 1.0f, 1.0f, 0); }, "invalid_count",
              "must be > 0");
  ExpectCheck([](Ub& ub) { Arange<int64_t>(ub.Get<int64_t>(0), 1, 1, 8); }, "product", "int64_t");
}

// Both kits assert diffValue >= 0 (as float: NaN fails); the 950's code asserts no count > 0,
// so 0 writes nothing there, a negative count is refused.
TEST(MathArange, CheckedModeFollowsEachKitsAsserts) {
  for (const char* soc : {k910B, k950}) {
    ExpectCheck([](Ub& ub) { Arange<float>(ub.Get<float>(0), 1.0f, -0.5f, 8); }, "math_arg",
                "diffValue is -0.5", soc);
    ExpectCheck(
        [](Ub& ub) { ArithProgression<half>(ub.Get<half>(0), half(1.0f), half(std::nanf("")), 8); },
        "math_arg", "must be >= 0", soc);
    ExpectCheck([](Ub& ub) { Arange<int32_t>(ub.Get<int32_t>(0), 1, -3, 8); }, "math_arg",
                "diffValue", soc);
    ExpectCheck([](Ub& ub) { Arange<int32_t>(ub.Get<int32_t>(0), 1, 3, -1); }, "invalid_count",
                "count is -1", soc);
  }
  const lngrad::aicore::test::CheckedModeScope checked(true);
  OnBlock(
      [](Ub& ub) {
        LocalTensor<float> d = ub.Get<float>(0);
        d.HostPtr()[0] = 7.0f;
        Arange<float>(d, 1.0f, -0.0f, 0);  // -0 >= 0: accepted; count 0: nothing written
        EXPECT_EQ(d.HostPtr()[0], 7.0f);
      },
      k950);
}

// ----------------------------------------------------------------------------------------------
// Fill.

TEST(MathFill, SetsGmBeforeInitBufferOnly) {
  std::vector<float> gm(300, -1.0f);
  ASSERT_TRUE(RunOn(k910B, [&] {
                TPipe pipe;
                GlobalTensor<float> g;
                g.SetGlobalBuffer(gm.data(), 300);
                Fill(g, 257, 2.5f);
              }).empty());
  for (int i = 0; i < 300; ++i) ASSERT_EQ(gm[i], i < 257 ? 2.5f : -1.0f) << i;
  std::vector<uint16_t> g16(64, 0);
  ASSERT_TRUE(RunOn(k910B, [&] {
                GlobalTensor<uint16_t> g;
                g.SetGlobalBuffer(g16.data(), 64);
                Fill(g, 64, uint16_t{0xbeef});
              }).empty());
  EXPECT_EQ(g16[63], 0xbeef);
  ExpectCheck(
      [&](Ub&) {
        GlobalTensor<float> g;
        g.SetGlobalBuffer(gm.data(), 300);
        Fill(g, 16, 1.0f);
      },
      "fill_order", "before any InitBuffer");
  const lngrad::aicore::test::CheckedModeScope checked(true);
  std::string check;
  (void)RunOn(k910B, [&] {
    GlobalTensor<float> g;
    g.SetGlobalBuffer(gm.data(), 300);
    try {
      Fill(g, 301, 1.0f);
    } catch (const lngrad::aicore::KernelCheckError& e) {
      check = e.check();
    }
  });
  EXPECT_EQ(check, "gm_bounds");
  EXPECT_EQ(gm[299], -1.0f);
}

TEST(MathFill, InitOutputFillsAfterInitBufferToo) {
  for (const char* soc : {k910B, "Ascend950PR_9599"}) {
    std::vector<int32_t> gm(100, -1);
    ASSERT_TRUE(RunOn(soc, [&] {
                  TPipe pipe;
                  TBuf<> b;
                  pipe.InitBuffer(b, 1024);
                  GlobalTensor<int32_t> g;
                  g.SetGlobalBuffer(gm.data(), 100);
                  InitOutput<int32_t>(g, 77, 5);
                }).empty());
    for (int i = 0; i < 100; ++i) ASSERT_EQ(gm[i], i < 77 ? 5 : -1) << soc << " " << i;
  }
  // Where the vendor's InitOutput compiles to nothing, checked mode says so.
  std::vector<float> gm(16, -1.0f);
  ExpectCheck(
      [&](Ub&) {
        GlobalTensor<float> g;
        g.SetGlobalBuffer(gm.data(), 16);
        InitOutput<float>(g, 16, 0.0f);
      },
      "unsupported_on_product", "InitOutput", "Ascend310P1");
  EXPECT_EQ(gm[0], -1.0f);
}
// ----------------------------------------------------------------------------------------------
// Host scratch sizes.

TEST(MathTiling, ValuesOfTheToolkitFormulas) {
  using MaxMinFn = void (*)(const ge::Shape&, uint32_t, bool, uint32_t&, uint32_t&);
  // One call (srcShape {n}, typeSize, isReuseSource false) and the max and min it must give
  // (min: not checked where absent).
  struct MaxMinRow {
    const char* name;
    MaxMinFn fn;
    int64_t n;
    uint32_t type_size;
    uint32_t max;
    std::optional<uint32_t> min;
  };
  const MaxMinRow rows[] = {
      {"Ceil", GetCeilMaxMinTmpSize, 1000, 4, 4000, 256},
      {"Ceil", GetCeilMaxMinTmpSize, 8, 2, 512, 512},  // the ceil sample's call
      {"Floor", GetFloorMaxMinTmpSize, 1000, 4, 0, 0},
      {"Floor", GetFloorMaxMinTmpSize, 1000, 2, 4000, 512},
      {"Trunc", GetTruncMaxMinTmpSize, 1000, 2, 4000, std::nullopt},
      {"Frac", GetFracMaxMinTmpSize, 1000, 2, 8000, 1024},
      {"Fmod", GetFmodMaxMinTmpSize, 1000, 2, 16000, 2048},
      {"Fmod", GetFmodMaxMinTmpSize, 8, 4, 256, 256},
      {"Axpy", GetAxpyMaxMinTmpSize, 1000, 2, 8000, 1024},
      {"Axpy", GetAxpyMaxMinTmpSize, 8, 2, 1024, std::nullopt},
      {"Axpy", GetAxpyMaxMinTmpSize, 1000, 4, 0, std::nullopt},
      {"Xor", GetXorMaxMinTmpSize, 1000, 2, 2000, 256},
      {"Xor", GetXorMaxMinTmpSize, 8, 2, 256, std::nullopt},
      {"Clamp", GetClampMaxMinTmpSize, 1000, 4, 1000, 64},
      {"Clamp", GetClampMaxMinTmpSize, 8, 2, 128, 128},
  };
  uint32_t mx = 7, mn = 7, k = 7, extra = 7;
  for (const MaxMinRow& r : rows) {
    SCOPED_TRACE(::testing::Message()
                 << "Get" << r.name << "MaxMinTmpSize({" << r.n << "}, " << r.type_size << ")");
    r.fn(ge::Shape({r.n}), r.type_size, false, mx, mn);
    EXPECT_EQ(mx, r.max);
    if (r.min) {
      EXPECT_EQ(mn, *r.min);
    }
  }
  GetCeilTmpBufferFactorSize(2, k, extra);
  EXPECT_EQ(k, 2u);
  EXPECT_EQ(extra, 0u);
  GetFmodTmpBufferFactorSize(2, k, extra);
  EXPECT_EQ(k, 8u);
  GetFracTmpBufferFactorSize(4, k, extra);
  EXPECT_EQ(k, 0u);
  GetAxpyTmpBufferFactorSize(2, k, extra);
  EXPECT_EQ(k, 4u);
  GetArangeMaxMinTmpSize(mx, mn);
  EXPECT_EQ(mx + mn, 0u);
}

TEST(MathTiling, PlatformFunctions) {
  const platform_ascendc::PlatformAscendC& a2 =
      *platform_ascendc::PlatformAscendCManager::GetInstance(k910B);
  const platform_ascendc::PlatformAscendC& p950 =
      *platform_ascendc::PlatformAscendCManager::GetInstance(k950);
  const platform_ascendc::PlatformAscendC& p310 =
      *platform_ascendc::PlatformAscendCManager::GetInstance(k310P);
  const ge::Shape s({1000});
  uint32_t mx = 7, mn = 7, k = 7, extra = 7;
  GetRoundMaxMinTmpSize(a2, s, 4, false, mx, mn);
  EXPECT_EQ(mx, 0u);
  GetRoundMaxMinTmpSize(a2, s, 2, false, mx, mn);
  EXPECT_EQ(mx, 2000u);
  EXPECT_EQ(mn, 256u);
  GetRoundMaxMinTmpSize(p310, s, 2, false, mx, mn);
  EXPECT_EQ(mx, 4000u);
  EXPECT_EQ(mn, 512u);
  GetRoundTmpBufferFactorSize(p310, 4, k, extra);
  EXPECT_EQ(k, 1u);
  mx = mn = 7;
  GetRintMaxMinTmpSize(p950, s, 4, false, mx, mn);
  EXPECT_EQ(mx + mn, 0u);
  EXPECT_TRUE(lngrad::tiling::LastTilingStatus().ok());
  mx = mn = 7;
  GetRintMaxMinTmpSize(a2, s, 4, false, mx, mn);
  EXPECT_EQ(mx, 7u);  // untouched
  EXPECT_FALSE(lngrad::tiling::LastTilingStatus().ok());
  GetBitwiseAndMaxMinTmpSize(p950, s, 3, false, mx, mn);
  EXPECT_FALSE(lngrad::tiling::LastTilingStatus().ok());  // no 3-byte type
  GetWhereTmpBufferFactorSize(p950, 8, k, extra);
  EXPECT_EQ(k, 0u);
  EXPECT_TRUE(lngrad::tiling::LastTilingStatus().ok());
  GetCeilMaxMinTmpSize(ge::Shape({0}), 4, false, mx, mn);
  EXPECT_FALSE(lngrad::tiling::LastTilingStatus().ok());
}

}  // namespace
