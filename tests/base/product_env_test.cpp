// LNGRAD_SOC selection. CTest runs this binary with LNGRAD_SOC set (see CMakeLists.txt);
// the expected product comes from the compile definition, so each registration checks its own.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "lngrad/product.h"

namespace lngrad {
namespace {

TEST(PlatformEnvTest, EnvSelectsProductAndSetCurrentSocOverridesIt) {
  const char* env = std::getenv("LNGRAD_SOC");
  ASSERT_NE(env, nullptr) << "run through ctest: LNGRAD_SOC must be set";
  EXPECT_EQ(CurrentProduct().soc, LNGRAD_EXPECTED_SOC);
  ASSERT_TRUE(SetCurrentSoc("Ascend910B3").ok());
  EXPECT_EQ(CurrentProduct().soc, "Ascend910B3");
  // The variable is read once: changing it later has no effect.
  ::setenv("LNGRAD_SOC", "Ascend310P1", 1);
  EXPECT_EQ(CurrentProduct().soc, "Ascend910B3");
}

}  // namespace
}  // namespace lngrad
