// The memories positions name: the UB here, the others through the hook of a layer above.
#include "lngrad_aicore/local_memory.h"

#include <atomic>
#include <string>

#include "lngrad_aicore/data_copy.h"
#include "lngrad_aicore/tensor.h"

namespace lngrad::aicore {
namespace {
std::atomic<LocalMemoryHook> g_hook{nullptr};
std::atomic<detail::LocalCopyHook> g_copy_hook{nullptr};
}  // namespace

void SetLocalMemoryHook(LocalMemoryHook hook) noexcept {
  g_hook.store(hook, std::memory_order_release);
}

bool FindMemory(BlockContext& ctx, AscendC::TPosition pos, LocalMemory* mem) {
  if (AscendC::IsUbPosition(pos)) {
    *mem = {ctx.ub, ctx.ub_size, ctx.product->ub_bytes, 0, "UB"};
    return true;
  }
  const LocalMemoryHook hook = g_hook.load(std::memory_order_acquire);
  return hook != nullptr && hook(ctx, pos, mem);
}

LocalMemory MemoryOf(BlockContext& ctx, AscendC::TPosition pos, const char* api) {
  LocalMemory mem;
  if (!FindMemory(ctx, pos, &mem)) {
    RaiseKernelCheck(checks::kPosition,
                     std::string(api) + ": position " + AscendC::PositionName(pos) +
                         " is not modelled; VECIN/VECOUT/VECCALC (UB) and the cube's A1, B1, C1, "
                         "A2, B2, C2, CO1 (L1, L0A, L0B, BiasTable, L0C) are");
  }
  return mem;
}

namespace detail {

void SetLocalCopyHook(LocalCopyHook hook) noexcept {
  g_copy_hook.store(hook, std::memory_order_release);
}

void CopyOutsideUb(const TensorView& dst, const TensorView& src,
                   const AscendC::DataCopyParams& params, SrcLoc loc) {
  const LocalCopyHook hook = g_copy_hook.load(std::memory_order_acquire);
  if (hook == nullptr) {
    RaiseKernelCheck(checks::kPosition, std::string("DataCopy(") + AscendC::PositionName(src.pos) +
                                            "->" + AscendC::PositionName(dst.pos) +
                                            "): no layer models this copy");
  }
  hook(dst, src, params, loc);
}

}  // namespace detail
}  // namespace lngrad::aicore
