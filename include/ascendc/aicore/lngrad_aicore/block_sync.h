// lngrad Ascend C runtime: synchronisation between the blocks of a launch, and between tasks.
// IBSet/IBWait (a flag per block and event in a GM workspace), InitDetermineComputeWorkspace,
// WaitPreBlock and NotifyNextBlock (blocks take turns in blockIdx order), WaitPreTaskEnd and
// SetNextTaskStart, GroupBarrier (docs/ascendc_compat.md, "Inter-block synchronisation and
// atomics").
//
// A block that waits keeps its host thread while the others run, as in SyncAll: a launch whose
// blocks wait for each other runs them all at once (at most kSyncAllMaxBlocks), so they cannot
// deadlock however few host cores there are. A wait that can never end (every other block has
// ended or waits too) raises block_sync naming the call, where the device would hang. The order
// a wait gives counts for the sanitizer's cross-block racecheck (san::Release/Acquire). Like the
// vendor's, IBSet/IBWait and the deterministic-computation calls begin and end with a
// PipeBarrier<PIPE_ALL> (which the sanitizer sees).
#pragma once

#include <cstdint>

#include "sanitizer.h"
#include "sync.h"
#include "tensor.h"

namespace lngrad::aicore {

namespace checks {
inline constexpr const char* kBlockSync =
    "block_sync";  // an inter-block wait that can never end, or a workspace too small
}  // namespace checks

namespace detail {
void IbSetWait(bool set, bool aiv_only, const AscendC::GlobalTensor<int32_t>& gm,
               const AscendC::LocalTensor<int32_t>& ub, int32_t block, int32_t event, SrcLoc loc);
void DetermineInit(const AscendC::GlobalTensor<int32_t>& gm,
                   const AscendC::LocalTensor<int32_t>& ub, SrcLoc loc);
void DetermineStep(bool notify, const AscendC::GlobalTensor<int32_t>& gm,
                   const AscendC::LocalTensor<int32_t>& ub, SrcLoc loc);
void TaskSync(const char* api, SrcLoc loc);
uint8_t AllocMutexId(SrcLoc loc);
void ReleaseMutexId(uint8_t id, SrcLoc loc);
void MutexOp(bool lock, pipe_t pipe, uint8_t id, SrcLoc loc);
void GroupBarrierInit(bool mte3_mode, const void* ws, uint32_t arrive, uint32_t wait, SrcLoc loc);
// round: the caller's GroupBarrier round (1-based).
void GroupBarrierArrive(const void* ws, uint32_t arrive, uint32_t wait, uint32_t index,
                        uint32_t round, SrcLoc loc);
void GroupBarrierWait(const void* ws, uint32_t arrive, uint32_t wait, uint32_t index,
                      uint32_t round, SrcLoc loc);
}  // namespace detail
}  // namespace lngrad::aicore

namespace AscendC {

// IBSet: the block that is waited for marks its flag (blockIdx, eventID): it waits until the
// flag's GM word is 0, then writes 1. IBWait: waits until that word is 1, then writes 0. The
// word is int32 number blockNum * 8 * eventID + blockIdx * 8 of gmWorkspace (blockNum doubled
// when isAIVOnly is false), which must start at 0. Both calls of a pair pass the same gmWorkspace,
// blockIdx and eventID. The first 8 words of ubWorkspace receive the flag's 32 bytes. Checked
// mode: targetBlockIdx (the vendor's blockIdx; renamed: SIMT's built-in variable blockIdx is a
// macro) in [0, blockNum), eventID >= 0, the flag inside gmWorkspace, ubWorkspace at
// least 32 bytes. Not on Atlas 200I/500 A2 and the Atlas inference series' vector cores.
template <bool isAIVOnly = true>
void IBSet(const GlobalTensor<int32_t>& gmWorkspace, const LocalTensor<int32_t>& ubWorkspace,
           int32_t targetBlockIdx, int32_t eventID,
           lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::aicore::detail::IbSetWait(true, isAIVOnly, gmWorkspace, ubWorkspace, targetBlockIdx,
                                    eventID, loc);
}
template <bool isAIVOnly = true>
void IBWait(const GlobalTensor<int32_t>& gmWorkspace, const LocalTensor<int32_t>& ubWorkspace,
            int32_t targetBlockIdx, int32_t eventID,
            lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::aicore::detail::IbSetWait(false, isAIVOnly, gmWorkspace, ubWorkspace, targetBlockIdx,
                                    eventID, loc);
}

// Deterministic computation: between WaitPreBlock and NotifyNextBlock the blocks run one at a
// time in blockIdx order, round after round: block i's k-th WaitPreBlock returns once blocks
// 0..i-1 made their k-th NotifyNextBlock and every block its (k-1)-th. Every block calls
// InitDetermineComputeWorkspace first (checked mode: block_sync otherwise) and both others
// equally often. gmWorkspace at least GetBlockNum() * 32 bytes, ubWorkspace GetBlockNum() * 32 +
// 32 bytes (checked); the turn is kept by the launch, so the workspaces' contents are not used.
// Atlas A2/A3, Ascend 950 and the Atlas inference series' AI Cores.
inline void InitDetermineComputeWorkspace(
    GlobalTensor<int32_t>& gmWorkspace, LocalTensor<int32_t>& ubWorkspace,
    lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::aicore::detail::DetermineInit(gmWorkspace, ubWorkspace, loc);
}
inline void WaitPreBlock(GlobalTensor<int32_t>& gmWorkspace, LocalTensor<int32_t>& ubWorkspace,
                         lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::aicore::detail::DetermineStep(false, gmWorkspace, ubWorkspace, loc);
}
inline void NotifyNextBlock(GlobalTensor<int32_t>& gmWorkspace, LocalTensor<int32_t>& ubWorkspace,
                            lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::aicore::detail::DetermineStep(true, gmWorkspace, ubWorkspace, loc);
}

// Pipe locks within a block (Ascend 950). Lock<pipe>(id): the pipe's later instructions wait
// until the last Unlock of id (by any pipe) has been reached; Unlock<pipe>(id): once the pipe's
// earlier instructions are done, id is free. A block runs in program order here, so only the
// sanitizer sees them (on S, V, MTE2, MTE3 and the cube's MTE1, M, FIX): an Unlock<P>(id)
// followed by a Lock<Q>(id) orders Q's later accesses after P's earlier ones, like
// SetFlag/WaitFlag, and a Lock<Q>(id) while other pipes hold id (their Unlock still ahead) orders
// Q's later accesses after theirs so far (docs/ascendc_kernels.md, "The tensor API"). IDs:
// AllocMutexID hands out the lowest free one of 0-27 (28-31 are the system's), ReleaseMutexID frees
// it; static-tensor kernels may use 0-27 directly. Checked mode: block_sync for an ID above 31, all
// 28 taken, or releasing one not handed out.
using MutexID = uint8_t;
inline MutexID AllocMutexID(lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  return lngrad::aicore::detail::AllocMutexId(loc);
}
inline void ReleaseMutexID(MutexID id,
                           lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::aicore::detail::ReleaseMutexId(id, loc);
}
class Mutex {
 public:
  template <pipe_t pipe>
  static void Lock(MutexID id, lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
    lngrad::aicore::detail::MutexOp(true, pipe, id, loc);
  }
  template <pipe_t pipe>
  static void Unlock(MutexID id, lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
    lngrad::aicore::detail::MutexOp(false, pipe, id, loc);
  }
};

// The unit GroupBarrier sends its messages with (only MTE3_MODE is supported).
enum class PipeMode : uint8_t { SCALAR_MODE = 0, MTE3_MODE = 1, MAX };

// Blocks in a Wait group wait for every block of an Arrive group, round after round: the r-th
// Wait returns once arriveSize Arrive calls of round r were made, and an Arrive of round r + 1
// waits until all waitSize Waits of round r have returned. A block that calls Arrive and then
// Wait does both in one round. Every block constructs its own object on the same groupWorkspace
// (512-byte aligned; its contents are not used: the counts are kept by the launch).
// arriveSizeIn and waitSizeIn in [1, GetBlockNum()]; indexes in [0, size). Atlas A2 and Ascend
// 950 (checked mode: unsupported_on_product elsewhere, block_sync for the other rules).
template <PipeMode pipeMode>
class GroupBarrier {
 public:
  GroupBarrier(__gm__ uint8_t* groupWorkspace, uint32_t arriveSizeIn, uint32_t waitSizeIn,
               lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current())
      : ws_(groupWorkspace), arrive_(arriveSizeIn), wait_(waitSizeIn) {
    lngrad::aicore::detail::GroupBarrierInit(pipeMode == PipeMode::MTE3_MODE, ws_, arrive_, wait_,
                                             loc);
  }
  void Arrive(uint32_t arriveIndex,
              lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
    lngrad::aicore::detail::GroupBarrierArrive(ws_, arrive_, wait_, arriveIndex, counter_, loc);
    ++counter_;
    has_arrived_ = true;
  }
  void Wait(uint32_t waitIndex, lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
    const uint32_t round = has_arrived_ ? counter_ - 1 : counter_;
    lngrad::aicore::detail::GroupBarrierWait(ws_, arrive_, wait_, waitIndex, round, loc);
    if (!has_arrived_) ++counter_;
    has_arrived_ = false;
  }
  // The GM bytes the barrier's messages take: 512 per block of the larger group.
  uint64_t GetWorkspaceLen() const { return uint64_t{arrive_ > wait_ ? arrive_ : wait_} * 512; }

 private:
  const void* ws_;
  uint32_t arrive_, wait_;
  uint32_t counter_ = 1;  // the round
  bool has_arrived_ = false;
};

// SuperKernel early start: the instructions before WaitPreTaskEnd (after SetNextTaskStart) may
// overlap the previous (next) task on the device. lngrad runs one kernel at a time, so both only
// check that a block is running; every product accepts them.
template <bool FORCE = false>
void WaitPreTaskEnd(lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::aicore::detail::TaskSync("WaitPreTaskEnd", loc);
}
template <pipe_t AIV_PIPE = PIPE_MTE3, pipe_t AIC_PIPE = PIPE_FIX, bool FORCE = false>
void SetNextTaskStart(lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::aicore::detail::TaskSync("SetNextTaskStart", loc);
}

}  // namespace AscendC
