// LayerNormGrad operator example: generate data, run the operator on the simulated device,
// compare with a float64 golden by the official sample rule, print "test pass!".
//
// Case 1 is the official sample (spec §5): [2,32,16] float, dy, x, gamma uniform in
// [-100, 100], mean and biased variance of x, epsilon 1e-4, the minimum tmp size, one block.
// Case 2 shows the row split: more rows than one tile holds, over four blocks.
#include <cstdio>
#include <cstdlib>

#include "ops/sample_data.h"
#include "ops/layernorm_grad_op.h"

namespace ex = lngrad::ops;
namespace smp = lngrad::ops::sample;

namespace {

struct Case {
  const char* name;
  ex::OpDType dtype;
  int64_t b, s, h;
  uint32_t blocks;
  const char* soc;
  double tol;  // the official rule's bound
};

bool RunCase(const Case& c, uint64_t seed) {
  const size_t rows = static_cast<size_t>(c.b * c.s), h = static_cast<size_t>(c.h);
  const smp::HostTensor dy = smp::MakeTensor(c.dtype, smp::Uniform(rows * h, -100, 100, seed));
  const smp::HostTensor x = smp::MakeTensor(c.dtype, smp::Uniform(rows * h, -100, 100, seed + 1));
  const smp::HostTensor gamma = smp::MakeTensor(c.dtype, smp::Uniform(h, -100, 100, seed + 2));
  std::vector<double> mean_d, var_d;
  smp::RowStatistics(rows, h, x.values, &mean_d, &var_d);
  const smp::HostTensor mean = smp::MakeTensor(c.dtype, mean_d);
  const smp::HostTensor variance = smp::MakeTensor(c.dtype, var_d);
  smp::HostTensor pd_x = smp::ZeroTensor(c.dtype, rows * h),
                  res = smp::ZeroTensor(c.dtype, rows * h);

  ex::LayerNormGradOpArgs args;
  args.dtype = c.dtype;
  args.b = c.b;
  args.s = c.s;
  args.h = c.h;
  args.dy = dy.data();
  args.x = x.data();
  args.mean = mean.data();
  args.variance = variance.data();
  args.gamma = gamma.data();
  args.pd_x = pd_x.data();
  args.res_for_gamma = res.data();
  args.epsilon = 1e-4f;
  args.launch.blocks = c.blocks;
  args.launch.soc = c.soc;
  ex::LayerNormGradOpInfo info;
  const lngrad::Status st = ex::RunLayerNormGradOp(args, &info);
  std::printf("== %s: %s [%lld,%lld,%lld] on %s\n", c.name, ex::DTypeName(c.dtype),
              static_cast<long long>(c.b), static_cast<long long>(c.s), static_cast<long long>(c.h),
              c.soc);
  if (!st.ok()) {
    std::printf("operator failed: %s\n", st.ToString().c_str());
    return false;
  }
  std::printf(
      "blocks %u, tiles %llu (block 0: %u rows per tile), tmp %u B, scratch %llu B, UB %llu B\n",
      info.blocks_used, static_cast<unsigned long long>(info.tiles), info.blocks[0].tile_rows,
      info.tmp_bytes, static_cast<unsigned long long>(info.scratch_bytes),
      static_cast<unsigned long long>(info.ub_bytes));

  // The golden sees exactly what the kernel sees: the inputs as stored, epsilon as a T.
  std::vector<double> want_pd_x, want_res;
  smp::LayerNormGradGolden(rows, h, dy.values, x.values, mean.values, variance.values, gamma.values,
                           smp::RoundTo(c.dtype, 1e-4), &want_pd_x, &want_res);
  const std::vector<double> got_pd_x = smp::Values(c.dtype, pd_x.data(), rows * h);
  const std::vector<double> got_res = smp::Values(c.dtype, res.data(), rows * h);
  bool ok =
      smp::PrintRule("outputPdX", smp::CheckRule(got_pd_x, want_pd_x, c.tol), got_pd_x, want_pd_x);
  ok = smp::PrintRule("resForGamma", smp::CheckRule(got_res, want_res, c.tol), got_res, want_res) &&
       ok;
  return ok;
}

}  // namespace

int main() {
  const Case cases[] = {
      {"official sample", ex::OpDType::kFloat32, 2, 32, 16, 1, "Ascend910B1", 1e-4},
      {"rows split over blocks and tiles", ex::OpDType::kFloat32, 3, 700, 64, 4, "Ascend910B1",
       1e-4},
  };
  bool ok = true;
  uint64_t seed = 2024;
  for (const Case& c : cases) {
    ok = RunCase(c, seed) && ok;
    seed += 10;
  }
  std::printf("%s\n", ok ? "test pass!" : "test failed!");
  return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
