// The Ascend C path (the LayerNormGrad operator of src/ops on the simulated device, blocks on
// threads) against the native LayerNormGrad, float32, same inputs, outputs preallocated.
// blocks = threads. Checked mode on and off (lngrad::aicore::SetCheckedMode); the operator's
// outputs are staged in checked mode and written in place in unchecked mode (its default,
// LaunchConfig::Outputs::kAuto); "checked_inplace" is checked mode writing in place, which
// splits checked mode's cost into the checks and the staging; "sanitized" is checked mode with
// every sanitizer tool on (LaunchConfig::sanitize). Before timing, the outputs with
// checked mode off (in place), off and staged, and on (staged) must be bitwise the same. bytes/s
// counts dy, x, pd_x, res_for_gamma (4*rows*h*4) plus the small vectors, as bench_native's
// LayerNormGrad. LNGRAD_BENCH_SHAPES="ROWSxH,..." restricts the shapes (bench/compare --quick).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <benchmark/benchmark.h>

#include "bench_common.h"
#include "bench_register.h"
#include "ops/layernorm_grad_op.h"
#include "lngrad_aicore/check.h"
#include "lngrad_aicore/sanitizer.h"

namespace {

using lngrad::bench::Inputs;

// Under bench_common.h's allocation policy (as the inputs); what the operator stages on the
// simulated device (checked mode) the library allocates itself.
struct GradOut {
  lngrad::bench::Vector<float> pd_x, res;
};

using Outputs = lngrad::ops::LaunchConfig::Outputs;

lngrad::ops::LayerNormGradOpArgs OpArgs(const Inputs& in, GradOut* out, int blocks,
                                        Outputs outputs = Outputs::kAuto, uint32_t sanitize = 0) {
  lngrad::ops::LayerNormGradOpArgs a;
  a.SetShape(lngrad::ops::OpDType::kFloat32, 1, in.rows, in.h);
  a.SetTensors(in.dy.data(), in.x.data(), in.mean.data(), in.variance.data(), in.gamma.data(),
               out->pd_x.data(), out->res.data());
  a.epsilon = lngrad::bench::kEpsilon;
  a.launch.blocks = static_cast<uint32_t>(blocks);
  a.launch.outputs = outputs;
  a.launch.sanitize = sanitize;
  return a;
}

GradOut Allocate(const Inputs& in) {
  return {lngrad::bench::Vector<float>(in.dy.size()), lngrad::bench::Vector<float>(in.dy.size())};
}

double Bytes(const Inputs& in) {
  return 16.0 * static_cast<double>(in.rows * in.h) + 8.0 * in.rows + 4.0 * in.h;
}

void BM_AscendC(benchmark::State& state, int64_t rows, int64_t h, int threads, bool checked,
                Outputs outputs, uint32_t sanitize) {
  const Inputs& in = lngrad::bench::SharedInputs(rows, h);
  GradOut out = Allocate(in);
  const auto args = OpArgs(in, &out, threads, outputs, sanitize);
  lngrad::aicore::SetCheckedMode(checked);
  for (auto _ : state) {
    const lngrad::Status s = lngrad::ops::RunLayerNormGradOp(args);
    if (!s.ok()) {
      state.SkipWithError(s.ToString().c_str());
      break;
    }
    benchmark::DoNotOptimize(out.pd_x.data());
  }
  lngrad::aicore::SetCheckedMode(true);
  state.SetBytesProcessed(static_cast<int64_t>(Bytes(in)) *
                          static_cast<int64_t>(state.iterations()));
}

void BM_Native(benchmark::State& state, int64_t rows, int64_t h, int threads) {
  const Inputs& in = lngrad::bench::SharedInputs(rows, h);
  GradOut out = Allocate(in);
  lngrad::Options o;
  o.num_threads = threads;
  for (auto _ : state) {
    const lngrad::Status s = lngrad::LayerNormGrad(
        {rows, h}, in.dy.data(), in.x.data(), in.mean.data(), in.variance.data(), in.gamma.data(),
        lngrad::bench::kEpsilon, out.pd_x.data(), out.res.data(), o);
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
const std::vector<std::pair<int64_t, int64_t>> kShapes = {
    {64, 16}, {4096, 768}, {8192, 1024}, {16384, 4096}};

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::pair<int64_t, int64_t>> shapes;
  if (!lngrad::bench::SelectedShapes(kShapes, &shapes)) return 2;
  bool ok = true;
  // LNGRAD_BENCH_BITS=0 skips the bit checks (for profiling the timed loops alone).
  const char* bits_env = std::getenv("LNGRAD_BENCH_BITS");
  const bool check_bits = bits_env == nullptr || std::strcmp(bits_env, "0") != 0;
  for (const auto& [rows, h] : shapes) {
    if (!check_bits) break;
    const Inputs& in = lngrad::bench::SharedInputs(rows, h);
    GradOut on = Allocate(in), off = Allocate(in), off_staged = Allocate(in);
    lngrad::aicore::SetCheckedMode(true);
    const lngrad::Status s1 = lngrad::ops::RunLayerNormGradOp(OpArgs(in, &on, 2));
    lngrad::aicore::SetCheckedMode(false);
    const lngrad::Status s2 = lngrad::ops::RunLayerNormGradOp(OpArgs(in, &off, 2));
    const lngrad::Status s3 =
        lngrad::ops::RunLayerNormGradOp(OpArgs(in, &off_staged, 2, Outputs::kStaged));
    lngrad::aicore::SetCheckedMode(true);
    auto equal = [](const GradOut& a, const GradOut& b) {
      return std::memcmp(a.pd_x.data(), b.pd_x.data(), a.pd_x.size() * 4) == 0 &&
             std::memcmp(a.res.data(), b.res.data(), a.res.size() * 4) == 0;
    };
    const bool same = s1.ok() && s2.ok() && s3.ok() && equal(on, off) && equal(on, off_staged);
    // stderr: stdout may carry the JSON report (--benchmark_format=json, bench/compare).
    std::fprintf(
        stderr, "bits %lldx%lld checked-on (staged) vs checked-off (in place, staged): %s\n",
        static_cast<long long>(rows), static_cast<long long>(h), same ? "identical" : "DIFFERENT");
    for (const lngrad::Status* st : {&s1, &s2, &s3}) {
      if (!st->ok()) std::fprintf(stderr, "  %s\n", st->ToString().c_str());
    }
    ok &= same;
  }
  if (!ok) return 1;
  for (int threads : {1, 2}) {
    for (const auto& [rows, h] : shapes) {
      const std::string native =
          lngrad::bench::BenchmarkName("BM_NativeLayerNormGrad", rows, h, threads);
      lngrad::bench::RegisterRealTime(native, BM_Native, rows, h, threads);
      const std::string ascendc =
          lngrad::bench::BenchmarkName("BM_AscendCLayerNormGrad", rows, h, threads);
      const std::tuple<const char*, bool, Outputs, uint32_t> modes[] = {
          {"/unchecked", false, Outputs::kAuto, 0},
          {"/checked", true, Outputs::kAuto, 0},
          {"/checked_inplace", true, Outputs::kInPlace, 0},
          {"/sanitized", true, Outputs::kAuto, lngrad::aicore::san::kAllTools}};
      for (const auto& [name, checked, outputs, sanitize] : modes) {
        lngrad::bench::RegisterRealTime(ascendc + name, BM_AscendC, rows, h, threads, checked,
                                        outputs, sanitize);
      }
    }
  }
  return lngrad::bench::RunRegisteredBenchmarks(argc, argv);
}
