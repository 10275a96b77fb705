// SoftmaxFlashV2's work buffer on Ascend910B1 (arch 2201), float data and statistics, the
// broadcast mode's generic split loop, without and with update: lngrad against the replay of the
// kit's reductions (replay_softmax_flash_scratch.h), the whole scratch byte for byte (0xa5 where
// nothing is written), dst with 40 sentinels past it, expSum, max and expMax against the result
// replay (ReplaySoftmaxFlashV2) and the scratch replay's own statistics, the sources unchanged.
// Both overloads: sharedTmpBuffer and the stack buffer (the TPipe leaves exactly the scratch).
// Scratch sizes: one row's minimum, a few rows plus 12 bytes (not a multiple of 32), the maximum.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "../aicore/sanitizer_off.h"
#include "kernel_operator.h"
#include "lngrad_aicore/launch.h"
#include "replay.h"
#include "replay_softmax.h"
#include "replay_softmax_flash_scratch.h"
#include "scratch_test_util.h"
#include "tiling/tiling_api.h"

namespace {

using AscendC::LocalTensor;
using lngrad_replay::Bits;
using lngrad_replay::SmxTiling;

constexpr uint32_t kPast = 40;
constexpr uint8_t kFill = 0xa5;

struct Shape {
  uint32_t m, k, oriK;
};

// Inputs in [-8, 8); every fourth row spans [-110, 12) (exponentials underflow); specials
// (+-inf, +-0, subnormals) in rows 1 and 2 mod 7 (+inf: the row's exponentials are NaN). No NaN
// in src: with one, the row max depends on the order of the Max steps, and lngrad's fold and
// the kit's tree differ (docs/ascendc_kernels.md, the family's residuals); inMax has a NaN.
std::vector<float> Inputs(uint32_t seed, const Shape& s) {
  std::mt19937 gen(seed);
  std::vector<float> v(uint64_t{s.m} * s.k);
  const float specials[] = {INFINITY, -INFINITY, 0.0f, -0.0f, 1e-40f, -3e-39f, 1e-45f, -0.0f};
  for (uint32_t r = 0; r < s.m; ++r) {
    const bool wide = r % 4 == 3;
    std::uniform_real_distribution<float> d(wide ? -110.0f : -8.0f, wide ? 12.0f : 8.0f);
    for (uint32_t c = 0; c < s.k; ++c) v[uint64_t{r} * s.k + c] = d(gen);
    if (r % 7 == 1 || r % 7 == 2) {
      for (uint32_t i = 0; i < 3; ++i) {
        v[uint64_t{r} * s.k + gen() % s.oriK] = specials[(r % 7 == 1 ? 1 : 0) + gen() % 7];
      }
    }
  }
  return v;
}

std::vector<float> Uniform(uint32_t seed, size_t n, float lo, float hi) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> d(lo, hi);
  std::vector<float> v(n);
  for (float& e : v) e = d(gen);
  return v;
}

struct Io {
  std::vector<float> src, dst, sum, max, em, inSum, inMax;
  std::vector<uint8_t> tmp;
};

uint32_t Al(uint64_t n) { return lngrad_replay::scratch_test::Aligned32(static_cast<uint32_t>(n * 4)); }

// Runs SoftmaxFlashV2<float, update> on a block of Ascend910B1 with the operands of `in`.
Io RunLngrad(const Shape& s, bool update, bool stack, uint32_t tmpBytes, const SoftMaxTiling& t,
             const Io& in) {
  Io got;
  lngrad::aicore::LaunchOptions opts;
  opts.soc = "Ascend910B1";
  const uint64_t n = uint64_t{s.m} * s.k, st = uint64_t{s.m} * 8;
  const auto kernel = [&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<> b[7], own, filler;
    const uint64_t sizes[7] = {n, n + kPast, st, st, st, st, st};
    for (int i = 0; i < 7; ++i) pipe.InitBuffer(b[i], Al(sizes[i]));
    LocalTensor<uint8_t> tmp;
    lngrad_replay::scratch_test::TakeScratch(pipe, own, filler, stack, tmpBytes, &tmp);
    if (::testing::Test::HasFatalFailure()) return;
    LocalTensor<float> src = b[0].Get<float>(static_cast<uint32_t>(n));
    LocalTensor<float> dstAll = b[1].Get<float>(static_cast<uint32_t>(n + kPast));
    LocalTensor<float> dst = dstAll[0];
    dst.SetSize(static_cast<uint32_t>(n));
    LocalTensor<float> sum = b[2].Get<float>(), max = b[3].Get<float>(), em = b[4].Get<float>();
    LocalTensor<float> inSum = b[5].Get<float>(), inMax = b[6].Get<float>();
    const std::vector<float>* ins[7] = {&in.src, &in.dst, &in.sum, &in.max, &in.em, &in.inSum, &in.inMax};
    LocalTensor<float> ts[7] = {src, dstAll, sum, max, em, inSum, inMax};
    for (int i = 0; i < 7; ++i) std::memcpy(ts[i].HostPtr(), ins[i]->data(), ins[i]->size() * 4);
    std::memset(tmp.HostPtr(), kFill, tmpBytes);
    const AscendC::SoftMaxShapeInfo si{s.m, s.k, s.m, s.oriK};
    if (update && stack) {
      AscendC::SoftmaxFlashV2<float, true>(dst, sum, max, src, em, inSum, inMax, t, si);
    } else if (update) {
      AscendC::SoftmaxFlashV2<float, true>(dst, sum, max, src, em, inSum, inMax, tmp, t, si);
    } else if (stack) {
      AscendC::SoftmaxFlashV2<float, false>(dst, sum, max, src, em, inSum, inMax, t, si);
    } else {
      AscendC::SoftmaxFlashV2<float, false>(dst, sum, max, src, em, inSum, inMax, tmp, t, si);
    }
    std::vector<float>* outs[7] = {&got.src, &got.dst, &got.sum, &got.max, &got.em, &got.inSum, &got.inMax};
    for (int i = 0; i < 7; ++i) {
      outs[i]->resize(ins[i]->size());
      std::memcpy(outs[i]->data(), ts[i].HostPtr(), ins[i]->size() * 4);
    }
    got.tmp.assign(tmp.HostPtr(), tmp.HostPtr() + tmpBytes);
  };
  const auto status = lngrad::aicore::Launch(1, kernel, opts);
  EXPECT_TRUE(status.ok()) << status.message();
  return got;
}

// Bit for bit; two NaNs match (the device's NaN payloads are not modelled).
bool Same(float a, float b) { return Bits(a) == Bits(b) || (std::isnan(a) && std::isnan(b)); }

void ExpectBits(const std::vector<float>& got, const std::vector<float>& want, const char* what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < got.size(); ++i) {
    if (!Same(got[i], want[i])) {
      ADD_FAILURE() << what << ": first mismatch at " << i << ": lngrad 0x" << std::hex
                    << Bits(got[i]) << ", replay 0x" << Bits(want[i]);
      return;
    }
  }
}

void ExpectBytes(const std::vector<uint8_t>& got, const std::vector<uint8_t>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    const size_t at = i / 4 * 4;
    if (got[i] != want[i] && at + 4 <= got.size()) {  // a whole float: two NaNs match
      float g = 0, w = 0;
      std::memcpy(&g, got.data() + at, 4);
      std::memcpy(&w, want.data() + at, 4);
      if (Same(g, w)) continue;
    }
    if (got[i] != want[i]) {
      uint32_t g = 0, w = 0;
      std::memcpy(&g, got.data() + at, std::min<size_t>(4, got.size() - at));
      std::memcpy(&w, want.data() + at, std::min<size_t>(4, want.size() - at));
      ADD_FAILURE() << "scratch: first mismatch at byte " << i << " (float " << i / 4
                    << "): lngrad 0x" << std::hex << g << ", replay 0x" << w;
      return;
    }
  }
}

// One shape, one scratch size, both overloads, without and with update.
void Check(const Shape& s, uint32_t tmpBytes, uint32_t seed) {
  const ge::Shape shape({s.m, s.k});
  for (const bool update : {false, true}) {
    SoftMaxTiling t;
    AscendC::SoftMaxFlashV2TilingFunc(shape, 4, 4, tmpBytes, t, update, false);
    SmxTiling mt;
    std::memcpy(&mt, &t, sizeof mt);
    const uint64_t n = uint64_t{s.m} * s.k, st = uint64_t{s.m} * 8;
    Io in;
    in.src = Inputs(seed, s);
    in.dst.assign(n + kPast, lngrad_replay::FromBits(0x5a5b5c5du));
    in.sum = Uniform(seed + 1, st, -3.0f, 3.0f);  // stale contents the broadcast reads
    in.max = Uniform(seed + 2, st, -3.0f, 3.0f);
    in.em = Uniform(seed + 3, st, -3.0f, 3.0f);
    in.inSum = Uniform(seed + 4, st, 0.5f, 40.0f);
    in.inMax = Uniform(seed + 5, st, -6.0f, 9.0f);
    if (st > 9) in.inMax[9] = NAN;
    for (const bool stack : {false, true}) {
      if (stack && tmpBytes % 32 != 0) continue;  // the stack buffer comes in 32-byte blocks
      SCOPED_TRACE("m " + std::to_string(s.m) + " k " + std::to_string(s.k) + " oriK " +
                   std::to_string(s.oriK) + " tmp " + std::to_string(tmpBytes) + " splitM " +
                   std::to_string(t.splitM) + " tailM " + std::to_string(t.tailM) +
                   (update ? " update" : " no update") + (stack ? " stack" : " shared"));
      const Io got = RunLngrad(s, update, stack, tmpBytes, t, in);
      if (::testing::Test::HasFailure()) return;
      // The results' replay.
      std::vector<float> wy(in.dst), wsum(in.sum), wmax(in.max), wem(in.em);
      lngrad_replay::ReplaySoftmaxFlashV2<float, float>(mt, s.oriK, update, in.src.data(),
                                                        wy.data(), wsum.data(), wmax.data(),
                                                        wem.data(), in.inSum.data(),
                                                        in.inMax.data());
      // The scratch's replay (and its own statistics).
      std::vector<uint8_t> wtmp(tmpBytes, kFill);
      std::vector<float> rsum(in.sum), rmax(in.max);
      ASSERT_TRUE(lngrad_replay::ReplayFlashV2FloatScratch(
          mt, s.oriK, update, {in.src.data(), rsum.data(), rmax.data(), in.inMax.data(), in.inSum.data()},
          wtmp.data(), tmpBytes));
      EXPECT_NE(wtmp, std::vector<uint8_t>(tmpBytes, kFill)) << "the replay wrote no scratch";
      ExpectBytes(got.tmp, wtmp);
      ExpectBits(got.dst, wy, "dst");
      ExpectBits(got.sum, wsum, "expSum");
      ExpectBits(got.max, wmax, "max");
      ExpectBits(got.em, wem, "expMax");
      ExpectBits(rsum, wsum, "the scratch replay's expSum");
      ExpectBits(rmax, wmax, "the scratch replay's max");
      ExpectBits(got.src, in.src, "src");
      ExpectBits(got.inSum, in.inSum, "inExpSum");
      ExpectBits(got.inMax, in.inMax, "inMax");
    }
  }
}

const Shape kShapes[] = {{1, 8, 8},     {3, 24, 20},    {1, 64, 64},    {2, 64, 64},
                         {5, 72, 72},   {1, 136, 130},  {9, 200, 196},  {13, 136, 136},
                         {2, 600, 600}, {17, 1040, 1030}, {40, 64, 64}, {37, 264, 260},
                         {11, 48, 48},  {3, 520, 520}};

uint32_t MinBytes(const Shape& s, bool) {
  return AscendC::GetSoftMaxFlashV2MinTmpSize(ge::Shape({s.m, s.k}), 4, 4, true);
}

TEST(SoftmaxFlashV2ScratchReplay, FloatMinimumScratch) {
  uint32_t seed = 1900;
  for (const Shape& s : kShapes) Check(s, MinBytes(s, true), seed += 10);
}

TEST(SoftmaxFlashV2ScratchReplay, FloatScratchNotAMultipleOf32) {
  uint32_t seed = 2900;
  for (const Shape& s : kShapes) Check(s, MinBytes(s, true) * 3 + 12, seed += 10);
}

TEST(SoftmaxFlashV2ScratchReplay, FloatLargeScratch) {
  uint32_t seed = 3900;
  for (const Shape& s : kShapes) {
    const uint32_t max = AscendC::GetSoftMaxFlashV2MaxTmpSize(ge::Shape({s.m, s.k}), 4, 4, true);
    Check(s, std::min<uint32_t>(max, 60 * 1024), seed += 10);
  }
}

}  // namespace
