// lngrad Ascend C runtime: the `bfloat16_t` type of Ascend C kernels (bfloat16: 1 sign, 8
// exponent, 7 fraction bits; the top half of a binary32), usable on the host side too, as the
// kit's samples do.
//
// Conversions from float round to nearest, ties to even (Cast's CAST_RINT); NaN stays a quiet NaN
// with its sign and top payload bits. Arithmetic happens in float and is rounded back once: for
// + - * / rounding to binary32 (24 bits) and then to bfloat16 (8 bits) equals a single rounding,
// because 24 >= 2*8 + 2.
#pragma once

#include <bit>
#include <concepts>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "half.h"

namespace lngrad::aicore::detail {

constexpr uint16_t FloatToBf16BitsRne(float f) noexcept {
  const uint32_t u = std::bit_cast<uint32_t>(f);
  if ((u & 0x7FFFFFFFu) > 0x7F800000u) return static_cast<uint16_t>((u >> 16) | 0x0040u);
  // Adding 0x7FFF plus the kept LSB rounds the magnitude to nearest even; a carry into the
  // exponent is the correct result (up to infinity).
  return static_cast<uint16_t>((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16);
}
constexpr float Bf16BitsToFloat(uint16_t b) noexcept {
  return std::bit_cast<float>(static_cast<uint32_t>(b) << 16);
}

}  // namespace lngrad::aicore::detail

// In the global namespace, as in the Ascend C headers.
struct bfloat16_t : lngrad::aicore::detail::Float16Arith<bfloat16_t> {
  uint16_t bits;  // bfloat16 storage; public so that tests and loaders can move raw bits

  bfloat16_t() = default;  // trivial, like a built-in, so that tensors of it stay POD
  constexpr bfloat16_t(float f) noexcept : bits(lngrad::aicore::detail::FloatToBf16BitsRne(f)) {}
  // Through float: double -> float -> bfloat16 can round twice; kernels convert from float.
  constexpr bfloat16_t(double d) noexcept : bfloat16_t(static_cast<float>(d)) {}
  template <std::integral I>
  constexpr bfloat16_t(I i) noexcept : bfloat16_t(static_cast<float>(i)) {}

  constexpr operator float() const noexcept {
    return lngrad::aicore::detail::Bf16BitsToFloat(bits);
  }
  constexpr float ToFloat() const noexcept { return lngrad::aicore::detail::Bf16BitsToFloat(bits); }
};
static_assert(sizeof(bfloat16_t) == 2 && alignof(bfloat16_t) == 2);
static_assert(std::is_trivially_copyable_v<bfloat16_t> &&
              std::is_trivially_default_constructible_v<bfloat16_t>);

LNGRAD_AICORE_MIXED_OPS(bfloat16_t)

template <>
class std::numeric_limits<bfloat16_t>
    : public lngrad::aicore::detail::Float16Limits<
          bfloat16_t, lngrad::aicore::detail::Float16LimitBits{8, false, 0x0080, 0xFF7F, 0x7F7F,
                                                               0x3C00, 0x7F80, 0x7FC0}> {};
