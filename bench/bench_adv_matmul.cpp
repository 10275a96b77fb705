// A 1024 x 1024 x 1024 half Matmul (float C) through the Ascend C Matmul API on the simulated
// device (issue 29), beside a native float GEMM of the same shape from OpenBLAS (Debian's
// libopenblas-dev; that benchmark is built only where CMake finds it). Part of bench_adv. The
// device run is one launch of the host tiling's blocks (MultiCoreMatmulTiling over `cores`), each
// block IterateAll over its piece; the GEMM's thread count is set to the same. FLOP/s counts
// 2 M N K. Setup checks the device's C against the float64 oracle once (bound as in
// tests/matmul).
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "lib/matmul_intf.h"
#include "tiling/tiling_api.h"

#ifdef LNGRAD_HAVE_OPENBLAS
#include <cblas.h>
#endif

namespace {

constexpr uint32_t kDim = 1024;
constexpr double kFlops = 2.0 * kDim * kDim * kDim;
using AscendC::TPosition;
namespace mt = matmul_tiling;

struct Operands {
  std::vector<half> a, b;
  std::vector<float> c;
  Operands() : a(size_t{kDim} * kDim), b(size_t{kDim} * kDim), c(size_t{kDim} * kDim) {
    std::mt19937 g(7);
    std::uniform_real_distribution<float> d(-1.0f, 1.0f);
    for (auto& x : a) x = half(d(g));
    for (auto& x : b) x = half(d(g));
  }
};
Operands& Inputs() {
  static Operands o;
  return o;
}

TCubeTiling TilingFor(int32_t cores) {
  auto* platform = platform_ascendc::PlatformAscendCManager::GetInstance("Ascend910B1");
  mt::MultiCoreMatmulTiling api(*platform);
  api.SetDim(cores);
  api.SetAType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_FLOAT16);
  api.SetBType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_FLOAT16);
  api.SetCType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_FLOAT);
  api.SetBiasType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_FLOAT);
  api.SetOrgShape(kDim, kDim, kDim);
  api.SetShape(kDim, kDim, kDim);
  api.EnableBias(false);
  api.SetBufferSpace(-1, -1, -1);
  TCubeTiling t;
  if (api.GetTiling(t) != 0) throw std::runtime_error("bench_adv: matmul tiling failed");
  return t;
}

// One launch: each block its singleCoreM x singleCoreN piece of C (the kit's matmul sample).
void RunDevice(const TCubeTiling& t, Operands& o) {
  auto kernel = [&] {
    using A = AscendC::MatmulType<TPosition::GM, CubeFormat::ND, half>;
    using C = AscendC::MatmulType<TPosition::GM, CubeFormat::ND, float>;
    AscendC::Matmul<A, A, C, C> mm;
    AscendC::TPipe pipe;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    const auto block = static_cast<uint32_t>(AscendC::GetBlockIdx());
    const uint32_t mb = (kDim + t.singleCoreM - 1) / t.singleCoreM;
    const uint32_t m0 = block % mb * t.singleCoreM, n0 = block / mb * t.singleCoreN;
    AscendC::GlobalTensor<half> ga, gb;
    AscendC::GlobalTensor<float> gc;
    ga.SetGlobalBuffer(o.a.data() + size_t{m0} * kDim, size_t{kDim - m0} * kDim);
    gb.SetGlobalBuffer(o.b.data() + n0, size_t{kDim} * kDim - n0);
    gc.SetGlobalBuffer(o.c.data() + size_t{m0} * kDim + n0, size_t{kDim - m0} * kDim - n0);
    mm.SetTail(std::min<int>(t.singleCoreM, kDim - m0), std::min<int>(t.singleCoreN, kDim - n0));
    mm.SetTensorA(ga);
    mm.SetTensorB(gb);
    mm.IterateAll(gc);
    mm.End();
  };
  lngrad::aicore::LaunchOptions opt;
  opt.soc = "Ascend910B1";
  std::vector<lngrad::aicore::BlockFailure> failures;
  const lngrad::Status s = lngrad::aicore::detail::RunBlocks(
      "matmul", static_cast<uint32_t>(t.usedCoreNum), kernel, opt, &failures);
  if (!s.ok()) throw std::runtime_error("bench_adv: matmul launch: " + s.message());
}

// C against the float64 oracle on a sample of rows (the bound of tests/matmul).
void CheckOracle(const Operands& o) {
  for (uint32_t i = 0; i < kDim; i += 97) {
    for (uint32_t j = 0; j < kDim; ++j) {
      double ref = 0, mag = 0;
      for (uint32_t k = 0; k < kDim; ++k) {
        const double p = static_cast<double>(static_cast<float>(o.a[size_t{i} * kDim + k])) *
                         static_cast<float>(o.b[size_t{k} * kDim + j]);
        ref += p;
        mag += std::fabs(p);
      }
      if (std::fabs(o.c[size_t{i} * kDim + j] - ref) >
          std::ldexp(1.0, -24) * (2.0 * kDim + 1) * mag)
        throw std::runtime_error("bench_adv: the device's C is off the float64 oracle");
    }
  }
}

void BM_MatmulHalfApi(benchmark::State& state) {
  const TCubeTiling t = TilingFor(static_cast<int32_t>(state.range(0)));
  Operands& o = Inputs();
  RunDevice(t, o);
  CheckOracle(o);
  for (auto _ : state) {
    RunDevice(t, o);
    benchmark::DoNotOptimize(o.c.data());
  }
  state.counters["FLOP/s"] =
      benchmark::Counter(kFlops, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["blocks"] = t.usedCoreNum;
}
BENCHMARK(BM_MatmulHalfApi)
    ->ArgName("cores")
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

#ifdef LNGRAD_HAVE_OPENBLAS
// The native peer: OpenBLAS's sgemm on the same values widened to float, `threads` threads.
void BM_OpenBlasSgemm(benchmark::State& state) {
  openblas_set_num_threads(static_cast<int>(state.range(0)));
  const Operands& o = Inputs();
  std::vector<float> a(o.a.begin(), o.a.end()), b(o.b.begin(), o.b.end());
  std::vector<float> c(size_t{kDim} * kDim);
  for (auto _ : state) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, kDim, kDim, kDim, 1.0f, a.data(), kDim,
                b.data(), kDim, 0.0f, c.data(), kDim);
    benchmark::DoNotOptimize(c.data());
  }
  state.counters["FLOP/s"] =
      benchmark::Counter(kFlops, benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_OpenBlasSgemm)
    ->ArgName("threads")
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
#endif

}  // namespace
