// Tests of layer simt: running SIMT threads on the simulated 950 without the ACL launcher.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "lngrad/status.h"
#include "lngrad_aicore/launch.h"
#include "lngrad_simt/runtime.h"

namespace lngrad::simt::testing {

inline constexpr const char* k950 = "Ascend950PR_9599";

// Runs `body` in every thread of `block` in each of `grid`'s blocks on the 950 (blocks in
// parallel), as a <<<grid, block, dynamic_ub, stream>>> launch does; max_threads as
// __launch_bounds__ (0: unknown); sanitize: the tools (san::Tool bits). The failed blocks'
// checks are in *failures.
inline Status RunSimt(dim3 grid, dim3 block, const std::function<void()>& body,
                      uint64_t dynamic_ub = 0, uint32_t max_threads = 0,
                      std::vector<aicore::BlockFailure>* failures = nullptr, const char* soc = k950,
                      uint32_t sanitize = 0) {
  aicore::LaunchOptions o;
  o.soc = soc;
  o.sanitize = sanitize;
  std::vector<aicore::BlockFailure> local;
  return aicore::RunBlocks(
      "simt_test", grid.x * grid.y * grid.z,
      [&] {
        const BlockScope scope(grid, dynamic_ub, true);
        RunThreads(block, max_threads, body, aicore::SrcLoc::Current());
      },
      o, failures != nullptr ? failures : &local);
}

}  // namespace lngrad::simt::testing
