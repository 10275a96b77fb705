// LayerNormGrad operator example: generate data, run the operator on the simulated device,
// compare with a float64 golden by the official sample rule, print "test pass!".
//
// Case 1 is the official sample (spec §5): [2,32,16] float, dy, x, gamma uniform in
// [-100, 100], mean and biased variance of x, epsilon 1e-4, the minimum tmp size, one block.
// Case 2 shows the row split: more rows than one tile holds, over four blocks.
#include <cstdio>

#include "ops/layernorm_grad_op.h"
#include "ops/sample_data.h"

namespace ops = lngrad::ops;
namespace smp = lngrad::ops::sample;

namespace {

constexpr double kEpsilon = 1e-4;
constexpr double kTolerance = 1e-4;  // the official rule's bound

constexpr smp::ExampleCase kCases[] = {
    {"official sample", ops::OpDType::kFloat32, 2, 32, 16, 1, "Ascend910B1"},
    {"rows split over blocks and tiles", ops::OpDType::kFloat32, 3, 700, 64, 4, "Ascend910B1"},
};

bool RunCase(const smp::ExampleCase& c, uint64_t seed) {
  smp::LayerNormGradData d = smp::MakeLayerNormGradData(c.dtype, c.rows(), static_cast<size_t>(c.h),
                                                        -100, 100, {seed, seed + 1, seed + 2});
  ops::LayerNormGradOpArgs args;
  smp::ApplyCase(c, &args);
  d.Bind(&args);
  args.epsilon = static_cast<float>(kEpsilon);
  ops::LayerNormGradOpInfo info;
  const lngrad::Status st = ops::RunLayerNormGradOp(args, &info);
  smp::PrintCaseTitle(c);
  if (!smp::Succeeded("operator", st)) return false;
  smp::PrintOpInfo(info, info.blocks[0].tile_rows);
  std::printf("scratch %llu B\n", static_cast<unsigned long long>(info.scratch_bytes));
  return d.Check(kEpsilon, kTolerance);
}

}  // namespace

int main() { return smp::RunExampleCases(kCases, 2024, RunCase); }
