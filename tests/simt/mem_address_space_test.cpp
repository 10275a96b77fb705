// The address-space predicates and conversions of SIMT threads (__isGlobal, __isUbuf, __isLocal,
// __cvta_*) against lngrad's mapping (lngrad_simt/mem_address_space.h): UB is the running
// block's simulated UB, local the thread's stack, GM every other address from 64 KiB up; and
// against the reference's table of special inputs (nullptr, (void*)1, all ones), read
// independently.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "lngrad_aicore/check.h"
#include "mem_launch.h"
#include "simt_api/device_functions.h"

namespace {

using lngrad::simt::testing::RunSimt;

// The three predicates of one pointer as a 3-digit string: global, ubuf, local.
std::string Classes(const void* p) {
  return std::to_string(__isGlobal(p)) + std::to_string(__isUbuf(p)) + std::to_string(__isLocal(p));
}

constexpr uint32_t kThreads = 40;

TEST(MemAddressSpace, PredicatesOfUbStackAndGmPointers) {
  std::vector<uint32_t> gm(kThreads * 2);
  std::vector<std::string> seen(kThreads * 2);
  uint32_t* g = gm.data();
  std::string* out = seen.data();
  const std::string f = RunSimt(
      2, dim3(kThreads),
      [=] {
        auto& shared = lngrad::simt::BlockArray<uint32_t[kThreads]>(&kThreads, "shared");
        uint32_t* dynamic = lngrad::simt::DynamicArray<uint32_t>("dyn");
        uint32_t local[4] = {threadIdx.x, 0, 0, 0};
        const uint32_t i = threadIdx.x + blockIdx.x * blockDim.x;
        out[i] = Classes(&shared[threadIdx.x]) + Classes(dynamic + threadIdx.x) +
                 Classes(local + 3) + Classes(g + i);
      },
      /*dynamic_ub_bytes=*/kThreads * 4);
  ASSERT_EQ(f, "");
  for (const std::string& s : seen)
    EXPECT_EQ(s,
              "010"
              "010"
              "001"
              "100");
}

TEST(MemAddressSpace, SpecialInputsAsDocumented) {
  std::vector<std::string> seen(1);
  std::vector<size_t> values(3);
  std::string* out = seen.data();
  size_t* v = values.data();
  const std::string f = RunSimt(1, dim3(1), [=] {
    const void* ones = reinterpret_cast<const void*>(~uintptr_t{0});
    *out = Classes(nullptr) + Classes(reinterpret_cast<const void*>(1)) + Classes(ones) +
           Classes(__cvta_global_to_generic(0)) + Classes(__cvta_global_to_generic(1)) +
           Classes(__cvta_global_to_generic(~size_t{0})) + Classes(__cvta_ubuf_to_generic(0)) +
           Classes(__cvta_ubuf_to_generic(1));
    v[0] = __cvta_generic_to_global(nullptr);
    v[1] = __cvta_generic_to_ubuf(nullptr);
    v[2] = __cvta_generic_to_local(nullptr);
  });
  ASSERT_EQ(f, "");
  EXPECT_EQ(seen[0],
            "000"
            "000"
            "100"
            "000"
            "000"
            "100"
            "010"
            "010");
  EXPECT_EQ(values[0], 0u);
  EXPECT_EQ(values[1], 0xfff80000u);
  EXPECT_EQ(values[2], 0xfff00000u);
}

// A UB address value is the offset from UB byte 0 (the dynamic UB starts there); GM and local
// address values are the host address; each conversion back gives the pointer again.
TEST(MemAddressSpace, ConversionsRoundTrip) {
  std::vector<uint32_t> gm(kThreads);
  std::vector<int> ok(kThreads);
  uint32_t* g = gm.data();
  int* out = ok.data();
  const std::string f = RunSimt(
      1, dim3(kThreads),
      [=] {
        std::byte* ub = lngrad::aicore::CurrentBlockContext()->ub;
        uint32_t* dynamic = lngrad::simt::DynamicArray<uint32_t>("dyn");
        auto& shared = lngrad::simt::BlockArray<uint32_t[kThreads]>(&gm, "shared");
        uint32_t local = 7;
        const uint32_t t = threadIdx.x;
        const size_t u = __cvta_generic_to_ubuf(&shared[t]);
        out[t] = __cvta_generic_to_ubuf(dynamic + t) == 4 * t &&
                 u == static_cast<size_t>(reinterpret_cast<std::byte*>(&shared[t]) - ub) &&
                 __cvta_ubuf_to_generic(u) == &shared[t] &&
                 __cvta_global_to_generic(__cvta_generic_to_global(g + t)) == g + t &&
                 __cvta_local_to_generic(__cvta_generic_to_local(&local)) == &local &&
                 __isLocal(__cvta_local_to_generic(__cvta_generic_to_local(&local))) == 1;
      },
      /*dynamic_ub_bytes=*/kThreads * 4);
  ASSERT_EQ(f, "");
  for (uint32_t t = 0; t < kThreads; ++t) EXPECT_EQ(ok[t], 1) << t;
}

// Outside a launch there is no UB: nothing is classified UB.
TEST(MemAddressSpace, NoUbOutsideALaunch) {
  int x = 0;
  EXPECT_EQ(__isUbuf(&x), 0u);
  EXPECT_EQ(__isLocal(&x), 1u);
}

}  // namespace
