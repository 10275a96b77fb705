// What ReduceMean<half, AR> leaves in dst, src and the scratch on arch 2201 (Ascend910B1) against
// the replay of the kit's sequence (replay_reduce_ar_mean_half_scratch.h): with and without
// isReuseSource, the sharedTmpBuffer overload and the one that pops the stack buffer, rows of
// 1..8 halves (BlkReduceForLoop, 4100 rows too), up to 64 (WholeReduceSum) and longer
// (ReduceSumInLargeLast's float-sized steps: the work rows copied from rows 2r, the tail added
// per row or as repeats, only about half the results written; more than 248 rows), scratch sizes
// from the minimum up and one no multiple of 32, inputs with NaN, +-inf, +-0 and subnormals, src's
// tensor longer than the rows (the sequence reads rows past them). Compared bit for bit (two NaNs
// match): the whole scratch (0xa5 where the kit's code does not write), dst with 40 elements past
// it, all of src's tensor.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "lngrad_aicore/launch.h"
#include "reduce_scratch_sweep.h"
#include "replay_reduce_ar_mean_half_scratch.h"
#include "../aicore/sanitizer_off.h"

namespace {

namespace rp = lngrad_replay;
namespace rs = lngrad_replay::reduce_scratch;
using AscendC::LocalTensor;
using lngrad_replay::scratch_test::Aligned32;
using rs::kPast;
using AR = AscendC::Pattern::Reduce::AR;

constexpr uint32_t kUbBudget = 180000;

// n values in [-3, 3) with the specials (half's subnormals among them) at random places.
std::vector<half> Mixed(uint32_t seed, size_t n) {
  static const float kHalfSpecials[10] = {0.0f,  -0.0f,  INFINITY, -INFINITY, NAN,
                                          3e-6f, -6e-8f, 6e4f,     -1e-7f,    1e-5f};
  return rs::Mixed<half>(seed, n, false, kHalfSpecials, [](std::mt19937&) { return 0; });
}

uint32_t Pad(uint32_t last) { return (last + 15) / 16 * 16; }

// The halves of src's tensor: the rows and, for rows longer than 64, as many again and two more
// (the work rows copy rows 2r of each 248-row group).
uint32_t SrcLen(uint32_t first, uint32_t last) {
  return last <= 64 ? first * Pad(last) : (2 * first + 2) * Pad(last);
}

void Compare(bool reuse, uint32_t first, uint32_t last, uint32_t tmpBytes, bool stack,
             uint32_t seed) {
  const std::string what = std::string("ReduceMean<half, AR") + (reuse ? ", reuse" : "") + ">, [" +
                           std::to_string(first) + ", " + std::to_string(last) + "], scratch " +
                           std::to_string(tmpBytes) + (stack ? " (stack)" : " (sharedTmpBuffer)");
  const std::vector<half> in = Mixed(seed, SrcLen(first, last));
  rs::Compare<half, AR>("Ascend910B1", rs::kMean, reuse, {first, last}, tmpBytes, stack, in,
                        first + kPast, what, [&](half* src, half* dst, uint8_t* tmp) {
                          return rp::ReplayReduceMeanHalfArScratch(
                              reuse, reinterpret_cast<rp::Half*>(src), in.size(),
                              reinterpret_cast<rp::Half*>(dst), first + kPast, first, last, tmp,
                              tmpBytes);
                        });
}

// The host's minimum (GetReduceMeanMaxMinTmpSize, AR, half): none up to 64 a row or reusing src,
// else first * k * 4 bytes, k the largest power of two <= last, halved when last is one and
// first > 1.
uint32_t MinTmp(uint32_t first, uint32_t last, bool reuse) {
  if (reuse || last <= 64) return 0;
  uint32_t k = 1;
  while (k * 2 <= last) k *= 2;
  return first * (k == last && first > 1 ? k / 2 : k) * 4;
}

void Sweep(const std::vector<uint32_t>& firsts, const std::vector<uint32_t>& lasts) {
  uint32_t seed = 9100;
  for (bool reuse : {false, true}) {
    for (uint32_t first : firsts) {
      for (uint32_t last : lasts) {
        const uint32_t io = SrcLen(first, last) * 2 + Aligned32((first + kPast) * 2);
        const uint32_t min = std::max<uint32_t>(MinTmp(first, last, reuse), 32);
        for (bool stack : {false, true}) {
          std::vector<uint32_t> sizes = {min, 2 * min + 96};
          if (!stack) sizes.push_back(min + 44);
          for (uint32_t tmp : sizes) {
            if (io + Aligned32(tmp) > kUbBudget) continue;
            Compare(reuse, first, last, tmp, stack, ++seed);
          }
        }
      }
    }
  }
}

TEST(ReduceArMeanHalfScratchReplay, Shapes) {
  Sweep({1, 2, 3, 8, 13, 17, 100},
        {1, 5, 8, 9, 16, 17, 40, 64, 65, 72, 100, 128, 129, 255, 256, 257, 1000, 1024, 2048, 2100});
}

// More than 248 rows (the groups' work areas 248 * 64 halves apart) and 2040/4100 rows of at
// most 8 halves (BlkReduceForLoop's whole calls all at offset 0).
TEST(ReduceArMeanHalfScratchReplay, ManyRows) {
  Sweep({248, 249, 300}, {65, 72, 100, 128});
  Sweep({2040, 4100}, {3, 8});
}

// The work rows copy rows 2r: with 2 rows of 200 halves the sequence reads 2 * 208 + 256 halves
// of src. A src tensor of the 2 rows only: checked mode refuses (rows past 64 halves are a shape
// the device computes wrongly: reduce_device_defect, before the read past the tensor),
// unchecked the call reads on into the UB as the device does.
TEST(ReduceArMeanHalfScratchReplay, ReadPastTheRowsRefusedInCheckedMode) {
  for (bool checked : {true, false}) {
    const bool was = lngrad::aicore::CheckedMode();
    lngrad::aicore::SetCheckedMode(checked);
    lngrad::aicore::LaunchOptions opts;
    opts.soc = "Ascend910B1";
    const lngrad::Status st = lngrad::aicore::Launch(
        1,
        [&] {
          AscendC::TPipe pipe;
          AscendC::TBuf<> bs, bd, bt;
          pipe.InitBuffer(bs, 2 * 208 * 2);
          pipe.InitBuffer(bd, 64);
          pipe.InitBuffer(bt, 2048);
          LocalTensor<half> s = bs.Get<half>(), d = bd.Get<half>();
          std::fill(s.HostPtr(), s.HostPtr() + 2 * 208, half(1.0f));
          const uint32_t shape[2] = {2, 200};
          AscendC::ReduceMean<half, AR>(d, s, bt.Get<uint8_t>(), shape, true);
        },
        opts);
    lngrad::aicore::SetCheckedMode(was);
    if (checked) {
      ASSERT_FALSE(st.ok());
      EXPECT_NE(st.ToString().find("reduce_device_defect"), std::string::npos) << st.ToString();
    } else {
      EXPECT_TRUE(st.ok()) << st.ToString();
    }
  }
}

}  // namespace
