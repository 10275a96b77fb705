// Layer simt: a hint for a SIMT thread that runs long without a wait point (watchdog.h).
#include "watchdog.h"

#include <chrono>
#include <cstdio>
#include <mutex>
#include <thread>
#include <vector>

namespace lngrad::simt::detail {
namespace {

constexpr int kQuietSeconds = 10;

struct Registry {
  std::mutex mu;
  std::vector<Heartbeat*> beats;
};
// Never destroyed: the watchdog thread may still read it while the process exits.
Registry& TheRegistry() {
  static auto* r = new Registry();
  return *r;
}

void Watch() {
  std::vector<uint64_t> last;
  std::vector<int> quiet;
  for (;;) {
    std::this_thread::sleep_for(std::chrono::seconds(1));
    Registry& r = TheRegistry();
    const std::lock_guard lock(r.mu);
    last.resize(r.beats.size(), 0);
    quiet.resize(r.beats.size(), 0);
    for (size_t i = 0; i < r.beats.size(); ++i) {
      Heartbeat& b = *r.beats[i];
      const uint64_t now = b.switches.load(std::memory_order_relaxed);
      if (!b.running.load(std::memory_order_relaxed) || now != last[i]) {
        last[i] = now;
        quiet[i] = 0;
        continue;
      }
      if (++quiet[i] != kQuietSeconds) continue;
      std::fprintf(stderr,
                   "lngrad simt: thread %u of block %u has run %d s without reaching "
                   "asc_syncthreads, a warp function or an atomic. If it spins on a flag that "
                   "the vector kernel sets after asc_vf_call, it waits forever: lngrad runs a "
                   "SIMT vector function to its end before the kernel goes on (the device runs "
                   "them side by side).\n",
                   b.thread.load(std::memory_order_relaxed),
                   b.block.load(std::memory_order_relaxed), kQuietSeconds);
    }
  }
}

// This host thread's heartbeat, registered on first use and removed when the thread ends.
struct Owner {
  Heartbeat beat;
  Owner() {
    static std::once_flag started;
    std::call_once(started, [] { std::thread(Watch).detach(); });
    Registry& r = TheRegistry();
    const std::lock_guard lock(r.mu);
    r.beats.push_back(&beat);
  }
  ~Owner() {
    Registry& r = TheRegistry();
    const std::lock_guard lock(r.mu);
    std::erase(r.beats, &beat);
  }
};

}  // namespace

Heartbeat& ThisHostThreadsHeartbeat() {
  thread_local Owner owner;
  return owner.beat;
}

}  // namespace lngrad::simt::detail
