// lngrad::ops::sample: data generation, float64 goldens and the official comparison rule of the
// operator samples (spec §5.4, §5.5). Written straight from the formulas of spec §1.4, §3.2 and
// §4, in double; independent of the library's code paths.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "lngrad/status.h"
#include "ops/layernorm_grad_op.h"
#include "ops/op_common.h"

namespace lngrad::ops::sample {

// Deterministic values uniform in [lo, hi) from `seed` (a SplitMix64 stream: the same on every
// platform and compiler).
std::vector<double> Uniform(size_t n, double lo, double hi, uint64_t seed);

// A host tensor of `dtype`: its storage bytes and the exact values they hold.
struct HostTensor {
  OpDType dtype = OpDType::kFloat32;
  std::vector<uint8_t> bytes;
  std::vector<double> values;
  const void* data() const { return bytes.data(); }
  void* data() { return bytes.data(); }
};
// Rounds `values` to dtype (round to nearest even).
HostTensor MakeTensor(OpDType dtype, const std::vector<double>& values);
// An empty tensor of n elements (zeros).
HostTensor ZeroTensor(OpDType dtype, size_t n);
// The exact values held by `data` (n elements of dtype).
std::vector<double> Values(OpDType dtype, const void* data, size_t n);
// `v` rounded to dtype and back (what a kernel parameter of type T holds).
double RoundTo(OpDType dtype, double v);

// Forward statistics of each of `rows` rows of h values (golden::RowStatistics): mean and
// biased variance.
void RowStatistics(size_t rows, size_t h, const std::vector<double>& x, std::vector<double>* mean,
                   std::vector<double>* variance);

// LayerNormGrad golden (spec §1.4; golden::LayerNormGrad) with N = h: pd_x and res_for_gamma
// [rows*h].
void LayerNormGradGolden(size_t rows, size_t h, const std::vector<double>& dy,
                         const std::vector<double>& x, const std::vector<double>& mean,
                         const std::vector<double>& variance, const std::vector<double>& gamma,
                         double epsilon, std::vector<double>* pd_x,
                         std::vector<double>* res_for_gamma);

// LayerNormGradBeta golden (spec §3.2; golden::LayerNormGradBeta): pd_gamma[c] = sum dy*res,
// pd_beta[c] = sum dy.
void LayerNormGradBetaGolden(size_t rows, size_t h, const std::vector<double>& dy,
                             const std::vector<double>& res_for_gamma,
                             std::vector<double>* pd_gamma, std::vector<double>* pd_beta);

// Forward LayerNorm golden (spec §4): y = (x - mean) / sqrt(var + eps) * gamma + beta.
void LayerNormGolden(size_t rows, size_t h, const std::vector<double>& x,
                     const std::vector<double>& gamma, const std::vector<double>& beta,
                     double epsilon, std::vector<double>* y, std::vector<double>* mean,
                     std::vector<double>* variance);

// The official sample rule (spec §5.5): an element is wrong only if abs err > tol AND
// rel err = abs err / |golden| > tol.
struct RuleResult {
  size_t elements = 0;
  size_t wrong = 0;
  double max_abs = 0, max_rel = 0;
  std::vector<size_t> failing;  // indices of the first wrong elements
};
RuleResult CheckRule(const std::vector<double>& got, const std::vector<double>& golden, double tol,
                     size_t max_failing = 20);
// Prints "name: W of N elements wrong (max abs err A, max rel err R)" and one line per listed
// failing element. Returns r.wrong == 0.
bool PrintRule(const char* name, const RuleResult& r, const std::vector<double>& got,
               const std::vector<double>& golden);

// PrintRule of CheckRule(got, golden, tol).
bool CheckAndPrint(const char* name, const std::vector<double>& got,
                   const std::vector<double>& golden, double tol);

// The LayerNormGrad sample's data (spec §5.4): dy, x and gamma uniform in [lo, hi) from three
// seeds, mean and biased variance of x, rounded to the dtype; zeroed outputs.
struct LayerNormGradData {
  OpDType dtype = OpDType::kFloat32;
  size_t rows = 0, h = 0;
  HostTensor dy, x, gamma, mean, variance;
  HostTensor pd_x, res_for_gamma;
  // Points the tensors of `args` at these (shape, epsilon and launch stay the caller's).
  void Bind(LayerNormGradOpArgs* args);
  // Compares pd_x and res_for_gamma with the float64 golden by the official rule (bound `tol`),
  // printing both; the golden sees exactly what the kernel sees: the inputs as stored, epsilon
  // as a T.
  bool Check(double epsilon, double tol) const;
};
LayerNormGradData MakeLayerNormGradData(OpDType dtype, size_t rows, size_t h, double lo, double hi,
                                        const uint64_t (&seeds)[3]);

// ---- The example programs (examples/*/main.cpp) ----

// One case of an example program.
struct ExampleCase {
  const char* name;
  OpDType dtype;
  int64_t b, s, h;
  uint32_t blocks;
  const char* soc;
  size_t rows() const { return static_cast<size_t>(b * s); }
};
// The case's dtype, shape, blocks and SoC in `args`.
void ApplyCase(const ExampleCase& c, OpArgs* args);
// "== <name>: float [2,32,16], 1 block(s) on Ascend910B1".
void PrintCaseTitle(const ExampleCase& c);
// false, after printing "<what> failed: <status>", when `st` is an error.
bool Succeeded(const char* what, const Status& st);
// "blocks 4, tiles 12 (block 0: 256 rows per tile), tmp 1024 B, UB 190000 B".
void PrintOpInfo(const OpInfo& info, uint32_t tile_rows);
// Runs every case (seeds seed, seed + 10, ...), prints "test pass!" or "test failed!" and
// returns the exit status.
int RunExampleCases(std::span<const ExampleCase> cases, uint64_t seed,
                    const std::function<bool(const ExampleCase&, uint64_t seed)>& run);

}  // namespace lngrad::ops::sample
