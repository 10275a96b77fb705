// lngrad SIMT API: the bfloat16_t and bfloat16x2_t functions of SIMT kernels (the vendor's
// simt_api/asc_bf16.h): arithmetic, comparisons, maths, and the conversions from and to float,
// half and the integers in every rounding mode (lngrad_simt/math_fp16.h).
#pragma once

#include "lngrad_simt/math_fp16.h"
#include "simt_api/device_types.h"

LNGRAD_SIMT_DEFINE_FP16_API(bfloat16, bfloat16_t, bfloat162, bfloat16x2_t, LNGRAD_SIMT_FOR_MODES5)
LNGRAD_SIMT_FOR_MODES5(LNGRAD_SIMT_DEF_FP_TO_FP, half, half, bfloat16, bfloat16_t, , false)

inline bfloat16x2_t __float2bfloat162_rn(const float x) noexcept {
  const bfloat16_t b = __float2bfloat16_rn(x);
  return bfloat16x2_t{b, b};
}
inline bfloat16x2_t __bfloat162bfloat162(const bfloat16_t x) noexcept { return bfloat16x2_t{x, x}; }

#define ASCRT_INF_BF16 __ushort_as_bfloat16(0x7F80u)
#define ASCRT_MAX_NORMAL_BF16 __ushort_as_bfloat16(0x7F7Fu)
#define ASCRT_MIN_DENORM_BF16 __ushort_as_bfloat16(0x0001u)
#define ASCRT_NAN_BF16 __ushort_as_bfloat16(0x7FFFu)
#define ASCRT_NEG_ZERO_BF16 __ushort_as_bfloat16(0x8000u)
#define ASCRT_ONE_BF16 __ushort_as_bfloat16(0x3F80u)
#define ASCRT_ZERO_BF16 __ushort_as_bfloat16(0x0000u)
