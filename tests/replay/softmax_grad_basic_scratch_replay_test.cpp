// SoftmaxGradFront<T, isBasicBlock = true> ND, half and float, on Ascend910B1 (2201) and
// Ascend310P1 (2002): the whole work buffer and dst with 64 elements past its rows after the call
// against the replay of the kit's sequence (replay_softmax_grad_basic_scratch.h), byte for byte,
// for the sharedTmpBuffer overloads and those that pop the stack buffer: scratch sizes from the
// one-row minimum (one not a multiple of 32) to the maximum, the shape's host tiling (splitM not
// a multiple of 8: the full splits store dst rows past the call's rows) and another shape's (the
// kernel's basic-block re-tile), tail splits, oriK < k, NaN, +-inf, +-0 and subnormals. Two NaNs
// match (payloads are not promised), every other value bit for bit.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "../aicore/sanitizer_off.h"
#include "kernel_operator.h"
#include "lngrad_aicore/launch.h"
#include "replay_softmax_grad_basic_scratch.h"
#include "softmax_grad_sweep.h"
#include "tiling/tiling_api.h"

namespace {

namespace rp = lngrad_replay;
namespace gs = lngrad_replay::softmax_grad_sweep;
using AscendC::LocalTensor;
using rp::scratch_test::Aligned32;

constexpr uint32_t kPast = 64;  // dst elements past the output (the full splits reach 56)
constexpr const char* k910B = "Ascend910B1";
constexpr const char* k310P = "Ascend310P1";

struct Case {
  uint32_t m, k, oriK;
  uint32_t tmpBytes;  // the scratch given
  bool ownTiling;     // the tiling made for [m, k] with tmpBytes; else one for [1, k]
};

template <class T>
void Check(const char* soc, const Case& c, uint32_t seed, bool specials = true) {
  gs::Check<T>(
      soc, {c.m, c.k, c.oriK, true, true, c.tmpBytes, c.ownTiling}, seed, specials, true, kPast,
      [&](const LocalTensor<gs::Dev<T>>& d, const LocalTensor<gs::Dev<T>>& g,
          const LocalTensor<gs::Dev<T>>& s, const LocalTensor<uint8_t>& tmp, const SoftMaxTiling& t,
          const AscendC::SoftMaxShapeInfo& si, bool stack) {
        if (stack) {
          AscendC::SoftmaxGradFront<gs::Dev<T>, true>(d, g, s, t, si);
        } else {
          AscendC::SoftmaxGradFront<gs::Dev<T>, true>(d, g, s, tmp, t, si);
        }
      },
      [&](const rp::SmxTiling& kt, const gs::Io<T>& in, gs::Io<T>& want, bool on310P) {
        return rp::ReplaySoftmaxGradFrontBasicWork(kt, c.oriK, in.grad.data(), in.src.data(),
                                                   want.dst.data(), want.dst.size(), want.tmp,
                                                   on310P);
      });
}

struct Shape {
  uint32_t m, k, oriK;
};

// Shape s at three scratch sizes (the one-row minimum, twice it plus 20 bytes, the maximum) with
// the tiling made for s, then one made for [1, k] (the kernel's basic-block re-tile), on soc.
template <class T>
void CheckShape(const Shape& s, uint32_t& seed, const char* soc) {
  const ge::Shape shape({s.m, s.k});
  const uint32_t lo = AscendC::GetSoftMaxGradMinTmpSize(shape, sizeof(T), true, false);
  const uint32_t hi = AscendC::GetSoftMaxGradMaxTmpSize(shape, sizeof(T), true, false);
  for (const uint32_t bytes : {lo, lo * 2 + 20, hi}) {
    Check<T>(soc, {s.m, s.k, s.oriK, bytes, true}, seed++);
  }
  Check<T>(soc, {s.m, s.k, s.oriK, lo * 3 + 4, false}, seed++);
  Check<T>(soc, {s.m, s.k, s.oriK, hi + 4, false}, seed++);
}

const Shape kShapes[] = {{1, 64, 64},    {5, 64, 60},   {3, 128, 128}, {13, 64, 64},
                         {16, 192, 190}, {9, 256, 200}, {40, 64, 64},  {2, 1024, 1000},
                         {7, 320, 320},  {64, 128, 128}};

TEST(SoftmaxGradFrontBasicScratchReplay, FloatMatchesTheKitsBufferAndDstByteForByte) {
  uint32_t seed = 5100;
  for (const char* soc : {k910B, k310P}) {
    for (const Shape& s : kShapes) CheckShape<float>(s, seed, soc);
  }
}

TEST(SoftmaxGradFrontBasicScratchReplay, HalfMatchesTheKitsBufferAndDstByteForByte) {
  uint32_t seed = 5300;
  for (const char* soc : {k910B, k310P}) {
    for (const Shape& s : kShapes) CheckShape<rp::Half>(s, seed, soc);
  }
}

// splitM = 5 (the host tiling for [5, 64] with its maximum): the only split is full and the kit
// stores ceil(5 / 8) * 8 float rows (half: ceil(5 * 16 / 64) * 4 rows) into dst, rows 5.. with the
// sums of what its buffers hold there. lngrad writes them too (they used to be left alone).
TEST(SoftmaxGradFrontBasicScratchReplay, FullSplitStoresDstRowsPastTheCallsRows) {
  uint32_t seed = 5500;
  const uint32_t hi = AscendC::GetSoftMaxGradMaxTmpSize(ge::Shape({5, 64}), 4, true, false);
  Check<float>(k910B, {5, 64, 64, hi, true}, seed++);
  const uint32_t hiH = AscendC::GetSoftMaxGradMaxTmpSize(ge::Shape({5, 64}), 2, true, false);
  Check<rp::Half>(k910B, {5, 64, 64, hiH, true}, seed++);
}

// Half [1, 64] on 2201: splitSize 64, so the first Brcb's 8 even blocks (128 floats from the
// product buffer) reach the row sums after it; the second Brcb then reads sums the first
// overwrote and row 0's lanes 8..15 hold sum 4 (of product lanes 32..39), not the row's sum. dst
// follows the kit (lngrad used to store the row sum there); 2002's AlignedBrcbImpl reads its 8
// scalars first.
TEST(SoftmaxGradFrontBasicScratchReplay, HalfOneRowOf64On2201ReadsSumsTheFirstBrcbOverwrote) {
  uint32_t seed = 5600;
  const uint32_t lo = AscendC::GetSoftMaxGradMinTmpSize(ge::Shape({1, 64}), 2, true, false);
  for (const char* soc : {k910B, k310P}) {
    Check<rp::Half>(soc, {1, 64, 64, lo, true}, seed++, false);
    Check<rp::Half>(soc, {1, 64, 48, lo * 2 + 20, true}, seed++);
  }
}

// Checked mode refuses those stores past a dst of exactly the call's rows (tensor_bounds, as any
// overrun), before anything is written; the kit does not assert, its stores land past dst.
TEST(SoftmaxGradFrontBasicScratchReplay, CheckedModeRefusesStoresPastDst) {
  constexpr uint32_t kM = 5, kK = 64;
  SoftMaxTiling t;
  const uint32_t hi = AscendC::GetSoftMaxGradMaxTmpSize(ge::Shape({kM, kK}), 4, true, false);
  AscendC::SoftMaxGradTilingFunc(ge::Shape({kM, kK}), 4, hi, t, true);
  lngrad::aicore::LaunchOptions opts;
  opts.soc = k910B;
  const lngrad::Status st = lngrad::aicore::Launch(
      1,
      [&] {
        AscendC::TPipe pipe;
        AscendC::TBuf<> bg, bs, bd, bt;
        pipe.InitBuffer(bg, kM * kK * 4);
        pipe.InitBuffer(bs, kM * kK * 4);
        pipe.InitBuffer(bd, kM * 8 * 4);
        pipe.InitBuffer(bt, Aligned32(hi));
        LocalTensor<float> g = bg.Get<float>(), s = bs.Get<float>(), d = bd.Get<float>();
        for (uint32_t i = 0; i < kM * kK; ++i) g.SetValue(i, 1.0f), s.SetValue(i, 0.5f);
        AscendC::SoftmaxGradFront<float, true>(d, g, s, bt.Get<uint8_t>(hi), t, {kM, kK, kM, kK});
      },
      opts);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.ToString().find("tensor_bounds"), std::string::npos) << st.ToString();
}

}  // namespace
