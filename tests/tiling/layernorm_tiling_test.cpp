// Forward LayerNorm host tiling. Expected numbers are worked out by hand from the formulas in
// docs/ascendc_compat.md ("Host tiling") (the toolkit's layernorm_tiling_impl.cpp); each case shows
// its arithmetic.
#include <gtest/gtest.h>

#include <bit>

#include "tiling_test_util.h"

namespace lngrad::tiling {
namespace {

using AscendC::tiling::LayerNormTiling;
using namespace testing;  // the tiling tests' helpers (tiling_test_util.h)

MaxMin GetMaxMin(const ge::Shape& shape, uint32_t typeSize, bool reuse) {
  return AgreeingMaxMin(
      [&](uint32_t& max, uint32_t& min) {
        return LayerNormMaxMinTmpSize(shape, typeSize, reuse, max, min);
      },
      [&](uint32_t& max, uint32_t& min) {
        AscendC::GetLayerNormMaxMinTmpSize(shape, typeSize, reuse, max, min);
      });
}

MaxMin GetRstdMaxMin(const ge::Shape& shape, uint32_t typeSize, bool computeRstd) {
  return AgreeingMaxMin(
      [&](uint32_t& max, uint32_t& min) {
        return LayerNormMaxMinTmpSize(shape, typeSize, false, computeRstd, false, max, min);
      },
      [&](uint32_t& max, uint32_t& min) {
        AscendC::GetLayerNormMaxMinTmpSize(shape, typeSize, false, computeRstd, false, max, min);
      });
}

LayerNormTiling GetTiling(const ge::Shape& shape, uint32_t stack, uint32_t typeSize, bool reuse) {
  const auto a = AgreeingTiling<LayerNormTiling>(
      [&](LayerNormTiling& t) { return LayerNormNDTilingInfo(shape, stack, typeSize, reuse, t); },
      [&](LayerNormTiling& t) {
        AscendC::GetLayerNormNDTilingInfo(shape, stack, typeSize, reuse, t);
      });
  optiling::LayerNormTiling host;
  AscendC::GetLayerNormNDTilingInfo(shape, stack, typeSize, reuse, host);
  auto c = Poisoned<LayerNormTiling>(0x22);
  host.SaveToBuffer(&c, sizeof(c));
  optiling::LayerNormTiling deprecated;
  AscendC::GetLayerNormNDTillingInfo(shape, stack, typeSize, reuse, deprecated);
  auto d = Poisoned<LayerNormTiling>(0x33);
  deprecated.SaveToBuffer(&d, sizeof(d));
  EXPECT_TRUE(SameBytes(a, c));
  EXPECT_TRUE(SameBytes(a, d));
  return a;
}

class LayerNormTilingTest : public Ascend910B1Test {};

TEST_F(LayerNormTilingTest, MaxMinBsh) {
  const MaxMinCase cases[] = {
      // [2,32,16,16]: mv = ceil32(64*4) = 256, in = ceil32(1024*4) = 4096,
      // row = ceil32(16*4) = 64.
      {{2, 32, 16, 16}, kFloat, false, {3u * 4096 + 2 * 256, 3u * 64 + 2 * 256}},  // 12800, 704
      {{2, 32, 16, 16}, kFloat, true, {2u * 4096 + 2 * 256, 2u * 64 + 2 * 256}},   // 8704, 640
      {{2, 32, 16, 16}, kHalf, true, {12800, 704}},  // reuse only matters for float
      // [1,3,8,8]: mv = ceil32(12) = 32, in = ceil32(96) = 96, row = 32.
      {{1, 3, 8, 8}, kFloat, false, {3u * 96 + 2 * 32, 3u * 32 + 2 * 32}},
  };
  ExpectMaxMins(GetMaxMin, cases);
}

// Every field of the tiling for one input, worked out by hand (each row shows its arithmetic).
struct LnExample {
  const char* name;
  std::vector<int64_t> dims;
  uint32_t stack, typeSize;
  bool reuse;
  LayerNormTiling expected;
  friend void PrintTo(const LnExample& e, std::ostream* os) { *os << e.name; }
};

// clang-format off
const LnExample kExamples[] = {
    // expected: bLength, sLength, hLength, originalHLength, inputXSize, meanVarSize,
    //   numberOfTmpBuf, meanTmpTensorPos, meanTmpTensorSize, varianceTmpTensorPos,
    //   varianceTmpTensorSize, tmpBufSize, oneTmpSize, firstTmpStartPos, secondTmpStartPos,
    //   thirdTmpStartPos, loopRound, inputRoundSize, inputTailSize, inputTailPos,
    //   meanVarRoundSize, meanVarTailSize, meanVarTailPos, bshCurLength, bsCurLength,
    //   lastDimValueBack
    //
    // 704 B = 176 floats; float keeps mean/var in the outputs (no staging): 176/3 = 58 -> 48.
    // 1024/48 = 21 rounds (1008), tail 16 = 1 row at row 63.
    {"FloatMinBufferHasATail", {2, 32, 16, 16}, 704, kFloat, false,
     {2, 32, 16, 16, 1024, 64, 3, 0, 64, 64, 64, 176, 48, 0, 48, 96, 21, 48, 16, 1008, 3, 1, 63,
      48, 3, 0.0625f}},
    // 176 floats - 2*ceil8(64) = 48 -> 48/3 = 16 = one row per round.
    {"HalfStagesMeanAndVarianceFirst", {2, 32, 16, 16}, 704, kHalf, false,
     {2, 32, 16, 16, 1024, 64, 3, 0, 64, 64, 64, 176, 16, 128, 144, 160, 64, 16, 0, 1024, 1, 0, 64,
      16, 1, 0.0625f}},
};
// clang-format on

class LayerNormExampleTest : public Ascend910B1ParamTest<LnExample> {};

TEST_P(LayerNormExampleTest, EveryField) {
  const LnExample& e = GetParam();
  ExpectFieldsEq(GetTiling(ge::Shape(e.dims), e.stack, e.typeSize, e.reuse), e.expected);
}

INSTANTIATE_TEST_SUITE_P(Spec, LayerNormExampleTest, ::testing::ValuesIn(kExamples), CaseName());

TEST_F(LayerNormTilingTest, FloatReuseUsesTwoBuffers) {
  // 640 B = 160 floats / 2 = 80 (5 rows); 1024 = 12*80 + 64.
  const LayerNormTiling t = GetTiling(ge::Shape({2, 32, 16, 16}), 640, kFloat, true);
  ExpectFields(t,
               "numberOfTmpBuf=2 tmpBufSize=160 oneTmpSize=80 firstTmpStartPos=0 "
               "secondTmpStartPos=80 thirdTmpStartPos=160 loopRound=12 inputTailSize=64 "
               "inputTailPos=960 meanVarRoundSize=5 meanVarTailSize=4 meanVarTailPos=60");
}

TEST_F(LayerNormTilingTest, ChunkClampedToInputAndOddOriginalH) {
  // 65536 B = 16384 floats / 3 = 5461 -> 5456 rows-of-8 -> clamped to B*S*H = 16.
  const LayerNormTiling t = GetTiling(ge::Shape({1, 2, 8, 6}), 65536, kFloat, false);
  // meanTmpTensorSize = ceil8(2).
  ExpectFields(t,
               "oneTmpSize=16 loopRound=1 inputTailSize=0 inputTailPos=16 meanVarRoundSize=2 "
               "meanVarTailPos=2 meanTmpTensorSize=8");
  // 1/6 in binary32: (1/3) * 2^-1 -> 0x3EAAAAAB - 0x00800000.
  EXPECT_EQ(std::bit_cast<uint32_t>(t.lastDimValueBack), 0x3E2AAAABu);
}

TEST_F(LayerNormTilingTest, RstdOverloadArch2201) {
  const MaxMinCase cases[] = {
      // [8, 64] float: R padded to 8 -> 64; mv = 32, row = 256; Normalize min = max(32, 2*256)
      // =
      // 512, max = 2*256 + 2*ceil32(8*64*4) = 4608; LayerNorm adds mv.
      {{8, 64}, kFloat, true, {4640, 544}},
      // half: Normalize min = max(32, 4*256) = 1024.
      {{8, 64}, kHalf, true, {4640, 1056}},
      // [3, 20] float: R -> 24, row = 96, mv = 32; min = max(32, 192) + 32; A padded to 8 for
      // max:
      // 2*96 + 2*ceil32(8*24*4) = 192 + 1536 -> 1728 + 32.
      {{3, 20}, kFloat, true, {1760, 224}},
      // [3, 20] half: R -> 32, row = 128; min = 4*128 + 32; max = 2*128 + 2*1024 + 32.
      {{3, 20}, kHalf, true, {2336, 544}},
  };
  ExpectMaxMins(GetRstdMaxMin, cases);
}

TEST_F(LayerNormTilingTest, RstdOverloadArch3510) {
  ScopedSoc soc("Ascend950PR_9599");
  const MaxMinCase cases[] = {
      // [8, 64]: one 64-lane chunk -> padded to 128 + A(8) = 136 floats; +A again without rstd.
      {{8, 64}, kFloat, true, {544, 544}},
      {{8, 64}, kHalf, false, {576, 576}},
      // [3, 200]: ceil64(200) = 256 -> 4 chunks -> 128 + 3 = 131 floats.
      {{3, 200}, kFloat, true, {kUnchecked, 524}},
  };
  ExpectMaxMins(GetRstdMaxMin, cases);
  // The [B,S,H] tiling has no product branch.
  EXPECT_EQ(GetMaxMin(ge::Shape({2, 32, 16, 16}), kFloat, false).max, 12800u);
}

class LayerNormTilingErrorTest : public Ascend910B1ParamTest<ErrorCase> {};

TEST_P(LayerNormTilingErrorTest, OutputsUntouchedAndReported) {
  const ErrorCase& c = GetParam();
  const ge::Shape shape(c.dims);
  ExpectMaxMinQuery(c, "[LayerNorm][GetLayerNormMaxMinTmpSize] ",
                    [&](uint32_t& max, uint32_t& min) {
                      return LayerNormMaxMinTmpSize(shape, c.typeSize, false, max, min);
                    });
  const std::string prefix = "[LayerNorm][GetLayerNormNDTilingInfo] ";
  ExpectPlainTilingRejected<LayerNormTiling>(
      c, prefix,
      [&](LayerNormTiling& t) {
        return LayerNormNDTilingInfo(shape, c.stack, c.typeSize, false, t);
      },
      [&](LayerNormTiling& t) {
        AscendC::GetLayerNormNDTilingInfo(shape, c.stack, c.typeSize, false, t);
      });
  optiling::LayerNormTiling host;
  host.set_loopRound(9);
  ExpectOptilingRejected(c, "[LayerNorm][GetLayerNormNDTillingInfo] ", host,
                         [&](optiling::LayerNormTiling& t) {
                           AscendC::GetLayerNormNDTillingInfo(shape, c.stack, c.typeSize, false, t);
                         });
  EXPECT_EQ(host.get_loopRound(), 9u);
}

constexpr StatusCode kInvalid = StatusCode::kInvalidArgument;

// clang-format off
const ErrorCase kErrorCases[] = {
    // LayerNorm checks the shape before the type size (the toolkit's order).
    {"ZeroDimBeforeTypeSize", {2, 0, 16, 16}, 8, 704, kInvalid,
     "Input Shape size must be greater than 0.", false},
    {"ThreeDimsBeforeTypeSize", {2, 32, 16}, 8, 704, kInvalid,
     "The dims of srcShape is 3, should be 4 (e.g. [B, S, storageHLength, originHLength])!", false},
    {"TypeSize8", {2, 32, 16, 16}, 8, 704, kInvalid, "Type size 8 is unsupported!", false},
    {"NegativePair", {2, 32, -16, -16}, 4, 704, kInvalid, "srcShape[2] must be greater than 0.",
     false},
    {"FloatBelowOneRowPerBuffer", {2, 32, 16, 16}, 4, 188, kInvalid,
     "stackBufferSize is not enough.", true},
    {"HalfBelowStaging", {2, 32, 16, 16}, 2, 400, kInvalid, "stackBufferSize is not enough.", true},
    {"HalfStagingButNoRow", {2, 32, 16, 16}, 2, 700, kInvalid, "stackBufferSize is not enough.",
     true},
};
// clang-format on

INSTANTIATE_TEST_SUITE_P(Cases, LayerNormTilingErrorTest, ::testing::ValuesIn(kErrorCases),
                         CaseName());

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
