// lngrad SIMT API: the make_* functions of the vector types (the vendor's
// simt_api/vector_functions.h): make_char2 .. make_ulonglong4, make_float2 .. make_float4.
#pragma once

#include "lngrad_simt/vector_types.h"
#include "simt_api/device_types.h"

#define LNGRAD_SIMT_DEFINE_MAKE_VECTOR(prefix, type)                                        \
  inline prefix##2 make_##prefix##2(type x, type y) { return prefix##2 {x, y}; }            \
  inline prefix##3 make_##prefix##3(type x, type y, type z) { return prefix##3 {x, y, z}; } \
  inline prefix##4 make_##prefix##4(type x, type y, type z, type w) {                       \
    return prefix##4 {x, y, z, w};                                                          \
  }
LNGRAD_SIMT_VECTOR_ELEMENTS(LNGRAD_SIMT_DEFINE_MAKE_VECTOR)
#undef LNGRAD_SIMT_DEFINE_MAKE_VECTOR
