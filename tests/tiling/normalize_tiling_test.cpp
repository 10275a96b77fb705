// Host tiling of the [A, R] family: GetNormalizeMaxMinTmpSize and the isComputeRstd overload of
// GetLayerNormNDTilingInfo (LayerNormSeparateTiling). Expected numbers are worked out by hand
// from the formulas of spec §10.6; each case shows its arithmetic.
#include <gtest/gtest.h>

#include <bit>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "tiling_test_util.h"

namespace lngrad::tiling {
namespace {

using AscendC::tiling::LayerNormSeparateTiling;
using namespace testing;  // the tiling tests' helpers (tiling_test_util.h)

MaxMin NormalizeSizes(const ge::Shape& shape, uint32_t u, uint32_t t) {
  return AgreeingMaxMin(
      [&](uint32_t& max, uint32_t& min) {
        return NormalizeMaxMinTmpSize(shape, u, t, false, true, false, max, min);
      },
      [&](uint32_t& max, uint32_t& min) {
        AscendC::GetNormalizeMaxMinTmpSize(shape, u, t, false, true, false, max, min);
      });
}

LayerNormSeparateTiling Separate(const ge::Shape& shape, uint32_t stack, uint32_t typeSize) {
  return AgreeingTiling<LayerNormSeparateTiling>(
      [&](LayerNormSeparateTiling& t) {
        return LayerNormSeparateNDTilingInfo(shape, stack, typeSize, false, true, t);
      },
      [&](LayerNormSeparateTiling& t) {
        AscendC::GetLayerNormNDTilingInfo(shape, stack, typeSize, false, true, t);
      });
}

void ExpectFields(const LayerNormSeparateTiling& t, const std::string& fields) {
  std::istringstream in(fields);
  std::string item;
  while (in >> item) {
    const size_t eq = item.find('=');
    ASSERT_NE(eq, std::string::npos) << item;
    const std::string name = item.substr(0, eq);
    std::optional<uint64_t> got;
#define LNGRAD_FIELD_BY_NAME(type, field) \
  if (name == #field) got = FieldBits(t.field);
    LNGRAD_LAYERNORM_SEPARATE_TILING_FIELDS(LNGRAD_FIELD_BY_NAME)
#undef LNGRAD_FIELD_BY_NAME
    ASSERT_TRUE(got.has_value()) << "no field " << name;
    EXPECT_EQ(*got, std::stoull(item.substr(eq + 1))) << "field " << name;
  }
}

uint32_t F(float v) { return std::bit_cast<uint32_t>(v); }

class NormalizeTilingTest : public ::testing::Test {
 protected:
  ScopedSoc soc_{"Ascend910B1"};
};

TEST_F(NormalizeTilingTest, NormalizeSizes2201) {
  // [8, 64] float: Rp = 64, row = ceil32(256) = 256, ceil8(A)*Rp*4 = 2048;
  // max = 2*256 + 2*2048 = 4608; min = max(ceil32(32), 2*256) = 512.
  EXPECT_EQ(NormalizeSizes(ge::Shape({8, 64}), 4, 4).max, 4608u);
  EXPECT_EQ(NormalizeSizes(ge::Shape({8, 64}), 4, 4).min, 512u);
  // half x, float gamma: Rp = ceil16(64) = 64; float U keeps 2 rows: 512.
  EXPECT_EQ(NormalizeSizes(ge::Shape({8, 64}), 4, 2).min, 512u);
  // half gamma: two more rows for the float copies of gamma and beta: 4*256 = 1024.
  EXPECT_EQ(NormalizeSizes(ge::Shape({8, 64}), 2, 2).min, 1024u);
  // [3, 20] half: Rp = 32, row = 128, ceil8(3)*32*4 = 1024 -> max = 256 + 2048 = 2304;
  // min = max(ceil32(12) = 32, 4*128) = 512.
  EXPECT_EQ(NormalizeSizes(ge::Shape({3, 20}), 2, 2).max, 2304u);
  EXPECT_EQ(NormalizeSizes(ge::Shape({3, 20}), 2, 2).min, 512u);
  // [100, 8] float: A dominates the minimum: ceil32(400) = 416 > 2*ceil32(32) = 64.
  EXPECT_EQ(NormalizeSizes(ge::Shape({100, 8}), 4, 4).min, 416u);
  // max = 2*32 + 2*ceil32(104*8*4 = 3328) = 64 + 6656 = 6720.
  EXPECT_EQ(NormalizeSizes(ge::Shape({100, 8}), 4, 4).max, 6720u);
}

TEST_F(NormalizeTilingTest, NormalizeSizes3510AreZero) {
  ScopedSoc soc("Ascend950PR_9599");
  const MaxMin m = NormalizeSizes(ge::Shape({8, 64}), 4, 4);
  EXPECT_EQ(m.max, 0u);
  EXPECT_EQ(m.min, 0u);
}

TEST_F(NormalizeTilingTest, NormalizeRejects) {
  struct Case {
    std::vector<int64_t> dims;
    uint32_t u, t;
    bool rstd, only;
    const char* message;
  };
  const Case cases[] = {
      {{8, 64}, 4, 4, false, false, "isComputeRstd current only support true"},
      {{8, 64}, 4, 4, true, true, "isOnlyOutput current only support false"},
      {{8, 64}, 0, 4, true, false, "typeSizeU can not be 0!"},
      {{8, 64}, 4, 0, true, false, "typeSizeT can not be 0!"},
      {{8, 64}, 4, 8, true, false, "typeSizeT 8 is unsupported"},
      {{2, 8, 64}, 4, 4, true, false, "The dims of srcShape is 3, should be 2"},
      {{0, 64}, 4, 4, true, false, "srcShape[0] must be greater than 0"},
  };
  for (const Case& c : cases) {
    uint32_t max = 111, min = 222;
    const Status s =
        NormalizeMaxMinTmpSize(ge::Shape(c.dims), c.u, c.t, false, c.rstd, c.only, max, min);
    EXPECT_FALSE(s.ok()) << c.message;
    EXPECT_TRUE(Contains(s.message(), c.message)) << s.message();
    EXPECT_TRUE(Contains(s.message(), "[Normalize][GetNormalizeMaxMinTmpSize]")) << s.message();
    EXPECT_EQ(max, 111u);
    EXPECT_EQ(min, 222u);
    AscendC::GetNormalizeMaxMinTmpSize(ge::Shape(c.dims), c.u, c.t, false, c.rstd, c.only, max,
                                       min);
    EXPECT_FALSE(LastTilingStatus().ok());
    EXPECT_EQ(max, 111u);
  }
}

TEST_F(NormalizeTilingTest, SeparateTilingOfTheVendorSample) {
  // layernorm_v2's host side: [32, 32] float with the minimum of the isComputeRstd sizes.
  // That minimum: Rp = 32, mv = ceil32(128) = 128, row = 128 -> 2*128 + 128 = 384, raised to
  // Normalize's min(=max(128, 256)) + mv = 384.
  uint32_t max = 0, min = 0;
  AscendC::GetLayerNormMaxMinTmpSize(ge::Shape({32, 32}), 4, false, true, false, max, min);
  ASSERT_EQ(min, 384u);
  // 384 bytes = 96 floats; variance ceil8(32) = 32; (96 - 32) / 2 = 32 -> one row of 32.
  const LayerNormSeparateTiling t = Separate(ge::Shape({32, 32}), min, 4);
  ExpectFields(t,
               "aLength=32 rLength=32 halfAddRepeatTimes=0 rHeadLength=0 k2Rec=0 k2RRec=0 "
               "inputXSize=1024 meanVarSize=32 numberOfTmpBuf=2 varianceTmpTensorPos=0 "
               "varianceTmpTensorSize=32 tmpBufSize=96 oneTmpSize=32 firstTmpStartPos=32 "
               "secondTmpStartPos=64 thirdTmpStartPos=0 loopRound=32 inputRoundSize=32 "
               "inputTailSize=0 inputTailPos=1024 meanVarRoundSize=1 meanVarTailSize=0 "
               "meanVarTailPos=32 arCurLength=32 aCurLength=1");
  EXPECT_EQ(F(t.rValueBack), F(1.0f / 32.0f));
}

TEST_F(NormalizeTilingTest, SeparateTilingWithTail) {
  // [5, 20] half, 1000 bytes: Rp = ceil16(20) = 32; 250 floats; variance ceil8(5) = 8;
  // (250 - 8) / 2 = 121 -> 96 (3 rows); A*Rp = 160 -> 1 round of 96 and a tail of 64 (2 rows)
  // at 96 / row 3.
  const LayerNormSeparateTiling t = Separate(ge::Shape({5, 20}), 1000, 2);
  ExpectFields(t,
               "aLength=5 rLength=20 inputXSize=160 meanVarSize=5 varianceTmpTensorSize=8 "
               "tmpBufSize=250 oneTmpSize=96 firstTmpStartPos=8 secondTmpStartPos=104 "
               "loopRound=1 inputRoundSize=96 inputTailSize=64 inputTailPos=96 "
               "meanVarRoundSize=3 meanVarTailSize=2 meanVarTailPos=3 arCurLength=96 "
               "aCurLength=3");
  EXPECT_EQ(F(t.rValueBack), F(1.0f / 20.0f));
  // The whole input fits: oneTmpSize is capped at A*Rp.
  const LayerNormSeparateTiling big = Separate(ge::Shape({5, 20}), 1 << 16, 2);
  ExpectFields(big, "oneTmpSize=160 loopRound=1 inputTailSize=0 aCurLength=5");
}

TEST_F(NormalizeTilingTest, SeparateTilingTooSmall) {
  // [4, 64] float: variance 8 floats + 2 rows of 64 = 136 floats = 544 bytes is the least.
  auto t = Poisoned<LayerNormSeparateTiling>();
  LayerNormSeparateTiling fits;
  EXPECT_TRUE(LayerNormSeparateNDTilingInfo(ge::Shape({4, 64}), 544, 4, false, true, fits).ok());
  EXPECT_EQ(fits.oneTmpSize, 64u);
  const Status s = LayerNormSeparateNDTilingInfo(ge::Shape({4, 64}), 540, 4, false, true, t);
  EXPECT_FALSE(s.ok());
  EXPECT_TRUE(Contains(s.message(), "stackBufferSize is not enough")) << s.message();
  EXPECT_TRUE(SameBytes(t, Poisoned<LayerNormSeparateTiling>()));
  // Below the variance alone (the toolkit's unsigned subtraction would wrap).
  EXPECT_FALSE(LayerNormSeparateNDTilingInfo(ge::Shape({4, 64}), 16, 4, false, true, t).ok());
  for (const std::vector<int64_t>& dims :
       std::vector<std::vector<int64_t>>{{4, 64, 1, 1}, {4}, {4, -1}}) {
    EXPECT_FALSE(LayerNormSeparateNDTilingInfo(ge::Shape(dims), 4096, 4, false, true, t).ok());
  }
  EXPECT_FALSE(LayerNormSeparateNDTilingInfo(ge::Shape({4, 64}), 4096, 3, false, true, t).ok());
  EXPECT_TRUE(SameBytes(t, Poisoned<LayerNormSeparateTiling>()));
}

TEST_F(NormalizeTilingTest, SeparateTiling3510) {
  ScopedSoc soc("Ascend950PR_9599");
  struct Case {
    uint32_t r, head, k;
    float k2_rec, k2_r_rec;
  };
  // rHeadLength: the largest power of two >= 64 with 2*rHeadLength > R; k = log2(rHeadLength);
  // k' = k, plus one when 2^k < R; k2Rec = 2^-k', k2RRec = 2^k' / R.
  const Case cases[] = {
      {32, 64, 6, 1.0f / 64, 2.0f},
      {64, 64, 6, 1.0f / 64, 1.0f},
      {65, 64, 6, 1.0f / 128, 128.0f / 65},
      {128, 128, 7, 1.0f / 128, 1.0f},
      {200, 128, 7, 1.0f / 256, 256.0f / 200},
      {1000, 512, 9, 1.0f / 1024, 1024.0f / 1000},
  };
  for (const Case& c : cases) {
    const LayerNormSeparateTiling t = Separate(ge::Shape({7, c.r}), 0, 4);
    EXPECT_EQ(t.rLength, c.r);
    EXPECT_EQ(t.rHeadLength, c.head) << c.r;
    EXPECT_EQ(t.oneTmpSize, c.k) << c.r;
    EXPECT_EQ(F(t.k2Rec), F(c.k2_rec)) << c.r;
    EXPECT_EQ(F(t.k2RRec), F(c.k2_r_rec)) << c.r;
    ExpectFields(t, "aLength=0 inputXSize=0 firstTmpStartPos=0 loopRound=0 rValueBack=0");
  }
  // The optiling overload sets only those five fields, as the toolkit's does.
  optiling::LayerNormSeparateTiling host;
  host.set_aLength(99);
  host.set_loopRound(42);
  AscendC::GetLayerNormNDTilingInfo(ge::Shape({7, 200}), 0, 4, false, true, host);
  LayerNormSeparateTiling image;
  host.SaveToBuffer(&image, sizeof(image));
  ExpectFields(image, "aLength=99 loopRound=42 rLength=200 rHeadLength=128 oneTmpSize=7");
}

}  // namespace
}  // namespace lngrad::tiling
