// SoftmaxFlashV2's (broadcast mode, generic split loop) and SoftmaxFlashV3's row max with NaN,
// ±inf and signed zeros in the source, through lngrad's Ascend C API on Ascend910B1 (and FlashV2
// on Ascend310P1), compared with the replays (session 20, sf2): ReplaySoftmaxFlashV2
// (KitRowMax: NewReduceMaxLastNDImpl's instructions in the kit's order, the update's Max(inMax,
// rowmax) with its operand order) and ReplaySoftmaxFlashV3 (the same row max over the shifted
// row). Before this the flash replays' inputs avoided NaN rows, and lngrad folded the row left to
// right (a NaN after the first column was dropped: the row's max and expSum finite where the
// device's are NaN). Rows: r % 4 == 0 one quiet NaN; 1 a NaN and a negative NaN; 2 every value
// negative with -0 and +0 (a zero tie); 3 +inf (FlashV3: the segment's shift turns NaN, the
// others -inf). Update inputs: lane-varying statistics with a NaN, -0 and +0 in inMax. Any NaN
// matches any NaN (payloads are not promised); every other value bit for bit. Session 24 (tie2):
// SoftmaxFlash (update: ReduceMaxLastNDImpl's order) against ReplaySoftmaxFlash, the same rows.
#include "softmax_nan_rows.h"
#include "softmax_replay_util.h"

#include "../aicore/sanitizer_off.h"

namespace {

using namespace softmax_replay_test;  // NOLINT(build/namespaces)

constexpr const char* k310P = "Ascend310P1";

// Update inputs: lane-varying inMax (a NaN, -0 and +0 among them), inExpSum.
template <class S>
void SpecialStats(std::vector<S>& inMax) {
  if (inMax.size() > 3) inMax[3] = Special<S>(0x7FC00003u, 0x7E03u);
  if (inMax.size() > 17) inMax[17] = Special<S>(0x80000000u, 0x8000u);
  if (inMax.size() > 26) inMax[26] = Special<S>(0u, 0u);
}

// SoftmaxFlashV2<T, S> without update, then with update (other tensors for the inputs), splits
// of splitRows rows (0: the maximum tmp), against ReplaySoftmaxFlashV2.
template <class T, class S>
void CheckFlashV2Nan(const Shape& s, uint32_t splitRows, uint32_t seed,
                     const char* product = k910B) {
  if (s.k * sizeof(T) % 32 != 0) return;  // rows of whole 32-byte blocks (the kernel check)
  SCOPED_TRACE(Name(s) + " splitRows " + std::to_string(splitRows) + " seed " +
               std::to_string(seed) + " " + product);
  const ge::Shape shape({s.m, s.k});
  uint32_t budget = AscendC::GetSoftMaxFlashV2MaxTmpSize(shape, sizeof(T), sizeof(S), true);
  if (splitRows != 0) {
    budget = AscendC::GetSoftMaxFlashV2MinTmpSize(ge::Shape({1, s.k}), sizeof(T), sizeof(S), true) *
             splitRows;
  }
  SoftMaxTiling t;
  AscendC::SoftMaxFlashV2TilingFunc(shape, sizeof(T), sizeof(S), std::min(budget, kUbBufBytes / 2),
                                    t, true, false);
  const uint32_t stats = s.m * t.reduceK, emN = s.m * 32 / sizeof(T);
  constexpr uint32_t kEmAt = kUbBufBytes / 2 / sizeof(T), kInAt = kUbBufBytes / 4 / sizeof(S);
  const std::vector<T> x = NanRows<T>(seed, s);
  std::vector<S> inSum = Stats<S>(seed + 1, s.m, t.reduceK, 0.5f, 300.0f, true);
  std::vector<S> inMax = Stats<S>(seed + 2, s.m, t.reduceK, -2.0f, 9.0f, true);
  SpecialStats(inMax);
  std::vector<T> y[2], em;
  std::vector<S> sum[2], max[2];
  OnBlock(
      [&](Ub& ub) {
        const FlashTensors<T, S> f(ub);
        const AscendC::SoftMaxShapeInfo si{s.m, s.k, s.m, s.oriK};
        for (const bool update : {false, true}) {
          Put(ub, 0, x);
          Put(ub, 2, inSum, kInAt);
          Put(ub, 2, inMax, kMaxAt<S> + kInAt);
          const auto inS = ub.Get<Dev<S>>(2)[kInAt], inM = ub.Get<Dev<S>>(2)[kMaxAt<S> + kInAt];
          if (update) {
            AscendC::SoftmaxFlashV2<Dev<T>, true>(f.dst, f.sum, f.max, f.src, f.em, inS, inM, f.tmp,
                                                  t, si);
          } else {
            AscendC::SoftmaxFlashV2<Dev<T>, false>(f.dst, f.sum, f.max, f.src, f.em, inS, inM,
                                                   f.tmp, t, si);
          }
          y[update] = Take<T>(ub, 1, x.size());
          sum[update] = Take<S>(ub, 2, stats);
          max[update] = Take<S>(ub, 2, stats, kMaxAt<S>);
        }
        em = Take<T>(ub, 3, emN, kEmAt);
      },
      product);
  const SmxTiling mt = Mirror(t);
  for (const bool update : {false, true}) {
    SCOPED_TRACE(update ? "update" : "no update");
    std::vector<T> wy(x.size()), wem(emN);
    std::vector<S> wsum(stats), wmax(stats);
    lngrad_replay::ReplaySoftmaxFlashV2<T, S>(mt, s.oriK, update, x.data(), wy.data(), wsum.data(),
                                              wmax.data(), wem.data(), inSum.data(), inMax.data(),
                                              false, std::string(product) == k310P);
    ExpectNanAny(y[update], wy, "dst");
    ExpectNanAny(sum[update], wsum, "expSum");
    ExpectNanAny(max[update], wmax, "max");
    if (update) ExpectNanAny(em, wem, "expMax");
  }
}

// Every branch of NewReduceMaxLastNDImpl (< 64, [64, 128), [128, 512) with the split's rows
// above and below k / 64, >= 512 with tails), tail splits.
const Shape kShapes[] = {{8, 8, 8},      {8, 48, 40},   {8, 64, 64},    {9, 72, 70},
                         {12, 192, 192}, {5, 200, 196}, {3, 448, 448},  {8, 264, 260},
                         {4, 512, 512},  {5, 600, 600}, {4, 1032, 1030}};

TEST(SoftmaxFlashV2NanReplay, FloatFollowsTheKitsMaxOrder) {
  uint32_t seed = 8100;
  for (const Shape& s : kShapes) {
    CheckFlashV2Nan<float, float>(s, 0, seed += 3);
    CheckFlashV2Nan<float, float>(s, 2, seed += 3);
  }
}

TEST(SoftmaxFlashV2NanReplay, HalfFollowsTheKitsMaxOrder) {
  uint32_t seed = 8200;
  for (const Shape& s : kShapes) {
    CheckFlashV2Nan<Half, Half>(s, 3, seed += 3);
    CheckFlashV2Nan<Half, float>(s, 0, seed += 3);
  }
}

// 2002: the same row max (membase/v200 runs the common files), with its Adds 0 where the v200
// reduction adds it.
TEST(SoftmaxFlashV2NanReplay, OnArch2002) {
  uint32_t seed = 8300;
  for (const Shape& s : {Shape{8, 64, 64}, Shape{12, 192, 192}, Shape{5, 600, 600}}) {
    CheckFlashV2Nan<float, float>(s, 2, seed += 3, k310P);
    CheckFlashV2Nan<Half, Half>(s, 0, seed += 3, k310P);
  }
}

// SoftmaxFlash<T> (deprecated; statistics of T) without update, then with update (other tensors
// for the inputs), splits of splitRows rows (0: the maximum tmp), against ReplaySoftmaxFlash: the
// update's row max is ReduceMaxLastNDImpl's (chunk 0's block maxima, Max(acc, chunk c's), the
// block level, then Max(row, tail)), not NewReduceMaxLastNDImpl's.
template <class T>
void CheckFlashNan(const Shape& s, uint32_t splitRows, uint32_t seed) {
  if (s.k * sizeof(T) % 32 != 0) return;
  SCOPED_TRACE(Name(s) + " splitRows " + std::to_string(splitRows) + " seed " +
               std::to_string(seed));
  const ge::Shape shape({s.m, s.k});
  uint32_t budget = AscendC::GetSoftMaxFlashMaxTmpSize(shape, sizeof(T), true, false);
  if (splitRows != 0) {
    budget =
        AscendC::GetSoftMaxFlashMinTmpSize(ge::Shape({1, s.k}), sizeof(T), true, false) * splitRows;
  }
  SoftMaxTiling t;
  AscendC::SoftMaxFlashTilingFunc(shape, sizeof(T), std::min(budget, kUbBufBytes / 2), t, true);
  const uint32_t stats = s.m * t.reduceK;
  constexpr uint32_t kInAt = kUbBufBytes / 4 / sizeof(T);
  const std::vector<T> x = NanRows<T>(seed, s);
  std::vector<T> inSum = Stats<T>(seed + 1, s.m, t.reduceK, 0.5f, 300.0f, true);
  std::vector<T> inMax = Stats<T>(seed + 2, s.m, t.reduceK, -2.0f, 9.0f, true);
  SpecialStats(inMax);
  std::vector<T> y[2], sum[2], max[2], em;
  OnBlock(
      [&](Ub& ub) {
        const FlashTensors<T, T> f(ub);
        const AscendC::SoftMaxShapeInfo si{s.m, s.k, s.m, s.oriK};
        for (const bool update : {false, true}) {
          Put(ub, 0, x);
          Put(ub, 2, inSum, kInAt);
          Put(ub, 2, inMax, kMaxAt<T> + kInAt);
          const auto inS = ub.Get<Dev<T>>(2)[kInAt], inM = ub.Get<Dev<T>>(2)[kMaxAt<T> + kInAt];
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
          AscendC::SoftmaxFlash<Dev<T>>(f.dst, f.sum, f.max, f.src, f.em, inS, inM, f.tmp, t,
                                        update, si);
#pragma GCC diagnostic pop
          y[update] = Take<T>(ub, 1, x.size());
          sum[update] = Take<T>(ub, 2, stats);
          max[update] = Take<T>(ub, 2, stats, kMaxAt<T>);
        }
        em = Take<T>(ub, 3, stats, kUbBufBytes / 2 / sizeof(T));
      },
      k910B);
  const SmxTiling mt = Mirror(t);
  for (const bool update : {false, true}) {
    SCOPED_TRACE(update ? "update" : "no update");
    std::vector<T> wy(x.size()), wsum(stats), wmax(stats), wem(stats);
    lngrad_replay::ReplaySoftmaxFlash<T>(mt, s.oriK, update, x.data(), wy.data(), wsum.data(),
                                         wmax.data(), wem.data(), inSum.data(), inMax.data());
    ExpectNanAny(y[update], wy, "dst");
    ExpectNanAny(sum[update], wsum, "expSum");
    ExpectNanAny(max[update], wmax, "max");
    if (update) ExpectNanAny(em, wem, "expMax");
  }
}

// Every branch of ReduceMaxLastNDImpl (the tail alone, whole chunks, chunks and a tail; one chunk
// and several), tail splits (session 24, tie2: the replay's update took NewReduceMaxLastNDImpl's
// order with a pair tree of Max for the lanes).
TEST(SoftmaxFlashNanReplay, UpdateFollowsReduceMaxLastNDImplsOrder) {
  uint32_t seed = 8600;
  for (const Shape& s : kShapes) {
    CheckFlashNan<float>(s, 0, seed += 3);
    CheckFlashNan<float>(s, 3, seed += 3);
    CheckFlashNan<Half>(s, 0, seed += 3);
    CheckFlashNan<Half>(s, 2, seed += 3);
  }
}

// SoftmaxFlashV3 (half data, float statistics) without update, then with update, against
// ReplaySoftmaxFlashV3.
void CheckFlashV3Nan(const Shape& s, uint32_t seed) {
  SCOPED_TRACE(Name(s) + " seed " + std::to_string(seed));
  uint32_t mx = 0, mn = 0;
  AscendC::GetSoftMaxFlashV3MaxMinTmpSize(ge::Shape({s.m, s.k}), 2, 4, mx, mn, true);
  SoftMaxTiling t;
  AscendC::SoftMaxFlashV3TilingFunc(ge::Shape({s.m, s.k}), 2, 4, std::min(mx, kUbBufBytes / 2), t,
                                    true);
  const std::vector<Half> a = NanRows<Half>(seed, s), b = NanRows<Half>(seed + 1, s);
  std::vector<float> st0(6 * 1024);
  for (size_t i = 0; i < st0.size(); ++i) st0[i] = 0.5f + static_cast<float>((i * 37) % 23);
  const AscendC::SoftMaxParams p{s.m, s.k, s.m, s.k, 2, 8, 0.9375f};
  const FlashV3Out o = RunFlashV3(s, a, b, st0, t, p, false, k910B);
  const SmxTiling mt = Mirror(t);
  std::vector<float> w = st0;
  const lngrad_replay::FlashV3Stats st{w.data(), w.data() + 1024, w.data() + 2048,
                                       w.data(), w.data() + 1024, w.data() + 2048};
  std::vector<Half> wy0(a.size()), wy(b.size()), wem(s.m * 16);
  lngrad_replay::ReplaySoftmaxFlashV3(mt, s.k, 2, 0.9375f, false, a.data(), wy0.data(), nullptr,
                                      st);
  ExpectNanAny(o.y0, wy0, "no update dst");
  ExpectNanAny(o.st1, w, "no update statistics");
  lngrad_replay::ReplaySoftmaxFlashV3(mt, s.k, 2, 0.9375f, true, b.data(), wy.data(), wem.data(),
                                      st);
  ExpectNanAny(o.y, wy, "update dst");
  ExpectNanAny(o.st, w, "update statistics");
  ExpectNanAny(o.em, wem, "update expMax");
}

TEST(SoftmaxFlashV3NanReplay, FollowsTheKitsMaxOrder) {
  uint32_t seed = 8400;
  for (const Shape& s : {Shape{4, 512, 512}, Shape{5, 640, 640}, Shape{3, 1024, 1024}}) {
    CheckFlashV3Nan(s, seed += 3);
  }
}

}  // namespace
