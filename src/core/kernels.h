// Internal interface between the native drivers (layer_norm.cpp) and the kernel sets
// (kernels_scalar.cpp, kernels_simd.cpp + kernels-inl.h). No Highway types here, so the drivers
// and the tests can include it without compiling per target.
#pragma once

#include <cmath>
#include <cstdint>

#include "lngrad/half.h"

namespace lngrad::core {

// Inputs and outputs of LayerNormGrad / LayerNormBackward for a range of rows. Row r of a
// [rows, h] tensor starts at r*h; per-row vectors are indexed by r; gamma is never offset.
template <class T>
struct GradArgs {
  const T* dy = nullptr;
  const T* x = nullptr;
  const T* mean = nullptr;
  const T* variance = nullptr;
  const T* gamma = nullptr;
  float epsilon = 0.0f;
  int64_t h = 0;
  T* pd_x = nullptr;           // dx in the fused path
  T* res_for_gamma = nullptr;  // unused by the fused path
};

// Inputs of LayerNormGradBeta.
template <class T>
struct BetaArgs {
  const T* dy = nullptr;
  const T* res_for_gamma = nullptr;
  int64_t h = 0;
};

// Inputs and outputs of the LayerNorm forward.
template <class T>
struct ForwardArgs {
  const T* x = nullptr;
  const T* gamma = nullptr;
  const T* beta = nullptr;
  float epsilon = 0.0f;
  int64_t h = 0;
  T* y = nullptr;
  T* mean = nullptr;
  T* variance = nullptr;
};

// One implementation's kernels. Every kernel handles rows [row_begin, row_end).
//  grad:     pd_x and res_for_gamma.
//  backward: pd_x (= dx) and, into the block partials g/b (h floats each, overwritten, not
//            accumulated), sum over the rows of dy*res and dy, where res = (x-mean)*rstd is
//            kept in float. Per-row and per-element operations are those of `grad`, and the
//            partial sums use the same operation order as `beta`, so for float data the fused
//            results are bitwise those of grad followed by beta.
//  beta:     block partials of dgamma/dbeta, summed row after row starting from zero.
//  forward:  y, mean, variance.
template <class T>
struct KernelSet {
  void (*grad)(const GradArgs<T>& a, int64_t row_begin, int64_t row_end) = nullptr;
  void (*backward)(const GradArgs<T>& a, int64_t row_begin, int64_t row_end, float* g,
                   float* b) = nullptr;
  void (*beta)(const BetaArgs<T>& a, int64_t row_begin, int64_t row_end, float* g,
               float* b) = nullptr;
  void (*forward)(const ForwardArgs<T>& a, int64_t row_begin, int64_t row_end) = nullptr;
};

struct KernelTable {
  KernelSet<float> f32;
  KernelSet<Half> f16;
};

// The scalar reference implementation (plain C++, compiled with -ffp-contract=off).
const KernelTable& ScalarKernels();

// The SIMD implementation for the Highway target that dynamic dispatch picks now;
// *target receives that target's Highway bit (hwy::TargetName gives its name).
const KernelTable& SimdKernels(int64_t* target);

// Highway targets compiled into the SIMD implementation (one bit each), best first.
// Tests restrict dispatch to each of these in turn (hwy::SetSupportedTargetsForTest).
int64_t CompiledSimdTargets();

// Row sums accumulate in at least kSumLanes independent partial sums (scalar path and
// Highway's one-lane SCALAR target: lane_sums.h; other SIMD targets: 4 vectors of >= 4 lanes),
// then the partial sums are added pairwise. docs/math.md derives the error bound from this.
inline constexpr int kSumLanes = 16;

// Per-row coefficients of pd_x = a*x1 + b*x2 + c (x1 = dy*gamma, x2 = x - mean) and of
// res_for_gamma = a*x2, from the row sums s12 = sum(x1*x2), s1 = sum(x1), s2 = sum(x2).
// Evaluated in double (one rounding to float per coefficient): v^-1.5 would overflow float for
// tiny v, and the extra cost is per row, not per element.
struct RowCoefficients {
  float a;  // rstd = (var + eps)^-0.5
  float b;  // pd_var * 2/N
  float c;  // pd_mean / N
};

inline RowCoefficients ComputeRowCoefficients(float s12, float s1, float s2, float variance,
                                              float epsilon, int64_t n) {
  const double inv_n = 1.0 / static_cast<double>(n);
  const double rstd = 1.0 / std::sqrt(static_cast<double>(variance) + epsilon);
  const double pd_var = -0.5 * static_cast<double>(s12) * (rstd * rstd * rstd);
  const double pd_mean =
      -rstd * static_cast<double>(s1) + pd_var * inv_n * (-2.0 * static_cast<double>(s2));
  return {static_cast<float>(rstd), static_cast<float>(pd_var * 2.0 * inv_n),
          static_cast<float>(pd_mean * inv_n)};
}

// Forward statistics: mean = sum(x)/N and variance = sum((x - mean)^2)/N, divided in double
// and rounded once.
inline float DivideByN(float sum, int64_t n) {
  return static_cast<float>(static_cast<double>(sum) / static_cast<double>(n));
}
inline float RstdFromVariance(float variance, float epsilon) {
  return static_cast<float>(1.0 / std::sqrt(static_cast<double>(variance) + epsilon));
}

}  // namespace lngrad::core
