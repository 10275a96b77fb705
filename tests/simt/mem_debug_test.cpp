// assert and clock inside SIMT threads (simt_api/common_functions.h), as the kit's samples
// 01_utilities/01_assert and 02_clock use them: a failed assert prints the device's
// "[ASSERT] file:line: function: Assertion `expr' failed." and fails the block with the check
// "assert"; clock() never decreases within a thread.
#undef NDEBUG  // the test build defines it; assert must be live here
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "mem_launch.h"
#include "simt_api/asc_simt.h"

namespace {

using lngrad::simt::testing::RunSimt;

TEST(SimtAssert, FailedAssertPrintsAndFailsTheBlock) {
  std::vector<uint32_t> reached(64);
  uint32_t* r = reached.data();
  ::testing::internal::CaptureStdout();
  const std::string f = RunSimt(1, dim3(64), [=] {
    const uint32_t in_shape = 128;
    assert(in_shape > 1);  // holds: nothing happens
    r[threadIdx.x] = 1;
    if (threadIdx.x == 5) assert(in_shape < 1);
    r[threadIdx.x] = 2;
  });
  const std::string printed = ::testing::internal::GetCapturedStdout();
  EXPECT_EQ(f.rfind("assert: ", 0), 0u) << f;
  EXPECT_NE(f.find("Assertion `in_shape < 1' failed."), std::string::npos) << f;
  EXPECT_NE(printed.find("[ASSERT] "), std::string::npos) << printed;
  EXPECT_NE(printed.find("mem_debug_test.cpp:"), std::string::npos) << printed;
  EXPECT_NE(printed.find(": Assertion `in_shape < 1' failed.\n"), std::string::npos) << printed;
  EXPECT_EQ(reached[5], 1u);  // thread 5 stopped at its assert
}

TEST(SimtClock, NeverDecreasesWithinAThread) {
  std::vector<uint64_t> d(96, ~uint64_t{0});
  uint64_t* out = d.data();
  const std::string f = RunSimt(2, dim3(48), [=] {
    const uint64_t start = clock();
    volatile uint64_t sink = 0;
    for (uint32_t k = 0; k < 1000; ++k) sink = sink + k;
    const uint64_t end = clock();
    out[blockIdx.x * 48 + threadIdx.x] = end >= start ? 0 : 1;
  });
  ASSERT_EQ(f, "");
  for (size_t i = 0; i < d.size(); ++i) EXPECT_EQ(d[i], 0u) << i;
}

}  // namespace
