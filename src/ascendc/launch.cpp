// Block launcher: one simulated AI vector core per block, on worker threads or sequentially.
#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "lngrad_rt/launch.h"
#include "lngrad_rt/pipe.h"

namespace lngrad::ascend {
namespace {

std::atomic<uint64_t> g_tiling_key{0};
std::atomic<int> g_kernel_mode{static_cast<int>(AscendC::KernelMode::MIX_MODE)};

bool EnvSequential() {
  const char* env = std::getenv("LNGRAD_SEQUENTIAL_BLOCKS");
  return env != nullptr && std::strcmp(env, "1") == 0;
}

// The host memory behind one simulated UB; reused for the blocks a worker runs.
struct UbMemory {
  explicit UbMemory(uint32_t bytes) : size(bytes) {
    data = static_cast<std::byte*>(std::aligned_alloc(64, bytes));
    if (data == nullptr) throw std::bad_alloc();
  }
  ~UbMemory() { std::free(data); }
  UbMemory(const UbMemory&) = delete;
  UbMemory& operator=(const UbMemory&) = delete;
  std::byte* data;
  uint32_t size;
};

uint32_t UbHostBytes(const Product& p) {
  const uint32_t need = std::max(p.ub_bytes, p.stack_end_bytes);
  return (need + 31) / 32 * 32;
}

// Runs one block on the calling thread; returns true on success.
bool RunOneBlock(uint32_t block, uint32_t num_blocks, const Product& product, UbMemory& ub,
                 const std::function<void()>& kernel, BlockFailure* failure) {
  BlockContext ctx;
  ctx.block_idx = block;
  ctx.block_num = num_blocks;
  ctx.product = &product;
  ctx.ub = ub.data;
  ctx.ub_size = ub.size;
  // A fresh, zeroed UB per block keeps results independent of which worker ran which block.
  std::memset(ub.data, 0, ub.size);
  detail::SetBlockContext(&ctx);
  bool ok = true;
  try {
    kernel();
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
  detail::SetBlockContext(nullptr);
  return ok;
}

std::string Report(const char* name, uint32_t num_blocks, const Product& product,
                   const std::vector<BlockFailure>& failures) {
  std::ostringstream os;
  os << "lngrad: kernel '" << name << "' failed in " << failures.size() << " of " << num_blocks << " block(s) on "
     << product.soc << " (" << (CheckedMode() ? "checked" : "unchecked") << " mode):\n";
  for (const BlockFailure& f : failures) {
    os << "  block " << f.block_idx << ": [" << f.check << "] " << f.message << "\n";
  }
  return os.str();
}

}  // namespace

namespace detail {

Status RunBlocks(const char* name, uint32_t numBlocks, const std::function<void()>& kernel,
                 const LaunchOptions& options, std::vector<BlockFailure>* failures) {
  failures->clear();
  if (numBlocks == 0 || numBlocks > kMaxBlocks) {
    return Status::InvalidArgument("numBlocks is " + std::to_string(numBlocks) + "; it must be in [1, " +
                                   std::to_string(kMaxBlocks) + "]");
  }
  if (!kernel) return Status::InvalidArgument("kernel is empty; pass a callable");
  const Product* product = &CurrentProduct();
  if (options.soc.has_value()) {
    product = FindProduct(*options.soc);
    if (product == nullptr) {
      return Status::InvalidArgument("options.soc '" + *options.soc + "' is not a known SoC name (e.g. Ascend910B1, "
                                     "Ascend310P1, Ascend950PR_9599)");
    }
  }
  const uint32_t ub_bytes = UbHostBytes(*product);
  std::vector<BlockFailure> found;

  if (options.sequential || EnvSequential()) {
    UbMemory ub(ub_bytes);
    for (uint32_t b = 0; b < numBlocks; ++b) {
      BlockFailure f;
      if (!RunOneBlock(b, numBlocks, *product, ub, kernel, &f)) found.push_back(std::move(f));
    }
  } else {
    // At least two workers, so that concurrency bugs in kernels show up even on one core.
    const uint32_t hw = std::max(2u, std::thread::hardware_concurrency());
    const uint32_t workers = std::min(numBlocks, hw);
    std::atomic<uint32_t> next{0};
    std::mutex mu;
    auto work = [&] {
      UbMemory ub(ub_bytes);
      for (uint32_t b = next.fetch_add(1); b < numBlocks; b = next.fetch_add(1)) {
        BlockFailure f;
        if (!RunOneBlock(b, numBlocks, *product, ub, kernel, &f)) {
          std::lock_guard lock(mu);
          found.push_back(std::move(f));
        }
      }
    };
    std::vector<std::thread> threads;
    threads.reserve(workers);
    std::exception_ptr spawn_error;
    try {
      for (uint32_t w = 0; w < workers; ++w) {
        threads.emplace_back([&] {
          try {
            work();
          } catch (...) {
            // Only the UB allocation can throw here; the blocks catch their own exceptions.
            std::lock_guard lock(mu);
            if (!spawn_error) spawn_error = std::current_exception();
          }
        });
      }
    } catch (...) {
      if (!spawn_error) spawn_error = std::current_exception();
    }
    for (std::thread& t : threads) t.join();
    if (spawn_error) {
      try {
        std::rethrow_exception(spawn_error);
      } catch (const std::exception& e) {
        return Status::Internal(std::string("could not start the simulated cores: ") + e.what());
      }
    }
  }

  std::sort(found.begin(), found.end(),
            [](const BlockFailure& a, const BlockFailure& b) { return a.block_idx < b.block_idx; });
  *failures = std::move(found);
  if (failures->empty()) return Status::Ok();
  std::cerr << Report(name, numBlocks, *product, *failures) << std::flush;
  const BlockFailure& first = failures->front();
  const std::string summary = "kernel '" + std::string(name) + "' failed in " + std::to_string(failures->size()) +
                              " block(s); first: block " + std::to_string(first.block_idx) + " [" + first.check +
                              "] " + first.message;
  const bool all_checks = std::all_of(failures->begin(), failures->end(),
                                      [](const BlockFailure& f) { return f.check != "exception"; });
  return all_checks ? Status::InvalidArgument(summary) : Status::Internal(summary);
}

void RunKernelFunction(const char* name, uint32_t numBlocks, const std::function<void()>& kernel) {
  std::vector<BlockFailure> failures;
  const Status s = RunBlocks(name, numBlocks, kernel, LaunchOptions{}, &failures);
  if (!failures.empty()) std::rethrow_exception(failures.front().error);
  if (!s.ok()) throw std::invalid_argument("ICPU_RUN_KF(" + std::string(name) + "): " + s.message());
}

void SetTilingKey(uint64_t key) noexcept { g_tiling_key.store(key, std::memory_order_relaxed); }
uint64_t TilingKey() noexcept { return g_tiling_key.load(std::memory_order_relaxed); }

}  // namespace detail

Status Launch(uint32_t numBlocks, std::function<void()> kernel, const LaunchOptions& options) {
  std::vector<BlockFailure> failures;
  return detail::RunBlocks("kernel", numBlocks, kernel, options, &failures);
}

}  // namespace lngrad::ascend

namespace AscendC {

void SetKernelMode(KernelMode mode) { lngrad::ascend::g_kernel_mode.store(static_cast<int>(mode)); }
KernelMode GetKernelMode() { return static_cast<KernelMode>(lngrad::ascend::g_kernel_mode.load()); }

int64_t GetBlockIdx() { return lngrad::ascend::RequireBlockContext("GetBlockIdx").block_idx; }
int64_t GetBlockNum() { return lngrad::ascend::RequireBlockContext("GetBlockNum").block_num; }
uint32_t GetUBSizeInBytes() { return lngrad::ascend::CurrentBlockProduct().ub_bytes; }

}  // namespace AscendC
