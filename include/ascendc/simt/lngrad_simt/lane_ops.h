// lngrad SIMT runtime: the element operations the warp reductions and the atomics share.
// Integers wrap (two's complement); max and min of a NaN give NaN.
#pragma once

#include <cmath>
#include <type_traits>

namespace lngrad::simt::detail {

template <typename T>
T LaneAdd(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    return static_cast<T>(static_cast<std::make_unsigned_t<T>>(a) +
                          static_cast<std::make_unsigned_t<T>>(b));
  } else {
    return static_cast<T>(a + b);
  }
}
template <typename T>
T LaneSub(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    return static_cast<T>(static_cast<std::make_unsigned_t<T>>(a) -
                          static_cast<std::make_unsigned_t<T>>(b));
  } else {
    return static_cast<T>(a - b);
  }
}
template <typename T>
bool LaneIsNan(T v) {
  if constexpr (std::is_integral_v<T>) {
    return false;
  } else {
    return std::isnan(static_cast<float>(v));
  }
}
template <typename T>
T LaneMax(T a, T b) {
  if (LaneIsNan(a)) return a;
  if (LaneIsNan(b)) return b;
  return a < b ? b : a;
}
template <typename T>
T LaneMin(T a, T b) {
  if (LaneIsNan(a)) return a;
  if (LaneIsNan(b)) return b;
  return b < a ? b : a;
}

}  // namespace lngrad::simt::detail
