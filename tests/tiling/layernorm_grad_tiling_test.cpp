// LayerNormGrad host tiling: every field of the spec's worked examples (§2.7), the 3510 branch,
// the three entry points agreeing byte for byte, and every error case.
#include <gtest/gtest.h>

#include <bit>

#include "tiling_test_util.h"

namespace lngrad::tiling {
namespace {

using AscendC::tiling::LayerNormGradTiling;
using namespace testing;  // the tiling tests' helpers (tiling_test_util.h)

MaxMin GetMaxMin(const ge::Shape& shape, uint32_t typeSize, bool reuse) {
  return AgreeingMaxMin(
      [&](uint32_t& max, uint32_t& min) {
        return LayerNormGradMaxMinTmpSize(shape, typeSize, reuse, max, min);
      },
      [&](uint32_t& max, uint32_t& min) {
        AscendC::GetLayerNormGradMaxMinTmpSize(shape, typeSize, reuse, max, min);
      });
}

// Runs the Status variant and both official overloads; all three must give the same bytes.
LayerNormGradTiling GetTiling(const ge::Shape& shape, uint32_t stack, uint32_t typeSize,
                              bool reuse) {
  const auto a = AgreeingTiling<LayerNormGradTiling>(
      [&](LayerNormGradTiling& t) {
        return LayerNormGradNDTilingInfo(shape, stack, typeSize, reuse, t);
      },
      [&](LayerNormGradTiling& t) {
        AscendC::GetLayerNormGradNDTilingInfo(shape, stack, typeSize, reuse, t);
      });
  optiling::LayerNormGradTiling host;
  AscendC::GetLayerNormGradNDTilingInfo(shape, stack, typeSize, reuse, host);
  EXPECT_TRUE(LastTilingStatus().ok());
  auto c = Poisoned<LayerNormGradTiling>(0x22);
  host.SaveToBuffer(&c, sizeof(c));
  EXPECT_TRUE(LastTilingStatus().ok());
  EXPECT_TRUE(SameBytes(a, c));
  EXPECT_EQ(host.get_oneCalSize(), a.oneCalSize);
  EXPECT_EQ(host.get_lastDimValueBackMulTwo(), a.lastDimValueBackMulTwo);
  return a;
}

// Float bit patterns, written out by hand: 2^-k has exponent field 127-k.
constexpr uint32_t kOneEighth = 0x3E000000;     // 0.125
constexpr uint32_t kOneQuarter = 0x3E800000;    // 0.25
constexpr uint32_t kOneSixteenth = 0x3D800000;  // 0.0625
constexpr uint32_t kOne32nd = 0x3D000000;       // 0.03125
constexpr uint32_t kOne64th = 0x3C800000;       // 0.015625

class LayerNormGradTilingTest : public Ascend910B1Test {};

// A worked example (spec §2.7): the inputs, then every field of the expected tiling. B, S, H,
// original H and stackBufferSize are the inputs'; every size field equals oneCalSize (spec §2.1),
// so an example spells out the positions only.
struct GradExample {
  const char* name;
  const char* soc;
  std::vector<int64_t> dims;
  uint32_t stack, typeSize;
  bool reuse;
  MaxMin max_min;  // the sizes query for this shape and type, or kUnchecked
  uint32_t oneCalSize, nohCalSize, loopNum, tailSize, nohTailSize;
  uint32_t pos[9];  // tmpTensorBSH, pdVar, pdMean, x1, x2, x3, tmp, tmp1, tmp2
  uint32_t lastDimValueBack, lastDimValueBackMulTwo;
  uint32_t scratch_floats;  // LayerNormGradScratchFloats, or kUnchecked
  bool same_with_reuse;     // isReuseSource gives the same bytes (half ignores it)
  friend void PrintTo(const GradExample& e, std::ostream* os) { *os << e.name; }
};

LayerNormGradTiling Expected(const GradExample& e) {
  return ExpectedGradTiling(e.dims, e.stack, e.oneCalSize, e.nohCalSize,
                            {e.loopNum, e.tailSize, e.nohTailSize}, e.pos, e.lastDimValueBack,
                            e.lastDimValueBackMulTwo);
}

constexpr MaxMin kNoMaxMin{kUnchecked, kUnchecked};

// clang-format off
const GradExample kExamples[] = {
    // E1: [2,32,16,16] (the official sample shape). The min buffer fits exactly (6144 B).
    {"E1FloatMinBuffer", "Ascend910B1", {2, 32, 16, 16}, 6144, kFloat, false, kNoMaxMin,
     256, 16, 4, 0, 0, {0, 256, 512, 768, 1024, 1280, 0, 0, 0}, kOneSixteenth, kOneEighth,
     1536, false},
    {"E1FloatMaxBuffer", "Ascend910B1", {2, 32, 16, 16}, 24576, kFloat, false, kNoMaxMin,
     1024, 64, 1, 0, 0, {0, 1024, 2048, 3072, 4096, 5120, 0, 0, 0}, kOneSixteenth, kOneEighth,
     kUnchecked, false},
    {"E1FloatReuse", "Ascend910B1", {2, 32, 16, 16}, 4096, kFloat, true, kNoMaxMin,
     256, 16, 4, 0, 0, {0, 256, 512, 0, 0, 768, 0, 0, 0}, kOneSixteenth, kOneEighth,
     1024, false},
    // raw oneCalSize 128 (8 rows) -> rows rounded up to 16 (spec §2.8 hazard): the kernel
    // touches 9216 B > 4608 B. half ignores isReuseSource.
    {"E1HalfMinBufferRoundsRowsUpPastTheScratch", "Ascend910B1", {2, 32, 16, 16}, 4608, kHalf,
     false, kNoMaxMin,
     256, 16, 4, 0, 0, {0, 256, 512, 768, 1024, 1280, 1536, 1792, 2048}, kOneSixteenth, kOneEighth,
     9216 / 4, true},
    // E2: [1,8,8,8] float.
    {"E2", "Ascend910B1", {1, 8, 8, 8}, 1536, kFloat, false, {1536, 1536},
     64, 8, 1, 0, 0, {0, 64, 128, 192, 256, 320, 0, 0, 0}, kOneEighth, kOneQuarter,
     kUnchecked, false},
    // E3: [4,16,64,64] half; 73728 B fits exactly.
    {"E3", "Ascend910B1", {4, 16, 64, 64}, 73728, kHalf, false, {73728, 73728},
     2048, 32, 2, 0, 0, {0, 2048, 4096, 6144, 8192, 10240, 12288, 14336, 16384}, kOne64th, kOne32nd,
     18432, false},
    // E4: the documentation's tiling example [2,16,64,64] half.
    {"E4", "Ascend910B1", {2, 16, 64, 64}, 36864, kHalf, false, {73728, 36864},
     1024, 16, 2, 0, 0, {0, 1024, 2048, 3072, 4096, 5120, 6144, 7168, 8192}, kOne64th, kOne32nd,
     kUnchecked, false},
    // E5: [2,16,32,32] float.
    {"E5", "Ascend910B1", {2, 16, 32, 32}, 24576, kFloat, false, {24576, 24576},
     1024, 32, 1, 0, 0, {0, 1024, 2048, 3072, 4096, 5120, 0, 0, 0}, kOne32nd, kOneSixteenth,
     kUnchecked, false},
};

// 3510 (Atlas 350 maps to it as well): one element per step, buffers at 0..5.
const GradExample kArch3510Float =
    {"Arch3510Float", "Ascend350_354f", {2, 32, 16, 16}, 128, kFloat, false, kNoMaxMin,
     1, 1, 1024, 0, 0, {0, 1, 2, 3, 4, 5, 0, 0, 0}, kOneSixteenth, kOneEighth,
     32, false};
// clang-format on

class LayerNormGradExampleTest : public ::testing::TestWithParam<GradExample> {};

TEST_P(LayerNormGradExampleTest, EveryField) {
  const GradExample& e = GetParam();
  ScopedSoc soc(e.soc);
  const ge::Shape shape(e.dims);
  if (e.max_min.max != kUnchecked) {
    const MaxMin m = GetMaxMin(shape, e.typeSize, e.reuse);
    EXPECT_EQ(m.max, e.max_min.max);
    EXPECT_EQ(m.min, e.max_min.min);
  }
  const LayerNormGradTiling t = GetTiling(shape, e.stack, e.typeSize, e.reuse);
  ExpectFieldsEq(t, Expected(e));
  if (e.scratch_floats != kUnchecked) {
    EXPECT_EQ(LayerNormGradScratchFloats(t, e.typeSize, e.reuse), e.scratch_floats);
  }
  if (e.same_with_reuse) {
    EXPECT_TRUE(SameBytes(GetTiling(shape, e.stack, e.typeSize, true), t));
  }
}

INSTANTIATE_TEST_SUITE_P(Spec, LayerNormGradExampleTest, ::testing::ValuesIn(kExamples),
                         CaseName());

// ---- further checks of the examples' shapes ----

TEST_F(LayerNormGradTilingTest, E1FloatMaxMin) {
  const MaxMinCase cases[] = {{{2, 32, 16, 16}, kFloat, false, {24576, 6144}},
                              {{2, 32, 16, 16}, kFloat, true, {16384, 4096}}};
  ExpectMaxMins(GetMaxMin, cases);
}

TEST_F(LayerNormGradTilingTest, E1HalfMaxMin) {
  // isReuseSource has no effect for half.
  const MaxMinCase cases[] = {{{2, 32, 16, 16}, kHalf, false, {18432, 4608}},
                              {{2, 32, 16, 16}, kHalf, true, {18432, 4608}}};
  ExpectMaxMins(GetMaxMin, cases);
}

TEST_F(LayerNormGradTilingTest, E1HalfMaxBuffer) {
  const LayerNormGradTiling t = GetTiling(ge::Shape({2, 32, 16, 16}), 18432, kHalf, false);
  ExpectFields(t, "oneCalSize=512 nohCalSize=32 loopNum=2 tailSize=0 tmpTensor2Pos=4096");
  EXPECT_EQ(LayerNormGradScratchFloats(t, kHalf, false), 4608u);  // 18432 B: fits
}

TEST_F(LayerNormGradTilingTest, E2Stack300RoundsUpToAWholeBlockOfRows) {
  // raw 300/4/6 = 12 -> 8 (one row) -> rows rounded to 8 -> 64 floats per buffer.
  const LayerNormGradTiling t = GetTiling(ge::Shape({1, 8, 8, 8}), 300, kFloat, false);
  ExpectFields(t, "stackBufferSize=300 oneCalSize=64 nohCalSize=8 loopNum=1");
  EXPECT_EQ(LayerNormGradScratchFloats(t, kFloat, false) * 4, 1536u);  // needs 1536 B > 300
}

// ---- beyond the worked examples ----

TEST_F(LayerNormGradTilingTest, TailAndNonPowerOfTwoH) {
  // [1,3,24,24] float with room for 8 rows: B*S*H = 72, one block of 8 rows = 192 floats,
  // so one loop is too big: loopNum 0, the whole input is the tail.
  const LayerNormGradTiling t = GetTiling(ge::Shape({1, 3, 24, 24}), 6 * 192 * 4, kFloat, false);
  ExpectFields(t, "oneCalSize=192 nohCalSize=8 loopNum=0 tailSize=72 nohTailSize=3");
  // 1/24 = (1/3)*2^-3 and 2/24 = (1/3)*2^-2, with 1/3 = 0x3EAAAAAB in binary32.
  EXPECT_EQ(t.lastDimValueBack, 0x3D2AAAABu);
  EXPECT_EQ(t.lastDimValueBackMulTwo, 0x3DAAAAABu);

  // [5,7,16,16] float, 16 rows per loop: 35 rows = 2 loops of 16 + a tail of 3 rows.
  const LayerNormGradTiling u = GetTiling(ge::Shape({5, 7, 16, 16}), 6 * 256 * 4, kFloat, false);
  ExpectFields(u, "oneCalSize=256 loopNum=2 tailSize=48 nohTailSize=3");
}

TEST_F(LayerNormGradTilingTest, OriginalHOnlyFeedsTheConstants) {
  // storage H 16, original H 10: strides use 16, 1/N and 2/N use 10.
  const LayerNormGradTiling t = GetTiling(ge::Shape({2, 32, 16, 10}), 6144, kFloat, false);
  ExpectFields(t, "hLength=16 originalHLength=10 oneCalSize=256");
  // 1/10 in binary32 is 0x3DCCCCCD, 2/10 = 1/5 is 0x3E4CCCCD (exponent one higher).
  EXPECT_EQ(t.lastDimValueBack, 0x3DCCCCCDu);
  EXPECT_EQ(t.lastDimValueBackMulTwo, 0x3E4CCCCDu);
}

TEST_F(LayerNormGradTilingTest, Arch2002UsesTheSameFormulas) {
  ScopedSoc soc("Ascend310P3");
  const MaxMin m = GetMaxMin(ge::Shape({2, 32, 16, 16}), kFloat, false);
  EXPECT_EQ(m.max, 24576u);
  EXPECT_EQ(m.min, 6144u);
  EXPECT_EQ(GetTiling(ge::Shape({2, 32, 16, 16}), 6144, kFloat, false).oneCalSize, 256u);
}

// ---- 3510 branch ----

TEST_F(LayerNormGradTilingTest, Arch3510MaxMin) {
  ScopedSoc soc("Ascend950PR_9599");
  const MaxMinCase cases[] = {
      {{2, 32, 16, 16}, kFloat, false, {128, 128}},  // 2 rows * 16 floats * 4 B
      {{2, 32, 16, 16}, kHalf, false, {128, 128}},
      {{2, 32, 16, 16}, kHalf, true, {128, kUnchecked}},
      {{2, 32, 16, 16}, kFloat, true, {0, 0}},
      // H rounded up to 8 floats: H = 20 (storage) -> 24.
      {{1, 2, 20, 20}, kFloat, false, {2u * 24u * 4u, kUnchecked}},
  };
  ExpectMaxMins(GetMaxMin, cases);
}

TEST_F(LayerNormGradTilingTest, Arch3510TilingIsOneElementPerStep) {
  ScopedSoc soc("Ascend350_354f");  // Atlas 350 maps to arch 3510 as well
  const GradExample& e = kArch3510Float;
  const LayerNormGradTiling f = GetTiling(ge::Shape(e.dims), e.stack, e.typeSize, e.reuse);
  ExpectFieldsEq(f, Expected(e));
  EXPECT_EQ(LayerNormGradScratchFloats(f, kFloat, false), e.scratch_floats);

  const LayerNormGradTiling h = GetTiling(ge::Shape({2, 32, 16, 16}), 128, kHalf, false);
  ExpectFields(h, "x3TensorPos=5 tmpTensorPos=6 tmpTensor1Pos=7 tmpTensor2Pos=8 tmpTensor2Size=1");

  // float+reuse: no scratch at all, any stack size (even 0) is accepted.
  const LayerNormGradTiling r = GetTiling(ge::Shape({2, 32, 16, 16}), 0, kFloat, true);
  EXPECT_EQ(r.stackBufferSize, 0u);
  EXPECT_EQ(r.x1TensorPos, 0u);
  EXPECT_EQ(r.x2TensorPos, 0u);
  EXPECT_EQ(r.x3TensorPos, 3u);
  EXPECT_EQ(r.loopNum, 1024u);
  EXPECT_EQ(LayerNormGradScratchFloats(r, kFloat, true), 0u);
}

// ---- errors: device message, outputs untouched, Status and LastTilingStatus ----

class LayerNormGradTilingErrorTest : public Ascend910B1ParamTest<ErrorCase> {};

TEST_P(LayerNormGradTilingErrorTest, MaxMinLeavesOutputsAndReports) {
  const ErrorCase& c = GetParam();
  const ge::Shape shape(c.dims);
  uint32_t max = 111;
  uint32_t min = 222;
  if (c.tiling_only) {
    // A buffer-size error belongs to the tiling call only; the sizes query succeeds.
    EXPECT_TRUE(LayerNormGradMaxMinTmpSize(shape, c.typeSize, false, max, min).ok());
    EXPECT_NE(max, 111u);
    return;
  }
  const Status s = LayerNormGradMaxMinTmpSize(shape, c.typeSize, false, max, min);
  const std::string prefix = "[LayerNormGrad][GetLayerNormGradMaxMinTmpSize] ";
  ExpectMaxMinRejected(c, s, prefix, max, min);

  ::testing::internal::CaptureStderr();
  AscendC::GetLayerNormGradMaxMinTmpSize(shape, c.typeSize, false, max, min);
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_TRUE(Contains(err, prefix + c.message)) << err;
  EXPECT_EQ(max, 111u);
  EXPECT_EQ(min, 222u);
  EXPECT_EQ(LastTilingStatus().code(), c.code);
  EXPECT_EQ(LastTilingStatus().message(), s.message());
}

TEST_P(LayerNormGradTilingErrorTest, TilingLeavesOutputsAndReports) {
  const ErrorCase& c = GetParam();
  const ge::Shape shape(c.dims);
  const std::string prefix = "[LayerNormGrad][GetLayerNormGradNDTilingInfo] ";
  // The official call, for the plain struct and the optiling class alike.
  const auto official = [&](auto& t) {
    AscendC::GetLayerNormGradNDTilingInfo(shape, c.stack, c.typeSize, false, t);
  };
  ExpectPlainTilingRejected<LayerNormGradTiling>(
      c, prefix,
      [&](LayerNormGradTiling& t) {
        return LayerNormGradNDTilingInfo(shape, c.stack, c.typeSize, false, t);
      },
      official);

  optiling::LayerNormGradTiling host;
  host.set_oneCalSize(77);
  ExpectOptilingRejected(c, prefix, host, official);
  EXPECT_EQ(host.get_oneCalSize(), 77u);
  EXPECT_EQ(host.get_bLength(), 0u);
  EXPECT_EQ(LastTilingStatus().code(), c.code);
}

constexpr StatusCode kInvalid = StatusCode::kInvalidArgument;

// clang-format off
const ErrorCase kErrorCases[] = {
    {"TypeSize8", {2, 32, 16, 16}, 8, 6144, kInvalid, "Type size 8 is unsupported!", false},
    {"TypeSize1", {2, 32, 16, 16}, 1, 6144, kInvalid, "Type size 1 is unsupported!", false},
    {"TypeSize0", {2, 32, 16, 16}, 0, 6144, kInvalid, "Type size 0 is unsupported!", false},
    {"ZeroDim", {2, 0, 16, 16}, 4, 6144, kInvalid, "Input Shape size must be greater than 0.", false},
    {"NoDims", {}, 4, 6144, kInvalid, "Input Shape size must be greater than 0.", false},
    {"UnknownDim", {2, -1, 16, 16}, 4, 6144, kInvalid, "Input Shape size must be greater than 0.",
     false},
    {"ThreeDims", {2, 32, 16}, 4, 6144, kInvalid,
     "The dims of srcShape is 3, should be 4 (e.g. [B, S, storageHLength, originHLength])!", false},
    {"FiveDims", {1, 2, 32, 16, 16}, 4, 6144, kInvalid,
     "The dims of srcShape is 5, should be 4 (e.g. [B, S, storageHLength, originHLength])!", false},
    {"NegativePair", {-3, -3, 16, 16}, 4, 6144, kInvalid, "srcShape[0] must be greater than 0.",
     false},
    {"NegativeH", {2, 32, -16, -16}, 4, 6144, kInvalid, "srcShape[2] must be greater than 0.",
     false},
    {"HugeDim", {int64_t{1} << 33, 1, 16, 16}, 4, 6144, StatusCode::kOutOfRange,
     "srcShape[0] = 8589934592 does not fit in uint32", false},
    {"BshOverflow", {65536, 1, 65536, 16}, 4, 6144, StatusCode::kOutOfRange,
     "B*S*H = 4294967296 does not fit in uint32", false},
    {"StackTooSmallE2", {1, 8, 8, 8}, 4, 100, kInvalid, "stackBufferSize is not enough.", true},
    {"StackZero", {1, 8, 8, 8}, 2, 0, kInvalid, "stackBufferSize is not enough.", true},
};
// clang-format on

INSTANTIATE_TEST_SUITE_P(Cases, LayerNormGradTilingErrorTest, ::testing::ValuesIn(kErrorCases),
                         CaseName());

TEST_F(LayerNormGradTilingTest, MaxValueOverflowIsAnError) {
  // 9 * 2^28 * 2 bytes does not fit in uint32 although B*S*H does.
  uint32_t max = 5;
  uint32_t min = 6;
  const Status s =
      LayerNormGradMaxMinTmpSize(ge::Shape({1 << 14, 1 << 8, 64, 64}), kHalf, false, max, min);
  EXPECT_EQ(s.code(), StatusCode::kOutOfRange);
  EXPECT_TRUE(Contains(s.message(), "maxValue = 4831838208 does not fit in uint32")) << s.message();
  EXPECT_EQ(max, 5u);
  EXPECT_EQ(min, 6u);
}

TEST_F(LayerNormGradTilingTest, UnsupportedProductsAreRefused) {
  for (const char* soc : {"Ascend910A", "Ascend310B1"}) {
    ScopedSoc scoped(soc);
    uint32_t max = 1;
    uint32_t min = 2;
    const Status s =
        LayerNormGradMaxMinTmpSize(ge::Shape({2, 32, 16, 16}), kFloat, false, max, min);
    EXPECT_EQ(s.code(), StatusCode::kUnsupported) << soc;
    EXPECT_TRUE(Contains(s.message(), std::string("not supported on ") + soc)) << s.message();
    EXPECT_EQ(max, 1u);
    auto t = Poisoned<LayerNormGradTiling>();
    EXPECT_EQ(LayerNormGradNDTilingInfo(ge::Shape({2, 32, 16, 16}), 6144, kFloat, false, t).code(),
              StatusCode::kUnsupported);
    EXPECT_TRUE(SameBytes(t, Poisoned<LayerNormGradTiling>()));
  }
}

TEST_F(LayerNormGradTilingTest, SuccessClearsLastStatus) {
  uint32_t max = 0;
  uint32_t min = 0;
  ::testing::internal::CaptureStderr();
  AscendC::GetLayerNormGradMaxMinTmpSize(ge::Shape({2, 32, 16, 16}), 8, false, max, min);
  (void)::testing::internal::GetCapturedStderr();
  EXPECT_FALSE(LastTilingStatus().ok());
  AscendC::GetLayerNormGradMaxMinTmpSize(ge::Shape({2, 32, 16, 16}), 4, false, max, min);
  EXPECT_TRUE(LastTilingStatus().ok());
  EXPECT_EQ(max, 24576u);
}

TEST_F(LayerNormGradTilingTest, TensorShapeAliasIsGeShape) {
  static_assert(std::is_same_v<AscendC::TensorShape, ge::Shape>);
  const AscendC::TensorShape shape({2, 32, 16, 16});
  EXPECT_EQ(GetMaxMin(shape, kFloat, false).max, 24576u);
}

}  // namespace
}  // namespace lngrad::tiling
