// LayerNormGradSingleChunkTilingInfo, lngrad's single-chunk plan for arch 2201/2002: every field
// of worked examples written out by hand, agreement with the API's tiling where the API's rows
// already form one chunk, and every error case.
#include <gtest/gtest.h>

#include "tiling_test_util.h"

namespace lngrad::tiling {
namespace {

using AscendC::tiling::LayerNormGradTiling;
using namespace testing;  // the tiling tests' helpers (tiling_test_util.h)

// Float bit patterns: 2^-k has exponent field 127-k; 1/1088 and 1/10 rounded to binary32.
constexpr uint32_t kOneEighth = 0x3E000000;     // 0.125
constexpr uint32_t kOneSixteenth = 0x3D800000;  // 0.0625
constexpr uint32_t kOne2048th = 0x3A000000;     // 2^-11
constexpr uint32_t kOne1024th = 0x3A800000;     // 2^-10
constexpr uint32_t kOne1088th = 0x3A70F0F1;     // 1/1088
constexpr uint32_t kTwo1088ths = 0x3AF0F0F1;    // 2/1088 (exponent one higher)
constexpr uint32_t kOneTenth = 0x3DCCCCCD;      // 1/10
constexpr uint32_t kOneFifth = 0x3E4CCCCD;      // 2/10

// A case's call of LayerNormGradSingleChunkTilingInfo: its name, product, shape and type size.
struct SingleChunkCall {
  const char* name;
  const char* soc;
  std::vector<int64_t> dims;
  uint32_t typeSize;

  // The call into a poisoned `t`, under the caller's ScopedSoc of `soc`.
  Status Run(bool reuse, LayerNormGradTiling& t) const {
    t = Poisoned<LayerNormGradTiling>();
    return LayerNormGradSingleChunkTilingInfo(ge::Shape(dims), typeSize, reuse, t);
  }
};

// The call, then every field of the expected tiling: oneCalSize = B*S*H, nohCalSize = B*S,
// loopNum 1, no tail, every size field oneCalSize (so a case spells out the positions only).
struct SingleChunkExample : SingleChunkCall {
  bool reuse;
  uint32_t stack, oneCalSize, nohCalSize;
  uint32_t pos[9];  // tmpTensorBSH, pdVar, pdMean, x1, x2, x3, tmp, tmp1, tmp2
  uint32_t lastDimValueBack, lastDimValueBackMulTwo;
  friend void PrintTo(const SingleChunkExample& e, std::ostream* os) { *os << e.name; }
};

LayerNormGradTiling Expected(const SingleChunkExample& e) {
  return ExpectedGradTiling(e.dims, e.stack, e.oneCalSize, e.nohCalSize, {1, 0, 0}, e.pos,
                            e.lastDimValueBack, e.lastDimValueBackMulTwo);
}

// clang-format off
const SingleChunkExample kExamples[] = {
    // The operator's long-row case (tests/ops GradOpPlanTest): H = 2048 float, 2 rows. The API's
    // tiling for the same 98304 bytes rounds the rows up to 8 (oneCalSize 16384).
    {{"H2048FloatTwoRows", "Ascend910B1", {1, 2, 2048, 2048}, kFloat}, false,
     6 * 4096 * 4, 4096, 2, {0, 4096, 8192, 12288, 16384, 20480, 0, 0, 0}, kOne2048th, kOne1024th},
    // tests/faithful's h1088_single_chunk: half, 3 rows, nine buffers.
    {{"H1088HalfThreeRows", "Ascend910B1", {1, 3, 1088, 1088}, kHalf}, false,
     9 * 3264 * 4, 3264, 3, {0, 3264, 6528, 9792, 13056, 16320, 19584, 22848, 26112},
     kOne1088th, kTwo1088ths},
    // float + reuse drops x1/x2 (they alias dy and x); arch 2002; B > 1: nohCalSize is B*S.
    {{"FloatReuseArch2002", "Ascend310P3", {2, 3, 16, 16}, kFloat}, true,
     4 * 96 * 4, 96, 6, {0, 96, 192, 0, 0, 288, 0, 0, 0}, kOneSixteenth, kOneEighth},
    // Original H only feeds the constants; storage H 16 gives the strides.
    {{"OriginalH", "Ascend910B1", {1, 2, 16, 10}, kFloat}, false,
     6 * 32 * 4, 32, 2, {0, 32, 64, 96, 128, 160, 0, 0, 0}, kOneTenth, kOneFifth},
    // One row: nohCalSize 1, which no API tiling of 2201/2002 has.
    {{"OneRow", "Ascend910B1", {1, 1, 16, 16}, kFloat}, false,
     6 * 16 * 4, 16, 1, {0, 16, 32, 48, 64, 80, 0, 0, 0}, kOneSixteenth, kOneEighth},
};
// clang-format on

class LayerNormGradSingleChunkExampleTest : public ::testing::TestWithParam<SingleChunkExample> {};

TEST_P(LayerNormGradSingleChunkExampleTest, EveryField) {
  const SingleChunkExample& e = GetParam();
  ScopedSoc soc(e.soc);
  LayerNormGradTiling t;
  const Status s = e.Run(e.reuse, t);
  ASSERT_TRUE(s.ok()) << s.ToString();
  ExpectFieldsEq(t, Expected(e));
  // The layout ends exactly at stackBufferSize: the kernel touches what the plan sized.
  if (t.nohCalSize != 1) {  // LayerNormGradScratchFloats reads nohCalSize 1 as a 3510 tiling
    EXPECT_EQ(LayerNormGradScratchFloats(t, e.typeSize, e.reuse) * 4, e.stack);
  }
}

INSTANTIATE_TEST_SUITE_P(Worked, LayerNormGradSingleChunkExampleTest,
                         ::testing::ValuesIn(kExamples), CaseName());

class LayerNormGradSingleChunkTest : public Ascend910B1Test {};

TEST_F(LayerNormGradSingleChunkTest, SameAsTheApiWhereTheApiRunsOneChunk) {
  // Rows that fill whole 32-byte blocks of rows (8 float, 16 half) and a scratch of exactly
  // those rows: the API's own tiling is then a single chunk too, byte for byte the same.
  struct Case {
    std::vector<int64_t> dims;
    uint32_t typeSize;
    bool reuse;
    uint32_t buffers;
  };
  const Case cases[] = {{{1, 8, 32, 32}, kFloat, false, 6},
                        {{1, 8, 32, 32}, kFloat, true, 4},
                        {{2, 8, 64, 64}, kHalf, false, 9}};
  for (const Case& c : cases) {
    const ge::Shape shape(c.dims);
    const uint32_t bsh = static_cast<uint32_t>(c.dims[0] * c.dims[1] * c.dims[2]);
    LayerNormGradTiling api;
    ASSERT_TRUE(
        LayerNormGradNDTilingInfo(shape, c.buffers * bsh * 4, c.typeSize, c.reuse, api).ok());
    ASSERT_EQ(api.loopNum, 1u);
    LayerNormGradTiling single;
    ASSERT_TRUE(LayerNormGradSingleChunkTilingInfo(shape, c.typeSize, c.reuse, single).ok());
    ExpectFieldsEq(single, api);
    EXPECT_TRUE(SameBytes(single, api));
  }
}

TEST_F(LayerNormGradSingleChunkTest, FewerRowsThanABlockShrinkTheLayout) {
  // 3 float rows: the API's tiling for the same bytes runs 8 rows per loop (layout 6*8*H floats,
  // past the scratch, spec §2.8); the single chunk stays within n*3*H floats.
  const ge::Shape shape({1, 3, 64, 64});
  LayerNormGradTiling single;
  ASSERT_TRUE(LayerNormGradSingleChunkTilingInfo(shape, kFloat, false, single).ok());
  LayerNormGradTiling api;
  ASSERT_TRUE(LayerNormGradNDTilingInfo(shape, single.stackBufferSize, kFloat, false, api).ok());
  EXPECT_EQ(api.nohCalSize, 8u);
  EXPECT_GT(LayerNormGradScratchFloats(api, kFloat, false) * 4, single.stackBufferSize);
  EXPECT_EQ(LayerNormGradScratchFloats(single, kFloat, false) * 4, single.stackBufferSize);
}

// ---- errors: outputs untouched, the function named in the message ----

TEST_F(LayerNormGradSingleChunkTest, BadInputsAreRefusedWithTheirRule) {
  const std::string prefix = "[LayerNormGrad][LayerNormGradSingleChunkTilingInfo] ";
  struct Bad : SingleChunkCall {
    StatusCode code;
    const char* message;
  };
  const Bad bad[] = {
      {{"TypeSize8", "Ascend910B1", {1, 2, 16, 16}, 8},
       StatusCode::kInvalidArgument,
       "Type size 8 is unsupported!"},
      {{"ThreeDims", "Ascend910B1", {2, 32, 16}, kFloat},
       StatusCode::kInvalidArgument,
       "The dims of srcShape is 3, should be 4"},
      {{"ZeroDim", "Ascend910B1", {1, 0, 16, 16}, kFloat},
       StatusCode::kInvalidArgument,
       "Input Shape size must be greater than 0."},
      // B*S*H = 2^28 fits, 6 buffers of it do not.
      {{"ScratchOverflow", "Ascend910B1", {1, 1 << 16, 4096, 4096}, kFloat},
       StatusCode::kOutOfRange,
       "stackBufferSize (n * B*S*H * 4 bytes) = 6442450944 does not fit in uint32"},
      {{"Arch3510", "Ascend950PR_9599", {1, 2, 16, 16}, kFloat},
       StatusCode::kUnsupported,
       "the single-chunk tiling is for arch 2201/2002"},
      {{"UnsupportedProduct", "Ascend910A", {1, 2, 16, 16}, kFloat},
       StatusCode::kUnsupported,
       "not supported on Ascend910A"},
  };
  for (const Bad& b : bad) {
    SCOPED_TRACE(b.name);
    ScopedSoc soc(b.soc);
    LayerNormGradTiling t;
    const Status s = b.Run(false, t);
    EXPECT_EQ(s.code(), b.code) << s.ToString();
    EXPECT_TRUE(Contains(s.message(), b.message)) << s.message();
    EXPECT_EQ(s.message().rfind(prefix, 0), 0u) << s.message();
    EXPECT_TRUE(SameBytes(t, Poisoned<LayerNormGradTiling>()));
  }
}

}  // namespace
}  // namespace lngrad::tiling
