// lngrad Ascend C runtime: system variables and system-level kernel APIs: the block_idx and
// block_num built-ins, InitSocState, DivCeil, GetSystemCycle, GetRuntimeUBSize,
// DataSyncBarrier and SyncAll (docs/ascendc_compat.md, "Programming styles").
//
// APIs that exist only on some products raise unsupported_on_product in checked mode on the
// others (the device compiler would refuse them); unchecked mode runs them anyway.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

#include "check.h"
#include "ctrl.h"
#include "sanitizer.h"
#include "sync.h"
#include "tensor.h"

// The device compiler's built-in variables: the running block's index and the launch's
// numBlocks. Thread-local here: the launcher runs each block on one host thread from start to
// end and sets them for it (a standalone block is block 0 of 1). Plain integers, so kernel code
// uses them in arithmetic, comparisons, format strings and templates as on the device; writing
// them changes nothing but the variable (GetBlockIdx()/GetBlockNum() are unaffected).
extern thread_local int64_t block_idx;
extern thread_local int64_t block_num;

namespace lngrad::aicore {

namespace checks {
inline constexpr const char* kSyncAll = "sync_all";  // SyncAll that would hang the device
inline constexpr const char* kUnsupportedOnProduct =
    "unsupported_on_product";  // an API the simulated product does not have
inline constexpr const char* kDivByZero = "div_by_zero";  // DivCeil with divisor 0
}  // namespace checks

// A launch that calls SyncAll runs all its blocks at once, one host thread each; this many at
// most (real devices have at most a few dozen vector cores, and SyncAll needs numBlocks <= cores
// there, otherwise the device hangs). More blocks: SyncAll raises sync_all.
inline constexpr uint32_t kSyncAllMaxBlocks = 256;

namespace detail {

struct InterBlockState;  // block_sync.cpp's launch-wide state

// The running launch's SyncAll rendezvous and inter-block waits (implemented by the launcher).
class SyncAllBarrier {
 public:
  // The running block's call-th SyncAll (1-based); returns when every block of the launch made
  // its call-th call. Raises sync_all when that can never happen.
  virtual void Arrive(uint64_t call, SrcLoc loc) = 0;
  // Blocks until ready() holds, then runs then(); both under the launch's lock, with the
  // launch's InterBlockState. A block that waits keeps its thread, and the blocks not started
  // yet get threads of their own, as for SyncAll. When every block left waits and none can go
  // on, raises `check` with `what` and the reason (the device would hang).
  virtual void WaitUntil(const char* check, const std::string& what,
                         const std::function<bool(InterBlockState&)>& ready,
                         const std::function<void(InterBlockState&)>& then) = 0;
  // Runs change() under the lock and wakes the blocks that wait.
  virtual void Change(const std::function<void(InterBlockState&)>& change) = 0;
  // The UB of host block `block` when the launch keeps it for the launch (an AIV of a kernel
  // with AICs: cores.h's SubBlockUb), with its size in *bytes; else nullptr.
  virtual std::byte* CoreUb(uint32_t block, uint32_t* bytes) = 0;

 protected:
  ~SyncAllBarrier() = default;
};

// CTRL[60] (saturation set globally) is on by default on Ascend 950; every other modelled bit is
// 0 (cache.h). The simulator keeps the bit on every product.
inline constexpr uint64_t kCtrlDefault = uint64_t{1} << 60;

// The running block's state besides its BlockContext (thread-local, like block_idx).
struct BlockSys {
  bool float_saturation = true;       // ctrl.h
  uint64_t deq_scale = 0;             // ctrl.h: the DEQSCALE register
  uint8_t deq_form = 0;               // ctrl.h: the SetDeqScale form that wrote it (DeqForm)
  uint16_t deq_value = 0x3c00;        // ctrl.h: arch 3510's half scale (g_deqValue), half 1
  bool deq_value_set = false;         // ctrl.h: SetDeqScale(half) wrote it (arch 3510)
  bool deq_value_defined = false;     // ctrl.h: TPipe, InitSocState or SetDeqScale(half) set it
  SyncAllBarrier* barrier = nullptr;  // nullptr: a standalone block (1 block, nothing to wait for)
  uint64_t sync_all_calls = 0;        // SyncAll calls the block made
  int live_allocators = 0;            // LocalMemAllocator objects alive (static_tensor.h)
  // The CTRL register bits other than the overflow mode (cache.h: SetCtrlSpr; atomic.h keeps
  // the DMA atomic mode in CTRL[10:6]); every block starts from the defaults.
  uint64_t ctrl = kCtrlDefault;
  // Inter-block waits (block_sync.h): WaitPreBlock and NotifyNextBlock calls so far.
  bool determine_init = false;  // InitDetermineComputeWorkspace called
  uint64_t wait_pre_calls = 0;
  uint64_t notify_next_calls = 0;
  // ReadGmByPassDCache poll detection (cache.h): the last address and value, and how many reads
  // in a row returned them.
  const void* poll_addr = nullptr;
  uint64_t poll_value = 0;
  uint32_t poll_count = 0;
  uint32_t mutex_ids = 0;  // AllocMutexID: the IDs handed out, as bits (block_sync.h)
  // Mutex::Lock / Unlock: per MutexID, the modelled pipes that hold it (Lock without its Unlock
  // yet, in program order), as bits of the sanitizer's pipe indices.
  uint8_t mutex_holders[32] = {};
};
BlockSys& CurrentBlockSys() noexcept;

// Installs a fresh state for one block of a launch (and block_idx, block_num) on the calling
// thread for the scope's lifetime; restores the previous one (a launch from inside a block)
// after it.
class BlockSysScope {
 public:
  BlockSysScope(int64_t idx, int64_t num, SyncAllBarrier* barrier) noexcept;
  ~BlockSysScope();
  BlockSysScope(const BlockSysScope&) = delete;
  BlockSysScope& operator=(const BlockSysScope&) = delete;

 private:
  BlockSys saved_;
  int64_t saved_idx_;
  int64_t saved_num_;
};

// Products as bits for RequireProduct.
enum ArchBit : uint32_t {
  k1001 = 1u << 0,
  k2002 = 1u << 1,
  k2201 = 1u << 2,
  k3002 = 1u << 3,
  k3510 = 1u << 4,
};
// Checked mode: raises unsupported_on_product unless the running block's product is in `archs`.
void RequireProduct(const char* api, uint32_t archs, const char* products, SrcLoc loc);
[[noreturn]] void RaiseDivCeilZero();
// "api at file:line" (just api when loc has no file), for messages.
std::string WithLoc(const char* api, SrcLoc loc);
void SyncAllHard(SrcLoc loc);
void SyncAllSoft(uint64_t gm_elems, bool gm_size_known, const void* gm, uint64_t ub_elems,
                 int32_t used_cores, SrcLoc loc);

}  // namespace detail
}  // namespace lngrad::aicore

namespace AscendC {

// Puts the AI core's global state to its defaults, as the static-tensor style must at kernel
// entry (TPipe does it for the framework style). What the simulator keeps of that state starts
// at its defaults in every block anyway; InitSocState resets it again: Normal mask mode (A2/A3,
// 950) and a full vector mask (A2/A3), as the vendor's implementation does, but not the
// overflow mode, which it keeps. Not on Atlas 200I/500 A2 and Atlas training series.
void InitSocState(lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current());

// (a + b - 1) / b in uint32_t, wrapping as on the device. b == 0 raises div_by_zero (the host
// would trap).
constexpr uint32_t DivCeil(uint32_t a, uint32_t b) {
  if (b == 0) lngrad::aicore::detail::RaiseDivCeilZero();
  return (a + b - 1) / b;
}
constexpr uint32_t AlignUp(uint32_t a, uint32_t b) { return DivCeil(a, b) * b; }
// The vendor's kernel utility the register samples use: a / b rounded up, 0 when b is 0.
constexpr int32_t CeilDivision(int32_t a, int32_t b) { return b == 0 ? 0 : (a + b - 1) / b; }

// The system counter: host time at the product's counter frequency (50 MHz on Atlas A2/A3,
// 1 GHz on Ascend 950), so cycle differences convert to time as the vendor documents. Only
// Atlas A2/A3 and Ascend 950 have it.
int64_t GetSystemCycle(lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current());

// The UB bytes available at run time: the product's UB size on Ascend 950 (the only product
// that has the API; elsewhere the vendor's header returns 0, and so does unchecked mode).
uint32_t GetRuntimeUBSize(lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current());

// The memory DataSyncBarrier waits for.
enum class MemDsbT : uint8_t { ALL = 0, DDR, UB, SEQ };

// Orders the scalar unit's memory accesses after all earlier ones. The simulator performs a
// block's accesses in program order, so there is nothing to wait for; it orders no pipes, so
// the sanitizer does not take it for a SetFlag/WaitFlag or PipeBarrier either. Not on the Atlas
// inference and training series.
template <MemDsbT arg0>
void DataSyncBarrier(lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  using lngrad::aicore::detail::ArchBit;
  lngrad::aicore::detail::RequireProduct("DataSyncBarrier",
                                         ArchBit::k2201 | ArchBit::k3002 | ArchBit::k3510,
                                         "Atlas A2/A3, Atlas 200I/500 A2 and Ascend 950", loc);
}

// SyncAll's pipes on Ascend 950 (accepted on every product here: the simulator's pipes are
// always in sync, and SyncAll waits for everything).
struct SyncAllConfig {
  pipe_t triggerPipe;
  pipe_t waitPipe;
};
inline constexpr SyncAllConfig DEFAULT_SYNC_ALL_CONFIG = {PIPE_ALL, PIPE_ALL};

// Hardware SyncAll: returns when every block of the launch has called it (as often as this
// block). Every block of such a launch runs at once (one host thread each, at most
// kSyncAllMaxBlocks blocks), so it cannot deadlock however few host cores there are. Raises
// sync_all when a block ends, or fails, without making the same number of calls: on the device
// the others would wait forever. Afterwards the block's GM accesses are ordered after every
// block's earlier ones (san::OnSyncAll). isAIVOnly: every simulated block is a vector core.
// Atlas A2/A3 and Ascend 950.
template <bool isAIVOnly = true, const SyncAllConfig& config = DEFAULT_SYNC_ALL_CONFIG>
void SyncAll(lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::aicore::detail::SyncAllHard(loc);
}

// Software SyncAll over all blocks. gmWorkspace (int32_t, zero-initialised, at least
// GetBlockNum() * 32 bytes) and ubWorkspace (at least GetBlockNum() * 32 bytes) are checked
// for size but not used: the rendezvous is the hardware one's. usedCores: 0 or numBlocks (a
// subset of the blocks is not emulated and raises sync_all). Not on Atlas 200I/500 A2 and the
// Atlas inference series' vector cores.
template <bool isAIVOnly = true>
void SyncAll(const GlobalTensor<int32_t>& gmWorkspace, const LocalTensor<int32_t>& ubWorkspace,
             const int32_t usedCores = 0,
             lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::aicore::detail::SyncAllSoft(gmWorkspace.GetSize(), gmWorkspace.SizeKnown(),
                                      gmWorkspace.GetPhyAddr(), ubWorkspace.GetSize(), usedCores,
                                      loc);
}

}  // namespace AscendC
