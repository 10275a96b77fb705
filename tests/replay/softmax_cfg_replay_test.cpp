// SoftMax's constant-shape config (SoftmaxConfig with oriSrcM and oriSrcK set) on dav-2201
// against the replay of membase/v220/softmax_impl.h (replay_softmax_cfg.cpp, sfxc's reading):
// the config's shape test picks SoftMaxBasicBlock whatever isBasicBlock; else the generic loop
// reduces config.oriSrcK columns at a row stride of config.oriSrcK rounded up to 8.
#include "softmax_replay_util.h"

#include "../aicore/checked_mode_scope.h"

namespace softmax_replay_test {
namespace {

using lngrad::aicore::test::CheckedModeScope;

// Basic shapes (oriSrcK % 64 == 0, < 2048, oriSrcM % 8 == 0).
constexpr AscendC::SoftmaxConfig kCfg16x128{true, 16, 128};
constexpr AscendC::SoftmaxConfig kCfg8x1024{true, 8, 1024};
// Generic: oriSrcM not a multiple of 8, or oriSrcK not a multiple of 64.
constexpr AscendC::SoftmaxConfig kCfg4x1024{true, 4, 1024};
constexpr AscendC::SoftmaxConfig kCfg8x36{true, 8, 36};
constexpr AscendC::SoftmaxConfig kCfg8x44{true, 8, 44};
constexpr AscendC::SoftmaxConfig kCfg12x192{true, 12, 192};
// splitK (oriSrcK rounded up to 8) below srcK: 24 for srcK 32, 88 for srcK 96, 24 for float 32.
constexpr AscendC::SoftmaxConfig kCfg8x24{true, 8, 24};
constexpr AscendC::SoftmaxConfig kCfg8x81{true, 8, 81};
constexpr AscendC::SoftmaxConfig kCfg8x20{true, 8, 20};

template <const AscendC::SoftmaxConfig& cfg>
struct CfgTag {
  static constexpr const AscendC::SoftmaxConfig& kValue = cfg;
};

// SoftMax<.., isBasicBlock, cfg> with statistics on dav-2201 (unchecked when `checked` is false)
// against ReplaySoftMaxConfig; dst and the statistics start as sentinels.
template <class T, class S, bool basic, const AscendC::SoftmaxConfig& cfg>
void CheckStats(const Shape& s, uint32_t splitRows, bool inPlace, bool checked, uint32_t seed,
                const std::vector<T>* given = nullptr) {
  SCOPED_TRACE(Name(s) + " cfg " + std::to_string(cfg.oriSrcM) + "x" + std::to_string(cfg.oriSrcK) +
               " basic " + std::to_string(basic) + " splitRows " + std::to_string(splitRows) +
               " inPlace " + std::to_string(inPlace) + " seed " + std::to_string(seed));
  CheckedModeScope mode(checked);
  const auto x = given != nullptr ? *given : Inputs<T>(seed, s);
  const SoftMaxTiling t = HostTiling(s, sizeof(S), splitRows);
  const uint32_t n = s.m * s.k, stats = s.m * t.reduceK;
  const int out = inPlace ? 0 : 1;
  std::vector<T> y;
  std::vector<S> sum, max;
  OnBlock(
      [&](Ub& ub) {
        PutSoftMaxOperands<T, S>(ub, x, n, stats, inPlace);
        auto st = ub.Get<Dev<S>>(2);
        AscendC::SoftMax<Dev<T>, false, basic, false, cfg>(
            ub.Get<Dev<T>>(out), st[0], st[kMaxAt<S>], ub.Get<Dev<T>>(0), ub.Get<uint8_t>(3), t,
            {s.m, s.k, s.m, s.oriK});
        y = Take<T>(ub, out, n);
        sum = Take<S>(ub, 2, stats);
        max = Take<S>(ub, 2, stats, kMaxAt<S>);
      },
      k910B);
  std::vector<T> wy = inPlace ? x : Sentinel<T>(n);
  std::vector<S> wsum = Sentinel<S>(stats), wmax = Sentinel<S>(stats);
  std::vector<T> wsrc = x;
  lngrad_replay::ReplaySoftMaxConfig<T, S>(
      Mirror(t), cfg.oriSrcM, cfg.oriSrcK,
      {wsrc.data(), wy.data(), wsum.data(), wmax.data(), false});
  ExpectOutputs("", y, wy, sum, wsum, max, wmax);
}

// SoftMax<.., isReuseSource, false, cfg> without statistics; src compared too.
template <class T, const AscendC::SoftmaxConfig& cfg>
void CheckNoStats(const Shape& s, uint32_t splitRows, bool reuse, uint32_t seed,
                  const std::vector<T>* given = nullptr) {
  SCOPED_TRACE(Name(s) + " cfg " + std::to_string(cfg.oriSrcM) + "x" + std::to_string(cfg.oriSrcK) +
               " reuse " + std::to_string(reuse) + " seed " + std::to_string(seed));
  CheckedModeScope unchecked(false);
  const auto x = given != nullptr ? *given : Inputs<T>(seed, s);
  const SoftMaxTiling t = HostTiling(s, sizeof(T), splitRows);
  const uint32_t n = s.m * s.k;
  std::vector<T> y, src;
  OnBlock(
      [&](Ub& ub) {
        Put(ub, 0, x);
        Put(ub, 1, Sentinel<T>(n));
        if (reuse) {
          AscendC::SoftMax<Dev<T>, true, false, cfg>(
              ub.Get<Dev<T>>(1), ub.Get<Dev<T>>(0), ub.Get<uint8_t>(3), t, {s.m, s.k, s.m, s.oriK});
        } else {
          AscendC::SoftMax<Dev<T>, false, false, cfg>(
              ub.Get<Dev<T>>(1), ub.Get<Dev<T>>(0), ub.Get<uint8_t>(3), t, {s.m, s.k, s.m, s.oriK});
        }
        y = Take<T>(ub, 1, n);
        src = Take<T>(ub, 0, n);
      },
      k910B);
  std::vector<T> wy = Sentinel<T>(n), wsrc = x;
  const bool reuseSrc = reuse && std::is_same_v<T, float>;
  lngrad_replay::ReplaySoftMaxConfig<T, T>(Mirror(t), cfg.oriSrcM, cfg.oriSrcK,
                                           {wsrc.data(), wy.data(), nullptr, nullptr, reuseSrc});
  ExpectSameBits(y, wy, "dst");
  ExpectSameBits(src, wsrc, "src");
}

}  // namespace

// The config's shape test takes SoftMaxBasicBlock without isBasicBlock: every srcK column reduced
// (softmaxShapeInfo's oriSrcK below srcK does not count), the basic order of the sums (K = 1024),
// the rangeM splits only (a tiling whose splits divide srcM here).
TEST(SoftMaxConfigReplay, BasicShapeTakesTheBasicBlock) {
  uint32_t seed = 5100;
  CheckStats<float, float, false, kCfg16x128>({16, 128, 100}, 0, false, true, seed++);
  CheckStats<float, float, false, kCfg16x128>({16, 128, 128}, 4, true, true, seed++);
  CheckStats<Half, Half, false, kCfg16x128>({16, 128, 97}, 8, false, true, seed++);
  CheckStats<Half, float, false, kCfg16x128>({16, 128, 120}, 0, false, true, seed++);
  CheckStats<float, float, false, kCfg8x1024>({8, 1024, 1024}, 0, false, true, seed++);
  CheckStats<Half, Half, false, kCfg8x1024>({8, 1024, 1000}, 0, true, true, seed++);
  CheckStats<Half, float, false, kCfg8x1024>({8, 1024, 1024}, 0, false, true, seed++);
}

// Otherwise the generic loop with the config's oriSrcK, whatever isBasicBlock and
// softmaxShapeInfo.oriSrcK say; splitK equal to srcK here (rows at their own stride).
TEST(SoftMaxConfigReplay, GenericPathTakesTheConfigsK) {
  uint32_t seed = 5200;
  CheckStats<float, float, true, kCfg4x1024>({8, 1024, 1024}, 0, false, true, seed++);
  CheckStats<Half, float, true, kCfg4x1024>({8, 1024, 1024}, 0, false, true, seed++);
  CheckStats<Half, Half, false, kCfg4x1024>({8, 1024, 1000}, 0, false, true, seed++);
  CheckStats<float, float, false, kCfg8x36>({8, 40, 40}, 3, false, true, seed++);
  CheckStats<float, float, false, kCfg8x36>({11, 40, 33}, 4, true, true, seed++);
  CheckStats<Half, Half, false, kCfg8x44>({8, 48, 48}, 3, false, true, seed++);
  CheckStats<Half, float, false, kCfg8x44>({10, 48, 40}, 0, true, true, seed++);
  // isBasicBlock with a tail split: the generic loop computes every row (no BasicSplitRows).
  CheckStats<float, float, true, kCfg12x192>({16, 192, 192}, 3, false, true, seed++);
  CheckStats<Half, Half, true, kCfg12x192>({16, 192, 190}, 5, false, true, seed++);
  CheckNoStats<float, kCfg8x36>({8, 40, 40}, 3, false, seed++);
  CheckNoStats<float, kCfg8x36>({9, 40, 40}, 4, true, seed++);
  CheckNoStats<Half, kCfg8x44>({8, 48, 48}, 3, false, seed++);
  CheckNoStats<float, kCfg4x1024>({8, 1024, 1024}, 0, false, seed++);
}

// splitK below srcK (half with oriSrcK % 16 in 1 .. 8, or a config K a block or more short of
// srcK): row i of a split is reduced from the values at i * splitK, i.e. from the rows before it,
// while the Sub and Div use row i itself. Unchecked, lngrad follows the device.
TEST(SoftMaxConfigReplay, SplitKBelowSrcKUnchecked) {
  uint32_t seed = 5300;
  for (const uint32_t rows : {0u, 3u, 5u}) {
    CheckStats<Half, Half, false, kCfg8x24>({8, 32, 24}, rows, false, false, seed++);
    CheckStats<Half, float, true, kCfg8x24>({13, 32, 24}, rows, rows == 3, false, seed++);
    CheckStats<Half, Half, false, kCfg8x81>({9, 96, 81}, rows, false, false, seed++);
    CheckStats<float, float, false, kCfg8x20>({10, 32, 20}, rows, rows == 5, false, seed++);
    CheckNoStats<Half, kCfg8x24>({8, 32, 24}, rows, false, seed++);
    CheckNoStats<float, kCfg8x20>({7, 32, 20}, rows, true, seed++);
  }
}

// Inputs with NaN (at the start of a row and inside it) and rows whose largest value is a tie
// of -0 and +0: the reductions' Max lanes in the kit's operand order decide which comes out.
template <class T>
std::vector<T> NanAndZeros(uint32_t seed, const Shape& s) {
  std::vector<T> v = Inputs<T>(seed, s);
  const T nan = lngrad_replay::FromFloat<T>(NAN), pz = lngrad_replay::FromFloat<T>(0.0f),
          nz = lngrad_replay::FromFloat<T>(-0.0f);
  for (uint32_t r = 0; r < s.m; ++r) {
    T* row = v.data() + size_t{r} * s.k;
    if (r % 3 == 0) row[(r * 7 + 3) % s.k] = nan;
    if (r % 5 == 1) row[0] = nan;
    if (r % 3 == 1) {  // every value negative but a -0 and a +0
      for (uint32_t c = 0; c < s.k; ++c) row[c] = lngrad_replay::FromFloat<T>(-1.0f - c % 5);
      row[(r + 1) % s.k] = nz;
      row[(r * 5 + 70) % s.k] = pz;
      row[(r * 3 + 9) % s.k] = nz;
    }
  }
  return v;
}

// The reductions of the config path with splitK below srcK (unchecked) on rows holding NaN and
// signed-zero ties: NewReduceMaxLastNDImpl's lanes as the default path has them (lngrad folded
// those rows left to right before: a NaN past a row's first value was dropped).
constexpr AscendC::SoftmaxConfig kCfg8x130{true, 8, 130};
TEST(SoftMaxConfigReplay, SplitKBelowSrcKNanAndSignedZeroRowsUnchecked) {
  uint32_t seed = 5500;
  for (const uint32_t rows : {0u, 3u}) {
    const Shape h{8, 32, 24}, f{10, 32, 20}, w{9, 144, 130};
    const auto xh = NanAndZeros<Half>(seed, h);
    const auto xf = NanAndZeros<float>(seed + 1, f);
    const auto xw = NanAndZeros<float>(seed + 2, w);
    const auto xwh = NanAndZeros<Half>(seed + 3, w);
    CheckStats<Half, Half, false, kCfg8x24>(h, rows, false, false, seed, &xh);
    CheckStats<Half, float, false, kCfg8x24>(h, rows, false, false, seed, &xh);
    CheckStats<float, float, false, kCfg8x20>(f, rows, false, false, seed, &xf);
    CheckStats<float, float, false, kCfg8x130>(w, rows, false, false, seed, &xw);
    CheckStats<Half, Half, false, kCfg8x130>(w, rows, false, false, seed, &xwh);
    CheckNoStats<Half, kCfg8x24>(h, rows, false, seed, &xh);
    CheckNoStats<float, kCfg8x130>(w, rows, true, seed, &xw);
    seed += 4;
  }
}

// Checked mode names that stride (the device's silent mix of rows: softmax_device_defect, the
// family's check for shapes the kit computes wrongly).
TEST(SoftMaxConfigReplay, CheckedModeNamesSplitKBelowSrcK) {
  const SoftMaxTiling t = HostTiling({8, 32, 24}, 2, 0);
  const auto r = lngrad::aicore::test::CheckOf(
      [&](Ub& ub) {
        auto st = ub.Get<half>(2);
        AscendC::SoftMax<half, false, false, false, kCfg8x24>(
            ub.Get<half>(1), st[0], st[kMaxAt<Half>], ub.Get<half>(0), ub.Get<uint8_t>(3), t,
            {8, 32, 8, 24});
      },
      k910B);
  EXPECT_EQ(r.first, "softmax_device_defect") << r.second;
  EXPECT_NE(r.second.find("splitK = 24"), std::string::npos) << r.second;
  const auto f = lngrad::aicore::test::CheckOf(
      [&](Ub& ub) {
        AscendC::SoftMax<float, false, false, kCfg8x20>(
            ub.Get<float>(1), ub.Get<float>(0), ub.Get<uint8_t>(3), HostTiling({8, 32, 20}, 4, 0),
            {8, 32, 8, 20});
      },
      k910B);
  EXPECT_EQ(f.first, "softmax_device_defect") << f.second;
}

// What lngrad does not model is refused in any mode: a tiling whose reduceK is not the config's
// statistics stride (half data with float statistics and a tiling made for half), a config K
// that rounds up past srcK (the reductions run past the split; a tiling made for another shape
// is re-tiled by the kernel: softmax_retile_replay_test.cpp).
TEST(SoftMaxConfigReplay, RefusesWhatIsNotModelled) {
  CheckedModeScope unchecked(false);
  const auto run = [](const Shape& s, const Shape& ts, uint32_t typeSize, auto cfgTag) {
    return lngrad::aicore::test::CheckOf(
        [&](Ub& ub) {
          auto st = ub.Get<float>(2);
          constexpr const AscendC::SoftmaxConfig& kC = decltype(cfgTag)::kValue;
          AscendC::SoftMax<half, false, false, false, kC>(
              ub.Get<half>(1), st[0], st[kMaxAt<float>], ub.Get<half>(0), ub.Get<uint8_t>(3),
              HostTiling(ts, typeSize, 0), {s.m, s.k, s.m, s.oriK});
        },
        k910B);
  };
  const auto a = run({8, 48, 44}, {8, 48, 44}, 2, CfgTag<kCfg8x44>{});
  EXPECT_EQ(a.first, "invalid_count") << a.second;
  EXPECT_NE(a.second.find("reduceK is 16"), std::string::npos) << a.second;
  const auto b = run({8, 16, 16}, {8, 16, 16}, 4, CfgTag<kCfg8x24>{});
  EXPECT_EQ(b.first, "invalid_count") << b.second;
  EXPECT_NE(b.second.find("past srcK = 16"), std::string::npos) << b.second;
}

// The 2002 implementation (membase/v200) ignores the config: lngrad's values there are those of
// the default config.
template <const AscendC::SoftmaxConfig& cfg>
std::vector<Half> RunOn310P(const Shape& s, const std::vector<Half>& x, const SoftMaxTiling& t) {
  std::vector<Half> y;
  OnBlock(
      [&](Ub& ub) {
        Put(ub, 0, x);
        auto st = ub.Get<half>(2);
        AscendC::SoftMax<half, false, false, false, cfg>(ub.Get<half>(1), st[0], st[kMaxAt<Half>],
                                                         ub.Get<half>(0), ub.Get<uint8_t>(3), t,
                                                         {s.m, s.k, s.m, s.oriK});
        y = Take<Half>(ub, 1, x.size());
      },
      "Ascend310P1");
  return y;
}

TEST(SoftMaxConfigReplay, Arch2002IgnoresTheConfig) {
  const Shape s{8, 32, 24};
  const auto x = Inputs<Half>(5400, s);
  const SoftMaxTiling t = HostTiling(s, 2, 0);
  ExpectSameBits(RunOn310P<kCfg8x24>(s, x, t), RunOn310P<AscendC::SOFTMAX_DEFAULT_CFG>(s, x, t),
                 "dst");
}

}  // namespace softmax_replay_test
