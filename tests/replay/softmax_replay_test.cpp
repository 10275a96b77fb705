// The SoftMax family through lngrad's Ascend C API on the 910B (dav-2201), compared bit for bit
// with the independent replay of the toolkit's 2201 source (replay_softmax.h): float and half,
// one row and many, tails (oriSrcK < srcK, lengths not multiples of 64), every branch of the row
// reductions (< 64, [64, 128), [128, 512), >= 512), tilings from the host tiling functions with
// one split and several (with a tail split), the overloads with and without sharedTmpBuffer.
#include "softmax_replay_util.h"

#include "../aicore/sanitizer_off.h"

namespace {

using namespace softmax_replay_test;  // NOLINT(build/namespaces)
// SoftMax with sum and max; inPlace: dst is src (buffer 0), else buffer 1; tmp: the
// sharedTmpBuffer overload (buffer 3) or the framework-allocated one.
template <class T, class S, bool basic = false>
void CheckSoftMax(const Shape& s, uint32_t typeSize, uint32_t splitRows, bool inPlace, bool tmp,
                  uint32_t seed) {
  SCOPED_TRACE(Name(s) + " splitRows " + std::to_string(splitRows) + " seed " +
               std::to_string(seed));
  const auto x = Inputs<T>(seed, s);
  const SoftMaxTiling t = HostTiling(s, typeSize, splitRows);
  const uint32_t stats = s.m * t.reduceK;
  std::vector<T> y;
  std::vector<S> sum, max;
  OnBlock(
      [&](Ub& ub) {
        Put(ub, 0, x);
        auto src = ub.Get<Dev<T>>(0);
        auto dst = inPlace ? src : ub.Get<Dev<T>>(1);
        auto st = ub.Get<Dev<S>>(2);
        const AscendC::SoftMaxShapeInfo shape{s.m, s.k, s.m, s.oriK};
        if (tmp) {
          AscendC::SoftMax<Dev<T>, false, basic>(dst, st[0], st[kMaxAt<S>], src, ub.Get<uint8_t>(3),
                                                 t, shape);
        } else {
          AscendC::SoftMax<Dev<T>, false, basic>(dst, st[0], st[kMaxAt<S>], src, t, shape);
        }
        y = Take<T>(ub, inPlace ? 0 : 1, x.size());
        sum = Take<S>(ub, 2, stats);
        max = Take<S>(ub, 2, stats, kMaxAt<S>);
      },
      k910B);
  std::vector<T> wy(x.size());
  std::vector<S> wsum(stats), wmax(stats);
  lngrad_replay::ReplaySoftMax(Mirror(t), s.oriK, x.data(), wy.data(), wsum.data(), wmax.data(),
                               basic);
  ExpectOutputs("", y, wy, sum, wsum, max, wmax);
}

const Shape kFloatShapes[] = {{1, 8, 8},       {4, 24, 20},     {7, 64, 64},   {3, 72, 72},
                              {2, 128, 128},   {5, 200, 200},   {3, 264, 260}, {2, 512, 512},
                              {2, 600, 600},   {3, 1032, 1030}, {40, 64, 60},  {16, 96, 96},
                              {1, 1040, 1040}, {2, 4096, 4090}, {9, 192, 192}, {6, 184, 184}};

const Shape kHalfShapes[] = {{1, 16, 16},     {3, 48, 40},    {5, 80, 80},     {2, 144, 130},
                             {4, 256, 256},   {2, 528, 520},  {2, 1040, 1040}, {9, 16, 16},
                             {2, 2048, 2000}, {12, 192, 190}, {33, 64, 64}};

TEST(SoftMaxReplay, FloatMatchesBitForBit) {
  uint32_t seed = 1;
  for (const Shape& s : kFloatShapes) {
    CheckSoftMax<float, float>(s, 4, 0, false, true, seed++);
    CheckSoftMax<float, float>(s, 4, 3, true, true, seed++);
  }
  CheckSoftMax<float, float>({5, 200, 200}, 4, 2, false, false, 99);
}

TEST(SoftMaxReplay, HalfMatchesBitForBit) {
  uint32_t seed = 100;
  for (const Shape& s : kHalfShapes) {
    CheckSoftMax<Half, Half>(s, 2, 0, false, true, seed++);
    CheckSoftMax<Half, Half>(s, 2, 4, true, true, seed++);
    CheckSoftMax<Half, float>(s, 4, 0, false, true, seed++);
    CheckSoftMax<Half, float>(s, 4, 3, false, true, seed++);
  }
  CheckSoftMax<Half, Half>({12, 192, 190}, 2, 5, false, false, 199);
}

// isBasicBlock (shapes of the basic-block contract: K a multiple of 64 below 2048, M a
// multiple of 8): BasicBlockAddImpl's sums over every srcK column, no BlockReduceSum start for
// K >= 512.
TEST(SoftMaxReplay, BasicBlockMatchesBitForBit) {
  CheckSoftMax<float, float, true>({8, 64, 64}, 4, 0, false, true, 200);
  CheckSoftMax<float, float, true>({8, 128, 128}, 4, 0, false, true, 201);
  CheckSoftMax<float, float, true>({16, 640, 640}, 4, 0, true, true, 202);
  CheckSoftMax<float, float, true>({8, 1024, 1024}, 4, 0, false, false, 203);
  CheckSoftMax<Half, Half, true>({8, 256, 256}, 2, 0, false, true, 204);
  CheckSoftMax<Half, Half, true>({8, 1024, 1024}, 2, 0, false, true, 205);
  CheckSoftMax<Half, float, true>({16, 512, 512}, 4, 0, false, true, 206);
  // oriSrcK below srcK: SoftMaxBasicBlock reduces every srcK column (it does not read oriSrcK).
  CheckSoftMax<float, float, true>({8, 128, 100}, 4, 0, false, true, 207);
  CheckSoftMax<Half, Half, true>({8, 256, 200}, 2, 0, true, true, 208);
  CheckSoftMax<Half, float, true>({16, 640, 513}, 4, 0, false, true, 209);
}

// SoftMax without statistics; float + isReuseSource also compares what src is left holding.
template <class T, bool reuse, bool basic = false>
void CheckSoftMaxNoStats(const Shape& s, uint32_t splitRows, bool tmp, uint32_t seed) {
  SCOPED_TRACE(Name(s) + " reuse " + std::to_string(reuse) + " seed " + std::to_string(seed));
  const auto x = Inputs<T>(seed, s);
  const SoftMaxTiling t = HostTiling(s, sizeof(T), splitRows);
  std::vector<T> y, left;
  OnBlock(
      [&](Ub& ub) {
        Put(ub, 0, x);
        const AscendC::SoftMaxShapeInfo shape{s.m, s.k, s.m, s.oriK};
        if (tmp) {
          AscendC::SoftMax<Dev<T>, reuse, basic>(ub.Get<Dev<T>>(1), ub.Get<Dev<T>>(0),
                                                 ub.Get<uint8_t>(3), t, shape);
        } else {
          AscendC::SoftMax<Dev<T>, reuse, basic>(ub.Get<Dev<T>>(1), ub.Get<Dev<T>>(0), t, shape);
        }
        y = Take<T>(ub, 1, x.size());
        left = Take<T>(ub, 0, x.size());
      },
      k910B);
  std::vector<T> wx = x, wy(x.size());
  lngrad_replay::ReplaySoftMaxNoStats(Mirror(t), s.oriK, wx.data(), wy.data(), reuse);
  ExpectSameBits(y, wy, "dst");
  ExpectSameBits(left, wx, "src after the call");
}

TEST(SoftMaxReplay, WithoutStatisticsMatchesBitForBit) {
  uint32_t seed = 300;
  for (const Shape& s :
       {Shape{3, 72, 72}, Shape{5, 200, 196}, Shape{2, 600, 600}, Shape{9, 48, 48}}) {
    CheckSoftMaxNoStats<float, false>(s, 0, true, seed++);
    CheckSoftMaxNoStats<float, true>(s, 2, true, seed++);
    CheckSoftMaxNoStats<float, true>(s, 0, false, seed++);
  }
  for (const Shape& s : {Shape{3, 80, 72}, Shape{4, 256, 256}, Shape{2, 528, 520}}) {
    CheckSoftMaxNoStats<Half, false>(s, 0, true, seed++);
    CheckSoftMaxNoStats<Half, true>(s, 3, false, seed++);
  }
}

// The form without statistics has no basic-block path (SoftMaxNDImpl runs SingleSoftMaxImpl for
// any isBasicBlock): rows of 512 or more sum with the generic BlockReduceSum start.
TEST(SoftMaxReplay, WithoutStatisticsIgnoresIsBasicBlock) {
  CheckSoftMaxNoStats<float, false, true>({8, 640, 640}, 0, true, 350);
  CheckSoftMaxNoStats<float, true, true>({8, 512, 512}, 0, true, 351);
  CheckSoftMaxNoStats<Half, false, true>({8, 1024, 1024}, 0, true, 352);
}

template <class T, class S>
void CheckSimpleSoftMax(const Shape& s, uint32_t typeSize, uint32_t splitRows, bool laneWise,
                        uint32_t seed) {
  SCOPED_TRACE(Name(s) + " laneWise " + std::to_string(laneWise) + " seed " + std::to_string(seed));
  const auto x = Inputs<T>(seed, s);
  const SoftMaxTiling t = HostTiling(s, typeSize, splitRows);
  const auto inMax = Stats<S>(seed + 1, s.m, t.reduceK, -2.0f, 9.0f, laneWise);
  const auto inSum = Stats<S>(seed + 2, s.m, t.reduceK, 0.5f, 300.0f, laneWise);
  const std::vector<T> y = RunSimpleSoftMax(s, x, inSum, inMax, t, k910B);
  std::vector<T> wy(x.size());
  lngrad_replay::ReplaySimpleSoftMax(Mirror(t), x.data(), inSum.data(), inMax.data(), wy.data());
  ExpectSameBits(y, wy, "dst");
}

TEST(SimpleSoftMaxReplay, MatchesBitForBit) {
  uint32_t seed = 400;
  for (const Shape& s : {Shape{1, 8, 8}, Shape{3, 72, 72}, Shape{5, 200, 196}, Shape{2, 600, 600},
                         Shape{17, 192, 192}}) {
    CheckSimpleSoftMax<float, float>(s, 4, 0, false, seed++);
    CheckSimpleSoftMax<float, float>(s, 4, 2, false, seed++);
  }
  for (const Shape& s : {Shape{3, 80, 72}, Shape{4, 256, 256}, Shape{7, 192, 192}}) {
    CheckSimpleSoftMax<Half, Half>(s, 2, 0, false, seed++);
    CheckSimpleSoftMax<Half, Half>(s, 2, 3, false, seed++);
    CheckSimpleSoftMax<Half, float>(s, 4, 0, false, seed++);
    CheckSimpleSoftMax<Half, float>(s, 4, 2, false, seed++);
  }
}

TEST(SimpleSoftMaxReplay, ColumnsReadTheirLaneOfTheStatistics) {
  CheckSimpleSoftMax<float, float>({3, 72, 72}, 4, 0, true, 450);
  CheckSimpleSoftMax<float, float>({2, 264, 264}, 4, 0, true, 451);
  CheckSimpleSoftMax<Half, Half>({3, 80, 80}, 2, 0, true, 452);
  CheckSimpleSoftMax<Half, float>({2, 208, 208}, 4, 0, true, 453);
}

template <class T>
void CheckLogSoftMax(const Shape& s, uint32_t seed) {
  SCOPED_TRACE(Name(s) + " seed " + std::to_string(seed));
  const auto x = Inputs<T>(seed, s);
  const ge::Shape shape({s.m, s.k});
  LogSoftMaxTiling t;
  AscendC::LogSoftMaxTilingFunc(
      shape, sizeof(T),
      std::min(AscendC::GetLogSoftMaxMaxTmpSize(shape, sizeof(T), false), kUbBufBytes), t);
  const uint32_t stats = s.m * 32 / sizeof(T);
  std::vector<T> y, sum, max;
  OnBlock(
      [&](Ub& ub) {
        Put(ub, 0, x);
        auto st = ub.Get<Dev<T>>(2);
        AscendC::LogSoftMax<Dev<T>>(ub.Get<Dev<T>>(1), st[0], st[kMaxAt<T>], ub.Get<Dev<T>>(0),
                                    ub.Get<uint8_t>(3), t, {s.m, s.k, s.m, s.oriK});
        y = Take<T>(ub, 1, x.size());
        sum = Take<T>(ub, 2, stats);
        max = Take<T>(ub, 2, stats, kMaxAt<T>);
      },
      k910B);
  std::vector<T> wy(x.size()), wsum(stats), wmax(stats);
  lngrad_replay::ReplayLogSoftMax(s.m, s.k, s.oriK, x.data(), wy.data(), wsum.data(), wmax.data());
  ExpectOutputs("", y, wy, sum, wsum, max, wmax);
}

TEST(LogSoftMaxReplay, MatchesBitForBit) {
  uint32_t seed = 500;
  for (const Shape& s : {Shape{1, 8, 8}, Shape{4, 24, 20}, Shape{3, 72, 72}, Shape{5, 200, 196},
                         Shape{2, 600, 600}, Shape{9, 192, 192}}) {
    CheckLogSoftMax<float>(s, seed++);
  }
  for (const Shape& s : {Shape{3, 48, 40}, Shape{4, 256, 256}, Shape{2, 528, 520}}) {
    CheckLogSoftMax<Half>(s, seed++);
  }
}

TEST(AdjustSoftMaxResReplay, MatchesBitForBit) {
  CheckAdjust<float, float, 0>(7, 72, 1000);
  CheckAdjust<float, float, 1>(9, 64, 1001);
  CheckAdjust<Half, Half, 0>(5, 48, 1002);
  CheckAdjust<Half, Half, 1>(4, 32, 1003);
  CheckAdjust<Half, float, 0>(6, 80, 1004);
  CheckAdjust<float, float, 0>(2, 40, 1005);  // row 1 has the marker off lane 0 only
}

}  // namespace
