// RmsNorm and DeepNorm (lib/normalization/{rmsnorm,deepnorm}.h) through the Ascend C API on
// Ascend910B1 (arch 2201) and Ascend950PR_9599 (arch 3510), half and float, both prototypes,
// isBasicBlock / isReuseSrc, shapes that are not the samples' (H not a multiple of 64, padded H,
// tail chunks), against float64 oracles written here from the documented formulas, with the
// bounds derived in docs/ascendc_kernels.md ("Normalization beyond LayerNorm"); the checked
// refusals; the host tiling pinned field by field.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "norm_ext_test_util.h"
#include "tiling/tiling_api.h"
#include "../aicore/sanitizer_off.h"

namespace {

using namespace AscendC;
using namespace norm_ext_test;

// ---- RmsNorm ---------------------------------------------------------------------------------

struct RmsCase {
  uint32_t b, s, h, oh;
  uint32_t stackBytes;  // what the tiling plans for (0: the maximum)
  bool withTmp;
};

template <typename T, bool basic>
void CheckRmsNorm(const RmsCase& c, const char* soc, uint32_t seed) {
  const uint32_t n = c.b * c.s * c.h;
  const std::vector<T> x = Random<T>(seed, n);
  const std::vector<T> g = Random<T>(seed + 1, c.h, 0.5f, 1.5f);
  const float eps = 1e-5f;
  uint32_t mx = 0, mn = 0;
  ASSERT_TRUE(GetRmsNormMaxMinTmpSize(ge::Shape({c.b, c.s, c.h}), sizeof(T), mx, mn, basic));
  const uint32_t stack = c.stackBytes == 0 ? mx : c.stackBytes;
  RmsNormTiling tiling;
  ASSERT_TRUE(GetRmsNormTilingInfo(ge::Shape({c.b, c.s, c.h}), ge::Shape({c.b, c.s, c.oh}), stack,
                                   sizeof(T), tiling, basic));
  std::vector<T> y;
  const std::string check = RunBlock(soc, [&] {
    Bufs u({n * uint32_t{sizeof(T)}, c.h * uint32_t{sizeof(T)}, n * uint32_t{sizeof(T)}, stack});
    u.Put(0, x);
    u.Put(1, g);
    if (c.withTmp) {
      RmsNorm<T, basic>(u.Get<T>(2), u.Get<T>(0), u.Get<T>(1), u.Get<uint8_t>(3), T(eps), tiling);
    } else {
      RmsNorm<T, basic>(u.Get<T>(2), u.Get<T>(0), u.Get<T>(1), T(eps), tiling);
    }
    y = u.Take<T>(2, n);
  });
  ASSERT_EQ(check, "");
  ASSERT_EQ(y.size(), n);
  const bool half_t = std::is_same_v<T, half>;
  const double e = half_t ? D(T(eps)) : eps;
  for (uint32_t r = 0; r < c.b * c.s; ++r) {
    double ss = 0;
    for (uint32_t j = 0; j < c.oh; ++j) ss += D(x[r * c.h + j]) * D(x[r * c.h + j]);
    const double v = ss / c.oh + e;
    // Float steps: the squares and the sum tree (depth), 1/H, +eps, Ln (absolute |ln v| u),
    // Exp, the two products: (depth + 8 + |ln v|) u relative; half adds the final rounding.
    const double rel =
        (Log2Ceil(c.oh) + 6 + c.h / 64 + 8 + std::fabs(std::log(v))) * kU + (half_t ? kUh : 0.0);
    for (uint32_t j = 0; j < c.oh; ++j) {
      const double want = D(x[r * c.h + j]) / std::sqrt(v) * D(g[j]);
      ExpectWithin(D(y[r * c.h + j]), want, rel * std::fabs(want) + 1e-30,
                   "RmsNorm row " + std::to_string(r) + " col " + std::to_string(j));
      if (::testing::Test::HasFailure()) return;
    }
  }
}

TEST(NormExtRmsNorm, FloatAndHalfOnBothArchs) {
  for (const char* soc : {k910B, k950, k310P}) {
    SCOPED_TRACE(soc);
    // H = 40 (not a multiple of 64), originalH 37, a buffer for 3 rows: tail chunk of 1 row.
    CheckRmsNorm<float, false>({2, 5, 40, 37, 4 * (3 * 40 + 8), true}, soc, 1);
    CheckRmsNorm<float, false>({1, 3, 200, 200, 0, false}, soc, 2);  // H > 64: two passes
    CheckRmsNorm<half, false>({3, 3, 48, 45, 4 * (2 * 2 * 48 + 8), true}, soc, 3);
    CheckRmsNorm<half, false>({1, 2, 144, 130, 0, false}, soc, 4);
    CheckRmsNorm<float, true>({2, 8, 128, 128, 0, true}, soc, 5);  // basic block
    CheckRmsNorm<half, true>({1, 8, 64, 64, 0, false}, soc, 6);
  }
}

TEST(NormExtRmsNorm, CheckedRefusals) {
  RmsNormTiling tiling;
  ASSERT_TRUE(GetRmsNormTilingInfo(ge::Shape({1, 4, 64}), ge::Shape({1, 4, 64}), 4096, 4, tiling));
  auto run = [&](uint32_t tmpBytes, uint32_t srcElems) {
    return RunBlock(k910B, [&] {
      Bufs u({srcElems * 4, 64 * 4, 256 * 4, tmpBytes});
      RmsNorm<float>(u.Get<float>(2), u.Get<float>(0), u.Get<float>(1), u.Get<uint8_t>(3), 1e-5f,
                     tiling);
    });
  };
  EXPECT_EQ(run(64, 256), "RmsNorm.tmp_buffer");
  EXPECT_EQ(RunBlock(k310B,
                     [&] {
                       Bufs u({1024, 256, 1024, 4096});
                       RmsNorm<float>(u.Get<float>(2), u.Get<float>(0), u.Get<float>(1),
                                      u.Get<uint8_t>(3), 1e-5f, tiling);
                     }),
            "RmsNorm.unsupported_product");
  EXPECT_EQ(run(4096, 128), "RmsNorm.operand_bounds");
  EXPECT_EQ(run(4096, 256), "");
}

TEST(NormExtRmsNormTiling, FieldsPinned) {
  RmsNormTiling t;
  // float [2, 3, 64], 576 bytes = 144 floats: 2 rows (2*64 + 8 = 136 <= 144 < 3*64 + 8).
  ASSERT_TRUE(GetRmsNormTilingInfo(ge::Shape({2, 3, 64}), ge::Shape({2, 3, 60}), 576, 4, t));
  EXPECT_EQ(t.bLength, 2u);
  EXPECT_EQ(t.sLength, 3u);
  EXPECT_EQ(t.hLength, 64u);
  EXPECT_EQ(t.originalHLength, 60u);
  EXPECT_EQ(t.reciprocalOfHLength, 1.0f / 60.0f);
  EXPECT_EQ(t.mainBshLength, 128u);
  EXPECT_EQ(t.mainBsLength, 2u);
  EXPECT_EQ(t.mainBsLengthAlign, 8u);
  EXPECT_EQ(t.loopRound, 3u);
  EXPECT_EQ(t.inputTailPos, 384u);
  EXPECT_EQ(t.tailBshLength, 0u);
  EXPECT_EQ(t.tailBsLength, 0u);
  // half [1, 5, 32], 544 bytes = 136 floats: 2 rows (2*32*2 + 8 = 136), tail of one row.
  ASSERT_TRUE(GetRmsNormTilingInfo(ge::Shape({1, 5, 32}), ge::Shape({1, 5, 32}), 544, 2, t));
  EXPECT_EQ(t.mainBshLength, 64u);
  EXPECT_EQ(t.mainBsLength, 2u);
  EXPECT_EQ(t.loopRound, 2u);
  EXPECT_EQ(t.tailBshLength, 32u);
  EXPECT_EQ(t.inputTailPos, 128u);
  EXPECT_EQ(t.tailBsLength, 1u);
  uint32_t mx = 0, mn = 0;
  ASSERT_TRUE(GetRmsNormMaxMinTmpSize(ge::Shape({4, 8, 64}), 4, mx, mn));
  EXPECT_EQ(mx, 4u * (2048 + 32));
  EXPECT_EQ(mn, 4u * (64 + 8));
  ASSERT_TRUE(GetRmsNormMaxMinTmpSize(ge::Shape({4, 8, 64}), 2, mx, mn));
  EXPECT_EQ(mx, 4u * (2 * 2048 + 32));
  EXPECT_EQ(mn, 4u * (2 * 64 + 8));
  EXPECT_FALSE(GetRmsNormMaxMinTmpSize(ge::Shape({1, 8, 96}), 4, mx, mn, true));
  EXPECT_FALSE(GetRmsNormTilingInfo(ge::Shape({1, 8, 64}), ge::Shape({1, 8, 64}), 100, 4, t));
  optiling::RmsNormTiling o;
  ASSERT_TRUE(GetRmsNormTilingInfo(ge::Shape({2, 3, 64}), ge::Shape({2, 3, 60}), 576, 4, o));
  EXPECT_EQ(o.get_mainBshLength(), 128u);
}

// ---- DeepNorm --------------------------------------------------------------------------------

struct DnCase {
  uint32_t b, s, h, oh;
  uint32_t stackBytes;  // 0: the maximum
  bool withTmp;
};

template <typename T, bool reuse, bool basic>
void CheckDeepNorm(const DnCase& c, const char* soc, uint32_t seed) {
  const uint32_t bs = c.b * c.s, n = bs * c.h;
  const std::vector<T> x = Random<T>(seed, n);
  const std::vector<T> gx = Random<T>(seed + 1, n);
  const std::vector<T> gamma = Random<T>(seed + 2, c.h, 0.5f, 1.5f);
  const std::vector<T> beta = Random<T>(seed + 3, c.h);
  const T alpha = T(1.75f), eps = T(1e-4f);
  uint32_t mx = 0, mn = 0;
  ASSERT_TRUE(
      GetDeepNormMaxMinTmpSize(ge::Shape({c.b, c.s, c.h}), sizeof(T), reuse, basic, mx, mn));
  const uint32_t stack = c.stackBytes == 0 ? mx : c.stackBytes;
  DeepNormTiling tiling;
  ASSERT_TRUE(GetDeepNormTilingInfo(ge::Shape({c.b, c.s, c.h}), ge::Shape({c.b, c.s, c.oh}), stack,
                                    sizeof(T), reuse, basic, tiling));
  std::vector<T> y, mean, var;
  const uint32_t sz = sizeof(T);
  const std::string check = RunBlock(soc, [&] {
    Bufs u({n * sz, n * sz, c.h * sz, c.h * sz, n * sz, bs * sz, bs * sz, stack});
    u.Put(0, x);
    u.Put(1, gx);
    u.Put(2, beta);
    u.Put(3, gamma);
    DeepNormTiling t = tiling;
    if (c.withTmp) {
      DeepNorm<T, reuse, basic>(u.Get<T>(4), u.Get<T>(5), u.Get<T>(6), u.Get<T>(0), u.Get<T>(1),
                                u.Get<T>(2), u.Get<T>(3), u.Get<uint8_t>(7), alpha, eps, t);
    } else {
      DeepNorm<T, reuse, basic>(u.Get<T>(4), u.Get<T>(5), u.Get<T>(6), u.Get<T>(0), u.Get<T>(1),
                                u.Get<T>(2), u.Get<T>(3), alpha, eps, t);
    }
    y = u.Take<T>(4, n);
    mean = u.Take<T>(5, bs);
    var = u.Take<T>(6, bs);
  });
  ASSERT_EQ(check, "");
  ASSERT_EQ(y.size(), n);
  const bool half_t = std::is_same_v<T, half>;
  const bool reg = std::string(soc) == k950;
  // The 3510 path reduces over hLength (padding included); 2201 over originalHLength.
  const uint32_t cols = reg ? c.h : c.oh;
  const double hu = half_t ? kUh : 0.0;
  const int depth = Log2Ceil(cols) + 6 + c.h / 64;
  for (uint32_t r = 0; r < bs; ++r) {
    std::vector<double> x1(cols);
    double a = 0, m = 0;
    for (uint32_t j = 0; j < cols; ++j) {
      x1[j] = D(gx[r * c.h + j]) + D(alpha) * D(x[r * c.h + j]);
      a = std::max(a, std::fabs(D(gx[r * c.h + j])) + std::fabs(D(alpha) * D(x[r * c.h + j])));
      m += x1[j];
    }
    m /= cols;
    double v = 0;
    for (double t : x1) v += (t - m) * (t - m);
    v /= cols;
    const double rstd = 1.0 / std::sqrt(v + D(eps));
    // E: absolute error of the centred values (x1's two roundings, the mean's tree).
    const double e = (depth + 8) * kU * a;
    const std::string row = "row " + std::to_string(r);
    ExpectWithin(D(mean[r]), m, (depth + 4) * kU * a + hu * std::fabs(m), "DeepNorm mean " + row);
    ExpectWithin(D(var[r]), v, 2 * std::sqrt(v) * e + e * e + (depth + 3) * kU * v + hu * v,
                 "DeepNorm variance " + row);
    for (uint32_t j = 0; j < cols; ++j) {
      const double cj = x1[j] - m;
      const double want = cj * rstd * D(gamma[j]) + D(beta[j]);
      const double bound = std::fabs(D(gamma[j])) * rstd *
                               (e + std::fabs(cj) * (e / std::sqrt(v) + (depth + 8) * kU)) +
                           2 * kU * (std::fabs(want) + std::fabs(D(beta[j]))) +
                           hu * std::fabs(want);
      ExpectWithin(D(y[r * c.h + j]), want, bound,
                   "DeepNorm y " + row + " col " + std::to_string(j));
    }
    if (::testing::Test::HasFailure()) return;
  }
}

TEST(NormExtDeepNorm, FloatAndHalfOnBothArchs) {
  for (const char* soc : {k910B, k950, k310P}) {
    SCOPED_TRACE(soc);
    CheckDeepNorm<float, false, false>({2, 3, 40, 40, 0, true}, soc, 11);
    // A buffer of 2 rows per chunk (3 float buffers of 2*40): chunks of 2 rows, tail of 1.
    CheckDeepNorm<float, false, false>({1, 5, 40, 40, 4 * (3 * 80 + 8), true}, soc, 12);
    CheckDeepNorm<float, false, false>({1, 3, 200, 200, 0, false}, soc, 13);
    CheckDeepNorm<half, false, false>({2, 3, 48, 48, 0, true}, soc, 15);
    CheckDeepNorm<float, false, true>({2, 8, 128, 128, 0, true}, soc, 16);
    CheckDeepNorm<half, false, true>({1, 8, 64, 64, 0, false}, soc, 17);
  }
  // Padded H (2201 reduces over originalH) and float isReuseSrc (x overwritten), 2201 only:
  // the 3510 path has neither.
  CheckDeepNorm<float, false, false>({2, 2, 48, 45, 0, true}, k910B, 18);
  CheckDeepNorm<float, true, false>({1, 5, 40, 40, 4 * (2 * 80 + 8), true}, k910B, 19);
}

TEST(NormExtDeepNorm, TailLeavesItsLengthsInTheTiling) {
  DeepNormTiling t;
  ASSERT_TRUE(GetDeepNormTilingInfo(ge::Shape({1, 5, 40}), ge::Shape({1, 5, 40}), 4 * (3 * 80 + 8),
                                    4, false, false, t));
  EXPECT_EQ(t.inputTailSize, 40u);
  RunBlock(k910B, [&] {
    Bufs u({800, 800, 160, 160, 800, 32, 32, 4 * (3 * 80 + 8)});
    DeepNorm<float>(u.Get<float>(4), u.Get<float>(5), u.Get<float>(6), u.Get<float>(0),
                    u.Get<float>(1), u.Get<float>(2), u.Get<float>(3), u.Get<uint8_t>(7), 1.0f,
                    1e-5f, t);
  });
  EXPECT_EQ(t.bshCurLength, 40u);
  EXPECT_EQ(t.bsCurLength, 1u);
}

TEST(NormExtDeepNorm, CheckedRefusals) {
  DeepNormTiling t;
  ASSERT_TRUE(GetDeepNormTilingInfo(ge::Shape({1, 8, 64}), ge::Shape({1, 8, 64}), 8192, 4, false,
                                    false, t));
  auto run = [&](DeepNormTiling tt, uint32_t tmpBytes) {
    return RunBlock(k910B, [&] {
      Bufs u({2048, 2048, 256, 256, 2048, 32, 32, tmpBytes});
      DeepNorm<float>(u.Get<float>(4), u.Get<float>(5), u.Get<float>(6), u.Get<float>(0),
                      u.Get<float>(1), u.Get<float>(2), u.Get<float>(3), u.Get<uint8_t>(7), 1.0f,
                      1e-5f, tt);
    });
  };
  EXPECT_EQ(run(t, 8192), "");
  EXPECT_EQ(run(t, 1024), "DeepNorm.tmp_buffer");
  EXPECT_EQ(RunBlock(k310B,
                     [&] {
                       Bufs u({2048, 2048, 256, 256, 2048, 32, 32, 8192});
                       DeepNorm<float>(u.Get<float>(4), u.Get<float>(5), u.Get<float>(6),
                                       u.Get<float>(0), u.Get<float>(1), u.Get<float>(2),
                                       u.Get<float>(3), u.Get<uint8_t>(7), 1.0f, 1e-5f, t);
                     }),
            "DeepNorm.unsupported_product");
  DeepNormTiling zero = t;
  zero.oneTmpSize = 0;
  EXPECT_EQ(run(zero, 8192), "DeepNorm.tiling");
}

TEST(NormExtDeepNormTiling, FieldsPinned) {
  uint32_t mx = 0, mn = 0;
  // The sample's shape: [4, 16, 64] float, basic block.
  ASSERT_TRUE(GetDeepNormMaxMinTmpSize(ge::Shape({4, 16, 64}), 4, false, true, mx, mn));
  EXPECT_EQ(mx, 3u * 16384 + 2 * 256);
  EXPECT_EQ(mn, 3u * 256 + 2 * 256);
  ASSERT_TRUE(GetDeepNormMaxMinTmpSize(ge::Shape({4, 16, 64}), 4, true, false, mx, mn));
  EXPECT_EQ(mx, 2u * 16384 + 2 * 256);
  DeepNormTiling t;
  ASSERT_TRUE(GetDeepNormTilingInfo(ge::Shape({4, 16, 64}), ge::Shape({4, 16, 64}), 1280, 4, false,
                                    true, t));
  const uint32_t want[] = {4, 16, 64,  64, 4096, 64, 3,    0, 64, 64, 64, 320, 64,
                           0, 64, 128, 64, 64,   0,  4096, 1, 0,  64, 64, 1};
  const std::vector<uint32_t> got =
      WithNormLayoutFields({t.bLength, t.sLength, t.hLength, t.originalHLength}, t);
  for (size_t i = 0; i < std::size(want); ++i) EXPECT_EQ(got[i], want[i]) << "field " << i;
  EXPECT_EQ(t.lastDimValueBack, 1.0f / 64.0f);
  // half [1, 3, 48]: float mean/variance staged at the front (2 * ceil8(3) = 16 floats).
  ASSERT_TRUE(GetDeepNormTilingInfo(ge::Shape({1, 3, 48}), ge::Shape({1, 3, 40}), 4 * (16 + 3 * 96),
                                    2, false, false, t));
  EXPECT_EQ(t.firstTmpStartPos, 16u);
  EXPECT_EQ(t.oneTmpSize, 96u);
  EXPECT_EQ(t.secondTmpStartPos, 112u);
  EXPECT_EQ(t.thirdTmpStartPos, 208u);
  EXPECT_EQ(t.loopRound, 1u);
  EXPECT_EQ(t.inputTailSize, 48u);
  EXPECT_EQ(t.meanVarTailPos, 2u);
  EXPECT_EQ(t.lastDimValueBack, 1.0f / 40.0f);
  EXPECT_FALSE(GetDeepNormMaxMinTmpSize(ge::Shape({1, 3, 2048}), 4, false, false, mx, mn));
  EXPECT_FALSE(
      GetDeepNormTilingInfo(ge::Shape({1, 8, 64}), ge::Shape({1, 8, 60}), 8192, 4, false, true, t));
}

}  // namespace
