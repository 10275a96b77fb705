// Row sums over kSumLanes independent partial sums (element i goes to lane i mod kSumLanes),
// then added pairwise. Used by the scalar reference kernels and by Highway's one-lane SCALAR
// target, whose vectors are too narrow to give the >= 16 partial sums that docs/math.md's
// error bound assumes. Products and sums round separately (no FMA).
#pragma once

#include <algorithm>
#include <cstdint>

#include "kernels.h"

namespace lngrad::core {

template <class Acc>
Acc PairwiseLaneSum(Acc* lanes) {
  for (int width = kSumLanes / 2; width > 0; width /= 2) {
    for (int j = 0; j < width; ++j) lanes[j] = lanes[j] + lanes[j + width];
  }
  return lanes[0];
}

// s12 = sum(x1*x2), s1 = sum(x1), s2 = sum(x2) with x1 = dy*gamma, x2 = x - mean, accumulated
// in Acc. Acc = double is the half path: there x1 (a product of two halves) is exact in float,
// x2 (a difference of two halves) is exact in double, and only x1*x2 and the sums round.
template <class T, class Acc = float>
void LaneGradSums(const T* dy, const T* x, const T* gamma, float mean, int64_t h, Acc* s12, Acc* s1,
                  Acc* s2) {
  Acc a12[kSumLanes] = {};
  Acc a1[kSumLanes] = {};
  Acc a2[kSumLanes] = {};
  for (int64_t i0 = 0; i0 < h; i0 += kSumLanes) {
    const int n = static_cast<int>(std::min<int64_t>(kSumLanes, h - i0));
    for (int j = 0; j < n; ++j) {
      const int64_t i = i0 + j;
      const Acc x1 = ToFloat(dy[i]) * ToFloat(gamma[i]);
      const Acc x2 = static_cast<Acc>(ToFloat(x[i])) - static_cast<Acc>(mean);
      a12[j] = a12[j] + x1 * x2;
      a1[j] = a1[j] + x1;
      a2[j] = a2[j] + x2;
    }
  }
  *s12 = PairwiseLaneSum(a12);
  *s1 = PairwiseLaneSum(a1);
  *s2 = PairwiseLaneSum(a2);
}

// sum(x) (kSquares false) or sum((x - mean)^2) (kSquares true), accumulated in Acc (double:
// the half forward path).
template <class T, bool kSquares, class Acc = float>
Acc LaneRowSum(const T* x, Acc mean, int64_t h) {
  Acc acc[kSumLanes] = {};
  for (int64_t i0 = 0; i0 < h; i0 += kSumLanes) {
    const int n = static_cast<int>(std::min<int64_t>(kSumLanes, h - i0));
    for (int j = 0; j < n; ++j) {
      const Acc v = ToFloat(x[i0 + j]);
      if constexpr (kSquares) {
        const Acc d = v - mean;
        acc[j] = acc[j] + d * d;
      } else {
        acc[j] = acc[j] + v;
      }
    }
  }
  return PairwiseLaneSum(acc);
}

}  // namespace lngrad::core
