// lngrad Ascend C runtime: what the GM registry knows about memory, for the host runtimes built
// on the simulated device (the ACL runtime's copies). Kernels' GM accesses are checked through
// CheckGmAllocRange (tensor.h); see docs/ascendc_compat.md, "Global memory".
#pragma once

#include <cstdint>

namespace lngrad::aicore::detail {

// Every GmAlloc block (so every aclrtMalloc allocation) is followed by at least this many bytes
// that the runtime owns and no host object uses: its red zone. A GM access that starts there
// (a tile written just past the end of an allocation) starts inside the block and is refused
// (gm_bounds) in both modes instead of reaching another object's memory.
inline constexpr uint64_t kGmRedZoneBytes = 512;

// The bytes from a GmAlloc block's start that the runtime owns for a request of `size` bytes:
// the request rounded up to 512 (device memory's alignment), plus the red zone.
constexpr uint64_t GmAllocSpan(uint64_t size) { return (size + 511) / 512 * 512 + kGmRedZoneBytes; }

// A GM block freed earlier (GmFree, so aclrtFree, or GmPoolFree) whose memory the runtime still
// holds: freed GmAlloc blocks are kept (not returned to the host's allocator) until
// kGmFreedKeepBytes of younger freed blocks, or kGmFreedKeepBlocks of them, follow them; free
// pooled blocks while the pool keeps them. While held, an access to it is certainly one after
// the free (gm_freed); afterwards it is host memory again, which a <<<>>> launch refuses as not
// device memory (LaunchOptions::device_memory_only).
inline constexpr uint64_t kGmFreedKeepBytes = uint64_t{64} << 20;
inline constexpr uint64_t kGmFreedKeepBlocks = 4096;
struct FreedGm {
  uintptr_t base = 0;
  uint64_t requested = 0;      // the size the block was allocated with
  const char* kind = nullptr;  // "GmAlloc block", "pooled GM block"
};
// Whether p lies in such a block (its request or its red zone); fills *out when it does.
bool FindFreedGm(const void* p, FreedGm* out);

// Whether byte p lies in a live GM region (GmAlloc, pooled or registered memory, within its
// requested size). Never raises: for checkers that watch accesses of their own (simt's race
// checker).
bool IsLiveGm(const void* p);
// A raw access of kernel code that lngrad sees (simt's instrumented SIMT threads): raises
// gm_bounds / gm_freed, as CheckGmAllocRange does, when [p, p + bytes) starts inside a GM region
// (or its red zone, or a freed block still held) and no live region holds it; memory that is
// no GM at all passes (the caller's own, the block's UB, a thread's stack).
void CheckGmRawAccess(const void* p, uint64_t bytes, const char* api);

}  // namespace lngrad::aicore::detail
