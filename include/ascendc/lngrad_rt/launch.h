// lngrad Ascend C runtime: launching kernels on the simulated device, and global memory.
//
// Every block runs the kernel on its own simulated AI vector core: its own zeroed UB of the
// product's size (32-byte aligned host memory), its own TPipe state and block index. Blocks run
// in parallel on threads, or one after another (LaunchOptions::sequential, or the environment
// variable LNGRAD_SEQUENTIAL_BLOCKS=1) for debugging.
#pragma once

#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "lngrad/status.h"
#include "check.h"

namespace lngrad::ascend {

inline constexpr uint32_t kMaxBlocks = 65535;  // the device's limit on numBlocks

struct LaunchOptions {
  bool sequential = false;         // run the blocks one after another on the calling thread
  std::optional<std::string> soc;  // simulate this SoC instead of CurrentProduct()
};

// One failed block of a launch.
struct BlockFailure {
  int64_t block_idx = 0;
  std::string check;    // KernelCheckError::check(), or "exception" for any other exception
  std::string message;
  std::exception_ptr error;
};

// Runs kernel() once for each block index in [0, numBlocks) on the simulated device.
// Returns OK when every block finished; InvalidArgument for numBlocks outside [1, 65535], an
// empty kernel or an unknown options.soc; InvalidArgument naming the first failed block when a
// kernel check failed (every failure is printed to stderr); Internal when a block threw
// anything other than KernelCheckError. Blocks that fail do not stop the others.
Status Launch(uint32_t numBlocks, std::function<void()> kernel, const LaunchOptions& options = {});

namespace detail {

// The launcher behind Launch and ICPU_RUN_KF. Fills *failures (sorted by block index) and
// prints them to stderr; the Status covers the launch parameters and the failures.
Status RunBlocks(const char* name, uint32_t numBlocks, const std::function<void()>& kernel,
                 const LaunchOptions& options, std::vector<BlockFailure>* failures);
// ICPU_RUN_KF: throws std::invalid_argument for bad launch parameters and rethrows the first
// failed block's exception (KernelCheckError for a kernel check).
void RunKernelFunction(const char* name, uint32_t numBlocks, const std::function<void()>& kernel);

// A GM pointer handed to a kernel parameter of any pointer type, as the CPU-debug launcher does.
struct AnyGmPtr {
  void* p;
  template <typename T>
  operator T*() const {
    return static_cast<T*>(p);
  }
};
template <typename A>
auto KernelArg(A& a) {
  if constexpr (std::is_pointer_v<std::remove_cvref_t<A>>) {
    return AnyGmPtr{const_cast<void*>(static_cast<const volatile void*>(a))};
  } else {
    return a;
  }
}
template <typename F, typename... Args>
void IcpuRunKf(const char* name, uint32_t numBlocks, F&& func, Args&&... args) {
  RunKernelFunction(name, numBlocks, [&] { func(KernelArg(args)...); });
}

void SetTilingKey(uint64_t key) noexcept;
uint64_t TilingKey() noexcept;

}  // namespace detail
}  // namespace lngrad::ascend

namespace AscendC {

enum class KernelMode { MIX_MODE = 0, AIC_MODE, AIV_MODE };
// Accepted for source compatibility; every simulated block is a vector core whatever the mode.
void SetKernelMode(KernelMode mode);
KernelMode GetKernelMode();

// Global memory for kernels: size bytes, 32-byte aligned, zero-filled. Never returns nullptr
// (throws std::bad_alloc). Accesses through GlobalTensor/DataCopy are checked against the block:
// checked mode against `size`, unchecked mode against the 32-byte-rounded allocation.
void* GmAlloc(size_t size);
// Frees a GmAlloc block; nullptr is ignored; throws std::invalid_argument for any other pointer.
void GmFree(void* ptr);

// Logical index of the running block in [0, GetBlockNum()).
int64_t GetBlockIdx();
// numBlocks of the running launch.
int64_t GetBlockNum();
// No sub-blocks: every block is a single vector core.
inline int64_t GetSubBlockIdx() { return 0; }
inline int64_t GetSubBlockNum() { return 1; }
// The product's UB bytes (what TPipe may allocate).
uint32_t GetUBSizeInBytes();

}  // namespace AscendC

// CANN's CPU-debug headers declare KernelMode at global scope: host code writes
// AscendC::SetKernelMode(KernelMode::AIV_MODE).
using AscendC::KernelMode;

// Host-side launch of a kernel function on numBlocks simulated blocks (CPU-debug spelling).
// Arguments are passed unchanged; pointers convert to the kernel's pointer parameter types.
#define ICPU_RUN_KF(func, blockdim, ...) \
  ::lngrad::ascend::detail::IcpuRunKf(#func, static_cast<uint32_t>(blockdim), func __VA_OPT__(, ) __VA_ARGS__)
// Sets the key that TILING_KEY_IS(k) tests inside kernels.
#define ICPU_SET_TILING_KEY(key) ::lngrad::ascend::detail::SetTilingKey(static_cast<uint64_t>(key))
#ifndef TILING_KEY_IS
#define TILING_KEY_IS(key) (::lngrad::ascend::detail::TilingKey() == static_cast<uint64_t>(key))
#endif
