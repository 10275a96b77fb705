// The SoftMax family through lngrad's Ascend C API on the 910B (dav-2201), compared bit for bit
// with the independent replay of the toolkit's 2201 source (replay_softmax.h): float and half,
// one row and many, tails (oriSrcK < srcK, lengths not multiples of 64), every branch of the row
// reductions (< 64, [64, 128), [128, 512), >= 512), tilings from the host tiling functions with
// one split and several (with a tail split), the overloads with and without sharedTmpBuffer.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "../aicore/repeat_test_util.h"
#include "kernel_operator.h"
#include "replay_softmax.h"
#include "tiling/tiling_api.h"
#include "../aicore/sanitizer_off.h"

namespace {

using lngrad::aicore::test::kUbBufBytes;
using lngrad::aicore::test::OnBlock;
using lngrad::aicore::test::Ub;
using lngrad_replay::Half;
using lngrad_replay::SmxTiling;

constexpr const char* k910B = "Ascend910B1";
static_assert(sizeof(SoftMaxTiling) == sizeof(SmxTiling));

// The device element type of a replay type.
template <class T>
using Dev = std::conditional_t<std::is_same_v<T, Half>, half, float>;

struct Shape {
  uint32_t m, k, oriK;
};

std::string Name(const Shape& s) {
  return "m " + std::to_string(s.m) + " k " + std::to_string(s.k) + " oriK " +
         std::to_string(s.oriK);
}

// Seeded inputs: uniform in [-8, 8]; every third row spans [-110, 12] (exp underflows to
// subnormals and zero); every row repeats its first value (ties of the max) and has -inf at
// one column of the reduced part when oriK > 2.
template <class T>
std::vector<T> Inputs(uint32_t seed, const Shape& s) {
  std::mt19937 gen(seed);
  std::vector<T> v(s.m * s.k);
  for (uint32_t r = 0; r < s.m; ++r) {
    const bool wide = r % 3 == 2;
    std::uniform_real_distribution<float> d(wide ? -110.0f : -8.0f, wide ? 12.0f : 8.0f);
    for (uint32_t c = 0; c < s.k; ++c) v[r * s.k + c] = lngrad_replay::FromFloat<T>(d(gen));
    if (s.oriK > 2) {
      v[r * s.k + s.oriK - 1] = v[r * s.k];
      v[r * s.k + (seed + r) % (s.oriK - 1)] = lngrad_replay::FromFloat<T>(-INFINITY);
    }
  }
  return v;
}

template <class T>
void Put(Ub& ub, int buf, const std::vector<T>& v, uint32_t at = 0) {
  std::memcpy(ub.Get<uint8_t>(buf).HostPtr() + at * sizeof(T), v.data(), v.size() * sizeof(T));
}

template <class T>
std::vector<T> Take(Ub& ub, int buf, size_t n, uint32_t at = 0) {
  std::vector<T> v(n);
  std::memcpy(v.data(), ub.Get<uint8_t>(buf).HostPtr() + at * sizeof(T), n * sizeof(T));
  return v;
}

template <class T>
uint32_t BitsOf(T v) {
  if constexpr (std::is_same_v<T, Half>) {
    return v.bits;
  } else {
    return lngrad_replay::Bits(v);
  }
}

// Bitwise comparison; the first mismatch is reported with both values.
template <class T>
void ExpectSameBits(const std::vector<T>& got, const std::vector<T>& want,
                    const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < got.size(); ++i) {
    if (BitsOf(got[i]) != BitsOf(want[i])) {
      ADD_FAILURE() << what << ": first mismatch at " << i << ": lngrad "
                    << lngrad_replay::ToFloat(got[i]) << " (0x" << std::hex << BitsOf(got[i])
                    << "), replay " << std::dec << lngrad_replay::ToFloat(want[i]) << " (0x"
                    << std::hex << BitsOf(want[i]) << ")";
      return;
    }
  }
}

// The host tiling for [m, k] with a tmp budget of `splitRows` rows' minimum (0: the maximum
// size, capped at the scratch buffer), as lngrad's SoftMaxTilingFunc computes it.
SoftMaxTiling HostTiling(const Shape& s, uint32_t typeSize, uint32_t splitRows) {
  const ge::Shape shape({s.m, s.k});
  uint32_t budget = AscendC::GetSoftMaxMaxTmpSize(shape, typeSize, false);
  if (splitRows != 0) {
    budget = AscendC::GetSoftMaxMinTmpSize(ge::Shape({1, s.k}), typeSize, false) * splitRows;
  }
  budget = std::min(budget, kUbBufBytes);
  SoftMaxTiling t;
  AscendC::SoftMaxTilingFunc(shape, typeSize, budget, t);
  return t;
}

SmxTiling Mirror(const SoftMaxTiling& t) {
  SmxTiling r;
  std::memcpy(&r, &t, sizeof r);
  return r;
}

// Statistics live in buffer 2: sum from element 0, max from the buffer's middle.
template <class S>
constexpr uint32_t kMaxAt = kUbBufBytes / 2 / sizeof(S);

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
  ExpectSameBits(y, wy, "dst");
  ExpectSameBits(sum, wsum, "sum");
  ExpectSameBits(max, wmax, "max");
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
// multiple of 8): BasicBlockAddImpl's sums, no BlockReduceSum start for K >= 512.
TEST(SoftMaxReplay, BasicBlockMatchesBitForBit) {
  CheckSoftMax<float, float, true>({8, 64, 64}, 4, 0, false, true, 200);
  CheckSoftMax<float, float, true>({8, 128, 128}, 4, 0, false, true, 201);
  CheckSoftMax<float, float, true>({16, 640, 640}, 4, 0, true, true, 202);
  CheckSoftMax<float, float, true>({8, 1024, 1024}, 4, 0, false, false, 203);
  CheckSoftMax<Half, Half, true>({8, 256, 256}, 2, 0, false, true, 204);
  CheckSoftMax<Half, Half, true>({8, 1024, 1024}, 2, 0, false, true, 205);
  CheckSoftMax<Half, float, true>({16, 512, 512}, 4, 0, false, true, 206);
}

// Uniform values in [lo, hi) as T.
template <class T>
std::vector<T> Uniform(uint32_t seed, size_t n, float lo, float hi) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> d(lo, hi);
  std::vector<T> v(n);
  for (T& e : v) e = lngrad_replay::FromFloat<T>(d(gen));
  return v;
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

// Statistics [m, reduceK] for SimpleSoftMax: laneWise: every entry its own value (the source
// reads lane c % 8 of the row for column c); else one value per row.
template <class S>
std::vector<S> Stats(uint32_t seed, uint32_t m, uint32_t reduceK, float lo, float hi,
                     bool laneWise) {
  std::vector<S> v = Uniform<S>(seed, m * reduceK, lo, hi);
  if (!laneWise) {
    for (uint32_t i = 0; i < v.size(); ++i) v[i] = v[i - i % reduceK];
  }
  return v;
}

template <class T, class S>
void CheckSimpleSoftMax(const Shape& s, uint32_t typeSize, uint32_t splitRows, bool laneWise,
                        uint32_t seed) {
  SCOPED_TRACE(Name(s) + " laneWise " + std::to_string(laneWise) + " seed " + std::to_string(seed));
  const auto x = Inputs<T>(seed, s);
  const SoftMaxTiling t = HostTiling(s, typeSize, splitRows);
  const auto inMax = Stats<S>(seed + 1, s.m, t.reduceK, -2.0f, 9.0f, laneWise);
  const auto inSum = Stats<S>(seed + 2, s.m, t.reduceK, 0.5f, 300.0f, laneWise);
  std::vector<T> y;
  OnBlock(
      [&](Ub& ub) {
        Put(ub, 0, x);
        Put(ub, 2, inSum);
        Put(ub, 2, inMax, kMaxAt<S>);
        auto st = ub.Get<Dev<S>>(2);
        const AscendC::SoftMaxShapeInfo shape{s.m, s.k, s.m, s.oriK};
        AscendC::SimpleSoftMax<Dev<T>>(ub.Get<Dev<T>>(1), st[0], st[kMaxAt<S>], ub.Get<Dev<T>>(0),
                                       ub.Get<uint8_t>(3), t, shape);
        y = Take<T>(ub, 1, x.size());
      },
      k910B);
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
  ExpectSameBits(y, wy, "dst");
  ExpectSameBits(sum, wsum, "sum");
  ExpectSameBits(max, wmax, "max");
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

// SoftmaxGrad (isFront false/true) and SoftmaxGradFront on the host's SoftMaxGradTilingFunc.
template <class T>
void CheckSoftmaxGrad(const Shape& s, bool isFront, bool frontApi, uint32_t splitRows,
                      uint32_t seed) {
  SCOPED_TRACE(Name(s) + " isFront " + std::to_string(isFront) + " seed " + std::to_string(seed));
  const auto grad = Uniform<T>(seed, s.m * s.k, -2.0f, 2.0f);
  const auto y = Uniform<T>(seed + 1, s.m * s.k, 0.0f, 1.0f);
  const ge::Shape shape({s.m, s.k});
  uint32_t budget = AscendC::GetSoftMaxGradMaxTmpSize(shape, sizeof(T), isFront, false);
  if (splitRows != 0) {
    budget = AscendC::GetSoftMaxGradMinTmpSize(ge::Shape({1, s.k}), sizeof(T), isFront, false) *
             splitRows;
  }
  SoftMaxTiling t;
  AscendC::SoftMaxGradTilingFunc(shape, sizeof(T), std::min(budget, kUbBufBytes), t, isFront);
  const size_t n = isFront ? s.m * t.reduceK : grad.size();
  std::vector<T> out;
  OnBlock(
      [&](Ub& ub) {
        Put(ub, 0, grad);
        Put(ub, 1, y);
        auto dst = ub.Get<Dev<T>>(2);
        const AscendC::SoftMaxShapeInfo si{s.m, s.k, s.m, s.oriK};
        if (frontApi) {
          AscendC::SoftmaxGradFront<Dev<T>>(dst, ub.Get<Dev<T>>(0), ub.Get<Dev<T>>(1),
                                            ub.Get<uint8_t>(3), t, si);
        } else {
          AscendC::SoftmaxGrad<Dev<T>>(dst, ub.Get<Dev<T>>(0), ub.Get<Dev<T>>(1),
                                       ub.Get<uint8_t>(3), t, isFront, si);
        }
        out = Take<T>(ub, 2, n);
      },
      k910B);
  std::vector<T> want(n);
  lngrad_replay::ReplaySoftmaxGrad(Mirror(t), s.oriK, grad.data(), y.data(), want.data(), isFront);
  ExpectSameBits(out, want, "dst");
}

TEST(SoftmaxGradReplay, MatchesBitForBit) {
  uint32_t seed = 600;
  for (const Shape& s : {Shape{1, 8, 8}, Shape{4, 40, 36}, Shape{3, 72, 72}, Shape{5, 200, 196},
                         Shape{2, 600, 600}, Shape{9, 192, 192}, Shape{2, 1040, 1030}}) {
    CheckSoftmaxGrad<float>(s, false, false, 0, seed++);
    CheckSoftmaxGrad<float>(s, false, false, 2, seed++);
    CheckSoftmaxGrad<float>(s, true, false, 0, seed++);
    CheckSoftmaxGrad<float>(s, true, true, 3, seed++);
  }
  for (const Shape& s :
       {Shape{3, 48, 40}, Shape{4, 256, 256}, Shape{2, 528, 520}, Shape{5, 80, 80}}) {
    CheckSoftmaxGrad<Half>(s, false, false, 0, seed++);
    CheckSoftmaxGrad<Half>(s, false, false, 2, seed++);
    CheckSoftmaxGrad<Half>(s, true, true, 0, seed++);
    CheckSoftmaxGrad<Half>(s, true, false, 3, seed++);
  }
}

// SoftmaxFlashV2 (broadcast mode): a no-update call on block a, then an update call on block b
// with the statistics in place (inExpSum = expSum, inMax = max, as the toolkit's sample); or,
// laneWise, one update call on statistics that differ lane by lane. Statistics: sum at 0, max
// at the middle of buffer 2; expMax at the middle of buffer 3 (the first half is the tmp).
template <class T, class S>
void CheckFlashV2(const Shape& s, uint32_t splitRows, bool laneWise, uint32_t seed) {
  SCOPED_TRACE(Name(s) + " laneWise " + std::to_string(laneWise) + " seed " + std::to_string(seed));
  const auto a = Inputs<T>(seed, s), b = Inputs<T>(seed + 1, s);
  const ge::Shape shape({s.m, s.k});
  uint32_t budget = AscendC::GetSoftMaxFlashV2MaxTmpSize(shape, sizeof(T), sizeof(S), true);
  if (splitRows != 0) {
    budget = AscendC::GetSoftMaxFlashV2MinTmpSize(ge::Shape({1, s.k}), sizeof(T), sizeof(S), true) *
             splitRows;
  }
  SoftMaxTiling t;
  AscendC::SoftMaxFlashV2TilingFunc(shape, sizeof(T), sizeof(S), std::min(budget, kUbBufBytes / 2),
                                    t, true);
  const uint32_t stats = s.m * t.reduceK, emN = s.m * 32 / sizeof(S) * (sizeof(S) / sizeof(T));
  constexpr uint32_t kEmAt = kUbBufBytes / 2 / sizeof(T);
  std::vector<S> in0 = Stats<S>(seed + 2, s.m, t.reduceK, 0.5f, 300.0f, true);
  std::vector<S> in1 = Stats<S>(seed + 3, s.m, t.reduceK, -2.0f, 9.0f, true);
  std::vector<T> y0, y, em;
  std::vector<S> sum0, max0, sum, max;
  OnBlock(
      [&](Ub& ub) {
        auto st = ub.Get<Dev<S>>(2);
        auto sumT = st[0], maxT = st[kMaxAt<S>];
        auto emT = ub.Get<Dev<T>>(3)[kEmAt];
        auto tmp = ub.Get<uint8_t>(3);
        tmp.SetSize(kUbBufBytes / 2);
        const AscendC::SoftMaxShapeInfo si{s.m, s.k, s.m, s.oriK};
        if (!laneWise) {
          Put(ub, 0, a);
          AscendC::SoftmaxFlashV2<Dev<T>, false>(ub.Get<Dev<T>>(1), sumT, maxT, ub.Get<Dev<T>>(0),
                                                 emT, sumT, maxT, tmp, t, si);
          y0 = Take<T>(ub, 1, a.size());
          in0 = sum0 = Take<S>(ub, 2, stats);
          in1 = max0 = Take<S>(ub, 2, stats, kMaxAt<S>);
        } else {
          Put(ub, 2, in0);
          Put(ub, 2, in1, kMaxAt<S>);
        }
        Put(ub, 0, b);
        AscendC::SoftmaxFlashV2<Dev<T>, true>(ub.Get<Dev<T>>(1), sumT, maxT, ub.Get<Dev<T>>(0), emT,
                                              sumT, maxT, tmp, t, si);
        y = Take<T>(ub, 1, b.size());
        sum = Take<S>(ub, 2, stats);
        max = Take<S>(ub, 2, stats, kMaxAt<S>);
        em = Take<T>(ub, 3, emN, kEmAt);
      },
      k910B);
  const SmxTiling mt = Mirror(t);
  if (!laneWise) {
    std::vector<T> wy0(a.size()), none;
    std::vector<S> wsum0(stats), wmax0(stats);
    lngrad_replay::ReplaySoftmaxFlashV2<T, S>(mt, s.oriK, false, a.data(), wy0.data(), wsum0.data(),
                                              wmax0.data(), none.data(), nullptr, nullptr);
    ExpectSameBits(y0, wy0, "no update dst");
    ExpectSameBits(sum0, wsum0, "no update expSum");
    ExpectSameBits(max0, wmax0, "no update max");
  }
  std::vector<T> wy(b.size()), wem(emN);
  std::vector<S> wsum = in0, wmax = in1;
  lngrad_replay::ReplaySoftmaxFlashV2<T, S>(mt, s.oriK, true, b.data(), wy.data(), wsum.data(),
                                            wmax.data(), wem.data(), wsum.data(), wmax.data());
  ExpectSameBits(y, wy, "update dst");
  ExpectSameBits(sum, wsum, "update expSum");
  ExpectSameBits(max, wmax, "update max");
  ExpectSameBits(em, wem, "update expMax");
}

TEST(SoftmaxFlashV2Replay, MatchesBitForBit) {
  uint32_t seed = 700;
  for (const Shape& s : {Shape{1, 8, 8}, Shape{4, 24, 20}, Shape{3, 72, 72}, Shape{5, 200, 196},
                         Shape{2, 600, 600}, Shape{9, 192, 192}, Shape{2, 1040, 1030}}) {
    CheckFlashV2<float, float>(s, 0, false, seed);
    CheckFlashV2<float, float>(s, 2, false, seed + 10);
    seed += 20;
  }
  for (const Shape& s :
       {Shape{3, 48, 40}, Shape{4, 256, 256}, Shape{2, 528, 520}, Shape{5, 80, 80}}) {
    CheckFlashV2<Half, Half>(s, 0, false, seed);
    CheckFlashV2<Half, Half>(s, 3, false, seed + 10);
    CheckFlashV2<Half, float>(s, 0, false, seed + 20);
    CheckFlashV2<Half, float>(s, 2, false, seed + 30);
    seed += 40;
  }
}

TEST(SoftmaxFlashV2Replay, UpdateWorksLaneByLane) {
  CheckFlashV2<float, float>({3, 72, 72}, 0, true, 800);
  CheckFlashV2<float, float>({2, 264, 260}, 0, true, 801);
  CheckFlashV2<Half, Half>({3, 80, 80}, 0, true, 802);
  CheckFlashV2<Half, float>({2, 208, 208}, 0, true, 803);
}

// SoftmaxFlash (deprecated): no update on block a, then update on block b with the statistics in
// place; laneWise: one update on statistics that differ lane by lane. Statistics in buffer 2:
// sum at 0, max at the middle, expMax at three quarters.
template <class T>
void CheckFlash(const Shape& s, uint32_t splitRows, bool laneWise, uint32_t seed) {
  SCOPED_TRACE(Name(s) + " laneWise " + std::to_string(laneWise) + " seed " + std::to_string(seed));
  const auto a = Inputs<T>(seed, s), b = Inputs<T>(seed + 1, s);
  const ge::Shape shape({s.m, s.k});
  uint32_t budget = AscendC::GetSoftMaxFlashMaxTmpSize(shape, sizeof(T), true, false);
  if (splitRows != 0) {
    budget =
        AscendC::GetSoftMaxFlashMinTmpSize(ge::Shape({1, s.k}), sizeof(T), true, false) * splitRows;
  }
  SoftMaxTiling t;
  AscendC::SoftMaxFlashTilingFunc(shape, sizeof(T), std::min(budget, kUbBufBytes), t, true);
  const uint32_t stats = s.m * t.reduceK;
  constexpr uint32_t kEmAt = kUbBufBytes * 3 / 4 / sizeof(T);
  std::vector<T> in0 = Stats<T>(seed + 2, s.m, t.reduceK, 0.5f, 300.0f, true);
  std::vector<T> in1 = Stats<T>(seed + 3, s.m, t.reduceK, -2.0f, 9.0f, true);
  std::vector<T> y0, y, sum0, max0, sum, max, em;
  OnBlock(
      [&](Ub& ub) {
        auto st = ub.Get<Dev<T>>(2);
        auto sumT = st[0], maxT = st[kMaxAt<T>], emT = st[kEmAt];
        const AscendC::SoftMaxShapeInfo si{s.m, s.k, s.m, s.oriK};
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
        if (!laneWise) {
          Put(ub, 0, a);
          AscendC::SoftmaxFlash<Dev<T>>(ub.Get<Dev<T>>(1), sumT, maxT, ub.Get<Dev<T>>(0), emT, sumT,
                                        maxT, ub.Get<uint8_t>(3), t, false, si);
          y0 = Take<T>(ub, 1, a.size());
          in0 = sum0 = Take<T>(ub, 2, stats);
          in1 = max0 = Take<T>(ub, 2, stats, kMaxAt<T>);
        } else {
          Put(ub, 2, in0);
          Put(ub, 2, in1, kMaxAt<T>);
        }
        Put(ub, 0, b);
        AscendC::SoftmaxFlash<Dev<T>>(ub.Get<Dev<T>>(1), sumT, maxT, ub.Get<Dev<T>>(0), emT, sumT,
                                      maxT, ub.Get<uint8_t>(3), t, true, si);
#pragma GCC diagnostic pop
        y = Take<T>(ub, 1, b.size());
        sum = Take<T>(ub, 2, stats);
        max = Take<T>(ub, 2, stats, kMaxAt<T>);
        em = Take<T>(ub, 2, stats, kEmAt);
      },
      k910B);
  const SmxTiling mt = Mirror(t);
  if (!laneWise) {
    std::vector<T> wy0(a.size()), wsum0(stats), wmax0(stats);
    lngrad_replay::ReplaySoftmaxFlash<T>(mt, s.oriK, false, a.data(), wy0.data(), wsum0.data(),
                                         wmax0.data(), nullptr, nullptr, nullptr);
    ExpectSameBits(y0, wy0, "no update dst");
    ExpectSameBits(sum0, wsum0, "no update sum");
    ExpectSameBits(max0, wmax0, "no update max");
  }
  std::vector<T> wy(b.size()), wem(stats), wsum = in0, wmax = in1;
  lngrad_replay::ReplaySoftmaxFlash<T>(mt, s.oriK, true, b.data(), wy.data(), wsum.data(),
                                       wmax.data(), wem.data(), wsum.data(), wmax.data());
  ExpectSameBits(y, wy, "update dst");
  ExpectSameBits(sum, wsum, "update sum");
  ExpectSameBits(max, wmax, "update max");
  ExpectSameBits(em, wem, "update expMax");
}

TEST(SoftmaxFlashReplay, MatchesBitForBit) {
  uint32_t seed = 900;
  for (const Shape& s : {Shape{1, 8, 8}, Shape{3, 80, 80}, Shape{5, 200, 196}, Shape{2, 600, 600},
                         Shape{9, 192, 192}}) {
    CheckFlash<float>(s, 0, false, seed);
    CheckFlash<float>(s, 2, false, seed + 10);
    seed += 20;
  }
  for (const Shape& s : {Shape{3, 48, 40}, Shape{4, 256, 256}, Shape{2, 528, 520}}) {
    CheckFlash<Half>(s, 0, false, seed);
    CheckFlash<Half>(s, 3, false, seed + 10);
    seed += 20;
  }
}

TEST(SoftmaxFlashReplay, UpdateWorksLaneByLane) {
  CheckFlash<float>({3, 72, 72}, 0, true, 950);
  CheckFlash<Half>({3, 80, 80}, 0, true, 951);
}

// AdjustSoftMaxRes: rows whose max (lane 0 of its block, or element r with stepSizeMode 1) has
// the bits of `from` get `to`; the other lanes of a block do not count.
template <class T, class S, uint8_t stepSizeMode>
void CheckAdjust(uint32_t m, uint32_t k, uint32_t seed) {
  SCOPED_TRACE("m " + std::to_string(m) + " k " + std::to_string(k) + " seed " +
               std::to_string(seed));
  const uint32_t step = stepSizeMode ? 1 : 32 / sizeof(S);
  const auto res = Uniform<T>(seed, m * k, 0.0f, 1.0f);
  std::vector<S> max = Uniform<S>(seed + 1, m * step, -4.0f, 4.0f);
  const uint32_t from = sizeof(S) == 2 ? 0xFBFFu : 0xFF7FFFFFu;  // the lowest finite value
  S marker;
  std::memcpy(&marker, &from, sizeof marker);
  for (uint32_t r = 0; r < m; r += 3) max[r * step] = marker;
  if (step > 1) max[1 * step + 1] = marker;  // not lane 0: no match
  const T to = lngrad_replay::FromFloat<T>(-0.5f);
  std::vector<T> got;
  bool any = false;
  OnBlock(
      [&](Ub& ub) {
        Put(ub, 0, res);
        Put(ub, 1, max);
        any = AscendC::AdjustSoftMaxRes<Dev<T>, Dev<S>, false, stepSizeMode>(
            ub.Get<Dev<T>>(0), ub.Get<Dev<S>>(1), from, *reinterpret_cast<const Dev<T>*>(&to),
            {m, k, m, k});
        got = Take<T>(ub, 0, res.size());
      },
      k910B);
  std::vector<T> want = res;
  EXPECT_EQ(any, lngrad_replay::ReplayAdjustSoftMaxRes(m, k, want.data(), max.data(), from, to,
                                                       stepSizeMode != 0));
  ExpectSameBits(got, want, "softMaxRes");
}

TEST(AdjustSoftMaxResReplay, MatchesBitForBit) {
  CheckAdjust<float, float, 0>(7, 72, 1000);
  CheckAdjust<float, float, 1>(9, 64, 1001);
  CheckAdjust<Half, Half, 0>(5, 48, 1002);
  CheckAdjust<Half, Half, 1>(4, 32, 1003);
  CheckAdjust<Half, float, 0>(6, 80, 1004);
  CheckAdjust<float, float, 0>(2, 40, 1005);  // row 1 has the marker off lane 0 only
}

// SoftmaxFlashV3 (half data, float statistics): no update on block a, then update (loopCnt) on
// block b with mean/expSum/max in place (aliased, as the toolkit's sample); or `separate`: one
// update from lane-varying inputs into other tensors. Buffer 2 holds the statistics at
// multiples of 1024 floats (out: mean, expSum, max; separate inputs from 3072); expMax in
// buffer 3's second half.
void CheckFlashV3(const Shape& s, uint32_t splitRows, uint32_t loopCnt, bool separate,
                  uint32_t seed) {
  SCOPED_TRACE(Name(s) + " loopCnt " + std::to_string(loopCnt) + " seed " + std::to_string(seed));
  const auto a = Inputs<Half>(seed, s), b = Uniform<Half>(seed + 1, s.m * s.k, -3.0f, 9.0f);
  const ge::Shape shape({s.m, s.k});
  uint32_t mx = 0, mn = 0;
  AscendC::GetSoftMaxFlashV3MaxMinTmpSize(shape, 2, 4, mx, mn, true);
  if (splitRows != 0) {
    AscendC::GetSoftMaxFlashV3MaxMinTmpSize(ge::Shape({1, s.k}), 2, 4, mx, mn, true);
    mx = mn * splitRows;
  }
  SoftMaxTiling t;
  AscendC::SoftMaxFlashV3TilingFunc(shape, 2, 4, std::min(mx, kUbBufBytes / 2), t, true);
  const uint32_t stats = s.m * 8, inAt = separate ? 3072 : 0;
  constexpr uint32_t kEmAt = kUbBufBytes / 4;
  const AscendC::SoftMaxParams p{s.m, s.k, s.m, s.k, loopCnt, 8, 0.9375f};
  std::vector<float> st0 = Uniform<float>(seed + 2, 6 * 1024, 0.5f, 9.0f);
  std::vector<float> st, st1;
  std::vector<Half> y0, y, em;
  OnBlock(
      [&](Ub& ub) {
        auto f = ub.Get<float>(2);
        auto tmp = ub.Get<uint8_t>(3);
        tmp.SetSize(kUbBufBytes / 2);
        Put(ub, 2, st0);
        if (!separate) {
          Put(ub, 0, a);
          AscendC::SoftmaxFlashV3<half, float, false>(ub.Get<half>(1), f[0], f[1024], f[2048],
                                                      ub.Get<half>(0), ub.Get<half>(3)[kEmAt], f[0],
                                                      f[1024], f[2048], tmp, t, p);
          y0 = Take<Half>(ub, 1, a.size());
          st1 = Take<float>(ub, 2, 6 * 1024);
        }
        Put(ub, 0, b);
        AscendC::SoftmaxFlashV3<half, float, true>(ub.Get<half>(1), f[0], f[1024], f[2048],
                                                   ub.Get<half>(0), ub.Get<half>(3)[kEmAt], f[inAt],
                                                   f[inAt + 1024], f[inAt + 2048], tmp, t, p);
        y = Take<Half>(ub, 1, b.size());
        st = Take<float>(ub, 2, 6 * 1024);
        em = Take<Half>(ub, 3, s.m * 16, kEmAt);
      },
      k910B);
  std::vector<float> w = st0;
  std::vector<Half> wy0(a.size()), wy(b.size()), wem(s.m * 16);
  auto stats3 = [&](uint32_t in) {
    return lngrad_replay::FlashV3Stats{w.data(),      w.data() + 1024,      w.data() + 2048,
                                       w.data() + in, w.data() + in + 1024, w.data() + in + 2048};
  };
  const SmxTiling mt = Mirror(t);
  if (!separate) {
    lngrad_replay::ReplaySoftmaxFlashV3(mt, s.k, loopCnt, 0.9375f, false, a.data(), wy0.data(),
                                        nullptr, stats3(0));
    ExpectSameBits(y0, wy0, "no update dst");
    ExpectSameBits(st1, w, "no update statistics");
  }
  lngrad_replay::ReplaySoftmaxFlashV3(mt, s.k, loopCnt, 0.9375f, true, b.data(), wy.data(),
                                      wem.data(), stats3(inAt));
  ExpectSameBits(y, wy, "update dst");
  ExpectSameBits(st, w, "update statistics");
  ExpectSameBits(em, wem, "update expMax");
  (void)stats;
}

TEST(SoftmaxFlashV3Replay, MatchesBitForBit) {
  CheckFlashV3({2, 512, 512}, 0, 2, false, 1100);
  CheckFlashV3({3, 640, 640}, 0, 3, false, 1101);
  CheckFlashV3({5, 1024, 1024}, 2, 2, false, 1102);
  CheckFlashV3({1, 2048, 2048}, 0, 5, false, 1103);
  CheckFlashV3({3, 640, 640}, 0, 2, true, 1104);
  CheckFlashV3({4, 768, 768}, 3, 4, true, 1105);
}

}  // namespace
