// Gelu (the high-level activation API, lib/activation/gelu.h) on the simulated device against a
// plain native loop doing the same maths, 4096 x 768 elements, float and half. The device run is
// one block (a sequential launch, checked mode off) streaming the tensor through UB in 8192-element
// tiles: DataCopy in, Gelu with a sharedTmpBuffer, DataCopy out. The native loop computes the
// same tanh-form formula in float per element, with e^x from the double library rounded to float
// (the device model's Exp), half widened and rounded back once.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <type_traits>
#include <vector>

#include "kernel_operator.h"

namespace {

constexpr uint64_t kRows = 4096, kCols = 768, kN = kRows * kCols;
constexpr uint32_t kTile = 8192;
constexpr uint32_t kTmpBytes = 1024;

template <typename T>
void GeluKernel(T* x, T* y) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> in, out, tmp;
  pipe.InitBuffer(in, kTile * sizeof(T));
  pipe.InitBuffer(out, kTile * sizeof(T));
  pipe.InitBuffer(tmp, kTmpBytes);
  AscendC::GlobalTensor<T> gx, gy;
  gx.SetGlobalBuffer(x, kN);
  gy.SetGlobalBuffer(y, kN);
  const AscendC::LocalTensor<T> a = in.Get<T>(), b = out.Get<T>();
  const AscendC::LocalTensor<uint8_t> t = tmp.Get<uint8_t>();
  for (uint64_t off = 0; off < kN; off += kTile) {
    AscendC::DataCopy(a, gx[off], kTile);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Gelu(b, a, t, kTile);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(gy[off], b, kTile);
    AscendC::PipeBarrier<PIPE_ALL>();
  }
}

template <typename T>
void BM_GeluDevice(benchmark::State& state) {
  auto* x = static_cast<T*>(AscendC::GmAlloc(kN * sizeof(T)));
  auto* y = static_cast<T*>(AscendC::GmAlloc(kN * sizeof(T)));
  std::mt19937 gen(1);
  std::uniform_real_distribution<float> d(-6.0f, 6.0f);
  for (uint64_t i = 0; i < kN; ++i) x[i] = T(d(gen));
  lngrad::aicore::LaunchOptions o;
  o.sequential = true;
  for (auto _ : state) {
    const lngrad::Status st = lngrad::aicore::Launch(
        1, [&] { GeluKernel(x, y); }, o);
    if (!st.ok()) {
      state.SkipWithError(st.message().c_str());
      break;
    }
    benchmark::DoNotOptimize(y[0]);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kN));
  AscendC::GmFree(x);
  AscendC::GmFree(y);
}

// The same formula natively: y = x / (e^(-|z|) + 1) * e^(min(z, 0)), z the tanh argument.
float GeluNative(float x) {
  const float z = (x + x * x * x * 0.044715f) * 1.5957691216057308f;
  const float lo = static_cast<float>(std::exp(static_cast<double>(std::fmin(z, 0.0f))));
  const float e = static_cast<float>(std::exp(static_cast<double>(-std::fabs(z)))) + 1.0f;
  return x / e * lo;
}

template <typename T>
void BM_GeluNative(benchmark::State& state) {
  std::vector<T> x(kN), y(kN);
  std::mt19937 gen(1);
  std::uniform_real_distribution<float> d(-6.0f, 6.0f);
  for (auto& v : x) v = T(d(gen));
  for (auto _ : state) {
    for (uint64_t i = 0; i < kN; ++i) y[i] = T(GeluNative(static_cast<float>(x[i])));
    benchmark::DoNotOptimize(y.data());
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kN));
}

BENCHMARK(BM_GeluDevice<float>)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_GeluNative<float>)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_GeluDevice<half>)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_GeluNative<half>)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
