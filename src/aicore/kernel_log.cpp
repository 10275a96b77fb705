// KERNEL_LOG and the assertion macros of lngrad_aicore/kernel_log.h.
#include "lngrad_aicore/kernel_log.h"
#include "utils/debug/asc_printf.h"
#include "name_table.h"

#include <cstdarg>
#include <cstdio>
#include <mutex>
#include <string>

namespace lngrad::aicore::detail {
namespace {

const char* LevelName(AscendC::LogLevel level) {
  static constexpr const char* kNames[] = {"DEBUG", "INFO", "WARN", "ERROR"};
  return NameAt(kNames, level, "?");
}

// Blocks log from several threads: one lock keeps each line whole.
std::mutex& LogMutex() {
  static std::mutex* mu = new std::mutex;
  return *mu;
}

}  // namespace

void KernelLog(AscendC::LogLevel level, const char* file, int line, const char* func,
               const char* format, ...) {
  va_list args;
  va_start(args, format);
  va_list copy;
  va_copy(copy, args);
  const int n = std::vsnprintf(nullptr, 0, format, copy);
  va_end(copy);
  std::string text(n > 0 ? static_cast<size_t>(n) : 0, '\0');
  if (n > 0) std::vsnprintf(text.data(), text.size() + 1, format, args);
  va_end(args);
  const BlockContext* ctx = CurrentBlockContext();
  const std::string block = ctx != nullptr ? "block " + std::to_string(ctx->block_idx) : "host";
  std::lock_guard lock(LogMutex());
  std::printf("[%s] [%s] %s:%d (%s) %s\n", LevelName(level), block.c_str(), file, line, func,
              text.c_str());
  std::fflush(stdout);
}

void AssertFailed(const char* macro, const char* condition, const char* file, int line) {
  RaiseKernelCheck(checks::kAssert, std::string(macro) + "(" + condition + ") failed at " + file +
                                        ":" + std::to_string(line));
}

}  // namespace lngrad::aicore::detail

namespace lngrad::aicore::debug_detail {

bool& InSimdVf() noexcept {
  thread_local bool in_simd_vf = false;
  return in_simd_vf;
}

}  // namespace lngrad::aicore::debug_detail
