// lngrad Ascend C runtime: the CPU-debug logging and assertion macros of the toolkit
// (KERNEL_LOG, ASCENDC_ASSERT, ASSERT) and the unit-test helper LOCAL_TENSOR_REGISTER.
//
// On the device toolkit's CPU debug build a failed assertion raises SIGABRT and kills the
// process. Here it throws KernelCheckError (check "assert"), so a launch reports the failed block
// and a test framework reports the failed test, and the rest of the run goes on.
#pragma once

#include <cstdint>

#include "check.h"
#include "tensor.h"

namespace AscendC {

// KERNEL_LOG levels (the token after KERNEL_LOG( names one of them).
enum class LogLevel : uint8_t {
  KERNEL_DEBUG = 0,
  KERNEL_INFO = 1,
  KERNEL_WARN = 2,
  KERNEL_ERROR = 3,
};

}  // namespace AscendC

namespace lngrad::aicore {
namespace checks {
inline constexpr const char* kAssert = "assert";  // ASSERT / ASCENDC_ASSERT condition false
}  // namespace checks

namespace detail {
// One log line on stdout: "[LEVEL] [block N] file:line (function) message". Outside any block
// (host code, standalone block switched off) the block reads "host".
void KernelLog(AscendC::LogLevel level, const char* file, int line, const char* func,
               const char* format, ...) __attribute__((format(printf, 5, 6)));
// Throws KernelCheckError(kAssert) naming the condition and where it was written.
[[noreturn]] void AssertFailed(const char* macro, const char* condition, const char* file,
                               int line);
}  // namespace detail
}  // namespace lngrad::aicore

// KERNEL_LOG(KERNEL_ERROR, "x is %d", x): printf-style, one line with the level, the block and
// the place it was written.
#define KERNEL_LOG(level, format, ...)                                                          \
  ::lngrad::aicore::detail::KernelLog(::AscendC::LogLevel::level, __FILE__, __LINE__, __func__, \
                                      format __VA_OPT__(, ) __VA_ARGS__)

// ASCENDC_ASSERT(cond, behaviour): when cond is false, runs behaviour (usually a KERNEL_LOG) and
// fails the block. behaviour may be a braced block.
#ifndef ASCENDC_ASSERT
#define ASCENDC_ASSERT(cond, ...)                                                          \
  do {                                                                                     \
    if (!(cond)) {                                                                         \
      __VA_ARGS__;                                                                         \
      ::lngrad::aicore::detail::AssertFailed("ASCENDC_ASSERT", #cond, __FILE__, __LINE__); \
    }                                                                                      \
  } while (0)
#endif

// ASSERT(cond): the toolkit's assert() of CPU-debug builds, checked whatever NDEBUG says.
#ifndef ASSERT
#define ASSERT(cond)                                                               \
  do {                                                                             \
    if (!(cond)) {                                                                 \
      ::lngrad::aicore::detail::AssertFailed("ASSERT", #cond, __FILE__, __LINE__); \
    }                                                                              \
  } while (0)
#endif

// LOCAL_TENSOR_REGISTER(name, T, VECCALC, ubByteAddr, elements): declares `name`, a LocalTensor<T>
// of `elements` elements at UB byte address ubByteAddr of the running block (the toolkit's unit
// tests place tensors by hand with it). Same checks as LocalTensor(pos, addr, tileSize): the
// position must be a UB one and the tensor must lie inside the UB.
#ifndef LOCAL_TENSOR_REGISTER
#define LOCAL_TENSOR_REGISTER(name, type, pos, addr, size) \
  ::AscendC::LocalTensor<type> name(::AscendC::TPosition::pos, (addr), (size));
#endif
#ifndef ALIGN_ADDR
#define ALIGN_ADDR(addr) (((addr) + 31) / 32 * 32)
#endif
