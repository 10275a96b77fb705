// ResolveImpl(kAuto) and the environment, which is read once per process: CTest runs this test
// once per setting (tests/aicore/CMakeLists.txt), with LNGRAD_TEST_EXPECTED_IMPL naming the
// implementation that setting must select.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <string>

#include "enum_name.h"
#include "lngrad_aicore/instructions.h"

namespace lngrad::aicore {
namespace {

const char* Name(Impl impl) {
  static constexpr test::EnumLabel<Impl> kNames[] = {{Impl::kAuto, "auto"},
                                                     {Impl::kSimd, "simd"},
                                                     {Impl::kScalar, "scalar"},
                                                     {Impl::kSimdSteps, "simd_steps"}};
  return test::EnumName(impl, kNames);
}

TEST(ImplEnvironment, AutoFollowsTheEnvironment) {
  // LNGRAD_IMPL=scalar wins, else LNGRAD_ADV_FUSE=0 selects the SIMD steps, else SIMD.
  const char* expected = std::getenv("LNGRAD_TEST_EXPECTED_IMPL");
  ASSERT_NE(expected, nullptr) << "run through CTest";
  EXPECT_STREQ(Name(ResolveImpl(Impl::kAuto)), expected);
  // Read once: a later change of the environment does not change the answer.
  ASSERT_EQ(setenv("LNGRAD_IMPL", std::strcmp(expected, "scalar") == 0 ? "" : "scalar", 1), 0);
  EXPECT_STREQ(Name(ResolveImpl(Impl::kAuto)), expected);
  // Explicit requests are returned unchanged whatever the environment says.
  EXPECT_EQ(ResolveImpl(Impl::kSimd), Impl::kSimd);
  EXPECT_EQ(ResolveImpl(Impl::kScalar), Impl::kScalar);
  EXPECT_EQ(ResolveImpl(Impl::kSimdSteps), Impl::kSimdSteps);
}

}  // namespace
}  // namespace lngrad::aicore
