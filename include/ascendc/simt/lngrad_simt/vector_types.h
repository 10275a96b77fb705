// lngrad SIMT runtime: the vector types of SIMT kernels. Every integer and float type in 2, 3 and
// 4 components (char2 .. ulonglong4, float2 .. float4; members x, y, z, w), and the packed 16-bit
// pairs half2 and bfloat16x2_t (x: the low 16 bits, y: the high 16 bits).
//
// Plain aggregates of their components in order, so that brace initialisation and the make_*
// functions (simt_api/vector_functions.h) build them.
#pragma once

#include "lngrad_aicore/bfloat16.h"
#include "lngrad_aicore/half.h"

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
