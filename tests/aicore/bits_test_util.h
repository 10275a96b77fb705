// Bit-level comparisons and random inputs shared by the instruction-set tests (tests/aicore) and
// the high-level API tests (tests/adv, adv_test_util.h).
#pragma once

#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include "lngrad/half.h"

namespace lngrad::aicore::testing {

inline std::vector<float> Uniform(size_t n, float lo, float hi, uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> v(n);
  for (auto& x : v) x = dist(gen);
  return v;
}

inline bool SameBits(float a, float b) {
  return std::bit_cast<uint32_t>(a) == std::bit_cast<uint32_t>(b);
}

// Index of the first element whose bits differ, or -1.
inline long FirstBitDifference(const float* a, const float* b, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    if (std::isnan(a[i]) && std::isnan(b[i])) continue;  // NaN payloads are not promised
    if (!SameBits(a[i], b[i])) return static_cast<long>(i);
  }
  return -1;
}
inline long FirstBitDifference(const Half* a, const Half* b, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    if (a[i].bits != b[i].bits) return static_cast<long>(i);
  }
  return -1;
}

}  // namespace lngrad::aicore::testing
