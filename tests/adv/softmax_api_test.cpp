// The SoftMax family through the Ascend C API on the simulated device (910B = arch 2201 and the
// 950 = arch 3510), against float64 oracles with stated bounds, the checked-mode refusals and the
// host tiling pinned field by field against the toolkit's formulas.
//
// Bounds (u = 2^-24 float, h = 2^-11 half unit roundoff; inputs in [-4, 4], so |x - max| <= 8):
//  - SoftMax / SimpleSoftMax / SoftmaxFlashV2 outputs: |got - exact| <= (h_T + 2e-6) |exact| +
//    2^-25 (h_float = 0): x - max, Exp (amplified by |x - max| <= 8: 8u), the tree sum
//    (log2(K) + 1 levels of u), Div, each one rounding; 2e-6 > 34u covers them.
//  - sums: 2e-6 relative (+ h for half statistics); maxima exact.
//  - LogSoftMax: |got - exact| <= 2e-6 + (h_T + 2u) |exact| (Ln of a value with 2e-6 relative
//    error, times log10(e) rounded).
//  - SoftmaxGrad: |got - exact| <= h_T |exact| + 4e-6 (|g| + sum |g y|) |y| + 2^-25.
//  - SoftmaxFlashV3 (half data): (h + 8e-6) |exact| + 2^-25 against its documented formula.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "../aicore/repeat_test_util.h"
#include "softmax_test_util.h"
#include "kernel_operator.h"
#include "lngrad/product.h"
#include "tiling/tiling_api.h"
#include "../aicore/sanitizer_off.h"

namespace {

using lngrad::aicore::test::CheckOf;
using namespace softmax_test;  // NOLINT(build/namespaces)

constexpr double kU = 1.0 / (1 << 24);

struct Case {
  uint32_t m, k, oriK;
};

// Exact softmax statistics of row r over its first oriK values.
template <typename T>
void RowOracle(const std::vector<T>& x, const Case& c, uint32_t r, double* mx, double* sum) {
  *mx = -INFINITY;
  for (uint32_t j = 0; j < c.oriK; ++j) *mx = std::max(*mx, D(x[r * c.k + j]));
  *sum = 0;
  for (uint32_t j = 0; j < c.oriK; ++j) *sum += std::exp(D(x[r * c.k + j]) - *mx);
}

void ExpectWithin(double got, double exact, double rel, double abs, const std::string& what) {
  EXPECT_LE(std::fabs(got - exact), rel * std::fabs(exact) + abs)
      << what << ": got " << got << ", exact " << exact;
}

SoftMaxTiling TilingFor(const Case& c, uint32_t ts) {
  SoftMaxTiling t;
  const ge::Shape shape({c.m, c.k});
  AscendC::SoftMaxTilingFunc(shape, ts, AscendC::GetSoftMaxMaxTmpSize(shape, ts, false), t);
  return t;
}

// SoftMax with sum/max on buffer 0 (src and dst, in place as the kit's sample), statistics on
// buffer 2 (sum at 0, max at 4096 elements), scratch buffer 3; basic selects isBasicBlock. redK:
// the columns the oracle reduces and checks (0: oriK).
template <typename T, typename U, bool basic>
void RunSoftMax(const Case& c, const char* soc, uint32_t seed, uint32_t redK = 0) {
  const auto x = RandomValues<T>(seed, c.m * c.k);
  std::vector<T> y;
  std::vector<U> sum, max;
  OnBlock(
      [&](Ub& ub) {
        ub.Put(0, x);
        auto src = ub.Get<T>(0);
        auto stats = ub.Get<U>(2);
        auto sumT = stats[0], maxT = stats[4096];
        const AscendC::SoftMaxShapeInfo shape{c.m, c.k, c.m, c.oriK};
        if constexpr (std::is_same_v<T, U>) {
          AscendC::SoftMax<T, false, basic>(src, sumT, maxT, src, ub.Get<uint8_t>(3),
                                            TilingFor(c, sizeof(T)), shape);
        } else {
          // dataTypeSize is the statistics' type size (the tiling page): 4 for float sum/max.
          AscendC::SoftMax<T, false, basic>(src, sumT, maxT, src, TilingFor(c, sizeof(U)), shape);
        }
        y = ub.Take<T>(0);
        sum = ub.Take<U>(2);
        max = std::vector<U>(sum.begin() + 4096, sum.end());
      },
      soc);
  constexpr uint32_t lanes = 32 / sizeof(U);
  const Case red{c.m, c.k, redK != 0 ? redK : c.oriK};
  for (uint32_t r = 0; r < c.m; ++r) {
    double mx, s;
    RowOracle(x, red, r, &mx, &s);
    for (uint32_t l = 0; l < lanes; ++l) {
      ASSERT_EQ(D(max[r * lanes + l]), D(U(static_cast<float>(mx)))) << "row " << r;
      ExpectWithin(D(sum[r * lanes + l]), s, HalfU<U>() + 2e-6, 0, "sum");
    }
    for (uint32_t j = 0; j < red.oriK; ++j) {
      ExpectWithin(D(y[r * c.k + j]), std::exp(D(x[r * c.k + j]) - mx) / s, HalfU<T>() + 2e-6,
                   std::ldexp(1.0, -25), "softmax row " + std::to_string(r));
    }
  }
}

const Case kCases[] = {{3, 48, 48}, {5, 72, 72},     {4, 200, 200}, {2, 600, 600},
                       {3, 96, 90}, {1, 1040, 1040}, {9, 16, 16}};

TEST(SoftMaxApi, FloatAndHalfMatchTheOracleOnBothArchs) {
  uint32_t seed = 1;
  for (const char* soc : {k910B, k950}) {
    for (const Case& c : kCases) {
      SCOPED_TRACE(std::string(soc) + " m " + std::to_string(c.m) + " k " + std::to_string(c.k));
      RunSoftMax<float, float, false>(c, soc, seed++);
      if (c.k % 16 == 0) RunSoftMax<half, half, false>(c, soc, seed++);
      if (c.k % 16 == 0) RunSoftMax<half, float, false>(c, soc, seed++);
    }
  }
}

TEST(SoftMaxApi, BasicBlockPathMatchesTheOracle) {
  RunSoftMax<float, float, true>({8, 128, 128}, k910B, 7);
  RunSoftMax<float, float, true>({16, 640, 640}, k910B, 8);
  RunSoftMax<half, half, true>({8, 256, 256}, k910B, 9);
}

// isBasicBlock with oriSrcK not a multiple of 64 on the 950: the register code reduces and writes
// ceil(oriSrcK / 64) * 64 columns (the padding included), so the oracle takes those columns.
TEST(SoftMaxApi, BasicBlockOn3510TakesWholeRegisters) {
  RunSoftMax<float, float, true>({8, 128, 100}, k950, 10, 128);
  RunSoftMax<float, float, true>({4, 256, 130}, k950, 11, 192);
  RunSoftMax<half, half, true>({8, 192, 130}, k950, 12, 192);
  RunSoftMax<half, float, true>({4, 64, 10}, k950, 13, 64);
}

TEST(SoftMaxApi, WithoutStatisticsAndSimpleSoftMaxAgreeWithSoftMax) {
  const Case c{4, 200, 200};
  const auto x = RandomValues<float>(21, c.m * c.k);
  std::vector<float> full, bare, simple;
  OnBlock([&](Ub& ub) {
    const AscendC::SoftMaxShapeInfo shape{c.m, c.k, c.m, c.k};
    const auto t = TilingFor(c, 4);
    ub.Put(0, x);
    auto stats = ub.Get<float>(2);
    AscendC::SoftMax<float>(ub.Get<float>(1), stats[0], stats[4096], ub.Get<float>(0),
                            ub.Get<uint8_t>(3), t, shape);
    full = ub.Take<float>(1);
    AscendC::SoftMax<float>(ub.Get<float>(1), ub.Get<float>(0), t, shape);
    bare = ub.Take<float>(1);
    AscendC::SimpleSoftMax<float>(ub.Get<float>(1), stats[0], stats[4096], ub.Get<float>(0), t,
                                  shape);
    simple = ub.Take<float>(1);
  });
  EXPECT_EQ(full, bare);
  EXPECT_EQ(full, simple);
}

TEST(SoftMaxApi, AdjustSoftMaxResRewritesTheMarkedRows) {
  OnBlock([&](Ub& ub) {
    auto res = ub.Get<float>(0);
    auto max = ub.Get<float>(1);
    for (uint32_t i = 0; i < 4 * 16; ++i) res.HostPtr()[i] = 0.5f;
    for (uint32_t i = 0; i < 4 * 8; ++i) max.HostPtr()[i] = (i / 8 == 2) ? -3.4028235e38f : 1.0f;
    const AscendC::SoftMaxShapeInfo shape{4, 16, 4, 16};
    EXPECT_TRUE((AscendC::AdjustSoftMaxRes<float, float>(res, max, 0xFF7FFFFF, 0.0f, shape)));
    for (uint32_t i = 0; i < 64; ++i) EXPECT_EQ(res.HostPtr()[i], i / 16 == 2 ? 0.0f : 0.5f);
    EXPECT_FALSE((AscendC::AdjustSoftMaxRes<float, float>(res, max, 0x3F000000, 0.0f, shape)));
  });
}

// Two halves of each row: no update on the first, update with the second; the final max and
// sum are the whole row's, dst the second half's exp(x - max), expMax exp(max1 - max).
// Statistics of U (sum at 0, max at 1024), expMax of T (buffer 3's second half).
template <typename T, typename U>
void RunFlashV2(const char* soc, uint32_t seed) {
  const Case half{4, 64, 64};
  const auto a = RandomValues<T>(seed, half.m * half.k);
  const auto b = RandomValues<T>(seed + 1, half.m * half.k, -4.0f, 6.0f);
  std::vector<T> y, em;
  std::vector<U> sum, max;
  OnBlock(
      [&](Ub& ub) {
        const AscendC::SoftMaxShapeInfo shape{half.m, half.k, half.m, half.k};
        const auto t = TilingFor(half, sizeof(U));  // dataTypeSize: the statistics' type
        auto st = ub.Get<U>(2);
        auto sumT = st[0], maxT = st[1024];
        auto emT = ub.Get<T>(3)[4096];
        auto tmp = ub.Get<uint8_t>(3);
        tmp.SetSize(4096);
        ub.Put(0, a);
        AscendC::SoftmaxFlashV2<T, false>(ub.Get<T>(1), sumT, maxT, ub.Get<T>(0), emT, sumT, maxT,
                                          tmp, t, shape);
        ub.Put(0, b);
        AscendC::SoftmaxFlashV2<T, true>(ub.Get<T>(1), sumT, maxT, ub.Get<T>(0), emT, sumT, maxT,
                                         tmp, t, shape);
        y = ub.Take<T>(1);
        const auto s = ub.Take<U>(2);
        sum.assign(s.begin(), s.begin() + 1024);
        max.assign(s.begin() + 1024, s.begin() + 2048);
        const auto e = ub.Take<T>(3);
        em.assign(e.begin() + 4096, e.begin() + 4096 + 1024);
      },
      soc);
  constexpr uint32_t lanes = 32 / sizeof(U), elanes = 32 / sizeof(T);
  for (uint32_t r = 0; r < half.m; ++r) {
    double m1 = -INFINITY, m2 = -INFINITY;
    for (uint32_t j = 0; j < half.k; ++j) {
      m1 = std::max(m1, D(a[r * half.k + j]));
      m2 = std::max(m2, D(b[r * half.k + j]));
    }
    const double mx = std::max(m1, m2);
    double s = 0;
    for (uint32_t j = 0; j < half.k; ++j) {
      s += std::exp(D(a[r * half.k + j]) - mx) + std::exp(D(b[r * half.k + j]) - mx);
    }
    EXPECT_EQ(D(max[r * lanes]), mx);
    ExpectWithin(D(sum[r * lanes]), s, 2 * HalfU<U>() + 4e-6, 0, "flash sum");
    for (uint32_t l = 0; l < elanes; ++l) {
      ExpectWithin(D(em[r * elanes + l]), std::exp(m1 - mx), HalfU<T>() + 2e-6, 0, "expMax");
    }
    for (uint32_t j = 0; j < half.k; ++j) {
      ExpectWithin(D(y[r * half.k + j]), std::exp(D(b[r * half.k + j]) - mx), HalfU<T>() + 2e-6,
                   std::ldexp(1.0, -25), "flash dst");
    }
  }
}

TEST(SoftmaxFlashV2Api, UpdateCombinesTwoBlocksOfARow) {
  for (const char* soc : {k910B, k950}) {
    RunFlashV2<float, float>(soc, 31);
    RunFlashV2<half, half>(soc, 33);
    RunFlashV2<half, float>(soc, 35);
  }
}

// The documented SoftmaxFlashV3 formula in double (update, loopCnt 2, 8 segments).
TEST(SoftmaxFlashV3Api, UpdateMatchesTheFormula) {
  const uint32_t m = 2, k = 640, segs = 8;
  const float alpha = 0.9375f;
  const auto x = RandomValues<half>(41, m * k, 0.0f, 10.0f);
  std::vector<half> y;
  OnBlock([&](Ub& ub) {
    ub.Put(0, x);
    auto st = ub.Get<float>(2);
    for (uint32_t i = 0; i < 3 * 1024; ++i) st.HostPtr()[i] = 0.5f;
    const AscendC::SoftMaxParams p{m, k, m, k, 2, segs, alpha};
    SoftMaxTiling t;
    AscendC::SoftMaxFlashV3TilingFunc(ge::Shape({m, k}), 2, 4, 40960, t, true);
    AscendC::SoftmaxFlashV3<half, float, true>(ub.Get<half>(1), st[0], st[1024], st[2048],
                                               ub.Get<half>(0), ub.Get<half>(3), st[0], st[1024],
                                               st[2048], t, p);
    y = ub.Take<half>(1);
  });
  const double sc = static_cast<double>(alpha) / (1 - alpha);
  for (uint32_t r = 0; r < m; ++r) {
    std::vector<double> v(k);
    for (uint32_t j = 0; j < k; ++j) v[j] = D(x[r * k + j]);
    double acc[64] = {};
    for (uint32_t j = 0; j < k; ++j) acc[j < 512 ? j / 8 : j % 64] += v[j];
    double local[8] = {}, g = 0;
    for (uint32_t j = 0; j < 64; ++j) local[j / 8] += acc[j] / (k / segs);
    for (double l : local) g += l / 8;
    for (uint32_t j = 0; j < k; ++j) v[j] -= (g - local[j / (k / segs)]) * sc;
    const double mean = (0.5 + g) / 2;
    double mx = -INFINITY;
    for (double e : v) mx = std::max(mx, e);
    const double cur = mx + (g - mean) * sc, prev = 0.5 + (0.5 - mean) * sc;
    const double shifted = std::max(cur, prev) - (g - mean) * sc;
    for (uint32_t j = 0; j < k; ++j) {
      ExpectWithin(D(y[r * k + j]), std::exp(v[j] - shifted), 1.0 / 2048 + 8e-6,
                   std::ldexp(1.0, -25), "flashv3");
    }
  }
}

template <typename T>
void RunGrad(bool front, const char* soc, uint32_t seed) {
  const Case c{3, 208, 208};
  const auto g = RandomValues<T>(seed, c.m * c.k, -1.0f, 1.0f);
  const auto y = RandomValues<T>(seed + 1, c.m * c.k, 0.0f, 0.05f);
  std::vector<T> out;
  OnBlock(
      [&](Ub& ub) {
        ub.Put(0, g);
        ub.Put(1, y);
        SoftMaxTiling t;
        AscendC::SoftMaxGradTilingFunc(ge::Shape({c.m, c.k}), sizeof(T), 40960, t, front);
        const AscendC::SoftMaxShapeInfo shape{c.m, c.k, c.m, c.k};
        if (front) {
          AscendC::SoftmaxGradFront<T>(ub.Get<T>(2), ub.Get<T>(0), ub.Get<T>(1), ub.Get<uint8_t>(3),
                                       t, shape);
        } else {
          AscendC::SoftmaxGrad<T>(ub.Get<T>(2), ub.Get<T>(0), ub.Get<T>(1), t, false, shape);
        }
        out = ub.Take<T>(2);
      },
      soc);
  for (uint32_t r = 0; r < c.m; ++r) {
    double s = 0, sabs = 0;
    for (uint32_t j = 0; j < c.k; ++j) {
      s += D(g[r * c.k + j]) * D(y[r * c.k + j]);
      sabs += std::fabs(D(g[r * c.k + j]) * D(y[r * c.k + j]));
    }
    if (front) {
      for (uint32_t l = 0; l < 32 / sizeof(T); ++l) {
        ExpectWithin(D(out[r * 32 / sizeof(T) + l]), s, HalfU<T>(), 4e-6 * sabs, "grad front");
      }
      continue;
    }
    for (uint32_t j = 0; j < c.k; ++j) {
      const double gy = D(g[r * c.k + j]), yy = D(y[r * c.k + j]);
      ExpectWithin(D(out[r * c.k + j]), (gy - s) * yy, HalfU<T>(),
                   4e-6 * (std::fabs(gy) + sabs) * yy + std::ldexp(1.0, -25), "grad");
    }
  }
}

// Statistics whose lanes differ: on 2201 column c reads lane c % 8 of its row
// (GenericSub/DivNDImpl block strides), on 3510 lane 0 (regbase/3510/simple_softmax_impl.h
// broadcasts element 0 with Reg::Duplicate). Each column equals SimpleSoftMax with that lane's
// value in every lane (tests/replay compares the 2201 path with its replay bit for bit).
TEST(SimpleSoftMaxApi, ColumnsReadTheArchsLaneOfTheStatistics) {
  const uint32_t m = 2, k = 24;
  const auto x = RandomValues<float>(61, m * k);
  std::vector<float> mx(m * 8), sm(m * 8);
  for (uint32_t i = 0; i < m * 8; ++i) {
    mx[i] = 0.25f * static_cast<float>(i % 8) - 1.0f;
    sm[i] = 2.0f + static_cast<float>(i);
  }
  for (const char* soc : {k910B, k950}) {
    const bool lane0 = std::string(soc) == k950;
    OnBlock(
        [&](Ub& ub) {
          ub.Put(0, x);
          auto st = ub.Get<float>(2);
          const SoftMaxTiling t = TilingFor({m, k, k}, 4);
          for (uint32_t lane = 0; lane < 8; ++lane) {
            for (uint32_t i = 0; i < m * 8; ++i) {
              st.HostPtr()[i] = mx[i];
              st.HostPtr()[1024 + i] = sm[i];
              st.HostPtr()[2048 + i] = mx[i - i % 8 + lane];
              st.HostPtr()[3072 + i] = sm[i - i % 8 + lane];
            }
            AscendC::SimpleSoftMax<float>(ub.Get<float>(1), st[1024], st[0], ub.Get<float>(0), t,
                                          {m, k, m, k});
            AscendC::SimpleSoftMax<float>(ub.Get<float>(3), st[3072], st[2048], ub.Get<float>(0), t,
                                          {m, k, m, k});
            for (uint32_t c = 0; c < m * k; ++c) {
              if ((lane0 ? 0 : c % k % 8) != lane) continue;
              EXPECT_EQ(ub.Get<float>(1).HostPtr()[c], ub.Get<float>(3).HostPtr()[c])
                  << soc << " column " << c % k;
            }
          }
        },
        soc);
  }
}

TEST(SoftmaxGradApi, GradAndFrontMatchTheOracle) {
  for (const char* soc : {k910B, k950}) {
    for (bool front : {false, true}) {
      RunGrad<float>(front, soc, 51);
      RunGrad<half>(front, soc, 53);
    }
  }
}

template <typename T>
void RunLog(const char* soc, uint32_t seed) {
  const Case c{3, 144, 144};
  const auto x = RandomValues<T>(seed, c.m * c.k);
  std::vector<T> y;
  OnBlock(
      [&](Ub& ub) {
        ub.Put(0, x);
        auto st = ub.Get<T>(2);
        LogSoftMaxTiling t;
        AscendC::LogSoftMax<T>(ub.Get<T>(1), st[0], st[1024], ub.Get<T>(0), ub.Get<uint8_t>(3), t,
                               {c.m, c.k, c.m, c.k});
        y = ub.Take<T>(1);
      },
      soc);
  for (uint32_t r = 0; r < c.m; ++r) {
    double mx, s;
    RowOracle(x, c, r, &mx, &s);
    for (uint32_t j = 0; j < c.k; ++j) {
      ExpectWithin(D(y[r * c.k + j]), std::log10(std::exp(D(x[r * c.k + j]) - mx) / s),
                   HalfU<T>() + 2 * kU, 2e-6, "logsoftmax");
    }
  }
}

TEST(LogSoftMaxApi, MatchesTheOracleOnBothArchs) {
  for (const char* soc : {k910B, k950}) {
    RunLog<float>(soc, 61);
    RunLog<half>(soc, 63);
  }
}

TEST(SoftMaxApi, CheckedModeRefusals) {
  lngrad::aicore::SetCheckedMode(true);
  const Case c{4, 64, 64};
  const auto t = TilingFor(c, 4);
  // (8 + 64 + 64) * 4 = 544 bytes needed; 512 given.
  auto r = CheckOf([&](Ub& ub) {
    auto st = ub.Get<float>(2);
    AscendC::SoftMax<float>(ub.Get<float>(0), st[0], st[1024], ub.Get<float>(0),
                            ub.Get<uint8_t>(3)[0].template ReinterpretCast<uint8_t>(), t,
                            {c.m, c.k, c.m, c.k});
  });
  EXPECT_EQ(r.first, "");
  r = CheckOf([&](Ub& ub) {
    auto tmp = ub.Get<uint8_t>(3);
    tmp.SetSize(512);
    AscendC::SoftMax<float>(ub.Get<float>(0), ub.Get<float>(1), tmp, t, {c.m, c.k, c.m, c.k});
  });
  EXPECT_EQ(r.first, "tmp_buffer") << r.second;
  r = CheckOf([&](Ub& ub) {
    AscendC::SoftMax<float>(ub.Get<float>(0), ub.Get<float>(1), t, {c.m, 60, c.m, 60});
  });
  EXPECT_EQ(r.first, "invalid_count") << r.second;
  r = CheckOf([&](Ub& ub) {
    auto small = ub.Get<float>(1);
    small.SetSize(100);
    AscendC::SoftMax<float>(ub.Get<float>(0), small, t, {c.m, c.k, c.m, c.k});
  });
  EXPECT_NE(r.first, "") << "a destination smaller than m * k is refused";
  // isBasicBlock with srcK not a multiple of 64: the toolkit's basic-block code strides rows
  // by 64 * (srcK / 64) columns, so lngrad refuses it rather than pick another order.
  for (const uint32_t k : {72u, 128u}) {
    const auto tk = TilingFor({8, k, k}, 4);
    r = CheckOf([&](Ub& ub) {
      auto st = ub.Get<float>(2);
      AscendC::SoftmaxFlashV2<float, false, false, true>(ub.Get<float>(1), st[0], st[1024],
                                                         ub.Get<float>(0), st[2048], st[0],
                                                         st[1024], tk, {8, k, 8, k});
    });
    EXPECT_EQ(r.first, k == 72 ? "invalid_count" : "") << r.second;
    r = CheckOf([&](Ub& ub) {
      auto st = ub.Get<float>(2);
      AscendC::SoftMax<float, false, true>(ub.Get<float>(1), st[0], st[1024], ub.Get<float>(0), tk,
                                           {8, k, 8, k});
    });
    EXPECT_EQ(r.first, k == 72 ? "invalid_count" : "") << r.second;
  }
}

// SoftmaxFlashV3: splitMeanCnt is 8 only (the toolkit's page and kernel check), on both archs.
TEST(SoftmaxFlashV3Api, CheckedModeRefusesSplitMeanCntOtherThan8) {
  const bool was = lngrad::aicore::CheckedMode();
  lngrad::aicore::SetCheckedMode(true);
  for (const char* soc : {k910B, k950}) {
    for (const uint32_t cnt : {8u, 4u, 1u, 16u}) {
      const auto r = CheckOf(
          [&](Ub& ub) {
            auto st = ub.Get<float>(2);
            const AscendC::SoftMaxParams p{8, 512, 8, 512, 1, cnt, 0.9375f};
            SoftMaxTiling t;
            AscendC::SoftMaxFlashV3TilingFunc(ge::Shape({8, 512}), 2, 4, 40960, t, false);
            AscendC::SoftmaxFlashV3<half, float, false>(ub.Get<half>(1), st[0], st[1024], st[2048],
                                                        ub.Get<half>(0), ub.Get<half>(3), st[0],
                                                        st[1024], st[2048], t, p);
          },
          soc);
      EXPECT_EQ(r.first, cnt == 8 ? "" : "invalid_count") << soc << " " << cnt << r.second;
      if (cnt != 8) {
        EXPECT_NE(r.second.find("splitMeanCnt"), std::string::npos) << r.second;
      }
    }
  }
  lngrad::aicore::SetCheckedMode(was);
}

// SoftmaxFlashV3 on arch 2002: the page lists Atlas inference products as not supported and
// membase/v200/softmax_flashv3_impl.h asserts: checked mode refuses it (product); unchecked, dst,
// the statistics and expMax (after dst in buffer 1) keep what they held.
TEST(SoftmaxFlashV3Api, Arch2002IsNotSupported) {
  const AscendC::SoftMaxParams p{8, 512, 8, 512, 2, 8, 0.9375f};
  SoftMaxTiling t;
  AscendC::SoftMaxFlashV3TilingFunc(ge::Shape({8, 512}), 2, 4, 40000, t, true);
  const auto call = [&](Ub& ub) {
    auto st = ub.Get<float>(2);
    auto tmp = ub.Get<uint8_t>(3);
    tmp.SetSize(40000);
    AscendC::SoftmaxFlashV3<half, float, true>(ub.Get<half>(1), st[0], st[1024], st[2048],
                                               ub.Get<half>(0), ub.Get<half>(1)[8192], st[3072],
                                               st[4096], st[5120], tmp, t, p);
  };
  const bool was = lngrad::aicore::CheckedMode();
  lngrad::aicore::SetCheckedMode(true);
  const auto r = CheckOf(call, "Ascend310P1");
  EXPECT_EQ(r.first, "product") << r.second;
  EXPECT_EQ(CheckOf(call, k910B).first, "") << "2201 runs it";
  lngrad::aicore::SetCheckedMode(false);
  OnBlock(
      [&](Ub& ub) {
        ub.Put(0, std::vector<float>(), 1.5f);
        ub.Put(1, std::vector<float>(), -2.5f);
        ub.Put(2, std::vector<float>(), 3.25f);
        call(ub);
        for (const float v : ub.Take<float>(1)) ASSERT_EQ(v, -2.5f);
        const std::vector<float> st = ub.Take<float>(2);
        for (size_t i = 0; i < 6144; ++i) ASSERT_EQ(st[i], 3.25f) << i;
      },
      "Ascend310P1");
  lngrad::aicore::SetCheckedMode(was);
}

// SoftmaxFlashV3 without update on 2201 copies each split's mean by one Normal-mode Copy of mask
// reduceSize: checked mode refuses a split of more than 8 rows (a mask above 64, the kit's
// CheckMaskValue), the tail split's tailReduceSize too; with update, or splits of at most 8 rows,
// it runs; unchecked it follows the device (replay.SoftmaxFlashV3ScratchReplay).
TEST(SoftmaxFlashV3Api, CheckedModeRefusesAMeanCopyMaskAbove64) {
  const auto run = [](uint32_t m, uint32_t splitM, bool update) {
    const AscendC::SoftMaxParams p{m, 512, m, 512, 2, 8, 0.9375f};
    SoftMaxTiling t;
    AscendC::SoftMaxFlashV3TilingFunc(ge::Shape({m, 512}), 2, 4, 40960, t, update);
    t.splitM = t.reduceM = splitM;
    t.splitSize = splitM * 512;
    t.reduceSize = splitM * 8;
    t.rangeM = m / splitM;
    t.tailM = m % splitM;
    t.tailSplitSize = t.tailM * 512;
    t.tailReduceSize = t.tailM * 8;
    return CheckOf(
        [&](Ub& ub) {
          auto st = ub.Get<float>(2);
          auto tmp = ub.Get<uint8_t>(3);
          tmp.SetSize(40960);
          if (update) {
            AscendC::SoftmaxFlashV3<half, float, true>(ub.Get<half>(1), st[0], st[1024], st[2048],
                                                       ub.Get<half>(0), ub.Get<half>(1)[16384],
                                                       st[3072], st[4096], st[5120], tmp, t, p);
          } else {
            AscendC::SoftmaxFlashV3<half, float, false>(ub.Get<half>(1), st[0], st[1024], st[2048],
                                                        ub.Get<half>(0), ub.Get<half>(1)[16384],
                                                        st[3072], st[4096], st[5120], tmp, t, p);
          }
        },
        k910B);
  };
  const bool was = lngrad::aicore::CheckedMode();
  lngrad::aicore::SetCheckedMode(true);
  auto r = run(9, 9, false);
  EXPECT_EQ(r.first, "vector_mask") << r.second;
  EXPECT_NE(r.second.find("reduceSize = 72"), std::string::npos) << r.second;
  r = run(24, 8, false);
  EXPECT_EQ(r.first, "") << r.second;
  r = run(25, 8, false);  // the tail split of one row: mask 8
  EXPECT_EQ(r.first, "") << r.second;
  r = run(30, 16, false);  // a full split of 16 rows
  EXPECT_EQ(r.first, "vector_mask") << r.second;
  r = run(16, 9, false);  // the full split's mask 72
  EXPECT_EQ(r.first, "vector_mask") << r.second;
  r = run(9, 9, true);
  EXPECT_EQ(r.first, "") << "the update path copies no mean: " << r.second;
  lngrad::aicore::SetCheckedMode(false);
  EXPECT_EQ(run(9, 9, false).first, "") << "unchecked follows the device";
  lngrad::aicore::SetCheckedMode(was);
}

// SoftmaxFlashV3: the kernel check's other asserts (softmax_flashv3_check_common.h on 2201,
// _aicore.h on 3510): params.srcM == oriSrcM, srcK == oriSrcK, srcK >= 512 and a multiple of 64,
// loopCnt >= 1 with isUpdate; on 3510 also srcM a multiple of 8.
TEST(SoftmaxFlashV3Api, CheckedModeRefusesWhatTheKernelCheckAsserts) {
  struct Case {
    AscendC::SoftMaxParams p;
    bool update;
    const char* needle;  // nullptr: accepted on both archs; "srcM (4)": refused on 3510 only
  };
  const Case cases[] = {
      {{8, 512, 8, 512, 1, 8, 0.9375f}, true, nullptr},
      {{8, 512, 4, 512, 1, 8, 0.9375f}, false, "oriSrcM"},
      {{8, 576, 8, 512, 1, 8, 0.9375f}, false, "oriSrcM"},
      {{8, 528, 8, 528, 1, 8, 0.9375f}, false, "multiple of 64"},
      {{8, 448, 8, 448, 1, 8, 0.9375f}, false, "multiple of 64"},
      {{8, 512, 8, 512, 0, 8, 0.9375f}, true, "loopCnt"},
      {{8, 512, 8, 512, 0, 8, 0.9375f}, false, nullptr},
      {{4, 512, 4, 512, 1, 8, 0.9375f}, false, "srcM (4)"},
  };
  const bool was = lngrad::aicore::CheckedMode();
  lngrad::aicore::SetCheckedMode(true);
  for (const char* soc : {k910B, k950}) {
    for (const Case& c : cases) {
      const auto r = CheckOf(
          [&](Ub& ub) {
            auto st = ub.Get<float>(2);
            SoftMaxTiling t;
            AscendC::SoftMaxFlashV3TilingFunc(ge::Shape({c.p.srcM, c.p.srcK}), 2, 4, 40960, t,
                                              c.update);
            if (c.update) {
              AscendC::SoftmaxFlashV3<half, float, true>(ub.Get<half>(1), st[0], st[1024], st[2048],
                                                         ub.Get<half>(0), ub.Get<half>(3), st[0],
                                                         st[1024], st[2048], t, c.p);
            } else {
              AscendC::SoftmaxFlashV3<half, float, false>(
                  ub.Get<half>(1), st[0], st[1024], st[2048], ub.Get<half>(0), ub.Get<half>(3),
                  st[0], st[1024], st[2048], t, c.p);
            }
          },
          soc);
      const bool refused =
          c.needle != nullptr && (std::string(c.needle) != "srcM (4)" || std::string(soc) == k950);
      EXPECT_EQ(r.first, refused ? "invalid_count" : "") << soc << " " << r.second;
      if (refused) {
        EXPECT_NE(r.second.find(c.needle), std::string::npos) << r.second;
      }
    }
  }
  lngrad::aicore::SetCheckedMode(was);
}

// Runs call(ub, tiling, k) in checked mode for srcK 72 and 128 on both archs: srcK = 72 (not a
// multiple of 64) is refused as invalid_count where `refuses(soc)`, 128 nowhere.
template <class Call, class Refuses>
void ExpectBasicBlockSrcKRefusals(const Call& call, const Refuses& refuses) {
  const bool was = lngrad::aicore::CheckedMode();
  lngrad::aicore::SetCheckedMode(true);
  for (const char* soc : {k910B, k950}) {
    for (const uint32_t k : {72u, 128u}) {
      const auto t = TilingFor({8, k, k}, 4);
      const auto r = CheckOf([&](Ub& ub) { call(ub, t, k); }, soc);
      const bool refused = k == 72 && refuses(std::string(soc));
      EXPECT_EQ(r.first, refused ? "invalid_count" : "") << soc << " " << k << r.second;
    }
  }
  lngrad::aicore::SetCheckedMode(was);
}

// SimpleSoftMax with isBasicBlock: srcK a multiple of 64 (the 2201/2002 kernel check asserts it;
// 3510's whole registers would mix rows), on both archs.
TEST(SimpleSoftMaxApi, CheckedModeRefusesBasicBlockWithSrcKNotAMultipleOf64) {
  ExpectBasicBlockSrcKRefusals(
      [](Ub& ub, const auto& t, uint32_t k) {
        auto st = ub.Get<float>(2);
        AscendC::SimpleSoftMax<float, false, true>(ub.Get<float>(1), st[0], st[1024],
                                                   ub.Get<float>(0), t, {8, k, 8, k});
      },
      [](const std::string&) { return true; });
}

// SoftMax without statistics and isBasicBlock: 3510 takes its basic-block path (whole registers
// from each row's start, past srcK into the next row when srcK is not a multiple of 64), so checked
// mode refuses srcK = 72 there; the 910B's SingleSoftMaxImpl ignores isBasicBlock.
TEST(SoftMaxApi, CheckedModeRefusesBasicBlockWithoutStatisticsOn3510) {
  ExpectBasicBlockSrcKRefusals(
      [](Ub& ub, const auto& t, uint32_t k) {
        AscendC::SoftMax<float, false, true>(ub.Get<float>(1), ub.Get<float>(0), t, {8, k, 8, k});
      },
      [](const std::string& soc) { return soc == k950; });
}

// ---- host tiling, pinned against the toolkit's formulas ----

class SocScope {
 public:
  explicit SocScope(const char* soc) : saved_(lngrad::CurrentProduct().soc) {
    EXPECT_TRUE(lngrad::SetCurrentSoc(soc).ok());
  }
  ~SocScope() { EXPECT_TRUE(lngrad::SetCurrentSoc(saved_).ok()); }

 private:
  std::string saved_;
};

#define LNGRAD_EXPECT_FIELDS(t, ...)                                                       \
  do {                                                                                     \
    const uint32_t want[] = {__VA_ARGS__};                                                 \
    const uint32_t got[] = {t.srcM,      t.srcK,       t.srcSize,       t.outMaxM,         \
                            t.outMaxK,   t.outMaxSize, t.splitM,        t.splitK,          \
                            t.splitSize, t.reduceM,    t.reduceK,       t.reduceSize,      \
                            t.rangeM,    t.tailM,      t.tailSplitSize, t.tailReduceSize}; \
    for (int i = 0; i < 16; ++i) EXPECT_EQ(got[i], want[i]) << "field " << i;              \
  } while (0)

TEST(SoftMaxTiling, TmpSizesPerArch) {
  const ge::Shape s({16, 128});
  {
    SocScope soc(k910B);
    EXPECT_EQ(AscendC::GetSoftMaxMinTmpSize(s, 4, false), (8u + 128 + 64) * 4);
    EXPECT_EQ(AscendC::GetSoftMaxMaxTmpSize(s, 4, false), 16u * (8 + 128 + 64) * 4);
    EXPECT_EQ(AscendC::GetSoftMaxMinTmpSize(s, 2, false), (16u + 128 + 64) * 4);
    EXPECT_EQ(AscendC::GetLogSoftMaxMinTmpSize(ge::Shape({128, 128}), 4, false), 800u);
    EXPECT_EQ(AscendC::GetSoftMaxGradMinTmpSize(ge::Shape({8, 960}), 4, false, false),
              (16u + 960 + 64) * 4);
    EXPECT_EQ(AscendC::GetSoftMaxGradMinTmpSize(ge::Shape({8, 960}), 4, true, false),
              (8u + 960 + 64) * 4);
    EXPECT_EQ(AscendC::GetSoftMaxGradMinTmpSize(ge::Shape({8, 960}), 2, false, false),
              (32u + 3 * 960 + 64) * 4);
    EXPECT_EQ(AscendC::GetSoftMaxFlashV2MinTmpSize(ge::Shape({8, 512}), 4, 4, true, true), 2304u);
    EXPECT_EQ(AscendC::GetSoftMaxFlashV2MinTmpSize(ge::Shape({8, 100 * 8}), 4, 4, true, false),
              (8u + 64) * 4);
    uint32_t mx = 0, mn = 0;
    AscendC::GetSoftMaxFlashV3MaxMinTmpSize(ge::Shape({8, 2048}), 2, 4, mx, mn, true);
    EXPECT_EQ(mn, (8u * 5 + 2 * 2048 + 64) * 4);
    EXPECT_EQ(mx, 8 * mn);
  }
  {
    SocScope soc(k950);
    // max(16 * (8 + 128) + 64 * 4 + ceil8(16), 16 * (8 + 128)) floats.
    EXPECT_EQ(AscendC::GetSoftMaxMinTmpSize(s, 4, false), (16u * 136 + 256 + 16) * 4);
    EXPECT_EQ(AscendC::GetSoftMaxMaxTmpSize(s, 4, false), 16u * 200 * 4);
    EXPECT_EQ(AscendC::GetSoftMaxGradMinTmpSize(ge::Shape({8, 960}), 4, true, false), 64u * 4);
    EXPECT_EQ(AscendC::GetSoftMaxGradMinTmpSize(ge::Shape({8, 960}), 4, false, false), 128u * 4);
  }
}

TEST(SoftMaxTiling, TilingFuncFieldByField) {
  SocScope soc(k910B);
  SoftMaxTiling t;
  AscendC::SoftMaxTilingFunc(ge::Shape({16, 128}), 4, 800 * 4, t);
  LNGRAD_EXPECT_FIELDS(t, 16, 128, 2048, 16, 8, 128, 4, 128, 512, 4, 8, 32, 4, 0, 0, 0);
  // Basic-block shape: rows halved while rows * K >= 64 * 256.
  AscendC::SoftMaxTilingFunc(ge::Shape({128, 256}), 4, 128 * (8 + 256 + 64) * 4, t);
  LNGRAD_EXPECT_FIELDS(t, 128, 256, 32768, 128, 8, 1024, 32, 256, 8192, 32, 8, 256, 4, 0, 0, 0);
  // Half, 3 rows per split and a tail row.
  AscendC::SoftMaxTilingFunc(ge::Shape({10, 48}), 2, 3 * 128 * 4, t);
  LNGRAD_EXPECT_FIELDS(t, 10, 48, 480, 10, 16, 160, 3, 48, 144, 3, 16, 48, 3, 1, 48, 16);
  AscendC::SoftMaxFlashV2TilingFunc(ge::Shape({8, 512}), 4, 4, 2304, t, true, true);
  LNGRAD_EXPECT_FIELDS(t, 8, 512, 4096, 8, 8, 64, 8, 512, 4096, 8, 8, 64, 1, 0, 0, 0);
  AscendC::SoftMaxGradTilingFunc(ge::Shape({20, 64}), 4, (16 + 64 + 64) * 4 * 12, t, false);
  LNGRAD_EXPECT_FIELDS(t, 20, 64, 1280, 20, 8, 160, 8, 64, 512, 8, 8, 64, 2, 4, 256, 32);
  optiling::SoftMaxTiling op;
  AscendC::SoftMaxTilingFunc(ge::Shape({16, 128}), 4, 800 * 4, op);
  EXPECT_EQ(op.get_splitM(), 4u);
  EXPECT_TRUE(AscendC::IsBasicBlockInSoftMax(op, 4));
  LogSoftMaxTiling lt;
  AscendC::LogSoftMaxTilingFunc(ge::Shape({16, 128}), 4, 800 * 4, lt);
  EXPECT_EQ(lt.splitM, 4u);
  EXPECT_EQ(lt.rangeM, 4u);
}

TEST(SoftMaxTiling, BadInputsAreReported) {
  SocScope soc(k910B);
  EXPECT_EQ(AscendC::GetSoftMaxMinTmpSize(ge::Shape({4, 64}), 3, false), 0u);
  EXPECT_FALSE(lngrad::tiling::LastTilingStatus().ok());
  EXPECT_EQ(AscendC::GetSoftMaxMinTmpSize(ge::Shape({4, 7}), 4, false), 0u);
  EXPECT_FALSE(lngrad::tiling::LastTilingStatus().ok());
  SoftMaxTiling t;
  t.srcM = 77;
  AscendC::SoftMaxFlashV3TilingFunc(ge::Shape({8, 2048}), 4, 4, 100000, t, true);
  EXPECT_EQ(t.srcM, 77u);
  EXPECT_EQ(AscendC::GetSoftMaxMinTmpSize(ge::Shape({4, 64}), 4, false), 544u);
  EXPECT_TRUE(lngrad::tiling::LastTilingStatus().ok());
}

}  // namespace
