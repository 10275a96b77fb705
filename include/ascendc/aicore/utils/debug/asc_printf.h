// lngrad Ascend C runtime: the kernel's printf (the vendor's "utils/debug/asc_printf.h").
//
// printf(fmt, args...) and PRINTF in kernel code print one formatted message prefixed with the
// block, "[AIV Block <idx>/<num>] ", as the device prints it (lngrad simulates vector cores
// only, so never "[AIC Block"); inside a register vector function (a __simd_vf__ function, a
// __VEC_SCOPE__ block) and a SIMT thread the text alone, as the device prints those. On the device
// the messages reach the host after the kernel, each core's in the order it printed them, one core
// after another: under a <<<>>> launch lngrad keeps each block's messages and prints them when the
// launch ends, block 0 first. Elsewhere (ICPU_RUN_KF, lngrad::aicore::Launch) a message is printed
// at once, whole. Outside any launch (host code) printf is the C library's: no prefix.
// ASCENDC_DUMP=0 (defined before this header) silences the kernel's messages, not the host's.
//
// Arguments are converted as the device documents them: half and bfloat16_t print with %f like
// float; integers, floats, strings and pointers as in C. lngrad-asc turns every unqualified
// `printf(` of an .asc into a call of lngrad::aicore::debug::printf (with no arguments after fmt
// the C library's printf would otherwise win overload resolution); AscendC::printf is the same
// function (kernel_operator.h).
#pragma once

#include <cstdio>
#include <string>
#include <type_traits>
#include <utility>

namespace lngrad::aicore::debug_detail {

// Prints `text` as the running block's message (see the header comment); `dump`: ASCENDC_DUMP.
void KernelPrint(const std::string& text, bool dump);
// Whether the block thread runs a register vector function (asc_vf_call, __VEC_SCOPE__: set by
// layer reg), whose printf prints the text alone, as the device prints a vector function's.
bool& InSimdVf() noexcept;

template <typename A>
auto PrintfArg(A&& a) {
  using T = std::remove_cvref_t<A>;
  if constexpr (std::is_same_v<T, float>) {
    return static_cast<double>(a);
  } else if constexpr (std::is_arithmetic_v<T> || std::is_pointer_v<T> ||
                       std::is_null_pointer_v<T>) {
    return a;
  } else if constexpr (std::is_array_v<T>) {
    return static_cast<const std::remove_extent_t<T>*>(a);
  } else if constexpr (std::is_enum_v<T>) {
    return static_cast<std::underlying_type_t<T>>(a);
  } else {
    // half, bfloat16_t and other types that convert to float.
    return static_cast<double>(static_cast<float>(a));
  }
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
#pragma GCC diagnostic ignored "-Wformat-security"
#if defined(__clang__)
#pragma GCC diagnostic ignored "-Wformat-extra-args"
#endif
template <typename... C>
std::string Format(const char* fmt, C... c) {
  if (fmt == nullptr) return {};
  const int n = std::snprintf(nullptr, 0, fmt, c...);
  if (n <= 0) return {};
  std::string s(static_cast<size_t>(n) + 1, '\0');
  std::snprintf(s.data(), s.size(), fmt, c...);
  s.resize(static_cast<size_t>(n));
  return s;
}
#pragma GCC diagnostic pop

#if defined(ASCENDC_DUMP) && ASCENDC_DUMP == 0
inline constexpr bool kAscendcDump = false;
#else
inline constexpr bool kAscendcDump = true;
#endif

}  // namespace lngrad::aicore::debug_detail

// Only the two public names: the namespace is made visible everywhere below.
namespace lngrad::aicore::debug {

template <class... Args>
void printf(const char* fmt, Args&&... args) {
  namespace d = ::lngrad::aicore::debug_detail;
  d::KernelPrint(d::Format(fmt, d::PrintfArg(std::forward<Args>(args))...), d::kAscendcDump);
}

template <class... Args>
void PRINTF(const char* fmt, Args&&... args) {
  printf(fmt, std::forward<Args>(args)...);
}

}  // namespace lngrad::aicore::debug

// The vendor makes its printf visible unqualified (a using-directive); calls with arguments
// after fmt prefer it to the C library's (an exact match beats the ellipsis).
using namespace lngrad::aicore::debug;  // NOLINT(google-global-names-in-headers)

namespace AscendC {
using ::lngrad::aicore::debug::printf;
using ::lngrad::aicore::debug::PRINTF;
}  // namespace AscendC
