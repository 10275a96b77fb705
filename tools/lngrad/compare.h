// Element-wise comparison of an output with its golden (used by `lngrad verify`).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "io/tensor.h"

namespace lngrad::cli {

struct CompareRule {
  // kAscend: the official sample rule, an element is wrong iff abs err > atol AND
  //          rel err > rtol, with rel err = abs err / |golden|.
  // kAllclose: NumPy's isclose, wrong iff abs err > atol + rtol * |golden|.
  enum Kind { kAscend, kAllclose } kind = kAscend;
  double atol = 1e-4;
  double rtol = 1e-4;
};
// "rule ascend: wrong if abs err > 0.0001 and rel err > 0.0001", or the allclose wording.
std::string RuleText(const CompareRule& rule);

// verify's default atol and rtol for an output of `dtype`: 1e-3 for half (the vendor samples'
// half rule: abs and rel error each within one thousandth; one half ulp is up to 9.77e-4 of
// the value), 4e-3 for bfloat16 (the same allowance for 8 significant bits: one bfloat16 ulp
// is up to 7.8e-3 of the value, half of it 3.9e-3), 1e-4 for float and float64 (the official
// LayerNormGrad sample's rule).
double DefaultTolerance(io::DType dtype);

// Distance from |v| to the next larger value of `dtype` (its ulp there); the smallest
// subnormal step for 0 and subnormals. For a finite v.
double Spacing(double v, io::DType dtype);

// The outputs whose exact value cancels, and that the magnitude rule covers.
enum class Cancelling { kPdX, kDgamma, kDbeta };

// Per-element allowance of the magnitude rule (docs/math.md §6.8): an element is also right
// when |out - golden| <= bound. `mag` holds the magnitudes (ops::golden::PdXMagnitude per pd_x
// element, ops::golden::ColumnMagnitudes per column), `rows` and `h` the problem; the bound adds
// one ulp of OUT's dtype at max(|out|, |golden|) for the two roundings to the output dtype.
//   pd_x:   (2D + 14) u mag, D = ceil(h/16) + 9                         (§6.1)
//   dgamma: (rows + 7) u mag, half: + 3 u_h mag                         (§6.3, §6.8)
//           or, with res_error (OUT's res_for_gamma known):
//           (rows + 3) u mag + res_error, half: + u_h mag
//   dbeta:  (rows + 1) u mag, half: + u_h mag
// with u = 2^-24 and u_h = 2^-11 (bfloat16: the same terms with u_bf = 2^-8). res_error[c] =
// sum_rows |dy| * |res_out - res_golden|: what the res_for_gamma that OUT's dgamma was computed
// from changes in it.
struct MagnitudeRule {
  Cancelling what = Cancelling::kPdX;
  int64_t rows = 0, h = 0;
  std::vector<double> mag;                       // one per output element
  std::vector<double> res_error;                 // dgamma only; empty when unknown
  double UnitFactor() const;                     // the factor of u*mag
  double HalfFactor(io::DType out_dtype) const;  // the factor of u_h*mag (u_bf for bfloat16)
  double Bound(int64_t i, double out, double golden, io::DType out_dtype) const;
};
// "abs err <= 544 u * mag + 1 ulp", with the half and res_error terms where they apply.
std::string MagnitudeText(const MagnitudeRule& m, io::DType out_dtype);

struct WorstElement {
  int64_t index = 0;
  double out = 0, golden = 0, abs_err = 0, rel_err = 0;
  bool ulp_known = false;  // false when either side is NaN or infinite
  uint64_t ulp = 0;
  bool fails = false;
  double badness = 0;  // > 1 exactly when the element fails
  double bound = -1;   // the magnitude rule's allowance; -1 without that rule
};

struct CompareResult {
  std::vector<int64_t> shape;
  io::DType out_dtype = io::DType::kFloat32, golden_dtype = io::DType::kFloat32;
  int64_t elements = 0;
  int64_t mismatches = 0;
  int64_t non_finite_mismatches = 0;  // NaN vs number, inf vs anything else
  // Elements wrong by the rule alone that the magnitude rule accepted.
  int64_t magnitude_accepted = 0;
  double max_abs = 0, max_rel = 0;
  int64_t max_abs_index = 0, max_rel_index = 0;
  // Distance in units in the last place of the OUT dtype, between OUT and GOLDEN rounded once
  // to that dtype; over the elements where both sides are finite.
  uint64_t ulp_max = 0;
  double ulp_mean = 0;
  std::array<int64_t, 4> ulp_hist{};  // 0 ulp, 1 ulp, 2..4 ulp, > 4 ulp
  std::vector<WorstElement> worst;    // the `worst_count` largest badness, worst first
};

// Compares two tensors with the same shape (the caller checks). Errors: abs = |out - golden|;
// rel = abs / |golden|, with rel = 0 when both are 0 and +inf when only golden is 0. NaN equals
// NaN and an infinity equals the same infinity (error 0); any other NaN/inf pairing fails
// whatever the rule, with abs = rel = +inf. With `magnitude` (its mag sized like OUT), an
// element is wrong only when it is wrong by `rule` and its abs err exceeds the magnitude bound.
CompareResult Compare(const io::Tensor& out, const io::Tensor& golden, const CompareRule& rule,
                      size_t worst_count, const MagnitudeRule* magnitude = nullptr);

// ulp distance between two finite values of `dtype` (both must be representable in it).
uint64_t UlpDistance(double a, double b, io::DType dtype);

// Multi-index of `flat` in `shape`.
std::vector<int64_t> IndexVector(const std::vector<int64_t>& shape, int64_t flat);

}  // namespace lngrad::cli
