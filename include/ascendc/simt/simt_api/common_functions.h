// lngrad SIMT API: printf, assert and the clock inside SIMT threads, and asc_vf_call of a SIMT
// vector function (the vendor's simt_api/common_functions.h).
#pragma once

#include "simt_api/device_types.h"
#include "lngrad_aicore/check.h"
#include "utils/debug/asc_assert.h"
#include "utils/debug/asc_printf.h"

// assert and clock inside SIMT threads (issue 33, by the cooperative-groups helper).
//
// assert(expr) in a SIMT thread prints, as the device does, "[ASSERT] <file>:<line>:
// <function>: Assertion `<expr>' failed." through the kernel printf and fails the block (check
// "assert"; the device traps the kernel). Elsewhere it is utils/debug/asc_assert.h's: a block's
// code outside its SIMT threads fails the block the same way, host code gets the C library's
// assert (the message on stderr, then abort()). Like the standard macro it expands to
// nothing under NDEBUG; a later #include <cassert> gives the standard macro back.
// clock() is the C library's (<ctime>): the process's CPU time, not cycles; it never decreases,
// so the difference of two readings of one thread is a duration >= 0.
#include <cassert>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

namespace lngrad::simt::detail {

[[noreturn]] inline void SimtAssertFailed(const char* expr, const char* file, unsigned line,
                                          const char* function) {
  const std::string text = std::string(file) + ":" + std::to_string(line) + ": " + function +
                           ": Assertion `" + expr + "' failed.";
  if (t_thread == nullptr) {  // a block's code outside its SIMT threads, or host code
    ::lngrad::aicore::debug_detail::StandardAssertFailed(expr, file, line, function);
  }
  ::lngrad::aicore::debug_detail::KernelPrint("[ASSERT] " + text + "\n",
                                              ::lngrad::aicore::debug_detail::kAscendcDump);
  ::lngrad::aicore::RaiseKernelCheck("assert", text);
}

}  // namespace lngrad::simt::detail

#ifndef NDEBUG
#undef assert
#define assert(expr)       \
  (static_cast<bool>(expr) \
       ? void(0)           \
       : ::lngrad::simt::detail::SimtAssertFailed(#expr, __FILE__, __LINE__, __PRETTY_FUNCTION__))
#endif

// asc_vf_call<f>(threads, args...) in a vector kernel on the 950: runs the SIMT vector function
// f (__simt_vf__) in `threads` threads of the calling block and returns when every thread has
// finished (lngrad::simt::RunThreads; f's __launch_bounds__ is not known here, so only the
// 2048-thread limit applies). Each thread gets its own copy of the arguments. The vector
// function's UB accesses and the block's vector and MTE instructions are ordered as on the
// device: the call completes before the next instruction of the kernel issues.
template <auto funcPtr, typename... Args>
void asc_vf_call(dim3 threadNums, Args&&... args) {
  const std::tuple<std::decay_t<Args>...> stored(std::forward<Args>(args)...);
  ::lngrad::simt::RunThreads(
      threadNums, 0,
      [&] {
        auto mine = stored;
        std::apply([](auto&... a) { funcPtr(a...); }, mine);
      },
      ::lngrad::aicore::SrcLoc::Current());
}
