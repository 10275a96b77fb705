// lngrad SIMT API: the 8-bit floating-point conversions of SIMT code (the vendor's
// simt_api/asc_fp8.h): float2/half2 to hifloat8x2_t in CAST_ROUND (_rna) and CAST_HYBRID (_rh),
// with and without saturation; hifloat8x2_t, float8_e4m3x2_t and float8_e5m2x2_t to float2 (and
// hifloat8x2_t to half2), exact; float2 to a packed e4m3 or e5m2 pair in CAST_RINT.
//
// The bits are lngrad_aicore/fp8.h's (the formats, the rounding, the choices where the documents
// leave a result open). The reference marks these functions for SIMT vector functions of hybrid
// kernels (asc_vf_call), not for pure SIMT kernels; lngrad provides them in both. As with the
// other conversions, the forms without _sat do not saturate (lngrad models no global
// saturation bit for SIMT code); __asc_cvt_float2_to_fp8x2 saturates as its argument says.
#pragma once

#include "lngrad_aicore/fp8.h"
#include "simt_api/asc_bf16.h"
#include "simt_api/asc_fp16.h"
#include "simt_api/device_types.h"

typedef enum __asc_fp8_interpretation_t {
  __ASC_E4M3,
  __ASC_E5M2,
} __asc_fp8_interpretation_t;

typedef enum __asc_saturation_t {
  __ASC_NOSAT,
  __ASC_SATFINITE,
} __asc_saturation_t;

// Two 8-bit values, x in the low byte.
typedef unsigned short int __asc_fp8x2_storage_t;

struct hifloat8x2_t {
  hifloat8_t x, y;
};
struct float8_e4m3x2_t {
  float8_e4m3_t x, y;
};
struct float8_e5m2x2_t {
  float8_e5m2_t x, y;
};
static_assert(sizeof(hifloat8x2_t) == 2 && sizeof(float8_e4m3x2_t) == 2 &&
              sizeof(float8_e5m2x2_t) == 2);

#define LNGRAD_SIMT_TO_HIF8(from, ftype, source, mode_suffix, mode, sat_suffix, sat)        \
  inline hifloat8x2_t __##from##22hif82_##mode_suffix##sat_suffix(const ftype x) noexcept { \
    using ::lngrad::aicore::fp8::Hif8Round;                                                 \
    return hifloat8x2_t{hifloat8_t::FromBits(source(x.x, Hif8Round::mode, sat)),            \
                        hifloat8_t::FromBits(source(x.y, Hif8Round::mode, sat))};           \
  }
#define LNGRAD_SIMT_TO_HIF8_FORMS(from, ftype, source)              \
  LNGRAD_SIMT_TO_HIF8(from, ftype, source, rna, kRound, , false)    \
  LNGRAD_SIMT_TO_HIF8(from, ftype, source, rna, kRound, _sat, true) \
  LNGRAD_SIMT_TO_HIF8(from, ftype, source, rh, kHybrid, , false)    \
  LNGRAD_SIMT_TO_HIF8(from, ftype, source, rh, kHybrid, _sat, true)

namespace lngrad::simt::detail {
inline uint8_t HalfToHif8(half h, ::lngrad::aicore::fp8::Hif8Round mode, bool sat) noexcept {
  return ::lngrad::aicore::fp8::HalfToHif8(h.bits, mode, sat);
}
}  // namespace lngrad::simt::detail

LNGRAD_SIMT_TO_HIF8_FORMS(float, float2, ::lngrad::aicore::fp8::FloatToHif8)
LNGRAD_SIMT_TO_HIF8_FORMS(half, half2, ::lngrad::simt::detail::HalfToHif8)
#undef LNGRAD_SIMT_TO_HIF8_FORMS
#undef LNGRAD_SIMT_TO_HIF8

// Every 8-bit value is exact in float (and a HiFloat8 value in half).
inline float2 __hif822float2(const hifloat8x2_t x) noexcept {
  return float2{static_cast<float>(x.x), static_cast<float>(x.y)};
}
inline half2 __hif822half2(const hifloat8x2_t x) noexcept {
  return half2{half(static_cast<float>(x.x)), half(static_cast<float>(x.y))};
}
inline float2 __e4m3x22float2(const float8_e4m3x2_t x) noexcept {
  return float2{static_cast<float>(x.x), static_cast<float>(x.y)};
}
inline float2 __e5m2x22float2(const float8_e5m2x2_t x) noexcept {
  return float2{static_cast<float>(x.x), static_cast<float>(x.y)};
}

inline __asc_fp8x2_storage_t __asc_cvt_float2_to_fp8x2(
    const float2 x, const __asc_saturation_t saturate,
    const __asc_fp8_interpretation_t fp8_interpretation) noexcept {
  const bool sat = saturate == __ASC_SATFINITE;
  const auto one = [&](float v) -> unsigned {
    return fp8_interpretation == __ASC_E4M3 ? ::lngrad::aicore::fp8::FloatToE4m3(v, sat)
                                            : ::lngrad::aicore::fp8::FloatToE5m2(v, sat);
  };
  return static_cast<__asc_fp8x2_storage_t>(one(x.x) | (one(x.y) << 8));
}
