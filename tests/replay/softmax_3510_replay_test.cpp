// The SoftMax family through lngrad's Ascend C API on the 950 (dav-3510), compared bit for bit
// with the independent replay of the toolkit's 3510 register code (replay_softmax_3510.h,
// written from regbase/3510/ apart from lngrad's implementation): float and half data, half and
// float statistics, every register path of SoftMaxNDImpl (srcK = 8 and 16 with oriSrcK below
// them, oriSrcK <= 64, tails, multiples of 64, 512 and more), the overloads with and without
// sharedTmpBuffer, in place, isReuseSource, isBasicBlock (with oriSrcK not a multiple of 64: whole
// registers, the padding columns up to there read, reduced and written), SoftmaxFlashV2 in
// SOFTMAX_OUTPUT_WITHOUT_BRC mode (one statistic per row), and the padding columns past oriSrcK
// that the 3510 code leaves untouched (dst starts as a sentinel on both sides).
#include "replay_softmax_3510.h"

#include <array>

#include "../aicore/sanitizer_off.h"
#include "softmax_replay_util.h"

namespace {

using namespace softmax_replay_test;  // NOLINT(build/namespaces)
namespace r3510 = lngrad_replay::r3510;

// kFlash: SoftmaxFlash without update; kFlashV2M1: SoftmaxFlashV2 without update in
// SOFTMAX_OUTPUT_WITHOUT_BRC mode.
enum class Api { kSoftMax, kLog, kFlashV2, kFlash, kFlashV2M1 };
constexpr AscendC::SoftmaxConfig kM1Cfg{true, 0, 0,
                                        AscendC::SoftmaxMode::SOFTMAX_OUTPUT_WITHOUT_BRC};

// dst, sum and max of one call on the 950: src x in buffer 0, dst buffer 1 (or src: inPlace) and
// the statistics (buffer 2: sum at 0, max at the middle) start as sentinels; call(ub, src, dst,
// statistics) makes the API call.
template <class T, class S>
struct Outputs {
  std::vector<T> y;
  std::vector<S> sum, max;
};
template <class T, class S, class Call>
Outputs<T, S> RunWithStats(const std::vector<T>& x, uint32_t stats, bool inPlace, Call call) {
  Outputs<T, S> o;
  OnBlock(
      [&](Ub& ub) {
        Put(ub, 0, x);
        Put(ub, 1, Sentinel<T>(x.size()));
        Put(ub, 2, Sentinel<S>(2 * kMaxAt<S>));
        auto src = ub.Get<Dev<T>>(0);
        call(ub, src, inPlace ? src : ub.Get<Dev<T>>(1), ub.Get<Dev<S>>(2));
        o.y = Take<T>(ub, inPlace ? 0 : 1, x.size());
        o.sum = Take<S>(ub, 2, stats);
        o.max = Take<S>(ub, 2, stats, kMaxAt<S>);
      },
      k950);
  return o;
}

// SoftMax / LogSoftMax / SoftmaxFlashV2 without update, with sum and max: src buffer 0, dst
// buffer 1 (or src: inPlace), statistics in buffer 2, tmp: the sharedTmpBuffer overload.
template <class T, class S, bool basic = false>
void CheckSoftMax(const Shape& s, Api api, bool inPlace, bool tmp, uint32_t seed) {
  SCOPED_TRACE(Name(s) + " api " + std::to_string(static_cast<int>(api)) + " seed " +
               std::to_string(seed));
  const auto x = Inputs<T>(seed, s);
  const SoftMaxTiling t = HostTiling(s, sizeof(S), 0);
  const bool perRow = api == Api::kFlashV2M1;
  const uint32_t stats = perRow ? s.m : s.m * 32 / sizeof(S);
  const auto o = RunWithStats<T, S>(x, stats, inPlace, [&](Ub& ub, auto src, auto dst, auto st) {
    auto tb = ub.Get<uint8_t>(3);
    tb.SetSize(kUbBufBytes / 2);
    const AscendC::SoftMaxShapeInfo si{s.m, s.k, s.m, s.oriK};
    if constexpr (std::is_same_v<T, S>) {
      if (api == Api::kLog) {
        LogSoftMaxTiling lt;
        AscendC::LogSoftMaxTilingFunc(ge::Shape({s.m, s.k}), sizeof(T), kUbBufBytes / 2, lt);
        AscendC::LogSoftMax<Dev<T>>(dst, st[0], st[kMaxAt<S>], src, tb, lt, si);
      }
    }
    auto em = ub.Get<Dev<T>>(3)[kUbBufBytes / 2 / sizeof(T)];
    if (api == Api::kFlashV2) {
      AscendC::SoftmaxFlashV2<Dev<T>, false, false, basic>(dst, st[0], st[kMaxAt<S>], src, em,
                                                           st[0], st[kMaxAt<S>], tb, t, si);
    } else if (api == Api::kFlashV2M1) {
      AscendC::SoftmaxFlashV2<Dev<T>, false, false, basic, false, kM1Cfg>(
          dst, st[0], st[kMaxAt<S>], src, em, st[0], st[kMaxAt<S>], tb, t, si);
    } else if (api == Api::kFlash) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
      AscendC::SoftmaxFlash<Dev<T>, false, basic>(dst, st[0], st[kMaxAt<S>], src, em, st[0],
                                                  st[kMaxAt<S>], tb, t, false, si);
#pragma GCC diagnostic pop
    } else if (api == Api::kSoftMax && tmp) {
      AscendC::SoftMax<Dev<T>, false, basic>(dst, st[0], st[kMaxAt<S>], src, tb, t, si);
    } else if (api == Api::kSoftMax) {
      AscendC::SoftMax<Dev<T>, false, basic>(dst, st[0], st[kMaxAt<S>], src, t, si);
    }
  });
  std::vector<T> wx = x, wy = inPlace ? x : Sentinel<T>(x.size());
  std::vector<S> wsum = Sentinel<S>(stats), wmax = Sentinel<S>(stats);
  const bool flashV2 = api == Api::kFlashV2 || perRow;
  r3510::SoftMax<T, S>(s.m, s.k, s.oriK, wx.data(), inPlace ? wx.data() : wy.data(), wsum.data(),
                       wmax.data(), basic, api == Api::kLog, flashV2, perRow);
  ExpectOutputs("", o.y, inPlace ? wx : wy, o.sum, wsum, o.max, wmax);
}

const Shape kFloatShapes[] = {
    {1, 8, 8},     {9, 8, 5},       {5, 16, 16},     {6, 16, 12},     {3, 16, 7},    {4, 24, 20},
    {7, 64, 64},   {3, 72, 72},     {40, 64, 60},    {5, 200, 200},   {3, 264, 260}, {2, 512, 512},
    {2, 600, 600}, {3, 1032, 1030}, {2, 4096, 4090}, {1, 1040, 1040}, {9, 192, 192}};
const Shape kHalfShapes[] = {{3, 16, 16},     {5, 16, 10},     {4, 16, 6},     {3, 48, 40},
                             {5, 80, 80},     {2, 144, 130},   {4, 256, 256},  {2, 528, 520},
                             {2, 1040, 1040}, {2, 2048, 2000}, {12, 192, 190}, {33, 64, 64}};

TEST(SoftMax3510Replay, FloatMatchesBitForBit) {
  uint32_t seed = 3000;
  for (const Shape& s : kFloatShapes) {
    CheckSoftMax<float, float>(s, Api::kSoftMax, false, true, seed++);
    CheckSoftMax<float, float>(s, Api::kSoftMax, true, false, seed++);
  }
}

TEST(SoftMax3510Replay, HalfMatchesBitForBit) {
  uint32_t seed = 3100;
  for (const Shape& s : kHalfShapes) {
    CheckSoftMax<Half, Half>(s, Api::kSoftMax, false, true, seed++);
    CheckSoftMax<Half, Half>(s, Api::kSoftMax, true, true, seed++);
    CheckSoftMax<Half, float>(s, Api::kSoftMax, false, false, seed++);
  }
}

TEST(SoftMax3510Replay, BasicBlockMatchesBitForBit) {
  CheckSoftMax<float, float, true>({8, 64, 64}, Api::kSoftMax, false, true, 3200);
  CheckSoftMax<float, float, true>({16, 640, 640}, Api::kSoftMax, true, true, 3201);
  CheckSoftMax<Half, Half, true>({8, 1024, 1024}, Api::kSoftMax, false, true, 3202);
  CheckSoftMax<Half, float, true>({16, 512, 512}, Api::kSoftMax, false, false, 3203);
}

// isBasicBlock with oriSrcK not a multiple of 64 (srcK one): SoftMaxGenericNDImpl runs
// ceil(oriSrcK / 64) registers under the full mask, so the padding columns up to there take part in
// the max and the sum and are written (the inputs' padding holds values above the row's max).
const Shape kBasicTailShapes[] = {{8, 64, 10}, {8, 128, 100}, {4, 192, 130}, {3, 640, 520}};

TEST(SoftMax3510Replay, BasicBlockWithTailMatchesBitForBit) {
  uint32_t seed = 3210;
  for (const Shape& s : kBasicTailShapes) {
    for (Api api : {Api::kSoftMax, Api::kFlashV2, Api::kFlash, Api::kFlashV2M1}) {
      CheckSoftMax<float, float, true>(s, api, false, true, seed++);
      CheckSoftMax<Half, Half, true>(s, api, false, true, seed++);
      CheckSoftMax<Half, float, true>(s, api, false, true, seed++);
    }
    CheckSoftMax<float, float, true>(s, Api::kSoftMax, true, false, seed++);
  }
}

// SoftmaxFlashV2 without update in SOFTMAX_OUTPUT_WITHOUT_BRC mode (outputBrc false: one
// statistic per row): every dispatch path, srcM a multiple of the rows per register on the srcK = 8
// and 16 paths (for the others see PerRowStatisticsOfTheLastRegister).
TEST(SoftmaxFlashV2NoUpdate3510Replay, PerRowStatisticsMatchBitForBit) {
  uint32_t seed = 3450;
  for (const Shape& s : {Shape{16, 8, 5}, Shape{8, 16, 12}, Shape{4, 24, 20}, Shape{5, 200, 196},
                         Shape{2, 600, 600}, Shape{2, 1040, 1030}, Shape{9, 192, 192}}) {
    CheckSoftMax<float, float>(s, Api::kFlashV2M1, false, true, seed++);
  }
  for (const Shape& s : {Shape{8, 16, 6}, Shape{3, 48, 40}, Shape{2, 528, 520}}) {
    CheckSoftMax<Half, Half>(s, Api::kFlashV2M1, false, true, seed++);
    CheckSoftMax<Half, float>(s, Api::kFlashV2M1, true, true, seed++);
  }
  CheckSoftMax<float, float, true>({8, 1024, 1024}, Api::kFlashV2M1, false, true, seed++);
}

TEST(LogSoftMax3510Replay, MatchesBitForBit) {
  uint32_t seed = 3300;
  for (const Shape& s : {Shape{9, 8, 5}, Shape{6, 16, 12}, Shape{4, 24, 20}, Shape{3, 72, 72},
                         Shape{5, 200, 196}, Shape{2, 600, 600}, Shape{9, 192, 192}}) {
    CheckSoftMax<float, float>(s, Api::kLog, false, true, seed++);
  }
  for (const Shape& s :
       {Shape{4, 16, 6}, Shape{3, 48, 40}, Shape{4, 256, 256}, Shape{2, 528, 520}}) {
    CheckSoftMax<Half, Half>(s, Api::kLog, false, true, seed++);
  }
}

TEST(SoftmaxFlashV2NoUpdate3510Replay, MatchesBitForBit) {
  uint32_t seed = 3400;
  for (const Shape& s : {Shape{9, 8, 5}, Shape{3, 16, 7}, Shape{4, 24, 20}, Shape{5, 200, 196},
                         Shape{2, 600, 600}, Shape{2, 1040, 1030}}) {
    CheckSoftMax<float, float>(s, Api::kFlashV2, false, true, seed++);
  }
  for (const Shape& s : {Shape{4, 16, 6}, Shape{3, 48, 40}, Shape{2, 528, 520}}) {
    CheckSoftMax<Half, Half>(s, Api::kFlashV2, false, true, seed++);
    CheckSoftMax<Half, float>(s, Api::kFlashV2, true, true, seed++);
  }
  CheckSoftMax<float, float, true>({8, 1024, 1024}, Api::kFlashV2, false, true, seed++);
}

// The same on the srcK = 8 and 16 paths with srcM not a multiple of the rows per register: the
// last register's statistics past srcM are stored too, from what src's memory holds there (here
// the input continues); dst only for srcM rows.
template <class T, class S>
void CheckM1Tail(const Shape& s, uint32_t seed) {
  SCOPED_TRACE(Name(s));
  const uint32_t perReg = 64 / s.k, rows = (s.m + perReg - 1) / perReg * perReg;
  const auto x = Inputs<T>(seed, {rows, s.k, s.oriK});
  const auto o = RunWithStats<T, S>(x, rows, false, [&](Ub& ub, auto src, auto dst, auto st) {
    auto em = ub.Get<Dev<T>>(3)[kUbBufBytes / 2 / sizeof(T)];
    AscendC::SoftmaxFlashV2<Dev<T>, false, false, false, false, kM1Cfg>(
        dst, st[0], st[kMaxAt<S>], src, em, st[0], st[kMaxAt<S>], ub.Get<uint8_t>(3),
        HostTiling(s, sizeof(S), 0), {s.m, s.k, s.m, s.oriK});
  });
  std::vector<T> wy = Sentinel<T>(x.size());
  std::vector<S> wsum = Sentinel<S>(rows), wmax = Sentinel<S>(rows);
  r3510::SoftMax<T, S>(s.m, s.k, s.oriK, x.data(), wy.data(), wsum.data(), wmax.data(), false,
                       false, true, true, rows);
  ExpectOutputs("", o.y, wy, o.sum, wsum, o.max, wmax);
}

TEST(SoftmaxFlashV2NoUpdate3510Replay, PerRowStatisticsOfTheLastRegister) {
  uint32_t seed = 3470;
  for (const Shape& s : {Shape{9, 8, 5}, Shape{3, 8, 8}, Shape{6, 16, 12}, Shape{1, 16, 16}}) {
    CheckM1Tail<float, float>(s, seed++);
  }
  for (const Shape& s : {Shape{5, 16, 10}, Shape{3, 16, 6}}) {
    CheckM1Tail<Half, Half>(s, seed++);
    CheckM1Tail<Half, float>(s, seed++);
  }
}

// The register code computes originalSrcShape.m = oriSrcM rows: with oriSrcM 5 of srcM 8, rows
// 5 to 7 of dst and of the statistics keep their contents (on the 910B all 8 are computed).
TEST(SoftMax3510Replay, OnlyTheOriSrcMRowsAreComputed) {
  const Shape s{8, 72, 60};
  const auto x = Inputs<float>(3250, s);
  const uint32_t oriM = 5, stats = s.m * 8;
  std::vector<float> y, sum;
  OnBlock(
      [&](Ub& ub) {
        Put(ub, 0, x);
        Put(ub, 1, Sentinel<float>(x.size()));
        Put(ub, 2, Sentinel<float>(2 * kMaxAt<float>));
        auto st = ub.Get<float>(2);
        AscendC::SoftMax<float>(ub.Get<float>(1), st[0], st[kMaxAt<float>], ub.Get<float>(0),
                                ub.Get<uint8_t>(3), HostTiling(s, 4, 0), {s.m, s.k, oriM, s.oriK});
        y = Take<float>(ub, 1, x.size());
        sum = Take<float>(ub, 2, stats);
      },
      k950);
  std::vector<float> wy = Sentinel<float>(x.size()), wsum = Sentinel<float>(stats);
  std::vector<float> wmax(stats);
  r3510::SoftMax<float, float>(oriM, s.k, s.oriK, x.data(), wy.data(), wsum.data(), wmax.data());
  ExpectSameBits(y, wy, "dst");
  ExpectSameBits(sum, wsum, "sum");
}

// SoftMax (log: LogSoftMax) in NZ, [srcK / 16, srcM, 16]: dst and statistics start as
// sentinels on both sides.
template <class T, class S>
void CheckSoftMaxNz(uint32_t srcM, uint32_t srcK, uint32_t oriM, uint32_t oriK, Api api,
                    uint32_t seed) {
  SCOPED_TRACE("NZ m " + std::to_string(srcM) + " k " + std::to_string(srcK) + " oriM " +
               std::to_string(oriM) + " oriK " + std::to_string(oriK) + " api " +
               std::to_string(static_cast<int>(api)));
  const Shape s{srcM, srcK, srcK};
  const auto x = Uniform<T>(seed, srcM * srcK, -8.0f, 8.0f);
  const uint32_t stats = srcM * 32 / sizeof(S);
  const AscendC::SoftMaxShapeInfo si{srcM, srcK, oriM, oriK};
  const auto o = RunWithStats<T, S>(x, stats, false, [&](Ub& ub, auto src, auto dst, auto st) {
    if constexpr (std::is_same_v<T, S>) {
      if (api == Api::kLog) {
        AscendC::LogSoftMax<Dev<T>, false, true>(dst, st[0], st[kMaxAt<S>], src, ub.Get<uint8_t>(3),
                                                 LogSoftMaxTiling{}, si);
      }
    }
    if (api == Api::kSoftMax) {
      AscendC::SoftMax<Dev<T>, false, false, true>(
          dst, st[0], st[kMaxAt<S>], src, ub.Get<uint8_t>(3), HostTiling(s, sizeof(S), 0), si);
    } else if (api == Api::kFlashV2) {
      AscendC::SoftmaxFlashV2<Dev<T>, false, false, false, true>(
          dst, st[0], st[kMaxAt<S>], src, dst, st[0], st[kMaxAt<S>], ub.Get<uint8_t>(3),
          SoftMaxTiling{}, si);
    }
  });
  std::vector<T> wy = Sentinel<T>(x.size());
  std::vector<S> wsum = Sentinel<S>(stats), wmax = Sentinel<S>(stats);
  r3510::SoftMaxNz<T, S>(srcM, srcK, oriM, oriK, x.data(), wy.data(), wsum.data(), wmax.data(),
                         api == Api::kLog, api == Api::kFlashV2);
  ExpectOutputs("", o.y, wy, o.sum, wsum, o.max, wmax);
}

// SimpleSoftMax in NZ (sfx4's reading of SimpleSoftMaxGenericNZImpl): every column of the rows
// below oriSrcM, statistics whose lanes differ (float: lane c / 2 of the fractal's column c; half:
// lane c); dst starts as a sentinel, or is src (inPlace).
template <class T, class S>
void CheckSimpleNz(uint32_t srcM, uint32_t srcK, uint32_t oriM, bool inPlace, uint32_t seed) {
  SCOPED_TRACE("NZ m " + std::to_string(srcM) + " k " + std::to_string(srcK) + " oriM " +
               std::to_string(oriM) + " inPlace " + std::to_string(inPlace));
  const Shape s{srcM, srcK, srcK};
  const auto x = Uniform<T>(seed, srcM * srcK, -8.0f, 8.0f);
  const uint32_t ls = 32 / sizeof(S);
  const auto inMax = Stats<S>(seed + 1, srcM, ls, -2.0f, 9.0f, true);
  const auto inSum = Stats<S>(seed + 2, srcM, ls, 0.5f, 300.0f, true);
  const int out = inPlace ? 0 : 1;
  std::vector<T> y;
  OnBlock(
      [&](Ub& ub) {
        Put(ub, 0, x);
        Put(ub, 1, Sentinel<T>(x.size()));
        Put(ub, 2, inSum);
        Put(ub, 2, inMax, kMaxAt<S>);
        auto st = ub.Get<Dev<S>>(2);
        AscendC::SimpleSoftMax<Dev<T>, false, false, true>(
            ub.Get<Dev<T>>(out), st[0], st[kMaxAt<S>], ub.Get<Dev<T>>(0), ub.Get<uint8_t>(3),
            HostTiling(s, sizeof(S), 0), {srcM, srcK, oriM, srcK});
        y = Take<T>(ub, out, x.size());
      },
      k950);
  std::vector<T> want = inPlace ? x : Sentinel<T>(x.size());
  r3510::SimpleSoftMaxNz(srcM, srcK, oriM, inPlace ? want.data() : x.data(), inSum.data(),
                         inMax.data(), want.data());
  ExpectSameBits(y, want, "dst");
}

TEST(SimpleSoftMax3510Replay, NzMatchesBitForBit) {
  uint32_t seed = 4700;
  for (const auto& c : {std::array<uint32_t, 3>{16, 16, 16},
                        {32, 48, 30},
                        {24, 80, 20},
                        {12, 32, 12},
                        {16, 64, 9}}) {
    CheckSimpleNz<float, float>(c[0], c[1], c[2], false, seed++);
    CheckSimpleNz<float, float>(c[0], c[1], c[2], true, seed++);
    CheckSimpleNz<Half, Half>(c[0], c[1], c[2], false, seed++);
    CheckSimpleNz<Half, float>(c[0], c[1], c[2], false, seed++);
  }
}

// NZ shapes {srcM, srcK, oriSrcM, oriSrcK}: one fractal, tails, padding rows, a last fractal
// masked to nothing (oriK 32 of 64), srcM not a multiple of 8.
const std::array<uint32_t, 4> kNzShapes[] = {
    {16, 16, 16, 16}, {16, 16, 16, 7}, {32, 48, 30, 41},   {16, 64, 16, 64}, {24, 80, 20, 75},
    {16, 64, 16, 20}, {16, 64, 9, 32}, {48, 144, 45, 130}, {12, 32, 12, 32}};

TEST(SoftMax3510Replay, NzMatchesBitForBit) {
  uint32_t seed = 3260;
  for (const auto& c : kNzShapes) {
    for (Api api : {Api::kSoftMax, Api::kLog, Api::kFlashV2}) {
      CheckSoftMaxNz<float, float>(c[0], c[1], c[2], c[3], api, seed++);
      CheckSoftMaxNz<Half, Half>(c[0], c[1], c[2], c[3], api, seed++);
      if (api != Api::kLog) CheckSoftMaxNz<Half, float>(c[0], c[1], c[2], c[3], api, seed++);
    }
  }
}

template <class T>
void CheckGradNz(uint32_t srcM, uint32_t srcK, uint32_t oriM, uint32_t oriK, bool isFront,
                 bool frontApi, uint32_t seed) {
  SCOPED_TRACE("NZ m " + std::to_string(srcM) + " k " + std::to_string(srcK) + " oriM " +
               std::to_string(oriM) + " oriK " + std::to_string(oriK) + " front " +
               std::to_string(isFront));
  const auto grad = Uniform<T>(seed, srcM * srcK, -2.0f, 2.0f);
  const auto y = Uniform<T>(seed + 1, srcM * srcK, 0.0f, 1.0f);
  SoftMaxTiling t;
  AscendC::SoftMaxGradTilingFunc(ge::Shape({srcM, srcK}), sizeof(T), kUbBufBytes / 2, t, isFront);
  const AscendC::SoftMaxShapeInfo si{srcM, srcK, oriM, oriK};
  const std::vector<T> out =
      RunSoftmaxGrad<T, false, true>(si, grad, y, t, isFront, frontApi, grad.size(), k950);
  std::vector<T> want = Sentinel<T>(grad.size());
  r3510::SoftmaxGradNz(srcM, srcK, oriM, oriK, grad.data(), y.data(), want.data(), isFront);
  ExpectSameBits(out, want, "dst");
}

TEST(SoftmaxGrad3510Replay, NzMatchesBitForBit) {
  uint32_t seed = 3650;
  for (const auto& c : kNzShapes) {
    for (bool front : {false, true}) {
      CheckGradNz<float>(c[0], c[1], c[2], c[3], front, false, seed++);
      CheckGradNz<Half>(c[0], c[1], c[2], c[3], front, front, seed++);  // front: GradFront's API
    }
  }
}

// SoftMax without statistics; float + isReuseSource also compares what src is left holding. The
// input continues past srcM rows to a multiple of 8 (what the srcK = 8 and 16 paths' last
// register reads and, with isReuseSource, writes back).
template <class T, bool reuse, bool basic = false>
void CheckNoStats(const Shape& s, bool tmp, uint32_t seed) {
  SCOPED_TRACE(Name(s) + " reuse " + std::to_string(reuse) + " seed " + std::to_string(seed));
  const uint32_t rows = (s.m + 7) / 8 * 8;
  const auto x = Inputs<T>(seed, {rows, s.k, s.oriK});
  const SoftMaxTiling t = HostTiling(s, sizeof(T), 0);
  std::vector<T> y, left;
  OnBlock(
      [&](Ub& ub) {
        Put(ub, 0, x);
        Put(ub, 1, Sentinel<T>(x.size()));
        const AscendC::SoftMaxShapeInfo si{s.m, s.k, s.m, s.oriK};
        if (tmp) {
          AscendC::SoftMax<Dev<T>, reuse, basic>(ub.Get<Dev<T>>(1), ub.Get<Dev<T>>(0),
                                                 ub.Get<uint8_t>(3), t, si);
        } else {
          AscendC::SoftMax<Dev<T>, reuse, basic>(ub.Get<Dev<T>>(1), ub.Get<Dev<T>>(0), t, si);
        }
        y = Take<T>(ub, 1, x.size());
        left = Take<T>(ub, 0, x.size());
      },
      k950);
  std::vector<T> wx = x, wy = Sentinel<T>(x.size());
  r3510::SoftMaxNoStats(s.m, s.k, s.oriK, wx.data(), wy.data(), reuse, basic, rows);
  ExpectSameBits(y, wy, "dst");
  ExpectSameBits(left, wx, "src after the call");
}

TEST(SoftMax3510Replay, WithoutStatisticsMatchesBitForBit) {
  uint32_t seed = 3500;
  for (const Shape& s : {Shape{9, 8, 5}, Shape{6, 16, 12}, Shape{40, 64, 60}, Shape{3, 72, 72},
                         Shape{5, 200, 196}, Shape{2, 600, 600}, Shape{7, 512, 512}}) {
    CheckNoStats<float, false>(s, true, seed++);
    CheckNoStats<float, true>(s, true, seed++);
    CheckNoStats<float, true>(s, false, seed++);
  }
  for (const Shape& s :
       {Shape{4, 16, 6}, Shape{3, 80, 72}, Shape{4, 256, 256}, Shape{2, 528, 520}}) {
    CheckNoStats<Half, false>(s, true, seed++);
    CheckNoStats<Half, true>(s, false, seed++);
  }
}

// Float SoftMax without statistics, isReuseSource, srcK = 8 and 16: the register paths store
// their last register whole into src (the work buffer), so the rows past srcM up to a multiple of
// 64 / srcK get the exponentials of what src's memory holds there (here the input continues).
TEST(SoftMax3510Replay, ReuseSourceWritesTheLastRegistersRows) {
  uint32_t seed = 3560;
  for (const Shape& s :
       {Shape{9, 8, 5}, Shape{3, 8, 8}, Shape{6, 16, 12}, Shape{5, 16, 16}, Shape{1, 16, 3}}) {
    CheckNoStats<float, true>(s, true, seed++);
    CheckNoStats<float, true>(s, false, seed++);
  }
}

// The same write past a srcTensor of srcM * srcK elements is the device's overrun: checked mode
// names it; unchecked, it proceeds inside the UB as on the device.
TEST(SoftMax3510Replay, ReuseSourceLastRegisterPastTheTensor) {
  const Shape s{9, 8, 8};
  const auto x = Inputs<float>(3570, {16, 8, 8});
  for (const bool checked : {true, false}) {
    const bool was = lngrad::aicore::CheckedMode();
    lngrad::aicore::SetCheckedMode(checked);
    std::vector<float> left;
    const auto r = lngrad::aicore::test::CheckOf(
        [&](Ub& ub) {
          Put(ub, 0, x);
          auto src = ub.Get<float>(0);
          src.SetSize(s.m * s.k);
          AscendC::SoftMax<float, true>(ub.Get<float>(1), src, HostTiling(s, 4, 0),
                                        {s.m, s.k, s.m, s.oriK});
          left = Take<float>(ub, 0, x.size());
        },
        k950);
    lngrad::aicore::SetCheckedMode(was);
    if (checked) {
      EXPECT_EQ(r.first, "tensor_bounds") << r.second;
      EXPECT_NE(r.second.find("srcTensor"), std::string::npos) << r.second;
      continue;
    }
    EXPECT_EQ(r.first, "") << r.second;
    std::vector<float> wx = x, wy(x.size());
    r3510::SoftMaxNoStats(s.m, s.k, s.oriK, wx.data(), wy.data(), true, false, 16);
    ExpectSameBits(left, wx, "src after the call");
  }
}

// isBasicBlock without statistics: 3510 takes SoftMaxGenericNDImpl (whole registers; with
// isReuseSource src keeps the exponentials of those columns).
TEST(SoftMax3510Replay, WithoutStatisticsBasicBlockMatchesBitForBit) {
  uint32_t seed = 3550;
  for (const Shape& s : kBasicTailShapes) {
    CheckNoStats<float, false, true>(s, true, seed++);
    CheckNoStats<float, true, true>(s, false, seed++);
    CheckNoStats<Half, false, true>(s, true, seed++);
  }
  CheckNoStats<float, true, true>({7, 512, 512}, true, seed++);
}

template <class T>
void CheckGrad(const Shape& s, bool isFront, bool frontApi, uint32_t seed) {
  SCOPED_TRACE(Name(s) + " isFront " + std::to_string(isFront) + " seed " + std::to_string(seed));
  const auto grad = Uniform<T>(seed, s.m * s.k, -2.0f, 2.0f);
  const auto y = Uniform<T>(seed + 1, s.m * s.k, 0.0f, 1.0f);
  SoftMaxTiling t;
  AscendC::SoftMaxGradTilingFunc(ge::Shape({s.m, s.k}), sizeof(T), kUbBufBytes / 2, t, isFront);
  const size_t n = isFront ? s.m * 32 / sizeof(T) : grad.size();
  const std::vector<T> out =
      RunSoftmaxGrad<T, true>({s.m, s.k, s.m, s.oriK}, grad, y, t, isFront, frontApi, n, k950);
  std::vector<T> want = Sentinel<T>(n);
  r3510::SoftmaxGrad(s.m, s.k, s.oriK, grad.data(), y.data(), want.data(), isFront);
  ExpectSameBits(out, want, "dst");
}

// SoftmaxGradFront<isBasicBlock = true>: the 3510 code has no basic-block order.
TEST(SoftmaxGrad3510Replay, MatchesBitForBit) {
  uint32_t seed = 3600;
  for (const Shape& s :
       {Shape{1, 8, 8}, Shape{5, 16, 12}, Shape{4, 40, 36}, Shape{3, 72, 72}, Shape{5, 200, 196},
        Shape{2, 600, 600}, Shape{8, 640, 640}, Shape{2, 1040, 1030}}) {
    CheckGrad<float>(s, false, false, seed++);
    CheckGrad<float>(s, true, false, seed++);
    CheckGrad<float>(s, true, true, seed++);
  }
  for (const Shape& s :
       {Shape{4, 16, 6}, Shape{3, 48, 40}, Shape{4, 256, 256}, Shape{2, 528, 520}}) {
    CheckGrad<Half>(s, false, false, seed++);
    CheckGrad<Half>(s, true, true, seed++);
  }
}

}  // namespace
