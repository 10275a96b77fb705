// Layer acl: the kernel printf (utils/debug/asc_printf.h) and its per-launch collection
// (debug_print.h).
#include "debug_print.h"

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>

#include "lngrad_aicore/check.h"
#include "lngrad_aicore/kernel_log.h"
#include "lngrad_simt/runtime.h"
#include "utils/debug/asc_assert.h"
#include "utils/debug/asc_printf.h"

namespace lngrad::acl::detail {
namespace {

// The <<<>>> launch whose block runs on this thread (nullptr: none collects).
thread_local LaunchPrints* t_prints = nullptr;

// Messages printed at once stay whole, and a launch's flush is not cut by another's.
std::mutex& StdoutMutex() {
  static std::mutex mu;
  return mu;
}

void Write(const std::string& text) { std::fwrite(text.data(), 1, text.size(), stdout); }

}  // namespace

std::function<void()> LaunchPrints::Wrap(const std::function<void()>& per_block) {
  return [this, &per_block] {
    struct Restore {
      LaunchPrints* outer;
      ~Restore() { t_prints = outer; }
    } restore{t_prints};
    t_prints = this;
    per_block();
  };
}

void LaunchPrints::Append(int64_t block_idx, const std::string& text) {
  if (block_idx >= 0 && static_cast<uint64_t>(block_idx) < per_block_.size()) {
    per_block_[static_cast<size_t>(block_idx)] += text;
  }
}

void LaunchPrints::Flush() {
  std::lock_guard lock(StdoutMutex());
  for (std::string& text : per_block_) {
    Write(text);
    text.clear();
  }
  std::fflush(stdout);
}

}  // namespace lngrad::acl::detail

namespace lngrad::aicore::debug_detail {

void KernelPrint(const std::string& text, bool dump) {
  const BlockContext* ctx = CurrentBlockContext();
  if (ctx == nullptr || ctx->standalone) {
    // Host code (or kernel code called outside a launch): the C library's printf.
    std::lock_guard lock(acl::detail::StdoutMutex());
    acl::detail::Write(text);
    return;
  }
  if (!dump) return;
  // A SIMT thread's and a vector function's printf print the text alone, as on the device.
  const std::string message = simt::detail::t_thread != nullptr || InSimdVf()
                                  ? text
                                  : std::string(ctx->core_type == 1 ? "[AIC" : "[AIV") + " Block " +
                                        std::to_string(ctx->core_idx) + "/" +
                                        std::to_string(ctx->core_num) + "] " + text;
  if (acl::detail::t_prints != nullptr) {
    acl::detail::t_prints->Append(ctx->block_idx, message);
    return;
  }
  std::lock_guard lock(acl::detail::StdoutMutex());
  acl::detail::Write(message);
}

void StandardAssertFailed(const char* expr, const char* file, unsigned line, const char* function) {
  const std::string text = std::string(file) + ":" + std::to_string(line) + ": " + function +
                           ": Assertion `" + expr + "' failed.";
  if (CurrentBlockContext() == nullptr) {
    std::fprintf(stderr, "%s\n", text.c_str());
    std::abort();
  }
  KernelPrint("[ASSERT] " + text + "\n", true);
  RaiseKernelCheck(checks::kAssert, text);
}

void AscendcAssertFailed(const char* expr, const char* file, int line, const char* function,
                         const std::string& message) {
  KernelPrint("[ASSERT] " + std::string(file) + ":" + std::to_string(line) + ": " + function +
                  ": Assertion `" + expr + "' failed. " + message,
              true);
  ::lngrad::aicore::detail::AssertFailed("ascendc_assert", expr, file, line);
}

}  // namespace lngrad::aicore::debug_detail
