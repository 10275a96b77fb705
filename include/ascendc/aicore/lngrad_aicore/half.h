// lngrad Ascend C runtime: the `half` type of Ascend C kernels (IEEE 754 binary16).
//
// Storage is binary16; every conversion from float rounds to nearest, ties to even (the device's
// default, CAST_NONE/CAST_RINT). Arithmetic happens in float and the result is rounded back to
// half, so `half a = b * c` gives the correctly rounded binary16 product: for + - * / and sqrt,
// rounding first to binary32 (24 bits) and then to binary16 (11 bits) equals a single rounding
// because 24 >= 2*11 + 2.
#pragma once

#include <bit>
#include <concepts>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "float16.h"
#include "lngrad/half.h"

namespace lngrad::aicore::detail {

// binary64 -> binary16 with a single RNE rounding. A plain double->float->half chain can round
// twice; rounding to float "to odd" first keeps the final RNE step exact (float has >= 2 spare
// bits over half).
constexpr uint16_t DoubleToHalfBits(double d) noexcept {
  float f = static_cast<float>(d);
  uint32_t bits = std::bit_cast<uint32_t>(f);
  const bool finite = (bits & 0x7F800000u) != 0x7F800000u;
  if (finite && static_cast<double>(f) != d && (bits & 1u) == 0) {
    // f was rounded to an even neighbour; step to the odd neighbour on d's side. (f == 0 with
    // d != 0 cannot happen for |d| anywhere near the half range, and FloatToHalfBits flushes
    // such tiny values to zero either way.)
    const double abs_d = d < 0 ? -d : d;
    const double abs_f = f < 0 ? -static_cast<double>(f) : static_cast<double>(f);
    bits = abs_d > abs_f ? bits + 1 : bits - 1;
    f = std::bit_cast<float>(bits);
  }
  return FloatToHalfBits(f);
}

}  // namespace lngrad::aicore::detail

// `half` lives in the global namespace, as in the Ascend C headers.
struct half : lngrad::aicore::detail::Float16Arith<half> {
  uint16_t bits;  // binary16 storage; public so that tests and loaders can move raw bits

  half() = default;  // trivial: uninitialised like a built-in, so tensors of half stay POD
  constexpr half(float f) noexcept : bits(lngrad::FloatToHalfBits(f)) {}
  constexpr half(double d) noexcept : bits(lngrad::aicore::detail::DoubleToHalfBits(d)) {}
  template <std::integral I>
  constexpr half(I i) noexcept
      : bits(lngrad::aicore::detail::DoubleToHalfBits(static_cast<double>(i))) {}
  constexpr half(lngrad::Half h) noexcept : bits(h.bits) {}

  constexpr operator float() const noexcept { return lngrad::HalfBitsToFloat(bits); }
  constexpr float ToFloat() const noexcept { return lngrad::HalfBitsToFloat(bits); }
  constexpr lngrad::Half ToLngrad() const noexcept { return lngrad::Half::FromBits(bits); }
};
static_assert(sizeof(half) == 2 && alignof(half) == 2);
static_assert(std::is_trivially_copyable_v<half> &&
              std::is_trivially_default_constructible_v<half>);

// Mixed half/arithmetic operands promote half to float (or to double with a double operand),
// like any other narrower floating type; the exact match here avoids ambiguity with the
// built-in operators reached through the implicit conversions.
namespace lngrad::aicore::detail {
template <typename U>
concept HalfPeer = std::is_arithmetic_v<U> && !std::is_same_v<U, bool>;
template <typename U>
using HalfPromoted =
    std::conditional_t<std::is_same_v<U, double> || std::is_same_v<U, long double>, U, float>;
}  // namespace lngrad::aicore::detail

// Shared with bfloat16_t (bfloat16.h), hence the type parameter; not undefined for that reason.
#define LNGRAD_AICORE_MIXED_OP(T, op)                     \
  template <lngrad::aicore::detail::HalfPeer U>           \
  constexpr auto operator op(T a, U b) noexcept {         \
    using P = lngrad::aicore::detail::HalfPromoted<U>;    \
    return static_cast<P>(float(a)) op static_cast<P>(b); \
  }                                                       \
  template <lngrad::aicore::detail::HalfPeer U>           \
  constexpr auto operator op(U a, T b) noexcept {         \
    using P = lngrad::aicore::detail::HalfPromoted<U>;    \
    return static_cast<P>(a) op static_cast<P>(float(b)); \
  }
#define LNGRAD_AICORE_MIXED_OPS(T) \
  LNGRAD_AICORE_MIXED_OP(T, +)     \
  LNGRAD_AICORE_MIXED_OP(T, -)     \
  LNGRAD_AICORE_MIXED_OP(T, *)     \
  LNGRAD_AICORE_MIXED_OP(T, /)     \
  LNGRAD_AICORE_MIXED_OP(T, ==)    \
  LNGRAD_AICORE_MIXED_OP(T, !=)    \
  LNGRAD_AICORE_MIXED_OP(T, <)     \
  LNGRAD_AICORE_MIXED_OP(T, <=)    \
  LNGRAD_AICORE_MIXED_OP(T, >)     \
  LNGRAD_AICORE_MIXED_OP(T, >=)
LNGRAD_AICORE_MIXED_OPS(half)

template <>
class std::numeric_limits<half>
    : public lngrad::aicore::detail::Float16Limits<half, lngrad::aicore::detail::Float16LimitBits{
                                                             11, true, 0x0400, 0xFBFF, 0x7BFF,
                                                             0x1400, 0x7C00, 0x7E00}> {};
