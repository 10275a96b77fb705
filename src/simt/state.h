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
    uint32_t bytes;
  };
  std::vector<Static> statics;  // in the order first reached
  uint32_t static_end = 0;      // UB offset past the last static array
};

// A vector function's UB accesses as the pipeline sanitizer sees them (a hybrid kernel's
// asc_vf_call runs on the vector pipe): bytes written, and bytes read before this vector function
// wrote them. Filled by the instrumentation's callbacks (t_vf_log) while the threads run.
struct VfUbLog {
  std::byte* ub = nullptr;
  uint32_t ub_size = 0;
  std::vector<uint8_t> state;  // per UB byte: bit 0 written, bit 1 read first
  void Note(uintptr_t addr, size_t bytes, bool write);
};
extern thread_local VfUbLog* t_vf_log;
// Records the vector function that just ran (log: the instrumented build's; nullptr without it).
void RecordVectorFunction(const BlockRuntime& block, const VfUbLog* log, aicore::SrcLoc loc);

// The running block's SIMT state; raises (naming `what`) outside a <<<>>> launch's block, and
// with simt (threads, not UB arrays) on a product without SIMT.
BlockRuntime& RequireBlockRuntime(const char* what, aicore::SrcLoc loc, bool simt = true);

}  // namespace lngrad::simt::detail
