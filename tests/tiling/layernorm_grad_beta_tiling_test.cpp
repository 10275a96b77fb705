// LayerNormGradBeta host tiling: the spec's examples (§3.6), tails, clamping, both official
// overloads, and every error case.
#include <gtest/gtest.h>

#include "tiling_test_util.h"

namespace lngrad::tiling {
namespace {

using AscendC::tiling::LayerNormGradBetaTiling;
using namespace testing;  // the tiling tests' helpers (tiling_test_util.h)

void ExpectMaxMin(const ge::Shape& shape, uint32_t typeSize, uint32_t max, uint32_t min) {
  for (bool reuse : {false, true}) {  // isReuseSource has no effect
    const MaxMin m = AgreeingMaxMin(
        [&](uint32_t& a, uint32_t& b) {
          return LayerNormGradBetaMaxMinTmpSize(shape, typeSize, reuse, a, b);
        },
        [&](uint32_t& a, uint32_t& b) {
          AscendC::GetLayerNormGradBetaMaxMinTmpSize(shape, typeSize, reuse, a, b);
        });
    EXPECT_EQ(m.max, max);
    EXPECT_EQ(m.min, min);
  }
}

LayerNormGradBetaTiling GetTiling(const ge::Shape& shape, uint32_t stack, uint32_t typeSize) {
  const auto a = AgreeingTiling<LayerNormGradBetaTiling>(
      [&](LayerNormGradBetaTiling& t) {
        return LayerNormGradBetaNDTilingInfo(shape, stack, typeSize, false, t);
      },
      [&](LayerNormGradBetaTiling& t) {
        AscendC::GetLayerNormGradBetaNDTilingInfo(shape, stack, typeSize, true, t);
      });
  optiling::LayerNormGradBetaTiling host;
  AscendC::GetLayerNormGradBetaNDTilingInfo(shape, stack, typeSize, false, host);
  EXPECT_TRUE(LastTilingStatus().ok());
  EXPECT_EQ(host.GetDataSize(), sizeof(LayerNormGradBetaTiling));
  auto c = Poisoned<LayerNormGradBetaTiling>(0x22);
  host.SaveToBuffer(&c, sizeof(c));
  EXPECT_TRUE(SameBytes(a, c));
  return a;
}

class LayerNormGradBetaTilingTest : public Ascend910B1Test {};

// The spec's examples (§3.6): inputs, the sizes query and every field of the tiling. The
// struct's stackBufferSize is in floats (bytes / 4).
struct BetaExample {
  const char* name;
  std::vector<int64_t> dims;
  uint32_t typeSize;
  MaxMin max_min;
  uint32_t stack;
  LayerNormGradBetaTiling expected;
  friend void PrintTo(const BetaExample& e, std::ostream* os) { *os << e.name; }
};

// clang-format off
const BetaExample kExamples[] = {
    // expected: stackBufferSize, bLength, sLength, hLength, originalHLength, bshLength, bsLength,
    //   oneCalSize, numberOfTmpBuf, loopRound, inputTailSize, inputTailPos, bsTailSize,
    //   bshCurLength, bsCurLength, gammaTempTensorPos, betaTempTensorPos, inputDyTmpTensorPos,
    //   resForGammaTmpTensorPos, reserved
    {"FloatExample", {2, 32, 16, 16}, kFloat, {8192, 128}, 128,
     {32, 2, 32, 16, 16, 1024, 64, 32, 1, 32, 0, 1024, 0, 32, 2, 0, 0, 0, 0, 0}},
    {"HalfExample", {2, 32, 16, 16}, kHalf, {16384, 256}, 256,
     {64, 2, 32, 16, 16, 1024, 64, 16, 2, 64, 0, 1024, 0, 16, 1, 0, 16, 32, 48, 0}},
};
// clang-format on

class LayerNormGradBetaExampleTest : public Ascend910B1ParamTest<BetaExample> {};

TEST_P(LayerNormGradBetaExampleTest, EveryField) {
  const BetaExample& e = GetParam();
  const ge::Shape shape(e.dims);
  ExpectMaxMin(shape, e.typeSize, e.max_min.max, e.max_min.min);
  ExpectFieldsEq(GetTiling(shape, e.stack, e.typeSize), e.expected);
}

INSTANTIATE_TEST_SUITE_P(Spec, LayerNormGradBetaExampleTest, ::testing::ValuesIn(kExamples),
                         CaseName());

TEST_F(LayerNormGradBetaTilingTest, SampleShapeMaxMin) {
  ExpectMaxMin(ge::Shape({4, 8, 512, 512}), kFloat, 131072, 4096);
}

TEST_F(LayerNormGradBetaTilingTest, TailChunk) {
  // 3 rows of 16 with room for 2 rows per chunk: one full chunk + a tail of 1 row at 32.
  const LayerNormGradBetaTiling t = GetTiling(ge::Shape({1, 3, 16, 16}), 128, kFloat);
  ExpectFields(t,
               "oneCalSize=32 loopRound=1 inputTailSize=16 inputTailPos=32 bsTailSize=1 "
               "bshCurLength=32 bsCurLength=2");
}

TEST_F(LayerNormGradBetaTilingTest, ChunkClampedToInput) {
  const LayerNormGradBetaTiling t = GetTiling(ge::Shape({1, 1, 16, 16}), 1024, kFloat);
  ExpectFields(t,
               "stackBufferSize=256 oneCalSize=16 loopRound=1 inputTailSize=0 inputTailPos=16 "
               "bsCurLength=1");
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

class LayerNormGradBetaTilingErrorTest : public Ascend910B1ParamTest<ErrorCase> {};

TEST_P(LayerNormGradBetaTilingErrorTest, OutputsUntouchedAndReported) {
  const ErrorCase& c = GetParam();
  const ge::Shape shape(c.dims);
  if (ExpectMaxMinQuery(c, "[LayerNormGradBeta][GetLayerNormGradBetaMaxMinTmpSize] ",
                        [&](uint32_t& max, uint32_t& min) {
                          return LayerNormGradBetaMaxMinTmpSize(shape, c.typeSize, false, max, min);
                        })) {
    uint32_t max = 111;
    uint32_t min = 222;
    ::testing::internal::CaptureStderr();
    AscendC::GetLayerNormGradBetaMaxMinTmpSize(shape, c.typeSize, false, max, min);
    EXPECT_TRUE(Contains(::testing::internal::GetCapturedStderr(), c.message));
    EXPECT_EQ(max, 111u);
    EXPECT_EQ(LastTilingStatus().code(), c.code);
  }

  const std::string prefix = "[LayerNormGradBeta][GetLayerNormGradBetaNDTilingInfo] ";
  // The official call, for the plain struct and the optiling class alike.
  const auto official = [&](auto& t) {
    AscendC::GetLayerNormGradBetaNDTilingInfo(shape, c.stack, c.typeSize, false, t);
  };
  ExpectPlainTilingRejected<LayerNormGradBetaTiling>(
      c, prefix,
      [&](LayerNormGradBetaTiling& t) {
        return LayerNormGradBetaNDTilingInfo(shape, c.stack, c.typeSize, false, t);
      },
      official);
  optiling::LayerNormGradBetaTiling host;
  host.set_loopRound(9);
  ExpectOptilingRejected(c, prefix, host, official);
  EXPECT_EQ(host.get_loopRound(), 9u);
  EXPECT_EQ(host.get_bLength(), 0u);
}

constexpr StatusCode kInvalid = StatusCode::kInvalidArgument;

// clang-format off
const ErrorCase kErrorCases[] = {
    {"TypeSize8", {2, 32, 16, 16}, 8, 256, kInvalid, "Type size 8 is unsupported!", false},
    {"ZeroDim", {2, 32, 0, 16}, 4, 256, kInvalid, "Input Shape size must be greater than 0.", false},
    {"ThreeDims", {2, 32, 16}, 4, 256, kInvalid,
     "The dims of srcShape is 3, should be 4 (e.g. [B, S, storageHLength, originHLength])!", false},
    {"NegativePair", {2, 32, -16, -16}, 4, 256, kInvalid, "srcShape[2] must be greater than 0.",
     false},
    {"FloatBelowTwoRows", {2, 32, 16, 16}, 4, 124, kInvalid, "stackBufferSize is not enough.", true},
    {"HalfNoWholeRow", {2, 32, 16, 16}, 2, 200, kInvalid, "stackBufferSize is not enough.", true},
    {"HalfExactlyTwoRows", {2, 32, 16, 16}, 2, 128, kInvalid, "stackBufferSize is not enough.",
     true},
};
// clang-format on

INSTANTIATE_TEST_SUITE_P(Cases, LayerNormGradBetaTilingErrorTest, ::testing::ValuesIn(kErrorCases),
                         CaseName());

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
