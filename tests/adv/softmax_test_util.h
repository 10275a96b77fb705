// What the SoftMax family's tests in tests/adv share: the products, the half unit roundoff of a
// result type and the widening of a device value for the float64 oracles.
#pragma once

#include <cstdint>

#include "../aicore/repeat_test_util.h"

namespace softmax_test {

using lngrad::aicore::test::OnBlock;
using lngrad::aicore::test::RandomValues;
using lngrad::aicore::test::Ub;

inline constexpr const char* k910B = "Ascend910B1";
inline constexpr const char* k950 = "Ascend950PR_9589";

// h = 2^-11 for half results, 0 for float.
template <typename T>
double HalfU() {
  return sizeof(T) == 2 ? 1.0 / 2048 : 0.0;
}
template <typename T>
double D(T v) {
  return static_cast<double>(static_cast<float>(v));
}

}  // namespace softmax_test
