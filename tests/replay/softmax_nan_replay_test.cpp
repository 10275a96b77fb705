// The SoftMax family's row max with NaN and signed zeros in the source (session 19, smr),
// through lngrad's Ascend C API, compared bit for bit with the replay (replay_softmax.h
// SmxKitRowMax: NewReduceMaxLastNDImpl's instructions in the kit's order, each binary Max with
// its source operands, the lane reductions first-NaN / first-extreme as lngrad documents the
// reduce instructions). Before this the tests' inputs avoided NaN and zero ties, and lngrad
// folded the row left to right (a NaN after the first column was dropped). Rows hold one NaN,
// two NaNs of different sign and payload, or a zero tie (-0 and +0 the largest values), in
// every branch of the reduction (< 64, [64, 128), [128, 512) with the split's rows above and
// below k / 64, >= 512 with tails), splits with a tail split, float and half, SoftMax with and
// without statistics, LogSoftMax (K outside [128, 512): its kernel split is not replayed) and
// the 2002 file's Adds 0 (float SoftMax on Ascend310P1: a -0 maximum stored as +0).
#include "softmax_nan_rows.h"
#include "softmax_replay_util.h"

#include "../aicore/sanitizer_off.h"

namespace {

using namespace softmax_replay_test;  // NOLINT(build/namespaces)

constexpr const char* k310P = "Ascend310P1";

// Inputs<T> with rows r % 4 == 0: one quiet NaN; 1: a NaN and a negative NaN of another payload;
// 2: every value negative, -0 and +0 at two columns (the maximum a zero tie); 3: unchanged. The
// positions move with the seed and the row over the reduced columns.
template <class T>
std::vector<T> NanInputs(uint32_t seed, const Shape& s) {
  std::vector<T> v = Inputs<T>(seed, s);
  const T nan = Special<T>(0x7FC00001u, 0x7E01u);
  const T negNan = Special<T>(0xFFC00002u, 0xFE02u);
  const T pz = Special<T>(0x00000000u, 0x0000u), nz = Special<T>(0x80000000u, 0x8000u);
  for (uint32_t r = 0; r < s.m; ++r) {
    T* row = v.data() + r * s.k;
    const uint32_t a = (seed * 7 + r * 13) % s.oriK, b = (seed * 3 + r * 29 + 1) % s.oriK;
    if (r % 4 == 0) row[a] = nan;
    if (r % 4 == 1) {
      row[a] = negNan;
      row[b] = nan;
    }
    if (r % 4 == 2) {
      for (uint32_t c = 0; c < s.k; ++c) {
        const float f = lngrad_replay::ToFloat(row[c]);
        row[c] = lngrad_replay::FromFloat<T>(-std::fabs(f) - 1.0f);
      }
      row[a] = (seed + r) % 2 == 0 ? nz : pz;
      if (b != a) row[b] = (seed + r) % 2 == 0 ? pz : nz;
    }
  }
  return v;
}

// Bit for bit, but any NaN matches any NaN: which NaN's sign and payload the device's Max, Sub,
// Exp, Add and casts pass on is not documented (the family's replays' convention, "payloads are
// not promised"); whether a value is NaN, and every other value, must match exactly.
template <class T>
void ExpectSameBitsNanAny(const std::vector<T>& got, const std::vector<T>& want,
                          const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < got.size(); ++i) {
    const float g = lngrad_replay::ToFloat(got[i]), w = lngrad_replay::ToFloat(want[i]);
    if (std::isnan(g) && std::isnan(w)) continue;
    if (BitsOf(got[i]) != BitsOf(want[i])) {
      ADD_FAILURE() << what << ": first mismatch at " << i << ": lngrad " << g << " (0x" << std::hex
                    << BitsOf(got[i]) << "), replay " << std::dec << w << " (0x" << std::hex
                    << BitsOf(want[i]) << ")";
      return;
    }
  }
}

template <class T, class S>
void ExpectNanOutputs(const std::vector<T>& y, const std::vector<T>& wy, const std::vector<S>& sum,
                      const std::vector<S>& wsum, const std::vector<S>& max,
                      const std::vector<S>& wmax) {
  ExpectSameBitsNanAny(y, wy, "dst");
  ExpectSameBitsNanAny(sum, wsum, "sum");
  ExpectSameBitsNanAny(max, wmax, "max");
}

template <class T, class S>
void CheckNanSoftMax(const Shape& s, uint32_t typeSize, uint32_t splitRows, uint32_t seed,
                     const char* product = k910B, bool basic = false) {
  SCOPED_TRACE(Name(s) + " splitRows " + std::to_string(splitRows) + " seed " +
               std::to_string(seed) + " " + product + (basic ? " isBasicBlock" : ""));
  const auto x = NanInputs<T>(seed, s);
  const SoftMaxTiling t = HostTiling(s, typeSize, splitRows);
  if (basic) {
    ASSERT_EQ(t.tailM, 0u);  // the basic block has no tail split
  }
  const uint32_t stats = s.m * t.reduceK;
  std::vector<T> y;
  std::vector<S> sum, max;
  OnBlock(
      [&](Ub& ub) {
        Put(ub, 0, x);
        auto st = ub.Get<Dev<S>>(2);
        const AscendC::SoftMaxShapeInfo shape{s.m, s.k, s.m, s.oriK};
        if (basic) {
          AscendC::SoftMax<Dev<T>, false, true>(ub.Get<Dev<T>>(1), st[0], st[kMaxAt<S>],
                                                ub.Get<Dev<T>>(0), ub.Get<uint8_t>(3), t, shape);
        } else {
          AscendC::SoftMax<Dev<T>>(ub.Get<Dev<T>>(1), st[0], st[kMaxAt<S>], ub.Get<Dev<T>>(0),
                                   ub.Get<uint8_t>(3), t, shape);
        }
        y = Take<T>(ub, 1, x.size());
        sum = Take<S>(ub, 2, stats);
        max = Take<S>(ub, 2, stats, kMaxAt<S>);
      },
      product);
  std::vector<T> wy(x.size());
  std::vector<S> wsum(stats), wmax(stats);
  const bool v200 = std::string(product) == k310P;
  lngrad_replay::ReplaySoftMax(Mirror(t), s.oriK, x.data(), wy.data(), wsum.data(), wmax.data(),
                               basic, v200);
  ExpectNanOutputs(y, wy, sum, wsum, max, wmax);
}

// Every reduction branch; [128, 512) with splits of more rows than k / 64 ({12, 192, 192} in
// one split) and of fewer ({3, 448, 448}, and splits of 2 rows).
const Shape kShapes[] = {{8, 8, 8},      {8, 48, 40},   {8, 64, 64},     {9, 72, 70},
                         {12, 192, 192}, {5, 200, 196}, {3, 448, 448},   {8, 264, 260},
                         {4, 512, 512},  {5, 600, 600}, {4, 1032, 1030}, {4, 2048, 2000}};

TEST(SoftMaxNanReplay, FloatFollowsTheKitsMaxOrder) {
  uint32_t seed = 1;
  for (const Shape& s : kShapes) {
    CheckNanSoftMax<float, float>(s, 4, 0, seed++);
    CheckNanSoftMax<float, float>(s, 4, 2, seed++);
  }
}

TEST(SoftMaxNanReplay, HalfFollowsTheKitsMaxOrder) {
  uint32_t seed = 100;
  for (const Shape& s : {Shape{8, 16, 16}, Shape{8, 48, 40}, Shape{12, 192, 192},
                         Shape{3, 448, 448}, Shape{5, 528, 520}, Shape{4, 2048, 2000}}) {
    CheckNanSoftMax<Half, Half>(s, 2, 0, seed++);
    CheckNanSoftMax<Half, Half>(s, 2, 3, seed++);
    CheckNanSoftMax<Half, float>(s, 4, 0, seed++);
  }
}

// 2002 (membase/v200): the same order; FirstBlockCopyImpl's and BasicBlockReduceMaxImpl's Adds 0
// store a -0 maximum as +0 (k in [64, 128), or splits of more than one row).
TEST(SoftMaxNanReplay, Arch2002AddsZeroToTheMax) {
  uint32_t seed = 200;
  for (const Shape& s : {Shape{8, 40, 40}, Shape{8, 72, 72}, Shape{12, 192, 192},
                         Shape{3, 448, 448}, Shape{5, 600, 600}, Shape{1, 96, 96}}) {
    CheckNanSoftMax<float, float>(s, 4, 0, seed++, k310P);
    CheckNanSoftMax<float, float>(s, 4, 1, seed++, k310P);
  }
}

// isBasicBlock (SoftMaxBasicBlock, whole splits only; 2201 and 2002 run the same order):
// BasicBlockMaxImpl's Max(chunk 0, chunk 1), then Max(acc, chunk c) when the split has more rows
// than k / 64 ({16, 256}, {24, 192} in splits of 8), else Max(chunk c, acc) per row ({8, 1024},
// {8, 768}, {16, 512} in splits of 8), a single chunk's BlockReduceMax ({8, 64}), then the two
// BlockReduceMax levels; oriSrcK below srcK (every srcK column is reduced). Session 25 (cln):
// the replay's basic max was the adjacent-pair tree, which loses a NaN that is the first operand
// of a Max and takes the second of a -0/+0 tie.
TEST(SoftMaxNanReplay, BasicBlockFollowsBasicBlockMaxImplsOrder) {
  uint32_t seed = 600;
  for (const char* product : {k910B, k310P}) {
    for (const Shape& s : {Shape{8, 64, 64}, Shape{16, 256, 256}, Shape{24, 192, 190},
                           Shape{8, 1024, 1024}, Shape{8, 768, 700}, Shape{16, 512, 512}}) {
      CheckNanSoftMax<float, float>(s, 4, 0, seed++, product, true);
      CheckNanSoftMax<float, float>(s, 4, 8, seed++, product, true);
      // half data: srcK at least 128; on 910B only (2002 stores half by CAST_NONE, which this
      // replay's Store does not model)
      if (s.k < 128 || product == k310P) continue;
      CheckNanSoftMax<Half, Half>(s, 2, 8, seed++, product, true);
      CheckNanSoftMax<Half, float>(s, 4, 0, seed++, product, true);
    }
  }
}

template <class T>
void CheckNanNoStats(const Shape& s, uint32_t splitRows, uint32_t seed) {
  SCOPED_TRACE(Name(s) + " seed " + std::to_string(seed));
  const auto x = NanInputs<T>(seed, s);
  const SoftMaxTiling t = HostTiling(s, sizeof(T), splitRows);
  std::vector<T> y, left;
  OnBlock(
      [&](Ub& ub) {
        Put(ub, 0, x);
        const AscendC::SoftMaxShapeInfo shape{s.m, s.k, s.m, s.oriK};
        AscendC::SoftMax<Dev<T>, true>(ub.Get<Dev<T>>(1), ub.Get<Dev<T>>(0), ub.Get<uint8_t>(3), t,
                                       shape);
        y = Take<T>(ub, 1, x.size());
        left = Take<T>(ub, 0, x.size());
      },
      k910B);
  std::vector<T> wx = x, wy(x.size());
  lngrad_replay::ReplaySoftMaxNoStats(Mirror(t), s.oriK, wx.data(), wy.data(), true);
  ExpectSameBitsNanAny(y, wy, "dst");
  ExpectSameBitsNanAny(left, wx, "src after the call");
}

TEST(SoftMaxNanReplay, WithoutStatistics) {
  uint32_t seed = 300;
  for (const Shape& s :
       {Shape{8, 48, 48}, Shape{12, 192, 192}, Shape{3, 448, 448}, Shape{5, 608, 600}}) {
    CheckNanNoStats<float>(s, 0, seed++);
    CheckNanNoStats<float>(s, 2, seed++);
    CheckNanNoStats<Half>(s, 0, seed++);
  }
}

template <class T>
void CheckNanLogSoftMax(const Shape& s, uint32_t seed) {
  SCOPED_TRACE(Name(s) + " seed " + std::to_string(seed));
  const auto x = NanInputs<T>(seed, s);
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
  ExpectNanOutputs(y, wy, sum, wsum, max, wmax);
}

TEST(LogSoftMaxNanReplay, FollowsTheKitsMaxOrder) {
  uint32_t seed = 500;
  for (const Shape& s : {Shape{8, 8, 8}, Shape{8, 24, 20}, Shape{9, 72, 72}, Shape{6, 600, 600},
                         Shape{4, 1032, 1030}}) {
    CheckNanLogSoftMax<float>(s, seed++);
  }
  for (const Shape& s : {Shape{8, 48, 40}, Shape{5, 528, 520}}) CheckNanLogSoftMax<Half>(s, seed++);
}

}  // namespace
