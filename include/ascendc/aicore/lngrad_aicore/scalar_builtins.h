// lngrad Ascend C runtime: the device compiler's scalar builtins min and max, which kernel code
// calls unqualified (the toolkit's softmaxflashv3 sample: `baseM = min(baseM, rowNum)`). Plain
// overloads per scalar type in the global namespace: a non-template exact match, so a call that
// std::min would also take (under `using namespace std`) resolves here with the same value.
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
