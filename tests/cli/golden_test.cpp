// The float64 reference (src/ops/golden.cpp, what the CLI's goldens come from) against the tests'
// independent oracle (tests/oracle): two float64 implementations of the same formulas, written
// separately.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "ops/golden.h"
#include "io/tensor.h"
#include "oracle.h"

namespace lngrad::cli {
namespace {

struct Case {
  int64_t rows, h;
  bool cancel;  // x close to its mean, gamma*dy terms of both signs: sums that cancel
};

// Both evaluate the formula in float64 (ours with compensated sums); they must agree to a few
// float64 ulps of the magnitude the oracle reports (sum of absolute values of the terms):
// 64 * 2^-53 * mag, i.e. far below the float/half rounding the goldens then receive.
constexpr double kRelToMag = 64 * 0x1.0p-53;

TEST(Golden, AgreesWithTheOracle) {
  const Case cases[] = {{1, 1, false},   {3, 8, false},  {8, 64, true},
                        {5, 257, false}, {2, 768, true}, {1, 4097, false}};
  std::mt19937_64 rng(99);
  std::uniform_real_distribution<double> u(-100, 100);
  for (const Case& c : cases) {
    const size_t n = static_cast<size_t>(c.rows * c.h);
    std::vector<double> dy(n), x(n), gamma(static_cast<size_t>(c.h));
    for (double& v : dy) v = static_cast<float>(u(rng));
    for (double& v : x) v = static_cast<float>(c.cancel ? 50 + 1e-3 * u(rng) : u(rng));
    for (double& v : gamma) v = static_cast<float>(u(rng));
    std::vector<double> mean(static_cast<size_t>(c.rows)), var(static_cast<size_t>(c.rows));
    ops::golden::RowStatistics(c.rows, c.h, x.data(), mean.data(), var.data());
    for (int64_t r = 0; r < c.rows; ++r) {
      // Statistics: direct float64 sums are exact enough to compare at 1e-12 relative.
      double s = 0;
      for (int64_t k = 0; k < c.h; ++k) s += x[static_cast<size_t>(r * c.h + k)];
      EXPECT_NEAR(mean[r], s / static_cast<double>(c.h), 1e-12 * 100);
      mean[r] = static_cast<float>(mean[r]);  // as stored in a float file
      var[r] = static_cast<float>(var[r]);
    }
    const double eps = static_cast<float>(1e-4);
    std::vector<double> pd_x(n), res(n), dgamma(static_cast<size_t>(c.h)),
        dbeta(static_cast<size_t>(c.h));
    ops::golden::LayerNormGrad(c.rows, c.h, dy.data(), x.data(), mean.data(), var.data(),
                               gamma.data(), eps, pd_x.data(), res.data());
    ops::golden::LayerNormGradBeta(c.rows, c.h, dy.data(), res.data(), dgamma.data(), dbeta.data());
    const oracle::GradOutputs o = oracle::LayerNormGrad(c.rows, c.h, dy, x, mean, var, gamma, eps);
    const oracle::BetaOutputs ob = oracle::LayerNormGradBeta(c.rows, c.h, dy, res);
    for (size_t i = 0; i < n; ++i) {
      ASSERT_NEAR(pd_x[i], o.pd_x[i], kRelToMag * o.pd_x_mag[i])
          << c.rows << "x" << c.h << " " << i;
      ASSERT_NEAR(res[i], o.res_for_gamma[i], kRelToMag * o.res_mag[i]) << i;
    }
    for (size_t i = 0; i < static_cast<size_t>(c.h); ++i) {
      ASSERT_NEAR(dgamma[i], ob.dgamma[i], kRelToMag * ob.dgamma_mag[i]) << i;
      ASSERT_NEAR(dbeta[i], ob.dbeta[i], kRelToMag * ob.dbeta_mag[i]) << i;
    }
    // verify's magnitudes (sums of non-negative terms, so plain sums) are the oracle's.
    std::vector<double> mag(n), gmag(static_cast<size_t>(c.h)), bmag(static_cast<size_t>(c.h));
    ops::golden::PdXMagnitude(c.rows, c.h, dy.data(), x.data(), mean.data(), var.data(),
                              gamma.data(), eps, mag.data());
    ops::golden::ColumnMagnitudes(c.rows, c.h, dy.data(), res.data(), gmag.data(), bmag.data());
    for (size_t i = 0; i < n; ++i) ASSERT_NEAR(mag[i], o.pd_x_mag[i], 1e-12 * mag[i]) << i;
    for (size_t i = 0; i < static_cast<size_t>(c.h); ++i) {
      ASSERT_NEAR(gmag[i], ob.dgamma_mag[i], 1e-12 * gmag[i]) << i;
      ASSERT_NEAR(bmag[i], ob.dbeta_mag[i], 1e-12 * bmag[i]) << i;
    }
  }
}

TEST(Golden, CompensatedSumsKeepCancellingRows) {
  // dbeta of a column 1e16, 1, -1e16 is exactly 1: a plain float64 sum gives 0.
  const std::vector<double> dy = {1e16, 1, -1e16}, res = {0, 0, 0};
  double dgamma = -1, dbeta = -1;
  ops::golden::LayerNormGradBeta(3, 1, dy.data(), res.data(), &dgamma, &dbeta);
  EXPECT_EQ(dbeta, 1.0);
  EXPECT_EQ(dgamma, 0.0);
}

TEST(Golden, HalfRoundingMatchesTheOracle) {
  // io::DoubleToHalfBits (used to store goldens) against the oracle's independent conversion.
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> m(1, 2);
  std::uniform_int_distribution<int> e(-30, 17);
  for (int i = 0; i < 200000; ++i) {
    const double d = (i & 1 ? -1 : 1) * std::ldexp(m(rng), e(rng));
    ASSERT_EQ(io::DoubleToHalfBits(d), oracle::DoubleToHalfBits(d)) << d;
  }
}

}  // namespace
}  // namespace lngrad::cli
