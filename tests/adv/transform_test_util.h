// Helpers of the tensor-transform API tests (transform_api_test, transform_transpose_test): the
// products and distinct element values.
#pragma once

#include <cstddef>
#include <vector>

#include "math_api_test_util.h"

namespace lngrad::adv::testing {

inline const char* const kTransformSocs[] = {k910B, k950};

// Distinct values first, first + 1, ... in T (exact in half: they stay below 2048).
template <typename T>
std::vector<T> Iota(size_t n, int first = 1) {
  std::vector<T> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<T>(static_cast<float>((first + i) % 2000));
  return v;
}

// The first n elements of v.
template <typename T>
std::vector<T> Prefix(const std::vector<T>& v, size_t n) {
  return std::vector<T>(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(n));
}

}  // namespace lngrad::adv::testing
