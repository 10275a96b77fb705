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
  // An unknown name is an error where there is a Status to return, never a silent default.
  const Product* checked = nullptr;
  const Status st = CurrentProductChecked(&checked);
  if constexpr (LNGRAD_ENV_VALID != 0) {
    ASSERT_TRUE(st.ok()) << st.ToString();
    EXPECT_EQ(checked->soc, LNGRAD_EXPECTED_SOC);
  } else {
    EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
    EXPECT_NE(st.message().find("LNGRAD_SOC \"" + std::string(env) + "\" is not a known SoC name"),
              std::string::npos)
        << st.message();
    EXPECT_EQ(checked, nullptr);
  }
  EXPECT_EQ(CurrentProduct().soc, LNGRAD_EXPECTED_SOC);
  ASSERT_TRUE(SetCurrentSoc("Ascend910B3").ok());
  EXPECT_EQ(CurrentProduct().soc, "Ascend910B3");
  // A product chosen in code makes the variable irrelevant, valid or not.
  ASSERT_TRUE(CurrentProductChecked(&checked).ok());
  EXPECT_EQ(checked->soc, "Ascend910B3");
  // The variable is read once: changing it later has no effect.
  ::setenv("LNGRAD_SOC", "Ascend310P1", 1);
  EXPECT_EQ(CurrentProduct().soc, "Ascend910B3");
}

}  // namespace
}  // namespace lngrad
