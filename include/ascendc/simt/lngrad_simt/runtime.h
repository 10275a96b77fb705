// lngrad SIMT runtime: what the kernel-side SIMT headers (simt_api/) call.
//
// A SIMT launch runs every thread of a block for real: each thread on its own fiber (its own
// stack and registers), all threads of a block on the block's host thread, switched
// cooperatively. A thread runs until it finishes or reaches a point where it must wait for
// others: asc_syncthreads (every thread of the block), a warp function (the active lanes of its
// warp) or a run of atomics that may be a spin-wait (it yields). Blocks run on host threads in
// parallel through lngrad::aicore's block launcher, so GM atomics are host atomics.
//
// Warp semantics (docs/ascendc_compat.md, "SIMT"): a warp function completes when every lane of
// the warp has either arrived at a warp function, reached asc_syncthreads or finished. The lanes
// at the same call site (file, line and column: Site) form the active set; the largest such set
// goes first, the lowest lane breaking ties; the others wait for their turn. Lanes that diverged
// (waiting elsewhere) or finished are inactive, as on the device, where a divergent branch runs
// with the other lanes masked off.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <source_location>

#include "lngrad_aicore/sanitizer.h"

// The call site's column: clang has the builtin; GCC's std::source_location gives it.
#if defined(__clang__)
#define LNGRAD_SIMT_COLUMN() __builtin_COLUMN()
#else
#define LNGRAD_SIMT_COLUMN() static_cast<int>(std::source_location::current().column())
#endif

// The vendor's dim3: the shape of a grid or a block.
struct dim3 {
  uint32_t x = 1, y = 1, z = 1;
  constexpr dim3(uint32_t vx = 1, uint32_t vy = 1, uint32_t vz = 1) noexcept
      : x(vx), y(vy), z(vz) {}
};

namespace lngrad::simt {

// A warp function's call site: file, line and column (two warp functions on one line are two
// sites; inside a macro's expansion every call has the expansion's site).
struct Site {
  const char* file = nullptr;
  int line = 0;
  int column = 0;
  constexpr Site() noexcept = default;
  constexpr Site(const char* f, int l, int c) noexcept : file(f), line(l), column(c) {}
  // A kernel API's SrcLoc (no column).
  constexpr Site(aicore::SrcLoc l) noexcept : file(l.file), line(l.line) {}  // NOLINT
  static constexpr Site Current(const char* f = __builtin_FILE(), int l = __builtin_LINE(),
                                int c = LNGRAD_SIMT_COLUMN()) noexcept {
    return Site{f, l, c};
  }
  constexpr operator aicore::SrcLoc() const noexcept { return aicore::SrcLoc{file, line}; }
};

inline constexpr uint32_t kWarpSize = 32;
// Threads per block: __launch_bounds__(N) allows N in [1, 2048]; without it, 1024.
inline constexpr uint32_t kMaxThreadsPerBlock = 2048;
inline constexpr uint32_t kDefaultLaunchBound = 1024;
// UB on the 950: 256 KB, of which 8 KB are reserved and at least 32 KB are the SIMT data cache,
// so static and dynamic UB arrays together hold at most 216 KB.
inline constexpr uint32_t kUbBytes = 256u << 10;
inline constexpr uint32_t kReservedUbBytes = 8u << 10;
inline constexpr uint32_t kMinDataCacheBytes = 32u << 10;
inline constexpr uint32_t kMaxSharedUbBytes = kUbBytes - kReservedUbBytes - kMinDataCacheBytes;

// The running thread, as the built-in variables show it.
struct ThreadInfo {
  dim3 thread_idx;
  uint32_t linear = 0;  // x + y * blockDim.x + z * blockDim.x * blockDim.y
  uint32_t lane = 0;    // linear % 32
  uint32_t warp = 0;    // linear / 32
};

// The running block of a SIMT launch (or of a vector function call inside a vector kernel).
struct BlockInfo {
  dim3 block_idx;
  dim3 block_dim;
  dim3 grid_dim;
  uint32_t threads = 1;  // block_dim.x * y * z
};

// What the lanes of a warp contributed to one warp function: `values[lane]` for every lane in
// `active` (bit lane set), the rest unspecified.
struct WarpExchange {
  uint64_t values[kWarpSize];
  uint32_t active = 0;
};

namespace detail {

extern thread_local const ThreadInfo* t_thread;
extern thread_local const BlockInfo* t_block;

[[noreturn]] void RaiseOutsideThread(const char* what);

inline const ThreadInfo& CurrentThread(const char* what) {
  const ThreadInfo* t = t_thread;
  if (t == nullptr) RaiseOutsideThread(what);
  return *t;
}
inline const BlockInfo& CurrentBlock(const char* what) {
  const BlockInfo* b = t_block;
  if (b == nullptr) RaiseOutsideThread(what);
  return *b;
}

}  // namespace detail

// Runs body() once in each of block_dim's threads on the calling block (inside a launch's
// block: a SIMT kernel's launch, or a vector kernel's asc_vf_call of a SIMT vector function).
// max_threads: the function's __launch_bounds__ (0: unknown, only the 2048 limit applies).
// Rethrows the first exception a thread raised, after every other thread of the block has been
// unwound. The block's other SIMT state (shared UB arrays) stays for the next call.
void RunThreads(dim3 block_dim, uint32_t max_threads, const std::function<void()>& body,
                aicore::SrcLoc loc);

// The block's SIMT state for a SIMT kernel launch: block index and grid shape (the block's
// linear index is aicore's block index), and the dynamic UB bytes of <<<...>>>. Installed for
// the scope of one block. simt_kernel: a SIMT kernel's launch (its dynamic UB starts unwritten
// for initcheck), not a vector kernel's.
class BlockScope {
 public:
  BlockScope(dim3 grid_dim, uint64_t dynamic_ub_bytes, bool simt_kernel = false);
  ~BlockScope();
  BlockScope(const BlockScope&) = delete;
  BlockScope& operator=(const BlockScope&) = delete;
};

// asc_syncthreads: waits until every thread of the block has arrived at a barrier.
void SyncThreads(aicore::SrcLoc loc);
// A warp function's rendezvous: contributes `value` and waits for the warp's active lanes at
// the same call site; the result stays valid until the thread's next warp function.
const WarpExchange& WarpSync(uint64_t value, Site loc);
// The lanes of the calling thread's warp that have not finished (asc_activemask); it waits for
// the warp like a warp function does.
uint32_t ActiveMask(Site loc);
// Whether p lies on the running SIMT thread's own stack (its fiber's), or, under
// AddressSanitizer, on the calling host thread's fake stack of escaped locals.
bool OnRunningThreadStack(const void* p) noexcept;
// asc_threadfence (a sequentially consistent host fence) and asc_threadfence_block (a compiler
// fence: the block's threads share a host thread); both tell the race checker.
void ThreadFence(bool block_only) noexcept;
// Called by every atomic: after a long run of atomics without waiting, the thread yields to the
// others of its block, so that a spin-wait on another thread's write makes progress.
void AtomicPoint();

// Block-shared UB storage (`__ubuf__ T name[N];` in a kernel, which lngrad-asc rewrites into a
// call of BlockArray): one object per block and declaration, in the block's UB, zero-filled.
void* BlockStatic(const void* key, size_t bytes, size_t align, const char* name,
                  aicore::SrcLoc loc);
// The dynamic UB of the launch (`extern __ubuf__ T name[];`): its first byte.
void* BlockDynamic(const char* name, aicore::SrcLoc loc);

// A key unique to one declaration: BlockKey([] {}) (every lambda expression has its own type).
template <typename Tag>
const void* BlockKey(Tag) {
  static const char key = 0;
  return &key;
}

template <typename T>
T& BlockArray(const void* key, const char* name, aicore::SrcLoc loc = aicore::SrcLoc::Current()) {
  return *static_cast<T*>(BlockStatic(key, sizeof(T), alignof(T), name, loc));
}
template <typename T>
T* DynamicArray(const char* name, aicore::SrcLoc loc = aicore::SrcLoc::Current()) {
  return static_cast<T*>(BlockDynamic(name, loc));
}

}  // namespace lngrad::simt
