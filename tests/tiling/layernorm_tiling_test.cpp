// Forward LayerNorm host tiling. Expected numbers are worked out by hand from the formulas in
// docs/ascendc_compat.md ("Host tiling") (the toolkit's layernorm_tiling_impl.cpp); each case shows
// its arithmetic.
#include <gtest/gtest.h>

#include <bit>

#include "tiling_test_util.h"

namespace lngrad::tiling {
namespace {

using AscendC::tiling::LayerNormTiling;
using testing::Contains;
using testing::ExpectFieldsEq;
using testing::Poisoned;
using testing::SameBytes;
using testing::ScopedSoc;

constexpr uint32_t kHalf = 2;
constexpr uint32_t kFloat = 4;

struct MaxMin {
  uint32_t max;
  uint32_t min;
};

MaxMin GetMaxMin(const ge::Shape& shape, uint32_t typeSize, bool reuse) {
  MaxMin a{1, 2};
  const Status s = LayerNormMaxMinTmpSize(shape, typeSize, reuse, a.max, a.min);
  EXPECT_TRUE(s.ok()) << s.ToString();
  MaxMin b{3, 4};
  AscendC::GetLayerNormMaxMinTmpSize(shape, typeSize, reuse, b.max, b.min);
  EXPECT_TRUE(LastTilingStatus().ok());
  EXPECT_EQ(a.max, b.max);
  EXPECT_EQ(a.min, b.min);
  return a;
}

MaxMin GetRstdMaxMin(const ge::Shape& shape, uint32_t typeSize, bool computeRstd) {
  MaxMin a{1, 2};
  const Status s = LayerNormMaxMinTmpSize(shape, typeSize, false, computeRstd, false, a.max, a.min);
  EXPECT_TRUE(s.ok()) << s.ToString();
  MaxMin b{3, 4};
  AscendC::GetLayerNormMaxMinTmpSize(shape, typeSize, false, computeRstd, false, b.max, b.min);
  EXPECT_TRUE(LastTilingStatus().ok());
  EXPECT_EQ(a.max, b.max);
  EXPECT_EQ(a.min, b.min);
  return a;
}

LayerNormTiling GetTiling(const ge::Shape& shape, uint32_t stack, uint32_t typeSize, bool reuse) {
  auto a = Poisoned<LayerNormTiling>();
  const Status s = LayerNormNDTilingInfo(shape, stack, typeSize, reuse, a);
  EXPECT_TRUE(s.ok()) << s.ToString();
  auto b = Poisoned<LayerNormTiling>(0x11);
  AscendC::GetLayerNormNDTilingInfo(shape, stack, typeSize, reuse, b);
  EXPECT_TRUE(LastTilingStatus().ok());
  optiling::LayerNormTiling host;
  AscendC::GetLayerNormNDTilingInfo(shape, stack, typeSize, reuse, host);
  auto c = Poisoned<LayerNormTiling>(0x22);
  host.SaveToBuffer(&c, sizeof(c));
  optiling::LayerNormTiling deprecated;
  AscendC::GetLayerNormNDTillingInfo(shape, stack, typeSize, reuse, deprecated);
  auto d = Poisoned<LayerNormTiling>(0x33);
  deprecated.SaveToBuffer(&d, sizeof(d));
  EXPECT_TRUE(SameBytes(a, b));
  EXPECT_TRUE(SameBytes(a, c));
  EXPECT_TRUE(SameBytes(a, d));
  return a;
}

class LayerNormTilingTest : public ::testing::Test {
 protected:
  ScopedSoc soc_{"Ascend910B1"};
};

TEST_F(LayerNormTilingTest, MaxMinBsh) {
  // [2,32,16,16]: mv = ceil32(64*4) = 256, in = ceil32(1024*4) = 4096, row = ceil32(16*4) = 64.
  const ge::Shape shape({2, 32, 16, 16});
  MaxMin m = GetMaxMin(shape, kFloat, false);
  EXPECT_EQ(m.max, 3u * 4096 + 2 * 256);  // 12800
  EXPECT_EQ(m.min, 3u * 64 + 2 * 256);    // 704
  m = GetMaxMin(shape, kFloat, true);
  EXPECT_EQ(m.max, 2u * 4096 + 2 * 256);  // 8704
  EXPECT_EQ(m.min, 2u * 64 + 2 * 256);    // 640
  m = GetMaxMin(shape, kHalf, true);      // reuse only matters for float
  EXPECT_EQ(m.max, 12800u);
  EXPECT_EQ(m.min, 704u);
  // [1,3,8,8]: mv = ceil32(12) = 32, in = ceil32(96) = 96, row = 32.
  m = GetMaxMin(ge::Shape({1, 3, 8, 8}), kFloat, false);
  EXPECT_EQ(m.max, 3u * 96 + 2 * 32);
  EXPECT_EQ(m.min, 3u * 32 + 2 * 32);
}

TEST_F(LayerNormTilingTest, FloatMinBufferHasATail) {
  // 704 B = 176 floats; float keeps mean/var in the outputs (no staging): 176/3 = 58 -> 48.
  // 1024/48 = 21 rounds (1008), tail 16 = 1 row at row 63.
  ExpectFieldsEq(GetTiling(ge::Shape({2, 32, 16, 16}), 704, kFloat, false),
                 {.bLength = 2,
                  .sLength = 32,
                  .hLength = 16,
                  .originalHLength = 16,
                  .inputXSize = 1024,
                  .meanVarSize = 64,
                  .numberOfTmpBuf = 3,
                  .meanTmpTensorPos = 0,
                  .meanTmpTensorSize = 64,
                  .varianceTmpTensorPos = 64,
                  .varianceTmpTensorSize = 64,
                  .tmpBufSize = 176,
                  .oneTmpSize = 48,
                  .firstTmpStartPos = 0,
                  .secondTmpStartPos = 48,
                  .thirdTmpStartPos = 96,
                  .loopRound = 21,
                  .inputRoundSize = 48,
                  .inputTailSize = 16,
                  .inputTailPos = 1008,
                  .meanVarRoundSize = 3,
                  .meanVarTailSize = 1,
                  .meanVarTailPos = 63,
                  .bshCurLength = 48,
                  .bsCurLength = 3,
                  .lastDimValueBack = 0.0625f});
}

TEST_F(LayerNormTilingTest, HalfStagesMeanAndVarianceFirst) {
  // 176 floats - 2*ceil8(64) = 48 -> 48/3 = 16 = one row per round.
  ExpectFieldsEq(GetTiling(ge::Shape({2, 32, 16, 16}), 704, kHalf, false),
                 {.bLength = 2,
                  .sLength = 32,
                  .hLength = 16,
                  .originalHLength = 16,
                  .inputXSize = 1024,
                  .meanVarSize = 64,
                  .numberOfTmpBuf = 3,
                  .meanTmpTensorPos = 0,
                  .meanTmpTensorSize = 64,
                  .varianceTmpTensorPos = 64,
                  .varianceTmpTensorSize = 64,
                  .tmpBufSize = 176,
                  .oneTmpSize = 16,
                  .firstTmpStartPos = 128,
                  .secondTmpStartPos = 144,
                  .thirdTmpStartPos = 160,
                  .loopRound = 64,
                  .inputRoundSize = 16,
                  .inputTailSize = 0,
                  .inputTailPos = 1024,
                  .meanVarRoundSize = 1,
                  .meanVarTailSize = 0,
                  .meanVarTailPos = 64,
                  .bshCurLength = 16,
                  .bsCurLength = 1,
                  .lastDimValueBack = 0.0625f});
}

TEST_F(LayerNormTilingTest, FloatReuseUsesTwoBuffers) {
  // 640 B = 160 floats / 2 = 80 (5 rows); 1024 = 12*80 + 64.
  const LayerNormTiling t = GetTiling(ge::Shape({2, 32, 16, 16}), 640, kFloat, true);
  EXPECT_EQ(t.numberOfTmpBuf, 2u);
  EXPECT_EQ(t.tmpBufSize, 160u);
  EXPECT_EQ(t.oneTmpSize, 80u);
  EXPECT_EQ(t.firstTmpStartPos, 0u);
  EXPECT_EQ(t.secondTmpStartPos, 80u);
  EXPECT_EQ(t.thirdTmpStartPos, 160u);
  EXPECT_EQ(t.loopRound, 12u);
  EXPECT_EQ(t.inputTailSize, 64u);
  EXPECT_EQ(t.inputTailPos, 960u);
  EXPECT_EQ(t.meanVarRoundSize, 5u);
  EXPECT_EQ(t.meanVarTailSize, 4u);
  EXPECT_EQ(t.meanVarTailPos, 60u);
}

TEST_F(LayerNormTilingTest, ChunkClampedToInputAndOddOriginalH) {
  // 65536 B = 16384 floats / 3 = 5461 -> 5456 rows-of-8 -> clamped to B*S*H = 16.
  const LayerNormTiling t = GetTiling(ge::Shape({1, 2, 8, 6}), 65536, kFloat, false);
  EXPECT_EQ(t.oneTmpSize, 16u);
  EXPECT_EQ(t.loopRound, 1u);
  EXPECT_EQ(t.inputTailSize, 0u);
  EXPECT_EQ(t.inputTailPos, 16u);
  EXPECT_EQ(t.meanVarRoundSize, 2u);
  EXPECT_EQ(t.meanVarTailPos, 2u);
  EXPECT_EQ(t.meanTmpTensorSize, 8u);  // ceil8(2)
  // 1/6 in binary32: (1/3) * 2^-1 -> 0x3EAAAAAB - 0x00800000.
  EXPECT_EQ(std::bit_cast<uint32_t>(t.lastDimValueBack), 0x3E2AAAABu);
}

TEST_F(LayerNormTilingTest, RstdOverloadArch2201) {
  // [8, 64] float: R padded to 8 -> 64; mv = 32, row = 256; Normalize min = max(32, 2*256) = 512,
  // max = 2*256 + 2*ceil32(8*64*4) = 4608; LayerNorm adds mv.
  MaxMin m = GetRstdMaxMin(ge::Shape({8, 64}), kFloat, true);
  EXPECT_EQ(m.min, 544u);
  EXPECT_EQ(m.max, 4640u);
  // half: Normalize min = max(32, 4*256) = 1024.
  m = GetRstdMaxMin(ge::Shape({8, 64}), kHalf, true);
  EXPECT_EQ(m.min, 1056u);
  EXPECT_EQ(m.max, 4640u);
  // [3, 20] float: R -> 24, row = 96, mv = 32; min = max(32, 192) + 32; A padded to 8 for max:
  // 2*96 + 2*ceil32(8*24*4) = 192 + 1536 -> 1728 + 32.
  m = GetRstdMaxMin(ge::Shape({3, 20}), kFloat, true);
  EXPECT_EQ(m.min, 224u);
  EXPECT_EQ(m.max, 1760u);
  // [3, 20] half: R -> 32, row = 128; min = 4*128 + 32; max = 2*128 + 2*1024 + 32.
  m = GetRstdMaxMin(ge::Shape({3, 20}), kHalf, true);
  EXPECT_EQ(m.min, 544u);
  EXPECT_EQ(m.max, 2336u);
}

TEST_F(LayerNormTilingTest, RstdOverloadArch3510) {
  ScopedSoc soc("Ascend950PR_9599");
  // [8, 64]: one 64-lane chunk -> padded to 128 + A(8) = 136 floats; +A again without rstd.
  MaxMin m = GetRstdMaxMin(ge::Shape({8, 64}), kFloat, true);
  EXPECT_EQ(m.min, 544u);
  EXPECT_EQ(m.max, 544u);
  m = GetRstdMaxMin(ge::Shape({8, 64}), kHalf, false);
  EXPECT_EQ(m.min, 576u);
  EXPECT_EQ(m.max, 576u);
  // [3, 200]: ceil64(200) = 256 -> 4 chunks -> 128 + 3 = 131 floats.
  m = GetRstdMaxMin(ge::Shape({3, 200}), kFloat, true);
  EXPECT_EQ(m.min, 524u);
  // The [B,S,H] tiling has no product branch.
  EXPECT_EQ(GetMaxMin(ge::Shape({2, 32, 16, 16}), kFloat, false).max, 12800u);
}

struct LnErrorCase {
  const char* name;
  std::vector<int64_t> dims;
  uint32_t typeSize;
  uint32_t stack;
  StatusCode code;
  const char* message;
  bool tiling_only;
  friend void PrintTo(const LnErrorCase& c, std::ostream* os) { *os << c.name; }
};

class LayerNormTilingErrorTest : public ::testing::TestWithParam<LnErrorCase> {
 protected:
  ScopedSoc soc_{"Ascend910B1"};
};

TEST_P(LayerNormTilingErrorTest, OutputsUntouchedAndReported) {
  const LnErrorCase& c = GetParam();
  const ge::Shape shape(c.dims);
  uint32_t max = 111;
  uint32_t min = 222;
  const Status ms = LayerNormMaxMinTmpSize(shape, c.typeSize, false, max, min);
  if (c.tiling_only) {
    EXPECT_TRUE(ms.ok()) << ms.ToString();
  } else {
    EXPECT_EQ(ms.code(), c.code);
    EXPECT_TRUE(
        Contains(ms.message(), std::string("[LayerNorm][GetLayerNormMaxMinTmpSize] ") + c.message))
        << ms.message();
    EXPECT_EQ(max, 111u);
    EXPECT_EQ(min, 222u);
  }
  const std::string prefix = "[LayerNorm][GetLayerNormNDTilingInfo] ";
  auto plain = Poisoned<LayerNormTiling>();
  const Status ts = LayerNormNDTilingInfo(shape, c.stack, c.typeSize, false, plain);
  EXPECT_EQ(ts.code(), c.code);
  EXPECT_TRUE(Contains(ts.message(), prefix + c.message)) << ts.message();
  EXPECT_TRUE(SameBytes(plain, Poisoned<LayerNormTiling>()));
  ::testing::internal::CaptureStderr();
  AscendC::GetLayerNormNDTilingInfo(shape, c.stack, c.typeSize, false, plain);
  EXPECT_TRUE(Contains(::testing::internal::GetCapturedStderr(), prefix + c.message));
  EXPECT_TRUE(SameBytes(plain, Poisoned<LayerNormTiling>()));
  EXPECT_EQ(LastTilingStatus().code(), c.code);
  optiling::LayerNormTiling host;
  host.set_loopRound(9);
  ::testing::internal::CaptureStderr();
  AscendC::GetLayerNormNDTillingInfo(shape, c.stack, c.typeSize, false, host);
  EXPECT_TRUE(Contains(::testing::internal::GetCapturedStderr(),
                       std::string("[LayerNorm][GetLayerNormNDTillingInfo] ") + c.message));
  EXPECT_EQ(host.get_loopRound(), 9u);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, LayerNormTilingErrorTest,
    ::testing::Values(
        // LayerNorm checks the shape before the type size (the toolkit's order).
        LnErrorCase{"ZeroDimBeforeTypeSize",
                    {2, 0, 16, 16},
                    8,
                    704,
                    StatusCode::kInvalidArgument,
                    "Input Shape size must be greater than 0.",
                    false},
        LnErrorCase{
            "ThreeDimsBeforeTypeSize",
            {2, 32, 16},
            8,
            704,
            StatusCode::kInvalidArgument,
            "The dims of srcShape is 3, should be 4 (e.g. [B, S, storageHLength, originHLength])!",
            false},
        LnErrorCase{"TypeSize8",
                    {2, 32, 16, 16},
                    8,
                    704,
                    StatusCode::kInvalidArgument,
                    "Type size 8 is unsupported!",
                    false},
        LnErrorCase{"NegativePair",
                    {2, 32, -16, -16},
                    4,
                    704,
                    StatusCode::kInvalidArgument,
                    "srcShape[2] must be greater than 0.",
                    false},
        LnErrorCase{"FloatBelowOneRowPerBuffer",
                    {2, 32, 16, 16},
                    4,
                    188,
                    StatusCode::kInvalidArgument,
                    "stackBufferSize is not enough.",
                    true},
        LnErrorCase{"HalfBelowStaging",
                    {2, 32, 16, 16},
                    2,
                    400,
                    StatusCode::kInvalidArgument,
                    "stackBufferSize is not enough.",
                    true},
        LnErrorCase{"HalfStagingButNoRow",
                    {2, 32, 16, 16},
                    2,
                    700,
                    StatusCode::kInvalidArgument,
                    "stackBufferSize is not enough.",
                    true}),
    [](const ::testing::TestParamInfo<LnErrorCase>& info) { return std::string(info.param.name); });

TEST_F(LayerNormTilingTest, RstdOverloadErrors) {
  uint32_t max = 1;
  uint32_t min = 2;
  const auto expect_error = [&](const ge::Shape& shape, uint32_t ts, bool rstd, bool only,
                                StatusCode code, const char* msg) {
    const Status s = LayerNormMaxMinTmpSize(shape, ts, false, rstd, only, max, min);
    EXPECT_EQ(s.code(), code) << msg;
    EXPECT_TRUE(Contains(s.message(), std::string("[LayerNorm][GetLayerNormMaxMinTmpSize] ") + msg))
        << s.message();
    ::testing::internal::CaptureStderr();
    AscendC::GetLayerNormMaxMinTmpSize(shape, ts, false, rstd, only, max, min);
    EXPECT_TRUE(Contains(::testing::internal::GetCapturedStderr(), msg));
    EXPECT_EQ(LastTilingStatus().code(), code);
    EXPECT_EQ(max, 1u);
    EXPECT_EQ(min, 2u);
  };
  expect_error(ge::Shape({8, 64}), 0, true, false, StatusCode::kInvalidArgument,
               "typeSize can not be 0!");
  expect_error(ge::Shape({8, 64}), 4, true, true, StatusCode::kInvalidArgument,
               "isOnlyOutput current only support false.");
  expect_error(ge::Shape({8, 64}), 8, true, false, StatusCode::kInvalidArgument,
               "Type size 8 is unsupported!");
  expect_error(ge::Shape({8, 0}), 4, true, false, StatusCode::kInvalidArgument,
               "Input Shape size must be greater than 0.");
  expect_error(ge::Shape({2, 8, 64}), 4, true, false, StatusCode::kInvalidArgument,
               "The dims of srcShape is 3, should be 2 ([A, R])");
  expect_error(ge::Shape({-8, -64}), 4, true, false, StatusCode::kInvalidArgument,
               "srcShape[0] must be greater than 0.");
  expect_error(ge::Shape({8, 64}), 4, false, false, StatusCode::kUnsupported,
               "isComputeRstd current only support true");
}

TEST_F(LayerNormTilingTest, UnsupportedProductRefused) {
  ScopedSoc scoped("Ascend910PremiumA");
  auto t = Poisoned<LayerNormTiling>();
  const Status s = LayerNormNDTilingInfo(ge::Shape({2, 32, 16, 16}), 704, kFloat, false, t);
  EXPECT_EQ(s.code(), StatusCode::kUnsupported);
  EXPECT_TRUE(Contains(s.message(), "LayerNorm is not supported on Ascend910PremiumA"))
      << s.message();
  EXPECT_TRUE(SameBytes(t, Poisoned<LayerNormTiling>()));
}

}  // namespace
}  // namespace lngrad::tiling
