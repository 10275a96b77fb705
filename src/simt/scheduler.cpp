// Layer simt: the threads of a block on fibers, their barriers and warp rendezvous
// (lngrad_simt/runtime.h).
#include <algorithm>
#include <atomic>
#include <cstring>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "fiber.h"
#include "lngrad/product.h"
#include "lngrad_aicore/check.h"
#include "lngrad_aicore/sys.h"
#include "lngrad_simt/runtime.h"
#include "lngrad_aicore/sanitizer.h"
#include "lngrad_aicore/sanitizer_tools.h"
#include "racecheck.h"
#include "state.h"
#include "watchdog.h"

#if defined(__SANITIZE_ADDRESS__)
#define LNGRAD_SIMT_SCHED_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LNGRAD_SIMT_SCHED_ASAN 1
#endif
#endif
#ifndef LNGRAD_SIMT_SCHED_ASAN
#define LNGRAD_SIMT_SCHED_ASAN 0
#endif
#if LNGRAD_SIMT_SCHED_ASAN
#include <sanitizer/asan_interface.h>
#endif

namespace lngrad::simt {
namespace detail {

thread_local const ThreadInfo* t_thread = nullptr;
thread_local const BlockInfo* t_block = nullptr;

void RaiseOutsideThread(const char* what) {
  aicore::RaiseKernelCheck(
      kCheckSimtContext,
      std::string(what) +
          " used outside a SIMT thread (only SIMT kernels launched with "
          "<<<blocks, threads, dynUbBytes, stream>>> and SIMT vector functions called with "
          "asc_vf_call run in SIMT threads)");
}

namespace {

// Thrown inside the other threads of a block once one thread failed: unwinds their stacks.
struct ThreadCancelled {};

enum class State : uint8_t { kFresh, kRunnable, kBarrier, kWarp, kDone };

// Consecutive atomics after which a thread yields (AtomicPoint).
constexpr uint32_t kAtomicsBeforeYield = 64;

struct SimtThread {
  ThreadInfo info;
  Fiber fiber;
  State state = State::kFresh;
  Site site;           // where it waits (kBarrier, kWarp)
  uint64_t value = 0;  // its contribution to the warp function it waits in
  uint32_t atomics = 0;
};

bool SameSite(const Site& a, const Site& b) {
  if (a.line != b.line || a.column != b.column) return false;
  if (a.file == b.file) return true;
  return a.file != nullptr && b.file != nullptr && std::strcmp(a.file, b.file) == 0;
}

std::string SiteText(const Site& loc) {
  return std::string(loc.file != nullptr ? loc.file : "?") + ":" + std::to_string(loc.line);
}

class Scheduler {
 public:
  Scheduler(const BlockInfo& block, const std::function<void()>& body, RaceChecker* race)
      : race_(race),
        body_(body),
        threads_(block.threads),
        results_((block.threads + kWarpSize - 1) / kWarpSize) {
    block_linear_ = block.block_idx.x + block.block_idx.y * block.grid_dim.x +
                    block.block_idx.z * block.grid_dim.x * block.grid_dim.y;
    const dim3 d = block.block_dim;
    for (uint32_t i = 0; i < block.threads; ++i) {
      ThreadInfo& t = threads_[i].info;
      t.thread_idx = dim3(i % d.x, (i / d.x) % d.y, i / (d.x * d.y));
      t.linear = i;
      t.lane = i % kWarpSize;
      t.warp = i / kWarpSize;
    }
  }

  void Run(aicore::SrcLoc loc);

  // From the running thread.
  void Barrier(aicore::SrcLoc loc) {
    SimtThread& t = *running_;
    t.site = Site{loc.file, loc.line, 0};
    Block(t, State::kBarrier);
  }
  const WarpExchange& Warp(uint64_t value, Site loc) {
    SimtThread& t = *running_;
    t.site = loc;
    t.value = value;
    Block(t, State::kWarp);
    return results_[t.info.warp];
  }
  bool RunningStackHolds(const void* p) const {
    if (running_ == nullptr || running_->fiber.stack == nullptr) return false;
    const FiberStack& s = *running_->fiber.stack;
    return p >= static_cast<const void*>(s.Bottom()) && p < static_cast<const void*>(s.Top());
  }
  void Atomic() {
    SimtThread& t = *running_;
    if (++t.atomics < kAtomicsBeforeYield) return;
    Block(t, State::kRunnable);
  }

 private:
  static void Entry(void* arg);
  void Resume(SimtThread& t);
  void Block(SimtThread& t, State state) {
    t.state = state;
    t.atomics = 0;
    Fiber::SwitchTo(t.fiber, host_);
    if (cancel_) throw ThreadCancelled{};
  }
  void Fail(std::exception_ptr e) {
    if (!error_) error_ = std::move(e);
    cancel_ = true;
  }
  bool RunWarp(uint32_t warp);
  void ResolveWarp(uint32_t warp);
  void ReleaseBarrier();
  void CancelAll();

  RaceChecker* race_;  // the race checker (nullptr: off)
  Heartbeat& beat_ = ThisHostThreadsHeartbeat();
  uint32_t block_linear_ = 0;
  const std::function<void()>& body_;
  std::vector<SimtThread> threads_;
  std::vector<WarpExchange> results_;  // per warp: its last warp function's values
  Fiber host_;
  SimtThread* running_ = nullptr;
  bool cancel_ = false;
  std::exception_ptr error_;
};

thread_local Scheduler* t_scheduler = nullptr;

Scheduler& RunningScheduler(const char* what) {
  if (t_scheduler == nullptr || t_thread == nullptr) RaiseOutsideThread(what);
  return *t_scheduler;
}

void Scheduler::Entry(void* arg) {
  auto* t = static_cast<SimtThread*>(arg);
  Scheduler* s = t_scheduler;
  try {
    if (!s->cancel_) s->body_();
  } catch (const ThreadCancelled&) {
  } catch (...) {
    s->Fail(std::current_exception());
  }
  t->state = State::kDone;
  Fiber::SwitchTo(t->fiber, s->host_);
  std::terminate();  // a finished fiber is never resumed
}

void Scheduler::Resume(SimtThread& t) {
  if (t.state == State::kFresh) t.fiber.Start(TakeStack(), &Scheduler::Entry, &t);
  t.state = State::kRunnable;
  running_ = &t;
  t_thread = &t.info;
  beat_.thread.store(t.info.linear, std::memory_order_relaxed);
  beat_.block.store(block_linear_, std::memory_order_relaxed);
  beat_.switches.fetch_add(1, std::memory_order_relaxed);
  beat_.running.store(true, std::memory_order_relaxed);
  Fiber::SwitchTo(host_, t.fiber);
  beat_.running.store(false, std::memory_order_relaxed);
  t_thread = nullptr;
  running_ = nullptr;
  if (t.state == State::kDone) {
    ReturnStack(t.fiber.stack);
    t.fiber.stack = nullptr;
  }
}

// Runs the warp's lanes until each has finished, reached a barrier or yielded, resolving its
// warp functions on the way. Returns false once the block is cancelled.
bool Scheduler::RunWarp(uint32_t warp) {
  const uint32_t first = warp * kWarpSize;
  const uint32_t last =
      std::min<uint32_t>(first + kWarpSize, static_cast<uint32_t>(threads_.size()));
  for (;;) {
    bool waiting = false;
    bool yielded = false;
    for (uint32_t i = first; i < last; ++i) {
      SimtThread& t = threads_[i];
      if (t.state == State::kFresh || t.state == State::kRunnable) {
        Resume(t);
        if (cancel_) return false;
      }
      waiting = waiting || t.state == State::kWarp;
      yielded = yielded || t.state == State::kRunnable;
    }
    if (!waiting || yielded) return true;
    ResolveWarp(warp);
  }
}

// Every lane of the warp waits, has reached a barrier or has finished: the lanes waiting at one
// call site run their warp function together (the largest set first, then the lowest lane).
void Scheduler::ResolveWarp(uint32_t warp) {
  const uint32_t first = warp * kWarpSize;
  const uint32_t last =
      std::min<uint32_t>(first + kWarpSize, static_cast<uint32_t>(threads_.size()));
  uint32_t best_mask = 0;
  int best_count = 0;
  for (uint32_t i = first; i < last; ++i) {
    if (threads_[i].state != State::kWarp) continue;
    uint32_t mask = 0;
    for (uint32_t j = first; j < last; ++j) {
      if (threads_[j].state == State::kWarp && SameSite(threads_[i].site, threads_[j].site)) {
        mask |= 1u << (j - first);
      }
    }
    const int count = __builtin_popcount(mask);
    if (count > best_count) {
      best_count = count;
      best_mask = mask;
    }
  }
  WarpExchange& r = results_[warp];
  r.active = best_mask;
  if (race_ != nullptr) race_->Join(first, best_mask);
  for (uint32_t i = first; i < last; ++i) {
    if ((best_mask >> (i - first) & 1u) == 0) continue;
    r.values[i - first] = threads_[i].value;
    threads_[i].state = State::kRunnable;
  }
}

void Scheduler::ReleaseBarrier() {
  if (race_ != nullptr) race_->Barrier();
  for (SimtThread& t : threads_) {
    if (t.state == State::kBarrier) t.state = State::kRunnable;
  }
}

// Unwinds every thread that has started and not finished.
void Scheduler::CancelAll() {
  cancel_ = true;
  for (SimtThread& t : threads_) {
    if (t.state == State::kBarrier || t.state == State::kWarp || t.state == State::kRunnable) {
      Resume(t);
    }
  }
}

void Scheduler::Run(aicore::SrcLoc loc) {
  (void)loc;
  const uint32_t warps = static_cast<uint32_t>(results_.size());
  for (;;) {
    for (uint32_t w = 0; w < warps && !cancel_; ++w) RunWarp(w);
    if (cancel_) break;
    size_t done = 0;
    size_t at_barrier = 0;
    size_t runnable = 0;
    const SimtThread* barrier_thread = nullptr;
    const SimtThread* done_thread = nullptr;
    for (const SimtThread& t : threads_) {
      if (t.state == State::kDone) {
        ++done;
        if (done_thread == nullptr) done_thread = &t;
      } else if (t.state == State::kBarrier) {
        ++at_barrier;
        if (barrier_thread == nullptr) barrier_thread = &t;
      } else {
        ++runnable;
      }
    }
    if (runnable > 0) continue;  // threads that yielded: another round
    if (at_barrier == 0) break;  // every thread finished
    if (done > 0) {
      try {
        aicore::RaiseKernelCheck(
            kCheckSimtBarrier,
            "asc_syncthreads at " + SiteText(barrier_thread->site) + ": " +
                std::to_string(at_barrier) + " thread(s) of the block wait there (thread " +
                std::to_string(barrier_thread->info.linear) + " first) but " +
                std::to_string(done) + " finished without reaching a barrier (thread " +
                std::to_string(done_thread->info.linear) +
                " first); on the device the block never gets past it (deadlock)");
      } catch (...) {
        Fail(std::current_exception());
      }
      break;
    }
    ReleaseBarrier();
  }
  if (cancel_) CancelAll();
  if (error_) std::rethrow_exception(error_);
}

}  // namespace

void RequireWarpWidth(int32_t width, const char* api, aicore::SrcLoc loc) {
  if (width > 0 && width <= static_cast<int32_t>(kWarpSize) && (width & (width - 1)) == 0) return;
  aicore::RaiseKernelCheck(kCheckSimtWarp, aicore::detail::WithLoc(api, loc) + ": width " +
                                               std::to_string(width) +
                                               " is not a power of two in [1, 32]");
}

void RequireAtomicAlignment(const void* address, size_t bytes, const char* api,
                            aicore::SrcLoc loc) {
  if (reinterpret_cast<uintptr_t>(address) % bytes == 0) return;
  aicore::RaiseKernelCheck(
      kCheckSimtAtomic, aicore::detail::WithLoc(api, loc) + ": address " +
                            std::to_string(reinterpret_cast<uintptr_t>(address)) +
                            " is not aligned to the value's " + std::to_string(bytes) + " bytes");
}

// The race checker of a SIMT run when instrumented code is loaded (lngrad-asc --sanitizer) and
// racecheck or initcheck is on for the block; a SIMT kernel's dynamic UB starts unwritten.
std::unique_ptr<RaceChecker> MakeRaceChecker(const BlockInfo& info, const BlockRuntime& block) {
  const uint32_t tools = aicore::san::ActiveTools();
  const bool races = (tools & aicore::san::kRacecheck) != 0;
  const bool init = (tools & aicore::san::kInitcheck) != 0;
  if (!InstrumentedCodeLoaded() || (!races && !init)) return nullptr;
  auto race = std::make_unique<RaceChecker>(info, races, init);
  if (block.simt_kernel && block.dynamic_bytes > 0) {
    const aicore::BlockContext* ctx = aicore::CurrentBlockContext();
    if (ctx != nullptr) race->MarkUnwritten(ctx->ub, block.dynamic_bytes);
  }
  return race;
}

void SyncThreadsImpl(aicore::SrcLoc loc) { RunningScheduler("asc_syncthreads").Barrier(loc); }

}  // namespace detail

void RunThreads(dim3 block_dim, uint32_t max_threads, const std::function<void()>& body,
                aicore::SrcLoc loc) {
  detail::BlockRuntime& block = detail::RequireBlockRuntime("a SIMT launch", loc);
  // SIMT threads reach the UB through pointers, unrecorded: the whole UB counts as written.
  if (aicore::BlockContext* ctx = aicore::CurrentBlockContext()) {
    aicore::NoteUbWritten(*ctx, ctx->ub_size);
  }
  if (detail::t_scheduler != nullptr) {
    aicore::RaiseKernelCheck(detail::kCheckSimtLaunch,
                             aicore::detail::WithLoc("asc_vf_call", loc) +
                                 ": a SIMT vector function called from a SIMT thread (call it "
                                 "from the vector kernel)");
  }
  const uint64_t threads = uint64_t{block_dim.x} * block_dim.y * block_dim.z;
  const uint32_t bound = max_threads == 0 ? kMaxThreadsPerBlock : max_threads;
  if (threads == 0 || threads > bound) {
    aicore::RaiseKernelCheck(
        detail::kCheckSimtLaunch,
        aicore::detail::WithLoc("SIMT launch", loc) + ": threads per block " +
            std::to_string(block_dim.x) + " x " + std::to_string(block_dim.y) + " x " +
            std::to_string(block_dim.z) + " = " + std::to_string(threads) + " is outside [1, " +
            std::to_string(bound) + "]" +
            (max_threads == 0
                 ? std::string(" (the most a block may have)")
                 : " (the kernel's __launch_bounds__, " +
                       std::string(max_threads == kDefaultLaunchBound ? "1024 when it has none)"
                                                                      : "its bound)")));
  }
  // A vector kernel's __ubuf__ arrays may reach past the SIMT limit until it launches threads.
  const uint64_t used = std::max<uint64_t>(block.dynamic_bytes, block.static_end);
  if (used > kMaxSharedUbBytes) {
    aicore::RaiseKernelCheck(detail::kCheckSimtUb,
                             aicore::detail::WithLoc("SIMT launch", loc) + ": dynamic UB of " +
                                 std::to_string(block.dynamic_bytes) +
                                 " bytes and the static arrays reach UB byte " +
                                 std::to_string(used) +
                                 ", more than the 950 allows (static and dynamic UB "
                                 "together at most " +
                                 std::to_string(kMaxSharedUbBytes) + " bytes)");
  }
  BlockInfo info = block.info;
  info.block_dim = block_dim;
  info.threads = static_cast<uint32_t>(threads);
  std::unique_ptr<detail::RaceChecker> race = detail::MakeRaceChecker(info, block);
  // A hybrid kernel's vector function: the pipeline sanitizer sees it as a V instruction.
  const bool record_vf = !block.simt_kernel && aicore::san::ActiveTools() != 0;
  const bool exact_vf = record_vf && detail::InstrumentedCodeLoaded();
  detail::VfUbLog vf_log;
  std::vector<std::byte> ub_before;
  if (record_vf) {
    const aicore::BlockContext& ctx = aicore::RequireBlockContext("asc_vf_call");
    vf_log.ub = ctx.ub;
    vf_log.ub_size = ctx.ub_size;
    vf_log.state.assign(ctx.ub_size, 0);
    if (!exact_vf) ub_before.assign(ctx.ub, ctx.ub + ctx.ub_size);
  }
  detail::Scheduler scheduler(info, body, race.get());
  const BlockInfo* saved_block = detail::t_block;
  detail::t_block = &info;
  detail::t_scheduler = &scheduler;
  detail::t_race = race.get();
  detail::t_vf_log = exact_vf ? &vf_log : nullptr;
  struct Restore {
    const BlockInfo* block;
    ~Restore() {
      detail::t_scheduler = nullptr;
      detail::t_race = nullptr;
      detail::t_vf_log = nullptr;
      detail::t_block = block;
    }
  } restore{saved_block};
  scheduler.Run(loc);
  if (record_vf) {
    if (!exact_vf) vf_log.NoteChanges(ub_before);
    detail::RecordVectorFunction(vf_log, loc);
  }
  if (race != nullptr) race->RaiseFindings();
}

void SyncThreads(aicore::SrcLoc loc) { detail::SyncThreadsImpl(loc); }

const WarpExchange& WarpSync(uint64_t value, Site loc) {
  return detail::RunningScheduler("a warp function").Warp(value, loc);
}

uint32_t ActiveMask(Site loc) { return WarpSync(0, loc).active; }

bool OnRunningThreadStack(const void* p) noexcept {
  if (detail::t_scheduler != nullptr && detail::t_thread != nullptr &&
      detail::t_scheduler->RunningStackHolds(p)) {
    return true;
  }
#if LNGRAD_SIMT_SCHED_ASAN
  void* fake = __asan_get_current_fake_stack();
  return fake != nullptr &&
         __asan_addr_is_in_fake_stack(fake, const_cast<void*>(p), nullptr, nullptr) != nullptr;
#else
  return false;
#endif
}

void ThreadFence(bool block_only) noexcept {
  if (block_only) {
    std::atomic_signal_fence(std::memory_order_seq_cst);
  } else {
    std::atomic_thread_fence(std::memory_order_seq_cst);
  }
  if (detail::t_race != nullptr && detail::t_thread != nullptr && !detail::t_in_checker) {
    detail::t_race->Fence(detail::t_thread->linear);
  }
}

void AtomicPoint() {
  if (detail::t_scheduler != nullptr && detail::t_thread != nullptr) {
    detail::t_scheduler->Atomic();
  }
}

}  // namespace lngrad::simt
