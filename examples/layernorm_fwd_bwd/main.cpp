// Forward + backward example: LayerNorm produces y, mean and variance; LayerNormGrad takes that
// mean and variance (as the device stored them) with dy and gives pd_x and resForGamma;
// LayerNormGradBeta turns resForGamma and dy into pd_gamma and pd_beta. Every stage runs as an
// operator on the simulated device and is checked against a float64 golden computed from the
// exact values that stage received; pd_x is also checked end to end against a float64 chain
// that never rounds mean and variance. Prints "test pass!".
//
// Tolerances: y, mean, variance, pd_x and resForGamma use the official rule (an element is
// wrong only if abs err and rel err both exceed the bound) with 1e-4 for float and 1e-3 for
// half (a half result alone carries a rounding error up to 2^-11 = 4.9e-4 relative).
// pd_gamma and pd_beta are column sums that may cancel, so they are bounded by the sum of
// |terms| instead: float: rows * 2^-24 * sum|term| (a float sum of `rows` terms in any order);
// half adds 2 * 2^-11 * sum|term| (each tile's sums and the final result are rounded to half).
#include <cmath>
#include <cstdio>

#include "ops/layernorm_grad_beta_op.h"
#include "ops/layernorm_grad_op.h"
#include "ops/layernorm_op.h"
#include "ops/sample_data.h"

namespace ops = lngrad::ops;
namespace smp = lngrad::ops::sample;

namespace {

constexpr smp::ExampleCase kCases[] = {
    {"Atlas A2", ops::OpDType::kFloat32, 4, 50, 128, 3, "Ascend910B1"},
    {"Ascend 950 (arch 3510)", ops::OpDType::kFloat32, 2, 24, 256, 2, "Ascend950PR_9599"},
    {"half", ops::OpDType::kFloat16, 2, 32, 64, 2, "Ascend910B1"},
};

bool CheckSums(const char* name, const std::vector<double>& got, const std::vector<double>& want,
               const std::vector<double>& mag, double k) {
  size_t wrong = 0;
  double worst = 0;
  for (size_t c = 0; c < got.size(); ++c) {
    const double err = std::fabs(got[c] - want[c]);
    const double bound = k * mag[c];
    worst = std::max(worst, bound > 0 ? err / bound : (err > 0 ? INFINITY : 0));
    if (!(err <= bound)) {
      if (wrong < 10) {
        std::printf("  %s[%zu] = %.9g, golden %.9g, err %.3g > bound %.3g\n", name, c, got[c],
                    want[c], err, bound);
      }
      ++wrong;
    }
  }
  std::printf("%-14s %zu of %zu elements beyond the sum bound (worst uses %.3g of it)\n", name,
              wrong, got.size(), worst);
  return wrong == 0;
}

bool RunCase(const smp::ExampleCase& c, uint64_t seed) {
  const size_t rows = c.rows(), h = static_cast<size_t>(c.h);
  const bool is_half = c.dtype == ops::OpDType::kFloat16;
  const double tol = is_half ? 1e-3 : 1e-4;
  const double eps = 1e-4;
  const smp::HostTensor x = smp::MakeTensor(c.dtype, smp::Uniform(rows * h, -10, 10, seed));
  const smp::HostTensor gamma = smp::MakeTensor(c.dtype, smp::Uniform(h, -1, 1, seed + 1));
  const smp::HostTensor beta = smp::MakeTensor(c.dtype, smp::Uniform(h, -1, 1, seed + 2));
  const smp::HostTensor dy = smp::MakeTensor(c.dtype, smp::Uniform(rows * h, -1, 1, seed + 3));
  smp::HostTensor y = smp::ZeroTensor(c.dtype, rows * h), mean = smp::ZeroTensor(c.dtype, rows),
                  variance = smp::ZeroTensor(c.dtype, rows);
  smp::HostTensor pd_x = smp::ZeroTensor(c.dtype, rows * h),
                  res = smp::ZeroTensor(c.dtype, rows * h);
  smp::HostTensor pd_gamma = smp::ZeroTensor(c.dtype, h), pd_beta = smp::ZeroTensor(c.dtype, h);
  smp::PrintCaseTitle(c);

  ops::LayerNormOpArgs fwd;
  smp::ApplyCase(c, &fwd);
  fwd.SetTensors(x.data(), gamma.data(), beta.data(), y.data(), mean.data(), variance.data());
  fwd.epsilon = static_cast<float>(eps);
  if (!smp::Succeeded("LayerNorm operator", ops::RunLayerNormOp(fwd))) return false;

  ops::LayerNormGradOpArgs bwd;
  smp::ApplyCase(c, &bwd);
  // mean and variance: the forward operator's outputs, as stored.
  bwd.SetTensors(dy.data(), x.data(), mean.data(), variance.data(), gamma.data(), pd_x.data(),
                 res.data());
  bwd.epsilon = static_cast<float>(eps);
  if (!smp::Succeeded("LayerNormGrad operator", ops::RunLayerNormGradOp(bwd))) return false;

  ops::LayerNormGradBetaOpArgs beta_args;
  smp::ApplyCase(c, &beta_args);
  beta_args.SetTensors(res.data(), dy.data(), pd_gamma.data(), pd_beta.data());
  if (!smp::Succeeded("LayerNormGradBeta operator", ops::RunLayerNormGradBetaOp(beta_args))) {
    return false;
  }

  const double eps_t = smp::RoundTo(c.dtype, eps);
  bool ok = true;
  // Forward, from x.
  std::vector<double> want_y, want_mean, want_var;
  smp::LayerNormGolden(rows, h, x.values, gamma.values, beta.values, eps_t, &want_y, &want_mean,
                       &want_var);
  const std::vector<double> got_y = smp::Values(c.dtype, y.data(), rows * h);
  const std::vector<double> got_mean = smp::Values(c.dtype, mean.data(), rows);
  const std::vector<double> got_var = smp::Values(c.dtype, variance.data(), rows);
  ok = smp::CheckAndPrint("y", got_y, want_y, tol) && ok;
  ok = smp::CheckAndPrint("mean", got_mean, want_mean, tol) && ok;
  ok = smp::CheckAndPrint("variance", got_var, want_var, tol) && ok;

  // Backward, from the mean and variance the device stored.
  std::vector<double> want_pd_x, want_res;
  smp::LayerNormGradGolden(rows, h, dy.values, x.values, got_mean, got_var, gamma.values, eps_t,
                           &want_pd_x, &want_res);
  const std::vector<double> got_pd_x = smp::Values(c.dtype, pd_x.data(), rows * h);
  const std::vector<double> got_res = smp::Values(c.dtype, res.data(), rows * h);
  ok = smp::CheckAndPrint("pd_x", got_pd_x, want_pd_x, tol) && ok;
  ok = smp::CheckAndPrint("resForGamma", got_res, want_res, tol) && ok;

  // End to end: the float64 chain with exact mean and variance.
  std::vector<double> chain_pd_x, chain_res;
  smp::LayerNormGradGolden(rows, h, dy.values, x.values, want_mean, want_var, gamma.values, eps_t,
                           &chain_pd_x, &chain_res);
  ok = smp::CheckAndPrint("pd_x (chain)", got_pd_x, chain_pd_x, tol) && ok;
  // Column sums, from the resForGamma the device produced.
  std::vector<double> want_gamma, want_beta, mag_gamma(h, 0.0), mag_beta(h, 0.0);
  smp::LayerNormGradBetaGolden(rows, h, dy.values, got_res, &want_gamma, &want_beta);
  for (size_t r = 0; r < rows; ++r) {
    for (size_t col = 0; col < h; ++col) {
      mag_gamma[col] += std::fabs(dy.values[r * h + col] * got_res[r * h + col]);
      mag_beta[col] += std::fabs(dy.values[r * h + col]);
    }
  }
  const double k = static_cast<double>(rows) * 0x1.0p-24 + (is_half ? 2 * 0x1.0p-11 : 0.0);
  ok = CheckSums("pd_gamma", smp::Values(c.dtype, pd_gamma.data(), h), want_gamma, mag_gamma, k) &&
       ok;
  ok = CheckSums("pd_beta", smp::Values(c.dtype, pd_beta.data(), h), want_beta, mag_beta, k) && ok;
  return ok;
}

}  // namespace

int main() { return smp::RunExampleCases(kCases, 99, RunCase); }
