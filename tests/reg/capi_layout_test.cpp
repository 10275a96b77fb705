// Tests of layer reg: the newer UB forms of the C API on the simulated 950: post-update loads
// and stores, mask register loads and stores, unpacking loads and packing stores, the 32-byte
// block copies and the count form of the UB vector instructions (expected bytes written from the
// reference's definitions).
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "c_api/asc_simd.h"
#include "capi_test_util.h"
#include "lngrad_aicore/check.h"
#include "lngrad_aicore/launch.h"

namespace {

namespace aicore = lngrad::aicore;

using namespace lngrad::reg::testing;

TEST(CApiLayout, PostUpdateAndMaskRegisters) {
  const auto failures = Run950([] {
    __ubuf__ int32_t* src = Ub<int32_t>(0);
    for (int32_t i = 0; i < 128; ++i) src[i] = i;
    __ubuf__ int32_t* p = src;
    vector_int32_t a, b;
    asc_loadalign_postupdate(a, p, 64);
    asc_loadalign_postupdate(b, p, 64);
    EXPECT_EQ(p, src + 128);
    EXPECT_EQ(a.lane[5], 5);
    EXPECT_EQ(b.lane[5], 69);
    __ubuf__ int32_t* q = Ub<int32_t>(1024);
    asc_storealign_postupdate(q, b, 64, asc_create_mask_b32(PAT_ALL));
    EXPECT_EQ(q, Ub<int32_t>(1024) + 64);
    EXPECT_EQ(Ub<int32_t>(1024)[0], 64);
    // A mask register round trip: 32 bytes; the post-update form steps offset bytes.
    __ubuf__ uint8_t* bits = Ub<uint8_t>(2048);
    for (int i = 0; i < 64; ++i) bits[i] = static_cast<uint8_t>(i * 7);
    vector_bool m, n;
    asc_loadalign(m, reinterpret_cast<__ubuf__ uint32_t*>(bits));
    __ubuf__ uint32_t* mp = reinterpret_cast<__ubuf__ uint32_t*>(bits);
    asc_loadalign_postupdate(n, mp, 32);
    asc_loadalign_postupdate(n, mp, 32);
    EXPECT_EQ(reinterpret_cast<__ubuf__ uint8_t*>(mp), bits + 64);
    EXPECT_EQ(n.bits[0], 32 * 7 % 256);
    asc_storealign(Ub<uint8_t>(3072), m);
    EXPECT_EQ(std::memcmp(Ub<uint8_t>(3072), bits, 32), 0);
  });
  ASSERT_TRUE(failures.empty()) << failures[0].message;
}

TEST(CApiLayout, UnpackAndPack) {
  const auto failures = Run950([] {
    __ubuf__ uint16_t* src = Ub<uint16_t>(0);
    for (uint16_t i = 0; i < 128; ++i) src[i] = static_cast<uint16_t>(1000 + i);
    vector_uint16_t u;
    asc_loadalign_unpack(u, src);  // element j to lane 2j, lane 2j + 1 zero
    for (uint32_t j = 0; j < 64; ++j) {
      EXPECT_EQ(u.lane[2 * j], 1000 + j);
      EXPECT_EQ(u.lane[2 * j + 1], 0);
    }
    vector_int32_t w;
    for (int32_t i = 0; i < 64; ++i) w.lane[i] = 0x10000 * i + (i + 7);
    __ubuf__ int32_t* dst = Ub<int32_t>(1024);
    for (int i = 0; i < 64; ++i) dst[i] = -1;
    uint32_t n = 40;
    asc_storealign_pack(dst, w, asc_update_mask_b32(n));  // low 16 bits of lanes 0..39
    const auto* halves = reinterpret_cast<const int16_t*>(dst);
    for (int i = 0; i < 40; ++i) EXPECT_EQ(halves[i], i + 7) << i;
    for (int i = 40; i < 64; ++i) EXPECT_EQ(halves[i], -1) << i;  // untouched
    vector_float f = static_cast<vector_float>(w);  // the register cast keeps the bits
    EXPECT_EQ(std::memcmp(f.lane, w.lane, 256), 0);
  });
  ASSERT_TRUE(failures.empty()) << failures[0].message;
}

TEST(CApiLayout, BlockCopiesAndUbVectorCountForm) {
  std::vector<float> x(128), y(128), z(128, 0.0f);
  for (int i = 0; i < 128; ++i) x[i] = float(i), y[i] = 0.5f * float(i);
  const auto failures = Run950([&] {
    __ubuf__ float* a = Ub<float>(0);
    __ubuf__ float* b = Ub<float>(512);
    __ubuf__ float* c = Ub<float>(1024);
    asc_copy_gm2ub(a, x.data(), 128 * sizeof(float));
    asc_copy_gm2ub_sync(b, y.data(), 128 * sizeof(float));
    asc_add_sync(c, a, b, 96u);  // the first 96 elements
    asc_mul(c + 96, a + 96, b + 96, 32u);
    asc_copy_ub2gm_sync(z.data(), c, 128 * sizeof(float));
  });
  ASSERT_TRUE(failures.empty()) << failures[0].message;
  for (int i = 0; i < 128; ++i) EXPECT_EQ(z[i], i < 96 ? x[i] + y[i] : x[i] * y[i]) << i;
}

TEST(CApiLayout, BlockRowsWithGaps) {
  std::vector<uint8_t> src(256), out(256, 0);
  for (int i = 0; i < 256; ++i) src[i] = static_cast<uint8_t>(i);
  const auto failures = Run950([&] {
    __ubuf__ uint8_t* ub = Ub<uint8_t>(0);
    // 2 rows of 1 block, GM gap 1 block, UB gap 0: GM bytes 0..31 and 64..95.
    asc_copy_gm2ub(ub, src.data(), 2, 1, 1, 0);
    asc_copy_ub2gm(out.data(), ub, 2, 1, 0, 2);  // UB gap 0, GM gap 2 blocks
  });
  ASSERT_TRUE(failures.empty()) << failures[0].message;
  for (int i = 0; i < 32; ++i) {
    EXPECT_EQ(out[i], i);
    EXPECT_EQ(out[96 + i], 64 + i);
    EXPECT_EQ(out[32 + i], 0);
  }
}

}  // namespace
