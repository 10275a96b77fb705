// lngrad SIMT runtime: the rounding core of the SIMT math library. Every conversion between
// float, half, bfloat16_t and the 32/64-bit integers, in every rounding mode of the API
// (_rn/_rz/_rd/_ru/_rna/_ro, with or without _sat), goes through the two functions here:
// EncodeFloat (an exact value mag * 2^exp rounded once into a binary floating-point format) and
// ToInteger (a float rounded to an integral value, then clamped to the integer type).
//
// Pure functions: no runtime calls, usable inside a SIMT thread and in plain host code.
#pragma once

#include <bit>
#include <cmath>
#include <concepts>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "lngrad_aicore/bfloat16.h"
#include "lngrad_aicore/half.h"

namespace lngrad::simt::math {

// The rounding modes of the API: _rn CAST_RINT (nearest, ties to even), _rz CAST_TRUNC, _rd
// CAST_FLOOR, _ru CAST_CEIL, _rna CAST_ROUND (nearest, ties away from zero), _ro CAST_ODD.
enum class Round { kRn, kRz, kRd, kRu, kRna, kRo };

// A binary floating-point format: exponent and stored fraction bits.
struct FpFormat {
  int exp_bits;
  int frac_bits;
};

template <typename T>
struct FpTraits;
template <>
struct FpTraits<float> {
  static constexpr FpFormat kFormat{8, 23};
  using Bits = uint32_t;
  static constexpr float FromBits(uint32_t b) noexcept { return std::bit_cast<float>(b); }
  static constexpr uint32_t ToBits(float f) noexcept { return std::bit_cast<uint32_t>(f); }
};
// half and bfloat16_t: 16-bit storage in their `bits` member.
template <typename T, int kExpBits, int kFracBits>
struct Fp16Traits {
  static constexpr FpFormat kFormat{kExpBits, kFracBits};
  using Bits = uint16_t;
  static constexpr T FromBits(uint32_t b) noexcept {
    T h{};
    h.bits = static_cast<uint16_t>(b);
    return h;
  }
  static constexpr uint32_t ToBits(T h) noexcept { return h.bits; }
};
template <>
struct FpTraits<half> : Fp16Traits<half, 5, 10> {};
template <>
struct FpTraits<bfloat16_t> : Fp16Traits<bfloat16_t, 8, 7> {};

template <typename T>
concept Fp16 = std::same_as<T, half> || std::same_as<T, bfloat16_t>;

namespace detail {

constexpr uint32_t InfBits(FpFormat f) noexcept { return ((1u << f.exp_bits) - 1u) << f.frac_bits; }
constexpr uint32_t SignBit(FpFormat f) noexcept { return 1u << (f.exp_bits + f.frac_bits); }

// Whether rounding the magnitude q (the kept bits) away from zero is due, given the first
// dropped bit, whether any lower bit is set, the sign and the mode. kRo is handled by the caller.
constexpr bool RoundUp(uint64_t q, bool round_bit, bool sticky, bool neg, Round mode) noexcept {
  const bool inexact = round_bit || sticky;
  switch (mode) {
    case Round::kRn:
      return round_bit && (sticky || (q & 1u) != 0);
    case Round::kRna:
      return round_bit;
    case Round::kRu:
      return inexact && !neg;
    case Round::kRd:
      return inexact && neg;
    default:
      return false;
  }
}

// The magnitude bits of an overflowing result: infinity, or the largest finite value where the
// mode rounds towards zero (rz, and rd/ru on the side they do not point to) or saturates.
constexpr uint32_t OverflowBits(FpFormat f, bool neg, Round mode, bool sat) noexcept {
  const uint32_t max_finite = InfBits(f) - 1u;
  if (sat || mode == Round::kRz) return max_finite;
  if ((mode == Round::kRu && neg) || (mode == Round::kRd && !neg)) return max_finite;
  return InfBits(f);
}

// mag >> drop with the first dropped bit and the OR of the others; drop >= 1.
struct Shifted {
  uint64_t q;
  bool round_bit;
  bool sticky;
};
constexpr Shifted ShiftRight(uint64_t mag, int drop) noexcept {
  if (drop > 64) return {0, false, mag != 0};
  if (drop == 64) return {0, (mag >> 63) != 0, (mag << 1) != 0};
  const uint64_t below = mag & ((uint64_t{1} << (drop - 1)) - 1u);
  return {mag >> drop, ((mag >> (drop - 1)) & 1u) != 0, below != 0};
}

}  // namespace detail

// The bits of (-1)^neg * mag * 2^exp rounded once into format f (IEEE subnormals, no flushing).
// Overflow gives infinity or the largest finite value as the mode says (CAST_ODD: the largest
// finite value while the value rounded to odd with an unbounded exponent is still below 2^(emax+1),
// infinity beyond); sat clamps every overflow to the largest finite value.
constexpr uint32_t EncodeFloat(FpFormat f, bool neg, uint64_t mag, int exp, Round mode,
                               bool sat = false) noexcept {
  const uint32_t sign = neg ? detail::SignBit(f) : 0u;
  if (mag == 0) return sign;
  const int lead = static_cast<int>(std::bit_width(mag)) - 1;  // value = 1.xxx * 2^(exp + lead)
  const int bias = (1 << (f.exp_bits - 1)) - 1;
  const int emin = 1 - bias;
  const int top = exp + lead;
  const int lsb_exp = (top > emin ? top : emin) - f.frac_bits;
  int64_t q = 0;
  const int drop = lsb_exp - exp;
  if (drop <= 0) {
    q = static_cast<int64_t>(mag << -drop);  // exact: at most frac_bits + 1 bits
  } else {
    const detail::Shifted s = detail::ShiftRight(mag, drop);
    q = static_cast<int64_t>(s.q);
    if (mode == Round::kRo) {
      if (s.round_bit || s.sticky) q |= 1;
    } else if (detail::RoundUp(s.q, s.round_bit, s.sticky, neg, mode)) {
      ++q;
    }
  }
  // Normal and subnormal results alike: the biased exponent field of the lsb plus the
  // significand (a carry out of the significand bumps the exponent, up to infinity).
  const int64_t bits = (static_cast<int64_t>(lsb_exp + f.frac_bits + bias - 1) << f.frac_bits) + q;
  if (bits >= static_cast<int64_t>(detail::InfBits(f))) {
    return sign | detail::OverflowBits(f, neg, mode, sat);
  }
  return sign | static_cast<uint32_t>(bits);
}

// A double (every float, half and bfloat16 value widens to it exactly) -> format `To`, rounded
// once. NaN gives a quiet NaN keeping the sign and the top payload bits (0 with sat); infinity
// stays infinity (the largest finite value with sat).
template <typename To>
constexpr To DoubleToFp(double x, Round mode, bool sat = false) noexcept {
  constexpr FpFormat kF = FpTraits<To>::kFormat;
  const uint64_t u = std::bit_cast<uint64_t>(x);
  const bool neg = (u >> 63) != 0;
  const uint32_t sign = neg ? detail::SignBit(kF) : 0u;
  const uint64_t abs = u & 0x7FFFFFFFFFFFFFFFu;
  constexpr uint64_t kInf = 0x7FF0000000000000u;
  constexpr uint64_t kFrac = 0xFFFFFFFFFFFFFu;
  if (abs > kInf) {
    if (sat) return FpTraits<To>::FromBits(0);
    const uint32_t payload = static_cast<uint32_t>((abs & kFrac) >> (52 - kF.frac_bits));
    const uint32_t quiet = 1u << (kF.frac_bits - 1);
    return FpTraits<To>::FromBits(sign | detail::InfBits(kF) | quiet | payload);
  }
  if (abs == kInf) {
    return FpTraits<To>::FromBits(sign | (sat ? detail::InfBits(kF) - 1u : detail::InfBits(kF)));
  }
  const uint64_t field = abs >> 52;
  const uint64_t mag = field == 0 ? (abs & kFrac) : ((abs & kFrac) | (kFrac + 1u));
  const int exp = (field == 0 ? 1 : static_cast<int>(field)) - 1023 - 52;
  return FpTraits<To>::FromBits(EncodeFloat(kF, neg, mag, exp, mode, sat));
}
template <typename To>
constexpr To FloatToFp(float x, Round mode, bool sat = false) noexcept {
  return DoubleToFp<To>(static_cast<double>(x), mode, sat);
}

// An integer -> format `To`, rounded once (sat: an overflow gives the largest finite value).
template <typename To, std::integral I>
constexpr To IntToFp(I x, Round mode, bool sat = false) noexcept {
  const bool neg = x < 0;
  const auto ux = static_cast<uint64_t>(x);  // sign-extended modulo 2^64
  const uint64_t mag = neg ? uint64_t{0} - ux : ux;
  return FpTraits<To>::FromBits(EncodeFloat(FpTraits<To>::kFormat, neg, mag, 0, mode, sat));
}

// x rounded to an integral value (in double: every float, half and bfloat16 value is exact
// there and so is the result). NaN and infinities pass through.
inline double RoundIntegral(double x, Round mode) noexcept {
  if (!(std::fabs(x) < 4503599627370496.0)) return x;  // NaN, inf, or already integral
  double r = std::trunc(x);
  const double frac = x - r;  // exact
  const double afrac = std::fabs(frac);
  const double away = x < 0 ? r - 1.0 : r + 1.0;
  switch (mode) {
    case Round::kRd:
      r = frac < 0 ? r - 1.0 : r;
      break;
    case Round::kRu:
      r = frac > 0 ? r + 1.0 : r;
      break;
    case Round::kRna:
      r = afrac >= 0.5 ? away : r;
      break;
    case Round::kRn:
      r = (afrac > 0.5 || (afrac == 0.5 && std::fmod(r, 2.0) != 0.0)) ? away : r;
      break;
    default:
      break;
  }
  return r == 0 ? std::copysign(0.0, x) : r;
}

// A floating-point value -> integer type I in a mode: NaN gives 0; values beyond I's range
// (infinities included) give I's minimum or maximum.
template <std::integral I>
inline I ToInteger(double x, Round mode) noexcept {
  if (std::isnan(x)) return 0;
  const double r = RoundIntegral(x, mode);
  // Both limits as doubles: the lowest is a power of two (or 0), max + 1 too.
  constexpr double kLow = static_cast<double>(std::numeric_limits<I>::lowest());
  constexpr double kHighExclusive =
      static_cast<double>(std::numeric_limits<I>::max() / 2 + 1) * 2.0;
  if (r < kLow) return std::numeric_limits<I>::lowest();
  if (r >= kHighExclusive) return std::numeric_limits<I>::max();
  return static_cast<I>(r);
}

// A 16-bit or 32-bit float rounded to an integral value of its own type (__float2float_rn,
// __half2half_rz, ...): exact, NaN quiet and unchanged, -0 kept.
template <typename T>
inline T RoundToIntegral(T x, Round mode) noexcept {
  const double r = RoundIntegral(static_cast<double>(static_cast<float>(x)), mode);
  if (std::isnan(r)) return x;
  return FloatToFp<T>(static_cast<float>(r), Round::kRn);
}

// The value of a 16-bit or 32-bit float as float (exact).
template <typename T>
constexpr float Widen(T x) noexcept {
  return static_cast<float>(x);
}

}  // namespace lngrad::simt::math
