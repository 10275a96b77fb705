// lngrad_adv (the simulated device's maths) on UB-sized buffers: whole LayerNormGrad,
// LayerNormGradBeta and LayerNorm calls (float and half, vector and register path) and the
// primitives they are built from. bytes/s counts every [rows, H] tensor the call reads or
// writes once (the small per-row and per-column vectors are left out).
//
// The path follows the environment, read once (lngrad_aicore/instructions.h ResolveImpl): default
// SIMD with row fusion, LNGRAD_ADV_FUSE=0 for the SIMD steps, LNGRAD_IMPL=scalar for the scalar
// reference; compare builds by running two binaries interleaved.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <type_traits>
#include <vector>

#include <benchmark/benchmark.h>

#include "adv_test_util.h"
#include "lngrad_adv/normalization.h"
#include "lngrad_aicore/instructions.h"

namespace {

namespace dm = lngrad::adv;
namespace ai = lngrad::aicore;
using lngrad::Half;

std::vector<float> Random(size_t n, float lo, float hi, uint32_t seed) {
  return dm::testing::Uniform(n, lo, hi, seed);
}

template <typename T>
std::vector<T> As(const std::vector<float>& f) {
  if constexpr (std::is_same_v<T, float>) {
    return f;
  } else {
    return dm::testing::ToHalf(f);
  }
}

void Require(const lngrad::Status& s, benchmark::State& state) {
  if (!s.ok()) {
    state.SkipWithError(s.message().c_str());
  }
}

dm::Algorithm Algo(int64_t a) { return a == 0 ? dm::Algorithm::kVector : dm::Algorithm::kRegBase; }

// The epsilon every call uses, as the API's T.
template <typename T>
T Epsilon() {
  if constexpr (std::is_same_v<T, Half>) {
    return Half(1e-5f);
  } else {
    return 1e-5f;
  }
}

// Times call(), which writes out, and counts bytes_per_call per iteration. A call that returns a
// Status ends the run with its message on error.
template <typename Call>
void Measure(benchmark::State& state, const void* out, size_t bytes_per_call, const Call& call) {
  for (auto _ : state) {
    if constexpr (std::is_void_v<decltype(call())>) {
      call();
    } else {
      const lngrad::Status s = call();
      if (!s.ok()) {
        state.SkipWithError(s.message().c_str());
        break;
      }
    }
    benchmark::DoNotOptimize(out);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(bytes_per_call));
}

// Args: rows, h, algorithm (0 vector, 1 register), reuse (0).
template <typename T>
void BM_LayerNormGrad(benchmark::State& state) {
  const auto rows = static_cast<uint32_t>(state.range(0));
  const auto h = static_cast<uint32_t>(state.range(1));
  const dm::Algorithm algo = Algo(state.range(2));
  const bool reuse = state.range(3) != 0;
  constexpr bool kHalf = std::is_same_v<T, Half>;
  const size_t n = size_t{rows} * h;
  const auto xf = Random(n, -3.0f, 3.0f, 1);
  std::vector<float> mf, vf;
  dm::testing::RowStats(xf, rows, h, &mf, &vf);
  const std::vector<T> x0 = As<T>(xf), dy0 = As<T>(Random(n, -1.0f, 1.0f, 2));
  const std::vector<T> gamma = As<T>(Random(h, 0.5f, 1.5f, 3)), mean = As<T>(mf), var = As<T>(vf);
  // isReuseSource clobbers dy and x, so repeated calls would not see the same data; the bench
  // measures reuse = false only (tests/device covers reuse).
  std::vector<T> x = x0, dy = dy0, pd_x(n), res(n);
  // One chunk holding every row (rows a multiple of 8 / 16 keeps nohCalSize exact).
  const uint32_t bufs = kHalf ? 9 : (reuse ? 4 : 6);
  const dm::LayerNormGradTiling t = dm::testing::MakeGradTiling(
      1, rows, h, h, bufs * static_cast<uint32_t>(n) * 4, sizeof(T), reuse);
  dm::LayerNormGradFootprint f;
  Require(dm::LayerNormGradFootprintFor(algo, t, kHalf, reuse, &f), state);
  std::vector<float> scratch(std::max<uint64_t>(f.scratch, 1));
  dm::LayerNormGradOperands<T> o;
  o.outputPdX = {pd_x.data(), n};
  o.resForGamma = {res.data(), n};
  o.inputDy = {dy.data(), n};
  o.inputX = {x.data(), n};
  o.inputVariance = {var.data(), rows};
  o.inputMean = {mean.data(), rows};
  o.inputGamma = {gamma.data(), h};
  o.scratch = {scratch.data(), scratch.size()};
  const T eps = Epsilon<T>();
  Measure(state, pd_x.data(), 4 * n * sizeof(T),
          [&] { return dm::LayerNormGrad(algo, t, o, eps, reuse); });
}

// Args: rows, h, algorithm.
template <typename T>
void BM_LayerNormGradBeta(benchmark::State& state) {
  const auto rows = static_cast<uint32_t>(state.range(0));
  const auto h = static_cast<uint32_t>(state.range(1));
  const dm::Algorithm algo = Algo(state.range(2));
  constexpr bool kHalf = std::is_same_v<T, Half>;
  const size_t n = size_t{rows} * h;
  const std::vector<T> dy = As<T>(Random(n, -1.0f, 1.0f, 4));
  std::vector<T> res = As<T>(Random(n, -2.0f, 2.0f, 5)), g(h), b(h);
  const uint32_t stack =
      kHalf ? static_cast<uint32_t>((2 * n + 2 * h) * 4) : static_cast<uint32_t>(n * 4);
  const dm::LayerNormGradBetaTiling t = dm::testing::MakeBetaTiling(1, rows, h, h, stack, kHalf);
  dm::LayerNormGradBetaFootprint f;
  Require(dm::LayerNormGradBetaFootprintFor(algo, t, kHalf, false, &f), state);
  std::vector<float> scratch(std::max<uint64_t>(f.scratch, 1));
  dm::LayerNormGradBetaOperands<T> o;
  o.outputPdGamma = {g.data(), h};
  o.outputPdBeta = {b.data(), h};
  o.resForGamma = {res.data(), n};
  o.inputDy = {dy.data(), n};
  o.scratch = {scratch.data(), scratch.size()};
  Measure(state, g.data(), 2 * n * sizeof(T),
          [&] { return dm::LayerNormGradBeta(algo, t, o, false); });
}

// Args: rows, h, algorithm.
template <typename T>
void BM_LayerNorm(benchmark::State& state) {
  const auto rows = static_cast<uint32_t>(state.range(0));
  const auto h = static_cast<uint32_t>(state.range(1));
  const dm::Algorithm algo = Algo(state.range(2));
  constexpr bool kHalf = std::is_same_v<T, Half>;
  const size_t n = size_t{rows} * h;
  std::vector<T> x = As<T>(Random(n, -3.0f, 3.0f, 6));
  const std::vector<T> gamma = As<T>(Random(h, 0.5f, 1.5f, 7)), beta = As<T>(Random(h, -1, 1, 8));
  std::vector<T> out(n), mean(rows), var(rows);
  dm::LayerNormTiling t = dm::testing::MakeLayerNormTiling(1, rows, h, rows, kHalf, false);
  dm::LayerNormFootprint f;
  Require(dm::LayerNormFootprintFor(algo, t, kHalf, false, &f), state);
  std::vector<float> scratch(std::max<uint64_t>(f.scratch, 1));
  dm::LayerNormOperands<T> o;
  o.output = {out.data(), n};
  o.outputMean = {mean.data(), rows};
  o.outputVariance = {var.data(), rows};
  o.inputX = {x.data(), n};
  o.gamma = {gamma.data(), h};
  o.beta = {beta.data(), h};
  o.scratch = {scratch.data(), scratch.size()};
  const T eps = Epsilon<T>();
  Measure(state, out.data(), 2 * n * sizeof(T),
          [&] { return dm::LayerNorm(algo, t, o, eps, false); });
}

// ---- primitives ---------------------------------------------------------------------------

// Args: rows, h. ReduceSumRows over a [rows, h] chunk (bytes: the chunk read once).
void BM_ReduceSumRows(benchmark::State& state) {
  const auto rows = static_cast<uint32_t>(state.range(0));
  const auto h = static_cast<uint32_t>(state.range(1));
  const size_t n = size_t{rows} * h;
  const auto src = Random(n, -1.0f, 1.0f, 9);
  std::vector<float> dst(n);
  Measure(state, dst.data(), n * sizeof(float),
          [&] { dm::ReduceSumRows(dst.data(), src.data(), static_cast<uint32_t>(n), h); });
}

// Args: n. Bytes: source read + destination written.
void BM_CastHalfToFloat(benchmark::State& state) {
  const auto n = static_cast<size_t>(state.range(0));
  const auto src = dm::testing::ToHalf(Random(n, -70000.0f, 70000.0f, 10));
  std::vector<float> dst(n);
  Measure(state, dst.data(), n * 6, [&] { ai::CastHalfToFloat(dst.data(), src.data(), n); });
}

void BM_CastFloatToHalf(benchmark::State& state) {
  const auto n = static_cast<size_t>(state.range(0));
  const auto src = Random(n, -70000.0f, 70000.0f, 11);
  std::vector<Half> dst(n);
  Measure(state, dst.data(), n * 6, [&] { ai::CastFloatToHalf(dst.data(), src.data(), n); });
}

// Args: rows, h. Bytes: written.
void BM_BroadcastRows(benchmark::State& state) {
  const auto rows = static_cast<size_t>(state.range(0));
  const auto h = static_cast<size_t>(state.range(1));
  const auto src = Random(rows, -1.0f, 1.0f, 12);
  std::vector<float> dst(rows * h);
  Measure(state, dst.data(), rows * h * 4,
          [&] { ai::BroadcastRows(dst.data(), src.data(), rows, h); });
}

// Args: n. One Mul per call (per-call overhead for short n, streaming for long n).
void BM_Mul(benchmark::State& state) {
  const auto n = static_cast<size_t>(state.range(0));
  const auto a = Random(n, -1.0f, 1.0f, 13), b = Random(n, -1.0f, 1.0f, 14);
  std::vector<float> d(n);
  const ai::Ops ops{dm::ResolveImpl(dm::Impl::kAuto) == dm::Impl::kSimd};
  Measure(state, d.data(), n * 12, [&] { ops.Mul(d.data(), a.data(), b.data(), n); });
}

// UB-sized chunks: 8 rows of 768 / 1024 (float) or 16 rows (half), 2 rows of 4096, 64 x 16.
void GradArgs(benchmark::internal::Benchmark* b, int64_t rows_768) {
  for (int64_t algo : {0, 1}) {
    b->Args({rows_768, 768, algo, 0});
    b->Args({rows_768, 1024, algo, 0});
    b->Args({rows_768, 4096, algo, 0});
    b->Args({64, 16, algo, 0});
    b->Args({rows_768, 128, algo, 0});
  }
}

}  // namespace

BENCHMARK(BM_LayerNormGrad<float>)->Apply([](auto* b) { GradArgs(b, 8); });
BENCHMARK(BM_LayerNormGrad<Half>)->Apply([](auto* b) { GradArgs(b, 16); });
BENCHMARK(BM_LayerNormGradBeta<float>)->Apply([](auto* b) {
  for (int64_t algo : {0, 1}) b->Args({8, 768, algo})->Args({8, 4096, algo})->Args({64, 16, algo});
});
BENCHMARK(BM_LayerNormGradBeta<Half>)->Apply([](auto* b) {
  for (int64_t algo : {0, 1}) b->Args({16, 768, algo})->Args({16, 4096, algo});
});
BENCHMARK(BM_LayerNorm<float>)->Apply([](auto* b) {
  for (int64_t algo : {0, 1}) b->Args({8, 768, algo})->Args({8, 4096, algo})->Args({64, 16, algo});
});
BENCHMARK(BM_LayerNorm<Half>)->Apply([](auto* b) {
  for (int64_t algo : {0, 1}) b->Args({16, 768, algo})->Args({16, 4096, algo});
});
BENCHMARK(BM_ReduceSumRows)->Args({8, 768})->Args({8, 4096})->Args({64, 16})->Args({2, 5000});
BENCHMARK(BM_CastHalfToFloat)->Arg(6144);
BENCHMARK(BM_CastFloatToHalf)->Arg(6144);
BENCHMARK(BM_BroadcastRows)->Args({8, 768})->Args({64, 16});
BENCHMARK(BM_Mul)->Arg(8)->Arg(6144);

BENCHMARK_MAIN();
