// lngrad Ascend C runtime: ascendc_assert (the vendor's "utils/debug/asc_assert.h").
//
// ascendc_assert(expr) and ascendc_assert(expr, fmt, args...): when expr is false, prints
// "[ASSERT] <file>:<line>: <function>: Assertion `<expr>' failed. <message>" through the kernel
// printf (so with the block's "[AIV Block i/n] " prefix inside a launch, utils/debug/asc_printf.h)
// and fails the block as ASSERT does: KernelCheckError with check "assert" (the device traps the
// kernel; the vendor's CPU debug build aborts the process). Like the vendor's, the macro expands
// to nothing when NDEBUG is defined or ASCENDC_DUMP is 0.
//
// The standard assert(expr) in kernel code (the kit's 09_log): inside a block it prints
// "[ASSERT] <file>:<line>: <function>: Assertion `<expr>' failed." through the kernel printf and
// fails the block with check "assert", as the device traps the kernel (the launch's
// synchronisation then returns the error); outside any block it is the C library's (the message
// on stderr, then abort()). Like the standard macro it expands to nothing under NDEBUG, and a
// later #include <cassert> gives the standard macro back.
#pragma once

#include <string>
#include <utility>

#include "utils/debug/asc_printf.h"

namespace lngrad::aicore::debug_detail {

// Prints the assertion's message and throws KernelCheckError (check "assert").
[[noreturn]] void AscendcAssertFailed(const char* expr, const char* file, int line,
                                      const char* function, const std::string& message);

[[noreturn]] inline void AscendcAssert(const char* expr, const char* file, int line,
                                       const char* function) {
  AscendcAssertFailed(expr, file, line, function, "");
}

template <class... Args>
[[noreturn]] void AscendcAssert(const char* expr, const char* file, int line, const char* function,
                                const char* fmt, Args&&... args) {
  AscendcAssertFailed(expr, file, line, function,
                      Format(fmt, PrintfArg(std::forward<Args>(args))...));
}

// The standard assert's failure (above).
[[noreturn]] void StandardAssertFailed(const char* expr, const char* file, unsigned line,
                                       const char* function);

}  // namespace lngrad::aicore::debug_detail

#ifndef NDEBUG
#undef assert
#define assert(expr)                                                               \
  (static_cast<bool>(expr) ? void(0)                                               \
                           : ::lngrad::aicore::debug_detail::StandardAssertFailed( \
                                 #expr, __FILE__, __LINE__, __PRETTY_FUNCTION__))
#endif

#undef ascendc_assert
#if !(defined(ASCENDC_DUMP) && ASCENDC_DUMP == 0) && !defined(NDEBUG)
#define ascendc_assert(expr, ...)                       \
  (static_cast<bool>(expr)                              \
       ? void(0)                                        \
       : ::lngrad::aicore::debug_detail::AscendcAssert( \
             #expr, __FILE__, __LINE__, __PRETTY_FUNCTION__ __VA_OPT__(, ) __VA_ARGS__))
#else
#define ascendc_assert(...) void(0)
#endif
