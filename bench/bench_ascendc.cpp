// The Ascend C path (the examples/layernorm_grad operator on the simulated device, blocks on
// threads) against the native LayerNormGrad, float32, same inputs, outputs preallocated.
// blocks = threads. Checked mode on and off (lngrad::ascend::SetCheckedMode); before timing,
// the operator's outputs with checked mode off must be bitwise those with it on (checking must
// not change the bits). bytes/s counts dy, x, pd_x, res_for_gamma (4*rows*h*4) plus the small
// vectors, as bench_native's LayerNormGrad.
#include <cstdio>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include <benchmark/benchmark.h>

#include "bench_common.h"
#include "layernorm_grad/layernorm_grad_op.h"
#include "lngrad_rt/check.h"

namespace {

using lngrad::bench::Inputs;

struct GradOut {
  std::vector<float> pd_x, res;
};

lngrad::examples::LayerNormGradOpArgs OpArgs(const Inputs& in, GradOut* out, int blocks) {
  lngrad::examples::LayerNormGradOpArgs a;
  a.dtype = lngrad::examples::OpDType::kFloat32;
  a.b = 1;
  a.s = in.rows;
  a.h = in.h;
  a.dy = in.dy.data();
  a.x = in.x.data();
  a.mean = in.mean.data();
  a.variance = in.variance.data();
  a.gamma = in.gamma.data();
  a.pd_x = out->pd_x.data();
  a.res_for_gamma = out->res.data();
  a.epsilon = lngrad::bench::kEpsilon;
  a.launch.blocks = static_cast<uint32_t>(blocks);
  return a;
}

GradOut Allocate(const Inputs& in) {
  return {std::vector<float>(in.dy.size()), std::vector<float>(in.dy.size())};
}

double Bytes(const Inputs& in) {
  return 16.0 * static_cast<double>(in.rows * in.h) + 8.0 * in.rows + 4.0 * in.h;
}

void BM_AscendC(benchmark::State& state, int64_t rows, int64_t h, int threads, bool checked) {
  const Inputs in = lngrad::bench::MakeInputs(rows, h);
  GradOut out = Allocate(in);
  const auto args = OpArgs(in, &out, threads);
  lngrad::ascend::SetCheckedMode(checked);
  for (auto _ : state) {
    const lngrad::Status s = lngrad::examples::RunLayerNormGradOp(args);
    if (!s.ok()) {
      state.SkipWithError(s.ToString().c_str());
      break;
    }
    benchmark::DoNotOptimize(out.pd_x.data());
  }
  lngrad::ascend::SetCheckedMode(true);
  state.SetBytesProcessed(static_cast<int64_t>(Bytes(in)) *
                          static_cast<int64_t>(state.iterations()));
}

void BM_Native(benchmark::State& state, int64_t rows, int64_t h, int threads) {
  const Inputs in = lngrad::bench::MakeInputs(rows, h);
  GradOut out = Allocate(in);
  lngrad::Options o;
  o.num_threads = threads;
  for (auto _ : state) {
    const lngrad::Status s = lngrad::LayerNormGrad(
        {rows, h}, in.dy.data(), in.x.data(), in.mean.data(), in.variance.data(),
        in.gamma.data(), lngrad::bench::kEpsilon, out.pd_x.data(), out.res.data(), o);
    if (!s.ok()) {
      state.SkipWithError(s.ToString().c_str());
      break;
    }
    benchmark::DoNotOptimize(out.pd_x.data());
  }
  state.SetBytesProcessed(static_cast<int64_t>(Bytes(in)) *
                          static_cast<int64_t>(state.iterations()));
}

// rows x h with h*4 a multiple of 32 bytes and a row that fits the default product's UB.
const std::vector<std::pair<int64_t, int64_t>> kShapes = {{64, 16}, {4096, 768}, {8192, 1024},
                                                          {16384, 4096}};

}  // namespace

int main(int argc, char** argv) {
  bool ok = true;
  for (const auto& [rows, h] : kShapes) {
    const Inputs in = lngrad::bench::MakeInputs(rows, h);
    GradOut on = Allocate(in), off = Allocate(in);
    lngrad::ascend::SetCheckedMode(true);
    const lngrad::Status s1 = lngrad::examples::RunLayerNormGradOp(OpArgs(in, &on, 2));
    lngrad::ascend::SetCheckedMode(false);
    const lngrad::Status s2 = lngrad::examples::RunLayerNormGradOp(OpArgs(in, &off, 2));
    lngrad::ascend::SetCheckedMode(true);
    const bool same = s1.ok() && s2.ok() &&
                      std::memcmp(on.pd_x.data(), off.pd_x.data(), on.pd_x.size() * 4) == 0 &&
                      std::memcmp(on.res.data(), off.res.data(), on.res.size() * 4) == 0;
    std::printf("bits %lldx%lld checked-on vs checked-off: %s\n", static_cast<long long>(rows),
                static_cast<long long>(h), same ? "identical" : "DIFFERENT");
    if (!s1.ok()) std::printf("  %s\n", s1.ToString().c_str());
    ok &= same;
  }
  if (!ok) return 1;
  for (int threads : {1, 2}) {
    for (const auto& [rows, h] : kShapes) {
      const std::string shape = "/rows:" + std::to_string(rows) + "/h:" + std::to_string(h) +
                                "/threads:" + std::to_string(threads);
      benchmark::RegisterBenchmark(("BM_NativeLayerNormGrad" + shape).c_str(), BM_Native, rows,
                                   h, threads)
          ->Unit(benchmark::kMicrosecond)
          ->UseRealTime();
      for (bool checked : {false, true}) {
        benchmark::RegisterBenchmark(
            ("BM_AscendCLayerNormGrad" + shape + (checked ? "/checked" : "/unchecked")).c_str(),
            BM_AscendC, rows, h, threads, checked)
            ->Unit(benchmark::kMicrosecond)
            ->UseRealTime();
      }
    }
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
