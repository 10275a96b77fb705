#include "oracle.h"

#include <array>
#include <cmath>
#include <limits>

namespace lngrad::oracle {
namespace {

// 2^e for |e| <= 80, exact: built by repeated doubling/halving (faster than ldexp, which the
// tests call tens of millions of times).
double Pow2(int e) {
  static const auto table = [] {
    std::array<double, 161> t{};
    t[80] = 1.0;
    for (int i = 1; i <= 80; ++i) {
      t[80 + i] = t[80 + i - 1] * 2.0;
      t[80 - i] = t[80 - i + 1] * 0.5;
    }
    return t;
  }();
  return table[static_cast<size_t>(e + 80)];
}

}  // namespace

double HalfToDouble(uint16_t bits) {
  const int sign = (bits >> 15) ? -1 : 1;
  const int exponent = (bits >> 10) & 0x1F;
  const int fraction = bits & 0x3FF;
  if (exponent == 0x1F) {
    return fraction == 0 ? sign * std::numeric_limits<double>::infinity()
                         : std::numeric_limits<double>::quiet_NaN();
  }
  if (exponent == 0) return sign * static_cast<double>(fraction) * Pow2(-24);
  return sign * static_cast<double>(1024 + fraction) * Pow2(exponent - 25);
}

uint16_t DoubleToHalfBits(double v) {
  if (std::isnan(v)) return 0x7E00;
  const uint16_t sign = std::signbit(v) ? 0x8000 : 0;
  const double a = std::fabs(v);
  if (a == 0.0) return sign;
  // Rounds to 65536 or more: inf. Checked first, which also keeps the exponents below within
  // Pow2's table.
  if (a >= 65520.0) return sign | 0x7C00;
  int e2 = 0;
  std::frexp(a, &e2);  // a = f * 2^e2, f in [0.5, 1)
  // Quantum of the half grid at a: 2^(e2-11) for normals, 2^-24 for subnormals.
  const int quantum_exp = std::max(e2 - 11, -24);
  // a / quantum is exact in double; nearbyint rounds ties to even in the default mode.
  const double q = std::nearbyint(a * Pow2(-quantum_exp));
  const double rounded = q * Pow2(quantum_exp);
  if (rounded < Pow2(-14)) return sign | static_cast<uint16_t>(q);  // subnormal
  int re = 0;
  const double rf = std::frexp(rounded, &re);  // rounded = rf * 2^re
  const int biased = re - 1 + 15;
  const auto fraction = static_cast<uint16_t>(rf * 2048.0 - 1024.0);
  return sign | static_cast<uint16_t>(biased << 10) | fraction;
}

int64_t HalfUlpDistance(uint16_t a, uint16_t b) {
  auto key = [](uint16_t bits) -> int64_t {
    const int64_t magnitude = bits & 0x7FFF;
    return (bits & 0x8000) ? -magnitude : magnitude;
  };
  const int64_t d = key(a) - key(b);
  return d < 0 ? -d : d;
}

double HalfSpacing(double v) {
  const double a = std::fabs(v);
  if (std::isnan(a)) return a;
  if (a < Pow2(-14)) return Pow2(-24);
  if (a >= 65536.0) return std::numeric_limits<double>::infinity();
  int e2 = 0;
  std::frexp(a, &e2);
  return Pow2(e2 - 11);
}

GradOutputs LayerNormGrad(int64_t rows, int64_t h, const std::vector<double>& dy,
                          const std::vector<double>& x, const std::vector<double>& mean,
                          const std::vector<double>& variance, const std::vector<double>& gamma,
                          double epsilon) {
  const auto n = static_cast<size_t>(rows * h);
  GradOutputs out;
  out.pd_x.resize(n);
  out.pd_x_mag.resize(n);
  out.res_for_gamma.resize(n);
  out.res_mag.resize(n);
  const double inv_n = 1.0 / static_cast<double>(h);
  std::vector<double> x1(static_cast<size_t>(h)), x2(static_cast<size_t>(h));
  for (int64_t r = 0; r < rows; ++r) {
    const size_t base = static_cast<size_t>(r * h);
    const double v = variance[static_cast<size_t>(r)] + epsilon;
    const double v_m05 = std::pow(v, -0.5);
    const double v_m15 = std::pow(v, -1.5);
    double pd_var = 0, pd_var_abs = 0, sum_x1 = 0, sum_x1_abs = 0, sum_x2 = 0, sum_x2_abs = 0;
    for (int64_t c = 0; c < h; ++c) {
      x1[c] = dy[base + c] * gamma[c];
      x2[c] = x[base + c] - mean[static_cast<size_t>(r)];
      pd_var += -0.5 * x1[c] * x2[c] * v_m15;
      pd_var_abs += 0.5 * std::fabs(x1[c] * x2[c]) * v_m15;
      sum_x1 += -x1[c] * v_m05;
      sum_x1_abs += std::fabs(x1[c]) * v_m05;
      sum_x2 += -2.0 * x2[c];
      sum_x2_abs += 2.0 * std::fabs(x2[c]);
    }
    const double pd_mean = sum_x1 + pd_var * inv_n * sum_x2;
    const double pd_mean_abs = sum_x1_abs + pd_var_abs * inv_n * sum_x2_abs;
    for (int64_t c = 0; c < h; ++c) {
      out.pd_x[base + c] = x1[c] * v_m05 + pd_var * (2.0 * inv_n) * x2[c] + pd_mean * inv_n;
      out.pd_x_mag[base + c] = std::fabs(x1[c]) * v_m05 +
                               pd_var_abs * (2.0 * inv_n) * std::fabs(x2[c]) + pd_mean_abs * inv_n;
      out.res_for_gamma[base + c] = x2[c] * v_m05;
      out.res_mag[base + c] = std::fabs(x2[c]) * v_m05;
    }
  }
  return out;
}

BetaOutputs LayerNormGradBeta(int64_t rows, int64_t h, const std::vector<double>& dy,
                              const std::vector<double>& res_for_gamma) {
  BetaOutputs out;
  out.dgamma.assign(static_cast<size_t>(h), 0.0);
  out.dgamma_mag.assign(static_cast<size_t>(h), 0.0);
  out.dbeta.assign(static_cast<size_t>(h), 0.0);
  out.dbeta_mag.assign(static_cast<size_t>(h), 0.0);
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t c = 0; c < h; ++c) {
      const size_t k = static_cast<size_t>(r * h + c);
      out.dgamma[c] += dy[k] * res_for_gamma[k];
      out.dgamma_mag[c] += std::fabs(dy[k] * res_for_gamma[k]);
      out.dbeta[c] += dy[k];
      out.dbeta_mag[c] += std::fabs(dy[k]);
    }
  }
  return out;
}

ForwardOutputs LayerNorm(int64_t rows, int64_t h, const std::vector<double>& x,
                         const std::vector<double>& gamma, const std::vector<double>& beta,
                         double epsilon) {
  ForwardOutputs out;
  out.y.resize(static_cast<size_t>(rows * h));
  out.mean.resize(static_cast<size_t>(rows));
  out.variance.resize(static_cast<size_t>(rows));
  out.abs_mean.resize(static_cast<size_t>(rows));
  for (int64_t r = 0; r < rows; ++r) {
    const size_t base = static_cast<size_t>(r * h);
    double sum = 0, sum_abs = 0;
    for (int64_t c = 0; c < h; ++c) {
      sum += x[base + c];
      sum_abs += std::fabs(x[base + c]);
    }
    const double mean = sum / static_cast<double>(h);
    double squares = 0;
    for (int64_t c = 0; c < h; ++c) squares += (x[base + c] - mean) * (x[base + c] - mean);
    const double variance = squares / static_cast<double>(h);
    out.mean[r] = mean;
    out.variance[r] = variance;
    out.abs_mean[r] = sum_abs / static_cast<double>(h);
    for (int64_t c = 0; c < h; ++c) {
      out.y[base + c] = (x[base + c] - mean) / std::sqrt(variance + epsilon) * gamma[c] + beta[c];
    }
  }
  return out;
}

}  // namespace lngrad::oracle
