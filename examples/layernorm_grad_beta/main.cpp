// LayerNormGradBeta operator example: generate data, run the operator on the simulated device,
// compare with a float64 golden, print "test pass!".
//
// Case 1 is the official sample (spec §5.6): [4,8,512] float, dy and resForGamma integers in
// [-10, 10), one block, tolerance 1e-5 (abs and rel, the sample's rule). Integer inputs keep
// every sum exact in float, so the outputs must equal the golden whatever the summation order:
// cases 2 and 3 split the rows over blocks and tiles, case 4 is half (sums below 2048 stay
// exact in half).
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "ops/sample_data.h"
#include "ops/layernorm_grad_beta_op.h"

namespace ex = lngrad::ops;
namespace smp = lngrad::ops::sample;

namespace {

struct Case {
  const char* name;
  ex::OpDType dtype;
  int64_t b, s, h;
  uint32_t blocks;
  const char* soc;
};

std::vector<double> Integers(size_t n, uint64_t seed) {
  std::vector<double> v = smp::Uniform(n, -10, 10, seed);
  for (double& x : v) x = std::floor(x);
  return v;
}

bool RunCase(const Case& c, uint64_t seed) {
  const size_t rows = static_cast<size_t>(c.b * c.s), h = static_cast<size_t>(c.h);
  const smp::HostTensor dy = smp::MakeTensor(c.dtype, Integers(rows * h, seed));
  const smp::HostTensor res = smp::MakeTensor(c.dtype, Integers(rows * h, seed + 1));
  smp::HostTensor pd_gamma = smp::ZeroTensor(c.dtype, h), pd_beta = smp::ZeroTensor(c.dtype, h);

  ex::LayerNormGradBetaOpArgs args;
  args.dtype = c.dtype;
  args.b = c.b;
  args.s = c.s;
  args.h = c.h;
  args.res_for_gamma = res.data();
  args.dy = dy.data();
  args.pd_gamma = pd_gamma.data();
  args.pd_beta = pd_beta.data();
  args.launch.blocks = c.blocks;
  args.launch.soc = c.soc;
  ex::LayerNormGradBetaOpInfo info;
  const lngrad::Status st = ex::RunLayerNormGradBetaOp(args, &info);
  std::printf("== %s: %s [%lld,%lld,%lld] on %s\n", c.name, ex::DTypeName(c.dtype),
              static_cast<long long>(c.b), static_cast<long long>(c.s), static_cast<long long>(c.h),
              c.soc);
  if (!st.ok()) {
    std::printf("operator failed: %s\n", st.ToString().c_str());
    return false;
  }
  std::printf("blocks %u, tiles %llu (block 0: %u rows per tile), tmp %u B, UB %llu B\n",
              info.blocks_used, static_cast<unsigned long long>(info.tiles),
              info.blocks[0].tile_rows, info.tmp_bytes,
              static_cast<unsigned long long>(info.ub_bytes));
  std::vector<double> want_gamma, want_beta;
  smp::LayerNormGradBetaGolden(rows, h, dy.values, res.values, &want_gamma, &want_beta);
  const std::vector<double> got_gamma = smp::Values(c.dtype, pd_gamma.data(), h);
  const std::vector<double> got_beta = smp::Values(c.dtype, pd_beta.data(), h);
  bool ok = smp::PrintRule("outputPdGamma", smp::CheckRule(got_gamma, want_gamma, 1e-5), got_gamma,
                           want_gamma);
  ok = smp::PrintRule("outputPdBeta", smp::CheckRule(got_beta, want_beta, 1e-5), got_beta,
                      want_beta) &&
       ok;
  return ok;
}

}  // namespace

int main() {
  const Case cases[] = {
      {"official sample", ex::OpDType::kFloat32, 4, 8, 512, 1, "Ascend910B1"},
      {"rows split over blocks and tiles", ex::OpDType::kFloat32, 6, 100, 256, 3, "Ascend910B1"},
      {"Atlas inference AI Core", ex::OpDType::kFloat32, 2, 50, 64, 2, "Ascend310P1"},
      {"half, one tile", ex::OpDType::kFloat16, 1, 16, 256, 1, "Ascend910B1"},
  };
  bool ok = true;
  uint64_t seed = 7;
  for (const Case& c : cases) {
    ok = RunCase(c, seed) && ok;
    seed += 10;
  }
  std::printf("%s\n", ok ? "test pass!" : "test failed!");
  return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
