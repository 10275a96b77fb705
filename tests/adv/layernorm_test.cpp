// LayerNorm forward ([B,S,H], mean and variance outputs) in lngrad_adv: accuracy against
// float64, SIMD vs scalar, chunking, the tiling write-back, isReuseSource, the register path.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "adv_test_util.h"
#include "element.h"

namespace lngrad::adv {
namespace {

using test::ToDouble;
using testing::FirstBitDifference;
using testing::MakeLayerNormTiling;
using testing::NormCase;

// Official-rule style comparison against float64 (spec §4 formulas): fails when both the
// absolute and the relative error exceed tol. Returns the number of failing values.
template <typename T>
int Check(const NormCase<T>& c, double eps, double tol) {
  int fails = 0;
  auto bad = [&](double got, double want) {
    const double e = std::fabs(got - want);
    return e > tol && e > tol * std::fabs(want);
  };
  for (size_t r = 0; r < size_t{c.b} * c.s; ++r) {
    double m = 0, v = 0;
    for (size_t k = 0; k < c.h; ++k) m += ToDouble(c.x[r * c.h + k]);
    m /= c.h;
    for (size_t k = 0; k < c.h; ++k)
      v += (ToDouble(c.x[r * c.h + k]) - m) * (ToDouble(c.x[r * c.h + k]) - m);
    v /= c.h;
    fails += bad(ToDouble(c.mean[r]), m);
    fails += bad(ToDouble(c.var[r]), v);
    for (size_t k = 0; k < c.h; ++k) {
      const double y =
          (ToDouble(c.x[r * c.h + k]) - m) / std::sqrt(v + eps) * ToDouble(c.gamma[k]) +
          ToDouble(c.beta[k]);
      fails += bad(ToDouble(c.out[r * c.h + k]), y);
    }
  }
  return fails;
}

uint64_t Footprint(Algorithm algo, const LayerNormTiling& t, bool half, bool reuse) {
  LayerNormFootprint f;
  EXPECT_TRUE(LayerNormFootprintFor(algo, t, half, reuse, &f).ok());
  return std::max<uint64_t>(f.scratch, 1);
}

TEST(LayerNorm, AccurateAgainstFloat64) {
  // Tolerances: 1e-4 (abs and rel, as the official sample rule) for float: mean and variance
  // are sums of H rounded terms (relative error ~H * 2^-24 at worst, far less with the tree);
  // 2e-3 for half outputs, whose final rounding alone is up to 4.9e-4 relative.
  for (uint32_t h : {16u, 72u, 128u, 1040u}) {
    for (Algorithm algo : {Algorithm::kVector, Algorithm::kRegBase}) {
      auto t = MakeLayerNormTiling(2, 5, h, 3, false, false);
      NormCase<float> c(2, 5, h, h, Footprint(algo, t, false, false));
      ASSERT_TRUE(LayerNorm(algo, t, c.Operands(), 1e-5f, false).ok());
      EXPECT_EQ(Check(c, 1e-5, 1e-4), 0) << "h " << h << " algo " << static_cast<int>(algo);
      if (h % 16 == 0) {
        auto th = MakeLayerNormTiling(2, 5, h, 3, true, false);
        NormCase<Half> ch(2, 5, h, h + 1, Footprint(algo, th, true, false));
        const Half eps(1e-5f);
        ASSERT_TRUE(LayerNorm(algo, th, ch.Operands(), eps, false).ok());
        EXPECT_EQ(Check(ch, eps.ToFloat(), 2e-3), 0) << "half h " << h;
      }
    }
  }
}

TEST(LayerNorm, SimdEqualsScalarBitwise) {
  // Row folds with and without a tail (a tail shorter than a vector: 72, 200), one tree per
  // row (16), several 64-lane chunks (768, 4160).
  for (uint32_t h : {16u, 72u, 96u, 200u, 768u, 4160u}) {
    for (Algorithm algo : {Algorithm::kVector, Algorithm::kRegBase}) {
      for (bool reuse : {false, true}) {
        auto t1 = MakeLayerNormTiling(1, 7, h, 3, false, reuse);
        auto t2 = t1;
        const uint64_t fs = Footprint(algo, t1, false, reuse);
        NormCase<float> a(1, 7, h, 3, fs), v(1, 7, h, 3, fs);
        ASSERT_TRUE(LayerNorm(algo, t1, a.Operands(), 1e-5f, reuse, Impl::kScalar).ok());
        ASSERT_TRUE(LayerNorm(algo, t2, v.Operands(), 1e-5f, reuse, Impl::kSimd).ok());
        EXPECT_EQ(FirstBitDifference(a.out.data(), v.out.data(), a.out.size()), -1) << h;
        EXPECT_EQ(FirstBitDifference(a.mean.data(), v.mean.data(), a.mean.size()), -1);
        EXPECT_EQ(FirstBitDifference(a.var.data(), v.var.data(), a.var.size()), -1);
        EXPECT_EQ(FirstBitDifference(a.x.data(), v.x.data(), a.x.size()), -1);
        EXPECT_EQ(FirstBitDifference(a.scratch.data(), v.scratch.data(), a.scratch.size()), -1);
      }
      if (h % 16 != 0) continue;  // half rows must be 32-byte aligned
      auto t1 = MakeLayerNormTiling(1, 7, h, 3, true, false);
      auto t2 = t1;
      const uint64_t fs = Footprint(algo, t1, true, false);
      NormCase<Half> a(1, 7, h, 4, fs), v(1, 7, h, 4, fs);
      ASSERT_TRUE(LayerNorm(algo, t1, a.Operands(), Half(1e-5f), false, Impl::kScalar).ok());
      ASSERT_TRUE(LayerNorm(algo, t2, v.Operands(), Half(1e-5f), false, Impl::kSimd).ok());
      EXPECT_EQ(FirstBitDifference(a.out.data(), v.out.data(), a.out.size()), -1) << h;
      EXPECT_EQ(FirstBitDifference(a.mean.data(), v.mean.data(), a.mean.size()), -1);
      EXPECT_EQ(FirstBitDifference(a.scratch.data(), v.scratch.data(), a.scratch.size()), -1);
    }
  }
}

TEST(LayerNorm, VectorPathLeavesTheTailLengthsInTheTiling) {
  // 7 rows, 3 per chunk: two chunks and a 1-row tail. The device writes the tail lengths into
  // the caller's tiling (bshCurLength, bsCurLength) and they stay there after the call.
  auto t = MakeLayerNormTiling(1, 7, 16, 3, false, false);
  ASSERT_EQ(t.bshCurLength, 48u);
  NormCase<float> c(1, 7, 16, 1, Footprint(Algorithm::kVector, t, false, false));
  ASSERT_TRUE(LayerNorm(Algorithm::kVector, t, c.Operands(), 1e-5f, false).ok());
  EXPECT_EQ(t.bshCurLength, 16u);
  EXPECT_EQ(t.bsCurLength, 1u);
  // The register path reads only bLength, sLength and hLength and leaves the tiling alone.
  auto t3 = MakeLayerNormTiling(1, 7, 16, 3, false, false);
  NormCase<float> c3(1, 7, 16, 1, 1);
  ASSERT_TRUE(LayerNorm(Algorithm::kRegBase, t3, c3.Operands(), 1e-5f, false).ok());
  EXPECT_EQ(t3.bshCurLength, 48u);
}

TEST(LayerNorm, ChunkingDoesNotChangeTheBits) {
  std::vector<std::vector<float>> outs;
  for (uint32_t rows_per_chunk : {1u, 4u, 11u}) {
    auto t = MakeLayerNormTiling(1, 11, 48, rows_per_chunk, false, false);
    NormCase<float> c(1, 11, 48, 8, Footprint(Algorithm::kVector, t, false, false));
    ASSERT_TRUE(LayerNorm(Algorithm::kVector, t, c.Operands(), 1e-5f, false).ok());
    auto all = c.out;
    all.insert(all.end(), c.mean.begin(), c.mean.end());
    all.insert(all.end(), c.var.begin(), c.var.end());
    outs.push_back(all);
  }
  EXPECT_EQ(FirstBitDifference(outs[0].data(), outs[1].data(), outs[0].size()), -1);
  EXPECT_EQ(FirstBitDifference(outs[0].data(), outs[2].data(), outs[0].size()), -1);
}

TEST(LayerNorm, ReuseSourceUsesTheStartOfInputXAsScratch) {
  // Float vector path: tempTensorA is inputX itself (not offset by the chunk), so the first
  // chunk of inputX ends up holding the last chunk's scratch; later chunks are untouched and
  // the outputs equal the non-reuse outputs.
  auto tr = MakeLayerNormTiling(1, 9, 32, 4, false, true);
  auto tp = MakeLayerNormTiling(1, 9, 32, 4, false, false);
  NormCase<float> r(1, 9, 32, 6, Footprint(Algorithm::kVector, tr, false, true));
  NormCase<float> p(1, 9, 32, 6, Footprint(Algorithm::kVector, tp, false, false));
  const auto x0 = r.x;
  ASSERT_TRUE(LayerNorm(Algorithm::kVector, tr, r.Operands(), 1e-5f, true).ok());
  ASSERT_TRUE(LayerNorm(Algorithm::kVector, tp, p.Operands(), 1e-5f, false).ok());
  EXPECT_EQ(r.out, p.out);
  EXPECT_EQ(r.mean, p.mean);
  EXPECT_EQ(r.var, p.var);
  EXPECT_EQ(p.x, x0);
  EXPECT_NE(std::vector<float>(r.x.begin(), r.x.begin() + 128),
            std::vector<float>(x0.begin(), x0.begin() + 128));
  EXPECT_EQ(std::vector<float>(r.x.begin() + 128, r.x.end()),
            std::vector<float>(x0.begin() + 128, x0.end()));
}

TEST(LayerNorm, VectorMeanIsTheTreeOfTheScaledRow) {
  // H = 16 (one partial repeat): mean = tree(x * (1/16)). Row [2^28, 0, 16, 16, 0...]:
  // scaled [2^24, 0, 1, 1, ...]; adjacent pairs give 2^24 + 2 (exact), a left-to-right sum 2^24.
  auto t = MakeLayerNormTiling(1, 1, 16, 1, false, false);
  NormCase<float> c(1, 1, 16, 1, Footprint(Algorithm::kVector, t, false, false));
  std::fill(c.x.begin(), c.x.end(), 0.0f);
  c.x[0] = 268435456.0f;
  c.x[2] = 16.0f;
  c.x[3] = 16.0f;
  ASSERT_TRUE(LayerNorm(Algorithm::kVector, t, c.Operands(), 1e-5f, false).ok());
  EXPECT_EQ(c.mean[0], 16777218.0f);
}

TEST(LayerNorm, ShortOperandsAreRefused) {
  auto t = MakeLayerNormTiling(1, 4, 16, 2, false, false);
  NormCase<float> c(1, 4, 16, 1, Footprint(Algorithm::kVector, t, false, false));
  auto o = c.Operands();
  o.outputVariance.capacity = 3;
  const Status st = LayerNorm(Algorithm::kVector, t, o, 1e-5f, false);
  EXPECT_EQ(st.code(), StatusCode::kOutOfRange);
  EXPECT_NE(st.message().find("outputVariance"), std::string::npos);
  EXPECT_EQ(c.out, std::vector<float>(64, 0.0f));
}

}  // namespace
}  // namespace lngrad::adv
