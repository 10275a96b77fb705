// SoftmaxFlashV3 on the 950 (dav-3510) against the replay of regbase/3510/softmax_flashv3_impl.h
// (replay_softmax_3510.h; that part is sfx4's reading): the register code takes srcM and srcK
// from the tiling, not from the params (a tiling made for another shape: other rows, another row
// stride); splitMeanCnt other than 8 (the kernel check asserts 8, so checked mode refuses it;
// unchecked the shifts are read at row * splitMeanCnt, another row's); and the statistics' order
// in memory when outputs alias inputs (inMax read after the mean is stored, inExpSum after max).
// Every statistic region, dst and expMax compared bit for bit.
#include "replay_softmax_3510.h"

#include "../aicore/checked_mode_scope.h"
#include "../aicore/sanitizer_off.h"
#include "softmax_replay_util.h"

namespace {

using namespace softmax_replay_test;  // NOLINT(build/namespaces)
namespace r3510 = lngrad_replay::r3510;

using CheckedScope = lngrad::aicore::test::CheckedModeScope;

constexpr uint32_t kStatFloats = 1024;  // one statistics region of buffer 2
constexpr uint32_t kEmAt = kUbBufBytes / 4;

// Which region of buffer 2 each statistic uses (equal: aliased): mean, expSum, max, inMean,
// inExpSum, inMax.
struct Regions {
  int mean = 0, expSum = 1, max = 2, inMean = 3, inExpSum = 4, inMax = 5;
};

struct V3Call {
  Shape data;                      // the params (srcM, srcK = oriSrcM, oriSrcK) and src's size
  uint32_t tilingM, tilingK;       // the shape the tiling is made for
  uint32_t splitMeanCnt, loopCnt;  // params
  bool update;
  Regions r;
};

// expMax rows compared: those of the params and of the tiling, whichever more.
uint32_t EmRows(const V3Call& c) { return std::max(c.data.m, c.tilingM); }

struct V3Out {
  std::vector<Half> y, em;
  std::vector<float> st;
  std::string check;
};

V3Out RunV3(const V3Call& c, const std::vector<Half>& x, const std::vector<float>& st0) {
  SoftMaxTiling t;
  AscendC::SoftMaxFlashV3TilingFunc(ge::Shape({c.tilingM, c.tilingK}), 2, 4, kUbBufBytes / 2, t,
                                    c.update);
  const AscendC::SoftMaxParams p{c.data.m,  c.data.k,       c.data.m, c.data.k,
                                 c.loopCnt, c.splitMeanCnt, 0.9375f};
  V3Out o;
  const auto r = lngrad::aicore::test::CheckOf(
      [&](Ub& ub) {
        Put(ub, 0, x);
        Put(ub, 1, Sentinel<Half>(x.size()));
        Put(ub, 2, st0);
        auto f = ub.Get<float>(2);
        const auto at = [&](int region) { return f[region * kStatFloats]; };
        auto tmp = ub.Get<uint8_t>(3);
        tmp.SetSize(kUbBufBytes / 2);
        const Regions& g = c.r;
        auto src = ub.Get<half>(0), dst = ub.Get<half>(1);
        src.SetSize(c.data.m * c.data.k);
        dst.SetSize(c.data.m * c.data.k);
        if (c.update) {
          AscendC::SoftmaxFlashV3<half, float, true>(dst, at(g.mean), at(g.expSum), at(g.max), src,
                                                     ub.Get<half>(3)[kEmAt], at(g.inMean),
                                                     at(g.inExpSum), at(g.inMax), tmp, t, p);
        } else {
          AscendC::SoftmaxFlashV3<half, float, false>(dst, at(g.mean), at(g.expSum), at(g.max), src,
                                                      ub.Get<half>(3)[kEmAt], at(g.inMean),
                                                      at(g.inExpSum), at(g.inMax), tmp, t, p);
        }
        o.y = Take<Half>(ub, 1, x.size());
        o.st = Take<float>(ub, 2, st0.size());
        o.em = Take<Half>(ub, 3, EmRows(c) * 16, kEmAt);
      },
      k950);
  o.check = r.first;
  return o;
}

void CheckV3(const V3Call& c, uint32_t seed) {
  SCOPED_TRACE(Name(c.data) + " tiling " + std::to_string(c.tilingM) + "x" +
               std::to_string(c.tilingK) + " splitMeanCnt " + std::to_string(c.splitMeanCnt) +
               " update " + std::to_string(c.update) + " seed " + std::to_string(seed));
  // Finite inputs (Inputs' -inf would make G, every shift and so every output NaN).
  const auto x = Uniform<Half>(seed, c.data.m * c.data.k, -3.0f, 9.0f);
  const auto st0 = Uniform<float>(seed + 1, 6 * kStatFloats, 0.5f, 9.0f);
  const V3Out o = RunV3(c, x, st0);
  ASSERT_EQ(o.check, "");
  std::vector<Half> wy = Sentinel<Half>(x.size()), wem(EmRows(c) * 16);
  std::vector<float> w = st0;
  const auto at = [&](int region) { return w.data() + region * kStatFloats; };
  const Regions& g = c.r;
  const lngrad_replay::FlashV3Stats io{at(g.mean),   at(g.expSum),   at(g.max),
                                       at(g.inMean), at(g.inExpSum), at(g.inMax)};
  r3510::SoftmaxFlashV3(c.tilingM, c.tilingK, c.splitMeanCnt, c.loopCnt, 0.9375f, c.update,
                        x.data(), wy.data(), wem.data(), io);
  ExpectSameBits(o.y, wy, "dst");
  ExpectSameBits(o.st, w, "statistics");
  if (c.update) ExpectSameBits(o.em, wem, "expMax");
}

// Process reads srcM and srcK from the tiling: a tiling for 8 x 512 on 16 x 640 data computes 8
// rows of 512 at a stride of 512 (the rest of dst keeps its contents); 16 x 512 on 8 x 1024
// splits the rows in two. The kernel check asserts nothing on the tiling; checked mode refuses a
// tiling of other rows than the call's (RefuseRegV3Rows, session 25:
// adv.SoftMaxDefectApi.SoftmaxFlashV3TilingOfFewerRowsIsRefused), so these run unchecked.
TEST(SoftmaxFlashV33510Replay, TakesSrcMAndSrcKFromTheTiling) {
  const CheckedScope unchecked(false);
  uint32_t seed = 4400;
  for (const bool update : {false, true}) {
    CheckV3({{16, 640, 640}, 8, 512, 8, 2, update, {}}, seed++);
    CheckV3({{8, 1024, 1024}, 16, 512, 8, 3, update, {}}, seed++);
    CheckV3({{8, 1024, 1024}, 8, 640, 8, 2, update, {}}, seed++);
  }
}

// A tiling for more elements than srcTensor holds: checked mode names the overrun.
TEST(SoftmaxFlashV33510Replay, CheckedModeNamesATilingPastTheTensors) {
  const V3Call c{{8, 512, 512}, 8, 1024, 8, 2, true, {}};
  const V3Out o = RunV3(c, Inputs<Half>(4420, c.data), std::vector<float>(6 * kStatFloats, 1.0f));
  EXPECT_EQ(o.check, "tensor_bounds");
}

// splitMeanCnt other than 8, unchecked (the kernel check asserts 8): segments of srcK /
// splitMeanCnt columns, each shifted by workUb[row * splitMeanCnt + j]: for counts below 8 part of
// another row's shifts, above 8 the next rows' and past srcM * 8 phase 2's sums; the chunks from
// splitMeanCnt on added to the first eight's block sums.
TEST(SoftmaxFlashV33510Replay, SplitMeanCntOtherThan8Unchecked) {
  const CheckedScope unchecked(false);
  uint32_t seed = 4440;
  const struct {
    Shape s;
    uint32_t smc;
  } cases[] = {{{8, 512, 512}, 4},     {{8, 512, 512}, 2},    {{8, 512, 512}, 1},
               {{16, 1024, 1024}, 16}, {{8, 640, 640}, 5},    {{8, 640, 640}, 10},
               {{8, 2048, 2048}, 32},  {{8, 2048, 2048}, 16}, {{8, 640, 640}, 4}};
  for (const auto& k : cases) {
    for (const bool update : {false, true}) {
      CheckV3({k.s, k.s.m, k.s.k, k.smc, 3, update, {}}, seed++);
    }
  }
}

// The update's order in memory, row by row after every row's mean and shifts: inMean read, the
// mean stored, then inMax read (mean on inMax: the new mean), max stored, then inExpSum read (max
// on inExpSum); the toolkit sample's in-place statistics; expSum read back after dst.
TEST(SoftmaxFlashV33510Replay, InMaxIsReadAfterTheMeanIsStored) {
  uint32_t seed = 4480;
  const Regions cases[] = {
      {0, 1, 2, 3, 4, 0}, {0, 1, 2, 3, 2, 5}, {0, 1, 2, 0, 1, 2}, {0, 1, 2, 2, 0, 1}};
  for (const Regions& r : cases) {
    CheckV3({{8, 512, 512}, 8, 512, 8, 2, true, r}, seed++);
    CheckV3({{16, 640, 640}, 16, 640, 8, 4, true, r}, seed++);
  }
}

}  // namespace
