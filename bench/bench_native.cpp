// Native library throughput: LayerNormBackward, LayerNormGrad, LayerNormGradBeta and the
// LayerNorm forward, float, half and bfloat16 (half LayerNormGrad/LayerNormBackward in both
// evaluations),
// rows x H in {64 x 16, 4096 x 768, 8192 x 1024, 16384 x 4096, 2048 x 12288}, 1 and 2 threads.
// bytes/s counts every tensor read or written once (the memory traffic of an ideal single pass).
// The label names the path that ran (LNGRAD_IMPL=scalar selects the reference path). Buffers
// follow bench_common.h's allocation policy (64-byte aligned, huge pages for large ones, touched
// before timing), as every peer's. LNGRAD_BENCH_NO_AVX512=1 disables Highway's AVX-512 targets
// before the first call, so that the AVX2 kernels run (and show in the label) on an AVX-512
// machine: their instruction mix, not an AVX2 machine's memory system.
#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <benchmark/benchmark.h>
#include <hwy/targets.h>

#include "bench_common.h"
#include "lngrad/lngrad.h"

namespace {

using lngrad::BFloat16;
using lngrad::Half;
using lngrad::Options;
using lngrad::RowShape;
using lngrad::RunInfo;
using lngrad::bench::Vector;

template <class T>
Vector<T> Random(size_t n, uint32_t seed, float lo, float hi) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  Vector<T> v(n);
  for (auto& e : v) e = T(dist(rng));
  return v;
}

struct Problem {
  RowShape shape;
  size_t n, rows, h;  // elements of a [rows, h] tensor, rows, h
  Options options;
  RunInfo info;
};

// The benchmark's shape and threads; eval: the half evaluation (float data ignores it).
Problem MakeProblem(const benchmark::State& state,
                    lngrad::HalfEval eval = lngrad::HalfEval::kFast) {
  Problem p;
  p.options.half_eval = eval;
  p.shape = {state.range(0), state.range(1)};
  p.rows = static_cast<size_t>(p.shape.rows);
  p.h = static_cast<size_t>(p.shape.h);
  p.n = p.rows * p.h;
  p.options.num_threads = static_cast<int>(state.range(2));
  return p;
}

// Times call() (which returns a Status and writes out), then reports bytes_per_call per iteration
// and the path that ran.
template <class Call>
void Measure(benchmark::State& state, Problem& p, const void* out, double bytes_per_call,
             const Call& call) {
  p.options.info = &p.info;
  bool ok = true;
  for (auto _ : state) {
    ok &= call().ok();
    benchmark::DoNotOptimize(out);
    benchmark::ClobberMemory();
  }
  if (!ok) {
    state.SkipWithError("the call failed");
    return;
  }
  state.SetBytesProcessed(static_cast<int64_t>(bytes_per_call) *
                          static_cast<int64_t>(state.iterations()));
  state.SetLabel(std::string(lngrad::ImplName(p.info.impl)) + "/" + p.info.target + " threads " +
                 std::to_string(p.info.threads));
}

// The inputs of LayerNormGrad and LayerNormBackward, the same for both.
template <class T>
struct GradInputs {
  Vector<T> dy, x, mean, var, gamma;
};

template <class T>
GradInputs<T> MakeGradInputs(RowShape shape) {
  const auto n = static_cast<size_t>(shape.rows * shape.h);
  const auto rows = static_cast<size_t>(shape.rows), h = static_cast<size_t>(shape.h);
  return {Random<T>(n, 1, -1, 1), Random<T>(n, 2, -2, 2), Random<T>(rows, 3, -0.1f, 0.1f),
          Random<T>(rows, 4, 0.5f, 2.0f), Random<T>(h, 5, 0.5f, 1.5f)};
}

// MakeGradInputs(shape), made once per shape and element type and kept until another shape is
// asked for: Google Benchmark calls a benchmark's function once per repetition and once more to
// size the iteration count, and drawing 2 x 64 Mi random values each time would make most of a
// run's wall time. LayerNormGradBeta and LayerNorm take their large inputs from here too.
template <class T>
const GradInputs<T>& SharedGradInputs(RowShape shape) {
  static GradInputs<T> cached;
  static RowShape cached_shape{-1, -1};
  if (cached_shape.rows != shape.rows || cached_shape.h != shape.h) {
    cached = GradInputs<T>();  // frees the old shape's buffers before the new ones are made
    cached = MakeGradInputs<T>(shape);
    cached_shape = shape;
  }
  return cached;
}

// kEval: the half evaluation (Options::half_eval; float data ignores it).
template <class T, lngrad::HalfEval kEval = lngrad::HalfEval::kFast>
void BM_LayerNormBackward(benchmark::State& state) {
  Problem p = MakeProblem(state, kEval);
  const size_t n = p.n, rows = p.rows, h = p.h;
  const GradInputs<T>& in = SharedGradInputs<T>(p.shape);
  Vector<T> dx(n), dgamma(h), dbeta(h);
  Measure(state, p, dx.data(), static_cast<double>(sizeof(T)) * (3.0 * n + 2.0 * rows + 3.0 * h),
          [&] {
            return lngrad::LayerNormBackward(p.shape, in.dy.data(), in.x.data(), in.mean.data(),
                                             in.var.data(), in.gamma.data(), 1e-5f, dx.data(),
                                             dgamma.data(), dbeta.data(), p.options);
          });
}

template <class T, lngrad::HalfEval kEval = lngrad::HalfEval::kFast>
void BM_LayerNormGrad(benchmark::State& state) {
  Problem p = MakeProblem(state, kEval);
  const size_t n = p.n, rows = p.rows, h = p.h;
  const GradInputs<T>& in = SharedGradInputs<T>(p.shape);
  Vector<T> pd_x(n), res(n);
  Measure(state, p, pd_x.data(), static_cast<double>(sizeof(T)) * (4.0 * n + 2.0 * rows + h), [&] {
    return lngrad::LayerNormGrad(p.shape, in.dy.data(), in.x.data(), in.mean.data(), in.var.data(),
                                 in.gamma.data(), 1e-5f, pd_x.data(), res.data(), p.options);
  });
}

template <class T>
void BM_LayerNormGradBeta(benchmark::State& state) {
  Problem p = MakeProblem(state);
  const size_t n = p.n, h = p.h;
  // The same values as Random<T>(n, 1, -1, 1) and Random<T>(n, 2, -2, 2).
  const Vector<T>& dy = SharedGradInputs<T>(p.shape).dy;
  const Vector<T>& res = SharedGradInputs<T>(p.shape).x;
  Vector<T> dgamma(h), dbeta(h);
  Measure(state, p, dgamma.data(), static_cast<double>(sizeof(T)) * (2.0 * n + 2.0 * h), [&] {
    return lngrad::LayerNormGradBeta(p.shape, dy.data(), res.data(), dgamma.data(), dbeta.data(),
                                     p.options);
  });
}

template <class T>
void BM_LayerNorm(benchmark::State& state) {
  Problem p = MakeProblem(state);
  const size_t n = p.n, rows = p.rows, h = p.h;
  // The same values as Random<T>(n, 2, -2, 2) and Random<T>(h, 5, 0.5f, 1.5f).
  const Vector<T>& x = SharedGradInputs<T>(p.shape).x;
  const Vector<T>& gamma = SharedGradInputs<T>(p.shape).gamma;
  const auto beta = Random<T>(h, 6, -0.5f, 0.5f);
  Vector<T> y(n), mean(rows), var(rows);
  Measure(state, p, y.data(), static_cast<double>(sizeof(T)) * (2.0 * n + 2.0 * rows + 2.0 * h),
          [&] {
            return lngrad::LayerNorm(p.shape, x.data(), gamma.data(), beta.data(), 1e-5f, y.data(),
                                     mean.data(), var.data(), p.options);
          });
}

// rows, h, threads.
void Shapes(benchmark::internal::Benchmark* b) {
  for (int64_t threads : {1, 2}) {
    for (auto [rows, h] : std::vector<std::pair<int64_t, int64_t>>{
             {64, 16}, {4096, 768}, {8192, 1024}, {16384, 4096}, {2048, 12288}}) {
      b->Args({rows, h, threads});
    }
  }
  b->ArgNames({"rows", "h", "threads"})->Unit(benchmark::kMicrosecond)->UseRealTime();
}

BENCHMARK(BM_LayerNormBackward<float>)->Apply(Shapes);
BENCHMARK(BM_LayerNormBackward<Half>)->Apply(Shapes);
BENCHMARK(BM_LayerNormGrad<float>)->Apply(Shapes);
BENCHMARK(BM_LayerNormGrad<Half>)->Apply(Shapes);
BENCHMARK(BM_LayerNormGradBeta<float>)->Apply(Shapes);
BENCHMARK(BM_LayerNormGradBeta<Half>)->Apply(Shapes);
BENCHMARK(BM_LayerNorm<float>)->Apply(Shapes);
BENCHMARK(BM_LayerNorm<Half>)->Apply(Shapes);
// bfloat16: one evaluation, the fast one (half_eval plays no part).
BENCHMARK(BM_LayerNormBackward<BFloat16>)->Apply(Shapes);
BENCHMARK(BM_LayerNormGrad<BFloat16>)->Apply(Shapes);
BENCHMARK(BM_LayerNormGradBeta<BFloat16>)->Apply(Shapes);
BENCHMARK(BM_LayerNorm<BFloat16>)->Apply(Shapes);
// The correctly rounded half evaluation (the default is the fast one).
void BM_LayerNormBackwardCorrectlyRounded(benchmark::State& state) {
  BM_LayerNormBackward<Half, lngrad::HalfEval::kCorrectlyRounded>(state);
}
void BM_LayerNormGradCorrectlyRounded(benchmark::State& state) {
  BM_LayerNormGrad<Half, lngrad::HalfEval::kCorrectlyRounded>(state);
}
BENCHMARK(BM_LayerNormBackwardCorrectlyRounded)->Apply(Shapes);
BENCHMARK(BM_LayerNormGradCorrectlyRounded)->Apply(Shapes);

}  // namespace

int main(int argc, char** argv) {
  const char* no512 = std::getenv("LNGRAD_BENCH_NO_AVX512");
  if (no512 != nullptr && std::string(no512) == "1") hwy::DisableTargets(HWY_AVX3 | HWY_AVX3_DL);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
