// lngrad Ascend C runtime: the Ascend 950's 8-bit floating-point types and their conversions.
//
//   float8_e4m3_t (fp8_e4m3fn_t)  1 sign, 4 exponent (bias 7), 3 fraction bits; no infinity,
//                                 S.1111.111 is NaN, largest finite 448.
//   float8_e5m2_t (fp8_e5m2_t)    1 sign, 5 exponent (bias 15), 2 fraction bits; IEEE-like with
//                                 infinities and NaNs, largest finite 57344.
//   hifloat8_t                    HiFloat8: a sign, a prefix-coded "dot" field giving the width of
//                                 the exponent, a sign-magnitude exponent whose top magnitude bit
//                                 is implicit, and 1 to 3 fraction bits (below).
//
// HiFloat8 (bits 7..0; the reference's Cast page and the data-type overview):
//   D = bits 6..5 = 11: exponent 4 bits, fraction 1 bit   |E| in [8, 15]
//   D = 10:             exponent 3 bits, fraction 2 bits  |E| in [4, 7]
//   D = 01:             exponent 2 bits, fraction 3 bits  |E| in [2, 3]
//   D = 001 (6..4):     exponent 1 bit,  fraction 3 bits  |E| = 1
//   D = 0001 (6..3):    no exponent,     fraction 3 bits  E = 0
//   D = 0000:           denormal: bits 2..0 = m in 1..7 is 2^(m - 23)
// An exponent field's top bit is the exponent's sign (1: negative); its other bits are the
// magnitude less its implicit top bit (2^(w-1)). Specials: 0x00 is zero (there is no -0),
// 0x80 NaN, 0x6F +inf and 0xEF -inf (the codes of +-1.5 * 2^15); the largest finite value is
// 0x6E = 2^15. Every value is exact in float and in half.
//
// Conversions to HiFloat8 (the Cast page's pseudo-code, float and half sources) round at the
// fraction width of the value's exponent band: CAST_ROUND (the _rna forms) half away from zero;
// CAST_HYBRID (_rh) compares the discarded bits with a threshold taken from the source's own low
// bits (float: its bits 13..0 against the 14 discarded bits below the kept ones; half: {bit 0, 1}
// against the 2 discarded bits), rounding up when they are not below it, except in the 3-bit
// bands (|E| <= 3), which round half away in both modes. Magnitudes below 2^-23 give 0, an
// exponent above 15 or a rounded code of 0x6F/0xEF gives infinity; saturation turns infinity
// into +-2^15 and NaN into 0. [inference] A half subnormal source is taken at its value
// (normalised), where the pseudo-code reads its exponent field as if it were normal.
//
// Conversions to float8_e4m3_t / float8_e5m2_t round to nearest even (CAST_RINT, the only mode
// the 950 offers for them). Overflow (a rounded magnitude above the largest finite value):
// e4m3 NaN, e5m2 infinity; saturation gives the largest finite value instead and turns NaN into
// +0; infinities follow overflow.
//
// Decoding is exact. Pure functions, usable on the host and in kernels alike.
#pragma once

#include <bit>
#include <cstdint>

namespace lngrad::aicore::fp8 {

inline constexpr uint8_t kHif8Nan = 0x80;
inline constexpr uint8_t kHif8Inf = 0x6F;  // | 0x80 for -inf
inline constexpr uint8_t kHif8Max = 0x6E;  // 2^15

enum class Hif8Round : uint8_t { kRound, kHybrid };  // CAST_ROUND (_rna), CAST_HYBRID (_rh)

// 2^e as a float, for e in [-149, 127].
constexpr float Pow2(int e) noexcept {
  if (e >= -126) return std::bit_cast<float>(static_cast<uint32_t>(e + 127) << 23);
  return std::bit_cast<float>(uint32_t{1} << (e + 149));
}

constexpr float Hif8ToFloat(uint8_t code) noexcept {
  const bool negative = (code & 0x80u) != 0;
  const uint32_t magnitude = code & 0x7Fu;
  if (code == 0x00) return 0.0f;
  if (code == kHif8Nan) return std::bit_cast<float>(0x7FC00000u);
  if (magnitude == kHif8Inf) return std::bit_cast<float>(negative ? 0xFF800000u : 0x7F800000u);
  int exponent_bits, fraction_bits;
  if ((magnitude >> 5) == 3) {
    exponent_bits = 4, fraction_bits = 1;
  } else if ((magnitude >> 5) == 2) {
    exponent_bits = 3, fraction_bits = 2;
  } else if ((magnitude >> 5) == 1) {
    exponent_bits = 2, fraction_bits = 3;
  } else if ((magnitude >> 4) == 1) {
    exponent_bits = 1, fraction_bits = 3;
  } else if ((magnitude >> 3) == 1) {
    exponent_bits = 0, fraction_bits = 3;
  } else {  // denormal: 2^(m - 23)
    const float v = Pow2(static_cast<int>(magnitude & 7u) - 23);
    return negative ? -v : v;
  }
  int exponent = 0;
  if (exponent_bits > 0) {
    const uint32_t field = (magnitude >> fraction_bits) & ((1u << exponent_bits) - 1u);
    const uint32_t sign_bit = 1u << (exponent_bits - 1);
    exponent = static_cast<int>((field & (sign_bit - 1u)) | sign_bit);
    if ((field & sign_bit) != 0) exponent = -exponent;
  }
  const uint32_t fraction = magnitude & ((1u << fraction_bits) - 1u);
  const float v = Pow2(exponent) * (1.0f + static_cast<float>(fraction) / (1u << fraction_bits));
  return negative ? -v : v;
}

// An IEEE-style 8-bit format: exponent bias, fraction bits, whether the top exponent is
// infinity/NaN (e5m2) or only S.1111.111 is NaN (e4m3fn).
struct MiniFormat {
  int bias;
  int fraction_bits;
  bool ieee_specials;
  uint8_t max_finite;  // magnitude code
  uint8_t nan;         // magnitude code of the NaN produced
};
inline constexpr MiniFormat kE4m3{7, 3, false, 0x7E, 0x7F};
inline constexpr MiniFormat kE5m2{15, 2, true, 0x7B, 0x7E};

constexpr float MiniToFloat(uint8_t code, MiniFormat f) noexcept {
  const bool negative = (code & 0x80u) != 0;
  const uint32_t magnitude = code & 0x7Fu;
  const uint32_t exponent_field = magnitude >> f.fraction_bits;
  const uint32_t fraction = magnitude & ((1u << f.fraction_bits) - 1u);
  const uint32_t top = (1u << (7 - f.fraction_bits)) - 1u;
  float v;
  if (f.ieee_specials && exponent_field == top) {
    v = fraction == 0 ? std::bit_cast<float>(0x7F800000u) : std::bit_cast<float>(0x7FC00000u);
  } else if (!f.ieee_specials && magnitude == 0x7Fu) {
    v = std::bit_cast<float>(0x7FC00000u);
  } else if (exponent_field == 0) {
    v = Pow2(1 - f.bias - f.fraction_bits) * static_cast<float>(fraction);
  } else {
    v = Pow2(static_cast<int>(exponent_field) - f.bias) *
        (1.0f + static_cast<float>(fraction) / (1u << f.fraction_bits));
  }
  return negative ? -v : v;
}
constexpr float E4m3ToFloat(uint8_t code) noexcept { return MiniToFloat(code, kE4m3); }
constexpr float E5m2ToFloat(uint8_t code) noexcept { return MiniToFloat(code, kE5m2); }

// A finite non-zero source value: (-1)^negative * 1.fraction * 2^exponent, the fraction bits
// left-aligned in 32 bits.
struct Unpacked {
  bool negative;
  int exponent;
  uint32_t fraction;
};

// HiFloat8 from an unpacked value. `hybrid_bits` discarded bits (counted from the first one
// below the kept fraction) are compared with `threshold` in CAST_HYBRID.
constexpr uint8_t EncodeHif8(Unpacked v, Hif8Round mode, bool saturate, int hybrid_bits,
                             uint32_t threshold) noexcept {
  const uint8_t sign = v.negative ? 0x80 : 0x00;
  const auto infinity = [&] {
    return static_cast<uint8_t>(sign | (saturate ? kHif8Max : kHif8Inf));
  };
  if (v.exponent > 15) return infinity();
  if (v.exponent < -23) return 0x00;
  // The discarded part, left-aligned: below 2^-22 the whole value 0.1fraction (in units of the
  // smallest denormal) is discarded; a denormal band keeps the leading one only.
  int kept;
  uint64_t discarded;  // left-aligned in 64 bits
  if (v.exponent == -23) {
    kept = 0;
    discarded = (uint64_t{1} << 63) | (uint64_t{v.fraction} << 31);
  } else {
    const int e = v.exponent < 0 ? -v.exponent : v.exponent;
    kept = v.exponent <= -16 ? 0 : e <= 3 ? 3 : e <= 7 ? 2 : 1;
    discarded = uint64_t{v.fraction} << (32 + kept);
  }
  uint32_t fraction = kept == 0 ? 0 : v.fraction >> (32 - kept);
  int exponent = v.exponent;
  const bool half_or_more = (discarded >> 63) != 0;
  const bool three_bit_band = v.exponent >= -3 && v.exponent <= 3;
  bool up = half_or_more;
  if (mode == Hif8Round::kHybrid && !three_bit_band) {
    up = (discarded >> (64 - hybrid_bits)) >= threshold;
  }
  if (v.exponent == -23) {
    if (!up) return 0x00;
    return static_cast<uint8_t>(sign | 0x01);
  }
  if (up) {
    if (++fraction == (1u << kept)) fraction = 0, ++exponent;
  }
  if (exponent > 15) return infinity();
  uint32_t magnitude;
  if (exponent <= -16) {
    magnitude = static_cast<uint32_t>(exponent + 23);  // denormal 1..7
  } else {
    const int e = exponent < 0 ? -exponent : exponent;
    const uint32_t neg = exponent < 0 ? 1u : 0u;
    if (e == 0) {
      magnitude = (1u << 3) | fraction;
    } else if (e == 1) {
      magnitude = (1u << 4) | (neg << 3) | fraction;
    } else if (e <= 3) {
      magnitude = (1u << 5) | (neg << 4) | (static_cast<uint32_t>(e - 2) << 3) | fraction;
    } else if (e <= 7) {
      magnitude = (2u << 5) | (neg << 4) | (static_cast<uint32_t>(e - 4) << 2) | fraction;
    } else {
      magnitude = (3u << 5) | (neg << 4) | (static_cast<uint32_t>(e - 8) << 1) | fraction;
    }
  }
  if (magnitude == kHif8Inf) return infinity();  // +-1.5 * 2^15 is the infinity code
  return static_cast<uint8_t>(sign | magnitude);
}

constexpr uint8_t FloatToHif8(float x, Hif8Round mode, bool saturate) noexcept {
  const uint32_t u = std::bit_cast<uint32_t>(x);
  const bool negative = (u >> 31) != 0;
  const uint32_t exponent_field = (u >> 23) & 0xFFu;
  const uint32_t mantissa = u & 0x7FFFFFu;
  if (exponent_field == 0xFF) {
    if (mantissa != 0) return saturate ? 0x00 : kHif8Nan;
    return static_cast<uint8_t>((negative ? 0x80 : 0x00) | (saturate ? kHif8Max : kHif8Inf));
  }
  if (exponent_field == 0) return 0x00;  // zero and float subnormals (below 2^-126)
  return EncodeHif8({negative, static_cast<int>(exponent_field) - 127, mantissa << 9}, mode,
                    saturate, 14, u & 0x3FFFu);
}

constexpr uint8_t HalfToHif8(uint16_t h, Hif8Round mode, bool saturate) noexcept {
  const bool negative = (h >> 15) != 0;
  const uint32_t exponent_field = (h >> 10) & 0x1Fu;
  uint32_t mantissa = h & 0x3FFu;
  if (exponent_field == 0x1F) {
    if (mantissa != 0) return saturate ? 0x00 : kHif8Nan;
    return static_cast<uint8_t>((negative ? 0x80 : 0x00) | (saturate ? kHif8Max : kHif8Inf));
  }
  int exponent = static_cast<int>(exponent_field) - 15;
  if (exponent_field == 0) {
    if (mantissa == 0) return 0x00;
    exponent = -14;  // normalise the subnormal
    while ((mantissa & 0x400u) == 0) mantissa <<= 1, --exponent;
    mantissa &= 0x3FFu;
  }
  return EncodeHif8({negative, exponent, mantissa << 22}, mode, saturate, 2, ((h & 1u) << 1) | 1u);
}

// float -> float8_e4m3_t / float8_e5m2_t, round to nearest even.
constexpr uint8_t FloatToMini(float x, MiniFormat f, bool saturate) noexcept {
  const uint32_t u = std::bit_cast<uint32_t>(x);
  const uint8_t sign = (u >> 31) != 0 ? 0x80 : 0x00;
  const uint32_t exponent_field = (u >> 23) & 0xFFu;
  const uint32_t mantissa = u & 0x7FFFFFu;
  const auto overflow = [&] {
    if (saturate) return static_cast<uint8_t>(sign | f.max_finite);
    if (f.ieee_specials) return static_cast<uint8_t>(sign | (f.max_finite + 1));  // infinity
    return static_cast<uint8_t>(sign | f.nan);
  };
  if (exponent_field == 0xFF) {
    if (mantissa != 0) return saturate ? 0x00 : static_cast<uint8_t>(sign | f.nan);
    return overflow();
  }
  if (exponent_field == 0) return sign;  // zero and float subnormals round to +-0
  // significand * 2^(exponent - 23), significand with its leading one.
  const uint32_t significand = mantissa | 0x800000u;
  const int exponent = static_cast<int>(exponent_field) - 127;
  const int min_exponent = 1 - f.bias;
  // The result's quantum: 2^(max(exponent, min_exponent) - fraction_bits).
  const int quantum = (exponent > min_exponent ? exponent : min_exponent) - f.fraction_bits;
  const int shift = quantum - (exponent - 23);  // >= 23 - fraction_bits > 0
  uint32_t q;
  if (shift > 25) {
    q = 0;  // below half the smallest denormal
  } else {
    q = significand >> shift;
    const uint32_t rest = significand & ((1u << shift) - 1u);
    const uint32_t halfway = 1u << (shift - 1);
    if (rest > halfway || (rest == halfway && (q & 1u) != 0)) ++q;
  }
  // q * 2^quantum; q < 2^(fraction_bits + 1) unless rounding carried into the next binade.
  int e = quantum + f.fraction_bits;  // the exponent of a q with its leading one at bit fb
  if (q >= (2u << f.fraction_bits)) q >>= 1, ++e;  // q was exactly 2^(fb+1): still exact
  uint32_t magnitude;
  if (q < (1u << f.fraction_bits)) {
    magnitude = q;  // denormal (or zero)
  } else {
    const int field = e + f.bias;
    if (field > ((1 << (7 - f.fraction_bits)) - 1)) return overflow();
    magnitude =
        (static_cast<uint32_t>(field) << f.fraction_bits) | (q & ((1u << f.fraction_bits) - 1u));
  }
  if (magnitude > f.max_finite) return overflow();
  return static_cast<uint8_t>(sign | magnitude);
}
constexpr uint8_t FloatToE4m3(float x, bool saturate) noexcept {
  return FloatToMini(x, kE4m3, saturate);
}
constexpr uint8_t FloatToE5m2(float x, bool saturate) noexcept {
  return FloatToMini(x, kE5m2, saturate);
}

}  // namespace lngrad::aicore::fp8

// The types, in the global namespace as the device compiler's built-ins. Storage only: a
// conversion from float rounds as the type's default (hifloat8_t CAST_ROUND, the others
// CAST_RINT; no saturation); arithmetic happens after the conversion to float.
#define LNGRAD_AICORE_FP8_TYPE(name, encode, decode)                                        \
  struct name {                                                                             \
    uint8_t bits;                                                                           \
    name() = default;                                                                       \
    constexpr name(float f) noexcept : bits(encode) {}                                      \
    constexpr operator float() const noexcept { return lngrad::aicore::fp8::decode(bits); } \
    static constexpr name FromBits(uint8_t b) noexcept {                                    \
      name v;                                                                               \
      v.bits = b;                                                                           \
      return v;                                                                             \
    }                                                                                       \
  };                                                                                        \
  static_assert(sizeof(name) == 1);
LNGRAD_AICORE_FP8_TYPE(hifloat8_t,
                       lngrad::aicore::fp8::FloatToHif8(f, lngrad::aicore::fp8::Hif8Round::kRound,
                                                        false),
                       Hif8ToFloat)
LNGRAD_AICORE_FP8_TYPE(float8_e4m3_t, lngrad::aicore::fp8::FloatToE4m3(f, false), E4m3ToFloat)
LNGRAD_AICORE_FP8_TYPE(float8_e5m2_t, lngrad::aicore::fp8::FloatToE5m2(f, false), E5m2ToFloat)
#undef LNGRAD_AICORE_FP8_TYPE
using fp8_e4m3fn_t = float8_e4m3_t;
using fp8_e5m2_t = float8_e5m2_t;
