// The high-level reduce APIs (lib/reduce/reduce.h, sum.h) against a replay of the vendor's 2201
// sequences written here (reduce_common_util_v220_impl.h, reduce_sum_v220_impl.h,
// reduce_prod_v220_impl.h, sum_common_impl.h) and a float64 oracle with a stated bound, on
// Ascend910B1 and the 950; the checked-mode refusals; the host scratch sizes pinned against the
// toolkit's formulas.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "math_api_test_util.h"
#include "tiling/tiling_api.h"
#include "../aicore/checked_mode_scope.h"
#include "../aicore/sanitizer_off.h"

namespace {

using namespace AscendC;
using namespace lngrad::adv::testing;
using lngrad::aicore::test::CheckedModeScope;

// ---- The replay: the device's operations in order, each rounded to T ----

template <typename T>
T Add(T a, T b) {
  return T(static_cast<float>(a) + static_cast<float>(b));
}

// The adjacent-pair tree of the basic BlockReduceSum / WholeReduceSum over `lanes` (missing
// lanes +0).
template <typename T>
T Tree(std::vector<T> v, size_t lanes) {
  v.resize(lanes, T(0));
  for (size_t w = lanes; w > 1; w /= 2) {
    for (size_t j = 0; j < w / 2; ++j) v[j] = Add(v[2 * j], v[2 * j + 1]);
  }
  return v[0];
}

uint32_t Pow2Floor(uint32_t n) {
  uint32_t k = 1;
  while (2 * k <= n) k *= 2;
  return k;
}

// ReduceSum AR, one row (float): BlkReduceForLoop / WholeReduceSum / ReduceSumInLargeLast.
float SumRowReplay(const float* x, uint32_t n) {
  if (n <= 8) return Tree(std::vector<float>(x, x + n), 8);
  if (n <= 64) return Tree(std::vector<float>(x, x + n), 64);
  const uint32_t split = Pow2Floor(n);
  uint32_t per = split > 8 ? split : 8;
  if (n == split) per >>= 1;
  std::vector<float> t(x, x + per);
  for (uint32_t j = 0; per + j < n; ++j) t[j] = t[j] + x[per + j];
  while (per > 64) {
    for (uint32_t i = 0; i < per / 2; ++i) t[i] = t[2 * i] + t[2 * i + 1];
    per >>= 1;
  }
  std::vector<float> blocks;
  for (uint32_t b = 0; b < 8; ++b) {
    blocks.push_back(Tree(std::vector<float>(t.begin() + 8 * b, t.begin() + 8 * b + 8), 8));
  }
  return Tree(blocks, 8);
}

// BinaryReduceByFirstAxis on column values col[0..first) with op.
template <typename T, typename Op>
T FirstAxisReplay(std::vector<T> col, Op op) {
  const uint32_t first = static_cast<uint32_t>(col.size());
  uint32_t k = Pow2Floor(first);
  for (uint32_t r = 0; r < first - k; ++r) col[r] = op(col[r], col[k + r]);
  while (k > 1) {
    k >>= 1;
    for (uint32_t r = 0; r < k; ++r) col[r] = op(col[r], col[r + k]);
  }
  return col[0];
}

// ---- The runs ----

struct Case {
  uint32_t first, last;
  bool dense = false;  // rows unpadded: the 950 reads row r at r * last whatever srcInnerPad says
};

template <typename T>
uint32_t Pad(uint32_t last) {
  const uint32_t blk = 32 / sizeof(T);
  return (last + blk - 1) / blk * blk;
}

// The row stride of the source.
template <typename T>
uint32_t Stride(Case c) {
  return c.dense ? c.last : Pad<T>(c.last);
}

template <typename T>
std::vector<T> Data(uint32_t seed, Case c, float lo, float hi) {
  std::vector<T> v(size_t{c.first} * Stride<T>(c), T(0));
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> d(lo, hi);
  for (uint32_t r = 0; r < c.first; ++r) {
    for (uint32_t j = 0; j < c.last; ++j) v[size_t{r} * Stride<T>(c) + j] = T(d(gen));
  }
  return v;
}

enum class Api { kSum, kMean, kMax, kMin, kProd, kAny, kAll };

template <typename T, class P, bool reuse>
void Call(Api api, Ub& ub, Case c, bool with_tmp) {
  LocalTensor<T> dst = ub.Get<T>(0), src = ub.Get<T>(1);
  LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(2);
  const uint32_t shape[2] = {c.first, c.last};
#define LNGRAD_CALL(NAME)                          \
  if (with_tmp) {                                  \
    NAME<T, P, reuse>(dst, src, tmp, shape, true); \
  } else {                                         \
    NAME<T, P, reuse>(dst, src, shape, true);      \
  }
  switch (api) {
    case Api::kSum:
      LNGRAD_CALL(ReduceSum) break;
    case Api::kMean:
      LNGRAD_CALL(ReduceMean) break;
    case Api::kMax:
      LNGRAD_CALL(ReduceMax) break;
    case Api::kMin:
      LNGRAD_CALL(ReduceMin) break;
    case Api::kProd:
      LNGRAD_CALL(ReduceProd) break;
    case Api::kAny:
      LNGRAD_CALL(ReduceAny) break;
    case Api::kAll:
      LNGRAD_CALL(ReduceAll) break;
  }
#undef LNGRAD_CALL
}

// Runs the API on `in` and returns dst's first `count` values.
template <typename T, class P, bool reuse>
std::vector<T> RunReduce(Api api, const std::vector<T>& in, Case c, bool with_tmp,
                         const char* soc) {
  std::vector<T> out;
  OnBlock(
      [&](Ub& ub) {
        ub.Put<T>(1, in);
        Call<T, P, reuse>(api, ub, c, with_tmp);
        out = ub.Take<T>(0);
      },
      soc);
  out.resize(std::is_same_v<P, Pattern::Reduce::AR> ? c.first : c.last);
  return out;
}

template <typename T>
T At(const std::vector<T>& v, Case c, uint32_t r, uint32_t j) {
  return v[size_t{r} * Stride<T>(c) + j];
}

const Case kCases[] = {{3, 5},   {4, 8},   {5, 45}, {7, 64},  {6, 100},
                       {9, 128}, {2, 333}, {1, 70}, {17, 24}, {33, 9}};

// Max and Min: exact (the oracle's max/min), AR and RA, both overloads, half and float.
template <typename T>
void CheckMaxMin(const char* soc) {
  uint32_t seed = 1;
  for (Case c : kCases) {
    c.dense = std::string(soc) == k950;
    const std::vector<T> in = Data<T>(seed++, c, -50.0f, 50.0f);
    for (bool tmp : {true, false}) {
      const auto ar_max = RunReduce<T, Pattern::Reduce::AR, false>(Api::kMax, in, c, tmp, soc);
      const auto ra_min = RunReduce<T, Pattern::Reduce::RA, true>(Api::kMin, in, c, tmp, soc);
      for (uint32_t r = 0; r < c.first; ++r) {
        double m = -INFINITY;
        for (uint32_t j = 0; j < c.last; ++j) m = std::max(m, D(At(in, c, r, j)));
        ASSERT_EQ(D(ar_max[r]), m)
            << soc << " AR max row " << r << " of " << c.first << "x" << c.last;
      }
      for (uint32_t j = 0; j < c.last; ++j) {
        double m = INFINITY;
        for (uint32_t r = 0; r < c.first; ++r) m = std::min(m, D(At(in, c, r, j)));
        ASSERT_EQ(D(ra_min[j]), m) << soc << " RA min column " << j;
      }
    }
  }
}

TEST(ReduceApi, MaxMinExactOnEveryShape) {
  CheckMaxMin<float>(k910B);
  CheckMaxMin<half>(k910B);
  CheckMaxMin<float>(k950);
}

// Sum and Mean (float): bit-exact against the replay, and within n * 2^-24 * sum|x| of the
// float64 sum (each of the at most n additions rounds once).
TEST(ReduceApi, SumMeanFollowTheDeviceTreeAndTheOracle) {
  uint32_t seed = 100;
  for (const Case c : kCases) {
    const std::vector<float> in = Data<float>(seed++, c, -10.0f, 10.0f);
    const auto ar = RunReduce<float, Pattern::Reduce::AR, false>(Api::kSum, in, c, true, k910B);
    const auto ar_reuse =
        RunReduce<float, Pattern::Reduce::AR, true>(Api::kSum, in, c, false, k910B);
    const auto mean = RunReduce<float, Pattern::Reduce::AR, false>(Api::kMean, in, c, true, k910B);
    for (uint32_t r = 0; r < c.first; ++r) {
      const float* row = in.data() + size_t{r} * Pad<float>(c.last);
      const float want = SumRowReplay(row, c.last);
      ASSERT_EQ(Bits(ar[r]), Bits(want)) << c.first << "x" << c.last << " row " << r;
      ASSERT_EQ(Bits(ar_reuse[r]), Bits(want));
      ASSERT_EQ(Bits(mean[r]), Bits(want * (1.0f / static_cast<float>(c.last))));
      double exact = 0, mag = 0;
      for (uint32_t j = 0; j < c.last; ++j) exact += row[j], mag += std::fabs(row[j]);
      EXPECT_LE(std::fabs(ar[r] - exact), c.last * std::ldexp(mag, -24));
    }
    const auto ra = RunReduce<float, Pattern::Reduce::RA, false>(Api::kSum, in, c, true, k910B);
    const auto ra_mean =
        RunReduce<float, Pattern::Reduce::RA, true>(Api::kMean, in, c, true, k910B);
    for (uint32_t j = 0; j < c.last; ++j) {
      std::vector<float> col;
      for (uint32_t r = 0; r < c.first; ++r) col.push_back(At(in, c, r, j));
      const float want = FirstAxisReplay(col, [](float a, float b) { return a + b; });
      ASSERT_EQ(Bits(ra[j]), Bits(want)) << "RA column " << j;
      ASSERT_EQ(Bits(ra_mean[j]), Bits(want * (1.0f / static_cast<float>(c.first))));
    }
  }
}

// The 950's orders (reduce_3510.h; bits against the replay in tests/replay/
// reduce_3510_replay_test.cpp) keep the float64 bounds: sum within n * 2^-24 * sum|x|, mean that
// over n plus one rounding, product within n * 2^-24 relative; AR and RA, both overloads. The
// rows are unpadded (srcInnerPad true: the 950 reads row r at r * last); ReduceMean/Prod rows
// not of whole blocks, which checked mode refuses there, run unchecked.
TEST(ReduceApi, SumMeanProdOnThe950KeepTheOracleBounds) {
  uint32_t seed = 900;
  for (Case c : kCases) {
    c.dense = true;
    CheckedModeScope checked(c.last % 8 == 0);
    const std::vector<float> in = Data<float>(seed++, c, -10.0f, 10.0f);
    const std::vector<float> pin = Data<float>(seed++, c, 0.5f, 1.5f);
    const auto sum = RunReduce<float, Pattern::Reduce::AR, false>(Api::kSum, in, c, true, k950);
    const auto mean = RunReduce<float, Pattern::Reduce::AR, true>(Api::kMean, in, c, false, k950);
    const auto prod = RunReduce<float, Pattern::Reduce::AR, false>(Api::kProd, pin, c, false, k950);
    for (uint32_t r = 0; r < c.first; ++r) {
      double exact = 0, mag = 0, p = 1;
      for (uint32_t j = 0; j < c.last; ++j) {
        exact += At(in, c, r, j), mag += std::fabs(At(in, c, r, j)), p *= At(pin, c, r, j);
      }
      const double bound = c.last * std::ldexp(mag, -24);
      EXPECT_LE(std::fabs(sum[r] - exact), bound) << c.first << "x" << c.last << " row " << r;
      EXPECT_LE(std::fabs(mean[r] - exact / c.last), (bound + std::ldexp(mag, -24)) / c.last);
      EXPECT_LE(std::fabs(prod[r] - p), c.last * std::ldexp(std::fabs(p), -24));
    }
    const auto ra = RunReduce<float, Pattern::Reduce::RA, true>(Api::kSum, in, c, true, k950);
    const auto ra_prod =
        RunReduce<float, Pattern::Reduce::RA, false>(Api::kProd, pin, c, true, k950);
    for (uint32_t j = 0; j < c.last; ++j) {
      double exact = 0, mag = 0, p = 1;
      for (uint32_t r = 0; r < c.first; ++r) {
        exact += At(in, c, r, j), mag += std::fabs(At(in, c, r, j)), p *= At(pin, c, r, j);
      }
      EXPECT_LE(std::fabs(ra[j] - exact), c.first * std::ldexp(mag, -24)) << "RA column " << j;
      EXPECT_LE(std::fabs(ra_prod[j] - p), c.first * std::ldexp(std::fabs(p), -24));
    }
  }
}

// Half ReduceMean RA: the fold in half, then Muls by half(1/first).
TEST(ReduceApi, HalfMeanRaRoundsEachStepToHalf) {
  const Case c{11, 40};
  const std::vector<half> in = Data<half>(7, c, -4.0f, 4.0f);
  const auto got = RunReduce<half, Pattern::Reduce::RA, false>(Api::kMean, in, c, true, k910B);
  for (uint32_t j = 0; j < c.last; ++j) {
    std::vector<half> col;
    for (uint32_t r = 0; r < c.first; ++r) col.push_back(At(in, c, r, j));
    const half s = FirstAxisReplay(col, [](half a, half b) { return Add(a, b); });
    const half want = half(static_cast<float>(s) * static_cast<float>(half(1.0f / 11.0f)));
    ASSERT_EQ(Bits(got[j]), Bits(want));
  }
}

// Prod (float): the fold of every row / column, exact against the replay and within
// n * 2^-24 relative of the float64 product.
TEST(ReduceApi, ProdFoldsRowsAndColumns) {
  uint32_t seed = 300;
  for (const Case c : kCases) {
    const std::vector<float> in = Data<float>(seed++, c, 0.5f, 1.5f);
    const auto ar = RunReduce<float, Pattern::Reduce::AR, false>(Api::kProd, in, c, true, k910B);
    const auto ra = RunReduce<float, Pattern::Reduce::RA, false>(Api::kProd, in, c, true, k910B);
    auto mul = [](float a, float b) { return a * b; };
    for (uint32_t r = 0; r < c.first; ++r) {
      const float* row = in.data() + size_t{r} * Pad<float>(c.last);
      ASSERT_EQ(Bits(ar[r]), Bits(FirstAxisReplay(std::vector<float>(row, row + c.last), mul)));
      double p = 1;
      for (uint32_t j = 0; j < c.last; ++j) p *= row[j];
      EXPECT_LE(std::fabs(ar[r] - p), c.last * std::ldexp(std::fabs(p), -24));
    }
    for (uint32_t j = 0; j < c.last; ++j) {
      std::vector<float> col;
      for (uint32_t r = 0; r < c.first; ++r) col.push_back(At(in, c, r, j));
      ASSERT_EQ(Bits(ra[j]), Bits(FirstAxisReplay(col, mul)));
    }
  }
}

// Any/All: float 0/1 (max/min), uint8 AR (max/min of the bytes) and RA (bitwise or/and).
TEST(ReduceApi, AnyAllOnFloatAndBytes) {
  const Case c{6, 50};
  std::vector<float> f(size_t{c.first} * Pad<float>(c.last), 0.0f);
  std::vector<uint8_t> b(size_t{c.first} * Pad<uint8_t>(c.last), 0);
  std::mt19937 gen(9);
  for (uint32_t r = 0; r < c.first; ++r) {
    for (uint32_t j = 0; j < c.last; ++j) {
      f[size_t{r} * Pad<float>(c.last) + j] = static_cast<float>(gen() % 4 == 0);
      b[size_t{r} * Pad<uint8_t>(c.last) + j] = static_cast<uint8_t>(gen() % 7);
    }
  }
  const auto any = RunReduce<float, Pattern::Reduce::AR, false>(Api::kAny, f, c, true, k910B);
  const auto all = RunReduce<float, Pattern::Reduce::RA, false>(Api::kAll, f, c, true, k910B);
  const auto bany = RunReduce<uint8_t, Pattern::Reduce::RA, false>(Api::kAny, b, c, true, k910B);
  const auto ball = RunReduce<uint8_t, Pattern::Reduce::AR, false>(Api::kAll, b, c, true, k910B);
  for (uint32_t r = 0; r < c.first; ++r) {
    float a = 0;
    uint8_t lo = 255;
    for (uint32_t j = 0; j < c.last; ++j) {
      a = std::max(a, At(f, c, r, j));
      lo = std::min(lo, At(b, c, r, j));
    }
    EXPECT_EQ(any[r], a);
    EXPECT_EQ(ball[r], lo);
  }
  for (uint32_t j = 0; j < c.last; ++j) {
    float m = 1;
    uint8_t o = 0;
    for (uint32_t r = 0; r < c.first; ++r) {
      m = std::min(m, At(f, c, r, j));
      o = static_cast<uint8_t>(o | At(b, c, r, j));
    }
    EXPECT_EQ(all[j], m);
    EXPECT_EQ(bany[j], o);
  }
}

// isReuseSource: the RA fold leaves its partial rows in src (row 0 holds the result).
TEST(ReduceApi, ReuseSourceLeavesTheFoldInSrc) {
  const Case c{5, 16};
  const std::vector<float> in = Data<float>(3, c, -1.0f, 1.0f);
  std::vector<float> src_after, dst;
  OnBlock([&](Ub& ub) {
    ub.Put<float>(1, in);
    const uint32_t shape[2] = {c.first, c.last};
    ReduceSum<float, Pattern::Reduce::RA, true>(ub.Get<float>(0), ub.Get<float>(1), shape, true);
    src_after = ub.Take<float>(1);
    dst = ub.Take<float>(0);
  });
  for (uint32_t j = 0; j < c.last; ++j) EXPECT_EQ(Bits(src_after[j]), Bits(dst[j]));
}

// Sum (SumParams): the repeat sums level by level, bit-exact; half and float.
template <typename T>
void CheckSum(uint32_t outter, uint32_t n) {
  const uint32_t inner = Pad<T>(n), lanes = 256 / sizeof(T);
  std::vector<T> in(size_t{outter} * inner, T(0));
  std::mt19937 gen(n);
  std::uniform_real_distribution<float> d(-3.0f, 3.0f);
  for (auto& v : in) v = T(d(gen));
  std::vector<T> out;
  OnBlock([&](Ub& ub) {
    ub.Put<T>(1, in);
    SumParams p{outter, inner, n};
    Sum(ub.Get<T>(0), ub.Get<T>(1), ub.Get<uint8_t>(2), p);
    out = ub.Take<T>(0);
  });
  for (uint32_t r = 0; r < outter; ++r) {
    std::vector<T> level(in.begin() + size_t{r} * inner, in.begin() + size_t{r} * inner + n);
    while (true) {
      std::vector<T> next;
      for (size_t i = 0; i < level.size(); i += lanes) {
        next.push_back(Tree(
            std::vector<T>(level.begin() + i, level.begin() + std::min(level.size(), i + lanes)),
            lanes));
      }
      level = next;
      if (level.size() == 1) break;
    }
    ASSERT_EQ(Bits(out[r]), Bits(level[0])) << "row " << r << " n " << n;
  }
}

TEST(ReduceApi, SumAddsRepeatByRepeat) {
  for (uint32_t n : {1u, 7u, 32u, 64u, 65u, 200u, 1000u, 3000u}) CheckSum<float>(3, n);
  for (uint32_t n : {1u, 16u, 127u, 128u, 129u, 1000u, 4100u, 9000u}) CheckSum<half>(2, n);
}

// Two rows of `inner` floats uniform in [-2, 2].
std::vector<float> TwoRows(uint32_t inner, uint32_t seed) {
  std::vector<float> in(2 * inner);
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> d(-2.0f, 2.0f);
  for (auto& v : in) v = d(gen);
  return in;
}

// Mean: Sum's trees, then Muls by T(1/n); half accumulated in float rounds once at the end.
TEST(ReduceApi, MeanScalesTheRowSum) {
  const uint32_t n = 300, inner = 304;
  const std::vector<float> in = TwoRows(inner, 5);
  std::vector<half> hin(in.begin(), in.end());
  std::vector<float> f, s;
  std::vector<half> h;
  OnBlock([&](Ub& ub) {
    ub.Put<float>(1, in);
    MeanParams mp{2, inner, n};
    Mean(ub.Get<float>(0), ub.Get<float>(1), ub.Get<uint8_t>(2), mp);
    f = ub.Take<float>(0);
    SumParams sp{2, inner, n};
    Sum(ub.Get<float>(0), ub.Get<float>(1), ub.Get<uint8_t>(2), sp);
    s = ub.Take<float>(0);
    ub.Put<half>(1, hin);
    Mean<half, float>(ub.Get<half>(0), ub.Get<half>(1), mp);
    h = ub.Take<half>(0);
  });
  for (uint32_t r = 0; r < 2; ++r) {
    EXPECT_EQ(Bits(f[r]), Bits(s[r] * (1.0f / 300.0f)));
    double exact = 0;
    for (uint32_t j = 0; j < n; ++j) exact += static_cast<float>(hin[r * inner + j]);
    EXPECT_NEAR(static_cast<float>(h[r]), exact / n, std::fabs(exact / n) * 1e-3 + 1e-4);
  }
}

// Sum and Mean on the 950 (register trees per repeat): within n * 2^-24 * sum|x| of the float64
// sum (float), plus half an ulp of the result for half.
TEST(ReduceApi, SumMeanOnThe950KeepTheOracleBounds) {
  const uint32_t n = 1000, inner = 1008;
  const std::vector<float> in = TwoRows(inner, 9);
  const std::vector<half> hin(in.begin(), in.end());
  std::vector<float> f, m;
  std::vector<half> h, hm;
  OnBlock(
      [&](Ub& ub) {
        ub.Put<float>(1, in);
        Sum(ub.Get<float>(0), ub.Get<float>(1), ub.Get<uint8_t>(2), SumParams{2, inner, n});
        f = ub.Take<float>(0);
        Mean(ub.Get<float>(0), ub.Get<float>(1), MeanParams{2, inner, n});
        m = ub.Take<float>(0);
        ub.Put<half>(1, hin);
        Sum(ub.Get<half>(0), ub.Get<half>(1), SumParams{2, inner, n});
        h = ub.Take<half>(0);
        Mean<half, float>(ub.Get<half>(0), ub.Get<half>(1), MeanParams{2, inner, n});
        hm = ub.Take<half>(0);
      },
      k950);
  for (uint32_t r = 0; r < 2; ++r) {
    double exact = 0, mag = 0, hexact = 0, hmag = 0;
    for (uint32_t j = 0; j < n; ++j) {
      exact += in[r * inner + j], mag += std::fabs(in[r * inner + j]);
      hexact += static_cast<float>(hin[r * inner + j]);
      hmag += std::fabs(static_cast<float>(hin[r * inner + j]));
    }
    EXPECT_LE(std::fabs(f[r] - exact), n * std::ldexp(mag, -24));
    EXPECT_LE(std::fabs(m[r] - exact / n), (n + 1) * std::ldexp(mag, -24) / n);
    EXPECT_LE(std::fabs(static_cast<float>(h[r]) - hexact), n * std::ldexp(hmag, -11));
    EXPECT_NEAR(static_cast<float>(hm[r]), hexact / n, std::fabs(hexact / n) * 1e-3 + 1e-4);
  }
}

// ReduceXorSum: the int16 xors summed exactly (the sum fits int16_t) and rounded back.
TEST(ReduceApi, XorSumAddsTheXors) {
  const uint32_t n = 1000;
  std::vector<int16_t> a(n), b(n);
  std::mt19937 gen(8);
  int64_t want = 0;
  for (uint32_t i = 0; i < n; ++i) {
    a[i] = static_cast<int16_t>(gen() % 30);
    b[i] = static_cast<int16_t>(gen() % 30);
    want += a[i] ^ b[i];
  }
  int16_t got = 0, got_reuse = 0;
  OnBlock([&](Ub& ub) {
    ub.Put<int16_t>(0, a);
    ub.Put<int16_t>(1, b);
    LocalTensor<int16_t> dst = ub.Get<int16_t>(3);
    LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(2);
    ReduceXorSum<int16_t>(dst, ub.Get<int16_t>(0), ub.Get<int16_t>(1), tmp, n);
    got = ub.Take<int16_t>(3)[0];
    ReduceXorSum<int16_t, true>(dst, ub.Get<int16_t>(0), ub.Get<int16_t>(1), tmp, n);
    got_reuse = ub.Take<int16_t>(3)[0];
  });
  EXPECT_EQ(got, static_cast<int16_t>(want));
  EXPECT_EQ(got_reuse, static_cast<int16_t>(want));
}

// ---- Checked mode ----

TEST(ReduceApi, CheckedModeRefusals) {
  const uint32_t ra[2] = {9, 40};
  ExpectCheck(
      [&](Ub& ub) {
        LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(2);
        tmp.SetSize(32 * 8 * 4 - 32);  // k(9) = 8 rows of 40 floats (160 bytes) = 1280 needed
        ReduceSum<float, Pattern::Reduce::RA>(ub.Get<float>(0), ub.Get<float>(1), tmp, ra, true);
      },
      "tmp_buffer", "1280");
  ExpectCheck(
      [&](Ub& ub) {
        ReduceMax<float, Pattern::Reduce::AR>(ub.Get<float>(0), ub.Get<float>(1),
                                              ub.Get<uint8_t>(2), ra, false);
      },
      "reduce_shape", "srcInnerPad");
  ExpectCheck(
      [&](Ub& ub) {
        ReduceSum<half, Pattern::Reduce::AR>(ub.Get<half>(0), ub.Get<half>(1), ub.Get<uint8_t>(2),
                                             ra, true);
      },
      "product", "data type");
  ExpectCheck(
      [&](Ub& ub) {
        const uint32_t zero[2] = {0, 8};
        ReduceMin<float, Pattern::Reduce::AR>(ub.Get<float>(0), ub.Get<float>(1), zero, true);
      },
      "reduce_shape", "zero");
  // The 950: ReduceMean/Prod/Any/All rows must be whole 32-byte blocks (the kit's 3510 checks;
  // ReduceSum/Max/Min take any length), and ReduceMean takes float only.
  const uint32_t odd[2] = {3, 5}, bytes[2] = {2, 16};
  for (Api api : {Api::kMean, Api::kProd, Api::kAny, Api::kAll}) {
    ExpectCheck(
        [&](Ub& ub) {
          Call<float, Pattern::Reduce::AR, false>(api, ub, Case{odd[0], odd[1]}, true);
        },
        "reduce_shape", "multiple of 32", k950);
    ExpectCheck(
        [&](Ub& ub) {
          Call<float, Pattern::Reduce::RA, true>(api, ub, Case{odd[0], odd[1]}, false);
        },
        "reduce_shape", "multiple of 32", k950);
  }
  ExpectCheck(
      [&](Ub& ub) {
        ReduceAny<uint8_t, Pattern::Reduce::AR>(ub.Get<uint8_t>(0), ub.Get<uint8_t>(1),
                                                ub.Get<uint8_t>(2), bytes, true);
      },
      "reduce_shape", "multiple of 32", k950);
  ExpectCheck(
      [&](Ub& ub) {
        ReduceMean<half, Pattern::Reduce::AR>(ub.Get<half>(0), ub.Get<half>(1), ub.Get<uint8_t>(2),
                                              ra, true);
      },
      "product", "data type", k950);
  for (Api api : {Api::kSum, Api::kMax, Api::kMin}) {
    ExpectCheck(
        [&](Ub& ub) {
          Call<float, Pattern::Reduce::AR, false>(api, ub, Case{odd[0], odd[1]}, true);
        },
        "", "", k950);
  }
  ExpectCheck(
      [&](Ub& ub) {
        SumParams p{2, 12, 12};  // 48 bytes: not a multiple of 32
        Sum(ub.Get<float>(0), ub.Get<float>(1), ub.Get<uint8_t>(2), p);
      },
      "reduce_shape", "inner");
  ExpectCheck(
      [&](Ub& ub) {
        SumParams p{2, 4096, 4096};  // 64 repeats: 64 floats of scratch (256 bytes)
        LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(2);
        tmp.SetSize(224);
        Sum(ub.Get<float>(0), ub.Get<float>(1), tmp, p);
      },
      "tmp_buffer", "256");
}

// ---- AR shapes the device's 2201 sequences compute wrongly (reduce_ar_defects.h) ----

struct DefectOutcome {
  std::string check, msg;
  bool kept = false;         // src and dst kept every byte
  std::vector<uint8_t> dst;  // dst's bytes after the call
};

uint32_t Align32(uint64_t bytes) { return static_cast<uint32_t>((bytes + 31) / 32 * 32); }

// Runs `api` (Sum, Mean or Any) on rows x last of T on one Ascend910B1 block, the operands sized
// to the shape (src all 1, dst all 0x5a bytes, the scratch most of the rest of the UB), in
// checked mode or not.
template <typename T, bool reuse>
DefectOutcome RunDefect(Api api, uint32_t first, uint32_t last, bool checked) {
  const uint32_t src_bytes = Align32(uint64_t{first} * Pad<T>(last) * sizeof(T));
  const uint32_t dst_bytes = Align32(uint64_t{first} * sizeof(T));
  const uint32_t tmp_bytes = 196608 - src_bytes - dst_bytes - 4096;
  DefectOutcome r;
  const bool was = lngrad::aicore::CheckedMode();
  lngrad::aicore::SetCheckedMode(checked);
  lngrad::aicore::LaunchOptions o;
  o.soc = k910B;
  const auto body = [&] {
    TPipe pipe;
    TBuf<> bs, bd, bt;
    pipe.InitBuffer(bs, src_bytes);
    pipe.InitBuffer(bd, dst_bytes);
    pipe.InitBuffer(bt, tmp_bytes);
    LocalTensor<T> src = bs.Get<T>(), dst = bd.Get<T>();
    LocalTensor<uint8_t> tmp = bt.Get<uint8_t>();
    std::fill(src.HostPtr(), src.HostPtr() + src_bytes / sizeof(T), T(1));
    std::memset(dst.HostPtr(), 0x5a, dst_bytes);
    const std::vector<uint8_t> src0(reinterpret_cast<uint8_t*>(src.HostPtr()),
                                    reinterpret_cast<uint8_t*>(src.HostPtr()) + src_bytes);
    const uint32_t shape[2] = {first, last};
    try {
      if (api == Api::kSum) ReduceSum<T, Pattern::Reduce::AR, reuse>(dst, src, tmp, shape, true);
      if (api == Api::kMean) ReduceMean<T, Pattern::Reduce::AR, reuse>(dst, src, tmp, shape, true);
      if (api == Api::kAny) ReduceAny<T, Pattern::Reduce::AR, reuse>(dst, src, tmp, shape, true);
    } catch (const lngrad::aicore::KernelCheckError& e) {
      lngrad::aicore::DismissKernelCheck(e);
      r.check = e.check();
      r.msg = e.message();
    }
    const auto* d = reinterpret_cast<const uint8_t*>(dst.HostPtr());
    r.dst.assign(d, d + dst_bytes);
    r.kept = std::memcmp(src0.data(), src.HostPtr(), src_bytes) == 0 &&
             std::all_of(d, d + dst_bytes, [](uint8_t b) { return b == 0x5a; });
  };
  const lngrad::Status s = lngrad::aicore::Launch(1, body, o);
  lngrad::aicore::SetCheckedMode(was);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return r;
}

// Checked mode refuses the shape (naming `needle`) before writing src or dst, accepts the
// nearest shape that avoids the defect, and unchecked mode runs the device's sequence.
template <typename T, bool reuse>
void ExpectDefect(Api api, uint32_t first, uint32_t last, uint32_t ok_first, uint32_t ok_last,
                  const std::string& needle) {
  const std::string what = std::to_string(first) + "x" + std::to_string(last);
  const DefectOutcome bad = RunDefect<T, reuse>(api, first, last, true);
  EXPECT_EQ(bad.check, "reduce_device_defect") << what << ": " << bad.msg;
  EXPECT_NE(bad.msg.find(needle), std::string::npos) << bad.msg;
  EXPECT_TRUE(bad.kept) << what << ": the refused call wrote src or dst";
  const DefectOutcome good = RunDefect<T, reuse>(api, ok_first, ok_last, true);
  EXPECT_EQ(good.check, "") << ok_first << "x" << ok_last << ": " << good.msg;
  EXPECT_FALSE(good.kept) << ok_first << "x" << ok_last << ": wrote no result";
  const DefectOutcome raw = RunDefect<T, reuse>(api, first, last, false);
  EXPECT_EQ(raw.check, "") << what << " unchecked: " << raw.msg;
}

TEST(ReduceApi, ShapesTheDeviceComputesWronglyAreRefusedInCheckedMode) {
  ExpectDefect<float, false>(Api::kSum, 4080, 8, 4079, 8, "2040");
  ExpectDefect<half, false>(Api::kMean, 4080, 5, 4079, 5, "2040");
  ExpectDefect<uint8_t, false>(Api::kAny, 4, 17, 4, 16, "first 16");
  ExpectDefect<uint8_t, false>(Api::kAny, 4, 31, 4, 32, "first 16");
  ExpectDefect<float, true>(Api::kSum, 249, 65, 248, 65, "248");
  ExpectDefect<float, true>(Api::kMean, 17, 2048, 16, 2048, "uint8_t");
  ExpectDefect<float, true>(Api::kSum, 17, 2041, 16, 2041, "uint8_t");
  ExpectDefect<half, false>(Api::kMean, 2, 65, 2, 64, "half");
  // Without isReuseSource the 248-row groups work in the scratch and are right.
  EXPECT_EQ((RunDefect<float, false>(Api::kSum, 249, 65, true).check), "");
  // Unchecked, the device's numbers: rows 2040..4079 of a 4080-row call keep dst's bytes, the
  // others get the sum of their eight 1s.
  const DefectOutcome raw = RunDefect<float, false>(Api::kSum, 4080, 8, false);
  for (uint32_t r = 0; r < 4080; ++r) {
    float v = 0;
    std::memcpy(&v, raw.dst.data() + 4 * r, 4);
    const bool skipped = r >= 2040;
    ASSERT_EQ(skipped ? raw.dst[4 * r] == 0x5a && raw.dst[4 * r + 3] == 0x5a : v == 8.0f, true)
        << "row " << r << ": " << v;
  }
}

// srcInnerPad false is allowed for ReduceMax on the 950 (the rows are then unpadded).
TEST(ReduceApi, UnpaddedRowsOnThe950) {
  const uint32_t shape[2] = {3, 5};
  std::vector<float> out;
  OnBlock(
      [&](Ub& ub) {
        ub.Put<float>(1, {1, 9, 2, 3, 4, /*row 1*/ 5, 6, 7, 8, -1, /*row 2*/ 0, 0, 0, 10, 0});
        ReduceMax<float, Pattern::Reduce::AR>(ub.Get<float>(0), ub.Get<float>(1), shape, false);
        out = ub.Take<float>(0);
      },
      k950);
  EXPECT_EQ(out[0], 9.0f);
  EXPECT_EQ(out[1], 8.0f);
  EXPECT_EQ(out[2], 10.0f);
}

// ---- Host scratch sizes ----

uint32_t ReduceTmp(void (*f)(const ge::Shape&, const ge::DataType, ReducePattern, bool, bool,
                             uint32_t&, uint32_t&),
                   std::vector<int64_t> dims, ge::DataType t, ReducePattern p, bool reuse) {
  uint32_t mx = 7, mn = 7;
  f(ge::Shape(dims), t, p, true, reuse, mx, mn);
  EXPECT_EQ(mx, mn);
  return mn;
}

TEST(ReduceTiling, ScratchSizesAreTheToolkitsFormulas) {
  constexpr auto AR = ReducePattern::AR;
  constexpr auto RA = ReducePattern::RA;
  // Max/Min: AR 0 (last <= 8), first * 32 (last < 64), first * 256; RA k(first) * align32(last*ts).
  EXPECT_EQ(ReduceTmp(GetReduceMaxMaxMinTmpSize, {5, 8}, ge::DT_FLOAT, AR, false), 0u);
  EXPECT_EQ(ReduceTmp(GetReduceMaxMaxMinTmpSize, {5, 9}, ge::DT_FLOAT, AR, false), 160u);
  EXPECT_EQ(ReduceTmp(GetReduceMaxMaxMinTmpSize, {5, 64}, ge::DT_FLOAT, AR, false), 1280u);
  EXPECT_EQ(ReduceTmp(GetReduceMinMaxMinTmpSize, {5, 100}, ge::DT_FLOAT16, AR, false), 160u);
  EXPECT_EQ(ReduceTmp(GetReduceMaxMaxMinTmpSize, {32, 136}, ge::DT_FLOAT, RA, false), 16u * 544);
  EXPECT_EQ(ReduceTmp(GetReduceMaxMaxMinTmpSize, {33, 136}, ge::DT_FLOAT, RA, false), 32u * 544);
  EXPECT_EQ(ReduceTmp(GetReduceMaxMaxMinTmpSize, {33, 136}, ge::DT_FLOAT, RA, true), 0u);
  // Sum/Mean: AR 0 (last <= 64), first * k'(last) * 4; RA k(first) * align8(last) * 4.
  EXPECT_EQ(ReduceTmp(GetReduceSumMaxMinTmpSize, {3, 64}, ge::DT_FLOAT, AR, false), 0u);
  EXPECT_EQ(ReduceTmp(GetReduceSumMaxMinTmpSize, {3, 128}, ge::DT_FLOAT, AR, false), 768u);
  EXPECT_EQ(ReduceTmp(GetReduceSumMaxMinTmpSize, {1, 128}, ge::DT_FLOAT, AR, false), 512u);
  EXPECT_EQ(ReduceTmp(GetReduceMeanMaxMinTmpSize, {3, 100}, ge::DT_FLOAT, AR, false), 768u);
  EXPECT_EQ(ReduceTmp(GetReduceMeanMaxMinTmpSize, {9, 13}, ge::DT_FLOAT, RA, false), 512u);
  // Prod: AR (max(8, k') + first * 8) * 4 + 256 (reuse 256); RA like Max.
  EXPECT_EQ(ReduceTmp(GetReduceProdMaxMinTmpSize, {4, 100}, ge::DT_FLOAT, AR, false), 640u);
  // The host minima replay.ReduceMem950bReplay.ProdArScratchRowsPastTheHostMinimum runs at.
  EXPECT_EQ(ReduceTmp(GetReduceProdMaxMinTmpSize, {3, 200}, ge::DT_FLOAT, AR, false), 864u);
  EXPECT_EQ(ReduceTmp(GetReduceProdMaxMinTmpSize, {2, 1000}, ge::DT_FLOAT, AR, false), 2368u);
  EXPECT_EQ(ReduceTmp(GetReduceProdMaxMinTmpSize, {4, 5}, ge::DT_FLOAT, AR, false), 416u);
  EXPECT_EQ(ReduceTmp(GetReduceProdMaxMinTmpSize, {4, 5}, ge::DT_FLOAT, AR, true), 256u);
  EXPECT_EQ(ReduceTmp(GetReduceProdMaxMinTmpSize, {4, 5}, ge::DT_FLOAT, RA, true), 0u);
  // Any/All uint8: AR align32(last) * 2 + first * 32 (reuse too); RA k(first) * align32(last).
  EXPECT_EQ(ReduceTmp(GetReduceAnyMaxMinTmpSize, {3, 40}, ge::DT_UINT8, AR, true), 224u);
  EXPECT_EQ(ReduceTmp(GetReduceAllMaxMinTmpSize, {6, 40}, ge::DT_UINT8, RA, false), 256u);
  EXPECT_EQ(ReduceTmp(GetReduceAllMaxMinTmpSize, {6, 40}, ge::DT_FLOAT, RA, false), 640u);
}

TEST(ReduceTiling, RefusalsLeaveTheOutputs) {
  uint32_t mx = 7, mn = 7;
  GetReduceMaxMaxMinTmpSize(ge::Shape({4, 8}), ge::DT_FLOAT, ReducePattern::AR, false, false, mx,
                            mn);  // isSrcInnerPad false: refused on 2201
  EXPECT_EQ(mn, 7u);
  EXPECT_FALSE(lngrad::tiling::LastTilingStatus().ok());
  GetReduceSumMaxMinTmpSize(ge::Shape({4, 8}), ge::DT_FLOAT16, ReducePattern::AR, true, false, mx,
                            mn);
  EXPECT_EQ(mn, 7u);
  GetReduceMaxMaxMinTmpSize(ge::Shape({4, 8, 2}), ge::DT_FLOAT, ReducePattern::AR, true, false, mx,
                            mn);
  EXPECT_EQ(mn, 7u);
  GetReduceMaxMaxMinTmpSize(ge::Shape({4, 8}), ge::DT_FLOAT, ReducePattern::ARA, true, false, mx,
                            mn);
  EXPECT_EQ(mn, 7u);
}

TEST(ReduceTiling, MeanAndXorSumScratch) {
  uint32_t mx = 0, mn = 0;
  GetMeanMaxMinTmpSize(1000, 4, 4, false, mx, mn);  // 16 repeats -> 32
  EXPECT_EQ(mn, 32u);
  GetMeanMaxMinTmpSize(1000, 2, 4, false, mx, mn);  // 16 float repeats -> 32, + 1008 * 4
  EXPECT_EQ(mn, 32u + 4032u);
  GetMeanMaxMinTmpSize(1000, 2, 2, false, mx, mn);  // 8 repeats -> 32
  EXPECT_EQ(mx, 32u);
  mn = 9;
  GetMeanMaxMinTmpSize(1000, 4, 2, false, mx, mn);
  EXPECT_EQ(mn, 9u);
  uint32_t live = 0, extra = 5;
  GetMeanTmpBufferFactorSize(4, live, extra);
  EXPECT_EQ(live, 1u);
  EXPECT_EQ(extra, 0u);
  GetReduceXorSumMaxMinTmpSize(ge::Shape({1000}), 2, false, mx, mn);
  EXPECT_EQ(mn, 6000u);
  GetReduceXorSumMaxMinTmpSize(ge::Shape({10}), 2, true, mx, mn);
  EXPECT_EQ(mn, 512u);
}

TEST(ReduceTiling, SumScratchIsTheFirstLevel) {
  uint32_t mx = 0, mn = 0;
  GetSumMaxMinTmpSize(32, 4, false, mx, mn);
  EXPECT_EQ(mn, 32u);
  GetSumMaxMinTmpSize(4100, 4, false, mx, mn);  // 65 repeats -> 72 floats
  EXPECT_EQ(mn, 288u);
  EXPECT_EQ(mx, 288u);
  GetSumMaxMinTmpSize(4100, 2, false, mx, mn);  // 33 repeats -> 48 halves
  EXPECT_EQ(mn, 96u);
  mn = 5;
  GetSumMaxMinTmpSize(0, 4, false, mx, mn);
  EXPECT_EQ(mn, 5u);
}

}  // namespace
