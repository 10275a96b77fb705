// Test helper: runs kernel code as one block of a launch on the named product (the standalone
// block is the default product's); tools: the sanitizer's.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "kernel_operator.h"

namespace lngrad::cube::test {

// The launch's failures as "[check] message" lines; "" when it succeeded.
inline std::string RunOn(const char* soc, const std::function<void()>& kernel, uint32_t tools = 0) {
  lngrad::aicore::LaunchOptions o;
  o.soc = soc;
  o.sanitize = tools;
  std::vector<lngrad::aicore::BlockFailure> failures;
  const lngrad::Status s = lngrad::aicore::detail::RunBlocks("cube", 1, kernel, o, &failures);
  std::string text = s.ok() ? "" : "failed: ";
  for (const auto& f : failures) text += "[" + f.check + "] " + f.message + "\n";
  return text;
}

}  // namespace lngrad::cube::test
