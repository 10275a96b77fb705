// The integer rounding of each AscendC::RoundMode, as a scalar model for the Cast tests
// (tests/aicore): CAST_FLOOR, CAST_CEIL, CAST_TRUNC, CAST_ROUND (half away from zero), and ties
// to even for the others (CAST_RINT; CAST_NONE and CAST_ODD where a test rounds to an integer).
#pragma once

#include <cmath>

#include "kernel_operator.h"

namespace lngrad::aicore::test {

inline long double RoundToInteger(long double x, AscendC::RoundMode mode) {
  switch (mode) {
    case AscendC::RoundMode::CAST_FLOOR:
      return std::floor(x);
    case AscendC::RoundMode::CAST_CEIL:
      return std::ceil(x);
    case AscendC::RoundMode::CAST_TRUNC:
      return std::trunc(x);
    case AscendC::RoundMode::CAST_ROUND:
      return std::round(x);
    default: {
      // Ties to even, written out (not std::nearbyint: no dependence on the FP environment).
      const long double fl = std::floor(x);
      const long double d = x - fl;
      return (d > 0.5L || (d == 0.5L && std::fmod(fl, 2.0L) != 0)) ? fl + 1 : fl;
    }
  }
}

}  // namespace lngrad::aicore::test
