// SoftMax with isDataFormatNZ (lib/activation/softmax_nz.h) on the simulated 910B (arch 2201)
// and the 950 (arch 3510, the register code's order): src/dst as [K / 16, M, 16]
// fractals, against a float64 oracle with the bounds of softmax_api_test.cpp (output: (h_T +
// 2e-6) |exact| + 2^-25; sums: 2e-6 relative (+ h for half statistics); maxima exact), K tails
// (oriSrcK % 16 != 0), several rows, oriSrcM < srcM; what is left unwritten; checked refusals.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "../aicore/repeat_test_util.h"
#include "softmax_test_util.h"
#include "kernel_operator.h"
#include "../aicore/sanitizer_off.h"

namespace {

using lngrad::aicore::test::ExpectCheck;
using namespace softmax_test;  // NOLINT(build/namespaces)

constexpr uint32_t kNz = 16;

struct NzCase {
  uint32_t m, k, oriM, oriK;
};

// Element (r, c) of an NZ tensor with fractals of m rows.
uint32_t At(uint32_t m, uint32_t r, uint32_t c) { return ((c / kNz) * m + r) * kNz + c % kNz; }

// The toolkit's kernel-side NZ tiling for these shapes (srcM = the fractal's M, rows = oriM).
SoftMaxTiling NzTiling(const NzCase& c, uint32_t statBytes) {
  SoftMaxTiling t{};
  const uint32_t lanes = 32 / statBytes;
  t.srcM = c.m;
  t.srcK = c.k;
  t.srcSize = c.m * c.k;
  t.reduceM = t.splitM = c.oriM;
  t.reduceK = t.outMaxK = lanes;
  t.splitK = c.k;
  t.reduceSize = c.oriM * lanes;
  t.splitSize = c.oriM * c.k;
  t.rangeM = 1;
  return t;
}

// flash: SoftmaxFlashV2 without update (no Div; every column of dst written, the masked ones
// with src's values; one split, so the srcM - oriM padding rows are left alone too).
template <typename T, typename U, bool flash = false>
void RunNz(const NzCase& c, const char* soc, uint32_t seed) {
  SCOPED_TRACE(std::string(soc) + (flash ? " flashv2" : "") + " m " + std::to_string(c.m) + " k " +
               std::to_string(c.k) + " oriM " + std::to_string(c.oriM) + " oriK " +
               std::to_string(c.oriK));
  const auto x = RandomValues<T>(seed, c.m * c.k);
  const auto init = RandomValues<T>(seed + 1, c.m * c.k);
  std::vector<T> y, srcAfter;
  std::vector<U> sum, max;
  OnBlock(
      [&](Ub& ub) {
        ub.Put(0, x);
        ub.Put(1, init);
        auto st = ub.Get<U>(2);
        const AscendC::SoftMaxShapeInfo shape{c.m, c.k, c.oriM, c.oriK};
        if constexpr (flash) {
          AscendC::SoftmaxFlashV2<T, false, false, false, true>(
              ub.Get<T>(1), st[0], st[2048], ub.Get<T>(0), ub.Get<T>(1), st[0], st[2048],
              ub.Get<uint8_t>(3), SoftMaxTiling{}, shape);
        } else {
          AscendC::SoftMax<T, false, false, true>(ub.Get<T>(1), st[0], st[2048], ub.Get<T>(0),
                                                  ub.Get<uint8_t>(3), NzTiling(c, sizeof(U)),
                                                  shape);
        }
        y = ub.Take<T>(1);
        srcAfter = ub.Take<T>(0);
        sum = ub.Take<U>(2);
        max = std::vector<U>(sum.begin() + 2048, sum.end());
      },
      soc);
  for (uint32_t i = 0; i < c.m * c.k; ++i) ASSERT_EQ(D(srcAfter[i]), D(x[i])) << "src kept";
  constexpr uint32_t lanes = 32 / sizeof(U);
  const uint32_t len = c.oriK % kNz != 0 ? c.oriK % kNz : kNz;
  const uint32_t validK = c.k - kNz + len;  // the source masks the last fractal only
  for (uint32_t r = 0; r < c.m; ++r) {
    if (r >= c.oriM) {
      for (uint32_t j = 0; j < c.k; ++j) {
        ASSERT_EQ(D(y[At(c.m, r, j)]), D(init[At(c.m, r, j)])) << "row " << r << " not written";
      }
      continue;
    }
    double mx = -INFINITY, s = 0;
    for (uint32_t j = 0; j < validK; ++j) mx = std::max(mx, D(x[At(c.m, r, j)]));
    for (uint32_t j = 0; j < validK; ++j) s += std::exp(D(x[At(c.m, r, j)]) - mx);
    // SoftMax and SoftmaxFlashV2 on the 950 (regbase/3510): statistics of the first
    // 8 * (srcM / 8) rows only.
    const bool reg = std::string(soc) == k950;
    for (uint32_t l = 0; l < lanes && !(reg && r >= c.m / 8 * 8); ++l) {
      ASSERT_EQ(D(max[r * lanes + l]), D(U(static_cast<float>(mx)))) << "row " << r;
      EXPECT_LE(std::fabs(D(sum[r * lanes + l]) - s), (HalfU<U>() + 2e-6) * s) << "row " << r;
    }
    for (uint32_t j = 0; j < validK; ++j) {
      const double exact = std::exp(D(x[At(c.m, r, j)]) - mx) / (flash ? 1.0 : s);
      EXPECT_LE(std::fabs(D(y[At(c.m, r, j)]) - exact),
                (HalfU<T>() + 2e-6) * exact + std::ldexp(1.0, -25))
          << "row " << r << " column " << j;
    }
    // The last fractal's masked columns: SoftMax's float dst (any dst on the 950) not written,
    // else src's values.
    const auto& keep = !reg && (sizeof(T) == 2 || flash) ? x : init;
    for (uint32_t j = validK; j < c.k; ++j) {
      ASSERT_EQ(D(y[At(c.m, r, j)]), D(keep[At(c.m, r, j)])) << "row " << r << " col " << j;
    }
  }
}

const NzCase kCases[] = {{1, 16, 1, 16}, {3, 16, 3, 7},      {5, 48, 5, 41},
                         {7, 64, 7, 64}, {9, 80, 9, 75},     {16, 32, 16, 17},
                         {8, 96, 6, 90}, {17, 144, 17, 130}, {4, 208, 4, 200}};

TEST(SoftMaxNzApi, FloatAndHalfMatchTheOracleOnBothArchs) {
  uint32_t seed = 40;
  for (const char* soc : {k910B, k950}) {
    for (const NzCase& c : kCases) {
      RunNz<float, float>(c, soc, seed++);
      RunNz<half, half>(c, soc, seed++);
      RunNz<half, float>(c, soc, seed++);
    }
  }
}

TEST(SoftMaxNzApi, ReducesEveryFractalButTheLastInFull) {
  // oriSrcK 20 of srcK 64: the source masks the last fractal to 20 % 16 = 4 columns and reduces
  // the three others in full (52 columns), as RunNz's oracle does.
  RunNz<float, float>({4, 64, 4, 20}, k910B, 90);
}

// SimpleSoftMax NZ: every column of the oriM rows (the tiling is re-made: its srcM is stale),
// column c reading lane (c % 16) % lanes of the row's statistics (each lane its own value; on
// dav-3510 float statistics lane (c % 16) / 2).
template <typename T, typename U>
void RunSimpleNz(const NzCase& c, const char* soc, uint32_t seed) {
  SCOPED_TRACE(std::string(soc) + " simple m " + std::to_string(c.m) + " k " + std::to_string(c.k) +
               " oriM " + std::to_string(c.oriM));
  constexpr uint32_t lanes = 32 / sizeof(U);
  const auto x = RandomValues<T>(seed, c.m * c.k);
  const auto init = RandomValues<T>(seed + 1, c.m * c.k);
  auto inMax = RandomValues<U>(seed + 2, c.m * lanes);
  auto inSum = RandomValues<U>(seed + 3, c.m * lanes);
  for (U& v : inSum) v = U(std::fabs(static_cast<float>(v)) + 1.0f);
  std::vector<T> y;
  OnBlock(
      [&](Ub& ub) {
        ub.Put(0, x);
        ub.Put(1, init);
        auto st = ub.Get<U>(2);
        std::copy(inSum.begin(), inSum.end(), st.HostPtr());
        std::copy(inMax.begin(), inMax.end(), st.HostPtr() + 2048);
        SoftMaxTiling t = NzTiling(c, sizeof(U));
        t.srcM = c.m + kNz;  // stale: SimpleSoftMax re-tiles to the oriM rows
        AscendC::SimpleSoftMax<T, false, false, true>(ub.Get<T>(1), st[0], st[2048], ub.Get<T>(0),
                                                      ub.Get<uint8_t>(3), t,
                                                      {c.m, c.k, c.oriM, c.oriK});
        y = ub.Take<T>(1);
      },
      soc);
  for (uint32_t r = 0; r < c.m; ++r) {
    for (uint32_t j = 0; j < c.k; ++j) {
      const double got = D(y[At(c.m, r, j)]);
      if (r >= c.oriM) {
        ASSERT_EQ(got, D(init[At(c.m, r, j)])) << "row " << r << " not written";
        continue;
      }
      // dav-3510 (SimpleSoftMaxGenericNZImpl) Interleave-s float statistics with themselves:
      // column j of a fractal reads lane (j % 16) / 2 there.
      const bool pairs = lanes == 8 && std::string(soc) == k950;
      const uint32_t l = r * lanes + (pairs ? (j % kNz) / 2 : (j % kNz) % lanes);
      const double exact = std::exp(D(x[At(c.m, r, j)]) - D(inMax[l])) / D(inSum[l]);
      EXPECT_LE(std::fabs(got - exact), (HalfU<T>() + 2e-6) * exact + std::ldexp(1.0, -25))
          << "row " << r << " column " << j;
    }
  }
}

TEST(SimpleSoftMaxNzApi, FloatAndHalfMatchTheOracleOnBothArchs) {
  uint32_t seed = 140;
  for (const char* soc : {k910B, k950}) {
    for (const NzCase& c : kCases) {
      RunSimpleNz<float, float>(c, soc, seed++);
      RunSimpleNz<half, half>(c, soc, seed++);
      RunSimpleNz<half, float>(c, soc, seed++);
    }
  }
}

TEST(AdjustSoftMaxResNzApi, SetsTheMarkedRowsInEveryFractal) {
  const uint32_t m = 5, k = 48;
  const auto res = RandomValues<float>(3, m * k);
  std::vector<float> max(m * 8, 1.0f);
  max[0] = max[3 * 8] = -INFINITY;
  max[1 * 8 + 2] = -INFINITY;  // not lane 0: row 1 is kept
  std::vector<float> got;
  bool any = false;
  OnBlock([&](Ub& ub) {
    ub.Put(0, res);
    ub.Put(1, max);
    // stepSizeMode 1 has no effect in NZ: the max of row r stays at r * 8.
    any = AscendC::AdjustSoftMaxRes<float, float, true, 1>(ub.Get<float>(0), ub.Get<float>(1),
                                                           0xFF800000u, 0.0f, {m, k, m, k});
    got = ub.Take<float>(0);
  });
  EXPECT_TRUE(any);
  for (uint32_t r = 0; r < m; ++r) {
    for (uint32_t j = 0; j < k; ++j) {
      const float want = (r == 0 || r == 3) ? 0.0f : res[At(m, r, j)];
      ASSERT_EQ(got[At(m, r, j)], want) << "row " << r << " column " << j;
    }
  }
}

// SoftmaxGrad / SoftmaxGradFront NZ against float64 with softmax_api_test.cpp's bound
// (h_T |exact| + 4e-6 (|g| + sum |g y|) |y| + 2^-25; front: h_T |s| + 4e-6 sum |g y|). One split
// of m rows: SoftmaxGrad sums the last fractal's first oriK % 16 columns on the last m % 4 rows
// (and with one fractal), all 16 elsewhere; front always all.
template <typename T>
void RunGradNz(const NzCase& c, bool front, const char* soc, uint32_t seed) {
  SCOPED_TRACE(std::string(soc) + " grad m " + std::to_string(c.m) + " k " + std::to_string(c.k) +
               " oriK " + std::to_string(c.oriK) + " front " + std::to_string(front));
  const auto g = RandomValues<T>(seed, c.m * c.k, -1.0f, 1.0f);
  const auto y = RandomValues<T>(seed + 1, c.m * c.k, 0.0f, 0.05f);
  std::vector<T> out;
  OnBlock(
      [&](Ub& ub) {
        ub.Put(0, g);
        ub.Put(1, y);
        SoftMaxTiling t = NzTiling({c.m, c.k, c.m, c.k}, sizeof(T));
        const AscendC::SoftMaxShapeInfo shape{c.m, c.k, c.m, c.oriK};
        AscendC::SoftmaxGrad<T, false, true>(ub.Get<T>(2), ub.Get<T>(0), ub.Get<T>(1),
                                             ub.Get<uint8_t>(3), t, front, shape);
        out = ub.Take<T>(2);
      },
      soc);
  const uint32_t lenOri = front || c.oriK % kNz == 0 ? kNz : c.oriK % kNz;
  // The 950 (regbase/3510): the first oriK columns summed and written; front for the first
  // 8 * (m / 8) rows.
  const bool reg = std::string(soc) == k950;
  for (uint32_t r = 0; r < c.m && !(reg && front && r >= c.m / 8 * 8); ++r) {
    const uint32_t len = (r >= c.m / 4 * 4 || c.k == kNz) ? lenOri : kNz;
    double s = 0, sabs = 0;
    for (uint32_t j = 0; j < (reg ? c.oriK : c.k - kNz + len); ++j) {
      s += D(g[At(c.m, r, j)]) * D(y[At(c.m, r, j)]);
      sabs += std::fabs(D(g[At(c.m, r, j)]) * D(y[At(c.m, r, j)]));
    }
    if (front) {
      for (uint32_t l = 0; l < 32 / sizeof(T); ++l) {
        EXPECT_LE(std::fabs(D(out[r * 32 / sizeof(T) + l]) - s),
                  HalfU<T>() * std::fabs(s) + 4e-6 * sabs)
            << "row " << r;
      }
      continue;
    }
    for (uint32_t j = 0; j < (reg ? c.oriK : c.k); ++j) {
      const double gy = D(g[At(c.m, r, j)]), yy = D(y[At(c.m, r, j)]);
      const double exact = (gy - s) * yy;
      EXPECT_LE(
          std::fabs(D(out[At(c.m, r, j)]) - exact),
          HalfU<T>() * std::fabs(exact) + 4e-6 * (std::fabs(gy) + sabs) * yy + std::ldexp(1.0, -25))
          << "row " << r << " column " << j;
    }
  }
}

TEST(SoftmaxGradNzApi, GradAndFrontMatchTheOracleOnBothArchs) {
  uint32_t seed = 240;
  for (const char* soc : {k910B, k950}) {
    for (const NzCase& c : kCases) {
      for (bool front : {false, true}) {
        RunGradNz<float>(c, front, soc, seed++);
        RunGradNz<half>(c, front, soc, seed++);
      }
    }
  }
}

TEST(SoftmaxFlashV2NzApi, NoUpdateMatchesTheOracleOnBothArchs) {
  uint32_t seed = 340;
  for (const char* soc : {k910B, k950}) {
    for (const NzCase& c : kCases) {
      RunNz<float, float, true>(c, soc, seed++);
      RunNz<half, half, true>(c, soc, seed++);
      RunNz<half, float, true>(c, soc, seed++);
    }
  }
}

// SoftmaxFlashV2 NZ with update, lane by lane against float64: max_l = max(inMax_l, rowmax)
// (exact), expMax_l = exp(inMax_l - max_l), dst = exp(x - max_((c % 16) % lanes)) on the valid
// columns, expSum_l = expMax_l inExpSum_l + rowsum; bounds (h_T + 2e-6)|exact| (+ 2^-25 for dst).
// On the 950 (SoftmaxFlashV2NZ[WithTail]UpdateVFImpl): exactly the first oriK columns, column c
// of float statistics lane (c % 16) / 2, half expMax with float statistics lane l / 2.
template <typename T, typename U>
void RunFlashNzUpdate(const NzCase& c, const char* soc, uint32_t seed) {
  SCOPED_TRACE(std::string(soc) + " flashv2 update m " + std::to_string(c.m) + " k " +
               std::to_string(c.k) + " oriK " + std::to_string(c.oriK));
  constexpr uint32_t lanes = 32 / sizeof(U), emLanes = 32 / sizeof(T);
  const auto x = RandomValues<T>(seed, c.m * c.k);
  auto inMax = RandomValues<U>(seed + 1, c.m * lanes);
  auto inSum = RandomValues<U>(seed + 2, c.m * lanes);
  for (U& v : inSum) v = U(std::fabs(static_cast<float>(v)) + 1.0f);
  std::vector<T> y, em;
  std::vector<U> st;
  OnBlock(
      [&](Ub& ub) {
        ub.Put(0, x);
        auto s2 = ub.Get<U>(2);
        std::copy(inSum.begin(), inSum.end(), s2.HostPtr() + 1024);
        std::copy(inMax.begin(), inMax.end(), s2.HostPtr() + 3072);
        auto out = ub.Get<T>(1);
        AscendC::SoftmaxFlashV2<T, true, false, false, true>(
            out, s2[0], s2[2048], ub.Get<T>(0), out[8192], s2[1024], s2[3072], ub.Get<uint8_t>(3),
            SoftMaxTiling{}, {c.m, c.k, c.m, c.oriK});
        y = ub.Take<T>(1);
        em = std::vector<T>(y.begin() + 8192, y.begin() + 8192 + c.m * emLanes);
        st = ub.Take<U>(2);
      },
      soc);
  const bool reg = std::string(soc) == k950;
  const uint32_t len = c.oriK % kNz != 0 ? c.oriK % kNz : kNz;
  const uint32_t validK = reg ? c.oriK : c.k - kNz + len;
  const auto lane = [&](uint32_t j) {
    return reg && lanes == 8 ? (j % kNz) / 2 : (j % kNz) % lanes;
  };
  const auto emLane = [&](uint32_t l) {
    return reg && lanes == 8 ? l * lanes / emLanes : l % lanes;
  };
  for (uint32_t r = 0; r < c.m; ++r) {
    double rowMax = -INFINITY;
    for (uint32_t j = 0; j < validK; ++j) rowMax = std::max(rowMax, D(x[At(c.m, r, j)]));
    std::vector<double> mx(lanes), e(lanes);
    for (uint32_t l = 0; l < lanes; ++l) {
      mx[l] = std::max(D(inMax[r * lanes + l]), rowMax);
      e[l] = std::exp(D(inMax[r * lanes + l]) - mx[l]);
      ASSERT_EQ(D(st[2048 + r * lanes + l]), D(U(static_cast<float>(mx[l])))) << "row " << r;
    }
    double rowSum = 0;
    for (uint32_t j = 0; j < validK; ++j) {
      const double exact = std::exp(D(x[At(c.m, r, j)]) - mx[lane(j)]);
      rowSum += exact;
      EXPECT_LE(std::fabs(D(y[At(c.m, r, j)]) - exact),
                (HalfU<T>() + 2e-6) * exact + std::ldexp(1.0, -25))
          << "row " << r << " column " << j;
    }
    for (uint32_t l = 0; l < emLanes; ++l) {
      EXPECT_LE(std::fabs(D(em[r * emLanes + l]) - e[emLane(l)]),
                (HalfU<T>() + 2e-6) * e[emLane(l)])
          << "expMax row " << r;
    }
    for (uint32_t l = 0; l < lanes; ++l) {
      const double exact = e[l] * D(inSum[r * lanes + l]) + rowSum;
      EXPECT_LE(std::fabs(D(st[r * lanes + l]) - exact), (HalfU<U>() + 2e-6) * exact)
          << "expSum row " << r;
    }
  }
}

TEST(SoftmaxFlashV2NzApi, UpdateMatchesTheOracleOnBothArchs) {
  uint32_t seed = 440;
  for (const char* soc : {k910B, k950}) {
    for (const NzCase& c : kCases) {
      // The 950 computes float statistics for 8 * (m / 8) rows only and refuses more rows
      // (SoftmaxFlashV2NzUpdate3510Replay.FloatStatisticsPastTheE2bRowsAreRefused).
      const bool floatStats = std::string(soc) != k950 || c.m % 8 == 0;
      if (floatStats) RunFlashNzUpdate<float, float>(c, soc, seed);
      RunFlashNzUpdate<half, half>(c, soc, seed + 1);
      if (floatStats) RunFlashNzUpdate<half, float>(c, soc, seed + 2);
      seed += 3;
    }
  }
}

// The kernel-side SoftMaxFlashV2TilingFunc, fields worked out by hand from the toolkit's
// formula (softmax_flashv2_base_impl.h), one shape per branch.
void ExpectSplit(const SoftMaxTiling& t, uint32_t m, uint32_t k, uint32_t e, uint32_t split) {
  EXPECT_EQ(t.srcM, m);
  EXPECT_EQ(t.srcK, k);
  EXPECT_EQ(t.srcSize, m * k);
  EXPECT_EQ(t.outMaxM, m);
  EXPECT_EQ(t.outMaxK, e);
  EXPECT_EQ(t.outMaxSize, m * e);
  EXPECT_EQ(t.reduceM, split);
  EXPECT_EQ(t.splitM, split);
  EXPECT_EQ(t.reduceK, e);
  EXPECT_EQ(t.reduceSize, split * e);
  EXPECT_EQ(t.splitK, k);
  EXPECT_EQ(t.splitSize, split * k);
  EXPECT_EQ(t.rangeM, m / split);
  EXPECT_EQ(t.tailM, m % split);
  EXPECT_EQ(t.tailSplitSize, (m % split) * k);
  EXPECT_EQ(t.tailReduceSize, (m % split) * e);
}

TEST(SoftMaxFlashV2TilingFuncKernel, FieldsFollowTheFormula) {
  // half data, float statistics: 2048 floats / (2*8 + 128 + 64) = 9 -> 8.
  constexpr SoftMaxTiling a = AscendC::SoftMaxFlashV2TilingFunc({40, 128, 40, 128}, 2, 4, 8192);
  static_assert(a.reduceM == 8, "usable in constant expressions");
  ExpectSplit(a, 40, 128, 8, 8);
  // float: 512 / (8 + 64) = 7 (not above 8: kept).
  ExpectSplit(AscendC::SoftMaxFlashV2TilingFunc({30, 72, 30, 72}, 4, 4, 2048), 30, 72, 8, 7);
  // NZ, half statistics: 4096 / (16 * 3 + 64) = 36 -> 32.
  ExpectSplit(AscendC::SoftMaxFlashV2TilingFunc({50, 64, 50, 64}, 2, 2, 16384, true, false, true),
              50, 64, 16, 32);
  // basic block: 10240 / 72 = 142 -> 64, halved while rows * 512 >= 16384: 16.
  ExpectSplit(AscendC::SoftMaxFlashV2TilingFunc({64, 512, 64, 512}, 4, 4, 40960, false, true), 64,
              512, 8, 16);
  // half data with isFlashOutputBrc: 5760 / 144 = 40 -> 32 (tiles of 16); without: 40.
  ExpectSplit(
      AscendC::SoftMaxFlashV2TilingFunc({64, 64, 64, 64}, 2, 4, 23040, true, false, false, true),
      64, 64, 8, 32);
  ExpectSplit(AscendC::SoftMaxFlashV2TilingFunc({64, 64, 64, 64}, 2, 4, 23040, true), 64, 64, 8,
              40);
  // isFlashOutputBrc with splits of 7 float rows: refused in checked mode.
  ExpectCheck(
      [](Ub&) {
        AscendC::SoftMaxFlashV2TilingFunc({30, 72, 30, 72}, 4, 4, 2048, true, false, false, true);
      },
      "tmp_buffer", "multiple of 8");
}

TEST(SoftMaxNzApi, CheckedModeRefusals) {
  const NzCase c{4, 32, 4, 32};
  auto run = [&](uint32_t k, uint32_t tmpBytes) {
    return [=](Ub& ub) {
      auto st = ub.Get<float>(2);
      auto tmp = ub.Get<uint8_t>(3);
      tmp.SetSize(tmpBytes);
      AscendC::SoftMax<float, false, false, true>(ub.Get<float>(1), st[0], st[1024],
                                                  ub.Get<float>(0), tmp, NzTiling(c, 4),
                                                  {c.m, k, c.m, k});
    };
  };
  ExpectCheck(run(32, (kNz + 32) * 4), "", "");
  ExpectCheck(run(32, (kNz + 32) * 4 - 4), "tmp_buffer", "sharedTmpBuffer");
  ExpectCheck(run(24, 4096), "invalid_count", "multiple of 16");
}

}  // namespace

// A split of 2048 rows or more (a multiple of 8) on 2201 and 2002: BroadCastNZImpl's uint8_t
// repeat (rows / 8) wraps, so the device's rows from 2040 on subtract and divide by the
// reduction's leftovers. Checked mode refuses the kernel's tiling before anything else is read or
// written (softmax_device_defect; here with operands smaller than the split: the refusal comes
// first); 2040 rows (255 groups) and a 2048-row split that is not the kernel's get the other
// checks. Full splits and tail splits alike.
TEST(SoftMaxNzApi, SplitsWhoseBroadcastWrapsAreRefusedInCheckedMode) {
  const auto run = [](uint32_t rows, uint32_t splitM, uint32_t tailM) {
    return [=](Ub& ub) {
      const NzCase c{rows, kNz, rows, kNz};
      SoftMaxTiling t = NzTiling(c, 2);
      t.reduceM = t.splitM = splitM;
      t.splitSize = splitM * kNz;
      t.reduceSize = splitM * 16;
      t.rangeM = rows / splitM;
      t.tailM = tailM;
      auto st = ub.Get<half>(2);
      AscendC::SoftMax<half, false, false, true>(ub.Get<half>(1), st[0], st[1024], ub.Get<half>(0),
                                                 ub.Get<uint8_t>(3), t, {rows, kNz, rows, kNz});
    };
  };
  for (const char* soc : {"Ascend910B1", "Ascend310P1"}) {
    SCOPED_TRACE(soc);
    ExpectCheck(run(2048, 2048, 0), "softmax_device_defect", "BroadCastNZImpl", soc);
    ExpectCheck(run(4096, 4096, 0), "softmax_device_defect", "fewer than 2048 rows", soc);
    ExpectCheck(run(2048, 4096, 2048), "softmax_device_defect", "uint8_t repeat", soc);
    ExpectCheck(run(2040, 2040, 0), "tensor_bounds", "", soc);
  }
}
