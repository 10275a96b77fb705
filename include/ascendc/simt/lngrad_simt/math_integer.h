// lngrad SIMT runtime: the integer intrinsics of the SIMT API (the vendor's
// simt_api/device_functions.h and math_functions.h): high halves of products, 24-bit products,
// bit reversal and counts, byte permutation, sums of absolute differences, halving adds, and the
// integer min/max/abs family. Pure functions on two's complement values (no undefined
// overflow: the arithmetic is done in a wider or unsigned type).
#pragma once

#include <bit>
#include <cstdint>
#include <type_traits>

#include "lngrad_aicore/scalar_builtins.h"

// High halves of products: X(name, type, wide type).
#define LNGRAD_SIMT_MULHI_TYPES(X)    \
  X(__mulhi, int, int64_t)            \
  X(__umulhi, unsigned int, uint64_t) \
  X(__mul64hi, long long, __int128)   \
  X(__umul64hi, unsigned long long, unsigned __int128)
#define LNGRAD_SIMT_DEF_MULHI(name, type, wide)                                                    \
  inline type name(const type x, const type y) noexcept {                                          \
    return static_cast<type>((static_cast<wide>(x) * static_cast<wide>(y)) >> (8 * sizeof(type))); \
  }
LNGRAD_SIMT_MULHI_TYPES(LNGRAD_SIMT_DEF_MULHI)
#undef LNGRAD_SIMT_DEF_MULHI
#undef LNGRAD_SIMT_MULHI_TYPES

inline long long __mul_i32toi64(const int x, const int y) noexcept {
  return static_cast<long long>(x) * static_cast<long long>(y);
}
inline unsigned long long __mul_i32toi64(const unsigned int x, const unsigned int y) noexcept {
  return static_cast<unsigned long long>(x) * static_cast<unsigned long long>(y);
}

// Bit counts over one unsigned type of every width: X(signed type, unsigned type).
#define LNGRAD_SIMT_BIT_WIDTHS(X) \
  X(int, unsigned int)            \
  X(long, unsigned long)          \
  X(long long, unsigned long long)
// __brev: bit n of the result is bit (width-1-n) of x. __clz: leading zeros (the width for 0).
// __ffs: 1-based index of the lowest set bit, 0 for 0. __popc: set bits.
#define LNGRAD_SIMT_DEF_BIT_OPS(stype, utype)                                                  \
  inline utype __brev(utype x) noexcept {                                                      \
    utype r = 0;                                                                               \
    for (unsigned i = 0; i < 8 * sizeof(utype); ++i, x >>= 1)                                  \
      r = static_cast<utype>((r << 1) | (x & 1u));                                             \
    return r;                                                                                  \
  }                                                                                            \
  inline int __clz(const stype x) noexcept { return std::countl_zero(static_cast<utype>(x)); } \
  inline int __ffs(const stype x) noexcept {                                                   \
    return x == 0 ? 0 : std::countr_zero(static_cast<utype>(x)) + 1;                           \
  }                                                                                            \
  inline int __popc(const utype x) noexcept { return std::popcount(x); }
LNGRAD_SIMT_BIT_WIDTHS(LNGRAD_SIMT_DEF_BIT_OPS)
#undef LNGRAD_SIMT_DEF_BIT_OPS
#undef LNGRAD_SIMT_BIT_WIDTHS

// Bytes selected from the 8 bytes y:x (x the low 4) by the low 3 bits of each nibble of s.
inline unsigned int __byte_perm(const unsigned int x, const unsigned int y,
                                const unsigned int s) noexcept {
  const uint64_t bytes = (static_cast<uint64_t>(y) << 32) | x;
  unsigned int r = 0;
  for (unsigned i = 0; i < 4; ++i) {
    const unsigned sel = (s >> (4 * i)) & 7u;
    r |= static_cast<unsigned int>((bytes >> (8 * sel)) & 0xFFu) << (8 * i);
  }
  return r;
}

// |x - y| + z, modulo 2^32.
inline unsigned int __sad(const int x, const int y, const unsigned int z) noexcept {
  const int64_t d = static_cast<int64_t>(x) - static_cast<int64_t>(y);
  return static_cast<unsigned int>(d < 0 ? -d : d) + z;
}
inline unsigned int __usad(const unsigned int x, const unsigned int y,
                           const unsigned int z) noexcept {
  return (x > y ? x - y : y - x) + z;
}

// The low 32 bits of the product of the low 24 bits of x and y (signed: bit 23 is the sign).
inline int __mul24(const int x, const int y) noexcept {
  const auto low24 = [](int v) {
    const auto u = static_cast<uint32_t>(v) & 0xFFFFFFu;
    return static_cast<int64_t>(u) - ((u & 0x800000u) != 0 ? int64_t{1} << 24 : 0);
  };
  return static_cast<int>(static_cast<uint32_t>(low24(x) * low24(y)));
}
inline unsigned int __umul24(const unsigned int x, const unsigned int y) noexcept {
  return static_cast<unsigned int>(static_cast<uint64_t>(x & 0xFFFFFFu) * (y & 0xFFFFFFu));
}

// Halving adds without overflow: (x + y) >> 1 and (x + y + 1) >> 1 (an arithmetic shift for int).
inline int __hadd(const int x, const int y) noexcept {
  return static_cast<int>((static_cast<int64_t>(x) + y) >> 1);
}
inline int __rhadd(const int x, const int y) noexcept {
  return static_cast<int>((static_cast<int64_t>(x) + y + 1) >> 1);
}
inline unsigned int __uhadd(const unsigned int x, const unsigned int y) noexcept {
  return static_cast<unsigned int>((static_cast<uint64_t>(x) + y) >> 1);
}
inline unsigned int __urhadd(const unsigned int x, const unsigned int y) noexcept {
  return static_cast<unsigned int>((static_cast<uint64_t>(x) + y + 1) >> 1);
}

// Named min/max: X(min name, max name, type).
#define LNGRAD_SIMT_NAMED_MINMAX(X)     \
  X(llmin, llmax, long long)            \
  X(ullmin, ullmax, unsigned long long) \
  X(umin, umax, unsigned int)
#define LNGRAD_SIMT_DEF_NAMED_MINMAX(min_name, max_name, type)                        \
  inline type min_name(const type x, const type y) noexcept { return y < x ? y : x; } \
  inline type max_name(const type x, const type y) noexcept { return x < y ? y : x; }
LNGRAD_SIMT_NAMED_MINMAX(LNGRAD_SIMT_DEF_NAMED_MINMAX)
#undef LNGRAD_SIMT_NAMED_MINMAX

// min and max overloaded on every integer type: lngrad_aicore/scalar_builtins.h (which vector
// kernels see too) has int, unsigned int, long, unsigned long, short, unsigned short and float;
// the other integer types of the reference follow.
static_assert(std::is_same_v<int64_t, long> && std::is_same_v<uint64_t, unsigned long>,
              "scalar_builtins.h's 64-bit overloads are the long ones");
#define LNGRAD_SIMT_MINMAX_TYPES(X) \
  X(min, max, char)                 \
  X(min, max, unsigned char)        \
  X(min, max, long long)            \
  X(min, max, unsigned long long)
LNGRAD_SIMT_MINMAX_TYPES(LNGRAD_SIMT_DEF_NAMED_MINMAX)
#undef LNGRAD_SIMT_MINMAX_TYPES
#undef LNGRAD_SIMT_DEF_NAMED_MINMAX
