// Internal interface between the native drivers (layer_norm.cpp) and the kernel sets
// (kernels_scalar.cpp, kernels_simd.cpp + kernels-inl.h). No Highway types here, so the drivers
// and the tests can include it without compiling per target.
#pragma once

#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "lngrad/half.h"

namespace lngrad::core {

// [rows, h] outputs of at least this many elements (32 MiB of float) are written with
// non-temporal stores: such a problem does not fit the caches anyway, and the stores then skip
// the read-for-ownership of each line. Smaller outputs still partly fit the last-level cache,
// where streaming does not pay (bench/README.md, "Non-temporal stores for dx").
inline constexpr size_t kStreamElements = size_t{8} << 20;
// The threshold in force (kStreamElements unless a test lowered it, so that the streamed path
// is tested on small problems).
size_t StreamThresholdElements();
void SetStreamThresholdElementsForTesting(size_t elements);

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
  // Large problem: write pd_x/res_for_gamma with non-temporal stores where the alignment allows
  // (they would only evict the inputs from the caches). Never changes a value.
  bool stream = false;
  // Half data with float statistics (PyTorch's convention): when set, mean and variance are read
  // from these instead of `mean` and `variance`. Only for 16-bit T; read through RowMean and
  // RowVariance.
  const float* mean_f32 = nullptr;
  const float* variance_f32 = nullptr;
  // Half data: evaluate pd_x correctly rounded (sums and pd_x in double, or certified in float)
  // instead of the fast float evaluation (Options::half_eval). Ignored for float data.
  bool correctly_rounded = false;
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
  // 16-bit data with float statistics: when set (16-bit T only), the statistics are written here,
  // rounded once from double to float, instead of to `mean` and `variance`.
  float* mean_f32 = nullptr;
  float* variance_f32 = nullptr;
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
  KernelSet<BFloat16> bf16;  // the fast evaluation only (correctly_rounded is for Half)
  // The bfloat16 rounding of the kernels' stores over n floats (the SIMD set: pairs of vectors
  // as the column groups store them, then single and partial vectors), for the tests.
  void (*round_bf16)(const float* in, size_t n, BFloat16* out) = nullptr;
};
// The 16-bit data types: float arithmetic inside, each output rounded once.
template <class T>
inline constexpr bool kIs16Bit = std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>;

// The scalar reference implementation (plain C++, compiled with -ffp-contract=off).
const KernelTable& ScalarKernels();

// The SIMD implementation for the Highway target that dynamic dispatch picks now;
// *target receives that target's Highway bit (hwy::TargetName gives its name).
const KernelTable& SimdKernels(int64_t* target);

// Highway targets compiled into the SIMD implementation (one bit each), best first.
// Tests restrict dispatch to each of these in turn (hwy::SetSupportedTargetsForTest).
int64_t CompiledSimdTargets();

// One element of float or half data as float (exact), and a float rounded to the element type
// (RNE for half): the scalar reference kernels, lane_sums.h and the dgamma/dbeta combination.
inline float ToFloat(float v) { return v; }
inline float ToFloat(Half v) { return HalfBitsToFloat(v.bits); }
inline void PutFloat(float* p, float v) { *p = v; }
inline void PutFloat(Half* p, float v) { p->bits = FloatToHalfBits(v); }
inline float ToFloat(BFloat16 v) { return BFloat16BitsToFloat(v.bits); }
inline void PutFloat(BFloat16* p, float v) { p->bits = FloatToBFloat16Bits(v); }

// Row r's statistics as float (exact): from the float statistics when the call has them.
template <class T>
inline float RowMean(const GradArgs<T>& a, int64_t r) {
  return a.mean_f32 != nullptr ? a.mean_f32[r] : ToFloat(a.mean[r]);
}
template <class T>
inline float RowVariance(const GradArgs<T>& a, int64_t r) {
  return a.variance_f32 != nullptr ? a.variance_f32[r] : ToFloat(a.variance[r]);
}

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

// The same coefficients unrounded. The half path keeps them in double and evaluates pd_x in
// double (its row sums are double too), so that each half output is one correct rounding of a
// value far more accurate than half needs, even where pd_x cancels (docs/math.md §6.4).
struct RowCoefficientsD {
  double a;
  double b;
  double c;
};

inline RowCoefficientsD ComputeRowCoefficientsD(double s12, double s1, double s2, float variance,
                                                float epsilon, int64_t n) {
  const double inv_n = 1.0 / static_cast<double>(n);
  const double rstd = 1.0 / std::sqrt(static_cast<double>(variance) + epsilon);
  const double pd_var = -0.5 * s12 * (rstd * rstd * rstd);
  const double pd_mean = -rstd * s1 + pd_var * inv_n * (-2.0 * s2);
  return {rstd, pd_var * 2.0 * inv_n, pd_mean * inv_n};
}

inline RowCoefficients ComputeRowCoefficients(float s12, float s1, float s2, float variance,
                                              float epsilon, int64_t n) {
  const RowCoefficientsD k = ComputeRowCoefficientsD(s12, s1, s2, variance, epsilon, n);
  return {static_cast<float>(k.a), static_cast<float>(k.b), static_cast<float>(k.c)};
}

// Test hook: while false, the half LayerNormGrad/LayerNormBackward kernels evaluate every pd_x
// element in double (the reference the certified float evaluation must reproduce bitwise,
// docs/math.md §3). Only tests change it, never during a call.
inline std::atomic<bool>& HalfCertifiedEvaluation() {
  static std::atomic<bool> on{true};
  return on;
}

// Counts the vectors of half pd_x evaluated in double (fallback or hook), so that tests can
// show both evaluations ran. Each kernel call adds its count once, at its end.
inline std::atomic<uint64_t>& HalfDoubleEvaluations() {
  static std::atomic<uint64_t> count{0};
  return count;
}

// Rounds a double to float "to odd": truncate, then set the last bit if anything was lost.
// Rounding that float to half (RNE) then equals rounding the double to half directly, because
// float keeps 13 > 2 more bits than half (a plain double->float->half chain could round twice
// and land on a half tie that the double was not on).
inline float RoundToOddFloat(double d) {
  const float f = static_cast<float>(d);  // RNE
  const double err = d - static_cast<double>(f);
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof(bits));
  if (err != 0.0 && (bits & 1u) == 0) {
    // Inexact and even: the other neighbour of d (one step toward d) is odd.
    bits += (std::signbit(err) == std::signbit(f)) ? 1u : 0xFFFFFFFFu;
  }
  float out;
  std::memcpy(&out, &bits, sizeof(out));
  return out;
}

// Row r's statistics from the 16-bit forward (double): rounded once to float where the call has
// float statistics, else to half or bfloat16 through RoundToOddFloat (one rounding, docs/math.md
// §3).
template <class T>
inline void PutRowStatistics(const ForwardArgs<T>& a, int64_t r, double mean, double variance) {
  if (a.mean_f32 != nullptr) {
    a.mean_f32[r] = static_cast<float>(mean);
    a.variance_f32[r] = static_cast<float>(variance);
  } else {
    PutFloat(a.mean + r, RoundToOddFloat(mean));
    PutFloat(a.variance + r, RoundToOddFloat(variance));
  }
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
