// BatchNorm (lib/normalization/batchnorm.h) through the Ascend C API on Ascend910B1 and
// Ascend950PR_9599, half and float, both prototypes, isBasicBlock, column-chunk tails, against a
// float64 oracle of the documented formula with the bound of docs/ascendc_kernels.md; the
// checked refusals; the host tiling pinned field by field, GroupNorm's too.
#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "norm_ext_test_util.h"
#include "tiling/tiling_api.h"
#include "../aicore/sanitizer_off.h"

namespace {

using namespace AscendC;
using namespace norm_ext_test;

struct BnCase {
  uint32_t b, s, h;
  uint32_t stackBytes;  // 0: the maximum
  bool withTmp;
};

template <typename T, bool basic>
void CheckBatchNorm(const BnCase& c, const char* soc, uint32_t seed) {
  const uint32_t f = c.s * c.h, n = c.b * f, sz = sizeof(T);
  const std::vector<T> x = Random<T>(seed, n);
  const std::vector<T> gamma = Random<T>(seed + 1, c.b, 0.5f, 1.5f);
  const std::vector<T> beta = Random<T>(seed + 2, c.b);
  const T eps = T(1e-3f);
  uint32_t mx = 0, mn = 0;
  const ge::Shape shape({c.b, c.s, c.h});
  ASSERT_TRUE(GetBatchNormMaxMinTmpSize(shape, shape, sz, false, mx, mn, basic));
  const uint32_t stack = c.stackBytes == 0 ? mx : c.stackBytes;
  BatchNormTiling tiling;
  ASSERT_TRUE(GetBatchNormNDTilingInfo(shape, shape, stack, sz, false, tiling, basic));
  std::vector<T> y, mean, var;
  const std::string check = RunBlock(soc, [&] {
    Bufs u({n * sz, c.b * sz, c.b * sz, n * sz, f * sz, f * sz, std::max(stack, 8 * f)});
    u.Put(0, x);
    u.Put(1, gamma);
    u.Put(2, beta);
    BatchNormTiling t = tiling;
    if (c.withTmp) {
      BatchNorm<T, false, basic>(u.Get<T>(3), u.Get<T>(4), u.Get<T>(5), u.Get<T>(0), u.Get<T>(1),
                                 u.Get<T>(2), u.Get<uint8_t>(6), eps, t);
    } else {
      BatchNorm<T, false, basic>(u.Get<T>(3), u.Get<T>(4), u.Get<T>(5), u.Get<T>(0), u.Get<T>(1),
                                 u.Get<T>(2), eps, t);
    }
    y = u.Take<T>(3, n);
    mean = u.Take<T>(4, f);
    var = u.Take<T>(5, f);
  });
  ASSERT_EQ(check, "");
  ASSERT_EQ(y.size(), n);
  const double hu = std::is_same_v<T, half> ? kUh : 0.0;
  for (uint32_t j = 0; j < f; ++j) {
    double m = 0, a = 0;
    for (uint32_t r = 0; r < c.b; ++r) {
      m += D(x[r * f + j]);
      a = std::max(a, std::fabs(D(x[r * f + j])));
    }
    m /= c.b;
    double v = 0;
    for (uint32_t r = 0; r < c.b; ++r) v += (D(x[r * f + j]) - m) * (D(x[r * f + j]) - m);
    v /= c.b;
    const double lv = std::fabs(std::log(v + D(eps)));
    const double rstd = 1.0 / std::sqrt(v + D(eps));
    // Sequential sums of B terms: (B + 2) u of the magnitudes; E bounds the centred values.
    const double e = (c.b + 4) * kU * a;
    const std::string col = "col " + std::to_string(j);
    ExpectWithin(D(mean[j]), m, (c.b + 2) * kU * a + hu * std::fabs(m), "BatchNorm mean " + col);
    ExpectWithin(D(var[j]), v, 2 * std::sqrt(v) * e + e * e + (c.b + 3) * kU * v + hu * v,
                 "BatchNorm variance " + col);
    for (uint32_t r = 0; r < c.b; ++r) {
      const double cj = D(x[r * f + j]) - m;
      const double want = D(gamma[r]) * cj * rstd + D(beta[r]);
      // rstd through Ln/Exp: (6 + |ln(v + eps)|) u relative beyond the variance's error.
      const double vrel = (2 * std::sqrt(v) * e + e * e + (c.b + 3) * kU * v) / (v + D(eps));
      const double bound =
          std::fabs(D(gamma[r])) * rstd * (e + std::fabs(cj) * (vrel / 2 + (8 + lv) * kU)) +
          2 * kU * (std::fabs(want) + std::fabs(D(beta[r]))) + hu * std::fabs(want);
      ExpectWithin(D(y[r * f + j]), want, bound,
                   "BatchNorm y row " + std::to_string(r) + " " + col);
    }
    if (::testing::Test::HasFailure()) return;
  }
}

TEST(NormExtBatchNorm, FloatAndHalfOnBothArchs) {
  for (const char* soc : {k910B, k950, k310P}) {
    SCOPED_TRACE(soc);
    CheckBatchNorm<float, false>({4, 3, 40, 0, true}, soc, 1);
    // 3 float buffers of 4 rows x 48 columns: column chunks of 48, a tail of 24.
    CheckBatchNorm<float, false>({4, 3, 40, 4 * 3 * 4 * 48, true}, soc, 2);
    CheckBatchNorm<half, false>({6, 2, 48, 0, false}, soc, 3);
    CheckBatchNorm<half, false>({3, 5, 32, 4 * (2 * 160 + 3 * 3 * 48), true}, soc, 4);
    CheckBatchNorm<float, true>({8, 2, 64, 0, true}, soc, 5);
    CheckBatchNorm<half, true>({8, 1, 128, 0, false}, soc, 6);
  }
}

TEST(NormExtBatchNorm, CheckedRefusals) {
  const ge::Shape shape({4, 2, 32});
  BatchNormTiling t;
  ASSERT_TRUE(GetBatchNormNDTilingInfo(shape, shape, 4096, 4, false, t));
  auto run = [&](uint32_t tmpBytes, uint32_t xBytes) {
    return RunBlock(k910B, [&] {
      Bufs u({xBytes, 32, 32, 1024, 256, 256, tmpBytes});
      BatchNormTiling tt = t;
      BatchNorm<float>(u.Get<float>(3), u.Get<float>(4), u.Get<float>(5), u.Get<float>(0),
                       u.Get<float>(1), u.Get<float>(2), u.Get<uint8_t>(6), 1e-5f, tt);
    });
  };
  EXPECT_EQ(run(4096, 1024), "");
  EXPECT_EQ(run(1024, 1024), "BatchNorm.tmp_buffer");
  EXPECT_EQ(RunBlock(k310B,
                     [&] {
                       Bufs u({1024, 32, 32, 1024, 256, 256, 4096});
                       BatchNormTiling tt = t;
                       BatchNorm<float>(u.Get<float>(3), u.Get<float>(4), u.Get<float>(5),
                                        u.Get<float>(0), u.Get<float>(1), u.Get<float>(2),
                                        u.Get<uint8_t>(6), 1e-5f, tt);
                     }),
            "BatchNorm.unsupported_product");
  EXPECT_EQ(run(4096, 512), "BatchNorm.operand_bounds");
}

TEST(NormExtBatchNormTiling, FieldsPinned) {
  uint32_t mx = 0, mn = 0;
  const ge::Shape shape({4, 3, 40});
  ASSERT_TRUE(GetBatchNormMaxMinTmpSize(shape, shape, 4, false, mx, mn));
  EXPECT_EQ(mx, 3u * 1920 + 2 * 480);
  EXPECT_EQ(mn, 3u * 4 * 32 + 2 * 480);
  ASSERT_TRUE(GetBatchNormMaxMinTmpSize(shape, shape, 2, false, mx, mn));
  EXPECT_EQ(mn, 3u * 4 * 64 + 2 * 480);
  EXPECT_FALSE(GetBatchNormMaxMinTmpSize(shape, shape, 4, false, mx, mn, true));
  BatchNormTiling t;
  // float, 2304 bytes = 576 floats: 192 per buffer = 4 rows x 48 columns; 120 columns: 2 chunks
  // of 48 and a tail of 24.
  ASSERT_TRUE(GetBatchNormNDTilingInfo(shape, shape, 2304, 4, false, t));
  const uint32_t want[] = {4, 120, 0, 120, 576, 192, 0, 192, 384, 2, 96, 96, 24, 96, 192, 48};
  const uint32_t got[] = {
      t.originalBLength,  t.meanVarSize,    t.meanTmpTensorPos, t.varianceTmpTensorPos,
      t.tmpBufSize,       t.oneTmpSize,     t.firstTmpStartPos, t.secondTmpStartPos,
      t.thirdTmpStartPos, t.loopRound,      t.inputTailSize,    t.inputTailPos,
      t.meanVarTailSize,  t.meanVarTailPos, t.bshCurLength,     t.shCurLength};
  for (size_t i = 0; i < std::size(want); ++i) EXPECT_EQ(got[i], want[i]) << "field " << i;
  EXPECT_EQ(t.firstDimValueBack, 0.25f);
  EXPECT_EQ(t.castHalfRepStride, 4u);
  EXPECT_EQ(t.shCurLengthBlockNum, 6u);
  EXPECT_EQ(t.castHalfOutRepStride, 120u / 16);
  // half [4, 1, 80]: float mean/variance staged first (2 * ceil8(80) = 160), chunks of 16*B
  // floats: 544 floats give 128 per buffer, 32 columns; 80 columns: 2 chunks and a tail of 16.
  const ge::Shape half_shape({4, 1, 80});
  ASSERT_TRUE(GetBatchNormNDTilingInfo(half_shape, half_shape, 4 * 544, 2, false, t));
  EXPECT_EQ(t.firstTmpStartPos, 160u);
  EXPECT_EQ(t.oneTmpSize, 128u);
  EXPECT_EQ(t.shCurLength, 32u);
  EXPECT_EQ(t.loopRound, 2u);
  EXPECT_EQ(t.meanVarTailSize, 16u);
  EXPECT_FALSE(GetBatchNormNDTilingInfo(shape, shape, 4096, 2, false, t));  // 120 * 2 % 32 != 0
  optiling::BatchNormTiling o;
  ASSERT_TRUE(GetBatchNormNDTilingInfo(shape, shape, 2304, 4, false, o));
  EXPECT_EQ(o.get_shCurLength(), 48u);
  EXPECT_FALSE(GetBatchNormNDTilingInfo(shape, shape, 100, 4, false, t));
}

TEST(NormExtGroupNormTiling, FieldsPinned) {
  uint32_t mx = 0, mn = 0;
  // float [2, 6, 4, 5], 3 groups: HW 20 aligned to 24, d = 2, 48 per group; a small shape.
  const ge::Shape shape({2, 6, 4, 5});
  GetGroupNormMaxMinTmpSize(shape, 4, false, 3, mx, mn);
  EXPECT_EQ(mx, 3u * 2 * 6 * 96 + 2 * 32);
  EXPECT_EQ(mn, 3u * 2 * 96 + 2 * 32);
  GroupNormTiling t;
  GetGroupNormNDTilingInfo(shape, 4096, 4, false, 3, t);
  ASSERT_TRUE(lngrad::tiling::LastTilingStatus().ok());
  const uint32_t want[] = {2,    6,   20, 3,   2,   24, 48,  288, 6,   3, 0, 8, 8,   8,
                           1024, 288, 0,  288, 576, 1,  288, 0,   288, 6, 0, 6, 288, 6};
  const std::vector<uint32_t> got =
      WithNormLayoutFields({t.n, t.c, t.hw, t.g, t.d, t.hwAlignSize, t.dhwAlignSize}, t);
  for (size_t i = 0; i < std::size(want); ++i) EXPECT_EQ(got[i], want[i]) << "field " << i;
  EXPECT_EQ(t.factor, 1.0f / 40.0f);
  EXPECT_TRUE(t.smallShape);
  // float [1, 4, 16, 16], 2 groups: 512 per group, not small; one group per chunk.
  GetGroupNormNDTilingInfo(ge::Shape({1, 4, 16, 16}), 8192, 4, false, 2, t);
  EXPECT_FALSE(t.smallShape);
  EXPECT_EQ(t.bsCurLength, 1u);
  EXPECT_EQ(t.loopRound, 2u);
  EXPECT_EQ(t.factor, 1.0f / 512.0f);
  // half [2, 4, 3, 3], 2 groups: HW 9 aligned to 16, float mean/variance staged (2 * 8).
  optiling::GroupNormTiling o;
  GetGroupNormNDTilingInfo(ge::Shape({2, 4, 3, 3}), 1024, 2, false, 2, o);
  EXPECT_EQ(o.get_firstTmpStartPos(), 16u);
  EXPECT_EQ(o.get_oneTmpSize(), 64u);
  EXPECT_EQ(o.get_bsCurLength(), 2u);
  EXPECT_EQ(o.get_loopRound(), 2u);
  // The optiling image is the kernel struct, byte for byte (the bool at offset 116).
  GroupNormTiling plain;
  GetGroupNormNDTilingInfo(ge::Shape({2, 4, 3, 3}), 1024, 2, false, 2, plain);
  ASSERT_EQ(o.GetDataSize(), sizeof(GroupNormTiling));
  GroupNormTiling image;
  o.SaveToBuffer(&image, sizeof(image));
  const size_t used = offsetof(GroupNormTiling, smallShape) + 1;  // padding not compared
  EXPECT_EQ(used, 117u);
  EXPECT_EQ(std::memcmp(&image, &plain, used), 0);
  GetGroupNormMaxMinTmpSize(ge::Shape({2, 4, 3}), 4, false, 2, mx, mn);
  EXPECT_FALSE(lngrad::tiling::LastTilingStatus().ok());
}

}  // namespace
