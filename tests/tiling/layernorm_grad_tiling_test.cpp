// LayerNormGrad host tiling: every field of the spec's worked examples (§2.7), the 3510 branch,
// the three entry points agreeing byte for byte, and every error case.
#include <gtest/gtest.h>

#include <bit>

#include "tiling_test_util.h"

namespace lngrad::tiling {
namespace {

using AscendC::tiling::LayerNormGradTiling;
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
  MaxMin via_status{0xDEADBEEF, 0xDEADBEEF};
  const Status s =
      LayerNormGradMaxMinTmpSize(shape, typeSize, reuse, via_status.max, via_status.min);
  EXPECT_TRUE(s.ok()) << s.ToString();
  MaxMin official{0xDEADBEEF, 0xDEADBEEF};
  AscendC::GetLayerNormGradMaxMinTmpSize(shape, typeSize, reuse, official.max, official.min);
  EXPECT_TRUE(LastTilingStatus().ok()) << LastTilingStatus().ToString();
  EXPECT_EQ(official.max, via_status.max);
  EXPECT_EQ(official.min, via_status.min);
  return via_status;
}

// Runs the Status variant and both official overloads; all three must give the same bytes.
LayerNormGradTiling GetTiling(const ge::Shape& shape, uint32_t stack, uint32_t typeSize,
                              bool reuse) {
  auto a = Poisoned<LayerNormGradTiling>();
  const Status s = LayerNormGradNDTilingInfo(shape, stack, typeSize, reuse, a);
  EXPECT_TRUE(s.ok()) << s.ToString();
  auto b = Poisoned<LayerNormGradTiling>(0x11);
  AscendC::GetLayerNormGradNDTilingInfo(shape, stack, typeSize, reuse, b);
  EXPECT_TRUE(LastTilingStatus().ok()) << LastTilingStatus().ToString();
  optiling::LayerNormGradTiling host;
  AscendC::GetLayerNormGradNDTilingInfo(shape, stack, typeSize, reuse, host);
  EXPECT_TRUE(LastTilingStatus().ok());
  auto c = Poisoned<LayerNormGradTiling>(0x22);
  host.SaveToBuffer(&c, sizeof(c));
  EXPECT_TRUE(LastTilingStatus().ok());
  EXPECT_TRUE(SameBytes(a, b));
  EXPECT_TRUE(SameBytes(a, c));
  EXPECT_EQ(host.get_oneCalSize(), a.oneCalSize);
  EXPECT_EQ(host.get_lastDimValueBackMulTwo(), a.lastDimValueBackMulTwo);
  return a;
}

// Every size field equals oneCalSize (spec §2.1), so examples only spell out the positions.
LayerNormGradTiling WithSizes(LayerNormGradTiling t) {
  t.tmpTensorBSHSize = t.pdVarTensorSize = t.pdMeanTensorSize = t.oneCalSize;
  t.x1TensorSize = t.x2TensorSize = t.x3TensorSize = t.oneCalSize;
  t.tmpTensorSize = t.tmpTensor1Size = t.tmpTensor2Size = t.oneCalSize;
  return t;
}

// Float bit patterns, written out by hand: 2^-k has exponent field 127-k.
constexpr uint32_t kOneEighth = 0x3E000000;     // 0.125
constexpr uint32_t kOneQuarter = 0x3E800000;    // 0.25
constexpr uint32_t kOneSixteenth = 0x3D800000;  // 0.0625
constexpr uint32_t kOne32nd = 0x3D000000;       // 0.03125
constexpr uint32_t kOne64th = 0x3C800000;       // 0.015625

class LayerNormGradTilingTest : public ::testing::Test {
 protected:
  ScopedSoc soc_{"Ascend910B1"};  // 2201 branch unless a test selects another
};

// ---- E1: [2,32,16,16] (the official sample shape) ----

TEST_F(LayerNormGradTilingTest, E1FloatMaxMin) {
  const ge::Shape shape({2, 32, 16, 16});
  const MaxMin m = GetMaxMin(shape, kFloat, false);
  EXPECT_EQ(m.max, 24576u);
  EXPECT_EQ(m.min, 6144u);
  const MaxMin r = GetMaxMin(shape, kFloat, true);
  EXPECT_EQ(r.max, 16384u);
  EXPECT_EQ(r.min, 4096u);
}

TEST_F(LayerNormGradTilingTest, E1FloatMinBuffer) {
  const LayerNormGradTiling t = GetTiling(ge::Shape({2, 32, 16, 16}), 6144, kFloat, false);
  ExpectFieldsEq(t, WithSizes({.stackBufferSize = 6144,
                               .bLength = 2,
                               .sLength = 32,
                               .hLength = 16,
                               .originalHLength = 16,
                               .oneCalSize = 256,
                               .nohCalSize = 16,
                               .loopNum = 4,
                               .tailSize = 0,
                               .nohTailSize = 0,
                               .tmpTensorBSHPos = 0,
                               .pdVarTensorPos = 256,
                               .pdMeanTensorPos = 512,
                               .x1TensorPos = 768,
                               .x2TensorPos = 1024,
                               .x3TensorPos = 1280,
                               .tmpTensorPos = 0,
                               .tmpTensor1Pos = 0,
                               .tmpTensor2Pos = 0,
                               .lastDimValueBack = kOneSixteenth,
                               .lastDimValueBackMulTwo = kOneEighth}));
  EXPECT_EQ(LayerNormGradScratchFloats(t, kFloat, false), 1536u);  // 6144 B: fits exactly
}

TEST_F(LayerNormGradTilingTest, E1FloatMaxBuffer) {
  const LayerNormGradTiling t = GetTiling(ge::Shape({2, 32, 16, 16}), 24576, kFloat, false);
  ExpectFieldsEq(t, WithSizes({.stackBufferSize = 24576,
                               .bLength = 2,
                               .sLength = 32,
                               .hLength = 16,
                               .originalHLength = 16,
                               .oneCalSize = 1024,
                               .nohCalSize = 64,
                               .loopNum = 1,
                               .tailSize = 0,
                               .nohTailSize = 0,
                               .tmpTensorBSHPos = 0,
                               .pdVarTensorPos = 1024,
                               .pdMeanTensorPos = 2048,
                               .x1TensorPos = 3072,
                               .x2TensorPos = 4096,
                               .x3TensorPos = 5120,
                               .lastDimValueBack = kOneSixteenth,
                               .lastDimValueBackMulTwo = kOneEighth}));
}

TEST_F(LayerNormGradTilingTest, E1FloatReuse) {
  const LayerNormGradTiling t = GetTiling(ge::Shape({2, 32, 16, 16}), 4096, kFloat, true);
  ExpectFieldsEq(t, WithSizes({.stackBufferSize = 4096,
                               .bLength = 2,
                               .sLength = 32,
                               .hLength = 16,
                               .originalHLength = 16,
                               .oneCalSize = 256,
                               .nohCalSize = 16,
                               .loopNum = 4,
                               .tmpTensorBSHPos = 0,
                               .pdVarTensorPos = 256,
                               .pdMeanTensorPos = 512,
                               .x1TensorPos = 0,
                               .x2TensorPos = 0,
                               .x3TensorPos = 768,
                               .lastDimValueBack = kOneSixteenth,
                               .lastDimValueBackMulTwo = kOneEighth}));
  EXPECT_EQ(LayerNormGradScratchFloats(t, kFloat, true), 1024u);
}

TEST_F(LayerNormGradTilingTest, E1HalfMaxMin) {
  const MaxMin m = GetMaxMin(ge::Shape({2, 32, 16, 16}), kHalf, false);
  EXPECT_EQ(m.max, 18432u);
  EXPECT_EQ(m.min, 4608u);
  // isReuseSource has no effect for half.
  const MaxMin r = GetMaxMin(ge::Shape({2, 32, 16, 16}), kHalf, true);
  EXPECT_EQ(r.max, 18432u);
  EXPECT_EQ(r.min, 4608u);
}

TEST_F(LayerNormGradTilingTest, E1HalfMinBufferRoundsRowsUpPastTheScratch) {
  // raw oneCalSize 128 (8 rows) -> rows rounded up to 16 (spec §2.8 hazard).
  const LayerNormGradTiling t = GetTiling(ge::Shape({2, 32, 16, 16}), 4608, kHalf, false);
  ExpectFieldsEq(t, WithSizes({.stackBufferSize = 4608,
                               .bLength = 2,
                               .sLength = 32,
                               .hLength = 16,
                               .originalHLength = 16,
                               .oneCalSize = 256,
                               .nohCalSize = 16,
                               .loopNum = 4,
                               .tmpTensorBSHPos = 0,
                               .pdVarTensorPos = 256,
                               .pdMeanTensorPos = 512,
                               .x1TensorPos = 768,
                               .x2TensorPos = 1024,
                               .x3TensorPos = 1280,
                               .tmpTensorPos = 1536,
                               .tmpTensor1Pos = 1792,
                               .tmpTensor2Pos = 2048,
                               .lastDimValueBack = kOneSixteenth,
                               .lastDimValueBackMulTwo = kOneEighth}));
  EXPECT_EQ(LayerNormGradScratchFloats(t, kHalf, false) * 4, 9216u);  // > 4608 B
  // half ignores isReuseSource: same tiling.
  EXPECT_TRUE(SameBytes(GetTiling(ge::Shape({2, 32, 16, 16}), 4608, kHalf, true), t));
}

TEST_F(LayerNormGradTilingTest, E1HalfMaxBuffer) {
  const LayerNormGradTiling t = GetTiling(ge::Shape({2, 32, 16, 16}), 18432, kHalf, false);
  EXPECT_EQ(t.oneCalSize, 512u);
  EXPECT_EQ(t.nohCalSize, 32u);
  EXPECT_EQ(t.loopNum, 2u);
  EXPECT_EQ(t.tailSize, 0u);
  EXPECT_EQ(t.tmpTensor2Pos, 4096u);
  EXPECT_EQ(LayerNormGradScratchFloats(t, kHalf, false), 4608u);  // 18432 B: fits
}

// ---- E2: [1,8,8,8] float ----

TEST_F(LayerNormGradTilingTest, E2) {
  const ge::Shape shape({1, 8, 8, 8});
  const MaxMin m = GetMaxMin(shape, kFloat, false);
  EXPECT_EQ(m.max, 1536u);
  EXPECT_EQ(m.min, 1536u);
  const LayerNormGradTiling t = GetTiling(shape, 1536, kFloat, false);
  ExpectFieldsEq(t, WithSizes({.stackBufferSize = 1536,
                               .bLength = 1,
                               .sLength = 8,
                               .hLength = 8,
                               .originalHLength = 8,
                               .oneCalSize = 64,
                               .nohCalSize = 8,
                               .loopNum = 1,
                               .tailSize = 0,
                               .nohTailSize = 0,
                               .tmpTensorBSHPos = 0,
                               .pdVarTensorPos = 64,
                               .pdMeanTensorPos = 128,
                               .x1TensorPos = 192,
                               .x2TensorPos = 256,
                               .x3TensorPos = 320,
                               .lastDimValueBack = kOneEighth,
                               .lastDimValueBackMulTwo = kOneQuarter}));
}

TEST_F(LayerNormGradTilingTest, E2Stack300RoundsUpToAWholeBlockOfRows) {
  // raw 300/4/6 = 12 -> 8 (one row) -> rows rounded to 8 -> 64 floats per buffer.
  const LayerNormGradTiling t = GetTiling(ge::Shape({1, 8, 8, 8}), 300, kFloat, false);
  EXPECT_EQ(t.stackBufferSize, 300u);
  EXPECT_EQ(t.oneCalSize, 64u);
  EXPECT_EQ(t.nohCalSize, 8u);
  EXPECT_EQ(t.loopNum, 1u);
  EXPECT_EQ(LayerNormGradScratchFloats(t, kFloat, false) * 4, 1536u);  // needs 1536 B > 300
}

// ---- E3: [4,16,64,64] half ----

TEST_F(LayerNormGradTilingTest, E3) {
  const ge::Shape shape({4, 16, 64, 64});
  const MaxMin m = GetMaxMin(shape, kHalf, false);
  EXPECT_EQ(m.max, 73728u);
  EXPECT_EQ(m.min, 73728u);
  const LayerNormGradTiling t = GetTiling(shape, 73728, kHalf, false);
  ExpectFieldsEq(t, WithSizes({.stackBufferSize = 73728,
                               .bLength = 4,
                               .sLength = 16,
                               .hLength = 64,
                               .originalHLength = 64,
                               .oneCalSize = 2048,
                               .nohCalSize = 32,
                               .loopNum = 2,
                               .tailSize = 0,
                               .nohTailSize = 0,
                               .tmpTensorBSHPos = 0,
                               .pdVarTensorPos = 2048,
                               .pdMeanTensorPos = 4096,
                               .x1TensorPos = 6144,
                               .x2TensorPos = 8192,
                               .x3TensorPos = 10240,
                               .tmpTensorPos = 12288,
                               .tmpTensor1Pos = 14336,
                               .tmpTensor2Pos = 16384,
                               .lastDimValueBack = kOne64th,
                               .lastDimValueBackMulTwo = kOne32nd}));
  EXPECT_EQ(LayerNormGradScratchFloats(t, kHalf, false), 18432u);  // 73728 B: fits exactly
}

// ---- E4: documentation tiling example [2,16,64,64] half ----

TEST_F(LayerNormGradTilingTest, E4) {
  const ge::Shape shape({2, 16, 64, 64});
  const MaxMin m = GetMaxMin(shape, kHalf, false);
  EXPECT_EQ(m.max, 73728u);
  EXPECT_EQ(m.min, 36864u);
  const LayerNormGradTiling t = GetTiling(shape, 36864, kHalf, false);
  ExpectFieldsEq(t, WithSizes({.stackBufferSize = 36864,
                               .bLength = 2,
                               .sLength = 16,
                               .hLength = 64,
                               .originalHLength = 64,
                               .oneCalSize = 1024,
                               .nohCalSize = 16,
                               .loopNum = 2,
                               .tailSize = 0,
                               .nohTailSize = 0,
                               .tmpTensorBSHPos = 0,
                               .pdVarTensorPos = 1024,
                               .pdMeanTensorPos = 2048,
                               .x1TensorPos = 3072,
                               .x2TensorPos = 4096,
                               .x3TensorPos = 5120,
                               .tmpTensorPos = 6144,
                               .tmpTensor1Pos = 7168,
                               .tmpTensor2Pos = 8192,
                               .lastDimValueBack = kOne64th,
                               .lastDimValueBackMulTwo = kOne32nd}));
}

// ---- E5: [2,16,32,32] float ----

TEST_F(LayerNormGradTilingTest, E5) {
  const ge::Shape shape({2, 16, 32, 32});
  const MaxMin m = GetMaxMin(shape, kFloat, false);
  EXPECT_EQ(m.max, 24576u);
  EXPECT_EQ(m.min, 24576u);
  const LayerNormGradTiling t = GetTiling(shape, 24576, kFloat, false);
  ExpectFieldsEq(t, WithSizes({.stackBufferSize = 24576,
                               .bLength = 2,
                               .sLength = 16,
                               .hLength = 32,
                               .originalHLength = 32,
                               .oneCalSize = 1024,
                               .nohCalSize = 32,
                               .loopNum = 1,
                               .tailSize = 0,
                               .nohTailSize = 0,
                               .tmpTensorBSHPos = 0,
                               .pdVarTensorPos = 1024,
                               .pdMeanTensorPos = 2048,
                               .x1TensorPos = 3072,
                               .x2TensorPos = 4096,
                               .x3TensorPos = 5120,
                               .lastDimValueBack = kOne32nd,
                               .lastDimValueBackMulTwo = kOneSixteenth}));
}

// ---- beyond the worked examples ----

TEST_F(LayerNormGradTilingTest, TailAndNonPowerOfTwoH) {
  // [1,3,24,24] float with room for 8 rows: B*S*H = 72, one block of 8 rows = 192 floats,
  // so one loop is too big: loopNum 0, the whole input is the tail.
  const LayerNormGradTiling t = GetTiling(ge::Shape({1, 3, 24, 24}), 6 * 192 * 4, kFloat, false);
  EXPECT_EQ(t.oneCalSize, 192u);
  EXPECT_EQ(t.nohCalSize, 8u);
  EXPECT_EQ(t.loopNum, 0u);
  EXPECT_EQ(t.tailSize, 72u);
  EXPECT_EQ(t.nohTailSize, 3u);
  // 1/24 = (1/3)*2^-3 and 2/24 = (1/3)*2^-2, with 1/3 = 0x3EAAAAAB in binary32.
  EXPECT_EQ(t.lastDimValueBack, 0x3D2AAAABu);
  EXPECT_EQ(t.lastDimValueBackMulTwo, 0x3DAAAAABu);

  // [5,7,16,16] float, 16 rows per loop: 35 rows = 2 loops of 16 + a tail of 3 rows.
  const LayerNormGradTiling u = GetTiling(ge::Shape({5, 7, 16, 16}), 6 * 256 * 4, kFloat, false);
  EXPECT_EQ(u.oneCalSize, 256u);
  EXPECT_EQ(u.loopNum, 2u);
  EXPECT_EQ(u.tailSize, 48u);
  EXPECT_EQ(u.nohTailSize, 3u);
}

TEST_F(LayerNormGradTilingTest, OriginalHOnlyFeedsTheConstants) {
  // storage H 16, original H 10: strides use 16, 1/N and 2/N use 10.
  const LayerNormGradTiling t = GetTiling(ge::Shape({2, 32, 16, 10}), 6144, kFloat, false);
  EXPECT_EQ(t.hLength, 16u);
  EXPECT_EQ(t.originalHLength, 10u);
  EXPECT_EQ(t.oneCalSize, 256u);
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
  const ge::Shape shape({2, 32, 16, 16});
  MaxMin m = GetMaxMin(shape, kFloat, false);
  EXPECT_EQ(m.max, 128u);  // 2 rows * 16 floats * 4 B
  EXPECT_EQ(m.min, 128u);
  m = GetMaxMin(shape, kHalf, false);
  EXPECT_EQ(m.max, 128u);
  EXPECT_EQ(m.min, 128u);
  m = GetMaxMin(shape, kHalf, true);
  EXPECT_EQ(m.max, 128u);
  m = GetMaxMin(shape, kFloat, true);
  EXPECT_EQ(m.max, 0u);
  EXPECT_EQ(m.min, 0u);
  // H rounded up to 8 floats: H = 20 (storage) -> 24.
  m = GetMaxMin(ge::Shape({1, 2, 20, 20}), kFloat, false);
  EXPECT_EQ(m.max, 2u * 24u * 4u);
}

TEST_F(LayerNormGradTilingTest, Arch3510TilingIsOneElementPerStep) {
  ScopedSoc soc("Ascend350_354f");  // Atlas 350 maps to arch 3510 as well
  const LayerNormGradTiling f = GetTiling(ge::Shape({2, 32, 16, 16}), 128, kFloat, false);
  ExpectFieldsEq(f, WithSizes({.stackBufferSize = 128,
                               .bLength = 2,
                               .sLength = 32,
                               .hLength = 16,
                               .originalHLength = 16,
                               .oneCalSize = 1,
                               .nohCalSize = 1,
                               .loopNum = 1024,
                               .tailSize = 0,
                               .nohTailSize = 0,
                               .tmpTensorBSHPos = 0,
                               .pdVarTensorPos = 1,
                               .pdMeanTensorPos = 2,
                               .x1TensorPos = 3,
                               .x2TensorPos = 4,
                               .x3TensorPos = 5,
                               .lastDimValueBack = kOneSixteenth,
                               .lastDimValueBackMulTwo = kOneEighth}));
  EXPECT_EQ(LayerNormGradScratchFloats(f, kFloat, false), 32u);

  const LayerNormGradTiling h = GetTiling(ge::Shape({2, 32, 16, 16}), 128, kHalf, false);
  EXPECT_EQ(h.x3TensorPos, 5u);
  EXPECT_EQ(h.tmpTensorPos, 6u);
  EXPECT_EQ(h.tmpTensor1Pos, 7u);
  EXPECT_EQ(h.tmpTensor2Pos, 8u);
  EXPECT_EQ(h.tmpTensor2Size, 1u);

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

struct ErrorCase {
  const char* name;
  std::vector<int64_t> dims;
  uint32_t typeSize;
  uint32_t stack;
  StatusCode code;
  const char* message;  // the device's log text, which our message must contain
  // Stable CTest names (the default printer dumps pointer bytes).
  friend void PrintTo(const ErrorCase& c, std::ostream* os) { *os << c.name; }
};

class LayerNormGradTilingErrorTest : public ::testing::TestWithParam<ErrorCase> {
 protected:
  ScopedSoc soc_{"Ascend910B1"};
};

TEST_P(LayerNormGradTilingErrorTest, MaxMinLeavesOutputsAndReports) {
  const ErrorCase& c = GetParam();
  const ge::Shape shape(c.dims);
  uint32_t max = 111;
  uint32_t min = 222;
  if (Contains(c.message, "stackBufferSize")) {
    // A buffer-size error belongs to the tiling call only; the sizes query succeeds.
    EXPECT_TRUE(LayerNormGradMaxMinTmpSize(shape, c.typeSize, false, max, min).ok());
    EXPECT_NE(max, 111u);
    return;
  }
  const Status s = LayerNormGradMaxMinTmpSize(shape, c.typeSize, false, max, min);
  EXPECT_EQ(s.code(), c.code);
  const std::string prefix = "[LayerNormGrad][GetLayerNormGradMaxMinTmpSize] ";
  EXPECT_TRUE(Contains(s.message(), prefix + c.message)) << s.message();
  EXPECT_EQ(max, 111u);
  EXPECT_EQ(min, 222u);

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
  auto plain = Poisoned<LayerNormGradTiling>();
  const Status s = LayerNormGradNDTilingInfo(shape, c.stack, c.typeSize, false, plain);
  EXPECT_EQ(s.code(), c.code);
  EXPECT_TRUE(Contains(s.message(), prefix + c.message)) << s.message();
  EXPECT_TRUE(SameBytes(plain, Poisoned<LayerNormGradTiling>()));

  ::testing::internal::CaptureStderr();
  AscendC::GetLayerNormGradNDTilingInfo(shape, c.stack, c.typeSize, false, plain);
  std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_TRUE(Contains(err, prefix + c.message)) << err;
  EXPECT_TRUE(SameBytes(plain, Poisoned<LayerNormGradTiling>()));
  EXPECT_EQ(LastTilingStatus().code(), c.code);

  optiling::LayerNormGradTiling host;
  host.set_oneCalSize(77);
  ::testing::internal::CaptureStderr();
  AscendC::GetLayerNormGradNDTilingInfo(shape, c.stack, c.typeSize, false, host);
  err = ::testing::internal::GetCapturedStderr();
  EXPECT_TRUE(Contains(err, prefix + c.message)) << err;
  EXPECT_EQ(host.get_oneCalSize(), 77u);
  EXPECT_EQ(host.get_bLength(), 0u);
  EXPECT_EQ(LastTilingStatus().code(), c.code);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, LayerNormGradTilingErrorTest,
    ::testing::Values(
        ErrorCase{"TypeSize8",
                  {2, 32, 16, 16},
                  8,
                  6144,
                  StatusCode::kInvalidArgument,
                  "Type size 8 is unsupported!"},
        ErrorCase{"TypeSize1",
                  {2, 32, 16, 16},
                  1,
                  6144,
                  StatusCode::kInvalidArgument,
                  "Type size 1 is unsupported!"},
        ErrorCase{"TypeSize0",
                  {2, 32, 16, 16},
                  0,
                  6144,
                  StatusCode::kInvalidArgument,
                  "Type size 0 is unsupported!"},
        ErrorCase{"ZeroDim",
                  {2, 0, 16, 16},
                  4,
                  6144,
                  StatusCode::kInvalidArgument,
                  "Input Shape size must be greater than 0."},
        ErrorCase{"NoDims",
                  {},
                  4,
                  6144,
                  StatusCode::kInvalidArgument,
                  "Input Shape size must be greater than 0."},
        ErrorCase{"UnknownDim",
                  {2, -1, 16, 16},
                  4,
                  6144,
                  StatusCode::kInvalidArgument,
                  "Input Shape size must be greater than 0."},
        ErrorCase{
            "ThreeDims",
            {2, 32, 16},
            4,
            6144,
            StatusCode::kInvalidArgument,
            "The dims of srcShape is 3, should be 4 (e.g. [B, S, storageHLength, originHLength])!"},
        ErrorCase{
            "FiveDims",
            {1, 2, 32, 16, 16},
            4,
            6144,
            StatusCode::kInvalidArgument,
            "The dims of srcShape is 5, should be 4 (e.g. [B, S, storageHLength, originHLength])!"},
        ErrorCase{"NegativePair",
                  {-3, -3, 16, 16},
                  4,
                  6144,
                  StatusCode::kInvalidArgument,
                  "srcShape[0] must be greater than 0."},
        ErrorCase{"NegativeH",
                  {2, 32, -16, -16},
                  4,
                  6144,
                  StatusCode::kInvalidArgument,
                  "srcShape[2] must be greater than 0."},
        ErrorCase{"HugeDim",
                  {int64_t{1} << 33, 1, 16, 16},
                  4,
                  6144,
                  StatusCode::kOutOfRange,
                  "srcShape[0] = 8589934592 does not fit in uint32"},
        ErrorCase{"BshOverflow",
                  {65536, 1, 65536, 16},
                  4,
                  6144,
                  StatusCode::kOutOfRange,
                  "B*S*H = 4294967296 does not fit in uint32"},
        ErrorCase{"StackTooSmallE2",
                  {1, 8, 8, 8},
                  4,
                  100,
                  StatusCode::kInvalidArgument,
                  "stackBufferSize is not enough."},
        ErrorCase{"StackZero",
                  {1, 8, 8, 8},
                  2,
                  0,
                  StatusCode::kInvalidArgument,
                  "stackBufferSize is not enough."}),
    [](const ::testing::TestParamInfo<ErrorCase>& info) { return std::string(info.param.name); });

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
