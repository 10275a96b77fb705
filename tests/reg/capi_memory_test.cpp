// Tests of layer reg: register loads and stores (a tail under a mask, alignment and UB bounds),
// the GM <-> UB copies with strides, and asc_vf_call of a SIMD vector function, on the simulated
// 950 (the expected bytes are written from the reference's definitions).
#include <gtest/gtest.h>

#include <numeric>
#include <vector>

#include "c_api/asc_simd.h"
#include "capi_test_util.h"
#include "lngrad_aicore/check.h"
#include "lngrad_aicore/launch.h"

namespace {

namespace aicore = lngrad::aicore;

using namespace lngrad::reg::testing;

__simd_vf__ void AddOne(__ubuf__ float* dst, __ubuf__ float* src, uint32_t count) {
  vector_float x, y;
  const uint32_t lanes = asc_get_vf_len() / sizeof(float);
  for (uint32_t i = 0; count > 0; ++i) {
    const vector_bool mask = asc_update_mask_b32(count);
    asc_loadalign(x, src + i * lanes);
    asc_add_scalar(y, x, 1.0f, mask);
    asc_storealign(dst + i * lanes, y, mask);
  }
}

TEST(CApiMemory, VectorFunctionTailUnderMask) {
  std::vector<float> seen(160);
  const auto failures = Run950([&] {
    __ubuf__ float* src = Ub<float>(0);
    __ubuf__ float* dst = Ub<float>(1024);
    for (uint32_t i = 0; i < 192; ++i) src[i] = float(i), dst[i] = -5.0f;
    asc_vf_call<AddOne>(dst, src, 150u);  // two full registers and a tail of 22 lanes
    std::copy(dst, dst + 160, seen.begin());
  });
  ASSERT_TRUE(failures.empty()) << failures[0].message;
  for (uint32_t i = 0; i < 160; ++i) EXPECT_EQ(seen[i], i < 150 ? float(i) + 1 : -5.0f) << i;
}

TEST(CApiMemory, MisalignedAndOutOfUbAccessesAreChecked) {
  aicore::SetCheckedMode(true);
  auto failures = Run950([] {
    vector_float x;
    asc_loadalign(x, Ub<float>(4));
  });
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_EQ(failures[0].check, aicore::checks::kRegAlign);
  failures = Run950([] {
    vector_float x;
    float host[64] = {};
    asc_loadalign(x, host);
  });
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_EQ(failures[0].check, aicore::checks::kRegUbBounds);
}

TEST(CApiMemory, StridedCopiesThroughUb) {
  // 4 rows of 5 floats, 8 floats apart in GM, to UB rows 64 bytes apart, then back to GM rows
  // 6 floats apart.
  std::vector<float> in(32), out(24, -1.0f);
  std::iota(in.begin(), in.end(), 0.0f);
  aicore::GmRegistration r1(in.data(), in.size() * 4), r2(out.data(), out.size() * 4);
  const auto failures = Run950([&] {
    __ubuf__ float* ub = Ub<float>(0);
    asc_copy_gm2ub_align(ub, in.data(), 4, 20, 0, 0, false,
                         asc_load_l2_cache_mode::NORMAL_FIRST_VICTIM, 32, 64);
    asc_sync_notify(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
    asc_sync_wait(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
    asc_copy_ub2gm_align(out.data(), ub, 4, 20, asc_store_l2_cache_mode::NORMAL_FIRST_VICTIM, 24,
                         64);
  });
  ASSERT_TRUE(failures.empty()) << failures[0].message;
  for (uint32_t row = 0; row < 4; ++row) {
    for (uint32_t c = 0; c < 6; ++c) EXPECT_EQ(out[row * 6 + c], c < 5 ? in[row * 8 + c] : -1.0f);
  }
}

TEST(CApiMemory, SyncBetweenPipesTheCoreDoesNotHaveIsChecked) {
  const auto failures = Run950([] { asc_sync_notify(PIPE_MTE2, PIPE_MTE2, EVENT_ID0); });
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_EQ(failures[0].check, aicore::checks::kRegArgs);
}

}  // namespace
