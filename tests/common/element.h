// Element access for float and lngrad::Half alike: a two-byte T is taken to be Half (ToFloat and
// a float constructor), anything else converts with static_cast.
//
// Templates only, no lngrad header, so tests/common stays standard-library only (see
// doc_example.h); shared by tests/adv, tests/hardening and fuzz/fuzz_kernel_launch.cpp.
#pragma once

namespace lngrad::test {

template <typename T>
double ToDouble(T v) {
  if constexpr (sizeof(T) == 2) {
    return static_cast<double>(v.ToFloat());
  } else {
    return static_cast<double>(v);
  }
}

// Rounds through float for Half, as Half(float) does.
template <typename T>
T FromDouble(double v) {
  if constexpr (sizeof(T) == 2) {
    return T(static_cast<float>(v));
  } else {
    return static_cast<T>(v);
  }
}

}  // namespace lngrad::test
