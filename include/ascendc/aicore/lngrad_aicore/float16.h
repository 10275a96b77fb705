// lngrad Ascend C runtime: what `half` (half.h) and `bfloat16_t` (bfloat16.h) share, two 16-bit
// floating types stored as raw bits: arithmetic and comparisons in float with the result rounded
// back once through the type's own conversion, the sign flip, FromBits, and the
// std::numeric_limits members both types define.
#pragma once

#include <cstdint>

namespace lngrad::aicore::detail {

// Base of T (half or bfloat16_t): T has a public `uint16_t bits`, a conversion to float and a
// constructor from float. Hidden friends, found through T by argument-dependent lookup.
template <typename T>
struct Float16Arith {
  static constexpr T FromBits(uint16_t b) noexcept {
    T h;
    h.bits = b;
    return h;
  }

  // T (op) T -> T, rounded once (half.h's header comment says why that is the correct rounding).
  friend constexpr T operator+(T a, T b) noexcept { return T(float(a) + float(b)); }
  friend constexpr T operator-(T a, T b) noexcept { return T(float(a) - float(b)); }
  friend constexpr T operator*(T a, T b) noexcept { return T(float(a) * float(b)); }
  friend constexpr T operator/(T a, T b) noexcept { return T(float(a) / float(b)); }
  friend constexpr T& operator+=(T& a, T b) noexcept { return a = a + b; }
  friend constexpr T& operator-=(T& a, T b) noexcept { return a = a - b; }
  friend constexpr T& operator*=(T& a, T b) noexcept { return a = a * b; }
  friend constexpr T& operator/=(T& a, T b) noexcept { return a = a / b; }
  friend constexpr T operator-(T a) noexcept {
    return FromBits(static_cast<uint16_t>(a.bits ^ 0x8000u));
  }
  friend constexpr T operator+(T a) noexcept { return a; }
  friend constexpr bool operator==(T a, T b) noexcept { return float(a) == float(b); }
  friend constexpr bool operator!=(T a, T b) noexcept { return float(a) != float(b); }
  friend constexpr bool operator<(T a, T b) noexcept { return float(a) < float(b); }
  friend constexpr bool operator<=(T a, T b) noexcept { return float(a) <= float(b); }
  friend constexpr bool operator>(T a, T b) noexcept { return float(a) > float(b); }
  friend constexpr bool operator>=(T a, T b) noexcept { return float(a) >= float(b); }
};

// The bit patterns of a 16-bit floating type's limits (denorm_min is 0x0001 for both).
struct Float16LimitBits {
  int digits;
  bool is_iec559;
  uint16_t min, lowest, max, epsilon, infinity, quiet_nan;
};

// Base of std::numeric_limits<T> for T = half, bfloat16_t.
template <typename T, Float16LimitBits kBits>
struct Float16Limits {
  static constexpr bool is_specialized = true;
  static constexpr bool is_signed = true;
  static constexpr bool is_integer = false;
  static constexpr bool is_exact = false;
  static constexpr bool has_infinity = true;
  static constexpr bool has_quiet_NaN = true;
  static constexpr bool is_iec559 = kBits.is_iec559;
  static constexpr int digits = kBits.digits;
  static constexpr int radix = 2;
  static constexpr T min() noexcept { return T::FromBits(kBits.min); }
  static constexpr T lowest() noexcept { return T::FromBits(kBits.lowest); }
  static constexpr T max() noexcept { return T::FromBits(kBits.max); }
  static constexpr T epsilon() noexcept { return T::FromBits(kBits.epsilon); }
  static constexpr T infinity() noexcept { return T::FromBits(kBits.infinity); }
  static constexpr T quiet_NaN() noexcept { return T::FromBits(kBits.quiet_nan); }
  static constexpr T denorm_min() noexcept { return T::FromBits(0x0001); }
};

}  // namespace lngrad::aicore::detail
