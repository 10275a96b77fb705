// The basic instructions the math family's replay needs, on one element, as
// docs/ascendc_kernels.md §2 chooses them: one IEEE binary32 operation each (no FMA); Exp and Ln
// computed in double and rounded once; Mins/Maxs/Min as `a < s ? a : s` (a NaN element gives the
// scalar). Internal to replay_math*.cpp.
#pragma once

#include <cmath>

#include "replay_math.h"

namespace lngrad_replay {
namespace math_ops {

inline float Mins(float a, float s) { return a < s ? a : s; }
inline float Maxs(float a, float s) { return a > s ? a : s; }
inline float Min(float a, float b) { return a < b ? a : b; }
inline float ExpF(float x) { return static_cast<float>(std::exp(static_cast<double>(x))); }
inline float LnF(float x) { return static_cast<float>(std::log(static_cast<double>(x))); }

// x * 2^62 / (|x * 2^62| + 2^-62): the sign trick of Atan, Asin (float) and Asinh.
inline float SignBy2p62(float x) {
  const float s = x * 4611686018427387904.0f;
  float den = std::fabs(s);
  den = den + 2.168404344971009e-19f;
  return s / den;
}

// Horner from a product: r = z * c[0] (Muls), then r = r + c[1], and for k >= 2 r = z * r,
// r = r + c[k] (Mul then Adds), n coefficients.
inline float HornerFromProduct(float z, const float* c, int n) {
  float r = z * c[0];
  for (int k = 1; k < n; ++k) {
    if (k > 1) r = z * r;
    r = r + c[k];
  }
  return r;
}

// Horner of a monic polynomial: r = z + c[0] (Adds), then r = z * r, r = r + c[k].
inline float HornerMonic(float z, const float* c, int n) {
  float r = z + c[0];
  for (int k = 1; k < n; ++k) {
    r = z * r;
    r = r + c[k];
  }
  return r;
}

// A half-typed instruction: operands widened, one float operation, rounded to half (RNE).
inline Half HalfOp(float r) { return FloatToHalf(r); }
inline float W(Half h) { return HalfToFloat(h); }

}  // namespace math_ops

// The rest of the float kernels and the half paths (replay_math_more.cpp).
float ReplayMathFloatMore(MathOp op, float x);
Half ReplayMathHalfMore(MathOp op, Half x);

}  // namespace lngrad_replay
