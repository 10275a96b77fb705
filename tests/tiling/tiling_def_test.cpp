// optiling::TilingDef and the tiling-data macros: byte images equal the plain kernel structs,
// nested structs and arrays, SaveToBuffer's capacity rule, ge::Shape.
#include <gtest/gtest.h>

#include <cstddef>
#include <vector>

#include "tiling_test_util.h"

namespace lngrad::tiling {
namespace {

using testing::Contains;
using testing::Poisoned;
using testing::SameBytes;

// A host tiling struct as the official sample defines it: the LayerNormGrad tiling + epsilon.
BEGIN_TILING_DATA_DEF(SampleTilingData)
TILING_DATA_FIELD_DEF_STRUCT(optiling::LayerNormGradTiling, layernormGradTilingData);
TILING_DATA_FIELD_DEF(float, epsilon);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(SampleOp, SampleTilingData);

// The vendor's samples end the registration without a semicolon, right before the closing
// brace of their namespace (optiling there; another name here, where optiling:: must keep meaning
// the library's).
namespace vendor_sample {
BEGIN_TILING_DATA_DEF(VendorSpellingTilingData)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(VendorSpellingOp, VendorSpellingTilingData)
}  // namespace vendor_sample

// Its kernel-side twin.
struct SampleKernelTiling {
  AscendC::tiling::LayerNormGradTiling layernormGradTilingData;
  float epsilon;
};

// Mixed alignments and an array.
BEGIN_TILING_DATA_DEF(MixedTilingData)
TILING_DATA_FIELD_DEF(uint8_t, flag);
TILING_DATA_FIELD_DEF(uint64_t, big);
TILING_DATA_FIELD_DEF(uint16_t, small);
TILING_DATA_FIELD_DEF_ARR(int32_t, 3, triple);
TILING_DATA_FIELD_DEF(uint8_t, last);
END_TILING_DATA_DEF;

struct MixedKernel {
  uint8_t flag;
  uint64_t big;
  uint16_t small;
  int32_t triple[3];
  uint8_t last;
};

TEST(TilingDefTest, RegistrationWithoutSemicolonKeepsTheClass) {
  vendor_sample::VendorSpellingTilingData t;
  t.set_totalLength(4096);
  EXPECT_EQ(t.get_totalLength(), 4096u);
  EXPECT_EQ(t.GetDataSize(), sizeof(uint32_t));
}

TEST(TilingDefTest, PlainStructSizes) {
  EXPECT_EQ(sizeof(AscendC::tiling::LayerNormGradTiling), 120u);
  EXPECT_EQ(sizeof(AscendC::tiling::LayerNormGradBetaTiling), 80u);
  EXPECT_EQ(sizeof(AscendC::tiling::LayerNormTiling), 104u);
  EXPECT_EQ(optiling::LayerNormGradTiling().GetDataSize(), 120u);
  EXPECT_EQ(optiling::LayerNormGradBetaTiling().GetDataSize(), 80u);
  EXPECT_EQ(optiling::LayerNormTiling().GetDataSize(), 104u);
  // Kernel code names the structs unqualified.
  static_assert(std::is_same_v<::LayerNormGradTiling, AscendC::tiling::LayerNormGradTiling>);
  static_assert(
      std::is_same_v<::LayerNormGradBetaTiling, AscendC::tiling::LayerNormGradBetaTiling>);
  static_assert(std::is_same_v<::LayerNormTiling, AscendC::tiling::LayerNormTiling>);
}

// The field lists used to build the optiling classes walk the plain structs in order.
template <class S>
struct OffsetWalk {
  size_t next = 0;
  int index = 0;
  bool ok = true;
  void Field(size_t offset, size_t size, const char* name) {
    EXPECT_EQ(offset, next) << "field " << index << " (" << name << ")";
    ok = ok && offset == next;
    next = offset + size;
    ++index;
  }
};
#define LNGRAD_WALK(type, name)                       \
  walk.Field(offsetof(S, name), sizeof(type), #name); \
  static_assert(sizeof(S::name) == sizeof(type));

TEST(TilingDefTest, FieldListsMatchStructs) {
  {
    using S = AscendC::tiling::LayerNormGradTiling;
    OffsetWalk<S> walk;
    LNGRAD_LAYERNORM_GRAD_TILING_FIELDS(LNGRAD_WALK)
    EXPECT_EQ(walk.index, 30);
    EXPECT_EQ(walk.next, sizeof(S));
  }
  {
    using S = AscendC::tiling::LayerNormGradBetaTiling;
    OffsetWalk<S> walk;
    LNGRAD_LAYERNORM_GRAD_BETA_TILING_FIELDS(LNGRAD_WALK)
    EXPECT_EQ(walk.index, 20);
    EXPECT_EQ(walk.next, sizeof(S));
  }
  {
    using S = AscendC::tiling::LayerNormTiling;
    OffsetWalk<S> walk;
    LNGRAD_LAYERNORM_TILING_FIELDS(LNGRAD_WALK)
    EXPECT_EQ(walk.index, 26);
    EXPECT_EQ(walk.next, sizeof(S));
  }
}
#undef LNGRAD_WALK

TEST(TilingDefTest, EveryFieldLandsAtItsStructOffset) {
  // Distinct value per field: a swapped or shifted field shows up.
  optiling::LayerNormGradTiling host;
  AscendC::tiling::LayerNormGradTiling expected;
  uint32_t v = 1000;
#define LNGRAD_SET(type, name) \
  host.set_##name(v);          \
  expected.name = v;           \
  ++v;
  LNGRAD_LAYERNORM_GRAD_TILING_FIELDS(LNGRAD_SET)
#undef LNGRAD_SET
  auto image = Poisoned<AscendC::tiling::LayerNormGradTiling>();
  host.SaveToBuffer(&image, sizeof(image));
  EXPECT_TRUE(LastTilingStatus().ok());
  EXPECT_TRUE(SameBytes(image, expected));
  EXPECT_EQ(host.get_stackBufferSize(), 1000u);
  EXPECT_EQ(host.get_lastDimValueBackMulTwo(), 1029u);

  optiling::LayerNormTiling ln;
  ln.set_bLength(7);
  ln.set_lastDimValueBack(0.25f);
  AscendC::tiling::LayerNormTiling plain;
  ln.SaveToBuffer(&plain, sizeof(plain));
  EXPECT_EQ(plain.bLength, 7u);
  EXPECT_EQ(plain.lastDimValueBack, 0.25f);
  EXPECT_EQ(plain.bsCurLength, 0u);  // fields default to 0
}

TEST(TilingDefTest, NestedStructImageMatchesKernelStruct) {
  testing::ScopedSoc soc("Ascend910B1");  // the 2201 numbers below
  SampleTilingData host;
  AscendC::GetLayerNormGradNDTilingInfo(ge::Shape({2, 32, 16, 16}), 6144, 4, false,
                                        host.layernormGradTilingData);
  ASSERT_TRUE(LastTilingStatus().ok());
  host.set_epsilon(1e-4f);
  EXPECT_EQ(host.GetDataSize(), sizeof(SampleKernelTiling));
  EXPECT_EQ(sizeof(SampleKernelTiling), 124u);  // 31 uint32 words, as the sample's TILINGDATA_SIZE

  std::vector<uint8_t> buffer(host.GetDataSize() + 8, 0xEE);
  host.SaveToBuffer(buffer.data(), buffer.size());
  SampleKernelTiling kernel;
  std::memcpy(&kernel, buffer.data(), sizeof(kernel));
  EXPECT_EQ(kernel.layernormGradTilingData.oneCalSize, 256u);
  EXPECT_EQ(kernel.layernormGradTilingData.x3TensorPos, 1280u);
  EXPECT_EQ(kernel.epsilon, 1e-4f);
  EXPECT_EQ(buffer[host.GetDataSize()], 0xEE);  // nothing past the image

  // Copies are independent and carry the nested data.
  SampleTilingData copy = host;
  host.layernormGradTilingData.set_oneCalSize(1);
  const std::vector<uint8_t> copy_image = copy.GetImage();
  SampleKernelTiling from_copy;
  std::memcpy(&from_copy, copy_image.data(), sizeof(from_copy));
  EXPECT_EQ(from_copy.layernormGradTilingData.oneCalSize, 256u);
  const std::vector<uint8_t> host_image = host.GetImage();
  SampleKernelTiling from_host;
  std::memcpy(&from_host, host_image.data(), sizeof(from_host));
  EXPECT_EQ(from_host.layernormGradTilingData.oneCalSize, 1u);
}

TEST(TilingDefTest, MixedAlignmentAndArrays) {
  MixedTilingData host;
  EXPECT_EQ(host.GetDataSize(), sizeof(MixedKernel));
  host.set_flag(3);
  host.set_big(0x0102030405060708ull);
  host.set_small(0xBEEF);
  const int32_t triple[3] = {-1, 2, -3};
  host.set_triple(triple);
  host.set_last(9);
  EXPECT_EQ(host.get_triple()[2], -3);
  MixedKernel k;
  std::memset(&k, 0, sizeof(k));
  host.SaveToBuffer(&k, sizeof(k));
  EXPECT_EQ(k.flag, 3);
  EXPECT_EQ(k.big, 0x0102030405060708ull);
  EXPECT_EQ(k.small, 0xBEEF);
  EXPECT_EQ(k.triple[0], -1);
  EXPECT_EQ(k.triple[1], 2);
  EXPECT_EQ(k.triple[2], -3);
  EXPECT_EQ(k.last, 9);
}

TEST(TilingDefTest, SaveToBufferRefusesSmallCapacity) {
  optiling::LayerNormGradTiling host;
  host.set_bLength(5);
  auto plain = Poisoned<AscendC::tiling::LayerNormGradTiling>();
  ::testing::internal::CaptureStderr();
  host.SaveToBuffer(&plain, sizeof(plain) - 1);
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_TRUE(Contains(err, "capacity 119 bytes, the tiling data needs 120 bytes")) << err;
  EXPECT_EQ(LastTilingStatus().code(), StatusCode::kOutOfRange);
  EXPECT_TRUE(SameBytes(plain, Poisoned<AscendC::tiling::LayerNormGradTiling>()));

  ::testing::internal::CaptureStderr();
  host.SaveToBuffer(nullptr, 4096);
  EXPECT_TRUE(Contains(::testing::internal::GetCapturedStderr(), "pData is null"));
  EXPECT_EQ(LastTilingStatus().code(), StatusCode::kOutOfRange);
}

TEST(GeShapeTest, Accessors) {
  const ge::Shape s({2, 32, 16, 8});
  EXPECT_EQ(s.GetDimNum(), 4u);
  EXPECT_EQ(s.GetDims(), (std::vector<int64_t>{2, 32, 16, 8}));
  EXPECT_EQ(s.GetDim(2), 16);
  EXPECT_EQ(s.GetDim(4), 0);  // out of range
  EXPECT_EQ(s.GetShapeSize(), 8192);
  ge::Shape t = s;
  EXPECT_TRUE(t.SetDim(3, 16));
  EXPECT_FALSE(t.SetDim(9, 1));
  EXPECT_EQ(t.GetShapeSize(), 16384);
  EXPECT_EQ(s.GetDim(3), 8);  // copies are independent
  std::vector<int64_t> dims{4, 5};
  const AscendC::TensorShape from_vector(dims);
  EXPECT_EQ(from_vector.GetShapeSize(), 20);
}

TEST(GeShapeTest, ShapeSizeEdgeCases) {
  EXPECT_EQ(ge::Shape().GetShapeSize(), 0);
  EXPECT_EQ(ge::Shape({3, 0, 2}).GetShapeSize(), 0);
  EXPECT_EQ(ge::Shape({3, -1, 2}).GetShapeSize(), -1);
  EXPECT_EQ(ge::Shape({-2}).GetShapeSize(), -1);
  EXPECT_EQ(ge::Shape({-3, -3}).GetShapeSize(), 9);
  EXPECT_EQ(ge::Shape({int64_t{1} << 40, int64_t{1} << 40}).GetShapeSize(), 0);  // overflow
}

}  // namespace
}  // namespace lngrad::tiling
