// lngrad: the 16-bit storage types of the native API, IEEE 754 binary16 (Half) and bfloat16
// (BFloat16, the top half of a binary32), with round-to-nearest-even conversions.
// Arithmetic is done in float by the callers; they only store and convert.
// C++17 and later (the native API's public headers do not require C++20).
#pragma once

#include <cstdint>
#if __cplusplus >= 202002L
#include <bit>
#endif

namespace lngrad {

namespace half_detail {
// std::bit_cast where the standard library has it; the builtin behind it (GCC >= 11,
// Clang >= 9) in C++17.
template <typename To, typename From>
constexpr To BitCast(const From& from) noexcept {
#if defined(__cpp_lib_bit_cast) && __cpp_lib_bit_cast >= 201806L
  return std::bit_cast<To>(from);
#else
  return __builtin_bit_cast(To, from);
#endif
}
}  // namespace half_detail

// Exact binary16 -> binary32 conversion (every half value, subnormals, inf, NaN payload kept).
constexpr float HalfBitsToFloat(uint16_t h) noexcept {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t exp = (h >> 10) & 0x1Fu;
  uint32_t mant = h & 0x3FFu;
  uint32_t bits = 0;
  if (exp == 0x1F) {
    bits = sign | 0x7F800000u | (mant << 13);  // inf or NaN (payload kept)
  } else if (exp != 0) {
    bits = sign | ((exp + 112u) << 23) | (mant << 13);
  } else if (mant == 0) {
    bits = sign;  // signed zero
  } else {
    // Subnormal half: normalise into a float.
    uint32_t e = 113;
    while ((mant & 0x400u) == 0) {
      mant <<= 1;
      --e;
    }
    bits = sign | (e << 23) | ((mant & 0x3FFu) << 13);
  }
  return half_detail::BitCast<float>(bits);
}

// binary32 -> binary16 with round-to-nearest, ties to even; overflow gives +-inf,
// NaN stays NaN (quiet, top payload bits kept), underflow gives subnormals or signed zero.
constexpr uint16_t FloatToHalfBits(float f) noexcept {
  const uint32_t x = half_detail::BitCast<uint32_t>(f);
  const uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
  const uint32_t abs = x & 0x7FFFFFFFu;
  if (abs >= 0x7F800000u) {  // inf or NaN
    if (abs == 0x7F800000u) return sign | 0x7C00u;
    return static_cast<uint16_t>(sign | 0x7E00u | ((abs >> 13) & 0x3FFu));
  }
  if (abs >= 0x477FF000u) return sign | 0x7C00u;  // rounds to >= 65520 -> inf
  if (abs >= 0x38800000u) {                       // normal half range
    const uint32_t mant_round = abs + 0xFFFu + ((abs >> 13) & 1u);
    return static_cast<uint16_t>(sign | ((mant_round - 0x38000000u) >> 13));
  }
  if (abs < 0x33000000u) return sign;  // below half of the smallest subnormal -> zero
  // Subnormal half: value = m * 2^-24; shift the 24-bit significand into place with RNE.
  const uint32_t e = abs >> 23;
  const uint32_t sig = (abs & 0x7FFFFFu) | 0x800000u;
  const uint32_t shift = 126u - e;  // 14..24
  const uint32_t half_ulp = 1u << (shift - 1);
  const uint32_t rem = sig & ((1u << shift) - 1u);
  uint32_t m = sig >> shift;
  if (rem > half_ulp || (rem == half_ulp && (m & 1u))) ++m;
  return static_cast<uint16_t>(sign | m);
}

// Storage type for binary16 tensors in the native API.
struct Half {
  uint16_t bits = 0;

  Half() = default;
  constexpr explicit Half(float f) noexcept : bits(FloatToHalfBits(f)) {}
  static constexpr Half FromBits(uint16_t b) noexcept {
    Half h;
    h.bits = b;
    return h;
  }
  constexpr explicit operator float() const noexcept { return HalfBitsToFloat(bits); }
  constexpr float ToFloat() const noexcept { return HalfBitsToFloat(bits); }
};
static_assert(sizeof(Half) == 2);

// Exact bfloat16 -> binary32 conversion (the 16 bits become the top of the word).
constexpr float BFloat16BitsToFloat(uint16_t b) noexcept {
  return half_detail::BitCast<float>(static_cast<uint32_t>(b) << 16);
}

// binary32 -> bfloat16 with round-to-nearest, ties to even; overflow gives +-inf (a carry into
// the exponent), subnormals round like any value, NaN stays NaN (quiet, top payload bits kept).
constexpr uint16_t FloatToBFloat16Bits(float f) noexcept {
  const uint32_t x = half_detail::BitCast<uint32_t>(f);
  if ((x & 0x7FFFFFFFu) > 0x7F800000u) return static_cast<uint16_t>((x >> 16) | 0x0040u);
  return static_cast<uint16_t>((x + 0x7FFFu + ((x >> 16) & 1u)) >> 16);
}

// Storage type for bfloat16 tensors in the native API.
struct BFloat16 {
  uint16_t bits = 0;

  BFloat16() = default;
  constexpr explicit BFloat16(float f) noexcept : bits(FloatToBFloat16Bits(f)) {}
  static constexpr BFloat16 FromBits(uint16_t b) noexcept {
    BFloat16 v;
    v.bits = b;
    return v;
  }
  constexpr explicit operator float() const noexcept { return BFloat16BitsToFloat(bits); }
  constexpr float ToFloat() const noexcept { return BFloat16BitsToFloat(bits); }
};
static_assert(sizeof(BFloat16) == 2);

}  // namespace lngrad
