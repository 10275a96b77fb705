// The update forms of the SoftMax family (SoftmaxFlashV2, SoftmaxFlash, SoftmaxFlashV3) and
// SimpleSoftMax through lngrad's Ascend C API on the 950 (dav-3510), compared bit for bit with the
// independent replay of the toolkit's 3510 register code (replay_softmax_3510.h): statistics in
// place (expSum = inExpSum, max = inMax, as the toolkit's samples pass them), statistics whose
// lanes differ, half data with float statistics (expMax interleaved), tails past oriSrcK,
// isBasicBlock with oriSrcK not a multiple of 64 (whole registers), and SoftmaxFlashV2 in
// SOFTMAX_OUTPUT_WITHOUT_BRC mode (one statistic and one expMax element per row, with and without
// outReduceMax).
#include "replay_softmax_3510.h"

#include "../aicore/sanitizer_off.h"
#include "softmax_replay_util.h"

namespace {

using namespace softmax_replay_test;  // NOLINT(build/namespaces)
namespace r3510 = lngrad_replay::r3510;

constexpr AscendC::SoftmaxConfig kM1Cfg{true, 0, 0,
                                        AscendC::SoftmaxMode::SOFTMAX_OUTPUT_WITHOUT_BRC};

// How CheckUpdate calls: SoftmaxFlash (v1) or SoftmaxFlashV2, isBasicBlock, the M1 mode
// (SOFTMAX_OUTPUT_WITHOUT_BRC), the outReduceMax overload (M1, T = S only).
struct Form {
  bool v1 = false, basic = false, m1 = false, reduceMax = false;
};

template <class T, class S, bool v1, bool basic, bool m1, bool reduceMax>
void CallUpdate(const FlashTensors<T, S>& f, const SoftMaxTiling& t,
                const AscendC::SoftMaxShapeInfo& si, const AscendC::LocalTensor<Dev<S>>& rmax) {
  if constexpr (v1) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    AscendC::SoftmaxFlash<Dev<T>, false, basic>(f.dst, f.sum, f.max, f.src, f.em, f.sum, f.max,
                                                f.tmp, t, true, si);
#pragma GCC diagnostic pop
  } else if constexpr (m1 && reduceMax) {
    AscendC::SoftmaxFlashV2<Dev<T>, true, false, basic, false, kM1Cfg>(
        f.dst, rmax, f.sum, f.max, f.src, f.em, f.sum, f.max, f.tmp, t, si);
  } else if constexpr (m1) {
    AscendC::SoftmaxFlashV2<Dev<T>, true, false, basic, false, kM1Cfg>(
        f.dst, f.sum, f.max, f.src, f.em, f.sum, f.max, f.tmp, t, si);
  } else {
    AscendC::SoftmaxFlashV2<Dev<T>, true, false, basic>(f.dst, f.sum, f.max, f.src, f.em, f.sum,
                                                        f.max, f.tmp, t, si);
  }
}

// One update call with the statistics in place in buffer 2 (sum at 0, max at the middle), src
// buffer 0, dst buffer 1 (a sentinel first), expMax in buffer 3's second half, outReduceMax in
// buffer 1's second half; v1: SoftmaxFlash, else SoftmaxFlashV2. laneWise: every statistics lane
// its own value.
template <class T, class S, bool v1 = false, bool basic = false, bool m1 = false,
          bool reduceMax = false>
void CheckUpdate(const Shape& s, bool laneWise, uint32_t seed) {
  SCOPED_TRACE(Name(s) + " v1 " + std::to_string(v1) + " basic " + std::to_string(basic) + " m1 " +
               std::to_string(m1) + " laneWise " + std::to_string(laneWise) + " seed " +
               std::to_string(seed));
  const auto x = Inputs<T>(seed, s);
  const uint32_t ls = m1 ? 1 : 32 / sizeof(S), stats = s.m * ls;
  const uint32_t emN = m1 ? s.m : s.m * 32 / sizeof(T);
  constexpr uint32_t kRmaxAt = kUbBufBytes / 2 / sizeof(S);
  const auto inSum = Stats<S>(seed + 1, s.m, ls, 0.5f, 300.0f, laneWise);
  const auto inMax = Stats<S>(seed + 2, s.m, ls, -2.0f, 9.0f, laneWise);
  constexpr uint32_t kEmAt = kUbBufBytes / 2 / sizeof(T);
  SoftMaxTiling t;
  AscendC::SoftMaxFlashV2TilingFunc(ge::Shape({s.m, s.k}), sizeof(T), sizeof(S), kUbBufBytes / 2, t,
                                    true);
  std::vector<T> y, em;
  std::vector<S> sum, max, rmax;
  OnBlock(
      [&](Ub& ub) {
        Put(ub, 0, x);
        Put(ub, 1, Sentinel<T>(x.size()));
        Put(ub, 1, Sentinel<S>(s.m), kRmaxAt);
        Put(ub, 2, inSum);
        Put(ub, 2, inMax, kMaxAt<S>);
        const FlashTensors<T, S> f(ub);
        const AscendC::SoftMaxShapeInfo si{s.m, s.k, s.m, s.oriK};
        CallUpdate<T, S, v1, basic, m1, reduceMax>(f, t, si, ub.Get<Dev<S>>(1)[kRmaxAt]);
        y = Take<T>(ub, 1, x.size());
        sum = Take<S>(ub, 2, stats);
        max = Take<S>(ub, 2, stats, kMaxAt<S>);
        em = Take<T>(ub, 3, emN, kEmAt);
        rmax = Take<S>(ub, 1, s.m, kRmaxAt);
      },
      k950);
  std::vector<T> wy = Sentinel<T>(x.size()), wem(emN);
  std::vector<S> wsum = inSum, wmax = inMax, wrmax = Sentinel<S>(s.m);
  const lngrad_replay::NzFlashV2Io<T, S> io{x.data(),   wy.data(),   wsum.data(), wmax.data(),
                                            wem.data(), wsum.data(), wmax.data()};
  r3510::SoftmaxFlashUpdate(s.m, s.k, s.oriK, io, v1,
                            {basic, m1, reduceMax ? wrmax.data() : nullptr});
  ExpectOutputs("", y, wy, sum, wsum, max, wmax);
  ExpectSameBits(em, wem, "expMax");
  ExpectSameBits(rmax, wrmax, "outReduceMax");
}

const Shape kFloatShapes[] = {{1, 8, 8},     {9, 8, 5},     {6, 16, 12},
                              {4, 24, 20},   {3, 72, 72},   {5, 200, 196},
                              {2, 600, 600}, {9, 192, 192}, {2, 1040, 1030}};
const Shape kHalfShapes[] = {{4, 16, 6}, {3, 48, 40}, {4, 256, 256}, {2, 528, 520}, {5, 80, 80}};

TEST(SoftmaxFlashV2Update3510Replay, MatchesBitForBit) {
  uint32_t seed = 3700;
  for (const Shape& s : kFloatShapes) {
    CheckUpdate<float, float>(s, false, seed++);
    CheckUpdate<float, float>(s, true, seed++);
  }
  for (const Shape& s : kHalfShapes) {
    CheckUpdate<Half, Half>(s, false, seed++);
    CheckUpdate<Half, Half>(s, true, seed++);
    CheckUpdate<Half, float>(s, false, seed++);
    CheckUpdate<Half, float>(s, true, seed++);
  }
}

// isBasicBlock with oriSrcK not a multiple of 64: SoftmaxFlashV2NDUpdateImpl, SoftmaxFlashNDImpl
// and SoftmaxFlashV2M1NDUpdateImpl run whole registers (padding columns read, reduced, written).
const Shape kBasicTailShapes[] = {{8, 64, 10}, {8, 128, 100}, {4, 192, 130}, {3, 640, 520}};

TEST(SoftmaxFlashV2Update3510Replay, BasicBlockWithTailMatchesBitForBit) {
  uint32_t seed = 3750;
  for (const Shape& s : kBasicTailShapes) {
    CheckUpdate<float, float, false, true>(s, true, seed++);
    CheckUpdate<Half, Half, false, true>(s, false, seed++);
    CheckUpdate<Half, float, false, true>(s, true, seed++);
    CheckUpdate<float, float, true, true>(s, true, seed++);
    CheckUpdate<Half, float, true, true>(s, false, seed++);
    CheckUpdate<float, float, false, true, true>(s, false, seed++);
    CheckUpdate<Half, float, false, true, true>(s, false, seed++);
  }
}

// SOFTMAX_OUTPUT_WITHOUT_BRC (SoftmaxFlashV2M1ND[WithTail]UpdateVFImpl): one statistic and one
// expMax element per row; the outReduceMax overload also stores the row max.
TEST(SoftmaxFlashV2Update3510Replay, PerRowStatisticsMatchBitForBit) {
  uint32_t seed = 3770;
  for (const Shape& s : kFloatShapes) {
    CheckUpdate<float, float, false, false, true>(s, false, seed++);
    CheckUpdate<float, float, false, false, true, true>(s, false, seed++);
  }
  for (const Shape& s : kHalfShapes) {
    CheckUpdate<Half, Half, false, false, true>(s, false, seed++);
    CheckUpdate<Half, Half, false, false, true, true>(s, false, seed++);
    CheckUpdate<Half, float, false, false, true>(s, false, seed++);
  }
}

TEST(SoftmaxFlashUpdate3510Replay, MatchesBitForBit) {
  uint32_t seed = 3800;
  for (const Shape& s : kFloatShapes) {
    CheckUpdate<float, float, true>(s, false, seed++);
    CheckUpdate<float, float, true>(s, true, seed++);
  }
  for (const Shape& s : kHalfShapes) {
    CheckUpdate<Half, Half, true>(s, false, seed++);
    CheckUpdate<Half, float, true>(s, true, seed++);
  }
}

// SimpleSoftMax: every column, lane 0 of the row's statistics (laneWise: the lanes differ).
template <class T, class S>
void CheckSimple(const Shape& s, bool laneWise, uint32_t seed) {
  SCOPED_TRACE(Name(s) + " laneWise " + std::to_string(laneWise) + " seed " + std::to_string(seed));
  const auto x = Inputs<T>(seed, s);
  const SoftMaxTiling t = HostTiling(s, sizeof(S), 0);
  const uint32_t ls = 32 / sizeof(S);
  const auto inMax = Stats<S>(seed + 1, s.m, ls, -2.0f, 9.0f, laneWise);
  const auto inSum = Stats<S>(seed + 2, s.m, ls, 0.5f, 300.0f, laneWise);
  const std::vector<T> y = RunSimpleSoftMax(s, x, inSum, inMax, t, k950);
  std::vector<T> wy(x.size());
  r3510::SimpleSoftMax(s.m, s.k, x.data(), inSum.data(), inMax.data(), wy.data());
  ExpectSameBits(y, wy, "dst");
}

TEST(SimpleSoftMax3510Replay, MatchesBitForBit) {
  uint32_t seed = 3900;
  for (const Shape& s :
       {Shape{1, 8, 8}, Shape{3, 72, 72}, Shape{5, 200, 196}, Shape{2, 600, 600}}) {
    CheckSimple<float, float>(s, false, seed++);
    CheckSimple<float, float>(s, true, seed++);
  }
  for (const Shape& s : {Shape{3, 80, 72}, Shape{4, 256, 256}, Shape{7, 192, 192}}) {
    CheckSimple<Half, Half>(s, true, seed++);
    CheckSimple<Half, float>(s, true, seed++);
  }
}

// SoftmaxFlashV3: no update on block a, then update (loopCnt) on block b with mean/expSum/max
// in place (the toolkit's sample); separate: one update from lane-varying inputs elsewhere.
// Buffer 2: mean, expSum, max at 0, 1024, 2048 floats (separate inputs from 3072).
void CheckFlashV3(const Shape& s, uint32_t loopCnt, bool separate, uint32_t seed) {
  SoftMaxTiling t;
  AscendC::SoftMaxFlashV3TilingFunc(ge::Shape({s.m, s.k}), 2, 4, kUbBufBytes / 2, t, true);
  CheckFlashV3Against(s, t, loopCnt, separate, seed, k950,
                      [&](bool update, const Half* src, Half* dst, Half* em,
                          const lngrad_replay::FlashV3Stats& st) {
                        r3510::SoftmaxFlashV3(s.m, s.k, 8, loopCnt, 0.9375f, update, src, dst, em,
                                              st);
                      });
}

// srcM a multiple of 8: the 950's kernel check asserts it (checked mode refuses others).
TEST(SoftmaxFlashV33510Replay, MatchesBitForBit) {
  CheckFlashV3({8, 512, 512}, 2, false, 4000);
  CheckFlashV3({8, 640, 640}, 3, false, 4001);
  CheckFlashV3({16, 1024, 1024}, 2, false, 4002);
  CheckFlashV3({8, 2048, 2048}, 5, false, 4003);
  CheckFlashV3({8, 640, 640}, 2, true, 4004);
  CheckFlashV3({8, 768, 768}, 4, true, 4005);
}

}  // namespace
