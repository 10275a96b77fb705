// lngrad Ascend C runtime: the 950's MX element types, in the global namespace as the device
// compiler's built-ins (the cube's MX forms and the vector Cast use them). fp8_e8m0_t is a scale
// 2^(bits - 127) (0xFF: NaN); fp4x2_e2m1_t and fp4x2_e1m2_t hold two 4-bit floats in one byte, the
// first in the low nibble, and their tensors count 4-bit elements as int4b_t's do (offsets, sizes;
// DataCopy moves their bytes).
//
// The 4-bit codes: a sign bit, then e2m1: 2 exponent bits (bias 1) and 1 mantissa bit, e1m2:
// 1 exponent bit (bias 1) and 2 mantissa bits; exponent field 0 is subnormal (0.m), field e is
// 2^(e - 1) x 1.m. Magnitudes: e2m1 0, 0.5, 1, 1.5, 2, 3, 4, 6; e1m2 0, 0.25, ..., 1.75. No
// infinity or NaN.
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "lngrad_aicore/defs.h"

#define LNGRAD_MX_TYPE(name)                             \
  struct name {                                          \
    uint8_t bits;                                        \
    static constexpr name FromBits(uint8_t b) noexcept { \
      name v{};                                          \
      v.bits = b;                                        \
      return v;                                          \
    }                                                    \
  };                                                     \
  static_assert(sizeof(name) == 1);
LNGRAD_MX_TYPE(fp8_e8m0_t)
LNGRAD_MX_TYPE(fp4x2_e2m1_t)
LNGRAD_MX_TYPE(fp4x2_e1m2_t)
#undef LNGRAD_MX_TYPE

// Kernels name them AscendC::fp8_e8m0_t too (the matmul_mxfp4 samples).
namespace AscendC {
using ::fp4x2_e1m2_t;
using ::fp4x2_e2m1_t;
using ::fp8_e8m0_t;
}  // namespace AscendC

template <>
struct lngrad::aicore::IsFourBit<fp4x2_e2m1_t> : std::true_type {};
template <>
struct lngrad::aicore::IsFourBit<fp4x2_e1m2_t> : std::true_type {};

namespace lngrad::aicore::fp4 {

// The value of a 4-bit code (the low nibble of `code`); e1m2 selects the 1-exponent-bit format.
inline float Fp4ToFloat(uint8_t code, bool e1m2) noexcept {
  const int man_bits = e1m2 ? 2 : 1;
  const int e = (code & 0x7) >> man_bits;
  const float m =
      static_cast<float>(code & ((1 << man_bits) - 1)) / static_cast<float>(1 << man_bits);
  const float mag = e == 0 ? m : std::ldexp(1.0f + m, e - 1);
  return (code & 0x8) != 0 ? -mag : mag;
}

// The round modes of the conversion to 4 bits (the Cast's CAST_RINT, CAST_FLOOR, CAST_CEIL,
// CAST_ROUND, CAST_TRUNC).
enum class Fp4Round { kRint, kFloor, kCeil, kRound, kTrunc };

// A float rounded to a 4-bit code in `mode` (kRint: nearest, ties to the even code; kRound:
// nearest, ties away from zero; the others directed). Past the largest magnitude (and +-inf): the
// largest of the sign; NaN: code 0; a zero result keeps the source's sign.
inline uint8_t FloatToFp4(float v, bool e1m2, Fp4Round mode) noexcept {
  if (std::isnan(v)) return 0;
  const uint8_t sign = std::signbit(v) ? 0x8 : 0;
  const float a = std::fabs(v);
  if (a >= Fp4ToFloat(7, e1m2)) return sign | 7;
  uint8_t lo = 0;
  while (Fp4ToFloat(static_cast<uint8_t>(lo + 1), e1m2) <= a) ++lo;
  const float below = Fp4ToFloat(lo, e1m2);
  if (a == below) return sign | lo;
  const float above = Fp4ToFloat(static_cast<uint8_t>(lo + 1), e1m2);
  const float gap_lo = a - below, gap_hi = above - a;
  bool up;  // toward the larger magnitude
  switch (mode) {
    case Fp4Round::kTrunc:
      up = false;
      break;
    case Fp4Round::kFloor:
      up = sign != 0;
      break;
    case Fp4Round::kCeil:
      up = sign == 0;
      break;
    case Fp4Round::kRound:
      up = gap_hi <= gap_lo;
      break;
    default:
      up = gap_hi < gap_lo || (gap_hi == gap_lo && (lo & 1) != 0);
      break;
  }
  return sign | static_cast<uint8_t>(up ? lo + 1 : lo);
}

}  // namespace lngrad::aicore::fp4
