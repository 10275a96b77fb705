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
#include "replay_reduce_ar_mean_half_scratch.h"
#include "scratch_test_util.h"
#include "../aicore/sanitizer_off.h"

namespace {

namespace rp = lngrad_replay;
using AscendC::LocalTensor;
using lngrad_replay::scratch_test::Aligned32;
using AR = AscendC::Pattern::Reduce::AR;

constexpr uint8_t kFill = 0xa5;
constexpr uint32_t kPast = 40;
constexpr uint32_t kUbBudget = 180000;

struct Got {
  std::vector<uint8_t> dst, src, tmp;
};

std::vector<uint8_t> Bytes(const void* p, size_t n) {
  const auto* b = static_cast<const uint8_t*>(p);
  return std::vector<uint8_t>(b, b + n);
}

template <bool kReuse>
void Call(const LocalTensor<half>& d, const LocalTensor<half>& s, const LocalTensor<uint8_t>& tmp,
          const uint32_t shape[], bool stack) {
  if (stack) {
    AscendC::ReduceMean<half, AR, kReuse>(d, s, shape, true);
  } else {
    AscendC::ReduceMean<half, AR, kReuse>(d, s, tmp, shape, true);
  }
}

Got RunKernel(bool reuse, const std::vector<half>& in, uint32_t first, uint32_t last,
              uint32_t tmpBytes, bool stack) {
  Got g;
  lngrad::aicore::LaunchOptions opts;
  opts.soc = "Ascend910B1";
  const uint32_t n = static_cast<uint32_t>(in.size()), nd = first + kPast;
  const auto kernel = [&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<> bs, bd, bt, filler;
    pipe.InitBuffer(bs, Aligned32(n * 2));
    pipe.InitBuffer(bd, Aligned32(nd * 2));
    LocalTensor<uint8_t> tmp;
    rp::scratch_test::TakeScratch(pipe, bt, filler, stack, tmpBytes, &tmp);
    if (::testing::Test::HasFatalFailure()) return;
    LocalTensor<half> s = bs.Get<half>(n), d = bd.Get<half>(nd);
    std::copy(in.begin(), in.end(), s.HostPtr());
    std::memset(d.HostPtr(), 0x5b, nd * 2);
    std::fill(tmp.HostPtr(), tmp.HostPtr() + tmpBytes, kFill);
    const uint32_t shape[2] = {first, last};
    if (reuse) {
      Call<true>(d, s, tmp, shape, stack);
    } else {
      Call<false>(d, s, tmp, shape, stack);
    }
    g.dst = Bytes(d.HostPtr(), nd * 2);
    g.src = Bytes(s.HostPtr(), n * 2);
    if (stack) {
      ASSERT_TRUE((AscendC::PopStackBuffer<uint8_t, AscendC::TPosition::VECCALC>(tmp)));
    }
    g.tmp.assign(tmp.HostPtr(), tmp.HostPtr() + tmpBytes);
  };
  const lngrad::Status st = lngrad::aicore::Launch(1, kernel, opts);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return g;
}

bool IsNanHalf(const uint8_t* p) {
  uint16_t h;
  std::memcpy(&h, p, 2);
  return (h & 0x7c00u) == 0x7c00u && (h & 0x3ffu) != 0;
}

void ExpectSame(const std::vector<uint8_t>& got, const std::vector<uint8_t>& want,
                const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  const size_t whole = got.size() / 2 * 2;
  for (size_t i = 0; i < got.size(); i += (i < whole ? 2 : 1)) {
    const size_t len = i < whole ? 2 : 1;
    if (std::memcmp(&got[i], &want[i], len) == 0) continue;
    if (len == 2 && IsNanHalf(&got[i]) && IsNanHalf(&want[i])) continue;
    ADD_FAILURE() << what << ": byte " << i << " of " << got.size() << " differs: lngrad 0x"
                  << std::hex << int{got[i]} << ", replay 0x" << int{want[i]};
    return;
  }
}

std::vector<half> Mixed(uint32_t seed, size_t n) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> u(-3.0f, 3.0f);
  const float sp[] = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, 3e-6f, -6e-8f, 6e4f, -1e-7f, 1e-5f};
  std::vector<half> v(n);
  for (auto& x : v) {
    const uint32_t k = gen() % 400;
    x = half(k < 10 ? sp[k] : u(gen));
  }
  return v;
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
  std::vector<half> want_src = in, want_dst(first + kPast);
  std::memset(want_dst.data(), 0x5b, want_dst.size() * 2);
  std::vector<uint8_t> want_tmp(tmpBytes, kFill);
  ASSERT_TRUE(rp::ReplayReduceMeanHalfArScratch(
      reuse, reinterpret_cast<rp::Half*>(want_src.data()), want_src.size(),
      reinterpret_cast<rp::Half*>(want_dst.data()), want_dst.size(), first, last, want_tmp.data(),
      tmpBytes))
      << what;
  const Got got = RunKernel(reuse, in, first, last, tmpBytes, stack);
  ExpectSame(got.dst, Bytes(want_dst.data(), want_dst.size() * 2), what + " dst");
  ExpectSame(got.src, Bytes(want_src.data(), want_src.size() * 2), what + " src");
  ExpectSame(got.tmp, want_tmp, what + " scratch");
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
// of src. A src tensor of the 2 rows only: checked mode refuses (the read past the tensor),
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
      EXPECT_NE(st.ToString().find("outside the tensor"), std::string::npos) << st.ToString();
    } else {
      EXPECT_TRUE(st.ok()) << st.ToString();
    }
  }
}

}  // namespace
