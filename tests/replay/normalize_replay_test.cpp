// The [A, R] replay (replay_normalize.h) on vectors whose results are exact, so the expected
// values are worked out by hand: Normalize's arithmetic, the padded columns it writes from the
// scratch's old contents, the register Rsqrt's special values, LayerNorm's preprocessing of
// the padding, its chunks and the tiling write-back.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "replay_normalize.h"

namespace lngrad_replay {
namespace {

// Rows 2x8 (r = 6 real columns), mean 1 and var + eps = 4 (rstd 0.5), gamma 2, beta 1: the
// real columns come out as x exactly.
struct Case {
  ArPara p{2, 6, 8};
  std::vector<float> x{1, 3, 5, 7, 9, 11, 5, 5, 3, 3, 3, 3, 3, 3, 5, 5};
  std::vector<float> mean{1, 1}, var{3.75f, 3.75f}, rstd{9, 9}, gamma{2, 2, 2, 2, 2, 2, 2, 2},
      beta{1, 1, 1, 1, 1, 1, 1, 1}, out = std::vector<float>(16, -1.0f);
};

TEST(ReplayNormalize, ExactRowsAndPaddingFromTheScratch) {
  Case c;
  // 16 floats: one group of one row (2 * 8); the broadcast buffer's padded columns hold 3.
  std::vector<float> stack(16, 3.0f);
  ASSERT_TRUE(ReplayNormalize(c.p, c.mean.data(), c.var.data(), c.x.data(), c.gamma.data(),
                              c.beta.data(), 0.25f, c.out.data(), c.rstd.data(), stack.data(), 16));
  EXPECT_EQ(c.rstd, (std::vector<float>{0.5f, 0.5f}));
  for (int k = 0; k < 6; ++k) EXPECT_EQ(c.out[k], c.x[k]) << k;
  for (int k = 8; k < 14; ++k) EXPECT_EQ(c.out[k], 3.0f) << k;
  // Padding: (x - 3) * 3, the broadcast buffer's stale columns: (5 - 3) * 3 = 6.
  EXPECT_EQ(c.out[6], 6.0f);
  EXPECT_EQ(c.out[15], 6.0f);
  // The group buffers end as: ta = the last row before the store, tb = its rstd row.
  EXPECT_EQ(stack[0], 3.0f);
  EXPECT_EQ(stack[8], 0.5f);
  EXPECT_EQ(stack[14], 3.0f);
  // 15 floats hold no group.
  EXPECT_FALSE(ReplayNormalize(c.p, c.mean.data(), c.var.data(), c.x.data(), c.gamma.data(),
                               c.beta.data(), 0.25f, c.out.data(), c.rstd.data(), stack.data(),
                               15));
}

TEST(ReplayNormalize, StoreAddsZeroSoNegativeZeroBecomesPositive) {
  // noBeta, gamma -1, x = mean: (x - mean) * rstd * -1 = -0; the final Adds(t, 0) stores +0.
  ArPara p{1, 8, 8, false, true};
  std::vector<float> x(8, 2.0f), mean{2}, var{1}, rstd(1), g(8, -1.0f), b(8), out(8, 1.0f),
      stack(16);
  ASSERT_TRUE(ReplayNormalize(p, mean.data(), var.data(), x.data(), g.data(), b.data(), 0.0f,
                              out.data(), rstd.data(), stack.data(), 16));
  for (float v : out) EXPECT_FALSE(std::signbit(v));
  EXPECT_TRUE(std::signbit(stack[0]));  // the work buffer kept -0
}

TEST(ReplayNormalize3510, ExactRowsPaddingUntouchedAndSpecialValues) {
  Case c;
  ReplayNormalize3510(c.p, c.mean.data(), c.var.data(), c.x.data(), c.gamma.data(), c.beta.data(),
                      0.25f, c.out.data(), c.rstd.data());
  EXPECT_EQ(c.rstd, (std::vector<float>{0.5f, 0.5f}));
  for (int k = 0; k < 6; ++k) EXPECT_EQ(c.out[k], c.x[k]) << k;
  EXPECT_EQ(c.out[6], -1.0f);
  EXPECT_EQ(c.out[15], -1.0f);
  // var + eps = 0 -> +inf, = +inf -> 0 (RsqrtUtil's selects).
  std::vector<float> var{0.0f, INFINITY};
  ReplayNormalize3510(c.p, c.mean.data(), var.data(), c.x.data(), c.gamma.data(), c.beta.data(),
                      0.0f, c.out.data(), c.rstd.data());
  EXPECT_EQ(c.rstd[0], INFINITY);
  EXPECT_EQ(c.rstd[1], 0.0f);
}

TEST(ReplayLayerNormRstd, ChunksPaddingAndTilingWriteBack) {
  // [3, 6] float padded to 8; chunks of 2 rows (16 floats) and a tail of 1 row; x's padding
  // (here 7 and -7) becomes +0 / -0 before the sums.
  ArPara p{3, 6, 8};
  std::vector<float> x;
  for (int i = 0; i < 3; ++i) {
    for (int k = 0; k < 6; ++k) x.push_back(static_cast<float>(i + k));
    x.push_back(7.0f);
    x.push_back(-7.0f);
  }
  SeparateTiling t{};
  t.aLength = 3;
  t.rLength = 6;
  t.varianceTmpTensorPos = 0;
  t.firstTmpStartPos = 8;
  t.secondTmpStartPos = 24;
  t.tmpBufSize = 40;
  t.oneTmpSize = 16;
  t.loopRound = 1;
  t.inputRoundSize = 16;
  t.inputTailSize = 8;
  t.inputTailPos = 16;
  t.meanVarRoundSize = 2;
  t.meanVarTailSize = 1;
  t.meanVarTailPos = 2;
  t.arCurLength = 16;
  t.aCurLength = 2;
  t.rValueBack = 0.25f;  // not 1/6: the sums then give exact 0.25 * row sums
  std::vector<float> g(8, 1.0f), b(8, 0.0f), out(24), mean(3), rstd(3), stack(64, 0.0f);
  ASSERT_TRUE(ReplayLayerNormRstd(t, p, x.data(), g.data(), b.data(), 0.0f, out.data(), mean.data(),
                                  rstd.data(), stack.data(), 64));
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(x[i * 8 + 6], 0.0f);
    EXPECT_FALSE(std::signbit(x[i * 8 + 6]));
    EXPECT_TRUE(std::signbit(x[i * 8 + 7]));
    // Row i + {0..5}: sum = 6i + 15; "mean" = 0.25 * sum.
    EXPECT_EQ(mean[i], 0.25f * static_cast<float>(6 * i + 15)) << i;
  }
  // The tail's lengths are left in the tiling.
  EXPECT_EQ(t.arCurLength, 8u);
  EXPECT_EQ(t.aCurLength, 1u);
}

TEST(ReplayLayerNormRstd3510, MeanAndVarianceOfShortRows) {
  // [2, 8]: k2Rec = 1/64, k2RRec = 8: mean = tree(x / 64) * 8, exact here.
  ArPara p{2, 8, 8};
  SeparateTiling t{};
  t.rLength = 8;
  t.k2Rec = 1.0f / 64;
  t.k2RRec = 8.0f;
  std::vector<float> x{1, 2, 3, 4, 5, 6, 7, 8, 2, 2, 2, 2, 2, 2, 2, 2};
  std::vector<float> g(64, 1.0f), b(64, 0.0f), out(16), mean(2), rstd(2), stack(8);
  ASSERT_TRUE(ReplayLayerNormRstd3510(t, p, true, x.data(), g.data(), b.data(), 0.0f, out.data(),
                                      mean.data(), rstd.data(), stack.data()));
  EXPECT_EQ(mean[0], 4.5f);
  EXPECT_EQ(stack[0], 5.25f);  // the variance stays in the scratch
  EXPECT_EQ(mean[1], 2.0f);
  EXPECT_EQ(stack[1], 0.0f);
  EXPECT_EQ(rstd[1], INFINITY);
  t.rLength = 0;
  EXPECT_FALSE(ReplayLayerNormRstd3510(t, p, true, x.data(), g.data(), b.data(), 0.0f, out.data(),
                                       mean.data(), rstd.data(), stack.data()));
}

}  // namespace
}  // namespace lngrad_replay
