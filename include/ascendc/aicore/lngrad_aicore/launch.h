// lngrad Ascend C runtime: launching kernels on the simulated device, and global memory.
//
// Every block runs the kernel on its own simulated AI vector core: its own zeroed UB of the
// product's size (32-byte aligned host memory), its own TPipe state and block index. Blocks run
// in parallel on the calling thread and pooled helper threads (a single block on the calling
// thread alone), or one after another on the calling thread (LaunchOptions::sequential, or the
// environment variable LNGRAD_SEQUENTIAL_BLOCKS=1) for debugging.
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

// 0 when the kernel's translation unit is built with the compiler's automatic synchronisation
// off (lngrad-asc --cce-auto-sync=off defines it); launches from it tell the sanitizer.
#ifndef LNGRAD_CCE_AUTO_SYNC
#define LNGRAD_CCE_AUTO_SYNC 1
#endif

namespace lngrad::aicore {

inline constexpr uint32_t kMaxBlocks = 65535;  // the device's limit on numBlocks

struct LaunchOptions {
  bool sequential = false;         // run the blocks one after another on the calling thread
  std::optional<std::string> soc;  // simulate this SoC instead of CurrentProduct()
  // Sanitizer tools (san::Tool bits, lngrad_aicore/sanitizer.h); unset: LNGRAD_SANITIZE.
  std::optional<uint32_t> sanitize;
  // The kernel was compiled with the compiler's automatic S/V/MTE synchronisation
  // (--cce-auto-sync=on, the default; lngrad-asc --cce-auto-sync=off clears it).
  bool cce_auto_sync = true;
  // Every GM access must fall in a live GM region (GmAlloc, so aclrtMalloc; pooled; registered):
  // one that starts in plain host memory (an aclrtMallocHost block, a stack array, a block freed
  // so long ago that the host has it again) is refused with checks::kGmBounds in both modes, as
  // the device's AI core raises an exception on an address that is not device memory. Set by
  // the ACL <<<>>> launcher, whose kernels see only device memory; off for Launch and
  // ICPU_RUN_KF, whose callers may pass host memory as GM.
  bool device_memory_only = false;
  // The cores each of the numBlocks AI cores runs (cores.h; the kernel's type): one AIV by
  // default. The launch runs numBlocks * split.PerCore() blocks.
  CoreSplit split;
};

// One failed block of a launch.
struct BlockFailure {
  int64_t block_idx = 0;
  std::string check;  // KernelCheckError::check(), or "exception" for any other exception
  std::string message;
  std::exception_ptr error;
};

// Runs kernel() once for each block index in [0, numBlocks) on the simulated device.
// Returns OK when every block finished; InvalidArgument for numBlocks outside [1, 65535], an
// empty kernel or an unknown options.soc; InvalidArgument naming the first failed block when a
// kernel check failed (every failure is printed to stderr); Internal when a block threw
// anything other than KernelCheckError. Blocks that fail do not stop the others.
Status Launch(uint32_t numBlocks, std::function<void()> kernel, const LaunchOptions& options = {});

// The launcher behind Launch and ICPU_RUN_KF, for the runtimes built on the simulated device
// (lngrad_acl's <<<>>> launcher): Launch under the kernel's name, which the failures printed to
// stderr carry, and *failures filled with the failed blocks (sorted by block index); the Status
// covers the launch parameters and the failures.
Status RunBlocks(const char* name, uint32_t numBlocks, const std::function<void()>& kernel,
                 const LaunchOptions& options, std::vector<BlockFailure>* failures);

// Caller memory registered as GM for the object's lifetime (lngrad extension), so kernels can
// read and write host data in place instead of through GmAlloc copies. While registered, GM
// accesses that start inside [p, p + bytes) are bounded by it like a GmAlloc block of `bytes`
// (in both modes: there is no 32-byte rounding to lean on), and GmFree refuses p. Registering
// the same region again (another thread running on the same input) is allowed; regions may
// overlap (an access is accepted when any region holds it). A null p or 0 bytes registers
// nothing. The memory must stay valid until the registration ends; it is never freed here.
class GmRegistration {
 public:
  GmRegistration() = default;
  GmRegistration(const void* p, size_t bytes);
  ~GmRegistration();
  GmRegistration(GmRegistration&& other) noexcept;
  GmRegistration& operator=(GmRegistration&& other) noexcept;
  GmRegistration(const GmRegistration&) = delete;
  GmRegistration& operator=(const GmRegistration&) = delete;

 private:
  void Release() noexcept;
  uintptr_t base_ = 0;
  uint64_t bytes_ = 0;
  bool active_ = false;
};

// Pooled GM (lngrad extension) for host staging buffers that are written in full before a
// kernel reads them: like GmAlloc (32-byte aligned, bounds-checked the same way, never nullptr,
// std::bad_alloc when memory runs out) but the contents are unspecified (whatever the block
// held before), so no page is zero-filled again. Thread-safe. GmPoolFree(nullptr) is ignored;
// any pointer not from GmPoolAlloc (or freed already) throws std::invalid_argument. Freed blocks
// are kept for reuse up to SetGmPoolLimit bytes (default 256 MiB; 0 keeps nothing).
void* GmPoolAlloc(size_t size);
void GmPoolFree(void* ptr);
void SetGmPoolLimit(size_t bytes);
// Bytes held by free pooled blocks.
size_t GmPoolCachedBytes();

namespace detail {

// The spelling the layer's own tests use.
using ::lngrad::aicore::RunBlocks;
// ICPU_RUN_KF: throws std::invalid_argument for bad launch parameters and rethrows the first
// failed block's exception (KernelCheckError for a kernel check).
// split: the cores of each AI core (the kernel's type; lngrad-asc passes it for typed kernels).
void RunKernelFunction(const char* name, uint32_t numBlocks, const std::function<void()>& kernel,
                       bool cce_auto_sync = true, CoreSplit split = {});

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
void IcpuRunKf(const char* name, uint32_t numBlocks, CoreSplit split, F&& func, Args&&... args) {
  RunKernelFunction(
      name, numBlocks, [&] { func(KernelArg(args)...); }, LNGRAD_CCE_AUTO_SYNC != 0, split);
}
// The kernel's part of ICPU_RUN_KF's spelled arguments: up to the first comma outside (), <>,
// [] and {} ("add<float, 8>, 8, x, y" -> "add<float, 8>"), without enclosing parentheses.
std::string KernelNameOf(const char* spelled);
// ICPU_RUN_KF(func, numBlocks, args...) with the arguments taken as C++ arguments, so that
// func may be a template-id with commas (kernel<float, true>) as well as a parenthesised one.
template <typename F, typename B, typename... Args>
void IcpuRunKfCores(const char* spelled, CoreSplit split, F&& func, B numBlocks, Args&&... args) {
  static_assert(std::is_convertible_v<B, uint32_t>, "ICPU_RUN_KF: numBlocks must be an integer");
  const std::string name = KernelNameOf(spelled);
  IcpuRunKf(name.c_str(), static_cast<uint32_t>(numBlocks), split, func, args...);
}
template <typename F, typename B, typename... Args>
void IcpuRunKfSpelled(const char* spelled, F&& func, B numBlocks, Args&&... args) {
  IcpuRunKfCores(spelled, CoreSplit{}, func, numBlocks, args...);
}

void SetTilingKey(uint64_t key) noexcept;
uint64_t TilingKey() noexcept;

}  // namespace detail
}  // namespace lngrad::aicore

namespace AscendC {

enum class KernelMode { MIX_MODE = 0, AIC_MODE, AIV_MODE };
// Accepted for source compatibility: ICPU_RUN_KF and the <<<>>> launcher take the kernel's
// type from the kernel itself (lngrad-asc, cores.h), whatever the mode.
void SetKernelMode(KernelMode mode);
KernelMode GetKernelMode();

// Global memory for kernels: size bytes, 32-byte aligned, zero-filled. Never returns nullptr
// (throws std::bad_alloc). Accesses through GlobalTensor/DataCopy are checked against the block:
// checked mode against `size`, unchecked mode against the 32-byte-rounded allocation.
void* GmAlloc(size_t size);
// Frees a GmAlloc block; nullptr is ignored; throws std::invalid_argument for any other pointer.
void GmFree(void* ptr);

// The running core's index among the cores of its type: [0, numBlocks) on an AIC and on the AIV
// of a vector or __mix__(1, 1) kernel, [0, 2 * numBlocks) on the AIVs of __mix__(1, 2).
int64_t GetBlockIdx();
// numBlocks of the running launch (every core type).
int64_t GetBlockNum();
// The running AIV's place among its AI core's AIVs (0 or 1); 0 on an AIC.
int64_t GetSubBlockIdx();
// The AIVs per AI core on an AIV (1 or 2), 1 on an AIC; GetTaskRatio is the same.
int64_t GetSubBlockNum();
int64_t GetTaskRation();
inline int64_t GetTaskRatio() { return GetTaskRation(); }
// The product's UB bytes (what TPipe may allocate).
uint32_t GetUBSizeInBytes();
// The bytes of one UB data block (32 on every product).
inline constexpr int16_t GetDataBlockSizeInBytes() { return 32; }

}  // namespace AscendC

// CANN's CPU-debug headers declare KernelMode at global scope: host code writes
// AscendC::SetKernelMode(KernelMode::AIV_MODE).
using AscendC::KernelMode;

// Host-side launch of a kernel function on numBlocks simulated blocks (CPU-debug spelling):
// ICPU_RUN_KF(func, numBlocks, args...). Arguments are passed unchanged; pointers convert to the
// kernel's pointer parameter types. func may be a template kernel, written as is
// (ICPU_RUN_KF(add<float, 8>, 8, x, y)) or in parentheses (ICPU_RUN_KF((add<float, 8>), ...)):
// the macro hands everything to C++, which reads the template-id whole.
#define ICPU_RUN_KF(...) ::lngrad::aicore::detail::IcpuRunKfSpelled(#__VA_ARGS__, __VA_ARGS__)
// ICPU_RUN_KF of a kernel with a type (__cube__, __mix__, KERNEL_TASK_TYPE_DEFAULT, a Matmul
// kernel): lngrad-asc writes it for ICPU_RUN_KF, with the kernel's cores in parentheses.
#define LNGRAD_ICPU_RUN_KF_CORES(split, ...) \
  ::lngrad::aicore::detail::IcpuRunKfCores(#__VA_ARGS__, split, __VA_ARGS__)
// Sets the key that TILING_KEY_IS(k) tests inside kernels.
#define ICPU_SET_TILING_KEY(key) ::lngrad::aicore::detail::SetTilingKey(static_cast<uint64_t>(key))
#ifndef TILING_KEY_IS
#define TILING_KEY_IS(key) (::lngrad::aicore::detail::TilingKey() == static_cast<uint64_t>(key))
#endif
