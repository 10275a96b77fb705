// lngrad SIMT API: synchronisation and memory fences (the vendor's
// simt_api/device_sync_functions.h).
//
// asc_syncthreads is a real barrier of the block's threads (lngrad::simt::SyncThreads): it
// returns once every thread of the block waits at a barrier; a block some of whose threads
// finished while others wait fails with the check simt_barrier (the device deadlocks). The
// threads of a block share one host thread, so asc_threadfence_block orders only the compiler;
// asc_threadfence is a sequentially consistent host fence (blocks run on host threads in
// parallel).
#pragma once

#include "simt_api/device_types.h"

inline void asc_syncthreads(::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {
  ::lngrad::simt::SyncThreads(loc);
}
inline void asc_threadfence() { ::lngrad::simt::ThreadFence(false); }
inline void asc_threadfence_block() { ::lngrad::simt::ThreadFence(true); }
