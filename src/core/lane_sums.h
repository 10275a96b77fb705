// Row sums over kSumLanes independent partial sums (element i goes to lane i mod kSumLanes),
// then added pairwise. Used by the scalar reference kernels and by Highway's one-lane SCALAR
// target, whose vectors are too narrow to give the >= 16 partial sums that docs/math.md's
// error bound assumes. Products and sums round separately (no FMA).
#pragma once

#include <algorithm>
#include <cstdint>

#include "core/kernels.h"
#include "lngrad/half.h"

namespace lngrad::core {

inline float ToFloat(float v) { return v; }
inline float ToFloat(Half v) { return HalfBitsToFloat(v.bits); }

inline float PairwiseLaneSum(float* lanes) {
  for (int width = kSumLanes / 2; width > 0; width /= 2) {
    for (int j = 0; j < width; ++j) lanes[j] = lanes[j] + lanes[j + width];
  }
  return lanes[0];
}

// s12 = sum(x1*x2), s1 = sum(x1), s2 = sum(x2) with x1 = dy*gamma, x2 = x - mean.
template <class T>
void LaneGradSums(const T* dy, const T* x, const T* gamma, float mean, int64_t h, float* s12,
                  float* s1, float* s2) {
  float a12[kSumLanes] = {};
  float a1[kSumLanes] = {};
  float a2[kSumLanes] = {};
  for (int64_t i0 = 0; i0 < h; i0 += kSumLanes) {
    const int n = static_cast<int>(std::min<int64_t>(kSumLanes, h - i0));
    for (int j = 0; j < n; ++j) {
      const int64_t i = i0 + j;
      const float x1 = ToFloat(dy[i]) * ToFloat(gamma[i]);
      const float x2 = ToFloat(x[i]) - mean;
      a12[j] = a12[j] + x1 * x2;
      a1[j] = a1[j] + x1;
      a2[j] = a2[j] + x2;
    }
  }
  *s12 = PairwiseLaneSum(a12);
  *s1 = PairwiseLaneSum(a1);
  *s2 = PairwiseLaneSum(a2);
}

// sum(x) (kSquares false) or sum((x - mean)^2) (kSquares true).
template <class T, bool kSquares>
float LaneRowSum(const T* x, float mean, int64_t h) {
  float acc[kSumLanes] = {};
  for (int64_t i0 = 0; i0 < h; i0 += kSumLanes) {
    const int n = static_cast<int>(std::min<int64_t>(kSumLanes, h - i0));
    for (int j = 0; j < n; ++j) {
      const float v = ToFloat(x[i0 + j]);
      if constexpr (kSquares) {
        const float d = v - mean;
        acc[j] = acc[j] + d * d;
      } else {
        acc[j] = acc[j] + v;
      }
    }
  }
  return PairwiseLaneSum(acc);
}

}  // namespace lngrad::core
