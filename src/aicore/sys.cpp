// System variables, the per-block control state and the system-level kernel APIs (sys.h,
// ctrl.h). SyncAll's rendezvous is the launcher's (launch.cpp).
#include "lngrad_aicore/sys.h"

#include "lngrad_aicore/mask.h"
#include "lngrad_aicore/pipe.h"

#include "lngrad_aicore/static_tensor.h"

#include <chrono>
#include <string>

thread_local int64_t block_idx = 0;
thread_local int64_t block_num = 1;

namespace lngrad::aicore {
namespace {

thread_local detail::BlockSys t_sys;

uint32_t ArchBitOf(NpuArch a) {
  switch (a) {
    case NpuArch::k1001:
      return detail::k1001;
    case NpuArch::k2002:
      return detail::k2002;
    case NpuArch::k2201:
      return detail::k2201;
    case NpuArch::k3002:
      return detail::k3002;
    case NpuArch::k3510:
      return detail::k3510;
  }
  return 0;
}

// Every block calls SyncAll equally often; the launcher's barrier waits for the others. Both
// of the vendor's SyncAll implementations begin with PipeBarrier<PIPE_ALL>, so the block's own
// pipes are ordered across it too.
void Rendezvous(SrcLoc loc) {
  RequireBlockContext("SyncAll");
  san::Barrier(PIPE_ALL, loc);
  detail::BlockSys& s = t_sys;
  ++s.sync_all_calls;
  if (s.barrier != nullptr) s.barrier->Arrive(s.sync_all_calls, loc);
  san::OnSyncAll();
}

}  // namespace

bool FloatSaturation() noexcept { return t_sys.float_saturation; }
void SetFloatSaturation(bool on) noexcept { t_sys.float_saturation = on; }
uint64_t DeqScaleRegister() noexcept { return t_sys.deq_scale; }
DeqForm DeqScaleForm() noexcept { return static_cast<DeqForm>(t_sys.deq_form); }
void SetDeqScaleRegister(uint64_t v, DeqForm form) noexcept {
  t_sys.deq_scale = v;
  t_sys.deq_form = static_cast<uint8_t>(form);
}
// dav_3510's SetDeqScaleImpl(T config) writes g_deqValue only; dav_c220's writes the register
// (and g_deqValue, which only its AddDeqRelu reads).
void SetDeqScaleHalf(uint16_t bits) {
  if (CurrentBlockProduct().arch != NpuArch::k3510) {
    SetDeqScaleRegister(bits, DeqForm::kHalf);
    return;
  }
  t_sys.deq_value = bits;
  t_sys.deq_value_set = true;
  t_sys.deq_value_defined = true;
}
uint16_t DeqValueBits() noexcept { return t_sys.deq_value; }
bool DeqValueWritten() noexcept { return t_sys.deq_value_set; }
void ResetDeqValue() noexcept {
  t_sys.deq_value = detail::BlockSys{}.deq_value;
  t_sys.deq_value_defined = true;
}
bool DeqValueDefined() noexcept { return t_sys.deq_value_defined; }

namespace detail {

BlockSys& CurrentBlockSys() noexcept { return t_sys; }

std::string WithLoc(const char* api, SrcLoc loc) {
  std::string s = api;
  if (loc.file != nullptr) s += std::string(" at ") + loc.file + ":" + std::to_string(loc.line);
  return s;
}

BlockSysScope::BlockSysScope(int64_t idx, int64_t num, SyncAllBarrier* barrier) noexcept
    : saved_(t_sys), saved_idx_(::block_idx), saved_num_(::block_num) {
  t_sys = BlockSys{};
  t_sys.barrier = barrier;
  ::block_idx = idx;
  ::block_num = num;
}

BlockSysScope::~BlockSysScope() {
  t_sys = saved_;
  ::block_idx = saved_idx_;
  ::block_num = saved_num_;
}

void RequireProduct(const char* api, uint32_t archs, const char* products, SrcLoc loc) {
  if (!CheckedMode()) return;
  const Product& p = CurrentBlockProduct();
  if ((ArchBitOf(p.arch) & archs) != 0) return;
  RaiseKernelCheck(checks::kUnsupportedOnProduct,
                   detail::WithLoc(api, loc) + ": not available on " + std::string(p.soc) + " (" +
                       std::string(p.product_line) + ", __NPU_ARCH__ " + NpuArchName(p.arch) +
                       "); the vendor provides it on " + products);
}

void RaiseDivCeilZero() {
  RaiseKernelCheck(checks::kDivByZero, "DivCeil: divisor b is 0, which must be larger than 0");
}

void SyncAllHard(SrcLoc loc) {
  RequireProduct("SyncAll()", k2201 | k3510, "Atlas A2/A3 and Ascend 950", loc);
  Rendezvous(loc);
}

void SyncAllSoft(uint64_t gm_elems, bool gm_size_known, const void* gm, uint64_t ub_elems,
                 int32_t used_cores, SrcLoc loc) {
  RequireProduct("SyncAll(gmWorkspace, ubWorkspace, usedCores)", k1001 | k2002 | k2201 | k3510,
                 "Atlas A2/A3, Ascend 950, the Atlas training series and Atlas inference AI Cores",
                 loc);
  const int64_t n = RequireBlockContext("SyncAll").block_num;
  const std::string at = detail::WithLoc("SyncAll(gmWorkspace, ubWorkspace, usedCores)", loc);
  const uint64_t need = static_cast<uint64_t>(n) * 32 / sizeof(int32_t);
  if (CheckedMode()) {
    if (gm == nullptr) {
      RaiseKernelCheck(checks::kSyncAll, at + ": gmWorkspace has no GM buffer (SetGlobalBuffer)");
    }
    if (gm_size_known && gm_elems < need) {
      RaiseKernelCheck(checks::kSyncAll, at + ": gmWorkspace has " + std::to_string(gm_elems) +
                                             " int32_t elements; it needs GetBlockNum() * 32 B = " +
                                             std::to_string(need) + " elements");
    }
    if (ub_elems < need) {
      RaiseKernelCheck(checks::kSyncAll, at + ": ubWorkspace has " + std::to_string(ub_elems) +
                                             " int32_t elements; it needs GetBlockNum() * 32 B = " +
                                             std::to_string(need) + " elements");
    }
  }
  if (used_cores < 0 || used_cores > n) {
    RaiseKernelCheck(checks::kSyncAll, at + ": usedCores is " + std::to_string(used_cores) +
                                           ", which must be in [0, numBlocks " + std::to_string(n) +
                                           "]");
  }
  if (used_cores != 0 && used_cores != n) {
    RaiseKernelCheck(checks::kSyncAll,
                     at + ": usedCores " + std::to_string(used_cores) + " of " + std::to_string(n) +
                         " blocks: a SyncAll over part of the launch is not emulated (pass 0 or "
                         "numBlocks)");
  }
  Rendezvous(loc);
}

void OnAllocatorCreated(SrcLoc loc) {
  BlockContext& ctx = RequireBlockContext("LocalMemAllocator");
  const std::string at = detail::WithLoc("LocalMemAllocator<Hardware::UB>", loc);
  if (CheckedMode()) {
    RequireProduct("LocalMemAllocator", k2002 | k2201 | k3510,
                   "Atlas A2/A3, Ascend 950 and the Atlas inference series", loc);
    if (t_sys.live_allocators > 0) {
      RaiseKernelCheck(checks::kLocalMemAllocator,
                       at + ": only one LocalMemAllocator can exist at the same hardware "
                            "position at any given time (this block already has one for the UB)");
    }
    // A TPipe that has allocated no UB overlaps nothing (the vendor's softmax sample declares
    // one and allocates with a LocalMemAllocator); TPipe::Allocate checks the other order.
    if (ctx.pipe != nullptr && ctx.pipe->AllocatedBytes() > 0) {
      RaiseKernelCheck(checks::kLocalMemAllocator,
                       at + ": this block has a TPipe that has allocated UB; static tensors may "
                            "not be mixed with TPipe (both allocate the UB from address 0, so "
                            "their buffers would overlap)");
    }
  }
  ++t_sys.live_allocators;
}

void OnAllocatorDestroyed() noexcept {
  if (t_sys.live_allocators > 0) --t_sys.live_allocators;
}

void RequireStaticTile(uint32_t head, uint64_t bytes, uint64_t elems, uint32_t elem_size,
                       SrcLoc loc) {
  const Product& p = CurrentBlockProduct();
  if (uint64_t{head} + bytes <= p.ub_bytes) return;
  RaiseKernelCheck(checks::kUbOverflow,
                   detail::WithLoc("LocalMemAllocator::Alloc", loc) + ": " + std::to_string(elems) +
                       " elements of " + std::to_string(elem_size) + " B (" +
                       std::to_string(bytes) + " B) at UB address " + std::to_string(head) +
                       " end at " + std::to_string(uint64_t{head} + bytes) + ", past the " +
                       std::to_string(p.ub_bytes) + " B UB of " + std::string(p.soc) +
                       " (tileSize exceeds the remaining memory, " +
                       std::to_string(p.ub_bytes > head ? p.ub_bytes - head : 0) + " B)");
}

}  // namespace detail
}  // namespace lngrad::aicore

namespace AscendC {

using lngrad::aicore::detail::RequireProduct;
namespace bits = lngrad::aicore::detail;

void InitSocState(lngrad::aicore::SrcLoc loc) {
  RequireProduct("InitSocState", bits::k2002 | bits::k2201 | bits::k3510,
                 "Atlas A2/A3, Ascend 950 and the Atlas inference series", loc);
  lngrad::aicore::RequireBlockContext("InitSocState");
  // The vendor's InitSocStateImpl: Normal mask mode on A2/A3 and 950, and on A2/A3's vector
  // cores every mask bit set.
  const lngrad::NpuArch arch = lngrad::aicore::CurrentBlockProduct().arch;
  if (arch == lngrad::NpuArch::k2201 || arch == lngrad::NpuArch::k3510) SetMaskNorm(loc);
  if (arch == lngrad::NpuArch::k2201) ResetMask(loc);
  if (arch == lngrad::NpuArch::k3510) lngrad::aicore::ResetDeqValue();  // g_deqValue = 1
}

int64_t GetSystemCycle(lngrad::aicore::SrcLoc loc) {
  RequireProduct("GetSystemCycle", bits::k2201 | bits::k3510, "Atlas A2/A3 and Ascend 950", loc);
  const int64_t ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                         std::chrono::steady_clock::now().time_since_epoch())
                         .count();
  // 1 GHz on Ascend 950, 50 MHz (20 ns a cycle) elsewhere.
  return lngrad::aicore::CurrentBlockProduct().arch == lngrad::NpuArch::k3510 ? ns : ns / 20;
}

uint32_t GetRuntimeUBSize(lngrad::aicore::SrcLoc loc) {
  RequireProduct("GetRuntimeUBSize", bits::k3510, "Ascend 950", loc);
  const lngrad::Product& p = lngrad::aicore::CurrentBlockProduct();
  return p.arch == lngrad::NpuArch::k3510 ? p.ub_bytes : 0;
}

}  // namespace AscendC
