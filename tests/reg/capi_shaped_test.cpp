// Tests of layer reg: the C flavour's shaped loads (asc_loadalign_brc/upsample/downsample/
// unpack4/brc_datablock/brc_elem2datablock and their deprecated names), the address register
// (asc_update_addr_reg_bN), asc_load/asc_store, the data-block loads and stores and the repeat
// forms of the UB vector instructions. Expected values come from reg_model.h (a separate reading
// of the reference); the C++ flavour's LoadAlign<T, LoadDist> must give the same bits.
#include <gtest/gtest.h>

#include <vector>

#include "cpp_test_util.h"

namespace {

namespace aicore = lngrad::aicore;
namespace Reg = AscendC::Reg;

using namespace lngrad::reg::testing;

constexpr uint32_t kHalfs = kN<uint16_t>;  // 128 b16 lanes

// Loads with the C name from UB filled with 0, 1, 2, ... (uint16_t) and returns the lanes and
// the C++ flavour's lanes for dist.
template <typename Load, typename CppLoad>
void LoadBoth(Load load, CppLoad cppLoad, std::vector<uint16_t>* c, std::vector<uint16_t>* cpp) {
  const auto failures = Run950([&] {
    __ubuf__ uint16_t* ub = Ub<uint16_t>(0);
    for (uint32_t i = 0; i < 4 * kHalfs; ++i) ub[i] = static_cast<uint16_t>(i + 1);
    vector_uint16_t a;
    load(a, ub);
    *c = Lanes(a);
    Reg::RegTensor<uint16_t> b;
    cppLoad(b, ub);
    *cpp = Lanes<uint16_t>(b);
  });
  ASSERT_TRUE(failures.empty()) << failures[0].message;
}

template <ModelShape shape>
void ExpectShape(const std::vector<uint16_t>& got) {
  std::vector<uint16_t> ub(4 * kHalfs);
  for (uint32_t i = 0; i < ub.size(); ++i) ub[i] = static_cast<uint16_t>(i + 1);
  EXPECT_EQ(got, ModelShapedLoad(shape, ub));
}

#define LNGRAD_TEST_SHAPE(cname, dist, shape)                               \
  {                                                                         \
    std::vector<uint16_t> c, cpp;                                           \
    LoadBoth([](vector_uint16_t& r, __ubuf__ uint16_t* p) { cname(r, p); }, \
             [](Reg::RegTensor<uint16_t>& r, __ubuf__ uint16_t* p) {        \
               Reg::LoadAlign<uint16_t, Reg::LoadDist::dist>(r, p);         \
             },                                                             \
             &c, &cpp);                                                     \
    ExpectShape<ModelShape::shape>(c);                                      \
    EXPECT_EQ(c, cpp) << #cname;                                            \
  }

TEST(CApiShaped, ShapedLoadsFollowTheModelAndTheCppFlavour){
    LNGRAD_TEST_SHAPE(asc_loadalign_brc, DIST_BRC_B16, kBrcElem)
        LNGRAD_TEST_SHAPE(asc_loadalign_brc_elem, DIST_BRC_B16, kBrcElem)
            LNGRAD_TEST_SHAPE(asc_loadalign_upsample, DIST_US_B16, kUpsample)
                LNGRAD_TEST_SHAPE(asc_loadalign_downsample, DIST_DS_B16, kDownsample)
                    LNGRAD_TEST_SHAPE(asc_loadalign_brc_datablock, DIST_BLK, kBrcBlock)
                        LNGRAD_TEST_SHAPE(asc_loadalign_brc_v2, DIST_BLK, kBrcBlock)
                            LNGRAD_TEST_SHAPE(asc_loadalign_brc_elem2datablock, DIST_E2B_B16,
                                              kElemToBlock)
                                LNGRAD_TEST_SHAPE(asc_loadalign_brc_v3, DIST_E2B_B16, kElemToBlock)}

TEST(CApiShaped, Unpack4OfBytes) {
  std::vector<uint8_t> got;
  const auto failures = Run950([&] {
    __ubuf__ uint8_t* ub = Ub<uint8_t>(0);
    for (uint32_t i = 0; i < 256; ++i) ub[i] = static_cast<uint8_t>(255 - i);
    vector_uint8_t a, b;
    asc_loadalign_unpack4(a, ub);
    asc_loadalign_unpack_v2(b, ub);
    got = Lanes(a);
    EXPECT_EQ(got, Lanes(b));
  });
  ASSERT_TRUE(failures.empty()) << failures[0].message;
  std::vector<uint8_t> ub(256);
  for (uint32_t i = 0; i < 256; ++i) ub[i] = static_cast<uint8_t>(255 - i);
  EXPECT_EQ(got, ModelShapedLoad(ModelShape::kUnpack4, ub));
}

// The address register of the innermost loop: iteration i adds i * offset elements; a new
// vector function starts again at 0.
__simd_vf__ void CopyByAddrReg(__ubuf__ float* dst, __ubuf__ float* src, uint32_t repeats) {
  vector_float x;
  const vector_bool all = asc_create_mask_b32(PAT_ALL);
  for (uint32_t i = 0; i < repeats; ++i) {
    const addr_reg offset = asc_update_addr_reg_b32(64);
    asc_loadalign(x, src, offset);
    asc_storealign(dst, x, offset, all);
  }
}

TEST(CApiShaped, AddressRegisterCountsTheLoopAndRestartsPerVectorFunction) {
  std::vector<float> seen(4 * 64);
  const auto failures = Run950([&] {
    __ubuf__ float* src = Ub<float>(0);
    __ubuf__ float* dst = Ub<float>(4096);
    for (uint32_t i = 0; i < 4 * 64; ++i) src[i] = float(i), dst[i] = -1.0f;
    asc_vf_call<CopyByAddrReg>(dst, src, 3u);
    asc_vf_call<CopyByAddrReg>(dst + 3 * 64, src + 3 * 64, 1u);  // offset 0 again
    std::copy(dst, dst + 4 * 64, seen.begin());
  });
  ASSERT_TRUE(failures.empty()) << failures[0].message;
  for (uint32_t i = 0; i < 3 * 64; ++i) EXPECT_EQ(seen[i], float(i)) << i;
  for (uint32_t i = 0; i < 64; ++i) EXPECT_EQ(seen[3 * 64 + i], float(3 * 64 + i)) << i;
}

TEST(CApiShaped, LoadAndStoreNeedOnlyElementAlignment) {
  std::vector<int32_t> seen(80);
  const auto failures = Run950([&] {
    __ubuf__ int32_t* ub = Ub<int32_t>(0);
    for (uint32_t i = 0; i < 160; ++i) ub[i] = int32_t(i);
    vector_int32_t x;
    asc_load(x, ub + 3);         // 12 bytes past a 32-byte boundary
    asc_store(ub + 81, x);       // all 64 lanes
    asc_store(ub + 145, x, 5u);  // the first 5 lanes
    std::copy(ub + 80, ub + 160, seen.begin());
  });
  ASSERT_TRUE(failures.empty()) << failures[0].message;
  EXPECT_EQ(seen[0], 80);
  for (uint32_t i = 0; i < 64; ++i) EXPECT_EQ(seen[1 + i], int32_t(3 + i)) << i;
  for (uint32_t i = 0; i < 5; ++i) EXPECT_EQ(seen[65 + i], int32_t(3 + i)) << i;
  for (uint32_t i = 70; i < 80; ++i) EXPECT_EQ(seen[i], int32_t(80 + i)) << i;
}

TEST(CApiShaped, StoreCountOutsideTheLanesIsAnError) {
  const auto failures = Run950([] {
    vector_float x;
    asc_store(Ub<float>(0), x, 65u);
  });
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_EQ(failures[0].check, aicore::checks::kRegArgs);
  EXPECT_NE(failures[0].message.find("count 65"), std::string::npos) << failures[0].message;
}

// The data-block form: block b at b * block_stride blocks; the post-update form advances by
// repeat_stride blocks.
TEST(CApiShaped, DataBlockLoadAndStorePostUpdate) {
  std::vector<uint16_t> c, cpp;
  std::vector<uint16_t> out(2 * kHalfs);
  const auto failures = Run950([&] {
    __ubuf__ uint16_t* ub = Ub<uint16_t>(0);
    for (uint32_t i = 0; i < 8 * kHalfs; ++i) ub[i] = static_cast<uint16_t>(i);
    const vector_bool all = asc_create_mask_b16(PAT_ALL);
    __ubuf__ uint16_t* src = ub;
    vector_uint16_t a;
    asc_loadalign_postupdate(a, src, 2, 16, all);
    asc_loadalign_postupdate(a, src, 2, 16, all);  // the second repeat, 16 blocks on
    c = Lanes(a);
    __ubuf__ uint16_t* cppSrc = ub + 16 * 16;
    Reg::RegTensor<uint16_t> b;
    Reg::LoadAlign<uint16_t, Reg::DataCopyMode::DATA_BLOCK_COPY>(b, cppSrc, 2, all);
    cpp = Lanes<uint16_t>(b);
    __ubuf__ uint16_t* dst = Ub<uint16_t>(8192);
    for (uint32_t i = 0; i < 2 * kHalfs; ++i) dst[i] = 0xFFFF;
    asc_storealign_postupdate(dst, a, 2, 8, all);
    EXPECT_EQ(dst, Ub<uint16_t>(8192) + 8 * 16);
    std::copy(Ub<uint16_t>(8192), Ub<uint16_t>(8192) + 2 * kHalfs, out.begin());
  });
  ASSERT_TRUE(failures.empty()) << failures[0].message;
  for (uint32_t k = 0; k < kHalfs; ++k) {
    EXPECT_EQ(c[k], ModelRepeatOffset(1, k, 16, 2, 16)) << k;
    // stored block b at 2b blocks; the blocks between are untouched
    EXPECT_EQ(out[ModelRepeatOffset(0, k, 16, 2, 8)], c[k]) << k;
  }
  EXPECT_EQ(c, cpp);
  EXPECT_EQ(out[16], 0xFFFF);
}

// asc_add's repeat form under the full vector mask: repeat r of 64 floats, strides in blocks.
TEST(CApiShaped, VectorRepeatFormFollowsItsStrides) {
  std::vector<float> got(1024);
  const auto failures = Run950([&] {
    __ubuf__ float* a = Ub<float>(0);
    __ubuf__ float* b = Ub<float>(8192);
    __ubuf__ float* d = Ub<float>(16384);
    for (uint32_t i = 0; i < 1024; ++i) a[i] = float(i), b[i] = 0.5f * float(i), d[i] = -1.0f;
    asc_add(d, a, b, 2, 1, 2, 1, 8, 16, 8);
    std::copy(d, d + 1024, got.begin());
  });
  ASSERT_TRUE(failures.empty()) << failures[0].message;
  std::vector<float> want(1024, -1.0f);
  for (uint32_t r = 0; r < 2; ++r) {
    for (uint32_t e = 0; e < 64; ++e) {
      want[ModelRepeatOffset(r, e, 8, 1, 8)] =
          float(ModelRepeatOffset(r, e, 8, 2, 16)) + 0.5f * float(ModelRepeatOffset(r, e, 8, 1, 8));
    }
  }
  EXPECT_EQ(got, want);
}

}  // namespace

namespace {

__simd_vf__ void CopyRegister(__ubuf__ float* dst, __ubuf__ float* src) {
  vector_float x;
  asc_loadalign(x, src);
  asc_storealign(dst, x, asc_create_mask_b32(PAT_ALL));
}

// With a sanitizer tool on, a vector function's UB accesses are checked and recorded (the fast
// UB path is off): reading UB nothing wrote is an initcheck finding.
TEST(CApiShaped, SanitizerSeesAVectorFunctionsUb) {
  lngrad::aicore::LaunchOptions o;
  o.soc = "Ascend950PR_9599";
  o.sanitize = lngrad::aicore::san::kAllTools;
  std::vector<lngrad::aicore::BlockFailure> failures;
  testing::internal::CaptureStderr();
  (void)lngrad::aicore::RunBlocks(
      "reg_test", 1, [] { asc_vf_call<CopyRegister>(Ub<float>(4096), Ub<float>(0)); }, o,
      &failures);
  const std::string report = testing::internal::GetCapturedStderr();
  ASSERT_FALSE(failures.empty()) << report;
  EXPECT_NE(failures[0].message.find("initcheck"), std::string::npos) << failures[0].message;
}

}  // namespace
