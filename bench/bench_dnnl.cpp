// oneDNN's layer normalization backward primitive (prop_kind::backward: diff_src, diff_scale,
// diff_shift) on the shapes of issue 6, float32, outputs preallocated, hot cache, buffers under
// bench_common.h's allocation policy. Builds against oneDNN 2.x (Debian's libdnnl-dev: bench_dnnl)
// and 3.x (PyPI's onednn-devel: bench_dnnl3; v3 dropped the operation descriptors). The thread
// count is the runtime's: OMP_NUM_THREADS for an OpenMP build (Debian's), the process's CPU
// affinity for a TBB build (PyPI's; bench/compare runs it under taskset); the benchmark names
// carry LNGRAD_BENCH_THREADS (bench/compare sets it). The first output line names the library
// ("onednn <version> cpu-runtime <omp|sycl/tbb|...>", on stderr). Before timing, every shape is
// checked against lngrad's LayerNormBackward on the same inputs (so both do the same work); a
// mismatch exits 1. bytes/s: 3*rows*h*4 + 8*rows + 12*h (issue 6's effective bytes).
// LNGRAD_BENCH_SHAPES="ROWSxH,..." restricts the shapes (bench/compare --quick).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unordered_map>
#include <vector>

#include <benchmark/benchmark.h>
#include <oneapi/dnnl/dnnl.hpp>

#include "bench_common.h"
#include "bench_register.h"

namespace {

using lngrad::bench::Inputs;
using lngrad::bench::Outputs;
using tag = dnnl::memory::format_tag;
using dt = dnnl::memory::data_type;

// One primitive with its memories, bound to caller-owned buffers.
struct DnnlBackward {
  DnnlBackward(const Inputs& in, Outputs* out) : eng(dnnl::engine::kind::cpu, 0), strm(eng) {
    const dnnl::memory::desc data_md({in.rows, in.h}, dt::f32, tag::ab);
    const dnnl::memory::desc stat_md({in.rows}, dt::f32, tag::a);
    const dnnl::memory::desc vec_md({in.h}, dt::f32, tag::a);
    // Not use_global_stats: that would make the backward treat mean/variance as constants.
    const auto flags = dnnl::normalization_flags::use_scale | dnnl::normalization_flags::use_shift;
    const float eps = lngrad::bench::kEpsilon;
#if DNNL_VERSION_MAJOR >= 3
    // v3: the primitive descriptors take the operation's parameters themselves.
    const dnnl::layer_normalization_forward::primitive_desc fwd_pd(
        eng, dnnl::prop_kind::forward_training, data_md, data_md, stat_md, eps, flags);
    const dnnl::layer_normalization_backward::primitive_desc pd(
        eng, dnnl::prop_kind::backward, data_md, data_md, data_md, stat_md, eps, flags, fwd_pd);
#else
    const dnnl::layer_normalization_forward::desc fwd_d(dnnl::prop_kind::forward_training, data_md,
                                                        stat_md, eps, flags);
    const dnnl::layer_normalization_forward::primitive_desc fwd_pd(fwd_d, eng);
    const dnnl::layer_normalization_backward::desc bwd_d(dnnl::prop_kind::backward, data_md,
                                                         data_md, stat_md, eps, flags);
    const dnnl::layer_normalization_backward::primitive_desc pd(bwd_d, eng, fwd_pd);
#endif
    prim = dnnl::layer_normalization_backward(pd);
    auto wrap = [&](const dnnl::memory::desc& md, const float* p) {
      return dnnl::memory(md, eng, const_cast<float*>(p));
    };
    shift.assign(in.gamma.size(), 0.0f);
    args = {{DNNL_ARG_SRC, wrap(data_md, in.x.data())},
            {DNNL_ARG_DIFF_DST, wrap(data_md, in.dy.data())},
            {DNNL_ARG_MEAN, wrap(stat_md, in.mean.data())},
            {DNNL_ARG_VARIANCE, wrap(stat_md, in.variance.data())},
            {DNNL_ARG_SCALE, wrap(vec_md, in.gamma.data())},
            {DNNL_ARG_SHIFT, wrap(vec_md, shift.data())},
            {DNNL_ARG_DIFF_SRC, wrap(data_md, out->dx.data())},
            {DNNL_ARG_DIFF_SCALE, wrap(vec_md, out->dgamma.data())},
            {DNNL_ARG_DIFF_SHIFT, wrap(vec_md, out->dbeta.data())}};
  }
  void Run() {
    prim.execute(strm, args);
    strm.wait();
  }
  dnnl::engine eng;
  dnnl::stream strm;
  dnnl::primitive prim;
  lngrad::bench::Vector<float> shift;
  std::unordered_map<int, dnnl::memory> args;
};

void BM_DnnlLayerNormBackward(benchmark::State& state, int64_t rows, int64_t h) {
  const Inputs& in = lngrad::bench::SharedInputs(rows, h);
  Outputs out = lngrad::bench::AllocateOutputs(in);
  DnnlBackward bwd(in, &out);
  for (auto _ : state) {
    bwd.Run();
    benchmark::DoNotOptimize(out.dx.data());
    benchmark::ClobberMemory();
  }
  const double bytes = 12.0 * static_cast<double>(in.rows * in.h) + 8.0 * in.rows + 12.0 * in.h;
  state.SetBytesProcessed(static_cast<int64_t>(bytes) * static_cast<int64_t>(state.iterations()));
}

// The CPU threading runtime (OpenMP for Debian's build; TBB, under a SYCL CPU runtime, for
// PyPI's).
const char* CpuRuntime() {
#if DNNL_CPU_THREADING_RUNTIME == DNNL_RUNTIME_OMP
  const char* threading = "omp";
#elif DNNL_CPU_THREADING_RUNTIME == DNNL_RUNTIME_TBB
  const char* threading = "tbb";
#elif DNNL_CPU_THREADING_RUNTIME == DNNL_RUNTIME_SEQ
  const char* threading = "seq";
#else
  const char* threading = "other";
#endif
#if defined(DNNL_RUNTIME_SYCL) && DNNL_CPU_RUNTIME == DNNL_RUNTIME_SYCL
  static const std::string name = std::string("sycl/") + threading;
  return name.c_str();
#else
  return threading;
#endif
}

}  // namespace

int main(int argc, char** argv) {
  const char* env = std::getenv("LNGRAD_BENCH_THREADS");
  const int threads = env != nullptr ? std::atoi(env) : 1;
  const dnnl::version_t* v = dnnl::version();
  std::fprintf(stderr, "onednn %d.%d.%d cpu-runtime %s\n", v->major, v->minor, v->patch,
               CpuRuntime());
  std::vector<std::pair<int64_t, int64_t>> shapes;
  if (!lngrad::bench::SelectedShapes(lngrad::bench::Shapes(), &shapes)) return 2;
  bool ok = true;
  for (const auto& [rows, h] : shapes) {
    const Inputs& in = lngrad::bench::SharedInputs(rows, h);
    Outputs out = lngrad::bench::AllocateOutputs(in);
    try {
      DnnlBackward(in, &out).Run();
    } catch (const dnnl::error& e) {
      // The primitives are made here first, so a oneDNN that cannot run stops here.
      std::fprintf(stderr, "bench_dnnl: oneDNN failed on %lldx%lld: %s (status %d)%s\n",
                   static_cast<long long>(rows), static_cast<long long>(h), e.what(),
                   static_cast<int>(e.status),
                   std::strcmp(CpuRuntime(), "omp") == 0
                       ? ""
                       : "; a SYCL build needs its OpenCL CPU runtime, e.g. "
                         "OCL_ICD_FILENAMES=<prefix>/lib/libintelocl.so (bench/compare sets it)");
      return 1;
    }
    ok &= lngrad::bench::ReportAgreement("onednn", in, out,
                                         lngrad::bench::LngradBackward(in, threads));
  }
  if (!ok) return 1;
  for (const auto& [rows, h] : shapes) {
    lngrad::bench::RegisterRealTime(
        lngrad::bench::BenchmarkName("BM_DnnlLayerNormBackward", rows, h, threads),
        BM_DnnlLayerNormBackward, rows, h);
  }
  return lngrad::bench::RunRegisteredBenchmarks(argc, argv);
}
