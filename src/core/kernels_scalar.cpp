// Scalar reference kernels: plain C++, one element at a time, compiled with -ffp-contract=off so
// every operation rounds as written whatever the compiler. Same per-row scheme as the SIMD
// kernels (>= 16 partial sums, coefficients from ComputeRowCoefficients), so both satisfy the
// bound of docs/math.md; the individual roundings differ (no FMA here).
#include <algorithm>
#include <cmath>
#include <type_traits>

#include "kernels.h"
#include "lane_sums.h"

namespace lngrad::core {
namespace {

// kFused: write dx only and accumulate dy*res and dy into g/b; otherwise write pd_x and
// res_for_gamma. Half data takes the float evaluation unless a.correctly_rounded.
template <class T, bool kFused>
void GradRows(const GradArgs<T>& a, int64_t row_begin, int64_t row_end, float* g, float* b) {
  const int64_t h = a.h;
  if constexpr (kFused) {
    std::fill(g, g + h, 0.0f);
    std::fill(b, b + h, 0.0f);
  }
  for (int64_t r = row_begin; r < row_end; ++r) {
    const T* dy = a.dy + r * h;
    const T* x = a.x + r * h;
    const float mean = RowMean(a, r);
    T* pd_x = a.pd_x + r * h;
    if (std::is_same_v<T, Half> && a.correctly_rounded) {
      // Half, correctly rounded: sums, coefficients and pd_x in double, rounded once to half
      // (docs/math.md §3).
      double s12, s1, s2;
      LaneGradSums<T, double>(dy, x, a.gamma, mean, h, &s12, &s1, &s2);
      const RowCoefficientsD k =
          ComputeRowCoefficientsD(s12, s1, s2, RowVariance(a, r), a.epsilon, h);
      const float a_f = static_cast<float>(k.a);
      for (int64_t i = 0; i < h; ++i) {
        const float dyi = ToFloat(dy[i]);
        const double x1 = dyi * ToFloat(a.gamma[i]);                  // exact in float
        const double x2 = static_cast<double>(ToFloat(x[i])) - mean;  // exact in double
        PutFloat(pd_x + i, RoundToOddFloat(k.a * x1 + (k.b * x2 + k.c)));
        const float res = (ToFloat(x[i]) - mean) * a_f;
        if constexpr (kFused) {
          g[i] = g[i] + dyi * res;
          b[i] = b[i] + dyi;
        } else {
          PutFloat(a.res_for_gamma + r * h + i, res);
        }
      }
      continue;
    }
    // Float data, and half data in the fast evaluation: every operation in float, each half
    // output rounded once from the float value.
    float s12, s1, s2;
    LaneGradSums(dy, x, a.gamma, mean, h, &s12, &s1, &s2);
    const RowCoefficients k = ComputeRowCoefficients(s12, s1, s2, RowVariance(a, r), a.epsilon, h);
    for (int64_t i = 0; i < h; ++i) {
      const float dyi = ToFloat(dy[i]);
      const float x1 = dyi * ToFloat(a.gamma[i]);
      const float x2 = ToFloat(x[i]) - mean;
      const float res = x2 * k.a;
      PutFloat(pd_x + i, k.a * x1 + (k.b * x2 + k.c));
      if constexpr (kFused) {
        g[i] = g[i] + dyi * res;
        b[i] = b[i] + dyi;
      } else {
        PutFloat(a.res_for_gamma + r * h + i, res);
      }
    }
  }
}

template <class T>
void Grad(const GradArgs<T>& a, int64_t row_begin, int64_t row_end) {
  GradRows<T, false>(a, row_begin, row_end, nullptr, nullptr);
}

template <class T>
void Backward(const GradArgs<T>& a, int64_t row_begin, int64_t row_end, float* g, float* b) {
  GradRows<T, true>(a, row_begin, row_end, g, b);
}

template <class T>
void Beta(const BetaArgs<T>& a, int64_t row_begin, int64_t row_end, float* g, float* b) {
  const int64_t h = a.h;
  std::fill(g, g + h, 0.0f);
  std::fill(b, b + h, 0.0f);
  for (int64_t r = row_begin; r < row_end; ++r) {
    const T* dy = a.dy + r * h;
    const T* res = a.res_for_gamma + r * h;
    for (int64_t i = 0; i < h; ++i) {
      const float dyi = ToFloat(dy[i]);
      g[i] = g[i] + dyi * ToFloat(res[i]);
      b[i] = b[i] + dyi;
    }
  }
}

template <class T>
void Forward(const ForwardArgs<T>& a, int64_t row_begin, int64_t row_end) {
  const int64_t h = a.h;
  for (int64_t r = row_begin; r < row_end; ++r) {
    const T* x = a.x + r * h;
    if constexpr (kIs16Bit<T>) {
      // Half and bfloat16: statistics and y in double, each output rounded once (docs/math.md
      // §3).
      const double mean = LaneRowSum<T, false, double>(x, 0.0, h) / static_cast<double>(h);
      const double variance = LaneRowSum<T, true, double>(x, mean, h) / static_cast<double>(h);
      const double rstd = 1.0 / std::sqrt(variance + a.epsilon);
      PutRowStatistics(a, r, mean, variance);
      T* y = a.y + r * h;
      for (int64_t i = 0; i < h; ++i) {
        const double t = (static_cast<double>(ToFloat(x[i])) - mean) * rstd;
        PutFloat(y + i, RoundToOddFloat(t * ToFloat(a.gamma[i]) + ToFloat(a.beta[i])));
      }
      continue;
    }
    const float mean = DivideByN(LaneRowSum<T, false>(x, 0.0f, h), h);
    const float variance = DivideByN(LaneRowSum<T, true>(x, mean, h), h);
    const float rstd = RstdFromVariance(variance, a.epsilon);
    PutFloat(a.mean + r, mean);
    PutFloat(a.variance + r, variance);
    T* y = a.y + r * h;
    for (int64_t i = 0; i < h; ++i) {
      const float t = (ToFloat(x[i]) - mean) * rstd;
      PutFloat(y + i, t * ToFloat(a.gamma[i]) + ToFloat(a.beta[i]));
    }
  }
}

template <class T>
constexpr KernelSet<T> MakeSet() {
  return {&Grad<T>, &Backward<T>, &Beta<T>, &Forward<T>};
}

}  // namespace

void RoundToBFloat16(const float* in, size_t n, BFloat16* out) {
  for (size_t i = 0; i < n; ++i) PutFloat(out + i, in[i]);
}

const KernelTable& ScalarKernels() {
  static const KernelTable table{MakeSet<float>(), MakeSet<Half>(), MakeSet<BFloat16>(),
                                 &RoundToBFloat16};
  return table;
}

}  // namespace lngrad::core
