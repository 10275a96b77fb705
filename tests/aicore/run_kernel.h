// Test helper: launches a kernel on a named product and returns the failed blocks.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <vector>

#include "kernel_operator.h"

namespace lngrad::aicore::test {

inline LaunchOptions On(const char* soc, bool sequential = false) {
  LaunchOptions o;
  o.soc = soc;
  o.sequential = sequential;
  return o;
}

// Runs `kernel` on numBlocks blocks; returns the failures (empty: the launch succeeded).
inline std::vector<BlockFailure> RunKernel(uint32_t numBlocks, const std::function<void()>& kernel,
                                           const LaunchOptions& options = On("Ascend910B1")) {
  std::vector<BlockFailure> failures;
  const Status s = detail::RunBlocks("test", numBlocks, kernel, options, &failures);
  EXPECT_EQ(s.ok(), failures.empty()) << s.message();
  return failures;
}

}  // namespace lngrad::aicore::test
