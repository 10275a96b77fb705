// Layer simt: a watchdog for SIMT threads that run long without a wait point (private).
//
// Threads switch only where they wait, so a thread spinning on a plain or volatile flag that
// another thread of its block (or the vector kernel after an asc_vf_call) would set never gives
// the others a turn. lngrad cannot tell such a spin from a long computation; a watchdog thread
// prints one hint on stderr when a SIMT thread has run 10 s without switching. Nothing fails.
#pragma once

#include <atomic>
#include <cstdint>

namespace lngrad::simt::detail {

struct Heartbeat {
  std::atomic<uint64_t> switches{0};  // fiber switches of this host thread so far
  std::atomic<bool> running{false};   // a SIMT thread runs now
  std::atomic<uint32_t> thread{0};    // its linear index
  std::atomic<uint32_t> block{0};     // its block's linear index
};

Heartbeat& ThisHostThreadsHeartbeat();

}  // namespace lngrad::simt::detail
