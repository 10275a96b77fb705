// lngrad SIMT API: the half and half2 functions of SIMT kernels (the vendor's
// simt_api/asc_fp16.h): arithmetic, comparisons, maths, and the conversions from and to float,
// bfloat16_t and the integers in every rounding mode (lngrad_simt/math_fp16.h).
#pragma once

#include "lngrad_simt/math_fp16.h"
#include "simt_api/device_types.h"

LNGRAD_SIMT_DEFINE_FP16_API(half, half, half2, half2, LNGRAD_SIMT_FOR_MODES6)
// The 32-bit integers also convert in saturation mode.
LNGRAD_SIMT_DEF_FROM_INT_MODES(half, half, _sat, true, uint, unsigned int)
LNGRAD_SIMT_DEF_FROM_INT_MODES(half, half, _sat, true, int, int)
LNGRAD_SIMT_FOR_MODES5(LNGRAD_SIMT_DEF_FP_TO_FP, bfloat16, bfloat16_t, half, half, , false)
LNGRAD_SIMT_FOR_MODES5(LNGRAD_SIMT_DEF_FP_TO_FP, bfloat16, bfloat16_t, half, half, _sat, true)

#define ASCRT_INF_FP16 __ushort_as_half(0x7C00u)
#define ASCRT_MAX_NORMAL_FP16 __ushort_as_half(0x7BFFu)
#define ASCRT_MIN_DENORM_FP16 __ushort_as_half(0x0001u)
#define ASCRT_NAN_FP16 __ushort_as_half(0x7FFFu)
#define ASCRT_NEG_ZERO_FP16 __ushort_as_half(0x8000u)
#define ASCRT_ONE_FP16 __ushort_as_half(0x3C00u)
#define ASCRT_ZERO_FP16 __ushort_as_half(0x0000u)
