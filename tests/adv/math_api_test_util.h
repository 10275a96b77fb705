// Test helpers of the high-level math API tests (math_api_test, math_logic_api_test,
// math_index_fill_api_test): the products, the case size, bit-exact comparisons (NaN equal to
// NaN), the double models' rounding to the operand type and the inputs with specials first.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "../aicore/repeat_test_util.h"
#include "kernel_operator.h"

namespace lngrad::adv::testing {

// The aicore helpers the math tests run their blocks with (repeat_test_util.h).
using lngrad::aicore::test::ExpectCheck;
using lngrad::aicore::test::OnBlock;
using lngrad::aicore::test::Ub;

inline constexpr const char* k910B = "Ascend910B1";
inline constexpr const char* k950 = "Ascend950PR_9589";
inline constexpr const char* k310P = "Ascend310P1";
inline constexpr uint32_t kN = 1000;
inline constexpr uint32_t kBytes =
    lngrad::aicore::test::kUbBufBytes;  // elements per case: several repeats and a tail

template <typename T>
uint64_t Bits(T v) {
  uint64_t b = 0;
  std::memcpy(&b, &v, sizeof(T));
  return b;
}

template <typename T>
double D(T x) {
  return static_cast<double>(static_cast<float>(x));
}
// A double rounded to T (float, or half through float: exact when the double is a float).
template <typename T>
T Round(double x) {
  return T(static_cast<float>(x));
}

template <typename T>
bool SameValue(T a, T b) {
  if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, half>) {
    if (std::isnan(static_cast<float>(a)) && std::isnan(static_cast<float>(b))) return true;
  }
  return Bits(a) == Bits(b);
}

template <typename T>
void ExpectSame(const std::vector<T>& got, const std::vector<T>& want, const std::string& what) {
  for (size_t i = 0; i < want.size(); ++i) {
    if (!SameValue(got[i], want[i])) {
      ADD_FAILURE() << what << ": element " << i << " is " << D(got[i]) << " (0x" << std::hex
                    << Bits(got[i]) << "), expected " << D(want[i]) << " (0x" << Bits(want[i])
                    << std::dec << ")";
      return;
    }
  }
}

// Specials first (signed zeros, ties, large, tiny, infinities, NaN), then random values.
template <typename T>
std::vector<T> Inputs(uint32_t seed, uint32_t n = kN, float range = 100.0f) {
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<float> s = {
      0.0f,        -0.0f,    0.5f,  -0.5f, 1.5f,  -1.5f,
      2.5f,        -2.5f,    3.9f,  -3.9f, 1e-3f, -1e-3f,
      0.49999997f, 7.0f,     -7.0f, inf,   -inf,  std::numeric_limits<float>::quiet_NaN(),
      1000.5f,     -1000.25f};
  if constexpr (std::is_same_v<T, float>) {
    s.insert(s.end(), {8388607.5f, -8388607.5f, 16777216.0f, 3e38f, -3e38f, 1e-40f, -1e-40f});
  } else {
    s.insert(s.end(), {1023.5f, -1023.5f, 2047.0f, 65504.0f, -65504.0f, 6e-8f});
  }
  std::vector<T> v(n);
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> d(-range, range);
  for (uint32_t i = 0; i < n; ++i) v[i] = i < s.size() ? T(s[i]) : T(d(gen));
  return v;
}

}  // namespace lngrad::adv::testing
