// Inter-block and inter-task synchronisation (block_sync.h). The waits are the launcher's
// (launch.cpp, SyncAllBarrier::WaitUntil); their state is InterBlockState (block_sync_state.h).
#include "lngrad_aicore/block_sync.h"

#include <cstring>
#include <string>

#include "block_sync_state.h"
#include "lngrad_aicore/sys.h"

namespace lngrad::aicore::detail {
namespace {

// Sanitizer keys (san::Release/Acquire): IBSet flags by GM address, turns by number.
constexpr uint64_t kTurnKeyBase = uint64_t{1} << 63;

InterBlockState& Alone() {
  thread_local InterBlockState alone(1);
  return alone;
}

std::string At(const char* api, SrcLoc loc) {
  return WithLoc(api, loc) + " (block " + std::to_string(CurrentBlockContext()->block_idx) + ")";
}

}  // namespace

// A block outside a launch (or a launch of one block with no barrier): nothing else can make a
// wait end, so one that is not over at once never is.
void WaitOrRaise(const char* check, const std::string& what,
                 const std::function<bool(InterBlockState&)>& ready,
                 const std::function<void(InterBlockState&)>& then) {
  BlockSys& sys = CurrentBlockSys();
  if (sys.barrier != nullptr) return sys.barrier->WaitUntil(check, what, ready, then);
  InterBlockState& alone = Alone();
  if (!ready(alone)) {
    RaiseKernelCheck(check, what +
                                ": can never go on: this block runs alone (no other block can "
                                "end the wait); on the device the kernel hangs");
  }
  then(alone);
}
void ChangeShared(const std::function<void(InterBlockState&)>& change) {
  BlockSys& sys = CurrentBlockSys();
  if (sys.barrier != nullptr) return sys.barrier->Change(change);
  change(Alone());
}

void IbSetWait(bool set, bool aiv_only, const AscendC::GlobalTensor<int32_t>& gm,
               const AscendC::LocalTensor<int32_t>& ub, int32_t block, int32_t event, SrcLoc loc) {
  const char* api = set ? "IBSet" : "IBWait";
  const BlockContext& ctx = RequireBlockContext(api);
  RequireProduct(api, k1001 | k2002 | k2201 | k3510,
                 "Ascend 950, Atlas A2/A3, the Atlas inference series' AI Cores and the Atlas "
                 "training series",
                 loc);
  const Product& p = CurrentBlockProduct();
  const bool doubled = !aiv_only && (p.arch == NpuArch::k2201 || p.arch == NpuArch::k3510);
  const int64_t blocks = ctx.block_num * (doubled ? 2 : 1);
  const std::string at = At(api, loc);
  if (block < 0 || block >= blocks || event < 0) {
    RaiseKernelCheck(checks::kBlockSync, at + ": blockIdx " + std::to_string(block) +
                                             " must be in [0, " + std::to_string(blocks) +
                                             ") and eventID " + std::to_string(event) +
                                             " must be >= 0");
  }
  if (gm.GetPhyAddr() == nullptr) {
    RaiseKernelCheck(checks::kBlockSync, at + ": gmWorkspace has no GM buffer (SetGlobalBuffer)");
  }
  const uint64_t word = uint64_t(blocks) * 8 * uint64_t(event) + uint64_t(block) * 8;
  if (CheckedMode()) {
    if (gm.SizeKnown() && gm.GetSize() < word + 8) {
      RaiseKernelCheck(checks::kBlockSync,
                       at + ": gmWorkspace has " + std::to_string(gm.GetSize()) +
                           " int32_t elements; the flag of blockIdx " + std::to_string(block) +
                           " and eventID " + std::to_string(event) + " is elements [" +
                           std::to_string(word) + ", " + std::to_string(word + 8) +
                           ") (blockNum * 32 B * eventID + blockIdx * 32 B + 32 B)");
    }
    if (ub.GetSize() < 8) {
      RaiseKernelCheck(checks::kBlockSync, at + ": ubWorkspace has " +
                                               std::to_string(ub.GetSize()) +
                                               " int32_t elements; it needs 32 bytes (8)");
    }
  }
  int32_t* flag = gm.GetPhyAddr() + word;
  CheckGmAllocRange(flag, 32, api);
  const uint64_t key = reinterpret_cast<uintptr_t>(flag);
  const int32_t want = set ? 0 : 1;
  const std::string what =
      at + (set ? " waits for the flag (blockIdx " : " waits for IBSet (blockIdx ") +
      std::to_string(block) + ", eventID " + std::to_string(event) +
      (set ? ") to be clear (a second IBSet before the matching IBWait)"
           : ") of the block waited for");
  // The vendor's IBSet/IBWait, WaitPreBlock/NotifyNextBlock and InitDetermineComputeWorkspace
  // start and end with PipeBarrier<PIPE_ALL>: they order the block's own pipes too.
  san::Barrier(PIPE_ALL, loc);
  // IBSet publishes this block's accesses before the flag goes up; IBWait takes them after.
  if (set) san::Release(key);
  WaitOrRaise(
      checks::kBlockSync, what,
      [&](InterBlockState&) {
        int32_t v;
        std::memcpy(&v, flag, sizeof v);
        return v == want;
      },
      [&](InterBlockState&) {
        const int32_t now = 1 - want;
        std::memcpy(flag, &now, sizeof now);
        if (ub.GetSize() >= 8) std::memcpy(ub.HostPtr(), flag, 32);
      });
  if (!set) san::Acquire(key);
  san::Barrier(PIPE_ALL, loc);
}

void DetermineInit(const AscendC::GlobalTensor<int32_t>& gm,
                   const AscendC::LocalTensor<int32_t>& ub, SrcLoc loc) {
  constexpr const char* kApi = "InitDetermineComputeWorkspace";
  const BlockContext& ctx = RequireBlockContext(kApi);
  RequireProduct(kApi, k2002 | k2201 | k3510,
                 "Atlas A2/A3, Ascend 950 and the Atlas inference series' AI Cores", loc);
  const uint64_t need = uint64_t(ctx.block_num) * 8;
  const std::string at = At(kApi, loc);
  if (CheckedMode()) {
    if (gm.GetPhyAddr() == nullptr) {
      RaiseKernelCheck(checks::kBlockSync, at + ": gmWorkspace has no GM buffer (SetGlobalBuffer)");
    }
    if (gm.SizeKnown() && gm.GetSize() < need) {
      RaiseKernelCheck(checks::kBlockSync,
                       at + ": gmWorkspace has " + std::to_string(gm.GetSize()) +
                           " int32_t elements; it needs GetBlockNum() * 32 B = " +
                           std::to_string(need) + " elements");
    }
    if (ub.GetSize() < need + 8) {
      RaiseKernelCheck(checks::kBlockSync,
                       at + ": ubWorkspace has " + std::to_string(ub.GetSize()) +
                           " int32_t elements; it needs GetBlockNum() * 32 B + 32 B = " +
                           std::to_string(need + 8) + " elements");
    }
  }
  san::Barrier(PIPE_ALL, loc);
  CurrentBlockSys().determine_init = true;
}

void DetermineStep(bool notify, const AscendC::GlobalTensor<int32_t>&,
                   const AscendC::LocalTensor<int32_t>&, SrcLoc loc) {
  const char* api = notify ? "NotifyNextBlock" : "WaitPreBlock";
  const BlockContext& ctx = RequireBlockContext(api);
  RequireProduct(api, k2002 | k2201 | k3510,
                 "Atlas A2/A3, Ascend 950 and the Atlas inference series' AI Cores", loc);
  BlockSys& sys = CurrentBlockSys();
  const std::string at = At(api, loc);
  if (CheckedMode() && !sys.determine_init) {
    RaiseKernelCheck(checks::kBlockSync,
                     at + ": call InitDetermineComputeWorkspace(gmWorkspace, ubWorkspace) first");
  }
  const auto n = static_cast<uint64_t>(ctx.block_num);
  const auto i = static_cast<uint64_t>(ctx.block_idx);
  san::Barrier(PIPE_ALL, loc);
  if (notify) {
    const uint64_t m = ++sys.notify_next_calls;
    san::Release(kTurnKeyBase | ((m - 1) * n + i));
    ChangeShared([&](InterBlockState& s) {
      if (s.notifies.size() != n) s.notifies.assign(n, 0);
      s.notifies[i] = m;
      s.AdvanceTurn();
    });
    san::Barrier(PIPE_ALL, loc);
    return;
  }
  const uint64_t k = ++sys.wait_pre_calls;
  const uint64_t turn = (k - 1) * n + i;
  const std::string what = at + ": its WaitPreBlock call " + std::to_string(k) +
                           " waits for turn " + std::to_string(turn) +
                           " (the NotifyNextBlock "
                           "calls of the blocks before it in this round and of every block in the "
                           "rounds before)";
  WaitOrRaise(
      checks::kBlockSync, what,
      [&](InterBlockState& s) {
        if (s.notifies.size() != n) s.notifies.assign(n, 0);
        return s.turn >= turn;
      },
      [](InterBlockState&) {});
  // The turn before this one was the previous block's notification (which acquired the one
  // before it when that block also waited).
  if (turn > 0) san::Acquire(kTurnKeyBase | (turn - 1));
  san::Barrier(PIPE_ALL, loc);
}

void TaskSync(const char* api, SrcLoc) { RequireBlockContext(api); }

namespace {
constexpr uint32_t kUserMutexIds = 28, kMutexIds = 32;
const char kMutexQueue = 0;      // the sanitizer's queue key of the mutex flags
const char kMutexHoldQueue = 0;  // the key of a Lock's wait for the pipes that hold its ID
}  // namespace

uint8_t AllocMutexId(SrcLoc loc) {
  constexpr const char* kApi = "AllocMutexID";
  RequireBlockContext(kApi);
  RequireProduct(kApi, k3510, "Ascend 950", loc);
  uint32_t& ids = CurrentBlockSys().mutex_ids;
  for (uint32_t i = 0; i < kUserMutexIds; ++i) {
    if ((ids & (1u << i)) == 0) {
      ids |= 1u << i;
      return static_cast<uint8_t>(i);
    }
  }
  RaiseKernelCheck(checks::kBlockSync, At(kApi, loc) + ": all " + std::to_string(kUserMutexIds) +
                                           " MutexIDs are taken; release one with "
                                           "ReleaseMutexID first");
}

void ReleaseMutexId(uint8_t id, SrcLoc loc) {
  constexpr const char* kApi = "ReleaseMutexID";
  RequireBlockContext(kApi);
  RequireProduct(kApi, k3510, "Ascend 950", loc);
  uint32_t& ids = CurrentBlockSys().mutex_ids;
  if (CheckedMode() && (id >= kUserMutexIds || (ids & (1u << id)) == 0)) {
    RaiseKernelCheck(checks::kBlockSync, At(kApi, loc) + ": MutexID " + std::to_string(id) +
                                             " was not handed out by AllocMutexID (or is "
                                             "released already)");
  }
  if (id < kUserMutexIds) ids &= ~(1u << id);
}

void MutexOp(bool lock, pipe_t pipe, uint8_t id, SrcLoc loc) {
  const char* api = lock ? "Mutex::Lock" : "Mutex::Unlock";
  RequireBlockContext(api);
  RequireProduct(api, k3510, "Ascend 950", loc);
  if (CheckedMode() && id >= kMutexIds) {
    RaiseKernelCheck(checks::kBlockSync, At(api, loc) + ": MutexID " + std::to_string(id) +
                                             " is out of range; the IDs are 0-31");
  }
  namespace ds = AscendC::detail_sync;
  const int slot = ds::ModelledPipeIndex(pipe);
  if (slot < 0) return;  // PIPE_ALL and the pipes lngrad does not model
  // One flag per (id, waiting pipe), over the vector core's pipes and the cube's (MTE1, M, FIX):
  // an Unlock signals every other pipe it has a HardEvent to, a Lock takes its own. A Lock of an
  // ID that other pipes hold (locked, their Unlock still ahead in program order) waits for them
  // on the device, as their Unlock comes once their earlier instructions are done: its pipe's
  // later instructions are ordered after the holders' instructions so far.
  uint8_t& holders = CurrentBlockSys().mutex_holders[id % kMutexIds];
  if (lock) {
    san::QueueWait(&kMutexQueue, id * kPipeCount + slot, false);
    for (int h = 0; h < kPipeCount; ++h) {
      const AscendC::HardEvent e = ds::EventBetween(ds::kModelledPipes[h], pipe);
      if (h == slot || (holders & (1u << h)) == 0 || e == AscendC::HardEvent::MAX) continue;
      san::QueueSignal(&kMutexHoldQueue, id * kPipeCount + slot, false, e);
      san::QueueWait(&kMutexHoldQueue, id * kPipeCount + slot, false);
    }
    holders = static_cast<uint8_t>(holders | (1u << slot));
    return;
  }
  holders = static_cast<uint8_t>(holders & ~(1u << slot));
  for (int q = 0; q < kPipeCount; ++q) {
    const AscendC::HardEvent e = ds::EventBetween(pipe, ds::kModelledPipes[q]);
    if (q != slot && e != AscendC::HardEvent::MAX) {
      san::QueueSignal(&kMutexQueue, id * kPipeCount + q, false, e);
    }
  }
}

namespace {
constexpr uint64_t kGroupArriveKey = uint64_t{1} << 62, kGroupWaitKey = uint64_t{3} << 61;
uint64_t GroupKey(uint64_t kind, const void* ws, uint32_t round) {
  return kind ^ (reinterpret_cast<uintptr_t>(ws) * 0x9e3779b97f4a7c15ull) ^ round;
}
void GroupIndex(const char* api, const char* what, uint32_t index, uint32_t size, SrcLoc loc) {
  if (index >= size) {
    RaiseKernelCheck(checks::kBlockSync, At(api, loc) + ": " + what + " " + std::to_string(index) +
                                             " must be in [0, " + std::to_string(size) + ")");
  }
}
}  // namespace

void GroupBarrierInit(bool mte3_mode, const void* ws, uint32_t arrive, uint32_t wait, SrcLoc loc) {
  constexpr const char* kApi = "GroupBarrier";
  const BlockContext& ctx = RequireBlockContext(kApi);
  RequireProduct(kApi, k2201 | k3510, "Atlas A2 and Ascend 950", loc);
  const std::string at = At(kApi, loc);
  if (!mte3_mode) {
    RaiseKernelCheck(checks::kBlockSync, at + ": only PipeMode::MTE3_MODE is supported");
  }
  if (arrive == 0 || wait == 0 || arrive > ctx.block_num || wait > ctx.block_num) {
    RaiseKernelCheck(checks::kBlockSync,
                     at + ": arriveSizeIn " + std::to_string(arrive) + " and waitSizeIn " +
                         std::to_string(wait) +
                         " must be in [1, GetBlockNum() = " + std::to_string(ctx.block_num) + "]");
  }
  if (CheckedMode() && reinterpret_cast<uintptr_t>(ws) % 512 != 0) {
    RaiseKernelCheck(checks::kBlockSync, at + ": groupWorkspace must be 512-byte aligned");
  }
}

void GroupBarrierArrive(const void* ws, uint32_t arrive, uint32_t wait, uint32_t index,
                        uint32_t round, SrcLoc loc) {
  constexpr const char* kApi = "GroupBarrier::Arrive";
  RequireBlockContext(kApi);
  GroupIndex(kApi, "arriveIndex", index, arrive, loc);
  if (round > 1) {
    // The previous round's waiters must all have gone (they may still read what it wrote).
    const uint64_t need = uint64_t{round - 1} * wait;
    WaitOrRaise(
        checks::kBlockSync,
        At(kApi, loc) + " (round " + std::to_string(round) + ") waits for the " +
            std::to_string(wait) + " Wait calls of round " + std::to_string(round - 1),
        [&](InterBlockState& s) { return s.groups[ws].second >= need; }, [](InterBlockState&) {});
    san::Acquire(GroupKey(kGroupWaitKey, ws, round - 1));
  }
  san::Release(GroupKey(kGroupArriveKey, ws, round));
  ChangeShared([&](InterBlockState& s) { ++s.groups[ws].first; });
}

void GroupBarrierWait(const void* ws, uint32_t arrive, uint32_t wait, uint32_t index,
                      uint32_t round, SrcLoc loc) {
  constexpr const char* kApi = "GroupBarrier::Wait";
  RequireBlockContext(kApi);
  GroupIndex(kApi, "waitIndex", index, wait, loc);
  const uint64_t need = uint64_t{round} * arrive;
  WaitOrRaise(
      checks::kBlockSync,
      At(kApi, loc) + " (round " + std::to_string(round) + ") waits for the " +
          std::to_string(arrive) + " Arrive calls of its round",
      [&](InterBlockState& s) { return s.groups[ws].first >= need; }, [](InterBlockState&) {});
  san::Acquire(GroupKey(kGroupArriveKey, ws, round));
  san::Release(GroupKey(kGroupWaitKey, ws, round));
  ChangeShared([&](InterBlockState& s) { ++s.groups[ws].second; });
}

}  // namespace lngrad::aicore::detail
