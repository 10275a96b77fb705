// Included by the unit tests of the simulator's instructions and checks whose kernels set up UB
// through HostPtr() (which the sanitizer cannot see) or break checked-mode rules on purpose on
// UB they never initialise: they test instruction semantics, not synchronisation, so launches
// that do not name their tools run without the sanitizer, whatever LNGRAD_SANITIZE says. Their
// sanitizer cases set LaunchOptions::sanitize; the sanitizer's own tests are in tests/sanitizer.
#pragma once

#include "lngrad_aicore/sanitizer.h"

namespace lngrad::aicore::test {

inline const bool kSanitizerOff = [] {
  san::SetDefaultTools(0);
  return true;
}();

}  // namespace lngrad::aicore::test
