// The LNGRAD_CHECKED and LNGRAD_STANDALONE_BLOCK switches, read once per process: CTest runs this
// test once per value (tests/aicore/CMakeLists.txt). Accepted: 1, on, true, yes and 0, off,
// false, no; unset or empty: on. Anything else fails every launch with check `environment`
// naming the variable and the accepted values (and is printed to stderr once).
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <string>

#include "kernel_operator.h"

namespace {

// -1: not a value the switch accepts; else 0 or 1.
int Expected(const char* name) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return 1;
  for (const char* on : {"1", "on", "true", "yes"}) {
    if (std::strcmp(v, on) == 0) return 1;
  }
  for (const char* off : {"0", "off", "false", "no"}) {
    if (std::strcmp(v, off) == 0) return 0;
  }
  return -1;
}

TEST(EnvSwitch, ValuesAreTheDocumentedOnesAndOthersFailLaunches) {
  const int checked = Expected("LNGRAD_CHECKED");
  const int standalone = Expected("LNGRAD_STANDALONE_BLOCK");
  testing::internal::CaptureStderr();
  EXPECT_EQ(lngrad::aicore::CheckedMode(), checked != 0);  // an invalid value takes the default
  EXPECT_EQ(lngrad::aicore::StandaloneBlocks(), standalone != 0);
  const std::string first_read = testing::internal::GetCapturedStderr();
  bool ran = false;
  testing::internal::CaptureStderr();
  const lngrad::Status s = lngrad::aicore::Launch(1, [&] { ran = true; });
  const std::string report = testing::internal::GetCapturedStderr();
  const char* bad = checked < 0      ? "LNGRAD_CHECKED"
                    : standalone < 0 ? "LNGRAD_STANDALONE_BLOCK"
                                     : nullptr;
  if (bad == nullptr) {
    EXPECT_TRUE(s.ok()) << s.ToString();
    EXPECT_TRUE(ran);
    EXPECT_EQ(first_read, "");
    return;
  }
  const std::string value = std::getenv(bad);
  EXPECT_FALSE(s.ok());
  EXPECT_FALSE(ran) << "the kernel must not run";
  const std::string want = std::string("environment variable ") + bad + " is '" + value +
                           "'; it must be 1, on, true, yes (on) or 0, off, false, no (off)";
  EXPECT_NE(s.message().find("[environment] " + want), std::string::npos) << s.message();
  EXPECT_NE(report.find(want), std::string::npos) << report;
  EXPECT_NE(first_read.find("lngrad: " + want), std::string::npos) << first_read;
  // Every launch, not only the first; ICPU_RUN_KF throws the check.
  testing::internal::CaptureStderr();
  auto empty = [] {};
  try {
    ICPU_RUN_KF(empty, 2);
    ADD_FAILURE() << "the launch succeeded";
  } catch (const lngrad::aicore::KernelCheckError& e) {
    EXPECT_EQ(e.check(), "environment");
  }
  testing::internal::GetCapturedStderr();
}

}  // namespace
