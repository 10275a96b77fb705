// LayerNormGradBeta host tiling: the spec's examples (§3.6), tails, clamping, both official
// overloads, and every error case.
#include <gtest/gtest.h>

#include "tiling_test_util.h"

namespace lngrad::tiling {
namespace {

using AscendC::tiling::LayerNormGradBetaTiling;
using testing::Contains;
using testing::ExpectFieldsEq;
using testing::Poisoned;
using testing::SameBytes;
using testing::ScopedSoc;

constexpr uint32_t kHalf = 2;
constexpr uint32_t kFloat = 4;

void ExpectMaxMin(const ge::Shape& shape, uint32_t typeSize, uint32_t max, uint32_t min) {
  for (bool reuse : {false, true}) {  // isReuseSource has no effect
    uint32_t a = 1;
    uint32_t b = 2;
    const Status s = LayerNormGradBetaMaxMinTmpSize(shape, typeSize, reuse, a, b);
    EXPECT_TRUE(s.ok()) << s.ToString();
    EXPECT_EQ(a, max);
    EXPECT_EQ(b, min);
    uint32_t c = 3;
    uint32_t d = 4;
    AscendC::GetLayerNormGradBetaMaxMinTmpSize(shape, typeSize, reuse, c, d);
    EXPECT_TRUE(LastTilingStatus().ok());
    EXPECT_EQ(c, max);
    EXPECT_EQ(d, min);
  }
}

LayerNormGradBetaTiling GetTiling(const ge::Shape& shape, uint32_t stack, uint32_t typeSize) {
  auto a = Poisoned<LayerNormGradBetaTiling>();
  const Status s = LayerNormGradBetaNDTilingInfo(shape, stack, typeSize, false, a);
  EXPECT_TRUE(s.ok()) << s.ToString();
  auto b = Poisoned<LayerNormGradBetaTiling>(0x11);
  AscendC::GetLayerNormGradBetaNDTilingInfo(shape, stack, typeSize, true, b);
  EXPECT_TRUE(LastTilingStatus().ok());
  optiling::LayerNormGradBetaTiling host;
  AscendC::GetLayerNormGradBetaNDTilingInfo(shape, stack, typeSize, false, host);
  EXPECT_TRUE(LastTilingStatus().ok());
  EXPECT_EQ(host.GetDataSize(), sizeof(LayerNormGradBetaTiling));
  auto c = Poisoned<LayerNormGradBetaTiling>(0x22);
  host.SaveToBuffer(&c, sizeof(c));
  EXPECT_TRUE(SameBytes(a, b));
  EXPECT_TRUE(SameBytes(a, c));
  return a;
}

class LayerNormGradBetaTilingTest : public ::testing::Test {
 protected:
  ScopedSoc soc_{"Ascend910B1"};
};

TEST_F(LayerNormGradBetaTilingTest, FloatExample) {
  const ge::Shape shape({2, 32, 16, 16});
  ExpectMaxMin(shape, kFloat, 8192, 128);
  ExpectFieldsEq(GetTiling(shape, 128, kFloat), {.stackBufferSize = 32,
                                                 .bLength = 2,
                                                 .sLength = 32,
                                                 .hLength = 16,
                                                 .originalHLength = 16,
                                                 .bshLength = 1024,
                                                 .bsLength = 64,
                                                 .oneCalSize = 32,
                                                 .numberOfTmpBuf = 1,
                                                 .loopRound = 32,
                                                 .inputTailSize = 0,
                                                 .inputTailPos = 1024,
                                                 .bsTailSize = 0,
                                                 .bshCurLength = 32,
                                                 .bsCurLength = 2,
                                                 .gammaTempTensorPos = 0,
                                                 .betaTempTensorPos = 0,
                                                 .inputDyTmpTensorPos = 0,
                                                 .resForGammaTmpTensorPos = 0,
                                                 .reserved = 0});
}

TEST_F(LayerNormGradBetaTilingTest, HalfExample) {
  const ge::Shape shape({2, 32, 16, 16});
  ExpectMaxMin(shape, kHalf, 16384, 256);
  ExpectFieldsEq(GetTiling(shape, 256, kHalf), {.stackBufferSize = 64,
                                                .bLength = 2,
                                                .sLength = 32,
                                                .hLength = 16,
                                                .originalHLength = 16,
                                                .bshLength = 1024,
                                                .bsLength = 64,
                                                .oneCalSize = 16,
                                                .numberOfTmpBuf = 2,
                                                .loopRound = 64,
                                                .inputTailSize = 0,
                                                .inputTailPos = 1024,
                                                .bsTailSize = 0,
                                                .bshCurLength = 16,
                                                .bsCurLength = 1,
                                                .gammaTempTensorPos = 0,
                                                .betaTempTensorPos = 16,
                                                .inputDyTmpTensorPos = 32,
                                                .resForGammaTmpTensorPos = 48,
                                                .reserved = 0});
}

TEST_F(LayerNormGradBetaTilingTest, SampleShapeMaxMin) {
  ExpectMaxMin(ge::Shape({4, 8, 512, 512}), kFloat, 131072, 4096);
}

TEST_F(LayerNormGradBetaTilingTest, TailChunk) {
  // 3 rows of 16 with room for 2 rows per chunk: one full chunk + a tail of 1 row at 32.
  const LayerNormGradBetaTiling t = GetTiling(ge::Shape({1, 3, 16, 16}), 128, kFloat);
  EXPECT_EQ(t.oneCalSize, 32u);
  EXPECT_EQ(t.loopRound, 1u);
  EXPECT_EQ(t.inputTailSize, 16u);
  EXPECT_EQ(t.inputTailPos, 32u);
  EXPECT_EQ(t.bsTailSize, 1u);
  EXPECT_EQ(t.bshCurLength, 32u);
  EXPECT_EQ(t.bsCurLength, 2u);
}

TEST_F(LayerNormGradBetaTilingTest, ChunkClampedToInput) {
  const LayerNormGradBetaTiling t = GetTiling(ge::Shape({1, 1, 16, 16}), 1024, kFloat);
  EXPECT_EQ(t.stackBufferSize, 256u);
  EXPECT_EQ(t.oneCalSize, 16u);
  EXPECT_EQ(t.loopRound, 1u);
  EXPECT_EQ(t.inputTailSize, 0u);
  EXPECT_EQ(t.inputTailPos, 16u);
  EXPECT_EQ(t.bsCurLength, 1u);
  // half: (256 - 32) / 2 = 112 -> 112 (7 rows) -> clamped to 16; resForGamma after 2H + 16.
  const LayerNormGradBetaTiling h = GetTiling(ge::Shape({1, 1, 16, 16}), 1024, kHalf);
  EXPECT_EQ(h.oneCalSize, 16u);
  EXPECT_EQ(h.resForGammaTmpTensorPos, 48u);
}

TEST_F(LayerNormGradBetaTilingTest, SameNumbersOnEveryProduct) {
  const LayerNormGradBetaTiling base = GetTiling(ge::Shape({2, 32, 16, 16}), 256, kHalf);
  for (const char* soc : {"Ascend310P1", "Ascend950DT_9581", "Ascend350_355e"}) {
    ScopedSoc scoped(soc);
    EXPECT_TRUE(SameBytes(GetTiling(ge::Shape({2, 32, 16, 16}), 256, kHalf), base)) << soc;
    ExpectMaxMin(ge::Shape({2, 32, 16, 16}), kHalf, 16384, 256);
  }
}

struct BetaErrorCase {
  const char* name;
  std::vector<int64_t> dims;
  uint32_t typeSize;
  uint32_t stack;
  StatusCode code;
  const char* message;
  bool tiling_only;
  friend void PrintTo(const BetaErrorCase& c, std::ostream* os) { *os << c.name; }
};

class LayerNormGradBetaTilingErrorTest : public ::testing::TestWithParam<BetaErrorCase> {
 protected:
  ScopedSoc soc_{"Ascend910B1"};
};

TEST_P(LayerNormGradBetaTilingErrorTest, OutputsUntouchedAndReported) {
  const BetaErrorCase& c = GetParam();
  const ge::Shape shape(c.dims);
  uint32_t max = 111;
  uint32_t min = 222;
  const Status ms = LayerNormGradBetaMaxMinTmpSize(shape, c.typeSize, false, max, min);
  if (c.tiling_only) {
    EXPECT_TRUE(ms.ok()) << ms.ToString();
  } else {
    EXPECT_EQ(ms.code(), c.code);
    EXPECT_TRUE(Contains(
        ms.message(),
        std::string("[LayerNormGradBeta][GetLayerNormGradBetaMaxMinTmpSize] ") + c.message))
        << ms.message();
    EXPECT_EQ(max, 111u);
    EXPECT_EQ(min, 222u);
    ::testing::internal::CaptureStderr();
    AscendC::GetLayerNormGradBetaMaxMinTmpSize(shape, c.typeSize, false, max, min);
    EXPECT_TRUE(Contains(::testing::internal::GetCapturedStderr(), c.message));
    EXPECT_EQ(max, 111u);
    EXPECT_EQ(LastTilingStatus().code(), c.code);
  }

  const std::string prefix = "[LayerNormGradBeta][GetLayerNormGradBetaNDTilingInfo] ";
  auto plain = Poisoned<LayerNormGradBetaTiling>();
  const Status ts = LayerNormGradBetaNDTilingInfo(shape, c.stack, c.typeSize, false, plain);
  EXPECT_EQ(ts.code(), c.code);
  EXPECT_TRUE(Contains(ts.message(), prefix + c.message)) << ts.message();
  EXPECT_TRUE(SameBytes(plain, Poisoned<LayerNormGradBetaTiling>()));
  ::testing::internal::CaptureStderr();
  AscendC::GetLayerNormGradBetaNDTilingInfo(shape, c.stack, c.typeSize, false, plain);
  EXPECT_TRUE(Contains(::testing::internal::GetCapturedStderr(), prefix + c.message));
  EXPECT_TRUE(SameBytes(plain, Poisoned<LayerNormGradBetaTiling>()));
  EXPECT_EQ(LastTilingStatus().code(), c.code);
  optiling::LayerNormGradBetaTiling host;
  host.set_loopRound(9);
  ::testing::internal::CaptureStderr();
  AscendC::GetLayerNormGradBetaNDTilingInfo(shape, c.stack, c.typeSize, false, host);
  EXPECT_TRUE(Contains(::testing::internal::GetCapturedStderr(), prefix + c.message));
  EXPECT_EQ(host.get_loopRound(), 9u);
  EXPECT_EQ(host.get_bLength(), 0u);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, LayerNormGradBetaTilingErrorTest,
    ::testing::Values(
        BetaErrorCase{"TypeSize8",
                      {2, 32, 16, 16},
                      8,
                      256,
                      StatusCode::kInvalidArgument,
                      "Type size 8 is unsupported!",
                      false},
        BetaErrorCase{"ZeroDim",
                      {2, 32, 0, 16},
                      4,
                      256,
                      StatusCode::kInvalidArgument,
                      "Input Shape size must be greater than 0.",
                      false},
        BetaErrorCase{
            "ThreeDims",
            {2, 32, 16},
            4,
            256,
            StatusCode::kInvalidArgument,
            "The dims of srcShape is 3, should be 4 (e.g. [B, S, storageHLength, originHLength])!",
            false},
        BetaErrorCase{"NegativePair",
                      {2, 32, -16, -16},
                      4,
                      256,
                      StatusCode::kInvalidArgument,
                      "srcShape[2] must be greater than 0.",
                      false},
        BetaErrorCase{"FloatBelowTwoRows",
                      {2, 32, 16, 16},
                      4,
                      124,
                      StatusCode::kInvalidArgument,
                      "stackBufferSize is not enough.",
                      true},
        BetaErrorCase{"HalfNoWholeRow",
                      {2, 32, 16, 16},
                      2,
                      200,
                      StatusCode::kInvalidArgument,
                      "stackBufferSize is not enough.",
                      true},
        BetaErrorCase{"HalfExactlyTwoRows",
                      {2, 32, 16, 16},
                      2,
                      128,
                      StatusCode::kInvalidArgument,
                      "stackBufferSize is not enough.",
                      true}),
    [](const ::testing::TestParamInfo<BetaErrorCase>& info) {
      return std::string(info.param.name);
    });

TEST_F(LayerNormGradBetaTilingTest, UnsupportedProductRefused) {
  ScopedSoc scoped("Ascend310B4");
  uint32_t max = 1;
  uint32_t min = 2;
  const Status s =
      LayerNormGradBetaMaxMinTmpSize(ge::Shape({2, 32, 16, 16}), kFloat, false, max, min);
  EXPECT_EQ(s.code(), StatusCode::kUnsupported);
  EXPECT_TRUE(Contains(s.message(), "LayerNormGradBeta is not supported on Ascend310B4"))
      << s.message();
  EXPECT_EQ(max, 1u);
}

}  // namespace
}  // namespace lngrad::tiling
