// SoftMax<half> without statistics, the constant-shape config's generic path on Ascend910B1 (2201)
// with the kernel's re-tile of a tiling made for another shape (made with float statistics:
// reduceK 8), unchecked (checked mode refuses it: softmax_device_defect). SoftMaxNDImpl's
// reductions take dstK = 16 for half data, so their statistics (16 floats a row) run past the
// 8 splitM floats of tmpBuffer1 into tmpBuffer2, the accumulators. The whole work buffer, dst (and
// elements past it) and src against replay_softmax_scratch.h's ReplaySoftMaxHalfWork given that
// dstK (SmxHalfWork::redDstK) and the config's splitK as the reductions' row stride, byte for byte,
// for the sharedTmpBuffer overload and the one that pops the stack buffer: one-row splits (the
// one row's DataCopy and the Brcb rows over the accumulators), splits of 2 to 8 rows with tails,
// config K below 64, in [128, 512) and from 512, splitK equal to srcK and below it.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "../aicore/checked_mode_scope.h"
#include "../aicore/sanitizer_off.h"
#include "kernel_operator.h"
#include "lngrad_aicore/launch.h"
#include "replay_softmax_scratch.h"
#include "scratch_test_util.h"
#include "tiling/tiling_api.h"

namespace {

namespace rp = lngrad_replay;
using AscendC::LocalTensor;
using rp::scratch_test::Aligned32;

constexpr uint32_t kPast = 64;  // halves past dst

struct Run {
  std::vector<rp::Half> src, dst;
  std::vector<uint8_t> tmp;
};

std::vector<rp::Half> HalfValues(std::mt19937& gen, size_t n, float lo, float hi) {
  std::uniform_real_distribution<float> d(lo, hi);
  std::vector<rp::Half> v(n);
  for (rp::Half& e : v) e = rp::FromFloat<rp::Half>(d(gen));
  return v;
}

void ExpectSame(const void* got, const void* want, size_t bytes, size_t unit, const char* what) {
  for (size_t i = 0; i + unit <= bytes; i += unit) {
    uint32_t g = 0, w = 0;
    std::memcpy(&g, static_cast<const uint8_t*>(got) + i, unit);
    std::memcpy(&w, static_cast<const uint8_t*>(want) + i, unit);
    if (g != w) {
      ADD_FAILURE() << what << ": first difference at element " << i / unit << " of "
                    << bytes / unit << ": lngrad 0x" << std::hex << g << ", replay 0x" << w;
      return;
    }
  }
  EXPECT_EQ(std::memcmp(got, want, bytes), 0) << what << " (its last bytes)";
}

template <const AscendC::SoftmaxConfig& kCfg>
Run RunKernel(uint32_t m, uint32_t k, const Run& in, bool stack) {
  Run out;
  lngrad::aicore::LaunchOptions opts;
  opts.soc = "Ascend910B1";
  const auto bytes = static_cast<uint32_t>(in.tmp.size());
  const lngrad::Status st = lngrad::aicore::Launch(
      1,
      [&] {
        AscendC::TPipe pipe;
        AscendC::TBuf<> bs, bd, bt, filler;
        pipe.InitBuffer(bs, Aligned32(in.src.size() * 2));
        pipe.InitBuffer(bd, Aligned32(in.dst.size() * 2));
        LocalTensor<uint8_t> tmp;
        rp::scratch_test::TakeScratch(pipe, bt, filler, stack, bytes, &tmp);
        if (::testing::Test::HasFatalFailure()) return;
        LocalTensor<half> s = bs.Get<half>(in.src.size()), d = bd.Get<half>(in.dst.size());
        std::memcpy(s.HostPtr(), in.src.data(), in.src.size() * 2);
        std::memcpy(d.HostPtr(), in.dst.data(), in.dst.size() * 2);
        std::memcpy(tmp.HostPtr(), in.tmp.data(), bytes);
        // A tiling made for another shape: the kernel re-tiles it for the buffer.
        SoftMaxTiling other;
        AscendC::SoftMaxTilingFunc(ge::Shape({m + 3, k}), 4, bytes, other);
        const AscendC::SoftMaxShapeInfo si{m, k, m, k};
        if (stack) {
          AscendC::SoftMax<half, false, false, kCfg>(d, s, other, si);
          ASSERT_TRUE((AscendC::PopStackBuffer<uint8_t, AscendC::TPosition::VECCALC>(tmp)));
        } else {
          AscendC::SoftMax<half, false, false, kCfg>(d, s, tmp, other, si);
        }
        out.src.resize(in.src.size());
        out.dst.resize(in.dst.size());
        std::memcpy(out.src.data(), s.HostPtr(), in.src.size() * 2);
        std::memcpy(out.dst.data(), d.HostPtr(), in.dst.size() * 2);
        out.tmp.assign(tmp.HostPtr(), tmp.HostPtr() + bytes);
      },
      opts);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return out;
}

// rows: the re-tile's rows per split (the buffer sized for them, plus `extra` bytes).
template <const AscendC::SoftmaxConfig& kCfg>
void Check(uint32_t m, uint32_t k, uint32_t rows, uint32_t extra, uint32_t seed) {
  const lngrad::aicore::test::CheckedModeScope unchecked(false);
  for (const bool stack : {false, true}) {
    const uint32_t bytes = ((8 + k + 64) * 4 * rows + extra) / (stack ? 32 : 1) * (stack ? 32 : 1);
    SCOPED_TRACE("config " + std::to_string(kCfg.oriSrcM) + "x" + std::to_string(kCfg.oriSrcK) +
                 " [" + std::to_string(m) + ", " + std::to_string(k) + "] tmp " +
                 std::to_string(bytes) + (stack ? " stack" : ""));
    rp::SmxTiling kt = rp::SmxKernelTiling(bytes / 4, m, k, m, 2, 4, false);
    ASSERT_EQ(kt.splitM, rows);
    ASSERT_EQ(kt.reduceK, 8u);
    std::mt19937 gen(seed++);
    Run in;
    in.src = HalfValues(gen, size_t{m} * k, -6.0f, 6.0f);
    in.dst = HalfValues(gen, size_t{m} * k + kPast, -9.0f, 9.0f);
    in.tmp.resize(bytes);
    for (uint8_t& b : in.tmp) b = static_cast<uint8_t>(gen());
    const Run got = RunKernel<kCfg>(m, k, in, stack);
    if (::testing::Test::HasFailure()) return;
    Run want = in;
    kt.splitK = (kCfg.oriSrcK + 7) / 8 * 8;  // the reductions' row stride
    rp::SmxHalfWork io{};
    io.src = want.src.data();
    io.dst = want.dst.data();
    io.work = reinterpret_cast<float*>(want.tmp.data());
    io.redDstK = 16;  // SoftMaxNDImpl's reduceParam.dstK for half data
    rp::ReplaySoftMaxHalfWork(kt, kCfg.oriSrcK, io);
    ExpectSame(got.tmp.data(), want.tmp.data(), bytes, 4, "the work buffer");
    ExpectSame(got.dst.data(), want.dst.data(), want.dst.size() * 2, 2, "dst (and past it)");
    ExpectSame(got.src.data(), in.src.data(), in.src.size() * 2, 2, "src");
  }
}

constexpr AscendC::SoftmaxConfig kCfg8x24{true, 8, 24}, kCfg8x32{true, 8, 32};
constexpr AscendC::SoftmaxConfig kCfg8x130{true, 8, 130}, kCfg8x120{true, 8, 120};
constexpr AscendC::SoftmaxConfig kCfg8x520{true, 8, 520}, kCfg8x72{true, 8, 72};

TEST(SoftMaxConfigScratchReplay, HalfWithoutStatisticsReTileSpillsIntoTheAccumulatorsUnchecked) {
  Check<kCfg8x32>(11, 32, 4, 0, 8100);    // below 64 columns, splitK = srcK
  Check<kCfg8x24>(13, 32, 5, 40, 8200);   // splitK below srcK
  Check<kCfg8x24>(3, 32, 1, 100, 8300);   // one-row splits
  Check<kCfg8x130>(9, 136, 2, 12, 8400);  // [128, 512), tail column
  Check<kCfg8x130>(10, 136, 1, 0, 8500);
  Check<kCfg8x120>(19, 136, 8, 300, 8600);  // splitK below srcK, 8-row splits with a tail
  Check<kCfg8x72>(5, 72, 1, 64, 8700);      // [64, 128), one row
  Check<kCfg8x72>(17, 72, 8, 0, 8800);
  Check<kCfg8x520>(5, 520, 2, 0, 8900);  // from 512
  Check<kCfg8x520>(3, 528, 1, 0, 9000);
}

}  // namespace
