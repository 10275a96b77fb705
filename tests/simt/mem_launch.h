// Tests of the SIMT layer: a launch of SIMT threads on the 950 for the memory-access and
// cooperative-group tests, without the ACL launcher (lngrad::aicore's block launcher, a
// simt::BlockScope per block, simt::RunThreads).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "lngrad_aicore/launch.h"
#include "lngrad_simt/runtime.h"

namespace lngrad::simt::testing {

inline constexpr const char* kSimtSoc = "Ascend950PR_9599";

// Runs body() in every thread of `block` in each of `blocks` blocks (blocks in parallel unless
// `sequential`); returns the failed blocks, "" when none, else "check: message" of the first.
inline std::string RunSimt(uint32_t blocks, dim3 block, const std::function<void()>& body,
                           uint64_t dynamic_ub_bytes = 0, bool sequential = false) {
  aicore::LaunchOptions options;
  options.soc = kSimtSoc;
  options.sequential = sequential;
  std::vector<aicore::BlockFailure> failures;
  const auto kernel = [&] {
    BlockScope scope(dim3(blocks), dynamic_ub_bytes);
    RunThreads(block, 0, body, aicore::SrcLoc::Current());
  };
  const Status s = aicore::RunBlocks("simt_test", blocks, kernel, options, &failures);
  if (!failures.empty()) return failures[0].check + ": " + failures[0].message;
  return s.ok() ? std::string() : s.message();
}

}  // namespace lngrad::simt::testing
