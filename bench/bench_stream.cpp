// Memory ceilings for LayerNorm backward, on 1 or 2 threads (the library's own pool, the same
// row blocks of 16K elements), over float arrays of rows x h elements each:
//  BM_Triad   "read 2, write 1": c[i] = a[i] + s * b[i], the footprint of dy, x and dx
//             (LayerNormBackward);
//  BM_Read2Write2  "read 2, write 2": c[i] = a[i] + s * b[i], d[i] = a[i] - s * b[i], the
//             footprint of LayerNormGrad (dy, x -> pd_x, res_for_gamma);
//  BM_Read2   "read 2": a dot product, the footprint of LayerNormGradBeta (dy, res_for_gamma).
// Store variants: ordinary stores (the write allocates the line: one more transfer per output)
// and non-temporal stores (_mm_stream_ps, the way lngrad writes large outputs). bytes/s counts
// every array once (3, 4 or 2 * rows * h * 4 bytes), the same count as lngrad's effective GB/s
// without the small vectors. The arrays follow bench_common.h's allocation policy (64-byte
// aligned, so the non-temporal variant needs no peel; huge pages), as every contender's do.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <utility>
#include <vector>

#include <benchmark/benchmark.h>

#if defined(__SSE2__)
#include <immintrin.h>
#endif

#include "bench_common.h"
#include "thread_pool.h"

namespace {

constexpr int64_t kBlockElements = 16 * 1024;

// Under bench_common.h's allocation policy, as every contender's buffers.
struct Arrays {
  explicit Arrays(size_t n) : n(n), a(n), b(n), c(n), d(n) {
    for (size_t i = 0; i < n; ++i) {
      a[i] = static_cast<float>(i % 1000) * 0.001f;
      b[i] = static_cast<float>(i % 777) * 0.002f;
    }
  }
  size_t n;
  lngrad::bench::Vector<float> a, b, c, d;
};

struct Job {
  Arrays* arr;
  bool nt;
  float* sums = nullptr;  // BM_Read2: one partial per block
};

// Elements [begin, end) of one pool block.
std::pair<size_t, size_t> BlockRange(const Job& job, int64_t block) {
  const size_t begin = static_cast<size_t>(block) * kBlockElements;
  return {begin, std::min(job.arr->n, begin + kBlockElements)};
}

// c = a + s*b (Triad), and with kWriteD also d = a - s*b (Read2Write2).
template <bool kWriteD>
void ReadTwoWrite(void* context, int64_t block) {
  const Job& job = *static_cast<Job*>(context);
  const auto [begin, end] = BlockRange(job, block);
  const float* a = job.arr->a.data();
  const float* b = job.arr->b.data();
  float* c = job.arr->c.data();
  float* d = job.arr->d.data();
  const float s = 0.5f;
  auto scalar = [&](size_t i) {
    c[i] = a[i] + s * b[i];
    if constexpr (kWriteD) d[i] = a[i] - s * b[i];
  };
#if defined(__SSE2__)
  if (job.nt) {
    const __m128 vs = _mm_set1_ps(s);
    size_t i = begin;
    for (; i + 4 <= end; i += 4) {
      const __m128 va = _mm_load_ps(a + i), vb = _mm_mul_ps(vs, _mm_load_ps(b + i));
      _mm_stream_ps(c + i, _mm_add_ps(va, vb));
      if constexpr (kWriteD) _mm_stream_ps(d + i, _mm_sub_ps(va, vb));
    }
    for (; i < end; ++i) scalar(i);
    _mm_sfence();
    return;
  }
#endif
  for (size_t i = begin; i < end; ++i) scalar(i);
}

void Read2(void* context, int64_t block) {
  const Job& job = *static_cast<Job*>(context);
  const auto [begin, end] = BlockRange(job, block);
  const float* a = job.arr->a.data();
  const float* b = job.arr->b.data();
  // Eight partial sums: the additions do not serialize on one register.
  float acc[8] = {};
  size_t i = begin;
  for (; i + 8 <= end; i += 8) {
    for (int k = 0; k < 8; ++k) acc[k] += a[i + k] * b[i + k];
  }
  for (; i < end; ++i) acc[0] += a[i] * b[i];
  float sum = 0.0f;
  for (float v : acc) sum += v;
  job.sums[block] = sum;
}

// Runs `kernel` over rows x h floats on the pool; bytes/s counts `tensors` arrays once.
void Measure(benchmark::State& state, void (*kernel)(void*, int64_t), int64_t tensors) {
  const int64_t rows = state.range(0), h = state.range(1);
  const int threads = static_cast<int>(state.range(2));
  // Made once per size and kept until another size is asked for: Google Benchmark calls this once
  // per repetition and once more to size the iteration count.
  static std::unique_ptr<Arrays> cached;
  if (cached == nullptr || cached->n != static_cast<size_t>(rows * h)) {
    cached.reset();
    cached = std::make_unique<Arrays>(static_cast<size_t>(rows * h));
  }
  Arrays& arr = *cached;
  const int64_t blocks = (rows * h + kBlockElements - 1) / kBlockElements;
  std::vector<float> sums(static_cast<size_t>(blocks));
  Job job{&arr, state.range(3) != 0, sums.data()};
  for (auto _ : state) {
    lngrad::core::ThreadPool::Global().Run(threads, blocks, kernel, &job);
    benchmark::DoNotOptimize(arr.c.data());
    benchmark::DoNotOptimize(arr.d.data());
    benchmark::DoNotOptimize(sums.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(tensors * rows * h * static_cast<int64_t>(sizeof(float)) *
                          static_cast<int64_t>(state.iterations()));
}

void BM_Triad(benchmark::State& state) { Measure(state, &ReadTwoWrite<false>, 3); }
void BM_Read2Write2(benchmark::State& state) { Measure(state, &ReadTwoWrite<true>, 4); }
void BM_Read2(benchmark::State& state) { Measure(state, &Read2, 2); }

const std::pair<int64_t, int64_t> kShapes[] = {
    {4096, 768}, {8192, 1024}, {16384, 4096}, {2048, 12288}};

void Shapes(benchmark::internal::Benchmark* b) {
  b->ArgNames({"rows", "h", "threads", "nt"});
  for (int nt : {0, 1}) {
    for (int threads : {1, 2}) {
      for (auto [rows, h] : kShapes) {
        b->Args({rows, h, threads, nt});
      }
    }
  }
  b->UseRealTime();
}

// Read only: the store variant does not apply (nt = 0 only).
void ReadShapes(benchmark::internal::Benchmark* b) {
  b->ArgNames({"rows", "h", "threads", "nt"});
  for (int threads : {1, 2}) {
    for (auto [rows, h] : kShapes) {
      b->Args({rows, h, threads, 0});
    }
  }
  b->UseRealTime();
}

BENCHMARK(BM_Triad)->Apply(Shapes);
BENCHMARK(BM_Read2Write2)->Apply(Shapes);
BENCHMARK(BM_Read2)->Apply(ReadShapes);

}  // namespace

BENCHMARK_MAIN();
