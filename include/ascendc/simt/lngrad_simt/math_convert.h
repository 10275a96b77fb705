// lngrad SIMT runtime: the type conversion functions of the SIMT API between float and the
// integers (the vendor's simt_api/device_functions.h: __float2int_rn .. __ll2float_rna, the
// __float2float_* roundings and the bit reinterpretations __int_as_float & co.), and the tables
// of rounding modes and integer types the half and bfloat16 conversions (math_fp16.h) share.
//
// Every variant comes from one table (X-macros) over lngrad_simt/math_round.h: float -> integer
// rounds in the mode, then clamps to the type (NaN gives 0); integer -> float rounds once.
#pragma once

#include <bit>
#include <cstdint>

#include "lngrad_simt/math_round.h"
#include "lngrad_simt/vector_types.h"

// The rounding modes: M(args..., suffix, lngrad::simt::math::Round enumerator).
#define LNGRAD_SIMT_FOR_MODES5(M, ...) \
  M(__VA_ARGS__, rn, kRn)              \
  M(__VA_ARGS__, rz, kRz)              \
  M(__VA_ARGS__, rd, kRd)              \
  M(__VA_ARGS__, ru, kRu)              \
  M(__VA_ARGS__, rna, kRna)
#define LNGRAD_SIMT_FOR_MODES6(M, ...) \
  LNGRAD_SIMT_FOR_MODES5(M, __VA_ARGS__) M(__VA_ARGS__, ro, kRo)

// The integer types of the conversions: M(args..., name in the API, type).
#define LNGRAD_SIMT_FOR_INTS(M, ...)      \
  M(__VA_ARGS__, uint, unsigned int)      \
  M(__VA_ARGS__, int, int)                \
  M(__VA_ARGS__, ull, unsigned long long) \
  M(__VA_ARGS__, ll, long long)

#define LNGRAD_SIMT_MATH ::lngrad::simt::math

// __<from>2<int>_<mode>(from x): a float, half or bfloat16 value to an integer.
#define LNGRAD_SIMT_DEF_TO_INT(from, ftype, iname, itype, m, mk)            \
  inline itype __##from##2##iname##_##m(const ftype x) noexcept {           \
    return LNGRAD_SIMT_MATH::ToInteger<itype>(LNGRAD_SIMT_MATH::Widen(x),   \
                                              LNGRAD_SIMT_MATH::Round::mk); \
  }
#define LNGRAD_SIMT_DEF_TO_INT_MODES(from, ftype, iname, itype) \
  LNGRAD_SIMT_FOR_MODES5(LNGRAD_SIMT_DEF_TO_INT, from, ftype, iname, itype)

// __<int>2<to>_<mode>[_sat](int x): an integer to a float, half or bfloat16 value.
#define LNGRAD_SIMT_DEF_FROM_INT(to, ttype, sat_suffix, sat, iname, itype, m, mk) \
  inline ttype __##iname##2##to##_##m##sat_suffix(const itype x) noexcept {       \
    return LNGRAD_SIMT_MATH::IntToFp<ttype>(x, LNGRAD_SIMT_MATH::Round::mk, sat); \
  }
#define LNGRAD_SIMT_DEF_FROM_INT_MODES(to, ttype, sat_suffix, sat, iname, itype) \
  LNGRAD_SIMT_FOR_MODES5(LNGRAD_SIMT_DEF_FROM_INT, to, ttype, sat_suffix, sat, iname, itype)

// __<from>2<from>_<mode>(from x): rounded to an integral value of the same type.
#define LNGRAD_SIMT_DEF_TO_INTEGRAL(from, ftype, m, mk)                       \
  inline ftype __##from##2##from##_##m(const ftype x) noexcept {              \
    return LNGRAD_SIMT_MATH::RoundToIntegral(x, LNGRAD_SIMT_MATH::Round::mk); \
  }

LNGRAD_SIMT_FOR_INTS(LNGRAD_SIMT_DEF_TO_INT_MODES, float, float)
LNGRAD_SIMT_FOR_INTS(LNGRAD_SIMT_DEF_FROM_INT_MODES, float, float, , false)
LNGRAD_SIMT_FOR_MODES5(LNGRAD_SIMT_DEF_TO_INTEGRAL, float, float)

// Bit reinterpretations: X(name, from, to).
#define LNGRAD_SIMT_BIT_CASTS(X)          \
  X(__int_as_float, int, float)           \
  X(__uint_as_float, unsigned int, float) \
  X(__float_as_int, float, int)           \
  X(__float_as_uint, float, unsigned int)
#define LNGRAD_SIMT_DEF_BIT_CAST(name, from, to) \
  inline to name(const from x) noexcept { return std::bit_cast<to>(x); }
LNGRAD_SIMT_BIT_CASTS(LNGRAD_SIMT_DEF_BIT_CAST)
#undef LNGRAD_SIMT_DEF_BIT_CAST
#undef LNGRAD_SIMT_BIT_CASTS

// __<from>2<to>_<mode>[_sat](from x): between float, half and bfloat16, rounded once.
#define LNGRAD_SIMT_DEF_FP_TO_FP(from, ftype, to, ttype, sat_suffix, sat, m, mk) \
  inline ttype __##from##2##to##_##m##sat_suffix(const ftype x) noexcept {       \
    return LNGRAD_SIMT_MATH::FloatToFp<ttype>(LNGRAD_SIMT_MATH::Widen(x),        \
                                              LNGRAD_SIMT_MATH::Round::mk, sat); \
  }
// __float22<to2>_<mode>[_sat](float2 x): both components of a float2, rounded once each.
#define LNGRAD_SIMT_DEF_FLOAT2_TO_PAIR(to2, t2type, ttype, sat_suffix, sat, m, mk)            \
  inline t2type __float22##to2##_##m##sat_suffix(const float2 x) noexcept {                   \
    return t2type{LNGRAD_SIMT_MATH::FloatToFp<ttype>(x.x, LNGRAD_SIMT_MATH::Round::mk, sat),  \
                  LNGRAD_SIMT_MATH::FloatToFp<ttype>(x.y, LNGRAD_SIMT_MATH::Round::mk, sat)}; \
  }
