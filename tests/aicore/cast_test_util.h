// What the Cast and Duplicate tests of aicore_cast_test share: the two products they run on and
// the check a kernel body raises in checked mode.
#pragma once

#include <functional>
#include <string>

#include "checked_mode_scope.h"
#include "run_kernel.h"

namespace lngrad::aicore::test {

inline constexpr const char* kA2 = "Ascend910B1";
inline constexpr const char* k950 = "Ascend950PR_9599";

// "check: message" of the first failure of body run as one block on soc in checked mode ("" if
// it passes).
inline std::string CheckOf(const char* soc, const std::function<void()>& body) {
  CheckedModeScope checked(true);
  const auto failures = RunKernel(1, body, On(soc));
  return failures.empty() ? "" : failures[0].check + ": " + failures[0].message;
}

}  // namespace lngrad::aicore::test
