// Shared by the Google Benchmark programs that register their problems at run time (bench_ascendc,
// bench_dnnl): registration in real-time microseconds and the main's ending.
#pragma once

#include <string>
#include <utility>

#include <benchmark/benchmark.h>

namespace lngrad::bench {

// Real time, not CPU time: the work runs on threads other than the benchmark's own.
template <class Fn, class... Args>
benchmark::internal::Benchmark* RegisterRealTime(const std::string& name, Fn fn, Args&&... args) {
  return benchmark::RegisterBenchmark(name.c_str(), fn, std::forward<Args>(args)...)
      ->Unit(benchmark::kMicrosecond)
      ->UseRealTime();
}

// What BENCHMARK_MAIN does after the registration of main's own.
inline int RunRegisteredBenchmarks(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

}  // namespace lngrad::bench
