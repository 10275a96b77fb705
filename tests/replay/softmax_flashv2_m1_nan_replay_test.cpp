// SoftmaxFlashV2's row max with NaN, ±inf and signed zeros in the source on Ascend910B1 in
// SOFTMAX_OUTPUT_WITHOUT_BRC mode (the M1 post process of membase/v220/softmax_flashv2_impl.h,
// generic path: NewReduceMaxLastNDImpl<false>, the update's Max(inMax, rowmax)) and on its
// constant-shape config path (generic, and splitK below srcK), through lngrad's Ascend C API,
// compared with the replays (session 22, wob). The M1 forms compute each row's statistics as the
// broadcast mode's lane 0 (the same reductions, Brcb-ed instead of broadcast), so they are
// compared with ReplaySoftmaxFlashV2 given per-row inputs spread over the lanes; outReduceMax
// with SmxKitRowMax. The config path against ReplaySoftmaxFlashV2Config (its max SmxKitRowMax).
// Before this lngrad folded those rows left to right (a NaN after the first column dropped).
// Rows as softmax_flash_nan_replay_test.cpp: r % 4 == 0 a NaN; 1 a NaN and a negative NaN; 2
// every value negative with -0 and +0; 3 +inf. inMax: NaN, -0 and +0 rows. Any NaN matches any
// NaN; every other value bit for bit. Then the M1 shapes the device computes wrongly
// (softmax_flashv2_nobrc_work.h): refused in checked mode, the device's statistics unchecked.
#include "softmax_nan_rows.h"
#include "softmax_flashv2_m1_call.h"
#include "softmax_replay_util.h"

#include "../aicore/checked_mode_scope.h"
#include "../aicore/sanitizer_off.h"

namespace {

using namespace softmax_replay_test;  // NOLINT(build/namespaces)

// Per-row inMax with a NaN, -0 and +0 row.
template <class S>
std::vector<S> RowInMax(uint32_t seed, uint32_t m) {
  std::vector<S> v = Uniform<S>(seed, m, -2.0f, 9.0f);
  for (uint32_t r = 0; r < m; ++r) {
    if (r % 5 == 1) v[r] = Special<S>(0x7FC00003u, 0x7E03u);
    if (r % 5 == 2) v[r] = Special<S>(0x80000000u, 0x8000u);
    if (r % 5 == 3) v[r] = Special<S>(0u, 0u);
  }
  return v;
}

// Per-row values as the broadcast layout's lanes, and back (lane 0).
template <class S>
std::vector<S> Spread(const std::vector<S>& v, uint32_t lanes) {
  std::vector<S> o(v.size() * lanes);
  for (size_t i = 0; i < o.size(); ++i) o[i] = v[i / lanes];
  return o;
}
template <class S>
std::vector<S> Lane0(const std::vector<S>& v, uint32_t lanes) {
  std::vector<S> o(v.size() / lanes);
  for (size_t i = 0; i < o.size(); ++i) o[i] = v[i * lanes];
  return o;
}

// The host tiling of the M1 mode (isFlashOutputBrc) for s, `bytes` of work buffer (0: the
// maximum, capped at the tmp buffer).
template <class T, class S>
SoftMaxTiling M1Tiling(const Shape& s, bool update, uint32_t bytes) {
  const ge::Shape shape({s.m, s.k});
  if (bytes == 0) bytes = AscendC::GetSoftMaxFlashV2MaxTmpSize(shape, sizeof(T), sizeof(S), update);
  SoftMaxTiling t;
  AscendC::SoftMaxFlashV2TilingFunc(shape, sizeof(T), sizeof(S), std::min(bytes, kUbBufBytes / 2),
                                    t, update, false, true);
  return t;
}

template <class T, class S>
struct M1Out {
  std::vector<T> y, em;
  std::vector<S> sum, max, rowMax;
};

// One M1 call (reduceMaxForm: the outReduceMax overload, S = T) on x with per-row inputs; the
// statistics tensors are read back over `statRows` entries.
template <class T, class S, bool reduceMaxForm>
M1Out<T, S> RunM1(const Shape& s, bool update, const SoftMaxTiling& t, const std::vector<T>& x,
                  const std::vector<S>& inSum, const std::vector<S>& inMax, uint32_t statRows) {
  M1Out<T, S> o;
  OnBlock(
      [&](Ub& ub) {
        const FlashTensors<T, S> f(ub);
        Put(ub, 0, x);
        Put(ub, 2, inSum, kInAt<S>);
        Put(ub, 2, inMax, kMaxAt<S> + kInAt<S>);
        CallM1<T, S, reduceMaxForm>(ub, f, update, t, {s.m, s.k, s.m, s.oriK});
        o.y = Take<T>(ub, 1, x.size());
        o.sum = Take<S>(ub, 2, statRows);
        o.max = Take<S>(ub, 2, statRows, kMaxAt<S>);
        o.em = Take<T>(ub, 3, s.m, kEmAt<T>);
        o.rowMax = Take<S>(ub, 3, s.m, kRmAt<S>);
      },
      k910B);
  return o;
}

// The replay's per-row statistics: ReplaySoftmaxFlashV2 with the inputs spread, lane 0.
template <class T, class S>
M1Out<T, S> ReplayM1(const Shape& s, bool update, const SoftMaxTiling& t, const std::vector<T>& x,
                     const std::vector<S>& inSum, const std::vector<S>& inMax) {
  const uint32_t rk = t.reduceK;
  const uint32_t le = std::is_same_v<T, Half> && std::is_same_v<S, float> ? 16 : rk;
  M1Out<T, S> w;
  w.y.resize(x.size());
  std::vector<T> em(s.m * le);
  std::vector<S> sum(s.m * rk), max(s.m * rk);
  const std::vector<S> bSum = Spread(inSum, rk), bMax = Spread(inMax, rk);
  lngrad_replay::ReplaySoftmaxFlashV2<T, S>(Mirror(t), s.oriK, update, x.data(), w.y.data(),
                                            sum.data(), max.data(), em.data(), bSum.data(),
                                            bMax.data());
  w.sum = Lane0(sum, rk);
  w.max = Lane0(max, rk);
  w.em = Lane0(em, le);
  for (uint32_t r = 0; r < s.m; ++r) {  // the row max before the update's Max (outReduceMax)
    std::vector<float> row(s.oriK);
    for (uint32_t c = 0; c < s.oriK; ++c) row[c] = lngrad_replay::ToFloat(x[r * s.k + c]);
    const uint32_t rows = r < t.rangeM * t.splitM ? t.splitM : t.tailM;
    const float m = lngrad_replay::SmxKitRowMax(row.data(), s.oriK, rows, false);
    if constexpr (std::is_same_v<S, Half>) {
      w.rowMax.push_back(lngrad_replay::FloatToHalfRoundAway(m));
    } else {
      w.rowMax.push_back(m);
    }
  }
  return w;
}

// SoftmaxFlashV2 in the M1 mode, without and with update, against the replay.
template <class T, class S, bool reduceMaxForm = false>
void CheckM1Nan(const Shape& s, uint32_t bytes, uint32_t seed) {
  if (s.k * sizeof(T) % 32 != 0) return;  // rows of whole 32-byte blocks (the kernel check)
  // Half data's several M1 splits need 16-row multiples (the tiling's assert): one split.
  if (bytes != 0 && !std::is_same_v<T, float>) return;
  for (const bool update : {false, true}) {
    // Half data with float statistics without update: refused (the pre-cast defect).
    if (!update && std::is_same_v<T, Half> && std::is_same_v<S, float>) continue;
    const SoftMaxTiling t = M1Tiling<T, S>(s, update, bytes);
    SCOPED_TRACE(Name(s) + " splitM " + std::to_string(t.splitM) + " tailM " +
                 std::to_string(t.tailM) + " seed " + std::to_string(seed) +
                 (update ? " update" : " no update") + (reduceMaxForm ? " outReduceMax" : ""));
    ASSERT_FALSE(!update && s.oriK >= 64 && (t.splitM == 1 || t.tailM == 1));  // refused
    const std::vector<T> x = NanRows<T>(seed, s);
    const std::vector<S> inSum = Uniform<S>(seed + 1, s.m, 0.5f, 300.0f);
    const std::vector<S> inMax = RowInMax<S>(seed + 2, s.m);
    const M1Out<T, S> got = RunM1<T, S, reduceMaxForm>(s, update, t, x, inSum, inMax, s.m);
    const M1Out<T, S> want = ReplayM1<T, S>(s, update, t, x, inSum, inMax);
    ExpectNanAny(got.y, want.y, "dst");
    ExpectNanAny(got.sum, want.sum, "expSum");
    ExpectNanAny(got.max, want.max, "max");
    if (update) ExpectNanAny(got.em, want.em, "expMax");
    if (update && reduceMaxForm) ExpectNanAny(got.rowMax, want.rowMax, "outReduceMax");
  }
}

// Every branch of NewReduceMaxLastNDImpl; bytes: one split (0) or splits of 8 rows and a tail
// (float data: 8 * (8 + 64) floats; the M1 tiling keeps multiples of 8).
struct M1Case {
  Shape s;
  uint32_t bytes;
};
const M1Case kM1Cases[] = {{{8, 8, 8}, 0},         {{8, 48, 40}, 0},       {{8, 64, 64}, 0},
                           {{9, 72, 70}, 0},       {{12, 192, 192}, 0},    {{5, 200, 196}, 0},
                           {{3, 448, 448}, 0},     {{8, 264, 260}, 0},     {{4, 512, 512}, 0},
                           {{5, 600, 600}, 0},     {{4, 1032, 1030}, 0},   {{12, 192, 192}, 2304},
                           {{14, 200, 196}, 2304}, {{20, 264, 260}, 2304}, {{10, 64, 64}, 2304}};

TEST(SoftmaxFlashV2M1NanReplay, FloatFollowsTheKitsMaxOrder) {
  uint32_t seed = 9100;
  for (const M1Case& c : kM1Cases) {
    CheckM1Nan<float, float>(c.s, c.bytes, seed += 3);
    CheckM1Nan<float, float, true>(c.s, c.bytes, seed += 3);
  }
}

TEST(SoftmaxFlashV2M1NanReplay, HalfFollowsTheKitsMaxOrder) {
  uint32_t seed = 9200;
  for (const M1Case& c : kM1Cases) {
    CheckM1Nan<Half, Half>(c.s, c.bytes, seed += 3);
    CheckM1Nan<Half, Half, true>(c.s, c.bytes, seed += 3);
    CheckM1Nan<Half, float>(c.s, c.bytes, seed += 3);
  }
}

// ---- The config path: SoftmaxFlashV2 with config.oriSrcM / oriSrcK (broadcast mode), unchecked
// (splitK below srcK is named in checked mode), against ReplaySoftmaxFlashV2Config; inMax and
// inExpSum in place (max and expSum), lane-varying with a NaN, -0 and +0.
constexpr AscendC::SoftmaxConfig kCfg8x20{true, 8, 20};
constexpr AscendC::SoftmaxConfig kCfg8x24{true, 8, 24};
constexpr AscendC::SoftmaxConfig kCfg8x81{true, 8, 81};
constexpr AscendC::SoftmaxConfig kCfg8x150{true, 8, 150};
constexpr AscendC::SoftmaxConfig kCfg12x196{true, 12, 196};  // splitK 200 = srcK: generic

template <class T, class S, const AscendC::SoftmaxConfig& cfg>
void CheckCfgNan(const Shape& s, bool update, uint32_t rows, uint32_t seed,
                 const char* soc = k910B) {
  SCOPED_TRACE(Name(s) + " cfg K " + std::to_string(cfg.oriSrcK) + " update " +
               std::to_string(update) + " rows " + std::to_string(rows) + " " + soc);
  lngrad::aicore::test::CheckedModeScope unchecked(false);
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
  const uint32_t stats = s.m * t.reduceK, emN = s.m * 32 / sizeof(T);
  const std::vector<T> x = NanRows<T>(seed, {s.m, s.k, cfg.oriSrcK});
  std::vector<S> sum = Uniform<S>(seed + 1, stats, 0.5f, 300.0f);
  std::vector<S> max = Uniform<S>(seed + 2, stats, -2.0f, 9.0f);
  for (uint32_t i = 0; i < stats; ++i) {
    if (i % 11 == 3) max[i] = Special<S>(0x7FC00003u, 0x7E03u);
    if (i % 11 == 6) max[i] = Special<S>(0x80000000u, 0x8000u);
    if (i % 11 == 9) max[i] = Special<S>(0u, 0u);
  }
  std::vector<T> y, em;
  std::vector<S> gs, gm;
  OnBlock(
      [&](Ub& ub) {
        const FlashTensors<T, S> f(ub);
        Put(ub, 0, x);
        Put(ub, 2, sum);
        Put(ub, 2, max, kMaxAt<S>);
        const AscendC::SoftMaxShapeInfo si{s.m, s.k, s.m, s.oriK};
        if (update) {
          AscendC::SoftmaxFlashV2<Dev<T>, true, false, false, false, cfg>(
              f.dst, f.sum, f.max, f.src, f.em, f.sum, f.max, f.tmp, t, si);
        } else {
          AscendC::SoftmaxFlashV2<Dev<T>, false, false, false, false, cfg>(
              f.dst, f.sum, f.max, f.src, f.em, f.sum, f.max, f.tmp, t, si);
        }
        y = Take<T>(ub, 1, x.size());
        gs = Take<S>(ub, 2, stats);
        gm = Take<S>(ub, 2, stats, kMaxAt<S>);
        em = Take<T>(ub, 3, emN, kEmAt<T>);
      },
      soc);
  std::vector<T> wx = x, wy(x.size()), wem(emN);
  lngrad_replay::ReplaySoftmaxFlashV2Config<T, S>(
      Mirror(t), cfg.oriSrcK, {update, std::string(soc) == "Ascend310P1"},
      {wx.data(), wy.data(), sum.data(), max.data(), wem.data(), sum.data(), max.data()});
  ExpectNanAny(y, wy, "dst");
  ExpectNanAny(gs, sum, "expSum");
  ExpectNanAny(gm, max, "max");
  if (update) ExpectNanAny(em, wem, "expMax");
}

TEST(SoftmaxFlashV2ConfigNanReplay, FollowsTheKitsMaxOrder) {
  uint32_t seed = 9300;
  for (const bool update : {false, true}) {
    for (const uint32_t rows : {0u, 3u, 5u}) {
      CheckCfgNan<float, float, kCfg8x20>({10, 32, 20}, update, rows, seed += 3);
      CheckCfgNan<Half, Half, kCfg8x24>({8, 32, 24}, update, rows, seed += 3);
      CheckCfgNan<Half, float, kCfg8x24>({13, 32, 24}, update, rows, seed += 3);
      CheckCfgNan<Half, Half, kCfg8x81>({9, 96, 81}, update, rows, seed += 3);
      CheckCfgNan<float, float, kCfg8x150>({10, 160, 150}, update, rows, seed += 3);
      CheckCfgNan<Half, float, kCfg8x150>({11, 160, 150}, update, rows, seed += 3);
      CheckCfgNan<float, float, kCfg12x196>({12, 200, 196}, update, rows, seed += 3);
    }
    CheckCfgNan<float, float, kCfg8x150>({10, 160, 150}, update, 3, seed += 3, "Ascend310P1");
  }
}

// ---- The M1 shapes the device computes wrongly without update (softmax_flashv2_nobrc_work.h):
// a split of one row with oriSrcK >= 64 (the one-row BasicBlockReduce{Max,Sum}Impl writes its
// result reduceK times), and half data with float statistics (the pre-cast's work buffer inside
// the converted source).
// tight: max and expSum of s.m elements (else the test buffers' halves).
template <class T, class S, bool reduceMaxForm = false>
std::pair<std::string, std::string> M1CheckOf(const Shape& s, uint32_t bytes, bool tight = false) {
  const SoftMaxTiling t = M1Tiling<T, S>(s, false, bytes);
  return lngrad::aicore::test::CheckOf(
      [&](Ub& ub) {
        FlashTensors<T, S> f(ub);
        if (tight) {
          f.sum.SetSize(s.m);
          f.max.SetSize(s.m);
        }
        const AscendC::SoftMaxShapeInfo si{s.m, s.k, s.m, s.oriK};
        // Every output's bytes before the call: a refused call must leave them all.
        const auto bytesOf = [](const auto& v) {
          const auto* p = reinterpret_cast<const uint8_t*>(v.HostPtr());
          return std::vector<uint8_t>(p, p + v.GetSize() * sizeof(*v.HostPtr()));
        };
        const auto outputs = [&] {
          return std::vector{bytesOf(f.dst), bytesOf(f.sum), bytesOf(f.max), bytesOf(f.em),
                             bytesOf(f.tmp)};
        };
        for (const auto& v :
             {f.dst.template ReinterpretCast<uint8_t>(), f.sum.template ReinterpretCast<uint8_t>(),
              f.max.template ReinterpretCast<uint8_t>(), f.em.template ReinterpretCast<uint8_t>(),
              f.tmp}) {
          std::fill_n(v.HostPtr(), v.GetSize(), uint8_t{0xA5});
        }
        const auto before = outputs();
        try {
          if constexpr (reduceMaxForm) {
            AscendC::SoftmaxFlashV2<Dev<T>, false, false, false, false, kNoBrc>(
                f.dst, f.em, f.sum, f.max, f.src, f.em, f.sum, f.max, f.tmp, t, si);
          } else {
            AscendC::SoftmaxFlashV2<Dev<T>, false, false, false, false, kNoBrc>(
                f.dst, f.sum, f.max, f.src, f.em, f.sum, f.max, f.tmp, t, si);
          }
        } catch (const lngrad::aicore::KernelCheckError&) {
          EXPECT_TRUE(outputs() == before) << "the refused call wrote";
          throw;
        }
      },
      k910B);
}

TEST(SoftmaxFlashV2M1Defect, CheckedModeRefusesWhatTheDeviceComputesWrongly) {
  const auto expectRefused = [](const std::pair<std::string, std::string>& r, const char* what) {
    EXPECT_EQ(r.first, "softmax_device_defect") << r.second;
    EXPECT_NE(r.second.find(what), std::string::npos) << r.second;
  };
  expectRefused(M1CheckOf<Half, Half>({1, 64, 64}, 0), "max output is its expSum");
  expectRefused(M1CheckOf<Half, float>({8, 64, 64}, 0), "pre-cast");
  expectRefused(M1CheckOf<Half, float>({4, 32, 32}, 0), "pre-cast");
  // Not refused: oriSrcK below 64 (a masked WholeReduce a row), splits of several rows, and
  // float statistics' one-row splits, whose rows are right: their reduceK - 1 copies past the
  // last row are written (CheckM1OneRow), refused only past the tensors (tensor_bounds, before
  // anything is written).
  EXPECT_EQ((M1CheckOf<float, float>({1, 64, 64}, 0).first), "");
  EXPECT_EQ((M1CheckOf<float, float>({9, 64, 64}, 2304).first), "");
  EXPECT_EQ((M1CheckOf<float, float, true>({1, 128, 100}, 0).first), "");
  const auto past = M1CheckOf<float, float>({9, 64, 64}, 2304, true);
  EXPECT_EQ(past.first, "tensor_bounds") << past.second;
  EXPECT_NE(past.second.find("a split of one row"), std::string::npos) << past.second;
  EXPECT_EQ((M1CheckOf<float, float>({9, 64, 40}, 2304, true).first), "");
  EXPECT_EQ((M1CheckOf<float, float>({1, 64, 40}, 0).first), "");
  EXPECT_EQ((M1CheckOf<Half, Half>({1, 64, 63}, 0).first), "");
  EXPECT_EQ((M1CheckOf<float, float>({10, 64, 64}, 2304).first), "");
}

// The replay's statistics, then what the device leaves: float statistics, the last row's
// written reduceK - 1 entries past it (checked or unchecked); half statistics (unchecked: checked
// mode refuses it), the row's max = its expSum.
template <class T, class S, bool reduceMaxForm = false>
void CheckM1OneRow(const Shape& s, uint32_t bytes, uint32_t seed, bool checked = false) {
  lngrad::aicore::test::CheckedModeScope mode(checked);
  const SoftMaxTiling t = M1Tiling<T, S>(s, false, bytes);
  SCOPED_TRACE(Name(s) + " splitM " + std::to_string(t.splitM) + " tailM " +
               std::to_string(t.tailM));
  const std::vector<T> x = Inputs<T>(seed, s);
  const std::vector<S> none(s.m);
  const uint32_t extra = t.reduceK - 1;
  M1Out<T, S> got = RunM1<T, S, reduceMaxForm>(s, false, t, x, none, none, s.m + extra);
  M1Out<T, S> want = ReplayM1<T, S>(s, false, t, x, none, none);
  if constexpr (std::is_same_v<S, Half>) {  // the work buffer's copies: nothing past the rows
    want.max.back() = want.sum.back();
    got.sum.resize(s.m);
    got.max.resize(s.m);
  } else {
    for (uint32_t i = 0; i < extra; ++i) {
      want.sum.push_back(want.sum.back());
      want.max.push_back(want.max.back());
    }
  }
  ExpectSameBits(got.y, want.y, "dst");
  ExpectSameBits(got.sum, want.sum, "expSum");
  ExpectSameBits(got.max, want.max, "max");
}

TEST(SoftmaxFlashV2M1Defect, UncheckedGivesTheDevicesStatistics) {
  CheckM1OneRow<float, float>({1, 64, 64}, 0, 9400);
  CheckM1OneRow<float, float>({9, 64, 64}, 2304, 9401);
  CheckM1OneRow<float, float>({17, 200, 196}, 2304, 9402);
  CheckM1OneRow<float, float, true>({1, 600, 600}, 0, 9403);
  CheckM1OneRow<Half, Half>({1, 64, 64}, 0, 9404);
  CheckM1OneRow<Half, Half, true>({1, 528, 520}, 0, 9405);
  // Checked mode writes float statistics' copies as well (the tensors hold them).
  CheckM1OneRow<float, float>({1, 64, 64}, 0, 9406, true);
  CheckM1OneRow<float, float>({9, 64, 64}, 2304, 9407, true);
  CheckM1OneRow<float, float, true>({1, 600, 600}, 0, 9408, true);
}

}  // namespace
