// SIMT kernels of one million threads on the simulated Ascend 950 (issue 33's target: a launch of
// 1M threads in under a second), launched through the ACL runtime as lngrad-asc --enable-simt
// emits kernel<<<1024, 1024, 0, stream>>>(...): a gather (out[i] = in[index[i]]) and a 256-bin
// histogram with a GM atomic add per thread, beside the same work as a plain C++ loop. Bytes
// per second count what the work reads and writes (gather: index, input and output, 12 bytes an
// element; histogram: 4 bytes an element). bench/README.md records the times.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "acl/acl.h"
#include "lngrad/product.h"
#include "lngrad_acl/launch.h"
#include "simt_api/asc_simt.h"

namespace {

constexpr uint32_t kBlocks = 1024;
constexpr uint32_t kThreads = 1024;
constexpr uint32_t kElements = kBlocks * kThreads;
constexpr uint32_t kBins = 256;

void GatherKernel(float* out, const float* in, const uint32_t* index) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[index[i]];
}

void HistogramKernel(uint32_t* bins, const uint32_t* values) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  asc_atomic_add(&bins[values[i] % kBins], 1u);
}

// The inputs: a pseudo-random permutation-like index and values, on the host and on the device.
struct Data {
  std::vector<float> in;
  std::vector<uint32_t> index;
  void* d_in = nullptr;
  void* d_index = nullptr;
  void* d_out = nullptr;
  void* d_bins = nullptr;
  aclrtStream stream = nullptr;

  Data() : in(kElements), index(kElements) {
    for (uint32_t i = 0; i < kElements; ++i) {
      in[i] = static_cast<float>(i) * 0.5f;
      index[i] = static_cast<uint32_t>((uint64_t{i} * 2654435761u) % kElements);
    }
    if (!lngrad::SetCurrentSoc("Ascend950PR_9599").ok() || aclrtSetDevice(0) != ACL_SUCCESS ||
        aclrtCreateStream(&stream) != ACL_SUCCESS) {
      std::abort();
    }
    aclrtMalloc(&d_in, kElements * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&d_index, kElements * sizeof(uint32_t), ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&d_out, kElements * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&d_bins, kBins * sizeof(uint32_t), ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(d_in, kElements * sizeof(float), in.data(), kElements * sizeof(float),
                ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(d_index, kElements * sizeof(uint32_t), index.data(), kElements * sizeof(uint32_t),
                ACL_MEMCPY_HOST_TO_DEVICE);
  }
};

Data& GetData() {
  static Data* d = new Data;  // leaked: the device memory outlives the benchmarks
  return *d;
}

void Finish(benchmark::State& state, aclrtStream stream, uint64_t bytes_per_element) {
  if (aclrtSynchronizeStream(stream) != ACL_SUCCESS) state.SkipWithError("the launch failed");
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * kElements *
                          static_cast<int64_t>(bytes_per_element));
  state.counters["threads"] = kElements;
}

void BM_SimtGather(benchmark::State& state) {
  Data& d = GetData();
  auto* out = static_cast<float*>(d.d_out);
  auto* in = static_cast<const float*>(d.d_in);
  auto* index = static_cast<const uint32_t*>(d.d_index);
  for (auto _ : state) {
    // GatherKernel<<<kBlocks, kThreads, 0, d.stream>>>(out, in, index), as the driver emits it.
    ::lngrad::acl::LaunchSimtKernel(
        "GatherKernel", __FILE__, __LINE__, 0, (kBlocks), (kThreads), (0), (d.stream),
        [&](auto&&... a) { GatherKernel(a...); }, out, in, index);
  }
  Finish(state, d.stream, 3 * sizeof(float));
}
BENCHMARK(BM_SimtGather)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_NativeGather(benchmark::State& state) {
  Data& d = GetData();
  std::vector<float> out(kElements);
  for (auto _ : state) {
    for (uint32_t i = 0; i < kElements; ++i) out[i] = d.in[d.index[i]];
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * kElements * 12);
}
BENCHMARK(BM_NativeGather)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_SimtHistogram(benchmark::State& state) {
  Data& d = GetData();
  auto* bins = static_cast<uint32_t*>(d.d_bins);
  auto* values = static_cast<const uint32_t*>(d.d_index);
  for (auto _ : state) {
    aclrtMemset(bins, kBins * sizeof(uint32_t), 0, kBins * sizeof(uint32_t));
    ::lngrad::acl::LaunchSimtKernel(
        "HistogramKernel", __FILE__, __LINE__, 0, (kBlocks), (kThreads), (0), (d.stream),
        [&](auto&&... a) { HistogramKernel(a...); }, bins, values);
  }
  Finish(state, d.stream, sizeof(uint32_t));
  std::vector<uint32_t> got(kBins);
  aclrtMemcpy(got.data(), kBins * sizeof(uint32_t), bins, kBins * sizeof(uint32_t),
              ACL_MEMCPY_DEVICE_TO_HOST);
  uint64_t total = 0;
  for (uint32_t b : got) total += b;
  if (total != kElements) state.SkipWithError("the histogram lost counts");
}
BENCHMARK(BM_SimtHistogram)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_NativeHistogram(benchmark::State& state) {
  Data& d = GetData();
  std::vector<uint32_t> bins(kBins);
  for (auto _ : state) {
    std::fill(bins.begin(), bins.end(), 0u);
    for (uint32_t i = 0; i < kElements; ++i) ++bins[d.index[i] % kBins];
    benchmark::DoNotOptimize(bins.data());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * kElements * 4);
}
BENCHMARK(BM_NativeHistogram)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
