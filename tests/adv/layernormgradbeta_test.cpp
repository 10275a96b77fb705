// LayerNormGradBeta in lngrad_adv: the documentation example exactly, SIMD vs scalar,
// the row-sequential order, half casts, isReuseSource and the register path's saturation.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "adv_test_util.h"

namespace lngrad::adv {
namespace {

using testing::FirstBitDifference;
using testing::MakeBetaTiling;

template <typename T>
struct BetaCase {
  std::vector<T> dy, res, gamma_out, beta_out;
  std::vector<float> scratch;
  BetaCase(std::vector<T> dy_, std::vector<T> res_, size_t h, size_t scratch_floats)
      : dy(std::move(dy_)),
        res(std::move(res_)),
        gamma_out(h),
        beta_out(h),
        scratch(scratch_floats, 123.0f) {}
  LayerNormGradBetaOperands<T> Operands() {
    using testing::Whole, testing::WholeIn;
    return {.outputPdGamma = Whole(gamma_out),
            .outputPdBeta = Whole(beta_out),
            .resForGamma = Whole(res),
            .inputDy = WholeIn(dy),
            .scratch = Whole(scratch)};
  }
};

TEST(LayerNormGradBeta, DocumentationExampleIsExact) {
  auto m = testing::LoadExample("layernormgradbeta_doc_example.txt");
  const auto& want_g = m["outputPdGamma"];
  const auto& want_b = m["outputPdBeta"];
  ASSERT_EQ(want_g.size(), 8u);
  for (Algorithm algo : {Algorithm::kVector, Algorithm::kRegBase}) {
    for (Impl impl : {Impl::kScalar, Impl::kSimd}) {
      for (uint32_t bytes : {128u, 256u, 8192u}) {  // min, a 2-row chunk, max ([1,8,8] float)
        const auto t = MakeBetaTiling(1, 8, 8, 8, bytes, false);
        BetaCase<float> c(m["inputDy"], m["resForGamma"], 8, bytes / 4);
        ASSERT_TRUE(LayerNormGradBeta(algo, t, c.Operands(), false, impl).ok());
        EXPECT_EQ(c.gamma_out, want_g);
        EXPECT_EQ(c.beta_out, want_b);
      }
    }
  }
}

TEST(LayerNormGradBeta, HalfDocumentationExampleIsExact) {
  // Every value of the example (sums up to 12488) is an exact half, and the float sums are
  // exact, so the half path must reproduce the table too.
  auto m = testing::LoadExample("layernormgradbeta_doc_example.txt");
  for (Algorithm algo : {Algorithm::kVector, Algorithm::kRegBase}) {
    const auto t = MakeBetaTiling(1, 8, 16, 16, 4 * 16 * 4 * 2, true);
    // Pad the 8 columns to 16 (half needs 32-byte rows): columns 8..15 are zeros.
    std::vector<float> dy(128, 0.0f), res(128, 0.0f);
    for (int r = 0; r < 8; ++r) {
      for (int k = 0; k < 8; ++k) {
        dy[r * 16 + k] = m["inputDy"][r * 8 + k];
        res[r * 16 + k] = m["resForGamma"][r * 8 + k];
      }
    }
    BetaCase<Half> c(testing::ToHalf(dy), testing::ToHalf(res), 16, 4 * 16 * 4);
    ASSERT_TRUE(LayerNormGradBeta(algo, t, c.Operands(), false).ok());
    for (int k = 0; k < 8; ++k) {
      EXPECT_EQ(c.gamma_out[k].ToFloat(), m["outputPdGamma"][k]);
      EXPECT_EQ(c.beta_out[k].ToFloat(), m["outputPdBeta"][k]);
    }
  }
}

TEST(LayerNormGradBeta, SumsRowsSequentiallyAcrossChunks) {
  // Rows of one column: 2^24, then 1, 1. Row order acc = row + acc gives 2^24 + 1 -> 2^24,
  // again 2^24: the result is 2^24 whatever the chunking (a tree would pair 1 + 1 first).
  std::vector<float> dy = {16777216.0f, 0, 0, 0, 0,    0, 0, 0, 1.0f, 0, 0, 0,
                           0,           0, 0, 0, 1.0f, 0, 0, 0, 0,    0, 0, 0};
  for (uint32_t bytes : {96u, 64u, 32u}) {  // 3 rows per chunk, 2 (+ a 1-row tail), 1
    const auto t = MakeBetaTiling(1, 3, 8, 8, bytes, false);
    std::vector<float> ones(24, 1.0f);
    BetaCase<float> c(dy, ones, 8, 64);
    for (Algorithm algo : {Algorithm::kVector, Algorithm::kRegBase}) {
      ASSERT_TRUE(LayerNormGradBeta(algo, t, c.Operands(), false).ok());
      EXPECT_EQ(c.beta_out[0], 16777216.0f);
      EXPECT_EQ(c.gamma_out[0], 16777216.0f);
    }
  }
}

TEST(LayerNormGradBeta, FirstRowEntersAsRowPlusZero) {
  // One row of -0: the vector path starts with row0 + 0 = +0, the register path with 0 + row0.
  std::vector<float> dy(8, -0.0f), res(8, 1.0f);
  for (Algorithm algo : {Algorithm::kVector, Algorithm::kRegBase}) {
    const auto t = MakeBetaTiling(1, 1, 8, 8, 64, false);
    BetaCase<float> c(dy, res, 8, 16);
    ASSERT_TRUE(LayerNormGradBeta(algo, t, c.Operands(), false).ok());
    for (float v : c.beta_out) EXPECT_FALSE(std::signbit(v));
    for (float v : c.gamma_out) EXPECT_FALSE(std::signbit(v));
  }
}

TEST(LayerNormGradBeta, SimdEqualsScalarBitwise) {
  for (uint32_t h : {16u, 80u, 512u}) {
    const uint32_t b = 2, s = 13;
    const auto dy = testing::Uniform(b * s * h, -10.0f, 10.0f, h);
    const auto res = testing::Uniform(b * s * h, -10.0f, 10.0f, h + 1);
    for (Algorithm algo : {Algorithm::kVector, Algorithm::kRegBase}) {
      for (bool reuse : {false, true}) {
        const auto t = MakeBetaTiling(b, s, h, h, 4 * 5 * h, false);  // 5 rows: loop + tail
        BetaCase<float> a(dy, res, h, 5 * h), v(dy, res, h, 5 * h);
        ASSERT_TRUE(LayerNormGradBeta(algo, t, a.Operands(), reuse, Impl::kScalar).ok());
        ASSERT_TRUE(LayerNormGradBeta(algo, t, v.Operands(), reuse, Impl::kSimd).ok());
        EXPECT_EQ(FirstBitDifference(a.gamma_out.data(), v.gamma_out.data(), h), -1);
        EXPECT_EQ(FirstBitDifference(a.beta_out.data(), v.beta_out.data(), h), -1);
        EXPECT_EQ(FirstBitDifference(a.res.data(), v.res.data(), a.res.size()), -1);
        EXPECT_EQ(FirstBitDifference(a.scratch.data(), v.scratch.data(), a.scratch.size()), -1);
      }
      const auto th = MakeBetaTiling(b, s, h, h, 4 * (2 * h + 2 * 4 * h), true);
      BetaCase<Half> a(testing::ToHalf(dy), testing::ToHalf(res), h, 10 * h);
      BetaCase<Half> v(testing::ToHalf(dy), testing::ToHalf(res), h, 10 * h);
      ASSERT_TRUE(LayerNormGradBeta(algo, th, a.Operands(), false, Impl::kScalar).ok());
      ASSERT_TRUE(LayerNormGradBeta(algo, th, v.Operands(), false, Impl::kSimd).ok());
      EXPECT_EQ(FirstBitDifference(a.gamma_out.data(), v.gamma_out.data(), h), -1);
      EXPECT_EQ(FirstBitDifference(a.beta_out.data(), v.beta_out.data(), h), -1);
      EXPECT_EQ(FirstBitDifference(a.scratch.data(), v.scratch.data(), a.scratch.size()), -1);
    }
  }
}

TEST(LayerNormGradBeta, ReuseSourceWritesTheProductsAtResForGammasBase) {
  // Float vector path (spec §3.3): isReuseSource makes resForGamma the product buffer, at its
  // base for every chunk (the kernel's temporary is resForGamma itself, not resForGamma[offset]).
  // 3 chunks of 2 rows: [0,16) ends with the last chunk's products (elements 32..48), [16,48)
  // keeps its input.
  const uint32_t b = 1, s = 6, h = 8;
  const auto dy = testing::Uniform(b * s * h, -10.0f, 10.0f, 1);
  const auto res = testing::Uniform(b * s * h, -10.0f, 10.0f, 2);
  const auto t = MakeBetaTiling(b, s, h, h, 4 * 2 * h, false);
  ASSERT_EQ(t.loopRound, 3u);
  ASSERT_EQ(t.inputTailSize, 0u);
  BetaCase<float> with(dy, res, h, 2 * h), without(dy, res, h, 2 * h);
  ASSERT_TRUE(LayerNormGradBeta(Algorithm::kVector, t, with.Operands(), true).ok());
  ASSERT_TRUE(LayerNormGradBeta(Algorithm::kVector, t, without.Operands(), false).ok());
  EXPECT_EQ(with.gamma_out, without.gamma_out);
  EXPECT_EQ(with.beta_out, without.beta_out);
  EXPECT_EQ(without.res, res);
  for (size_t i = 0; i < 16; ++i) EXPECT_EQ(with.res[i], dy[32 + i] * res[32 + i]) << i;
  for (size_t i = 16; i < res.size(); ++i) EXPECT_EQ(with.res[i], res[i]) << i;
  EXPECT_EQ(with.scratch, std::vector<float>(2 * h, 123.0f));  // scratch untouched with reuse
}

TEST(LayerNormGradBeta, ReuseSourceFootprintIsTheChunksAndTheBase) {
  // The footprint of resForGamma with reuse: every chunk's input, and the base as product buffer
  // (never more than the input here, so exactly B*S*H); one element short is refused unwritten.
  const auto t = MakeBetaTiling(1, 6, 8, 8, 4 * 2 * 8, false);
  LayerNormGradBetaFootprint f;
  ASSERT_TRUE(LayerNormGradBetaFootprintFor(Algorithm::kVector, t, false, true, &f).ok());
  EXPECT_EQ(f.resForGamma, 48u);
  EXPECT_EQ(f.scratch, 0u);
  const auto dy = testing::Uniform(48, -1.0f, 1.0f, 3);
  BetaCase<float> c(dy, std::vector<float>(47, 2.0f), 8, 16);
  const Status st = LayerNormGradBeta(Algorithm::kVector, t, c.Operands(), true);
  EXPECT_EQ(st.code(), StatusCode::kOutOfRange);
  EXPECT_EQ(c.res, std::vector<float>(47, 2.0f));
}

TEST(LayerNormGradBeta, RegisterPathSaturatesHalfOutputs) {
  // Sum of 4 rows of 30000 = 120000: beyond the half range. The vector path casts with
  // CAST_NONE (to +inf), the 3510 store saturates to 65504.
  std::vector<float> dy(4 * 16, 30000.0f), res(4 * 16, 0.5f);
  const auto t = MakeBetaTiling(1, 4, 16, 16, 4 * (2 * 16 + 2 * 64), true);
  BetaCase<Half> v(testing::ToHalf(dy), testing::ToHalf(res), 16, 160);
  BetaCase<Half> r(testing::ToHalf(dy), testing::ToHalf(res), 16, 160);
  ASSERT_TRUE(LayerNormGradBeta(Algorithm::kVector, t, v.Operands(), false).ok());
  ASSERT_TRUE(LayerNormGradBeta(Algorithm::kRegBase, t, r.Operands(), false).ok());
  EXPECT_EQ(v.beta_out[0].bits, 0x7C00);  // +inf
  EXPECT_EQ(r.beta_out[0].bits, 0x7BFF);  // 65504
  EXPECT_EQ(v.gamma_out[0].ToFloat(), 60000.0f);
  EXPECT_EQ(r.gamma_out[0].ToFloat(), 60000.0f);
}

TEST(LayerNormGradBeta, UsesOriginalHAsRowStrideOnTheVectorPath) {
  // Spec §3.3: hCurLength = originalHLength is both the column count and the row stride.
  // Storage H 16, original H 8: rows are read 8 apart, so the sum over 2 "rows" of the first
  // 8 columns adds elements 0..7 and 8..15 of the first storage row.
  std::vector<float> dy(32);
  for (int i = 0; i < 32; ++i) dy[i] = static_cast<float>(i);
  std::vector<float> ones(32, 1.0f);
  auto t = MakeBetaTiling(1, 2, 16, 8, 4 * 32, false);
  t.bsCurLength = 2;
  BetaCase<float> c(dy, ones, 16, 32);
  ASSERT_TRUE(LayerNormGradBeta(Algorithm::kVector, t, c.Operands(), false).ok());
  for (int k = 0; k < 8; ++k) EXPECT_EQ(c.beta_out[k], static_cast<float>(k + (k + 8))) << k;
}

TEST(LayerNormGradBeta, ShortOperandsAreRefused) {
  const auto t = MakeBetaTiling(1, 8, 8, 8, 128, false);
  BetaCase<float> c(std::vector<float>(63, 1.0f), std::vector<float>(64, 1.0f), 8, 32);
  const Status st = LayerNormGradBeta(Algorithm::kVector, t, c.Operands(), false);
  EXPECT_EQ(st.code(), StatusCode::kOutOfRange);
  EXPECT_NE(st.message().find("inputDy"), std::string::npos) << st.message();
  EXPECT_EQ(c.gamma_out, std::vector<float>(8, 0.0f));
}

}  // namespace
}  // namespace lngrad::adv
