// LayerNormGradBeta operator example: generate data, run the operator on the simulated device,
// compare with a float64 golden, print "test pass!".
//
// Case 1 is the official sample (spec §5.6): [4,8,512] float, dy and resForGamma integers in
// [-10, 10), one block, tolerance 1e-5 (abs and rel, the sample's rule). Integer inputs keep
// every sum exact in float, so the outputs must equal the golden whatever the summation order:
// cases 2 and 3 split the rows over blocks and tiles, case 4 is half (sums below 2048 stay
// exact in half).
#include <cmath>

#include "ops/layernorm_grad_beta_op.h"
#include "ops/sample_data.h"

namespace ops = lngrad::ops;
namespace smp = lngrad::ops::sample;

namespace {

constexpr double kTolerance = 1e-5;  // abs and rel, the sample's rule

constexpr smp::ExampleCase kCases[] = {
    {"official sample", ops::OpDType::kFloat32, 4, 8, 512, 1, "Ascend910B1"},
    {"rows split over blocks and tiles", ops::OpDType::kFloat32, 6, 100, 256, 3, "Ascend910B1"},
    {"Atlas inference AI Core", ops::OpDType::kFloat32, 2, 50, 64, 2, "Ascend310P1"},
    {"half, one tile", ops::OpDType::kFloat16, 1, 16, 256, 1, "Ascend910B1"},
};

std::vector<double> Integers(size_t n, uint64_t seed) {
  std::vector<double> v = smp::Uniform(n, -10, 10, seed);
  for (double& x : v) x = std::floor(x);
  return v;
}

bool RunCase(const smp::ExampleCase& c, uint64_t seed) {
  const size_t rows = c.rows(), h = static_cast<size_t>(c.h);
  const smp::HostTensor dy = smp::MakeTensor(c.dtype, Integers(rows * h, seed));
  const smp::HostTensor res = smp::MakeTensor(c.dtype, Integers(rows * h, seed + 1));
  smp::HostTensor pd_gamma = smp::ZeroTensor(c.dtype, h), pd_beta = smp::ZeroTensor(c.dtype, h);

  ops::LayerNormGradBetaOpArgs args;
  smp::ApplyCase(c, &args);
  args.SetTensors(res.data(), dy.data(), pd_gamma.data(), pd_beta.data());
  ops::LayerNormGradBetaOpInfo info;
  const lngrad::Status st = ops::RunLayerNormGradBetaOp(args, &info);
  smp::PrintCaseTitle(c);
  if (!smp::Succeeded("operator", st)) return false;
  smp::PrintOpInfo(info, info.blocks[0].tile_rows);
  std::vector<double> want_gamma, want_beta;
  smp::LayerNormGradBetaGolden(rows, h, dy.values, res.values, &want_gamma, &want_beta);
  const bool ok = smp::CheckAndPrint("outputPdGamma", smp::Values(c.dtype, pd_gamma.data(), h),
                                     want_gamma, kTolerance);
  return smp::CheckAndPrint("outputPdBeta", smp::Values(c.dtype, pd_beta.data(), h), want_beta,
                            kTolerance) &&
         ok;
}

}  // namespace

int main() { return smp::RunExampleCases(kCases, 7, RunCase); }
