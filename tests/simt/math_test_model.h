// Scalar models of the SIMT maths for the tests in this folder, written from the reference's
// description of the rounding modes (an independent reading: the value is placed between the
// two neighbouring representable values found by a search over the format's bit patterns, and
// the mode picks one), not from lngrad_simt/math_round.h's bit arithmetic.
#pragma once

#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

namespace simt_math_test {

static_assert(LDBL_MANT_DIG >= 64, "the models need a 64-bit long double significand");

// The rounding modes, named as the API's (the X-macro tables pass these enumerator names).
enum class Mode { kRn, kRz, kRd, kRu, kRna, kRo };

struct Format {
  int exp_bits;
  int frac_bits;
  uint32_t InfBits() const { return ((1u << exp_bits) - 1u) << frac_bits; }
  uint32_t SignBit() const { return 1u << (exp_bits + frac_bits); }
};
inline constexpr Format kFloatF{8, 23};
inline constexpr Format kHalfF{5, 10};
inline constexpr Format kBf16F{8, 7};

// The value of the non-negative bit pattern b (up to the infinity pattern, which reads as
// 2^(emax+1): the first value that no longer fits).
inline long double Value(Format f, uint32_t b) {
  const int bias = (1 << (f.exp_bits - 1)) - 1;
  const uint32_t field = b >> f.frac_bits;
  const uint32_t m = b & ((1u << f.frac_bits) - 1u);
  if (field == 0) return std::ldexp(static_cast<long double>(m), 1 - bias - f.frac_bits);
  return std::ldexp(static_cast<long double>(m + (1u << f.frac_bits)),
                    static_cast<int>(field) - bias - f.frac_bits);
}

// The pick between the neighbours lo = b and hi = b + 1 of |x| (lo < |x| < hi).
inline uint32_t PickNeighbour(Format f, long double a, uint32_t b, bool neg, Mode mode) {
  const long double mid = (Value(f, b) + Value(f, b + 1)) / 2;
  switch (mode) {
    case Mode::kRz:
      return b;
    case Mode::kRu:
      return neg ? b : b + 1;
    case Mode::kRd:
      return neg ? b + 1 : b;
    case Mode::kRna:
      return a < mid ? b : b + 1;
    case Mode::kRo:
      return (b & 1u) != 0 ? b : b + 1;
    default:
      if (a != mid) return a < mid ? b : b + 1;
      return (b & 1u) == 0 ? b : b + 1;
  }
}

// The bit pattern of x rounded into format f in the mode (sat: overflow and infinity give the
// largest finite value). NaN is the caller's business.
inline uint32_t ModelRound(Format f, long double x, Mode mode, bool sat) {
  const bool neg = std::signbit(x);
  const long double a = std::fabs(x);
  const uint32_t inf = f.InfBits();
  uint32_t lo = 0;
  uint32_t hi = inf;  // invariant: Value(lo) <= a, and a < Value(hi) unless hi == inf
  while (lo < hi) {
    const uint32_t m = lo + (hi - lo + 1) / 2;
    if (Value(f, m) <= a) {
      lo = m;
    } else {
      hi = m - 1;
    }
  }
  uint32_t r = lo;
  if (lo == inf) {  // |x| >= 2^(emax+1)
    const bool to_max =
        mode == Mode::kRz || (mode == Mode::kRu && neg) || (mode == Mode::kRd && !neg);
    r = (std::isinf(a) || !to_max) ? inf : inf - 1;
  } else if (Value(f, lo) != a) {
    r = PickNeighbour(f, a, lo, neg, mode);
  }
  if (sat && r == inf) r = inf - 1;
  return (neg ? f.SignBit() : 0u) | r;
}

// An integral value in the mode, then clamped to I (NaN: 0), from the standard library's
// floor/ceil/trunc/round and the default nearest-even nearbyint.
template <typename I>
I ModelToInt(long double x, Mode mode) {
  if (std::isnan(x)) return 0;
  long double r = x;
  switch (mode) {
    case Mode::kRz:
      r = std::trunc(x);
      break;
    case Mode::kRd:
      r = std::floor(x);
      break;
    case Mode::kRu:
      r = std::ceil(x);
      break;
    case Mode::kRna:
      r = std::round(x);
      break;
    default:
      r = std::nearbyint(x);
      break;
  }
  if (r <= static_cast<long double>(std::numeric_limits<I>::lowest())) {
    return std::numeric_limits<I>::lowest();
  }
  if (r >= static_cast<long double>(std::numeric_limits<I>::max())) {
    return std::numeric_limits<I>::max();
  }
  return static_cast<I>(r);
}

// Floats worth testing a conversion on: every value of a 16-bit format (bits << shift) with its
// float neighbours, the float midpoints between neighbouring 16-bit values with theirs, the
// specials, and random bit patterns.
inline std::vector<float> InterestingFloats(int shift16, int count_random) {
  std::vector<float> v;
  for (uint32_t b = 0; b < 0x10000u; ++b) {
    float f = 0;
    if (shift16 == 16) {
      f = std::bit_cast<float>(b << 16);
    } else {
      f = static_cast<float>(Value(kHalfF, b & 0x7FFFu)) * ((b & 0x8000u) != 0 ? -1.0f : 1.0f);
      if ((b & 0x7C00u) == 0x7C00u) continue;
    }
    if (std::isnan(f)) continue;
    const float next = std::nextafter(f, std::numeric_limits<float>::infinity());
    v.insert(v.end(), {f, next, std::nextafter(f, -std::numeric_limits<float>::infinity())});
  }
  const size_t n = v.size();
  for (size_t i = 0; i + 3 < n; i += 3) {  // midpoints between consecutive 16-bit values
    const float mid = (v[i] + v[i + 3]) / 2;
    if (std::isfinite(mid))
      v.insert(v.end(), {mid, std::nextafter(mid, 0.0f), std::nextafter(mid, 1e30f)});
  }
  const float inf = std::numeric_limits<float>::infinity();
  v.insert(v.end(), {inf, -inf, 0.0f, -0.0f, 65504.0f, 65520.0f, 65519.99f, 65536.0f, 1e30f, -1e30f,
                     std::numeric_limits<float>::max(), std::numeric_limits<float>::denorm_min()});
  std::mt19937 rng(1234);
  for (int i = 0; i < count_random; ++i)
    v.push_back(std::bit_cast<float>(static_cast<uint32_t>(rng())));
  return v;
}

template <typename T>
uint32_t BitsOf(T x) {
  if constexpr (std::is_same_v<T, float>) {
    return std::bit_cast<uint32_t>(x);
  } else {
    return x.bits;
  }
}

}  // namespace simt_math_test
