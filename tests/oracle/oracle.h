// Float64 reference for LayerNormGrad, LayerNormGradBeta and LayerNorm, written straight from
// the formulas (spec §1.4) with no reordering, plus IEEE binary16 conversions written with
// frexp, nearbyint and exact powers of two (a method unlike lngrad/half.h's bit manipulation).
// Independent of src/core on purpose: used only by the tests.
//
// Besides each result the oracle returns a magnitude ("mag"): the same expression with every
// term replaced by its absolute value. A float evaluation of the formula, in any order, errs by
// at most a small multiple of u*mag (docs/math.md), so tests bound errors by K*u*mag.
#pragma once

#include <cstdint>
#include <vector>

namespace lngrad::oracle {

// binary16 bits -> exact value (NaN for NaN patterns, +-inf for inf).
double HalfToDouble(uint16_t bits);
// Value -> binary16 bits, rounded once to nearest, ties to even; overflow -> inf.
uint16_t DoubleToHalfBits(double v);
// Distance between two non-NaN half values in units in the last place (steps of the ordered
// half grid; +0 and -0 are the same point).
int64_t HalfUlpDistance(uint16_t a, uint16_t b);
// Spacing of the half grid at |v| (the ulp of values in |v|'s binade; 2^-24 below 2^-14).
double HalfSpacing(double v);

struct GradOutputs {
  std::vector<double> pd_x, pd_x_mag;
  std::vector<double> res_for_gamma, res_mag;
};

// Inputs are the exact values the library sees (float or half values widened to double).
// N = h.
GradOutputs LayerNormGrad(int64_t rows, int64_t h, const std::vector<double>& dy,
                          const std::vector<double>& x, const std::vector<double>& mean,
                          const std::vector<double>& variance, const std::vector<double>& gamma,
                          double epsilon);

struct BetaOutputs {
  std::vector<double> dgamma, dgamma_mag;  // mag = sum |dy * res|
  std::vector<double> dbeta, dbeta_mag;    // mag = sum |dy|
};
BetaOutputs LayerNormGradBeta(int64_t rows, int64_t h, const std::vector<double>& dy,
                              const std::vector<double>& res_for_gamma);

struct ForwardOutputs {
  std::vector<double> y, mean, variance;
  std::vector<double> abs_mean;  // per row: sum |x| / h
};
ForwardOutputs LayerNorm(int64_t rows, int64_t h, const std::vector<double>& x,
                         const std::vector<double>& gamma, const std::vector<double>& beta,
                         double epsilon);

}  // namespace lngrad::oracle
