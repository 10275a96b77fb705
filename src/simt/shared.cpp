// Layer simt: a launch's blocks, and their UB arrays (lngrad_simt/runtime.h).
#include <algorithm>
#include <cstring>
#include <string>

#include "lngrad/product.h"
#include "lngrad_aicore/check.h"
#include "lngrad_aicore/sys.h"
#include "lngrad_simt/runtime.h"
#include "racecheck.h"
#include "state.h"

namespace lngrad::simt {
namespace detail {
namespace {

thread_local BlockRuntime* t_runtime = nullptr;

constexpr uint32_t kUbArrayAlign = 32;

uint64_t AlignUp(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

std::string KiB(uint64_t bytes) { return std::to_string(bytes) + " bytes"; }

}  // namespace

BlockRuntime& RequireBlockRuntime(const char* what, aicore::SrcLoc loc, bool simt) {
  if (t_runtime == nullptr) {
    aicore::RaiseKernelCheck(kCheckSimtContext,
                             aicore::detail::WithLoc(what, loc) +
                                 ": no kernel launched with <<<...>>> (the ACL launcher) is "
                                 "running on this thread: SIMT threads and block __ubuf__ arrays "
                                 "live in such a launch's blocks");
  }
  const Product& p = aicore::CurrentBlockProduct();
  if (simt && p.arch != NpuArch::k3510) {
    aicore::RaiseKernelCheck(kCheckProduct,
                             aicore::detail::WithLoc(what, loc) +
                                 ": SIMT runs on the Ascend 950 (dav-3510) only; this launch "
                                 "simulates " +
                                 std::string(p.soc) +
                                 " (build with --npu-arch=dav-3510 or set "
                                 "LNGRAD_SOC=Ascend950PR_9599)");
  }
  return *t_runtime;
}

}  // namespace detail

BlockScope::BlockScope(dim3 grid_dim, uint64_t dynamic_ub_bytes, bool simt_kernel) {
  auto* r = new detail::BlockRuntime();
  r->simt_kernel = simt_kernel;
  const aicore::BlockContext* ctx = aicore::CurrentBlockContext();
  const uint64_t linear = ctx != nullptr ? static_cast<uint64_t>(ctx->block_idx) : 0;
  r->info.grid_dim = grid_dim;
  r->info.block_idx = dim3(static_cast<uint32_t>(linear % grid_dim.x),
                           static_cast<uint32_t>(linear / grid_dim.x % grid_dim.y),
                           static_cast<uint32_t>(linear / (uint64_t{grid_dim.x} * grid_dim.y)));
  r->dynamic_bytes = dynamic_ub_bytes;
  r->static_end = static_cast<uint32_t>(
      detail::AlignUp(std::min<uint64_t>(dynamic_ub_bytes, kUbBytes), detail::kUbArrayAlign));
  detail::t_runtime = r;
}

BlockScope::~BlockScope() {
  delete detail::t_runtime;
  detail::t_runtime = nullptr;
}

namespace {

std::byte* UbBase(const char* what, aicore::SrcLoc loc) {
  return aicore::RequireBlockContext(aicore::detail::WithLoc(what, loc)).ub;
}

void RequireSharedUbLimit(const detail::BlockRuntime& r, uint64_t end, const char* name,
                          aicore::SrcLoc loc) {
  // A SIMT kernel leaves the data cache at least 32 KB; a vector (SIMD-only) kernel has no data
  // cache, only the 8 KB the system reserves.
  const aicore::BlockContext& ctx = aicore::RequireBlockContext("__ubuf__ array");
  const uint64_t limit = std::min<uint64_t>(
      r.simt_kernel ? kMaxSharedUbBytes : kUbBytes - kReservedUbBytes, ctx.ub_size);
  if (end <= limit) return;
  aicore::RaiseKernelCheck(
      detail::kCheckSimtUb,
      aicore::detail::WithLoc("__ubuf__ array", loc) + ": '" + name + "' ends at UB byte " +
          std::to_string(end) + " (dynamic UB " + detail::KiB(r.dynamic_bytes) +
          " then the static arrays); static and dynamic UB may hold at most " + detail::KiB(limit) +
          (r.simt_kernel ? " (256 KB less 8 KB reserved and the 32 KB minimum data cache)"
                         : " (256 KB less 8 KB reserved)"));
}

}  // namespace

void* BlockStatic(const void* key, size_t bytes, size_t align, const char* name,
                  aicore::SrcLoc loc) {
  detail::BlockRuntime& r = detail::RequireBlockRuntime("__ubuf__ array", loc, false);
  std::byte* ub = UbBase("__ubuf__ array", loc);
  for (const detail::BlockRuntime::Static& s : r.statics) {
    if (s.key == key) return ub + s.offset;
  }
  const uint64_t offset =
      detail::AlignUp(r.static_end, std::max<uint64_t>(align, detail::kUbArrayAlign));
  const uint64_t end = offset + bytes;
  RequireSharedUbLimit(r, end, name, loc);
  r.statics.push_back({key, static_cast<uint32_t>(offset), static_cast<uint32_t>(bytes)});
  r.static_end = static_cast<uint32_t>(end);
  // Zero-filled here where the launch left the UB as the worker's previous block left it
  // (unchecked mode). Not in a mixed kernel's AIV: its UB is the launch's, zeroed when made, and
  // its AIC may already have written the array's bytes (a Fixpipe L0C -> UB), which the
  // declaration, no instruction on the device, must not undo.
  aicore::BlockContext& ctx = aicore::RequireBlockContext("__ubuf__ array");
  aicore::NoteUbWritten(ctx, end);
  if (ctx.ub_left_over) std::memset(ub + offset, 0, bytes);
  if (detail::t_race != nullptr) detail::t_race->MarkUnwritten(ub + offset, bytes);
  return ub + offset;
}

void* BlockDynamic(const char* name, aicore::SrcLoc loc) {
  detail::BlockRuntime& r = detail::RequireBlockRuntime("extern __ubuf__ array", loc, false);
  RequireSharedUbLimit(r, r.static_end, name, loc);
  aicore::BlockContext& ctx = aicore::RequireBlockContext("extern __ubuf__ array");
  aicore::NoteUbWritten(ctx, ctx.ub_size);  // reached through a pointer, unrecorded
  return UbBase("extern __ubuf__ array", loc);
}

}  // namespace lngrad::simt
