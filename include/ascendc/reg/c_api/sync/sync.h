// lngrad C API: pipe synchronisation (the vendor's c_api/sync/sync.h), on the simulated AI core's
// flags, barriers and pipe locks: a block runs in program order, so they order nothing here, and
// the pipeline sanitizer sees each of them as it sees SetFlag/WaitFlag, PipeBarrier and
// Mutex::Lock/Unlock (lngrad_aicore/sync.h, block_sync.h).
#pragma once

#include <cstdint>

#include "c_api/utils_intf.h"
#include "lngrad_aicore/block_sync.h"
#include "lngrad_aicore/cores.h"
#include "lngrad_aicore/sync.h"
#include "lngrad_aicore/sys.h"

namespace lngrad::reg::detail {
// The HardEvent between two pipes; checks::kRegArgs for a pair the vector core does not have.
AscendC::HardEvent EventOf(pipe_t src, pipe_t dst, const char* api, aicore::SrcLoc loc);
}  // namespace lngrad::reg::detail

// asc_sync_notify(src, dst, id): the flag id of src -> dst is set once src's earlier
// instructions are done; asc_sync_wait(src, dst, id): dst waits for it and clears it.
inline void asc_sync_notify(pipe_t pipe, pipe_t tpipe, int32_t id,
                            ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {
  ::lngrad::aicore::san::SetFlag(
      ::lngrad::reg::detail::EventOf(pipe, tpipe, "asc_sync_notify", loc), id, loc);
}
inline void asc_sync_wait(pipe_t pipe, pipe_t tpipe, int32_t id,
                          ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {
  ::lngrad::aicore::san::WaitFlag(::lngrad::reg::detail::EventOf(pipe, tpipe, "asc_sync_wait", loc),
                                  id, loc);
}
// asc_sync_pipe(pipe): the pipe's later instructions wait for its earlier ones (PipeBarrier).
inline void asc_sync_pipe(pipe_t pipe,
                          ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {
  ::lngrad::aicore::san::Barrier(pipe, loc);
}
// asc_sync: waits for every pipe's earlier instructions (PipeBarrier<PIPE_ALL>).
inline void asc_sync(::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {
  ::lngrad::aicore::san::Barrier(PIPE_ALL, loc);
}
// asc_sync_data_barrier: the scalar unit's memory accesses after all earlier ones
// (DataSyncBarrier: nothing to wait for here, no pipe ordered).
inline void asc_sync_data_barrier(
    mem_dsb_t, ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {
  AscendC::DataSyncBarrier<AscendC::MemDsbT::ALL>(loc);
}
// asc_lock / asc_unlock(pipe, id): the pipe locks of the 950 (Mutex::Lock / Unlock).
inline void asc_lock(pipe_t pipe, uint8_t mutex_id,
                     ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {
  ::lngrad::aicore::detail::MutexOp(true, pipe, mutex_id, loc);
}
inline void asc_unlock(pipe_t pipe, uint8_t mutex_id,
                       ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {
  ::lngrad::aicore::detail::MutexOp(false, pipe, mutex_id, loc);
}
// asc_sync_block_arrive / asc_sync_block_wait(pipe, flag_id): the cross-core flags of a mixed
// kernel's AI core (its AIC and AIVs), as CrossCoreSetFlag<2, pipe> / CrossCoreWaitFlag: the
// vendor's intrinsic with mode 2 (the group), flag_id in [0, 15].
inline void asc_sync_block_arrive(
    pipe_t pipe, int64_t flag_id,
    ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {
  ::lngrad::aicore::detail::CrossCoreSet(2, pipe, static_cast<uint16_t>(flag_id), loc);
}
inline void asc_sync_block_wait(
    pipe_t pipe, int64_t flag_id,
    ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {
  ::lngrad::aicore::detail::CrossCoreWait(0, pipe, static_cast<uint16_t>(flag_id), loc);
}
