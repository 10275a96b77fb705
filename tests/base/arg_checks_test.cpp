// The argument rules shared by the CLI and the Python module (lngrad/arg_checks.h).
#include "lngrad/arg_checks.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

namespace lngrad {
namespace {

std::string Message(const Status& st) { return st.ok() ? "OK" : st.message(); }

TEST(ArgChecks, EpsilonRefusesWhatTheKernelsCannotTakeWithTheValueAsGiven) {
  EXPECT_TRUE(CheckEpsilon(0, "--eps", false).ok());
  EXPECT_TRUE(CheckEpsilon(1e-5, "--eps", true).ok());
  EXPECT_TRUE(CheckEpsilon(65504, "--eps", true).ok());
  EXPECT_TRUE(CheckEpsilon(3.4028234663852886e38, "--eps", false).ok());
  EXPECT_EQ(Message(CheckEpsilon(-1, "--eps", false)), "--eps must be finite and >= 0 (got -1)");
  EXPECT_EQ(Message(CheckEpsilon(std::nan(""), "e", false)), "e must be finite and >= 0 (got nan)");
  EXPECT_EQ(Message(CheckEpsilon(HUGE_VAL, "e", false)), "e must be finite and >= 0 (got inf)");
  // Beyond the largest float: named as given (1e+300), never as the inf the float would be.
  EXPECT_EQ(Message(CheckEpsilon(1e300, "e", false))
                .rfind("e 1e+300 is too large: the kernels take "
                       "epsilon as a float",
                       0),
            0u);
  EXPECT_EQ(Message(CheckEpsilon(65520, "e", true)).rfind("e 6.552e+04 is too large: for half", 0),
            0u);
}

TEST(ArgChecks, ProductWithoutOverflow) {
  uint64_t p = 7;
  const int64_t ok[] = {2, 3, 4, 5};
  ASSERT_TRUE(CheckedProduct(ok, 4, "s", &p).ok());
  EXPECT_EQ(p, 120u);
  // 1 * 1 * 2^32 * 2^32 wraps to 0 in 64 bits.
  const int64_t wraps[] = {1, 1, int64_t{1} << 32, int64_t{1} << 32};
  EXPECT_EQ(Message(CheckedProduct(wraps, 4, "--shape [1,1,4294967296,4294967296]: B*S*H*H0", &p)),
            "--shape [1,1,4294967296,4294967296]: B*S*H*H0 overflows: the product of the extents "
            "exceeds 2^63 - 1");
  const int64_t past63[] = {int64_t{1} << 32, int64_t{1} << 31};
  EXPECT_FALSE(CheckedProduct(past63, 2, "s", &p).ok());
  const int64_t zero[] = {0, std::numeric_limits<int64_t>::max(), 4};
  ASSERT_TRUE(CheckedProduct(zero, 3, "s", &p).ok());
  EXPECT_EQ(p, 0u);
  const int64_t negative[] = {2, -1};
  EXPECT_EQ(Message(CheckedProduct(negative, 2, "s", &p)), "s: extent -1 is negative");
}

}  // namespace
}  // namespace lngrad
