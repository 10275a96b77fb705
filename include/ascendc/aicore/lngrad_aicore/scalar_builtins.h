// lngrad Ascend C runtime: the device compiler's scalar builtins min and max (and clz, bcnt1),
// which kernel code calls unqualified (the toolkit's softmaxflashv3 sample: `baseM = min(baseM,
// rowNum)`). Plain overloads per scalar type in the global namespace: a non-template exact match,
// so a call that std::min would also take (under `using namespace std`) resolves here with the same
// value.
#pragma once

#include <cstdint>

#define LNGRAD_SCALAR_MIN_MAX(T)                             \
  inline constexpr T min(T a, T b) { return b < a ? b : a; } \
  inline constexpr T max(T a, T b) { return a < b ? b : a; }
LNGRAD_SCALAR_MIN_MAX(int32_t)
LNGRAD_SCALAR_MIN_MAX(uint32_t)
LNGRAD_SCALAR_MIN_MAX(int64_t)
LNGRAD_SCALAR_MIN_MAX(uint64_t)
LNGRAD_SCALAR_MIN_MAX(int16_t)
LNGRAD_SCALAR_MIN_MAX(uint16_t)
LNGRAD_SCALAR_MIN_MAX(float)
#undef LNGRAD_SCALAR_MIN_MAX

// The scalar unit's bit counts: clz(x) the leading zero bits of a 64-bit value (64 for 0),
// bcnt1(x) its one bits.
inline constexpr int64_t clz(uint64_t x) { return x == 0 ? 64 : __builtin_clzll(x); }
inline constexpr int64_t bcnt1(uint64_t x) { return __builtin_popcountll(x); }
