// The basic-block paths of SoftmaxFlash (isUpdate with isBasicBlock) and of SoftmaxFlashV2's M1
// mode (SOFTMAX_OUTPUT_WITHOUT_BRC with isBasicBlock) through lngrad's Ascend C API on the 910B
// (dav-2201), compared bit for bit with replay_softmax_basic.cpp (a separate reading of the
// toolkit's basic-block sources): every output, src included (the float forms write there),
// statistics that differ lane by lane, updated in place or from a separate inExpSum (which the
// float forms overwrite), splits with a tail, and oriSrcK below srcK (the basic-block code
// reduces every srcK column; the padding columns hold values above the row's own max).
#include "softmax_flashv2_basic_rows8.h"
#include "softmax_replay_util.h"

#include "../aicore/checked_mode_scope.h"
#include "../aicore/sanitizer_off.h"

namespace {

using namespace softmax_replay_test;  // NOLINT(build/namespaces)

constexpr AscendC::SoftmaxConfig kNoBrc = {true, 0, 0,
                                           AscendC::SoftmaxMode::SOFTMAX_OUTPUT_WITHOUT_BRC};

template <class T>
constexpr uint32_t kEmAt = kUbBufBytes / 2 / sizeof(T);
template <class S>
constexpr uint32_t kInSumAt = kUbBufBytes / 4 / sizeof(S);

// Every operand of a flash call: src, dst, sum and max (= inMax), expMax, and inSum (empty:
// sum is inSum).
template <class T, class S>
struct Operands {
  std::vector<T> src, dst, em;
  std::vector<S> sum, max, inSum;

  lngrad_replay::FlashIo<T, S> Io() {
    S* in = inSum.empty() ? sum.data() : inSum.data();
    return {src.data(), dst.data(), sum.data(), max.data(), em.data(), in, max.data()};
  }
  void Expect(const Operands& want) const {
    ExpectSameBits(src, want.src, "src");
    ExpectSameBits(dst, want.dst, "dst");
    ExpectSameBits(sum, want.sum, "sum");
    ExpectSameBits(max, want.max, "max");
    ExpectSameBits(em, want.em, "expMax");
    ExpectSameBits(inSum, want.inSum, "inSum");
  }
};

// Seeded operands: src with -inf and ties, dst and expMax sentinels, statistics of `lanes`
// values per row, each its own; separateInSum: an inSum of its own (sum starts as sentinels).
template <class T, class S>
Operands<T, S> Seeded(const Shape& s, uint32_t lanes, uint32_t emPerRow, uint32_t seed,
                      bool separateInSum = false) {
  Operands<T, S> o{Inputs<T>(seed, s),
                   Sentinel<T>(s.m * s.k),
                   Sentinel<T>(s.m * emPerRow),
                   Stats<S>(seed + 1, s.m, lanes, 0.5f, 300.0f, true),
                   Stats<S>(seed + 2, s.m, lanes, -2.0f, 9.0f, true),
                   {}};
  if (separateInSum) {
    o.inSum = o.sum;
    o.sum = Sentinel<S>(o.sum.size());
  }
  return o;
}

// launch(FlashTensors, inSum tensor) on buffers holding in; returns every operand after.
template <class T, class S, class Launch>
Operands<T, S> RunFlash(const Operands<T, S>& in, Launch launch, const char* soc = k910B) {
  Operands<T, S> out;
  OnBlock(
      [&](Ub& ub) {
        Put(ub, 0, in.src);
        Put(ub, 1, in.dst);
        Put(ub, 2, in.sum);
        Put(ub, 2, in.max, kMaxAt<S>);
        Put(ub, 2, in.inSum, kInSumAt<S>);
        Put(ub, 3, in.em, kEmAt<T>);
        const FlashTensors<T, S> f(ub);
        launch(f, in.inSum.empty() ? f.sum : ub.Get<Dev<S>>(2)[kInSumAt<S>]);
        out = {Take<T>(ub, 0, in.src.size()),
               Take<T>(ub, 1, in.dst.size()),
               Take<T>(ub, 3, in.em.size(), kEmAt<T>),
               Take<S>(ub, 2, in.sum.size()),
               Take<S>(ub, 2, in.max.size(), kMaxAt<S>),
               Take<S>(ub, 2, in.inSum.size(), kInSumAt<S>)};
      },
      soc);
  return out;
}

// SoftmaxFlash<isBasicBlock> with isUpdate on the host's SoftMaxFlashTilingFunc (dataTypeSize =
// the statistics' size); a tail split: half/half data the generic replay, float data nothing.
template <class T, class S>
void CheckFlashBasic(const Shape& s, uint32_t splitRows, uint32_t seed) {
  SCOPED_TRACE(Name(s) + " splitRows " + std::to_string(splitRows));
  const ge::Shape shape({s.m, s.k});
  uint32_t budget = AscendC::GetSoftMaxFlashMaxTmpSize(shape, sizeof(S), true, false);
  if (splitRows != 0) {
    budget =
        AscendC::GetSoftMaxFlashMinTmpSize(ge::Shape({1, s.k}), sizeof(S), true, false) * splitRows;
  }
  SoftMaxTiling t;
  AscendC::SoftMaxFlashTilingFunc(shape, sizeof(S), std::min(budget, kUbBufBytes / 2), t, true);
  const Operands<T, S> in = Seeded<T, S>(s, t.reduceK, 32 / sizeof(T), seed);
  const Operands<T, S> got = RunFlash(in, [&](const FlashTensors<T, S>& f, const auto&) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    AscendC::SoftmaxFlash<Dev<T>, false, true>(f.dst, f.sum, f.max, f.src, f.em, f.sum, f.max,
                                               f.tmp, t, true, {s.m, s.k, s.m, s.oriK});
#pragma GCC diagnostic pop
  });
  Operands<T, S> want = in;
  const SmxTiling mt = Mirror(t);
  lngrad_replay::ReplaySoftmaxFlashBasic<T, S>(mt, want.Io());
  if constexpr (std::is_same_v<T, Half> && std::is_same_v<S, Half>) {
    if (t.tailM != 0) {
      SmxTiling tail = mt;
      tail.rangeM = 0;
      const uint32_t o1 = mt.rangeM * mt.splitSize, o2 = mt.rangeM * mt.reduceSize;
      lngrad_replay::ReplaySoftmaxFlash<Half>(
          tail, s.oriK, true, want.src.data() + o1, want.dst.data() + o1, want.sum.data() + o2,
          want.max.data() + o2, want.em.data() + o2, want.sum.data() + o2, want.max.data() + o2);
    }
  } else {
    const bool replayed = std::is_same_v<T, float> || t.tailM == 0;
    ASSERT_TRUE(replayed) << "no half/float tail replay";
  }
  got.Expect(want);
}

// A tiling made for another shape: the kernel re-tiles (SoftMaxFlashTilingFunc, sfx6's reading:
// SmxFlashBasicRows) and the basic-block update runs its rangeM full splits; a scratch of 5 rows
// for [24, 64] float leaves rows 20 .. 23 (float: src keeps them), half/half takes the generic
// tail. Both modes (no refusal there).
template <class T>
void CheckFlashBasicReTile(const Shape& s, uint32_t tmpBytes, bool checked, uint32_t seed) {
  SCOPED_TRACE(Name(s) + " tmp " + std::to_string(tmpBytes) + " checked " +
               std::to_string(checked));
  lngrad::aicore::test::CheckedModeScope mode(checked);
  const ge::Shape other({s.m + 8, s.k});
  SoftMaxTiling t;
  AscendC::SoftMaxFlashTilingFunc(other, sizeof(T), kUbBufBytes / 2, t, true);
  const Operands<T, T> in = Seeded<T, T>(s, 32 / sizeof(T), 32 / sizeof(T), seed);
  const Operands<T, T> got = RunFlash(in, [&](const FlashTensors<T, T>& f, const auto&) {
    AscendC::LocalTensor<uint8_t> tmp = f.tmp;
    tmp.SetSize(tmpBytes);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    AscendC::SoftmaxFlash<Dev<T>, false, true>(f.dst, f.sum, f.max, f.src, f.em, f.sum, f.max, tmp,
                                               t, true, {s.m, s.k, s.m, s.oriK});
#pragma GCC diagnostic pop
  });
  const uint32_t blk = 32 / sizeof(T),
                 m = lngrad_replay::SmxFlashBasicRows(tmpBytes / 4, s.m, s.k, blk);
  SmxTiling kt = Mirror(t);
  kt.srcM = s.m;
  kt.srcK = kt.splitK = s.k;
  kt.splitM = kt.reduceM = m;
  kt.reduceK = blk;
  kt.splitSize = m * s.k;
  kt.reduceSize = m * blk;
  kt.rangeM = s.m / m;
  kt.tailM = s.m % m;
  ASSERT_NE(kt.tailM, 0u);
  Operands<T, T> want = in;
  lngrad_replay::ReplaySoftmaxFlashBasic<T, T>(kt, want.Io());
  if constexpr (std::is_same_v<T, Half>) {
    SmxTiling tail = kt;
    tail.rangeM = 0;
    tail.splitM = kt.tailM;
    const uint32_t o1 = kt.rangeM * kt.splitSize, o2 = kt.rangeM * kt.reduceSize;
    lngrad_replay::ReplaySoftmaxFlash<Half>(
        tail, s.oriK, true, want.src.data() + o1, want.dst.data() + o1, want.sum.data() + o2,
        want.max.data() + o2, want.em.data() + o2, want.sum.data() + o2, want.max.data() + o2);
  }
  got.Expect(want);
}

TEST(SoftmaxFlashBasicReplay, OtherShapesTilingIsReTiled) {
  for (const bool checked : {false, true}) {
    CheckFlashBasicReTile<float>({24, 64, 64}, 5 * (32 + 128) * 4, checked, 6300);
    CheckFlashBasicReTile<Half>({16, 128, 128}, 3 * (64 + 256) * 4, checked, 6301);
  }
}

TEST(SoftmaxFlashBasicReplay, UpdateMatchesBitForBit) {
  CheckFlashBasic<float, float>({8, 64, 64}, 0, 1300);
  CheckFlashBasic<float, float>({16, 256, 256}, 0, 1301);
  CheckFlashBasic<float, float>({8, 640, 640}, 0, 1302);
  CheckFlashBasic<float, float>({20, 128, 128}, 8, 1303);  // a tail split of 4 rows
  CheckFlashBasic<Half, Half>({8, 128, 128}, 0, 1304);
  CheckFlashBasic<Half, Half>({16, 576, 576}, 0, 1305);
  CheckFlashBasic<Half, Half>({24, 256, 256}, 16, 1306);  // a tail split of 8 rows
  CheckFlashBasic<Half, float>({8, 512, 512}, 0, 1307);
  CheckFlashBasic<Half, float>({16, 192, 192}, 0, 1308);
}

// oriSrcK below srcK: the row max, the sums and the stores cover every srcK column.
TEST(SoftmaxFlashBasicReplay, PaddingColumnsTakePart) {
  CheckFlashBasic<float, float>({8, 128, 100}, 0, 1320);
  CheckFlashBasic<float, float>({16, 640, 577}, 0, 1321);
  CheckFlashBasic<Half, Half>({8, 256, 250}, 0, 1322);
  CheckFlashBasic<Half, Half>({24, 256, 129}, 16, 1323);  // the tail split: oriSrcK
  CheckFlashBasic<Half, float>({8, 512, 300}, 0, 1324);
}

// Without update the toolkit runs SoftMaxNDImpl's generic order whatever isBasicBlock says: for
// k >= 512 the BigBlockReduceSum start, not the basic chunk fold.
TEST(SoftmaxFlashBasicReplay, NoUpdateKeepsTheGenericOrder) {
  for (const uint32_t k : {640u, 1024u}) {
    const Shape s{8, k, k};
    const SoftMaxTiling t = HostTiling(s, 4, 0);
    const Operands<float, float> in = Seeded<float, float>(s, 8, 8, 1310 + k);
    const Operands<float, float> got =
        RunFlash(in, [&](const FlashTensors<float, float>& f, const auto&) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
          AscendC::SoftmaxFlash<float, false, true>(f.dst, f.sum, f.max, f.src, f.em, f.sum, f.max,
                                                    f.tmp, t, false, {s.m, s.k, s.m, s.k});
#pragma GCC diagnostic pop
        });
    Operands<float, float> want = in;
    lngrad_replay::ReplaySoftMax(Mirror(t), s.k, in.src.data(), want.dst.data(), want.sum.data(),
                                 want.max.data());
    got.Expect(want);
  }
}

// SoftmaxFlashV2<isUpdate, isBasicBlock> on the host's SoftMaxFlashV2TilingFunc (basicTiling:
// with isBasicBlock; else a generic tiling of splitRows rows, which leaves a tail split the basic
// path does not compute). m1: SOFTMAX_OUTPUT_WITHOUT_BRC (one statistic per row), else the
// broadcast mode. separateInSum: inExpSum apart from expSum (else in place).
template <bool m1>
constexpr const AscendC::SoftmaxConfig& ModeOf() {
  if constexpr (m1) {
    return kNoBrc;
  } else {
    return AscendC::SOFTMAX_DEFAULT_CFG;
  }
}

struct V2Case {
  Shape s;
  uint32_t splitRows;
  bool separateInSum;
};

template <class T, class S, bool m1>
void CheckV2Basic(const V2Case& c, bool update, uint32_t seed) {
  const Shape& s = c.s;
  SCOPED_TRACE(Name(s) + " splitRows " + std::to_string(c.splitRows) + " update " +
               std::to_string(update) + " separateInSum " + std::to_string(c.separateInSum));
  const ge::Shape shape({s.m, s.k});
  uint32_t budget = AscendC::GetSoftMaxFlashV2MaxTmpSize(shape, sizeof(T), sizeof(S), update);
  if (c.splitRows != 0) {
    budget =
        AscendC::GetSoftMaxFlashV2MinTmpSize(ge::Shape({1, s.k}), sizeof(T), sizeof(S), update) *
        c.splitRows;
  }
  SoftMaxTiling t;
  AscendC::SoftMaxFlashV2TilingFunc(shape, sizeof(T), sizeof(S), std::min(budget, kUbBufBytes / 2),
                                    t, update, c.splitRows == 0);
  // K = 1024 in splits other than 8 rows: the kit's reductions cover 8 rows, past the split
  // (softmax_device_defect in checked mode); the rows of splits below 8 are right: unchecked.
  // Splits not a multiple of 8 rows of other widths (session 24: [8, 768] half data in 6)
  // likewise; half data too since session 25 (softmax_flashv2_basic_rows8.h, a seeded buffer).
  const bool k1024 = !m1 && s.k == 1024 && t.rangeM != 0 && t.splitM != 8;
  const bool rows8 = !m1 && !k1024 && t.rangeM != 0 && t.splitM % 8 != 0, defect = k1024 || rows8;
  if (rows8)
    ExpectV2BasicRowsRefused<T, S, AscendC::SOFTMAX_DEFAULT_CFG>(s, update, t, kUbBufBytes / 2);
  const lngrad::aicore::test::CheckedModeScope mode(lngrad::aicore::CheckedMode() && !defect);
  const uint32_t lanes = m1 ? 1 : 32 / sizeof(S), emLanes = m1 ? 1 : 32 / sizeof(T);
  const Operands<T, S> in = Seeded<T, S>(s, lanes, emLanes, seed, c.separateInSum);
  const AscendC::SoftMaxShapeInfo si{s.m, s.k, s.m, s.oriK};
  constexpr const AscendC::SoftmaxConfig& kCfg = ModeOf<m1>();
  const std::vector<float> scratch = rows8 && !std::is_same_v<T, float>
                                         ? Uniform<float>(seed + 7, kUbBufBytes / 8, -3.0f, 3.0f)
                                         : std::vector<float>{};
  const Operands<T, S> got = RunFlash(in, [&](const FlashTensors<T, S>& f, const auto& inSum) {
    AscendC::LocalTensor<uint8_t> tmp = f.tmp;
    if (!scratch.empty()) std::memcpy(tmp.HostPtr(), scratch.data(), scratch.size() * 4);
    if (update) {
      AscendC::SoftmaxFlashV2<Dev<T>, true, false, true, false, kCfg>(
          f.dst, f.sum, f.max, f.src, f.em, inSum, f.max, f.tmp, t, si);
    } else {
      AscendC::SoftmaxFlashV2<Dev<T>, false, false, true, false, kCfg>(
          f.dst, f.sum, f.max, f.src, f.em, inSum, f.max, f.tmp, t, si);
    }
  });
  if (c.splitRows != 0) {
    EXPECT_NE(t.tailM, 0u) << "the shape should leave a tail split";
  }
  Operands<T, S> want = in;
  if constexpr (m1) {
    lngrad_replay::ReplayFlashV2M1Basic<T, S>(Mirror(t), update, want.Io());
  } else {
    if (!scratch.empty() && ExpectV2BasicRowsAsTheDevice(Mirror(t), update, in, scratch, got))
      return;
    lngrad_replay::ReplayFlashV2Basic<T, S>(Mirror(t), update, want.Io());
  }
  got.Expect(want);
}

// SoftmaxFlashV2 with a constant-shape config (oriSrcM, oriSrcK) in the broadcast mode on 2201
// (sfxc's reading of softmax_flashv2_common_impl.h: the config's shape test takes
// SoftmaxFlashV2BasicBlockImpl / SoftmaxFlashV2NoUpdateBasicBlock whatever isBasicBlock, else the
// generic path with config.oriSrcK reduced): isBasicBlock false, against the basic-block replay
// or the generic replay with the config's K.
constexpr AscendC::SoftmaxConfig kV2Cfg8x128{true, 8, 128};
constexpr AscendC::SoftmaxConfig kV2Cfg4x128{true, 4, 128};
constexpr AscendC::SoftmaxConfig kV2Cfg8x36{true, 8, 36};
constexpr AscendC::SoftmaxConfig kV2Cfg8x44{true, 8, 44};

template <class T, class S, const AscendC::SoftmaxConfig& cfg>
void CheckV2Config(const Shape& s, bool update, uint32_t seed) {
  SCOPED_TRACE(Name(s) + " cfg " + std::to_string(cfg.oriSrcM) + "x" + std::to_string(cfg.oriSrcK) +
               " update " + std::to_string(update));
  const ge::Shape shape({s.m, s.k});
  SoftMaxTiling t;
  AscendC::SoftMaxFlashV2TilingFunc(
      shape, sizeof(T), sizeof(S),
      std::min(AscendC::GetSoftMaxFlashV2MaxTmpSize(shape, sizeof(T), sizeof(S), update),
               kUbBufBytes / 2),
      t, update, false);
  const Operands<T, S> in = Seeded<T, S>(s, 32 / sizeof(S), 32 / sizeof(T), seed, false);
  const AscendC::SoftMaxShapeInfo si{s.m, s.k, s.m, s.oriK};
  const Operands<T, S> got = RunFlash(in, [&](const FlashTensors<T, S>& f, const auto& inSum) {
    if (update) {
      AscendC::SoftmaxFlashV2<Dev<T>, true, false, false, false, cfg>(
          f.dst, f.sum, f.max, f.src, f.em, inSum, f.max, f.tmp, t, si);
    } else {
      AscendC::SoftmaxFlashV2<Dev<T>, false, false, false, false, cfg>(
          f.dst, f.sum, f.max, f.src, f.em, inSum, f.max, f.tmp, t, si);
    }
  });
  Operands<T, S> want = in;
  if (cfg.oriSrcK % 64 == 0 && cfg.oriSrcM % 8 == 0) {
    lngrad_replay::ReplayFlashV2Basic<T, S>(Mirror(t), update, want.Io());
  } else {
    lngrad_replay::ReplaySoftmaxFlashV2<T, S>(Mirror(t), cfg.oriSrcK, update, want.src.data(),
                                              want.dst.data(), want.sum.data(), want.max.data(),
                                              want.em.data(), want.sum.data(), want.max.data());
  }
  got.Expect(want);
}

TEST(SoftmaxFlashV2ConfigReplay, ConfigShapeChoosesThePath) {
  uint32_t seed = 5500;
  for (const bool update : {false, true}) {
    CheckV2Config<float, float, kV2Cfg8x128>({8, 128, 100}, update, seed++);
    CheckV2Config<Half, Half, kV2Cfg8x128>({8, 128, 97}, update, seed++);
    CheckV2Config<Half, float, kV2Cfg8x128>({8, 128, 128}, update, seed++);
    CheckV2Config<float, float, kV2Cfg4x128>({8, 128, 100}, update, seed++);
    CheckV2Config<Half, float, kV2Cfg4x128>({8, 128, 128}, update, seed++);
    CheckV2Config<float, float, kV2Cfg8x36>({8, 40, 40}, update, seed++);
    CheckV2Config<Half, float, kV2Cfg8x44>({8, 48, 40}, update, seed++);
    CheckV2Config<Half, Half, kV2Cfg8x44>({8, 48, 48}, update, seed++);
  }
}

// ---- SoftmaxFlashV2's config with splitK below srcK, its 2002 runs and the kernel's re-tile
// (sfx6's reading, ReplaySoftmaxFlashV2Config in replay_softmax_cfg.cpp): expSum = inExpSum, max
// = inMax, tmp bytes of scratch.
constexpr const char* k310P = "Ascend310P1";
constexpr AscendC::SoftmaxConfig kV2Cfg8x20{true, 8, 20};
constexpr AscendC::SoftmaxConfig kV2Cfg8x24{true, 8, 24};
constexpr AscendC::SoftmaxConfig kV2Cfg8x81{true, 8, 81};

template <class T, class S, const AscendC::SoftmaxConfig& cfg, bool basic = false>
Operands<T, S> RunV2(const Operands<T, S>& in, const Shape& s, bool update, const SoftMaxTiling& t,
                     uint32_t tmpBytes, const char* soc, const std::vector<float>& scratch = {}) {
  const AscendC::SoftMaxShapeInfo si{s.m, s.k, s.m, s.oriK};
  return RunFlash(
      in,
      [&](const FlashTensors<T, S>& f, const auto& inSum) {
        AscendC::LocalTensor<uint8_t> tmp = f.tmp;
        tmp.SetSize(tmpBytes);
        if (!scratch.empty()) std::memcpy(tmp.HostPtr(), scratch.data(), scratch.size() * 4);
        if (update) {
          AscendC::SoftmaxFlashV2<Dev<T>, true, false, basic, false, cfg>(
              f.dst, f.sum, f.max, f.src, f.em, inSum, f.max, tmp, t, si);
        } else {
          AscendC::SoftmaxFlashV2<Dev<T>, false, false, basic, false, cfg>(
              f.dst, f.sum, f.max, f.src, f.em, inSum, f.max, tmp, t, si);
        }
      },
      soc);
}

// The host SoftMaxFlashV2TilingFunc for s with `rows` rows' minimum scratch (0: the maximum).
template <class T, class S>
SoftMaxTiling V2Tiling(const Shape& s, bool update, uint32_t rows) {
  const ge::Shape shape({s.m, s.k});
  uint32_t budget = AscendC::GetSoftMaxFlashV2MaxTmpSize(shape, sizeof(T), sizeof(S), update);
  if (rows != 0) {
    budget =
        AscendC::GetSoftMaxFlashV2MinTmpSize(ge::Shape({1, s.k}), sizeof(T), sizeof(S), update) *
        rows;
  }
  SoftMaxTiling t;
  AscendC::SoftMaxFlashV2TilingFunc(shape, sizeof(T), sizeof(S), std::min(budget, kUbBufBytes / 2),
                                    t, update, false);
  return t;
}

// Unchecked, the tiling made for s (rows: its scratch) against the config replay.
template <class T, class S, const AscendC::SoftmaxConfig& cfg>
void CheckV2Splits(const Shape& s, bool update, uint32_t rows, const char* soc, uint32_t seed) {
  SCOPED_TRACE(Name(s) + " cfg K " + std::to_string(cfg.oriSrcK) + " update " +
               std::to_string(update) + " rows " + std::to_string(rows) + " " + soc);
  lngrad::aicore::test::CheckedModeScope unchecked(false);
  const SoftMaxTiling t = V2Tiling<T, S>(s, update, rows);
  const Operands<T, S> in = Seeded<T, S>(s, 32 / sizeof(S), 32 / sizeof(T), seed, false);
  const Operands<T, S> got = RunV2<T, S, cfg>(in, s, update, t, kUbBufBytes / 2, soc);
  Operands<T, S> want = in;
  lngrad_replay::ReplaySoftmaxFlashV2Config<T, S>(Mirror(t), cfg.oriSrcK,
                                                  {update, std::string(soc) == k310P}, want.Io());
  got.Expect(want);
}

// splitK (the config's K rounded up to 8) below srcK: row i of a split is reduced from the
// values at i * splitK (rows before it), the Sub at its own columns; unchecked lngrad follows it.
TEST(SoftmaxFlashV2ConfigReplay, SplitKBelowSrcKUnchecked) {
  uint32_t seed = 5600;
  for (const bool update : {false, true}) {
    for (const uint32_t rows : {0u, 3u, 5u}) {
      CheckV2Splits<float, float, kV2Cfg8x20>({10, 32, 20}, update, rows, k910B, seed++);
      CheckV2Splits<Half, Half, kV2Cfg8x24>({8, 32, 24}, update, rows, k910B, seed++);
      CheckV2Splits<Half, float, kV2Cfg8x24>({13, 32, 24}, update, rows, k910B, seed++);
      CheckV2Splits<Half, Half, kV2Cfg8x81>({9, 96, 81}, update, rows, k910B, seed++);
    }
  }
}

TEST(SoftmaxFlashV2ConfigReplay, CheckedModeNamesSplitKBelowSrcK) {
  const SoftMaxTiling t = V2Tiling<Half, Half>({8, 48, 36}, true, 0);
  const auto r = lngrad::aicore::test::CheckOf(
      [&](Ub& ub) {
        const FlashTensors<Half, Half> f(ub);
        AscendC::SoftmaxFlashV2<half, true, false, false, false, kV2Cfg8x36>(
            f.dst, f.sum, f.max, f.src, f.em, f.sum, f.max, f.tmp, t, {8, 48, 8, 36});
      },
      k910B);
  EXPECT_EQ(r.first, "softmax_device_defect") << r.second;  // the family's check (session 22)
  EXPECT_NE(r.second.find("splitK = 40"), std::string::npos) << r.second;
}

// splitK above srcK: the reductions read past the split (half data: float scratch), not
// modelled: refused in any mode.
TEST(SoftmaxFlashV2ConfigReplay, SplitKAboveSrcKIsRefused) {
  lngrad::aicore::test::CheckedModeScope unchecked(false);
  const SoftMaxTiling t = V2Tiling<Half, Half>({8, 32, 32}, true, 0);
  const auto r = lngrad::aicore::test::CheckOf(
      [&](Ub& ub) {
        const FlashTensors<Half, Half> f(ub);
        AscendC::SoftmaxFlashV2<half, true, false, false, false, kV2Cfg8x36>(
            f.dst, f.sum, f.max, f.src, f.em, f.sum, f.max, f.tmp, t, {8, 32, 8, 32});
      },
      k910B);
  EXPECT_EQ(r.first, "invalid_count") << r.second;
  EXPECT_NE(r.second.find("past srcK = 32"), std::string::npos) << r.second;
}

// dav-2002 (membase/v200 includes the same common files): the config's generic path (splitK
// equal to and below srcK) with nearest-even half results and the float update's Adds(max, 0);
// the basic shape (float) against the basic-block replay.
TEST(SoftmaxFlashV2ConfigReplay, Arch2002FollowsTheConfig) {
  uint32_t seed = 5700;
  for (const bool update : {false, true}) {
    CheckV2Splits<float, float, kV2Cfg8x36>({8, 40, 40}, update, 3, k310P, seed++);
    CheckV2Splits<Half, Half, kV2Cfg8x44>({8, 48, 48}, update, 0, k310P, seed++);
    CheckV2Splits<Half, float, kV2Cfg8x44>({8, 48, 40}, update, 5, k310P, seed++);
    CheckV2Splits<Half, Half, kV2Cfg8x24>({8, 32, 24}, update, 3, k310P, seed++);
    CheckV2Splits<float, float, kV2Cfg8x20>({10, 32, 20}, update, 0, k310P, seed++);
    CheckV2Splits<Half, float, kV2Cfg8x24>({13, 32, 24}, update, 5, k310P, seed++);
    const Shape s{8, 128, 100};
    const SoftMaxTiling t = V2Tiling<float, float>(s, update, 0);
    const Operands<float, float> in = Seeded<float, float>(s, 8, 8, seed++, false);
    const auto got = RunV2<float, float, kV2Cfg8x128>(in, s, update, t, kUbBufBytes / 2, k310P);
    Operands<float, float> want = in;
    lngrad_replay::ReplayFlashV2Basic<float, float>(Mirror(t), update, want.Io());
    got.Expect(want);
  }
}

// The 2002 float update stores max through Adds(.., 0): a row whose max is -0 (values <= -0,
// inMax negative) gets +0 there, -0 on 2201 (DataCopy); the default config, against the replay.
TEST(SoftmaxFlashV2ConfigReplay, Arch2002StoresAMinusZeroMaxAsPlusZero) {
  const Shape s{8, 16, 16};
  Operands<float, float> in = Seeded<float, float>(s, 8, 8, 5800, false);
  for (uint32_t i = 0; i < s.m * s.k; ++i) in.src[i] = i % 3 == 0 ? -0.0f : -1.0f - i % 5;
  for (float& v : in.max) v = -3.0f;
  const SoftMaxTiling t = V2Tiling<float, float>(s, true, 0);
  for (const char* soc : {k910B, k310P}) {
    const auto got =
        RunV2<float, float, AscendC::SOFTMAX_DEFAULT_CFG>(in, s, true, t, kUbBufBytes / 2, soc);
    Operands<float, float> want = in;
    lngrad_replay::ReplaySoftmaxFlashV2Config<float, float>(
        Mirror(t), s.k, {true, std::string(soc) == k310P}, want.Io());
    got.Expect(want);
    EXPECT_EQ(std::signbit(got.max[0]), std::string(soc) == k910B) << soc;
  }
}

// A tiling made for another shape: with config.isCheckTiling the kernel re-tiles
// (SoftMaxFlashV2TilingFuncImpl on the shape and the work buffer's floats) and runs that tiling:
// the config's splits (unchecked) and the basic-block path's rangeM full splits (a scratch of 5
// rows leaves rows 20 .. 23 of 24 uncomputed). Session 24 (bb2): those splits of 5 (float) and 3
// (half) rows are not a multiple of 8: refused in checked mode; unchecked, float data writes the
// last split's 8 rows of statistics (rows 20 .. 22 from the stale scratch floats) and, with
// update, the next split reads the max and sum rows its predecessor wrote (max is inMax, sum is
// inSum here): softmax_flashv2_basic_rows8.h (session 25: half data too, not its 3-row update).
template <class T, class S, const AscendC::SoftmaxConfig& cfg, bool basic>
void CheckV2ReTile(const Shape& s, bool update, uint32_t tmpBytes, bool checked, uint32_t seed) {
  SCOPED_TRACE(Name(s) + " update " + std::to_string(update) + " tmp " + std::to_string(tmpBytes) +
               " checked " + std::to_string(checked));
  const SoftMaxTiling other = V2Tiling<T, S>({s.m + 8, s.k, s.k}, update, 0);
  const lngrad_replay::SmxTiling t =
      lngrad_replay::SmxFlashV2Tiling(tmpBytes / 4, s.m, s.k, sizeof(T), sizeof(S), basic);
  if (basic && checked && t.splitM % 8 != 0) {
    return ExpectV2BasicRowsRefused<T, S, cfg>(s, update, other, tmpBytes);
  }
  lngrad::aicore::test::CheckedModeScope mode(checked);
  const Operands<T, S> in = Seeded<T, S>(s, 32 / sizeof(S), 32 / sizeof(T), seed, false);
  const std::vector<float> scratch =
      basic ? Uniform<float>(seed + 7, tmpBytes / 4, -3.0f, 3.0f) : std::vector<float>{};
  const Operands<T, S> got =
      RunV2<T, S, cfg, basic>(in, s, update, other, tmpBytes, k910B, scratch);
  Operands<T, S> want = in;
  if constexpr (basic) {
    ASSERT_NE(t.tailM, 0u);
    if (t.splitM % 8 != 0 && ExpectV2BasicRowsAsTheDevice(t, update, want, scratch, got)) return;
    lngrad_replay::ReplayFlashV2Basic<T, S>(t, update, want.Io());
  } else {
    ASSERT_GT(t.rangeM, 1u);
    lngrad_replay::ReplaySoftmaxFlashV2Config<T, S>(t, cfg.oriSrcK, {update, false}, want.Io());
  }
  got.Expect(want);
}

TEST(SoftmaxFlashV2ConfigReplay, OtherShapesTilingIsReTiled) {
  uint32_t seed = 5900;
  for (const bool update : {false, true}) {
    CheckV2ReTile<float, float, kV2Cfg8x20, false>({10, 32, 20}, update, 3 * 72 * 4, false, seed++);
    CheckV2ReTile<Half, Half, kV2Cfg8x24, false>({8, 32, 24}, update, 3 * 128 * 4, false, seed++);
    CheckV2ReTile<Half, float, kV2Cfg8x24, false>({13, 32, 24}, update, 5 * 112 * 4, false, seed++);
    for (const bool checked : {false, true}) {
      CheckV2ReTile<float, float, AscendC::SOFTMAX_DEFAULT_CFG, true>(
          {24, 64, 64}, update, (5 * 72 + 64) * 4, checked, seed++);  // the update's 64 M + 64
      CheckV2ReTile<Half, Half, AscendC::SOFTMAX_DEFAULT_CFG, true>({16, 128, 128}, update,
                                                                    3 * 208 * 4, checked, seed++);
    }
  }
}

// Every case without and with update, in both modes.
template <class T, class S>
void CheckV2BasicCases(std::initializer_list<V2Case> cases, uint32_t seed) {
  for (const bool update : {false, true}) {
    for (const V2Case& c : cases) {
      CheckV2Basic<T, S, true>(c, update, seed++);
      CheckV2Basic<T, S, false>(c, update, seed++);
    }
  }
}

TEST(SoftmaxFlashV2BasicReplay, MatchesBitForBit) {
  CheckV2BasicCases<float, float>({{{8, 64, 64}, 0, false},
                                   {{16, 256, 256}, 0, true},
                                   {{8, 512, 512}, 0, false},
                                   {{8, 640, 640}, 0, true},
                                   {{20, 128, 128}, 8, false}},
                                  1400);
  CheckV2BasicCases<Half, Half>(
      {{{8, 128, 128}, 0, true}, {{8, 512, 512}, 0, false}, {{24, 192, 192}, 16, false}}, 1420);
  CheckV2BasicCases<Half, float>(
      {{{16, 384, 384}, 0, true}, {{8, 768, 768}, 0, false}, {{20, 256, 256}, 8, true}}, 1440);
}

// oriSrcK below srcK: every srcK column takes part in the max, the sum and the stores.
TEST(SoftmaxFlashV2BasicReplay, PaddingColumnsTakePart) {
  CheckV2BasicCases<float, float>({{{8, 128, 100}, 0, false}, {{16, 640, 600}, 0, true}}, 1460);
  CheckV2BasicCases<Half, Half>({{{8, 256, 129}, 0, true}, {{24, 192, 130}, 16, false}}, 1470);
  CheckV2BasicCases<Half, float>({{{8, 1024, 1000}, 0, false}, {{8, 512, 65}, 0, true}}, 1480);
}

// ---- SimpleSoftMax with isBasicBlock and srcK not a multiple of 64, unchecked (checked mode
// refuses it: the kernel check asserts srcK % 64 == 0) — sfx4's reading of
// SimpleSoftMaxBasicBlock (replay_softmax_basic.cpp). dst starts as a sentinel (float data: the
// Exp runs over what the Sub did not write there); src, buffer 0, may be dst (inPlace).
template <class T, class S>
std::vector<T> CheckSimpleBasic(const Shape& s, uint32_t splitRows, bool inPlace, uint32_t seed) {
  SCOPED_TRACE(Name(s) + " splitRows " + std::to_string(splitRows) + " inPlace " +
               std::to_string(inPlace) + " seed " + std::to_string(seed));
  const bool was = lngrad::aicore::CheckedMode();
  lngrad::aicore::SetCheckedMode(false);
  const auto x = Uniform<T>(seed, s.m * s.k, -4.0f, 6.0f);
  const SoftMaxTiling t = HostTiling(s, sizeof(S), splitRows);
  const auto inMax = Stats<S>(seed + 1, s.m, t.reduceK, -2.0f, 5.0f, true);
  const auto inSum = Stats<S>(seed + 2, s.m, t.reduceK, 0.5f, 300.0f, true);
  const int out = inPlace ? 0 : 1;
  std::vector<T> y;
  OnBlock(
      [&](Ub& ub) {
        Put(ub, 0, x);
        Put(ub, 1, Sentinel<T>(x.size()));
        Put(ub, 2, inSum);
        Put(ub, 2, inMax, kMaxAt<S>);
        auto st = ub.Get<Dev<S>>(2);
        AscendC::SimpleSoftMax<Dev<T>, false, true>(ub.Get<Dev<T>>(out), st[0], st[kMaxAt<S>],
                                                    ub.Get<Dev<T>>(0), ub.Get<uint8_t>(3), t,
                                                    {s.m, s.k, s.m, s.k});
        y = Take<T>(ub, out, x.size());
      },
      k910B);
  lngrad::aicore::SetCheckedMode(was);
  std::vector<T> want = inPlace ? x : Sentinel<T>(x.size());
  lngrad_replay::ReplaySimpleSoftMaxBasic(Mirror(t), x.data(), inSum.data(), inMax.data(),
                                          want.data());
  ExpectSameBits(y, want, "dst");
  return y;
}

// The Sub and Div step 64 * (srcK / 64) columns a repeat: rows mixed, the columns past them left
// with exp(x) (float: in every row's tail; half: past the split's first splitM * 64 * (srcK / 64)
// elements), half splits past rangeM not computed.
TEST(SimpleSoftMaxBasicReplay, SrcKNotAMultipleOf64Unchecked) {
  uint32_t seed = 4600;
  for (const Shape& s : {Shape{4, 72, 72}, Shape{3, 200, 200}, Shape{5, 136, 136}}) {
    CheckSimpleBasic<float, float>(s, 0, false, seed++);
    CheckSimpleBasic<float, float>(s, 2, true, seed++);
  }
  for (const Shape& s : {Shape{4, 80, 80}, Shape{3, 144, 144}, Shape{7, 208, 208}}) {
    CheckSimpleBasic<Half, Half>(s, 0, false, seed++);
    CheckSimpleBasic<Half, Half>(s, 3, false, seed++);
    CheckSimpleBasic<Half, float>(s, 0, true, seed++);
    CheckSimpleBasic<Half, float>(s, 2, false, seed++);
  }
}

// ---- SimpleSoftMax with isBasicBlock, half data and srcK a multiple of 64 on 2201 (sfx5): the
// host SoftMaxTilingFunc, with a scratch of fewer than 8 rows that does not divide srcM, gives a
// tail split for shapes the basic-block check accepts (srcM % 8 == 0, srcK % 64 == 0, 128 <= srcK
// < 2048); SimpleSoftMaxBasicBlock computes the rangeM full splits only. Unchecked, lngrad follows
// the device (the replay of the same reading; the tail rows keep what dst held); checked mode
// names the rows it would leave.
template <class S>
void CheckSimpleBasicTail(const Shape& s, uint32_t splitRows, bool inPlace, uint32_t seed) {
  const SoftMaxTiling t = HostTiling(s, sizeof(S), splitRows);
  ASSERT_EQ(t.splitM, splitRows);
  ASSERT_NE(t.tailM, 0u);
  const std::vector<Half> y = CheckSimpleBasic<Half, S>(s, splitRows, inPlace, seed);
  // The rows past rangeM * splitM: the sentinel (apart) or src (in place), not computed.
  const auto x = Uniform<Half>(seed, uint64_t{s.m} * s.k, -4.0f, 6.0f);
  const std::vector<Half> kept = inPlace ? x : Sentinel<Half>(x.size());
  const uint64_t from = uint64_t{t.rangeM} * t.splitM * s.k;
  ASSERT_EQ(y.size(), kept.size());
  ExpectSameBits(std::vector<Half>(y.begin() + from, y.end()),
                 std::vector<Half>(kept.begin() + from, kept.end()), "tail rows");
}

TEST(SimpleSoftMaxBasicReplay, TailSplitIsLeftUnchecked) {
  uint32_t seed = 4700;
  for (const Shape& s : {Shape{16, 128, 128}, Shape{40, 192, 192}, Shape{8, 256, 256}}) {
    CheckSimpleBasicTail<Half>(s, 3, false, seed++);
    CheckSimpleBasicTail<float>(s, 3, true, seed++);
  }
  CheckSimpleBasicTail<Half>({24, 192, 192}, 5, true, seed++);
  CheckSimpleBasicTail<float>({24, 192, 192}, 7, false, seed++);
  CheckSimpleBasicTail<float>({16, 1024, 1024}, 7, false, seed++);
}

TEST(SimpleSoftMaxBasicReplay, CheckedModeNamesTheTailSplitsRows) {
  const SoftMaxTiling t = HostTiling({16, 128, 128}, 2, 3);
  ASSERT_EQ(t.rangeM, 5u);
  ASSERT_EQ(t.tailM, 1u);
  const auto run = [&](auto value) {
    using T = decltype(value);
    return lngrad::aicore::test::CheckOf(
        [&](Ub& ub) {
          auto st = ub.Get<T>(2);
          AscendC::SimpleSoftMax<T, false, true>(ub.Get<T>(1), st[0], st[kMaxAt<float>],
                                                 ub.Get<T>(0), ub.Get<uint8_t>(3), t,
                                                 {16, 128, 16, 128});
        },
        k910B);
  };
  const auto r = run(Dev<Half>{});
  EXPECT_EQ(r.first, "invalid_count") << r.second;
  EXPECT_NE(r.second.find("rows 15 .. 15 of dstTensor would be left unwritten"), std::string::npos)
      << r.second;
  EXPECT_NE(r.second.find("tailM = 1"), std::string::npos) << r.second;
  // Float data computes every row there (the device branch's counter mode over srcM rows).
  const auto f = run(float{});
  EXPECT_EQ(f.first, "") << f.second;
}

// SoftMax with statistics and isBasicBlock on 2201 (SoftMaxBasicBlock, all three overloads:
// float data too) likewise computes the rangeM full splits only: unchecked, the tail rows of dst
// keep their sentinels (the replay's basic path, replay_softmax.cpp, runs the rangeM splits; the
// statistics' rows past them hold the last split's broadcast); checked mode names them.
template <class T, class S>
void CheckSoftMaxBasicTail(const Shape& s, uint32_t splitRows, uint32_t seed) {
  SCOPED_TRACE(Name(s) + " splitRows " + std::to_string(splitRows) + " seed " +
               std::to_string(seed));
  lngrad::aicore::test::CheckedModeScope unchecked(false);
  const auto x = Inputs<T>(seed, s);
  const SoftMaxTiling t = HostTiling(s, sizeof(S), splitRows);
  ASSERT_EQ(t.splitM, splitRows);
  ASSERT_NE(t.tailM, 0u);
  const uint32_t n = s.m * s.k, stats = s.m * t.reduceK;
  std::vector<T> y;
  std::vector<S> sum, max;
  OnBlock(
      [&](Ub& ub) {
        PutSoftMaxOperands<T, S>(ub, x, n, stats);
        auto st = ub.Get<Dev<S>>(2);
        AscendC::SoftMax<Dev<T>, false, true>(ub.Get<Dev<T>>(1), st[0], st[kMaxAt<S>],
                                              ub.Get<Dev<T>>(0), ub.Get<uint8_t>(3), t,
                                              {s.m, s.k, s.m, s.oriK});
        y = Take<T>(ub, 1, n);
        sum = Take<S>(ub, 2, stats);
        max = Take<S>(ub, 2, stats, kMaxAt<S>);
      },
      k910B);
  std::vector<T> wy = Sentinel<T>(n);
  std::vector<S> wsum = Sentinel<S>(stats), wmax = Sentinel<S>(stats);
  lngrad_replay::ReplaySoftMax(Mirror(t), s.oriK, x.data(), wy.data(), wsum.data(), wmax.data(),
                               true);
  ExpectSameBits(y, wy, "dst");
  // The statistics of the full splits' rows: the last split's Brcb / Cast also stores rows past
  // them (8 float rows, or 4 half rows, a Brcb group; session 20, replay_softmax_basic_scratch:
  // this replay's basic path wrote the split's rows only), compared by
  // softmax_basic_scratch_replay_test.
  const uint64_t from = uint64_t{t.rangeM} * t.splitM;
  const auto rows = [&](const std::vector<S>& v) {
    return std::vector<S>(v.begin(), v.begin() + static_cast<int64_t>(from * t.reduceK));
  };
  ExpectSameBits(rows(sum), rows(wsum), "sum");
  ExpectSameBits(rows(max), rows(wmax), "max");
  ExpectSameBits(std::vector<T>(y.begin() + from * s.k, y.end()), Sentinel<T>(n - from * s.k),
                 "tail rows");
}

TEST(SoftMaxBasicReplay, TailSplitIsLeftUnchecked) {
  CheckSoftMaxBasicTail<float, float>({16, 128, 128}, 3, 4800);
  CheckSoftMaxBasicTail<float, float>({24, 64, 60}, 5, 4801);
  CheckSoftMaxBasicTail<Half, Half>({16, 256, 256}, 3, 4802);
  CheckSoftMaxBasicTail<Half, float>({24, 192, 190}, 7, 4803);
}

TEST(SoftMaxBasicReplay, CheckedModeNamesTheTailSplitsRows) {
  const SoftMaxTiling t = HostTiling({16, 128, 128}, 4, 3);
  ASSERT_EQ(t.tailM, 1u);
  const auto r = lngrad::aicore::test::CheckOf(
      [&](Ub& ub) {
        auto st = ub.Get<float>(2);
        AscendC::SoftMax<float, false, true>(ub.Get<float>(1), st[0], st[kMaxAt<float>],
                                             ub.Get<float>(0), ub.Get<uint8_t>(3), t,
                                             {16, 128, 16, 128});
      },
      k910B);
  EXPECT_EQ(r.first, "invalid_count") << r.second;
  EXPECT_NE(r.second.find("rows 15 .. 15 of dstTensor, sumTensor and maxTensor would be left"),
            std::string::npos)
      << r.second;
}

// The 2201/2002 kernel check's basic-block shape (with softmaxShapeInfo set): 256 / sizeof(T) <=
// srcK < 2048, srcM a multiple of 8; checked mode refuses the rest (the 950 takes any).
TEST(SoftMaxBasicReplay, CheckedModeRefusesTheKernelChecksBasicShape) {
  const auto run = [](const char* soc, bool simple, uint32_t m, uint32_t k) {
    return lngrad::aicore::test::CheckOf(
        [&](Ub& ub) {
          const SoftMaxTiling t = HostTiling({m, k, k}, 2, 0);
          auto st = ub.Get<half>(2);
          if (simple) {
            AscendC::SimpleSoftMax<half, false, true>(ub.Get<half>(1), st[0], st[kMaxAt<Half>],
                                                      ub.Get<half>(0), ub.Get<uint8_t>(3), t,
                                                      {m, k, m, k});
          } else {
            AscendC::SoftMax<half, false, true>(ub.Get<half>(1), st[0], st[kMaxAt<Half>],
                                                ub.Get<half>(0), ub.Get<uint8_t>(3), t,
                                                {m, k, m, k});
          }
        },
        soc);
  };
  for (const bool simple : {false, true}) {
    const auto m4 = run(k910B, simple, 4, 128);
    EXPECT_EQ(m4.first, "invalid_count") << m4.second;
    EXPECT_NE(m4.second.find("srcM a multiple of 8 (srcM = 4)"), std::string::npos) << m4.second;
    const auto k64 = run(k910B, simple, 8, 64);  // half: srcK at least 128
    EXPECT_EQ(k64.first, "invalid_count") << k64.second;
    EXPECT_NE(k64.second.find("128 <= srcK < 2048 (srcK = 64)"), std::string::npos) << k64.second;
    EXPECT_EQ(run(k910B, simple, 8, 128).first, "");
    EXPECT_EQ(run(k950, simple, 4, 64).first, "");
  }
}

}  // namespace
