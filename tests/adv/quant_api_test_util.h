// Test helpers of the quantization, filter and random API tests (quant_api_*_test.cpp,
// filter_api_test.cpp, random_api_test.cpp): the products, the step models' roundings written
// from the documented sequences, and inputs.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "kernel_operator.h"
#include "math_api_test_util.h"

namespace lngrad::adv::testing {

// Round to nearest even, as the device's CAST_RINT / CAST_NONE narrowing.
inline double Rint(double x) { return std::nearbyint(x); }

inline int8_t Sat8(double x) {
  if (std::isnan(x)) return 0;
  return static_cast<int8_t>(x < -128 ? -128 : (x > 127 ? 127 : x));
}

// A double value rounded to half (through float: exact where the double is a float); D (the
// value as double) and Bits (the bit pattern) are math_api_test_util.h's.
inline half H(double x) { return half(static_cast<float>(x)); }

inline std::vector<float> Uniform(uint32_t seed, size_t n, float lo, float hi) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> d(lo, hi);
  std::vector<float> v(n);
  for (float& x : v) x = d(gen);
  return v;
}

template <typename T>
std::vector<T> As(const std::vector<float>& v) {
  std::vector<T> r(v.size());
  for (size_t i = 0; i < v.size(); ++i) r[i] = T(v[i]);
  return r;
}

// The 8-bit float codes for the tests of the 950's 8-bit float destinations: the value of a code,
// and the code nearest to a value found by searching all 256 codes (ties: e4m3 / e5m2 to the even
// code, hifloat8 away from zero), not by lngrad's rounding code.
template <typename D>
float Decode(D d) {
  return static_cast<float>(d);
}

// The code of D nearest to v among the finite codes of v's sign and zero (saturating: beyond
// them, the largest).
template <typename D>
uint8_t NearestCode(float v, bool ties_away) {
  if (std::isnan(v)) return 0x00;
  const int sign = std::signbit(v) ? 0x80 : 0x00;
  int best = -1, largest = -1;
  double best_d = 0;
  for (int c = 0; c < 256; ++c) {
    const float x = Decode(D::FromBits(static_cast<uint8_t>(c)));
    if ((c & 0x80) == sign && std::isfinite(x) &&
        (largest < 0 ||
         std::fabs(x) > std::fabs(Decode(D::FromBits(static_cast<uint8_t>(largest)))))) {
      largest = c;
    }
  }
  if (std::fabs(v) >= std::fabs(Decode(D::FromBits(static_cast<uint8_t>(largest))))) return largest;
  for (int c = 0; c < 256; ++c) {
    if ((c & 0x80) != sign && c != 0x00) continue;
    const float x = Decode(D::FromBits(static_cast<uint8_t>(c)));
    if (!std::isfinite(x)) continue;
    const double d = std::fabs(static_cast<double>(x) - v);
    const bool tie = best >= 0 && d == best_d;
    const double bx = best >= 0 ? Decode(D::FromBits(static_cast<uint8_t>(best))) : 0.0;
    if (best < 0 || d < best_d ||
        (tie && (ties_away ? std::fabs(x) > std::fabs(bx) : (c & 1) == 0 && c != 0x00))) {
      best = c;
      best_d = d;
    }
  }
  return static_cast<uint8_t>(best);
}

// The magnitudes of the eight codes of each 4-bit format (e2m1: 1 exponent bias 1, 1 mantissa
// bit; e1m2: 2 mantissa bits).
inline constexpr float kE2m1[8] = {0.0f, 0.5f, 1.0f, 1.5f, 2.0f, 3.0f, 4.0f, 6.0f};
inline constexpr float kE1m2[8] = {0.0f, 0.25f, 0.5f, 0.75f, 1.0f, 1.25f, 1.5f, 1.75f};

}  // namespace lngrad::adv::testing
