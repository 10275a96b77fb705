// A vector function of the Ascend 950 register API against the same arithmetic in the basic API,
// on one simulated block (issue 30: a vector function is to be no slower). 64 Ki floats, as 8
// passes over a UB tile of 8 Ki floats (x, y, z: 96 KiB of the 248 KiB UB; the data stay in UB,
// no copies are timed): z = x + y, z = exp(x) * y, and the sums of x's rows of 64 floats. The
// vector function loads a register of each input, computes under the mask of the tile's tail
// and stores (asc_vf_call of a __simd_vf__ function, the C flavour); the basic API runs Add, or
// Exp then Mul, over the tile. The row sums: asc_reduce_sum of each register and a one-lane
// store against WholeReduceSum of 64-float repeats (the same adjacent-pair tree, the same bits),
// one sum every 32 bytes of z. Bytes per second count what the work reads and writes (x, y, z:
// 12 bytes an element; the row sums: x, 4 bytes an element).
// bench/README.md records the times.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <functional>
#include <vector>

#include "c_api/asc_simd.h"
#include "kernel_operator.h"
#include "lngrad_aicore/launch.h"

namespace {

namespace aicore = lngrad::aicore;

constexpr uint32_t kTile = 8192;            // floats per UB tile
constexpr uint32_t kPasses = 8;             // 64 Ki floats in all
constexpr uint32_t kTileBytes = kTile * 4;  // 32 KiB
constexpr uint32_t kLanes = 256 / sizeof(float);

__simd_vf__ void AddVf(__ubuf__ float* z, __ubuf__ float* x, __ubuf__ float* y, uint32_t count) {
  vector_float a, b, c;
  for (uint32_t i = 0; count > 0; ++i) {
    const vector_bool mask = asc_update_mask_b32(count);
    asc_loadalign(a, x + i * kLanes);
    asc_loadalign(b, y + i * kLanes);
    asc_add(c, a, b, mask);
    asc_storealign(z + i * kLanes, c, mask);
  }
}

__simd_vf__ void ExpMulVf(__ubuf__ float* z, __ubuf__ float* x, __ubuf__ float* y, uint32_t count) {
  vector_float a, b, e, c;
  for (uint32_t i = 0; count > 0; ++i) {
    const vector_bool mask = asc_update_mask_b32(count);
    asc_loadalign(a, x + i * kLanes);
    asc_loadalign(b, y + i * kLanes);
    asc_exp(e, a, mask);
    asc_mul(c, e, b, mask);
    asc_storealign(z + i * kLanes, c, mask);
  }
}

__simd_vf__ void RowSumVf(__ubuf__ float* z, __ubuf__ float* x, uint32_t rows) {
  vector_float a, s;
  const vector_bool all = asc_create_mask_b32(PAT_ALL);
  const vector_bool first = asc_create_mask_b32(PAT_VL1);
  for (uint32_t r = 0; r < rows; ++r) {
    asc_loadalign(a, x + r * kLanes);
    asc_reduce_sum(s, a, all);
    asc_storealign(z + r * 8, s, first);
  }
}

// Runs body (which holds the benchmark loop) in one block on the simulated 950, with x and y
// filled; bytes an element for the throughput.
void OnBlock(benchmark::State& state, const std::function<void()>& body, int64_t bytes = 12) {
  aicore::LaunchOptions o;
  o.soc = "Ascend950PR_9599";
  o.sanitize = 0;
  std::vector<aicore::BlockFailure> failures;
  const auto run = [&] {
    auto* ub = reinterpret_cast<float*>(aicore::CurrentBlockContext()->ub);
    for (uint32_t i = 0; i < 2 * kTile; ++i) ub[i] = 0.001f * static_cast<float>(i % 977);
    body();
  };
  if (!aicore::RunBlocks("bench_reg", 1, run, o, &failures).ok()) {
    state.SkipWithError(failures.empty() ? "the launch failed" : failures[0].message.c_str());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * kTile * kPasses * bytes);
}

__ubuf__ float* UbFloats(uint32_t byte_offset) {
  return reinterpret_cast<float*>(aicore::CurrentBlockContext()->ub + byte_offset);
}
AscendC::LocalTensor<float> UbTensor(uint32_t byte_offset) {
  return AscendC::LocalTensor<float>(AscendC::TPosition::VECCALC, byte_offset, kTile);
}

template <auto vf>
void RunVf(benchmark::State& state) {
  OnBlock(state, [&] {
    for (auto _ : state) {
      for (uint32_t p = 0; p < kPasses; ++p) {
        asc_vf_call<vf>(UbFloats(2 * kTileBytes), UbFloats(0), UbFloats(kTileBytes), kTile);
      }
      benchmark::ClobberMemory();
    }
  });
}

void BM_RegAdd(benchmark::State& state) { RunVf<AddVf>(state); }
BENCHMARK(BM_RegAdd)->Unit(benchmark::kMicrosecond)->UseRealTime();

// The basic API's instructions over the tile, kPasses times.
template <class Body>
void RunBasic(benchmark::State& state, Body body) {
  OnBlock(state, [&] {
    const auto x = UbTensor(0), y = UbTensor(kTileBytes), z = UbTensor(2 * kTileBytes);
    for (auto _ : state) {
      for (uint32_t p = 0; p < kPasses; ++p) body(z, x, y);
      benchmark::ClobberMemory();
    }
  });
}
using Tile = AscendC::LocalTensor<float>;

void BM_BasicAdd(benchmark::State& state) {
  RunBasic(state,
           [](const Tile& z, const Tile& x, const Tile& y) { AscendC::Add(z, x, y, kTile); });
}
BENCHMARK(BM_BasicAdd)->Unit(benchmark::kMicrosecond)->UseRealTime();

void BM_RegExpMul(benchmark::State& state) { RunVf<ExpMulVf>(state); }
BENCHMARK(BM_RegExpMul)->Unit(benchmark::kMicrosecond)->UseRealTime();

void BM_BasicExpMul(benchmark::State& state) {
  RunBasic(state, [](const Tile& z, const Tile& x, const Tile& y) {
    AscendC::Exp(z, x, kTile);
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::Mul(z, z, y, kTile);
  });
}
BENCHMARK(BM_BasicExpMul)->Unit(benchmark::kMicrosecond)->UseRealTime();

constexpr uint32_t kRows = kTile / kLanes;  // 128 rows of 64 floats a tile

void BM_RegRowSum(benchmark::State& state) {
  OnBlock(
      state,
      [&] {
        for (auto _ : state) {
          for (uint32_t p = 0; p < kPasses; ++p) {
            asc_vf_call<RowSumVf>(UbFloats(2 * kTileBytes), UbFloats(0), kRows);
          }
          benchmark::ClobberMemory();
        }
      },
      4);
}
BENCHMARK(BM_RegRowSum)->Unit(benchmark::kMicrosecond)->UseRealTime();

void BM_BasicRowSum(benchmark::State& state) {
  OnBlock(
      state,
      [&] {
        const auto x = UbTensor(0), z = UbTensor(2 * kTileBytes);
        for (auto _ : state) {
          for (uint32_t p = 0; p < kPasses; ++p) AscendC::WholeReduceSum(z, x, 64, kRows, 8, 1, 8);
          benchmark::ClobberMemory();
        }
      },
      4);
}
BENCHMARK(BM_BasicRowSum)->Unit(benchmark::kMicrosecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
