// One block of a device-style kernel on a product, for the Ascend C API tests: the failures
// (empty on success) and the check of the first one.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "lngrad_aicore/launch.h"

namespace lngrad::adv::testing {

inline std::vector<aicore::BlockFailure> RunOn(const std::string& soc,
                                               const std::function<void()>& kernel) {
  aicore::LaunchOptions opts;
  opts.soc = soc;
  opts.sequential = true;
  std::vector<aicore::BlockFailure> failures;
  (void)aicore::detail::RunBlocks("test", 1, kernel, opts, &failures);
  return failures;
}

inline std::string FirstCheck(const std::vector<aicore::BlockFailure>& f) {
  return f.empty() ? "" : f[0].check;
}

}  // namespace lngrad::adv::testing
