// The transformer APIs of issue 28 (Gelu, SoftMax, RmsNorm) through the Ascend C API on the
// simulated device, against a plain native loop doing the same maths, on 4096 x 768 float and half.
// Part of bench_adv. The device run is one block (a sequential launch, checked mode as the
// environment says: off by default) streaming the tensor through UB in tiles of 8 rows: DataCopy
// in, the API with a sharedTmpBuffer of the size its host function asks for, DataCopy out. The
// native loops compute the same formulas in float per element, e^x and ln from the double library
// rounded to float (the device model's Exp), half widened and rounded back once. bytes/s counts the
// input and the output once.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "kernel_operator.h"
#include "tiling/tiling_api.h"

namespace {

constexpr uint32_t kRows = 4096, kCols = 768, kTileRows = 8, kTile = kTileRows * kCols;
constexpr uint64_t kN = uint64_t{kRows} * kCols;

// The tmp buffer every API gets; at least each API's maximum for one tile (checked at setup).
constexpr uint32_t kTmpBytes = 64 * 1024;

// Gelu on a tile.
struct GeluApi {
  template <typename T>
  void Init(AscendC::TPipe&) {}
  template <typename T>
  void Run(const AscendC::LocalTensor<T>& y, const AscendC::LocalTensor<T>& x,
           const AscendC::LocalTensor<uint8_t>& tmp) {
    AscendC::Gelu(y, x, tmp, kTile);
  }
};

// SoftMax over each row of a tile; the statistics ([rows, 32 bytes]) stay in UB.
struct SoftMaxApi {
  AscendC::TBuf<AscendC::TPosition::VECCALC> stats;
  SoftMaxTiling tiling;
  template <typename T>
  void Init(AscendC::TPipe& pipe) {
    pipe.InitBuffer(stats, 2 * kTileRows * 32);
    const ge::Shape shape({kTileRows, kCols});
    AscendC::SoftMaxTilingFunc(shape, sizeof(T), kTmpBytes, tiling);
  }
  template <typename T>
  void Run(const AscendC::LocalTensor<T>& y, const AscendC::LocalTensor<T>& x,
           const AscendC::LocalTensor<uint8_t>& tmp) {
    const AscendC::LocalTensor<T> s = stats.Get<T>();
    const uint32_t per_row = 32 / sizeof(T);
    AscendC::SoftMax<T>(y, s, s[kTileRows * per_row], x, tmp, tiling,
                        AscendC::SoftMaxShapeInfo{kTileRows, kCols, kTileRows, kCols});
  }
};

// RmsNorm over each row of a tile ([1, 8, 768]) with a gamma of ones.
struct RmsNormApi {
  AscendC::TBuf<AscendC::TPosition::VECCALC> gamma;
  RmsNormTiling tiling;
  template <typename T>
  void Init(AscendC::TPipe& pipe) {
    pipe.InitBuffer(gamma, kCols * sizeof(T));
    AscendC::Duplicate(gamma.Get<T>(), T(1.0f), kCols);
    AscendC::PipeBarrier<PIPE_ALL>();
    const ge::Shape shape({1, kTileRows, kCols});
    AscendC::GetRmsNormTilingInfo(shape, shape, kTmpBytes, sizeof(T), tiling, false);
  }
  template <typename T>
  void Run(const AscendC::LocalTensor<T>& y, const AscendC::LocalTensor<T>& x,
           const AscendC::LocalTensor<uint8_t>& tmp) {
    AscendC::RmsNorm<T>(y, x, gamma.Get<T>(), tmp, T(1e-5f), tiling);
  }
};

template <typename T, typename Api>
void StreamKernel(T* x, T* y) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> in, out, tmp;
  pipe.InitBuffer(in, kTile * sizeof(T));
  pipe.InitBuffer(out, kTile * sizeof(T));
  pipe.InitBuffer(tmp, kTmpBytes);
  Api api;
  api.template Init<T>(pipe);
  AscendC::GlobalTensor<T> gx, gy;
  gx.SetGlobalBuffer(x, kN);
  gy.SetGlobalBuffer(y, kN);
  const AscendC::LocalTensor<T> a = in.Get<T>(), b = out.Get<T>();
  const AscendC::LocalTensor<uint8_t> t = tmp.Get<uint8_t>();
  for (uint64_t off = 0; off < kN; off += kTile) {
    AscendC::DataCopy(a, gx[off], kTile);
    AscendC::PipeBarrier<PIPE_ALL>();
    api.template Run<T>(b, a, t);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(gy[off], b, kTile);
    AscendC::PipeBarrier<PIPE_ALL>();
  }
}

template <typename T>
void Fill(T* x) {
  std::mt19937 gen(1);
  std::uniform_real_distribution<float> d(-6.0f, 6.0f);
  for (uint64_t i = 0; i < kN; ++i) x[i] = T(d(gen));
}

void Count(benchmark::State& state, size_t elem) {
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * 2 * kN * elem));
}

template <typename T, typename Api>
void BM_Device(benchmark::State& state) {
  auto* x = static_cast<T*>(AscendC::GmAlloc(kN * sizeof(T)));
  auto* y = static_cast<T*>(AscendC::GmAlloc(kN * sizeof(T)));
  Fill(x);
  lngrad::aicore::LaunchOptions o;
  o.sequential = true;
  for (auto _ : state) {
    const lngrad::Status st = lngrad::aicore::Launch(
        1, [&] { StreamKernel<T, Api>(x, y); }, o);
    if (!st.ok()) {
      state.SkipWithError(st.message().c_str());
      break;
    }
    benchmark::DoNotOptimize(y[0]);
  }
  Count(state, sizeof(T));
  AscendC::GmFree(x);
  AscendC::GmFree(y);
}

float ExpF(float v) { return static_cast<float>(std::exp(static_cast<double>(v))); }

// Gelu's tanh form: y = x / (e^(-|z|) + 1) * e^(min(z, 0)), z the tanh argument.
struct GeluNative {
  template <typename T>
  static void Rows(const T* x, T* y, uint32_t rows) {
    for (uint64_t i = 0; i < uint64_t{rows} * kCols; ++i) {
      const float v = static_cast<float>(x[i]);
      const float z = (v + v * v * v * 0.044715f) * 1.5957691216057308f;
      y[i] = T(v / (ExpF(-std::fabs(z)) + 1.0f) * ExpF(std::fmin(z, 0.0f)));
    }
  }
};

// y = e^(x - max) / sum per row.
struct SoftMaxNative {
  template <typename T>
  static void Rows(const T* x, T* y, uint32_t rows) {
    float e[kCols];
    for (uint32_t r = 0; r < rows; ++r, x += kCols, y += kCols) {
      float mx = static_cast<float>(x[0]);
      for (uint32_t j = 1; j < kCols; ++j) mx = std::max(mx, static_cast<float>(x[j]));
      float sum = 0.0f;
      for (uint32_t j = 0; j < kCols; ++j) sum += e[j] = ExpF(static_cast<float>(x[j]) - mx);
      for (uint32_t j = 0; j < kCols; ++j) y[j] = T(e[j] / sum);
    }
  }
};

// y = x / sqrt(mean(x^2) + eps) per row (gamma of ones).
struct RmsNormNative {
  template <typename T>
  static void Rows(const T* x, T* y, uint32_t rows) {
    for (uint32_t r = 0; r < rows; ++r, x += kCols, y += kCols) {
      float ss = 0.0f;
      for (uint32_t j = 0; j < kCols; ++j)
        ss += static_cast<float>(x[j]) * static_cast<float>(x[j]);
      const float rs = 1.0f / std::sqrt(ss / kCols + 1e-5f);
      for (uint32_t j = 0; j < kCols; ++j) y[j] = T(static_cast<float>(x[j]) * rs);
    }
  }
};

template <typename T, typename Native>
void BM_Native(benchmark::State& state) {
  std::vector<T> x(kN), y(kN);
  Fill(x.data());
  for (auto _ : state) {
    Native::Rows(x.data(), y.data(), kRows);
    benchmark::DoNotOptimize(y.data());
  }
  Count(state, sizeof(T));
}

// One API on T: the device run and the native loop, named Transformer/<api>/<device|native>/<T>.
#define LNGRAD_TRANSFORMER_BENCH(T, API)        \
  BENCHMARK_TEMPLATE(BM_Device, T, API##Api)    \
      ->Name("Transformer/" #API "/device/" #T) \
      ->Unit(benchmark::kMillisecond);          \
  BENCHMARK_TEMPLATE(BM_Native, T, API##Native) \
      ->Name("Transformer/" #API "/native/" #T) \
      ->Unit(benchmark::kMillisecond)

LNGRAD_TRANSFORMER_BENCH(float, Gelu);
LNGRAD_TRANSFORMER_BENCH(half, Gelu);
LNGRAD_TRANSFORMER_BENCH(float, SoftMax);
LNGRAD_TRANSFORMER_BENCH(half, SoftMax);
LNGRAD_TRANSFORMER_BENCH(float, RmsNorm);
LNGRAD_TRANSFORMER_BENCH(half, RmsNorm);

}  // namespace
