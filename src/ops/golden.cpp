// lngrad::ops::golden (golden.h): the float64 reference, with compensated sums.
#include "ops/golden.h"

#include <cmath>
#include <vector>

namespace lngrad::ops::golden {
namespace {

// Neumaier's compensated sum: keeps the rounding error of each addition and adds it back, so
// that cancelling terms (pd_mean with x near its row mean) do not lose the small result.
class Sum {
 public:
  void Add(double v) {
    const double t = s_ + v;
    c_ += std::fabs(s_) >= std::fabs(v) ? (s_ - t) + v : (v - t) + s_;
    s_ = t;
  }
  double Value() const { return s_ + c_; }

 private:
  double s_ = 0;
  double c_ = 0;
};

}  // namespace

void RowStatistics(int64_t rows, int64_t h, const double* x, double* mean, double* variance) {
  for (int64_t r = 0; r < rows; ++r) {
    const double* xr = x + r * h;
    Sum s;
    for (int64_t c = 0; c < h; ++c) s.Add(xr[c]);
    const double m = s.Value() / static_cast<double>(h);
    Sum q;
    for (int64_t c = 0; c < h; ++c) q.Add((xr[c] - m) * (xr[c] - m));
    mean[r] = m;
    variance[r] = q.Value() / static_cast<double>(h);
  }
}

void LayerNormGrad(int64_t rows, int64_t h, const double* dy, const double* x, const double* mean,
                   const double* variance, const double* gamma, double eps, double* pd_x,
                   double* res_for_gamma, const ProgressFn& progress) {
  const double n = static_cast<double>(h);
  std::vector<double> x1(static_cast<size_t>(h)), x2(static_cast<size_t>(h));
  const int64_t report_every = rows / 100 + 1;
  for (int64_t r = 0; r < rows; ++r) {
    const double v = variance[r] + eps;
    const double rstd = 1.0 / std::sqrt(v);
    const double rstd3 = rstd * rstd * rstd;  // v^-1.5
    Sum pd_var, sum_x1, sum_x2;
    for (int64_t c = 0; c < h; ++c) {
      const int64_t k = r * h + c;
      x1[c] = dy[k] * gamma[c];
      x2[c] = x[k] - mean[r];
      pd_var.Add(-0.5 * x1[c] * x2[c] * rstd3);
      sum_x1.Add(-x1[c] * rstd);
      sum_x2.Add(-2.0 * x2[c]);
    }
    const double pv = pd_var.Value();
    const double pm = sum_x1.Value() + pv * (1.0 / n) * sum_x2.Value();
    for (int64_t c = 0; c < h; ++c) {
      const int64_t k = r * h + c;
      pd_x[k] = x1[c] * rstd + pv * (2.0 / n) * x2[c] + pm / n;
      res_for_gamma[k] = x2[c] * rstd;
    }
    if (progress && (r + 1) % report_every == 0) {
      progress(static_cast<double>(r + 1) / static_cast<double>(rows));
    }
  }
}

void LayerNormGradBeta(int64_t rows, int64_t h, const double* dy, const double* res_for_gamma,
                       double* dgamma, double* dbeta) {
  std::vector<Sum> g(static_cast<size_t>(h)), b(static_cast<size_t>(h));
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t c = 0; c < h; ++c) {
      const int64_t k = r * h + c;
      g[c].Add(dy[k] * res_for_gamma[k]);
      b[c].Add(dy[k]);
    }
  }
  for (int64_t c = 0; c < h; ++c) {
    dgamma[c] = g[c].Value();
    dbeta[c] = b[c].Value();
  }
}

void PdXMagnitude(int64_t rows, int64_t h, const double* dy, const double* x, const double* mean,
                  const double* variance, const double* gamma, double eps, double* mag) {
  const double n = static_cast<double>(h);
  for (int64_t r = 0; r < rows; ++r) {
    const double rstd = 1.0 / std::sqrt(variance[r] + eps);
    const double rstd3 = rstd * rstd * rstd;
    // Sums of non-negative terms: no cancellation, a plain sum is accurate enough for a bound.
    double s12 = 0, s1 = 0, s2 = 0;
    for (int64_t c = 0; c < h; ++c) {
      const int64_t k = r * h + c;
      const double x1 = std::fabs(dy[k] * gamma[c]), x2 = std::fabs(x[k] - mean[r]);
      s12 += x1 * x2;
      s1 += x1;
      s2 += 2.0 * x2;
    }
    const double pv = 0.5 * s12 * rstd3;
    const double pm = s1 * rstd + pv * s2 / n;
    for (int64_t c = 0; c < h; ++c) {
      const int64_t k = r * h + c;
      mag[k] =
          std::fabs(dy[k] * gamma[c]) * rstd + pv * (2.0 / n) * std::fabs(x[k] - mean[r]) + pm / n;
    }
  }
}

void ColumnMagnitudes(int64_t rows, int64_t h, const double* dy, const double* res_for_gamma,
                      double* gamma_mag, double* beta_mag) {
  for (int64_t c = 0; c < h; ++c) gamma_mag[c] = beta_mag[c] = 0;
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t c = 0; c < h; ++c) {
      const int64_t k = r * h + c;
      gamma_mag[c] += std::fabs(dy[k] * res_for_gamma[k]);
      beta_mag[c] += std::fabs(dy[k]);
    }
  }
}

}  // namespace lngrad::ops::golden
