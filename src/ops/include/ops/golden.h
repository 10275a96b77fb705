// The float64 LayerNormGrad reference: the goldens `lngrad gen` writes, those of the operator
// samples (sample_data.h) and the magnitudes of `lngrad verify`. Written straight from the
// formulas (spec §1.4, §3.2; docs/cli.md), separate from the library and from tests/oracle.
// All arrays are row-major: [rows, h] tensors, [rows] statistics, [h] per-column vectors.
#pragma once

#include <cstdint>
#include <functional>

namespace lngrad::ops::golden {

// Called with the fraction of the work done (for a progress line); may be empty.
using ProgressFn = std::function<void(double)>;

// Forward statistics of each row of x: mean = sum(x)/h, variance = sum((x-mean)^2)/h (biased),
// as the LayerNorm forward pass produces them.
void RowStatistics(int64_t rows, int64_t h, const double* x, double* mean, double* variance);

// LayerNormGrad with N = h, v = variance + eps, x1 = dy*gamma, x2 = x - mean:
//   pd_var  = sum_h(-0.5 * x1 * x2 * v^-1.5)
//   pd_mean = sum_h(-x1 * v^-0.5) + pd_var * (1/N) * sum_h(-2 * x2)
//   pd_x    = x1 * v^-0.5 + pd_var * (2/N) * x2 + pd_mean / N
//   res_for_gamma = x2 * v^-0.5
// Sums are compensated (Neumaier), so each is within a few float64 ulps of the exact sum of
// its float64 terms. Writes pd_x and res_for_gamma.
void LayerNormGrad(int64_t rows, int64_t h, const double* dy, const double* x, const double* mean,
                   const double* variance, const double* gamma, double eps, double* pd_x,
                   double* res_for_gamma, const ProgressFn& progress = {});

// LayerNormGradBeta: dgamma[c] = sum_rows(dy * res_for_gamma), dbeta[c] = sum_rows(dy), with
// compensated sums. Writes dgamma and dbeta.
void LayerNormGradBeta(int64_t rows, int64_t h, const double* dy, const double* res_for_gamma,
                       double* dgamma, double* dbeta);

// The magnitudes of docs/math.md §6 that `lngrad verify`'s magnitude rule scales its bounds
// by: each output with every term replaced by its absolute value. With x1, x2, v as above:
//   pv_abs = 0.5 * sum_h|x1*x2| * v^-1.5,  pm_abs = sum_h|x1| * v^-0.5 + pv_abs * sum_h|2*x2| / N
//   mag    = |x1| * v^-0.5 + pv_abs * (2/N) * |x2| + pm_abs / N      (one per pd_x element)
void PdXMagnitude(int64_t rows, int64_t h, const double* dy, const double* x, const double* mean,
                  const double* variance, const double* gamma, double eps, double* mag);

// Per column: gamma_mag[c] = sum_rows|dy * res_for_gamma|, beta_mag[c] = sum_rows|dy|.
void ColumnMagnitudes(int64_t rows, int64_t h, const double* dy, const double* res_for_gamma,
                      double* gamma_mag, double* beta_mag);

}  // namespace lngrad::ops::golden
