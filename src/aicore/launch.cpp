// Block launcher: one simulated AI vector core per block, on worker threads or sequentially.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory>
#include <mutex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <thread>

#include "lngrad/environment.h"
#include "lngrad_aicore/data_copy.h"
#include "lngrad_aicore/launch.h"
#include "lngrad_aicore/pipe.h"
#include "lngrad_aicore/sys.h"
#include "block_sync_state.h"
#include "ub_pool.h"
#include "sanitizer_launch.h"

namespace lngrad::aicore {
namespace {

using detail::CheckUbWrittenEnd;
using detail::UbHostBytes;
using detail::UbLease;
using detail::UbMemory;
using detail::Ubs;

std::atomic<uint64_t> g_tiling_key{0};
std::atomic<int> g_kernel_mode{static_cast<int>(AscendC::KernelMode::MIX_MODE)};

// LNGRAD_SEQUENTIAL_BLOCKS=1, read once per process by the library's one reader.
bool EnvSequential() { return lngrad::ProcessEnvironment().sequential_blocks; }

struct LaunchJob;

// Runs one block on the calling thread; returns true on success.
bool RunOneBlock(uint32_t block, LaunchJob& job, UbLease& ub, BlockFailure* failure);

// The blocks of one launch, shared by the calling thread and the helpers that join it.
//
// SyncAll needs every block of the launch resident at once: a block waiting in SyncAll holds
// its thread, so when every participant waits and blocks have not started yet, Arrive starts
// another participant thread for them (at most one per block, kSyncAllMaxBlocks blocks). A
// kernel without SyncAll never gets more threads than before. Sequential launches pass a baton:
// one block runs at a time, the lowest-numbered block that can run goes next, and a block
// waiting in SyncAll lets the next one start on a thread of its own.
struct LaunchJob final : detail::SyncAllBarrier {
  LaunchJob(uint32_t n, const Product& p, uint32_t ub, const std::function<void()>& k, bool seq,
            bool device_only, san::LaunchSanitizer* s, CoreSplit sp)
      : split(sp),
        num_blocks(n * sp.PerCore()),
        product(p),
        ub_bytes(ub),
        kernel(k),
        sequential(seq),
        device_memory_only(device_only),
        sanitizer(s),
        shared_(n * sp.PerCore()),
        core_ubs_(sp.aic > 0 && sp.aiv > 0 ? n * sp.PerCore() : 0) {}
  const CoreSplit split;
  const uint32_t num_blocks;  // host blocks: numBlocks * split.PerCore()
  // SyncAll's rendezvous: every block, or the AIVs where the AI cores have AICs too (the
  // vendor's SyncAll<isAIVOnly = true>, the AIC of a Matmul kernel serving elsewhere).
  bool MixedAiCores() const { return split.aic > 0 && split.aiv > 0; }
  bool InSyncAll(uint32_t block) const {
    return !MixedAiCores() || block % split.PerCore() >= split.aic;
  }
  uint32_t SyncAllBlocks() const {
    return MixedAiCores() ? num_blocks / split.PerCore() * split.aiv : num_blocks;
  }
  const Product& product;
  const uint32_t ub_bytes;
  const std::function<void()>& kernel;
  const bool sequential;
  const bool device_memory_only;          // LaunchOptions::device_memory_only
  san::LaunchSanitizer* const sanitizer;  // nullptr: no sanitizer tool on
  std::atomic<uint32_t> next{0};
  std::mutex mu;  // found, error
  std::vector<BlockFailure> found;
  std::exception_ptr error;  // a participant could not start (its UB allocation failed)

  // Runs blocks until none is left. Never throws. counted: Arrive counted it in `live` already.
  void Participate(bool counted = false) noexcept {
    if (!counted) {
      std::lock_guard lock(sync_mu_);
      ++live_;
    }
    try {
      // Nothing left (the others took every block): no UB needed.
      if (next.load(std::memory_order_relaxed) < num_blocks) {
        UbLease ub(ub_bytes);
        for (uint32_t b = next.fetch_add(1); b < num_blocks; b = next.fetch_add(1)) {
          BlockFailure f;
          if (!RunOneBlock(b, *this, ub, &f)) {
            std::lock_guard lock(mu);
            found.push_back(std::move(f));
          }
        }
      }
    } catch (...) {
      // Only the UB allocation can throw here; the blocks catch their own exceptions.
      std::lock_guard lock(mu);
      if (!error) error = std::current_exception();
    }
    std::lock_guard lock(sync_mu_);
    --live_;
    // The blocks still running may all be waiting for something this one never did.
    CheckStuckLocked();
  }

  // Sequential launches: block `b` runs only while it holds the baton.
  void TakeBaton(uint32_t b) {
    std::unique_lock lock(sync_mu_);
    TakeBatonLocked(b, lock);
  }
  void GiveBaton() {
    std::lock_guard lock(sync_mu_);
    baton_free_ = true;
    sync_cv_.notify_all();
  }

  // A block ends (ok or not) after `calls` SyncAll calls: any SyncAll still to complete never
  // will (every block passed the completed ones), so blocks waiting in one are released with
  // an error and later calls fail at once. The first block to end is the one reported.
  void Depart(uint32_t block, uint64_t calls, const BlockFailure* failed) {
    std::lock_guard lock(sync_mu_);
    if (departed_ || !InSyncAll(block)) return;
    departed_ = true;
    departed_block_ = block;
    departed_calls_ = calls;
    departed_failed_ = failed != nullptr;
    if (failed != nullptr) departed_check_ = failed->check;
    Unpark();
    if (waiting_ > 0) sync_cv_.notify_all();
  }

  void Arrive(uint64_t call, SrcLoc loc) override {
    const std::string at = detail::WithLoc("SyncAll", loc) + " (call " + std::to_string(call) +
                           " of block " + std::to_string(CurrentBlockContext()->block_idx) + ")";
    if (num_blocks > kSyncAllMaxBlocks) {
      RaiseKernelCheck(checks::kSyncAll,
                       at + ": the launch has " + std::to_string(num_blocks) +
                           " blocks; SyncAll needs all of them running at once (on the device "
                           "numBlocks may not exceed the AI cores, or the kernel hangs), and "
                           "lngrad runs at most " +
                           std::to_string(kSyncAllMaxBlocks) + " blocks at once");
    }
    if (!InSyncAll(static_cast<uint32_t>(CurrentBlockContext()->block_idx))) {
      RaiseKernelCheck(checks::kSyncAll,
                       at + ": SyncAll on the AIC of a kernel with AIVs is not modelled (there "
                            "SyncAll is the AIVs' rendezvous, the vendor's isAIVOnly default)");
    }
    std::unique_lock lock(sync_mu_);
    if (departed_) RaiseNeverCompletes(at);
    const uint64_t gen = generation_;
    if (++arrived_ == SyncAllBlocks()) {
      arrived_ = 0;
      ++generation_;
      Unpark();
      sync_cv_.notify_all();
      return;
    }
    const std::function<bool()> ready = [&] { return generation_ != gen || departed_; };
    ++waiting_;
    waiters_.push_back(&ready);
    try {
      MoreThreadsLocked(at, checks::kSyncAll);
    } catch (...) {
      --waiting_;
      --arrived_;
      std::erase(waiters_, &ready);
      throw;
    }
    const uint32_t block = static_cast<uint32_t>(CurrentBlockContext()->block_idx);
    if (sequential) {
      parked_.push_back(block);
      baton_free_ = true;
      sync_cv_.notify_all();
    }
    sync_cv_.wait(lock, [&] { return ready() || stuck_; });
    --waiting_;
    std::erase(waiters_, &ready);
    const bool completed = generation_ != gen;
    if (!completed) --arrived_;
    if (sequential) {
      if (!completed && !departed_) std::erase(parked_, block);
      if (!completed && !departed_) wanting_.insert(block);
      WaitForBatonLocked(block, lock);
    }
    if (!completed && !departed_) RaiseStuck(checks::kSyncAll, at);
    if (!completed) RaiseNeverCompletes(at);
  }

  void WaitUntil(const char* check, const std::string& what,
                 const std::function<bool(detail::InterBlockState&)>& ready_in,
                 const std::function<void(detail::InterBlockState&)>& then) override {
    std::unique_lock lock(sync_mu_);
    const std::function<bool()> ready = [&] { return ready_in(shared_); };
    if (ready()) {
      then(shared_);
      sync_cv_.notify_all();
      return;
    }
    ++waiting_;
    waiters_.push_back(&ready);
    try {
      MoreThreadsLocked(what, check);
    } catch (...) {
      --waiting_;
      std::erase(waiters_, &ready);
      throw;
    }
    const uint32_t block = static_cast<uint32_t>(CurrentBlockContext()->block_idx);
    if (sequential) {
      baton_free_ = true;
      sync_cv_.notify_all();
    }
    // Timed: a polled GM value (ReadGmByPassDCache) may change through any kind of write.
    while (!ready() && !stuck_) sync_cv_.wait_for(lock, std::chrono::milliseconds(1));
    --waiting_;
    std::erase(waiters_, &ready);
    const bool ok = ready();
    if (ok) {
      then(shared_);
      sync_cv_.notify_all();
    }
    if (sequential) TakeBatonLocked(block, lock);
    if (!ok) RaiseStuck(check, what);
  }

  // A launch whose AICs write their AIVs' UBs (Fixpipe to UB) keeps each AIV's UB for the
  // launch, made zeroed at first use by either core; nullptr for other launches and blocks.
  std::byte* CoreUb(uint32_t block, uint32_t* bytes) override {
    *bytes = ub_bytes;
    if (block >= core_ubs_.size() || block % split.PerCore() < split.aic) return nullptr;
    std::lock_guard lock(core_ub_mu_);
    auto& m = core_ubs_[block];
    if (m == nullptr) m = std::make_unique<UbMemory>(ub_bytes);
    return m->data;
  }

  void Change(const std::function<void(detail::InterBlockState&)>& change) override {
    std::lock_guard lock(sync_mu_);
    change(shared_);
    sync_cv_.notify_all();
  }

  // Waits for the participant threads SyncAll started. Call once the calling thread and the
  // pooled helpers are done: no block is left to start, so no thread is added meanwhile.
  void JoinExtra() {
    for (;;) {
      std::vector<std::thread> threads;
      {
        std::lock_guard lock(sync_mu_);
        threads.swap(extra_);
      }
      if (threads.empty()) return;
      for (std::thread& t : threads) t.join();
    }
  }

 private:
  void TakeBatonLocked(uint32_t b, std::unique_lock<std::mutex>& lock) {
    wanting_.insert(b);
    WaitForBatonLocked(b, lock);
  }
  // b is in wanting_.
  void WaitForBatonLocked(uint32_t b, std::unique_lock<std::mutex>& lock) {
    sync_cv_.wait(lock, [&] { return baton_free_ && *wanting_.begin() == b; });
    wanting_.erase(b);
    baton_free_ = false;
  }
  // The blocks released from SyncAll want the baton from now on, so that the lowest of them
  // goes first whichever thread wakes first.
  void Unpark() {
    wanting_.insert(parked_.begin(), parked_.end());
    parked_.clear();
  }

  // A participant starts waiting: when every participant waits and blocks have not started, one
  // more thread for them; when none has any block left to start, checks for a stuck launch.
  void MoreThreadsLocked(const std::string& at, const char* check) {
    if (waiting_ != live_) return;
    if (next.load() >= num_blocks) {
      CheckStuckLocked();
      return;
    }
    if (extra_.size() >= kSyncAllMaxBlocks) {
      RaiseKernelCheck(check, at + ": the launch has " + std::to_string(num_blocks) +
                                  " blocks and every running block waits; lngrad runs at most " +
                                  std::to_string(kSyncAllMaxBlocks) +
                                  " blocks at once (on the device numBlocks may not exceed the "
                                  "AI cores, or the kernel hangs)");
    }
    try {
      extra_.emplace_back(&LaunchJob::Participate, this, true);
      ++live_;
    } catch (const std::exception& e) {
      RaiseKernelCheck(check, at + ": could not start a thread for the blocks that have not " +
                                  "started (" + e.what() + ")");
    }
  }
  // Every running block waits, no block is left to start and no wait can go on: stuck.
  void CheckStuckLocked() {
    if (stuck_ || live_ == 0 || waiting_ != live_ || next.load() < num_blocks) return;
    for (const std::function<bool()>* w : waiters_) {
      if ((*w)()) return;
    }
    stuck_ = true;
    sync_cv_.notify_all();
  }
  [[noreturn]] void RaiseStuck(const char* check, const std::string& at) {
    RaiseKernelCheck(check, at + ": can never go on: every block of the launch has ended or "
                                 "waits (in SyncAll, IBSet/IBWait, WaitPreBlock, GroupBarrier or a "
                                 "ReadGmByPassDCache poll) for something "
                                 "no block will do; on the device the kernel hangs");
  }

  [[noreturn]] void RaiseNeverCompletes(const std::string& at) {
    std::string why =
        "block " + std::to_string(departed_block_) +
        (departed_failed_ ? " failed ([" + departed_check_ + "])" : std::string(" ended")) +
        " after " + std::to_string(departed_calls_) + " SyncAll call(s)";
    RaiseKernelCheck(checks::kSyncAll,
                     at + ": " + why +
                         ", so this SyncAll can never complete; every block must call SyncAll "
                         "equally often (on the device the waiting blocks hang)");
  }

  std::mutex sync_mu_;  // everything below
  std::condition_variable sync_cv_;
  uint32_t live_ = 0;        // participants running (or about to run) blocks
  uint32_t waiting_ = 0;     // of those, waiting in SyncAll
  uint32_t arrived_ = 0;     // blocks in the pending SyncAll
  uint64_t generation_ = 0;  // SyncAlls completed
  bool departed_ = false;    // a block has ended
  uint32_t departed_block_ = 0;
  uint64_t departed_calls_ = 0;
  bool departed_failed_ = false;
  std::string departed_check_;
  std::vector<std::thread> extra_;
  bool baton_free_ = true;
  std::set<uint32_t> wanting_;    // blocks waiting for the baton
  std::vector<uint32_t> parked_;  // blocks waiting in SyncAll (sequential launches)
  std::vector<const std::function<bool()>*> waiters_;  // every waiting block's condition
  bool stuck_ = false;                                 // CheckStuckLocked found none can go on
  detail::InterBlockState shared_;
  std::mutex core_ub_mu_;
  std::vector<std::unique_ptr<UbMemory>> core_ubs_;
};

// The core that host block `block` of the launch runs (cores.h): AI core block / PerCore(), its
// AIC first, then its AIVs.
void SetCore(BlockContext& ctx, uint32_t block, const LaunchJob& job) {
  const CoreSplit sp = job.split;
  const uint32_t per = sp.PerCore(), ai_cores = job.num_blocks / per, r = block % per;
  ctx.split = sp;
  ctx.ai_core = block / per;
  ctx.core_type = r < sp.aic ? AscendC::AIC : AscendC::AIV;
  ctx.sub_idx = r < sp.aic ? 0 : static_cast<int32_t>(r - sp.aic);
  ctx.core_idx = r < sp.aic ? ctx.ai_core : ctx.ai_core * sp.aiv + ctx.sub_idx;
  ctx.core_num = ai_cores;
}

bool RunOneBlock(uint32_t block, LaunchJob& job, UbLease& ub, BlockFailure* failure) {
  if (job.sequential) job.TakeBaton(block);
  BlockContext ctx;
  ctx.block_idx = block;
  ctx.block_num = job.num_blocks;
  ctx.device_memory_only = job.device_memory_only;
  ctx.product = &job.product;
  SetCore(ctx, block, job);
  uint32_t core_ub_bytes = 0;
  std::byte* const core_ub = job.CoreUb(block, &core_ub_bytes);
  // Checked mode and the sanitizer give every block a zeroed UB, which keeps results
  // independent of which worker ran which block. Unchecked mode leaves what the worker's
  // previous block left, as the device leaves what the previous kernel left (a memset of the
  // whole UB per block costs more than a small kernel): docs/ascendc_compat.md, "UB contents".
  // Checked mode zeroes only what earlier blocks may have written, or takes a clean pooled
  // memory instead (UbLease::Zero), which a Debug build verifies after each block
  // (CheckUbWrittenEnd).
  const bool zeroed = core_ub == nullptr && (CheckedMode() || job.sanitizer != nullptr);
  if (zeroed) {
    if (!CheckedMode()) ub.NoteBlockDone(ub.size());
    ub.Zero();
  } else if (core_ub == nullptr) {
    ctx.ub_left_over = true;
  }
  ctx.ub = core_ub != nullptr ? core_ub : ub.data();
  ctx.ub_size = ub.size();
  const bool tracked = zeroed && CheckedMode();
  const int32_t outer_core = AscendC::g_coreType;
  AscendC::g_coreType = ctx.core_type;
  san::BlockStatePtr san_state;
  if (job.sanitizer != nullptr) {
    san_state = job.sanitizer->BeginBlock(block, ctx.ub, ub.size());
    ctx.san = san_state.get();
  }
  // A launch from inside a block runs (partly) on the block's own thread: restore its context.
  BlockContext* const outer = CurrentBlockContext();
  detail::SetBlockContext(&ctx);
  bool ok = true;
  uint64_t calls = 0;
  {
    detail::BlockSysScope sys(ctx.core_idx, ctx.core_num, &job);
    try {
      detail::RequireValidEnvSwitches();
      job.kernel();
    } catch (const KernelCheckError& e) {
      ok = false;
      *failure = {block, e.check(), e.message(), std::current_exception()};
    } catch (const std::exception& e) {
      ok = false;
      *failure = {block, "exception", e.what(), std::current_exception()};
    } catch (...) {
      ok = false;
      *failure = {block, "exception", "unknown exception", std::current_exception()};
    }
    // A check the block raised fails it whatever the kernel did with the exception (caught it,
    // or threw something else instead): the first one raised is the block's failure.
    if (std::exception_ptr raised = detail::FirstRaisedCheck(ctx)) {
      ok = false;
      try {
        std::rethrow_exception(raised);
      } catch (const KernelCheckError& e) {
        *failure = {block, e.check(), e.message(), raised};
      }
    }
    calls = detail::CurrentBlockSys().sync_all_calls;
  }
  // The block's streamed GM stores (DataCopy UB -> GM) become visible to the thread that
  // waits for the launch before the block is reported done.
  detail::FenceStreamedStores();
  detail::SetBlockContext(outer);
  AscendC::g_coreType = outer_core;
  if (job.sanitizer != nullptr) job.sanitizer->EndBlock(std::move(san_state), ok);
  if (core_ub == nullptr) {
    if (tracked && ok) CheckUbWrittenEnd(ub.data(), ctx.ub_written_end, ub.size(), block);
    ub.NoteBlockDone(tracked && ok ? ctx.ub_written_end : ub.size());
  }
  job.Depart(block, calls, ok ? nullptr : failure);
  if (job.sequential) job.GiveBaton();
  return ok;
}

// Waits up to kSpinFor for ready() without sleeping; true when it became true. The caller of a
// launch waits so for the helpers still running its blocks: a small kernel's block takes a few
// microseconds, less than a futex sleep and wake-up. Bounded, so that a long block does not hold
// a core. Idle helpers do not spin: on a loaded machine (bench/README.md, "The Ascend C launch's
// fixed cost") a spinning helper took the time slices the caller needed (64 x 16, 2 blocks:
// 31 us with spinning helpers, 21 us without).
constexpr auto kSpinFor = std::chrono::microseconds(50);

inline void CpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

template <typename Ready>
bool SpinUntil(const Ready& ready) {
  const auto until = std::chrono::steady_clock::now() + kSpinFor;
  for (uint32_t i = 0;; ++i) {
    if (ready()) return true;
    CpuRelax();
    if (i % 64 == 63 && std::chrono::steady_clock::now() >= until) return ready();
  }
}

// Helper threads that join launches, started on first use and kept for the process (a thread
// start per launch and block costs more than a small kernel). A launch posts tickets; an idle
// helper takes one and runs blocks of that launch next to the calling thread, which runs
// blocks itself, so a launch never waits for a helper to become free (and a kernel that
// launches from inside a block cannot deadlock). Tickets nobody took are withdrawn when the
// caller runs out of blocks; the caller then spins a little (SpinUntil) for the helpers that
// took blocks before it sleeps. Idle helpers sleep on work_cv_, notified only when one does.
class HelperPool {
 public:
  void Run(LaunchJob* job, uint32_t helpers) {
    Ticket ticket{job, 0, {0}};
    if (helpers > 0) {
      std::lock_guard lock(mu_);
      try {
        while (threads_ < helpers) {
          std::thread(&HelperPool::Loop, this).detach();
          ++threads_;
        }
      } catch (...) {
        // No new thread: the ones already there (if any) and the caller run the blocks.
      }
      ticket.offered = helpers;
      queue_.push_back(&ticket);
      if (sleeping_ > 0) work_cv_.notify_all();
    }
    job->Participate();
    if (helpers == 0) return;
    {
      // Withdraw what nobody took; then wait for the helpers that did.
      std::lock_guard lock(mu_);
      auto it = std::find(queue_.begin(), queue_.end(), &ticket);
      if (it != queue_.end()) queue_.erase(it);
    }
    // A helper decrements `running` under mu_ and touches the ticket no more after that.
    const auto done = [&] { return ticket.running.load(std::memory_order_acquire) == 0; };
    if (SpinUntil(done)) return;
    std::unique_lock lock(mu_);
    done_cv_.wait(lock, done);
  }

 private:
  struct Ticket {
    LaunchJob* job;
    uint32_t offered;               // helpers still wanted (under mu_)
    std::atomic<uint32_t> running;  // helpers that took the ticket and are not done
  };

  [[noreturn]] void Loop() {
    std::unique_lock lock(mu_);
    for (;;) {
      if (queue_.empty()) {
        ++sleeping_;
        work_cv_.wait(lock, [&] { return !queue_.empty(); });
        --sleeping_;
      }
      Ticket* t = queue_.front();
      if (--t->offered == 0) queue_.pop_front();
      t->running.fetch_add(1, std::memory_order_relaxed);
      lock.unlock();
      t->job->Participate();
      lock.lock();
      if (t->running.fetch_sub(1, std::memory_order_acq_rel) == 1) done_cv_.notify_all();
      if (queue_.empty()) {
        // Idle: zero the UB memories blocks left dirty, so that the next launch's blocks find
        // clean ones instead of zeroing on their caller's path.
        lock.unlock();
        Ubs().ZeroDirty();
        lock.lock();
      }
    }
  }

  std::mutex mu_;  // everything below
  std::condition_variable work_cv_;
  std::condition_variable done_cv_;
  std::deque<Ticket*> queue_;
  uint32_t sleeping_ = 0;  // helpers waiting on work_cv_
  uint32_t threads_ = 0;
};

HelperPool& Helpers() {
  // Leaked on purpose: the helpers wait on it until the process ends.
  static HelperPool* pool = new HelperPool;
  return *pool;
}

std::string Report(const char* name, uint32_t num_blocks, const Product& product,
                   const std::vector<BlockFailure>& failures) {
  std::ostringstream os;
  os << "lngrad: kernel '" << name << "' failed in " << failures.size() << " of " << num_blocks
     << " block(s) on " << product.soc << " (" << (CheckedMode() ? "checked" : "unchecked")
     << " mode):\n";
  for (const BlockFailure& f : failures) {
    os << "  block " << f.block_idx << ": [" << f.check << "] " << f.message << "\n";
  }
  return os.str();
}

// LNGRAD_IMPL (read once per process, lngrad/environment.h) takes the native library's values;
// the instructions have no error channel, so a launch is where a misspelt value is reported,
// with the same message, instead of being taken for the default.
Status CheckImplEnvironment() {
  lngrad::Impl ignored = lngrad::Impl::kAuto;
  return lngrad::ImplFromEnvironment("", &ignored);
}

}  // namespace

Status RunBlocks(const char* name, uint32_t numBlocks, const std::function<void()>& kernel,
                 const LaunchOptions& options, std::vector<BlockFailure>* failures) {
  failures->clear();
  if (numBlocks == 0 || numBlocks > kMaxBlocks) {
    return Status::InvalidArgument("numBlocks is " + std::to_string(numBlocks) +
                                   "; it must be in [1, " + std::to_string(kMaxBlocks) + "]");
  }
  if (!kernel) return Status::InvalidArgument("kernel is empty; pass a callable");
  LNGRAD_RETURN_IF_ERROR(CheckImplEnvironment());
  const Product* product = nullptr;
  if (!options.soc.has_value()) {
    LNGRAD_RETURN_IF_ERROR(CurrentProductChecked(&product));
  } else {
    product = FindProduct(*options.soc);
    if (product == nullptr) {
      return Status::InvalidArgument("options.soc '" + *options.soc +
                                     "' is not a known SoC name (e.g. Ascend910B1, "
                                     "Ascend310P1, Ascend950PR_9599)");
    }
  }
  const uint32_t ub_bytes = UbHostBytes(*product);
  std::vector<BlockFailure> found;
  const uint32_t tools = options.sanitize.value_or(san::DefaultTools());
  std::unique_ptr<san::LaunchSanitizer> sanitizer;
  if (tools != 0) {
    sanitizer = std::make_unique<san::LaunchSanitizer>(tools, options.cce_auto_sync, *product);
  }
  // Without initcheck this launch may write any device memory: nothing is known unwritten.
  if ((tools & san::kInitcheck) == 0) san::GmForgetUninitialised();
  // A launch from inside a block: what that block streamed to GM so far must be visible to the
  // helper threads that run the inner blocks.
  detail::FenceStreamedStores();

  // One block has nothing to run concurrently with: it runs on the calling thread, which saves
  // a thread start per launch.
  const bool sequential = options.sequential || EnvSequential();
  LaunchJob job(numBlocks, *product, ub_bytes, kernel, sequential, options.device_memory_only,
                sanitizer.get(), options.split);
  if (sequential || job.num_blocks == 1) {
    job.Participate();
  } else {
    // At least two participants, so that concurrency bugs in kernels show up even on one core:
    // the calling thread and pooled helper threads.
    // hardware_concurrency() reads /sys on every call in glibc; the answer does not change.
    static const uint32_t hw = std::max(2u, std::thread::hardware_concurrency());
    Helpers().Run(&job, std::min(job.num_blocks, hw) - 1);
  }
  job.JoinExtra();
  if (job.error) {
    try {
      std::rethrow_exception(job.error);
    } catch (const std::exception& e) {
      return Status::Internal(std::string("could not start the simulated cores: ") + e.what());
    } catch (...) {
      return Status::Internal("could not start the simulated cores");
    }
  }
  found = std::move(job.found);
  if (sanitizer != nullptr) sanitizer->Finish(&found);

  std::sort(found.begin(), found.end(),
            [](const BlockFailure& a, const BlockFailure& b) { return a.block_idx < b.block_idx; });
  *failures = std::move(found);
  if (failures->empty()) return Status::Ok();
  std::cerr << Report(name, job.num_blocks, *product, *failures) << std::flush;
  const BlockFailure& first = failures->front();
  const std::string summary = "kernel '" + std::string(name) + "' failed in " +
                              std::to_string(failures->size()) + " block(s); first: block " +
                              std::to_string(first.block_idx) + " [" + first.check + "] " +
                              first.message;
  const bool all_checks = std::all_of(failures->begin(), failures->end(),
                                      [](const BlockFailure& f) { return f.check != "exception"; });
  return all_checks ? Status::InvalidArgument(summary) : Status::Internal(summary);
}

namespace detail {

void RunKernelFunction(const char* name, uint32_t numBlocks, const std::function<void()>& kernel,
                       bool cce_auto_sync, CoreSplit split) {
  std::vector<BlockFailure> failures;
  LaunchOptions options;
  options.cce_auto_sync = cce_auto_sync;
  options.split = split;
  const Status s = RunBlocks(name, numBlocks, kernel, options, &failures);
  if (!failures.empty()) std::rethrow_exception(failures.front().error);
  if (!s.ok())
    throw std::invalid_argument("ICPU_RUN_KF(" + std::string(name) + "): " + s.message());
}

std::string KernelNameOf(const char* spelled) {
  const std::string_view all(spelled);
  int depth = 0;
  size_t end = all.size();
  for (size_t i = 0; i < all.size(); ++i) {
    const char c = all[i];
    if (c == '(' || c == '<' || c == '[' || c == '{') ++depth;
    if ((c == ')' || c == '>' || c == ']' || c == '}') && depth > 0) --depth;
    if (c == ',' && depth == 0) {
      end = i;
      break;
    }
  }
  std::string_view name = all.substr(0, end);
  auto trim = [](std::string_view v) {
    while (!v.empty() && (v.front() == ' ' || v.front() == '\t')) v.remove_prefix(1);
    while (!v.empty() && (v.back() == ' ' || v.back() == '\t')) v.remove_suffix(1);
    return v;
  };
  name = trim(name);
  // Strips "(...)" only when the first parenthesis closes at the very end ("(a)(b)" stays).
  auto enclosed = [](std::string_view v) {
    if (v.size() < 2 || v.front() != '(' || v.back() != ')') return false;
    int d = 0;
    for (size_t i = 0; i < v.size(); ++i) {
      if (v[i] == '(') ++d;
      if (v[i] == ')' && --d == 0) return i == v.size() - 1;
    }
    return false;
  };
  while (enclosed(name)) name = trim(name.substr(1, name.size() - 2));
  return std::string(name);
}

void SetTilingKey(uint64_t key) noexcept { g_tiling_key.store(key, std::memory_order_relaxed); }
uint64_t TilingKey() noexcept { return g_tiling_key.load(std::memory_order_relaxed); }

}  // namespace detail

Status Launch(uint32_t numBlocks, std::function<void()> kernel, const LaunchOptions& options) {
  std::vector<BlockFailure> failures;
  return detail::RunBlocks("kernel", numBlocks, kernel, options, &failures);
}

}  // namespace lngrad::aicore

namespace AscendC {

void SetKernelMode(KernelMode mode) { lngrad::aicore::g_kernel_mode.store(static_cast<int>(mode)); }
KernelMode GetKernelMode() { return static_cast<KernelMode>(lngrad::aicore::g_kernel_mode.load()); }

int64_t GetBlockIdx() { return lngrad::aicore::RequireBlockContext("GetBlockIdx").core_idx; }
int64_t GetBlockNum() { return lngrad::aicore::RequireBlockContext("GetBlockNum").core_num; }
uint32_t GetUBSizeInBytes() { return lngrad::aicore::CurrentBlockProduct().ub_bytes; }

}  // namespace AscendC
