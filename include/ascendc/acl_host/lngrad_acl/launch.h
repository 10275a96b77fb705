// lngrad: the launcher behind `kernel<<<blocks, l2ctrl, stream>>>(args...)` in .asc sources.
//
// lngrad's compiler driver force-includes this header (`-include lngrad_acl/launch.h`) and
// rewrites each launch into
//
//   ::lngrad::acl::LaunchKernel("kernel<A, B>", __FILE__, __LINE__, (blocks), (l2ctrl), (stream),
//       [&](auto&&... lngrad_args) { kernel<A, B>(lngrad_args...); }, a1, a2);
//
// The arguments are evaluated once, copied (by value, as the device passes kernel arguments),
// and every simulated block calls the kernel with its own copy of them, through
// lngrad::aicore's block launcher. `void*` arguments convert to any pointer parameter type (as
// ICPU_RUN_KF does); other arguments pass unchanged. The launch runs to completion before
// LaunchKernel returns (streams are synchronous; docs/ascendc_compat.md). It returns nothing, as
// the device launch: a kernel that fails a check, numBlocks outside [1, 65535], or a stream that
// is not a live stream fail the launch's stream, so that the next aclrtSynchronizeStream returns
// an error code and aclGetRecentErrMsg (and stderr, at the launch) names the kernel, the launch
// site, the failed blocks and their checks. l2ctrl is accepted and ignored. What the blocks print
// with printf (utils/debug/asc_printf.h) is printed when the launch ends, block 0 first.
//
// LNGRAD_DEFAULT_SOC: the driver compiles .asc sources with -DLNGRAD_DEFAULT_SOC="<soc>", the
// default simulated product of the --npu-arch. It applies before main unless the environment
// variable LNGRAD_SOC names a product (LNGRAD_SOC wins; an unknown LNGRAD_SOC falls back to
// LNGRAD_DEFAULT_SOC with a warning); lngrad::SetCurrentSoc still overrides both later. An unknown
// LNGRAD_DEFAULT_SOC is reported on stderr and leaves the product unchanged.
#ifndef LNGRAD_ASCENDC_LNGRAD_ACL_LAUNCH_H_
#define LNGRAD_ASCENDC_LNGRAD_ACL_LAUNCH_H_

#include <cstdint>
#include <functional>
#include <limits>
#include <tuple>
#include <type_traits>
#include <utility>

// The driver turns unqualified printf calls into calls of the kernel printf.
#include "lngrad_aicore/check.h"
#include "lngrad_simt/runtime.h"
#include "utils/debug/asc_printf.h"

// 0 when the kernel's translation unit is built with --cce-auto-sync=off (lngrad-asc defines it);
// the launch tells the sanitizer (lngrad_aicore/launch.h has the same default).
#ifndef LNGRAD_CCE_AUTO_SYNC
#define LNGRAD_CCE_AUTO_SYNC 1
#endif

namespace lngrad::acl {
namespace detail {

// Runs per_block on `blocks` simulated blocks for `stream` (an aclrtStream; nullptr: the current
// context's default stream) and records any failure on the stream. blocks < 0 is passed as
// blocks_valid = false. cce_auto_sync: how the kernel was built (for the sanitizer). Never
// throws.
// split: the cores of each block (the kernel's type, lngrad_aicore/cores.h).
void LaunchOnStream(const char* name, const char* file, int line, uint64_t blocks,
                    bool blocks_valid, void* stream, bool cce_auto_sync,
                    const std::function<void()>& per_block, aicore::CoreSplit split = {}) noexcept;

// Applies a compile-time default product (see the header comment). Returns whether it applied.
bool ApplyDefaultSoc(const char* soc) noexcept;

// A `void*` argument handed to a kernel parameter of any pointer type.
struct VoidGmPtr {
  void* p;
  template <typename T>
  operator T*() const {
    return static_cast<T*>(p);
  }
};

template <typename A>
decltype(auto) BlockArg(A& a) {
  using Plain = std::remove_cv_t<A>;
  if constexpr (std::is_same_v<Plain, void*> || std::is_same_v<Plain, const void*>) {
    return VoidGmPtr{const_cast<void*>(a)};
  } else {
    return (a);
  }
}

template <typename Blocks>
std::pair<uint64_t, bool> BlockCount(const Blocks& blocks) {
  static_assert(std::is_integral_v<Blocks> || std::is_enum_v<Blocks>,
                "the number of blocks in <<<blocks, l2ctrl, stream>>> must be an integer");
  if constexpr (std::is_enum_v<Blocks>) {
    return BlockCount(static_cast<std::underlying_type_t<Blocks>>(blocks));
  } else if constexpr (std::is_signed_v<Blocks>) {
    if (blocks < 0) return {0, false};
    return {static_cast<uint64_t>(blocks), true};
  } else {
    return {static_cast<uint64_t>(blocks), true};
  }
}

template <typename Stream>
void* StreamHandle(const Stream& stream) {
  if constexpr (std::is_null_pointer_v<Stream>) {
    return nullptr;
  } else {
    static_assert(std::is_pointer_v<Stream>,
                  "the stream in <<<blocks, l2ctrl, stream>>> must be an aclrtStream or nullptr");
    return const_cast<void*>(static_cast<const volatile void*>(stream));
  }
}

// A launch dimension: dim3, or an integer (x; y = z = 1). valid: every extent positive.
template <typename D>
std::pair<dim3, bool> LaunchDim(const D& d) {
  if constexpr (std::is_same_v<std::remove_cv_t<D>, dim3>) {
    return {d, d.x > 0 && d.y > 0 && d.z > 0};
  } else {
    const auto [n, valid] = BlockCount(d);
    const bool fits = valid && n > 0 && n <= std::numeric_limits<uint32_t>::max();
    return {dim3(fits ? static_cast<uint32_t>(n) : 0u), fits};
  }
}

template <typename Bytes>
uint64_t DynamicUbBytes(const Bytes& bytes) {
  if constexpr (std::is_integral_v<Bytes> || std::is_enum_v<Bytes>) {
    const auto [n, valid] = BlockCount(bytes);
    return valid ? n : std::numeric_limits<uint64_t>::max();
  } else {
    return 0;  // l2ctrl of a vector kernel that is no byte count
  }
}

}  // namespace detail

// The target of the driver's <<<>>> rewrite (see the header comment). A kernel defined with
// __cube__ or __mix__(aic, aiv) in the same file passes its cores first.
template <typename Blocks, typename L2Ctrl, typename Stream, typename Kernel, typename... Args>
void LaunchKernel(aicore::CoreSplit split, const char* name, const char* file, int line,
                  Blocks blocks, L2Ctrl l2ctrl, Stream stream, Kernel&& kernel, Args&&... args) {
  // No structured bindings: clang 14 does not let the lambda below capture them.
  const std::pair<uint64_t, bool> blocks_checked = detail::BlockCount(blocks);
  const uint64_t count = blocks_checked.first;
  const bool valid = blocks_checked.second;
  const std::tuple<std::decay_t<Args>...> stored(std::forward<Args>(args)...);
  // A vector kernel that calls SIMT vector functions (asc_vf_call) takes its dynamic UB bytes
  // in the second argument.
  const uint64_t dynamic_ub = detail::DynamicUbBytes(l2ctrl);
  detail::LaunchOnStream(
      name, file, line, count, valid, detail::StreamHandle(stream), LNGRAD_CCE_AUTO_SYNC != 0,
      [&] {
        const ::lngrad::simt::BlockScope simt(dim3(static_cast<uint32_t>(count)), dynamic_ub);
        // Each block gets its own copy, as each core receives the arguments by
        // value.
        auto copy = stored;
        std::apply([&](auto&... a) { kernel(detail::BlockArg(a)...); }, copy);
      },
      split);
}
template <typename Blocks, typename L2Ctrl, typename Stream, typename Kernel, typename... Args>
void LaunchKernel(const char* name, const char* file, int line, Blocks blocks, L2Ctrl l2ctrl,
                  Stream stream, Kernel&& kernel, Args&&... args) {
  LaunchKernel(aicore::CoreSplit{}, name, file, line, blocks, l2ctrl, stream,
               std::forward<Kernel>(kernel), std::forward<Args>(args)...);
}

// The target of the driver's rewrite of a SIMT launch
// `kernel<<<grid, threads, dynUbBytes, stream>>>(args...)` (lngrad-asc --enable-simt): every
// block runs every thread of `threads` (lngrad::simt::RunThreads), each calling the kernel with
// the block's copy of the arguments. max_threads: the kernel's __launch_bounds__ (0: unknown).
// A grid of more than 65535 blocks or an empty one fails the stream like numBlocks does; threads
// outside [1, bound] and dynamic UB beyond the 950's limit fail the launch's blocks.
template <typename Grid, typename Threads, typename Bytes, typename Stream, typename Kernel,
          typename... Args>
void LaunchSimtKernel(const char* name, const char* file, int line, uint32_t max_threads, Grid grid,
                      Threads threads, Bytes dynamic_ub_bytes, Stream stream, Kernel&& kernel,
                      Args&&... args) {
  const std::pair<dim3, bool> grid_checked = detail::LaunchDim(grid);
  const std::pair<dim3, bool> threads_checked = detail::LaunchDim(threads);
  const dim3 g = grid_checked.first;
  const bool grid_valid = grid_checked.second;
  const dim3 t = threads_checked.first;
  const bool threads_valid = threads_checked.second;
  const uint64_t count = uint64_t{g.x} * g.y * g.z;
  const uint64_t dynamic_ub = detail::DynamicUbBytes(dynamic_ub_bytes);
  const std::tuple<std::decay_t<Args>...> stored(std::forward<Args>(args)...);
  const dim3 block_dim = threads_valid ? t : dim3(0, 0, 0);
  detail::LaunchOnStream(name, file, line, count, grid_valid, detail::StreamHandle(stream),
                         LNGRAD_CCE_AUTO_SYNC != 0, [&] {
                           const ::lngrad::simt::BlockScope simt(g, dynamic_ub, true);
                           const auto copy = stored;
                           ::lngrad::simt::RunThreads(
                               block_dim, max_threads,
                               [&] {
                                 auto mine = copy;  // each thread's parameters are its own
                                 std::apply([&](auto&... a) { kernel(detail::BlockArg(a)...); },
                                            mine);
                               },
                               ::lngrad::aicore::SrcLoc{file, line});
                         });
}

}  // namespace lngrad::acl

#ifdef LNGRAD_DEFAULT_SOC
namespace lngrad::acl::detail {
// One definition for the whole program (an inline variable), initialised before main and before
// anything the translation units define after this header.
inline const bool kDefaultSocApplied = ApplyDefaultSoc(LNGRAD_DEFAULT_SOC);
}  // namespace lngrad::acl::detail
#endif

#endif  // LNGRAD_ASCENDC_LNGRAD_ACL_LAUNCH_H_
