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

}  // namespace lngrad::adv::testing
