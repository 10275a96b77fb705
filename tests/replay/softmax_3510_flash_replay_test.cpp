// The update forms of the SoftMax family (SoftmaxFlashV2, SoftmaxFlash, SoftmaxFlashV3) and
// SimpleSoftMax through lngrad's Ascend C API on the 950 (dav-3510), compared bit for bit with the
// independent replay of the toolkit's 3510 register code (replay_softmax_3510.h): statistics in
// place (expSum = inExpSum, max = inMax, as the toolkit's samples pass them), statistics whose
// lanes differ, half data with float statistics (expMax interleaved), tails past oriSrcK.
#include "replay_softmax_3510.h"

#include "../aicore/sanitizer_off.h"
#include "softmax_replay_util.h"

namespace {

using namespace softmax_replay_test;  // NOLINT(build/namespaces)
namespace r3510 = lngrad_replay::r3510;

constexpr const char* k950 = "Ascend950PR_9599";

template <class T>
std::vector<T> Sentinel(size_t n) {
  return std::vector<T>(n, lngrad_replay::FromFloat<T>(-77.0f));
}

// One update call with the statistics in place in buffer 2 (sum at 0, max at the middle), src
// buffer 0, dst buffer 1 (a sentinel first), expMax in buffer 3's second half; v1: SoftmaxFlash,
// else SoftmaxFlashV2. laneWise: every statistics lane its own value.
template <class T, class S, bool v1 = false>
void CheckUpdate(const Shape& s, bool laneWise, uint32_t seed) {
  SCOPED_TRACE(Name(s) + " v1 " + std::to_string(v1) + " laneWise " + std::to_string(laneWise) +
               " seed " + std::to_string(seed));
  const auto x = Inputs<T>(seed, s);
  const uint32_t ls = 32 / sizeof(S), stats = s.m * ls, emN = s.m * 32 / sizeof(T);
  const auto inSum = Stats<S>(seed + 1, s.m, ls, 0.5f, 300.0f, laneWise);
  const auto inMax = Stats<S>(seed + 2, s.m, ls, -2.0f, 9.0f, laneWise);
  constexpr uint32_t kEmAt = kUbBufBytes / 2 / sizeof(T);
  SoftMaxTiling t;
  AscendC::SoftMaxFlashV2TilingFunc(ge::Shape({s.m, s.k}), sizeof(T), sizeof(S), kUbBufBytes / 2, t,
                                    true);
  std::vector<T> y, em;
  std::vector<S> sum, max;
  OnBlock(
      [&](Ub& ub) {
        Put(ub, 0, x);
        Put(ub, 1, Sentinel<T>(x.size()));
        Put(ub, 2, inSum);
        Put(ub, 2, inMax, kMaxAt<S>);
        auto st = ub.Get<Dev<S>>(2);
        auto sumT = st[0], maxT = st[kMaxAt<S>];
        auto emT = ub.Get<Dev<T>>(3)[kEmAt];
        auto tmp = ub.Get<uint8_t>(3);
        tmp.SetSize(kUbBufBytes / 2);
        const AscendC::SoftMaxShapeInfo si{s.m, s.k, s.m, s.oriK};
        auto dst = ub.Get<Dev<T>>(1), src = ub.Get<Dev<T>>(0);
        if constexpr (v1) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
          AscendC::SoftmaxFlash<Dev<T>>(dst, sumT, maxT, src, emT, sumT, maxT, tmp, t, true, si);
#pragma GCC diagnostic pop
        } else {
          AscendC::SoftmaxFlashV2<Dev<T>, true>(dst, sumT, maxT, src, emT, sumT, maxT, tmp, t, si);
        }
        y = Take<T>(ub, 1, x.size());
        sum = Take<S>(ub, 2, stats);
        max = Take<S>(ub, 2, stats, kMaxAt<S>);
        em = Take<T>(ub, 3, emN, kEmAt);
      },
      k950);
  std::vector<T> wy = Sentinel<T>(x.size()), wem(emN);
  std::vector<S> wsum = inSum, wmax = inMax;
  const r3510::UpdateIo<T, S> io{x.data(),   wy.data(),   wsum.data(), wmax.data(),
                                 wem.data(), wsum.data(), wmax.data()};
  if constexpr (v1) {
    r3510::SoftmaxFlashUpdate(s.m, s.k, s.oriK, io);
  } else {
    r3510::SoftmaxFlashV2Update(s.m, s.k, s.oriK, io);
  }
  ExpectOutputs("", y, wy, sum, wsum, max, wmax);
  ExpectSameBits(em, wem, "expMax");
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
  std::vector<T> y;
  OnBlock(
      [&](Ub& ub) {
        Put(ub, 0, x);
        Put(ub, 2, inSum);
        Put(ub, 2, inMax, kMaxAt<S>);
        auto st = ub.Get<Dev<S>>(2);
        const AscendC::SoftMaxShapeInfo si{s.m, s.k, s.m, s.oriK};
        AscendC::SimpleSoftMax<Dev<T>>(ub.Get<Dev<T>>(1), st[0], st[kMaxAt<S>], ub.Get<Dev<T>>(0),
                                       ub.Get<uint8_t>(3), t, si);
        y = Take<T>(ub, 1, x.size());
      },
      k950);
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
  SCOPED_TRACE(Name(s) + " loopCnt " + std::to_string(loopCnt) + " seed " + std::to_string(seed));
  const auto a = Inputs<Half>(seed, s), b = Uniform<Half>(seed + 1, s.m * s.k, -3.0f, 9.0f);
  SoftMaxTiling t;
  AscendC::SoftMaxFlashV3TilingFunc(ge::Shape({s.m, s.k}), 2, 4, kUbBufBytes / 2, t, true);
  const uint32_t inAt = separate ? 3072 : 0;
  constexpr uint32_t kEmAt = kUbBufBytes / 4;
  const AscendC::SoftMaxParams p{s.m, s.k, s.m, s.k, loopCnt, 8, 0.9375f};
  const std::vector<float> st0 = Uniform<float>(seed + 2, 6 * 1024, 0.5f, 9.0f);
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
      k950);
  std::vector<float> w = st0;
  std::vector<Half> wy0(a.size()), wy(b.size()), wem(s.m * 16);
  auto io = [&](const std::vector<Half>& src, std::vector<Half>& dst, uint32_t in) {
    return r3510::FlashV3Io{src.data(),    dst.data(),           wem.data(),
                            w.data(),      w.data() + 1024,      w.data() + 2048,
                            w.data() + in, w.data() + in + 1024, w.data() + in + 2048};
  };
  if (!separate) {
    r3510::SoftmaxFlashV3(s.m, s.k, 8, loopCnt, 0.9375f, false, io(a, wy0, 0));
    ExpectSameBits(y0, wy0, "no update dst");
    ExpectSameBits(st1, w, "no update statistics");
  }
  r3510::SoftmaxFlashV3(s.m, s.k, 8, loopCnt, 0.9375f, true, io(b, wy, inAt));
  ExpectSameBits(y, wy, "update dst");
  ExpectSameBits(st, w, "update statistics");
  ExpectSameBits(em, wem, "update expMax");
}

TEST(SoftmaxFlashV33510Replay, MatchesBitForBit) {
  CheckFlashV3({2, 512, 512}, 2, false, 4000);
  CheckFlashV3({3, 640, 640}, 3, false, 4001);
  CheckFlashV3({5, 1024, 1024}, 2, false, 4002);
  CheckFlashV3({1, 2048, 2048}, 5, false, 4003);
  CheckFlashV3({3, 640, 640}, 2, true, 4004);
  CheckFlashV3({4, 768, 768}, 4, true, 4005);
}

}  // namespace
