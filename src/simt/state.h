// Layer simt: the block's SIMT state shared by the scheduler and the UB arrays (private).
#pragma once

#include <cstdint>
#include <vector>

#include "lngrad_aicore/sanitizer.h"
#include "lngrad_simt/runtime.h"

namespace lngrad::simt::detail {

// The checks this layer raises (KernelCheckError::check()).
inline constexpr const char* kCheckSimtContext = "simt_context";  // SIMT API outside a thread
inline constexpr const char* kCheckSimtLaunch = "simt_launch";    // threads/blocks out of range
inline constexpr const char* kCheckSimtBarrier = "simt_barrier";  // a barrier that never opens
inline constexpr const char* kCheckSimtWarp = "simt_warp";        // a bad shuffle width
inline constexpr const char* kCheckSimtAtomic = "simt_atomic";    // a misaligned atomic
inline constexpr const char* kCheckSimtUb = "simt_ub";  // static + dynamic UB beyond the limit
inline constexpr const char* kCheckProduct = "unsupported_on_product";

// One block of a launch that may run SIMT threads.
struct BlockRuntime {
  BlockInfo info;
  uint64_t dynamic_bytes = 0;  // <<<..., dynUbBytes, ...>>>: UB [0, dynamic_bytes)
  bool simt_kernel = false;    // a SIMT kernel's launch (BlockScope)
  struct Static {
    const void* key;
    uint32_t offset;
  };
  std::vector<Static> statics;  // in the order first reached
  uint32_t static_end = 0;      // UB offset past the last static array
};

// The running block's SIMT state; raises (naming `what`) outside a launch's block or on a
// product without SIMT.
BlockRuntime& RequireBlockRuntime(const char* what, aicore::SrcLoc loc);

}  // namespace lngrad::simt::detail
