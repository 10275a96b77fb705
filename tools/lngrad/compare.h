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

struct WorstElement {
  int64_t index = 0;
  double out = 0, golden = 0, abs_err = 0, rel_err = 0;
  bool ulp_known = false;  // false when either side is NaN or infinite
  uint64_t ulp = 0;
  bool fails = false;
  double badness = 0;  // > 1 exactly when the element fails
};

struct CompareResult {
  std::vector<int64_t> shape;
  io::DType out_dtype = io::DType::kFloat32, golden_dtype = io::DType::kFloat32;
  int64_t elements = 0;
  int64_t mismatches = 0;
  int64_t non_finite_mismatches = 0;  // NaN vs number, inf vs anything else
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
// whatever the rule, with abs = rel = +inf.
CompareResult Compare(const io::Tensor& out, const io::Tensor& golden, const CompareRule& rule,
                      size_t worst_count);

// ulp distance between two finite values of `dtype` (both must be representable in it).
uint64_t UlpDistance(double a, double b, io::DType dtype);

// Multi-index of `flat` in `shape`.
std::vector<int64_t> IndexVector(const std::vector<int64_t>& shape, int64_t flat);

}  // namespace lngrad::cli
