// The pipeline sanitizer's cost on copy-heavy kernels (issue 27): a kernel in the shape of the
// development kit's data_copy sample (each block copies its rows of a matrix tile by tile into
// one UB buffer with DataCopyPad, tileM rows of tileN floats per copy, strided in GM), launched
// in checked mode with no sanitizer tool ("checked") and with all three ("sanitized"). The ratio
// of the two is the sanitizer's cost; bench/README.md records it.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "lngrad_aicore/sanitizer.h"

namespace {

struct Shape {
  const char* name;
  uint32_t n;       // floats per GM row
  uint32_t rows;    // GM rows per block
  uint32_t tile_m;  // rows per copy
  uint32_t tile_n;  // floats per row and copy
  bool barrier;     // PipeBarrier<PIPE_MTE2> between the copies (false: as the sample, a
                    // write-only race the sanitizer prints a warning for at every launch)
};

constexpr uint32_t kBlocks = 8;

void CopyKernel(float* gm, const Shape& s) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, s.tile_m * s.tile_n * sizeof(float));
  AscendC::LocalTensor<float> ub = buf.Get<float>();
  AscendC::GlobalTensor<float> src;
  const uint64_t first = static_cast<uint64_t>(AscendC::GetBlockIdx()) * s.rows * s.n;
  src.SetGlobalBuffer(gm + first, uint64_t{s.rows} * s.n);
  AscendC::DataCopyParams p;
  p.blockCount = static_cast<uint16_t>(s.tile_m);
  p.blockLen = static_cast<uint16_t>(s.tile_n * sizeof(float));
  p.srcStride = static_cast<uint16_t>((s.n - s.tile_n) * sizeof(float));
  p.dstStride = 0;
  AscendC::DataCopyPadParams pad{false, 0, 0, 0};
  for (uint32_t m = 0; m < s.rows; m += s.tile_m) {
    for (uint32_t c = 0; c < s.n; c += s.tile_n) {
      AscendC::DataCopyPad(ub, src[uint64_t{m} * s.n + c], p, pad);
      if (s.barrier) AscendC::PipeBarrier<PIPE_MTE2>();
    }
  }
}

void BM_Copy(benchmark::State& state, Shape s, uint32_t tools) {
  std::vector<float> host(uint64_t{kBlocks} * s.rows * s.n);
  auto* gm = static_cast<float*>(AscendC::GmAlloc(host.size() * sizeof(float)));
  for (size_t i = 0; i < host.size(); ++i) gm[i] = static_cast<float>(i % 7);
  lngrad::aicore::LaunchOptions o;
  o.sanitize = tools;
  o.sequential = true;  // one core: the ratio, not the machine's parallelism
  for (auto _ : state) {
    const lngrad::Status st = lngrad::aicore::Launch(
        kBlocks, [&] { CopyKernel(gm, s); }, o);
    if (!st.ok()) {
      state.SkipWithError(st.message().c_str());
      break;
    }
  }
  const uint64_t copies = uint64_t{kBlocks} * (s.rows / s.tile_m) * (s.n / s.tile_n);
  state.counters["copies"] = static_cast<double>(copies);
  state.counters["rows"] = static_cast<double>(copies * s.tile_m);
  AscendC::GmFree(gm);
}

}  // namespace

int main(int argc, char** argv) {
  lngrad::aicore::SetCheckedMode(true);
  // strided: tileM rows of 128 B from 8 KiB GM rows (many short bursts, as data_copy's tiles),
  // with a barrier between the copies and without (racy: the sample's own loop); whole: full
  // 8 KiB rows (one contiguous range per copy).
  const Shape shapes[] = {{"strided", 2048, 64, 32, 32, true},
                          {"strided_racy", 2048, 64, 32, 32, false},
                          {"whole", 2048, 64, 4, 2048, true}};
  for (const Shape& s : shapes) {
    for (const auto& [mode, tools] :
         {std::pair<const char*, uint32_t>{"checked", 0u},
          std::pair<const char*, uint32_t>{"sanitized", lngrad::aicore::san::kAllTools}}) {
      benchmark::RegisterBenchmark((std::string("copy/") + s.name + "/" + mode).c_str(), BM_Copy, s,
                                   tools)
          ->Unit(benchmark::kMillisecond);
    }
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
