// lngrad SIMT runtime: the vector types of SIMT kernels. Every integer and float type in 2, 3 and
// 4 components (char2 .. ulonglong4, float2 .. float4; members x, y, z, w), and the packed 16-bit
// pairs half2 and bfloat16x2_t (x: the low 16 bits, y: the high 16 bits).
//
// Plain aggregates of their components in order, so that brace initialisation and the make_*
// functions (simt_api/vector_functions.h) build them.
#pragma once

#include "lngrad_aicore/bfloat16.h"
#include "lngrad_aicore/half.h"

#include <type_traits>

// The element types of the vector types: X(prefix, element type).
#define LNGRAD_SIMT_VECTOR_ELEMENTS(X) \
  X(char, signed char)                 \
  X(uchar, unsigned char)              \
  X(short, short)                      \
  X(ushort, unsigned short)            \
  X(int, int)                          \
  X(uint, unsigned int)                \
  X(long, long)                        \
  X(ulong, unsigned long)              \
  X(longlong, long long)               \
  X(ulonglong, unsigned long long)     \
  X(float, float)

#define LNGRAD_SIMT_DEFINE_VECTOR_TYPES(prefix, type) \
  struct prefix##2 {                                  \
    type x, y;                                        \
  };                                                  \
  struct prefix##3 {                                  \
    type x, y, z;                                     \
  };                                                  \
  struct prefix##4 {                                  \
    type x, y, z, w;                                  \
  };
LNGRAD_SIMT_VECTOR_ELEMENTS(LNGRAD_SIMT_DEFINE_VECTOR_TYPES)
#undef LNGRAD_SIMT_DEFINE_VECTOR_TYPES

struct half2 {
  half x, y;
};
struct bfloat16x2_t {
  bfloat16_t x, y;
};
static_assert(sizeof(half2) == 4 && sizeof(bfloat16x2_t) == 4 && sizeof(float4) == 16);

// The packed pairs take the arithmetic operators component-wise, as the device compiler's pair
// types do (the kit's short_vector_add adds two half2): each component is rounded on its own,
// as with __hadd2 and the other *2 functions.
namespace lngrad::simt::detail {
template <typename T>
concept PackedPair = std::is_same_v<T, half2> || std::is_same_v<T, bfloat16x2_t>;
}  // namespace lngrad::simt::detail

#define LNGRAD_SIMT_PAIR_OPERATOR(op)                                                         \
  template <lngrad::simt::detail::PackedPair T>                                               \
  constexpr T operator op(const T& a, const T& b) {                                           \
    return T{static_cast<decltype(a.x)>(a.x op b.x), static_cast<decltype(a.y)>(a.y op b.y)}; \
  }                                                                                           \
  template <lngrad::simt::detail::PackedPair T>                                               \
  constexpr T& operator op##=(T& a, const T& b) {                                             \
    a = a op b;                                                                               \
    return a;                                                                                 \
  }
LNGRAD_SIMT_PAIR_OPERATOR(+)
LNGRAD_SIMT_PAIR_OPERATOR(-)
LNGRAD_SIMT_PAIR_OPERATOR(*)
LNGRAD_SIMT_PAIR_OPERATOR(/)
#undef LNGRAD_SIMT_PAIR_OPERATOR

template <lngrad::simt::detail::PackedPair T>
constexpr T operator-(const T& a) {
  return T{-a.x, -a.y};
}
