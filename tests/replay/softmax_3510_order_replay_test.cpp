// Where the 950's (dav-3510) SoftMax register code goes through memory, compared bit for bit with
// the independent replay of the toolkit's 3510 code (replay_softmax_3510.h):
//  - SimpleSoftMax's choice between SimpleSoftMaxGenericNDImpl (whole registers under the full
//    mask) and SimpleSoftMaxGenericND WithTailImpl: isBasicBlock, else the constant-shape
//    config (config.oriSrcM and oriSrcK set: by config.oriSrcK % 64), else srcK % 64. With srcK
//    not a multiple of 64 the whole registers read the next row's src and store over the next
//    row's dst, past the last row too (the tensors here hold one more row), and in place they
//    read what the previous row stored;
//  - the flash updates' order of stores and loads when outputs alias inputs: the M1
//    (SOFTMAX_OUTPUT_WITHOUT_BRC) outReduceMax stored before inMax is read, max stored before
//    inExpSum is read (SoftmaxFlashV2 in both modes, SoftmaxFlash), src read again after the
//    row's max is stored (maxTensor, or V2's expMaxTensor, a view into src's buffer).
#include "replay_softmax_3510.h"

#include "../aicore/checked_mode_scope.h"
#include "../aicore/sanitizer_off.h"
#include "softmax_replay_util.h"

namespace {

using namespace softmax_replay_test;  // NOLINT(build/namespaces)
namespace r3510 = lngrad_replay::r3510;

// Constant-shape configs (SoftmaxConfig's oriSrcM, oriSrcK): oriSrcK a multiple of 64 or not,
// and oriSrcM left 0 (then the default dispatch by srcK).
constexpr AscendC::SoftmaxConfig kCfgK64{true, 4, 64};
constexpr AscendC::SoftmaxConfig kCfgK40{true, 4, 40};
constexpr AscendC::SoftmaxConfig kCfgNoM{true, 0, 64};

using CheckedScope = lngrad::aicore::test::CheckedModeScope;

// SimpleSoftMax<basic, cfg> on the 950 over s.m rows of src (buffer 0, which holds s.m + 1 rows
// of x); dst is buffer 1 (a sentinel first), or src itself when inPlace; dstElems: dst's size
// (0: the whole buffer). Returns the first x.size() elements of dst and the check raised, if any.
template <class T>
struct SimpleRun {
  std::vector<T> y;
  std::string check, message;
};
template <class T, class S, bool basic, const AscendC::SoftmaxConfig& cfg>
SimpleRun<T> RunSimple(const Shape& s, const std::vector<T>& x, const std::vector<S>& inSum,
                       const std::vector<S>& inMax, bool inPlace, uint32_t dstElems = 0) {
  const SoftMaxTiling t = HostTiling(s, sizeof(S), 0);
  const int out = inPlace ? 0 : 1;
  std::vector<T> y;
  const auto r = lngrad::aicore::test::CheckOf(
      [&](Ub& ub) {
        Put(ub, 0, x);
        Put(ub, 1, Sentinel<T>(x.size()));
        Put(ub, 2, inSum);
        Put(ub, 2, inMax, kMaxAt<S>);
        auto st = ub.Get<Dev<S>>(2);
        auto dst = ub.Get<Dev<T>>(out);
        if (dstElems != 0) dst.SetSize(dstElems);
        AscendC::SimpleSoftMax<Dev<T>, false, basic, false, cfg>(
            dst, st[0], st[kMaxAt<S>], ub.Get<Dev<T>>(0), ub.Get<uint8_t>(3), t,
            {s.m, s.k, s.m, s.k});
        y = Take<T>(ub, out, x.size());
      },
      k950);
  return {y, r.first, r.second};
}

// The replay of that call: whole (the function the dispatch must pick) asserted against the
// replay's SimpleSoftMaxWhole, then dst over the s.m + 1 rows compared.
template <class T, class S, bool basic, const AscendC::SoftmaxConfig& cfg>
void CheckSimple(const Shape& s, bool whole, bool inPlace, uint32_t seed) {
  SCOPED_TRACE(Name(s) + " basic " + std::to_string(basic) + " cfg " + std::to_string(cfg.oriSrcM) +
               "/" + std::to_string(cfg.oriSrcK) + " inPlace " + std::to_string(inPlace) +
               " seed " + std::to_string(seed));
  ASSERT_EQ(r3510::SimpleSoftMaxWhole(basic, cfg.oriSrcM, cfg.oriSrcK, s.k), whole);
  const uint32_t mem = (s.m + 1) * s.k;
  const auto x = Inputs<T>(seed, {s.m + 1, s.k, s.k});
  const uint32_t ls = 32 / sizeof(S);
  const auto inMax = Stats<S>(seed + 1, s.m, ls, -2.0f, 9.0f, false);
  const auto inSum = Stats<S>(seed + 2, s.m, ls, 0.5f, 300.0f, false);
  const SimpleRun<T> run = RunSimple<T, S, basic, cfg>(s, x, inSum, inMax, inPlace);
  ASSERT_EQ(run.check, "") << run.message;
  const std::vector<T>& y = run.y;
  std::vector<T> want = inPlace ? x : Sentinel<T>(x.size());
  const T* src = inPlace ? want.data() : x.data();
  r3510::SimpleSoftMax(s.m, s.k, src, inSum.data(), inMax.data(), want.data(), whole, mem, mem);
  ExpectSameBits(y, want, "dst");
  // With srcK not a multiple of 64 the whole registers write past the last row (the test would
  // not tell the paths apart else).
  EXPECT_EQ(BitsOf(y[s.m * s.k]) != BitsOf(x[s.m * s.k]) &&
                BitsOf(y[s.m * s.k]) != BitsOf(Sentinel<T>(1)[0]),
            whole && s.k % 64 != 0);
}

const Shape kFloatK[] = {{4, 72, 72}, {3, 200, 200}, {2, 8, 8}};
const Shape kHalfK[] = {{4, 80, 80}, {3, 144, 144}, {2, 16, 16}};

template <class T, class S>
void CheckConfigs(const Shape& s, uint32_t& seed) {
  CheckSimple<T, S, false, kCfgK64>(s, true, false, seed++);
  CheckSimple<T, S, false, kCfgK64>(s, true, true, seed++);
  CheckSimple<T, S, false, kCfgK40>(s, false, false, seed++);
  CheckSimple<T, S, false, kCfgNoM>(s, false, false, seed++);
  CheckSimple<T, S, false, AscendC::SOFTMAX_DEFAULT_CFG>(s, false, true, seed++);
}

// SimpleSoftMaxNDImpl dispatches on the constant-shape config when both its sizes are set:
// config.oriSrcK a multiple of 64 takes the whole registers whatever srcK.
TEST(SimpleSoftMax3510Replay, ConstantShapeConfigChoosesTheFunction) {
  uint32_t seed = 4100;
  for (const Shape& s : kFloatK) CheckConfigs<float, float>(s, seed);
  for (const Shape& s : kHalfK) {
    CheckConfigs<Half, Half>(s, seed);
    CheckConfigs<Half, float>(s, seed);
  }
}

// isBasicBlock takes the whole registers too (checked mode refuses srcK not a multiple of 64,
// below; unchecked, lngrad runs the device's order).
TEST(SimpleSoftMax3510Replay, BasicBlockRunsWholeRegistersUnchecked) {
  const CheckedScope unchecked(false);
  uint32_t seed = 4150;
  for (const Shape& s : kFloatK) {
    CheckSimple<float, float, true, AscendC::SOFTMAX_DEFAULT_CFG>(s, true, false, seed++);
    CheckSimple<float, float, true, AscendC::SOFTMAX_DEFAULT_CFG>(s, true, true, seed++);
  }
  for (const Shape& s : kHalfK) {
    CheckSimple<Half, float, true, AscendC::SOFTMAX_DEFAULT_CFG>(s, true, false, seed++);
  }
  // srcK a multiple of 64: every path the same.
  CheckSimple<float, float, true, AscendC::SOFTMAX_DEFAULT_CFG>({3, 128, 128}, true, true, seed++);
}

// Checked mode: isBasicBlock with srcK = 72 is refused (invalid_count); the config's whole
// registers past a dstTensor of m * srcK elements are named (tensor_bounds), not past a larger one.
TEST(SimpleSoftMax3510Replay, CheckedModeNamesWholeRegistersPastTheRows) {
  const CheckedScope checked(true);
  const Shape s{4, 72, 72};
  const auto x = Inputs<float>(4170, {5, 72, 72});
  const auto st = Stats<float>(4171, 4, 8, 0.5f, 9.0f, false);
  auto r = RunSimple<float, float, true, AscendC::SOFTMAX_DEFAULT_CFG>(s, x, st, st, false);
  EXPECT_EQ(r.check, "invalid_count") << r.message;
  r = RunSimple<float, float, false, kCfgK64>(s, x, st, st, false, s.m * s.k);
  EXPECT_EQ(r.check, "tensor_bounds") << r.message;
  EXPECT_NE(r.message.find("whole-register"), std::string::npos) << r.message;
  r = RunSimple<float, float, false, kCfgK64>(s, x, st, st, false, s.m * s.k + 64);
  EXPECT_EQ(r.check, "") << r.message;
}

// ---- the flash updates' memory order ----

constexpr AscendC::SoftmaxConfig kM1Cfg{true, 0, 0,
                                        AscendC::SoftmaxMode::SOFTMAX_OUTPUT_WITHOUT_BRC};

// Which of three statistics regions of buffer 2 each operand uses (equal: aliased).
// dst: buffer 1 (-1) or a region of buffer 2 (T = S only).
struct Alias {
  int reduceMax, expSum, max, inExpSum, inMax;
  int dst = -1;
};

// v1: SoftmaxFlash; m1: SoftmaxFlashV2 in SOFTMAX_OUTPUT_WITHOUT_BRC mode (reduceMax: its
// outReduceMax overload); else SoftmaxFlashV2 in the normal mode.
template <class T, class S, bool v1, bool m1, bool reduceMax>
void CallFlash(Ub& ub, const AscendC::LocalTensor<Dev<S>>* reg, const Alias& a,
               const SoftMaxTiling& t, const AscendC::SoftMaxShapeInfo& si) {
  const FlashTensors<T, S> f(ub);
  if constexpr (v1) {
    AscendC::LocalTensor<Dev<T>> dst = f.dst;
    if constexpr (std::is_same_v<T, S>) {
      if (a.dst >= 0) dst = reg[a.dst];
    }
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    AscendC::SoftmaxFlash<Dev<T>>(dst, reg[a.expSum], reg[a.max], f.src, f.em, reg[a.inExpSum],
                                  reg[a.inMax], f.tmp, t, true, si);
#pragma GCC diagnostic pop
  } else if constexpr (reduceMax) {
    AscendC::SoftmaxFlashV2<Dev<T>, true, false, false, false, kM1Cfg>(
        f.dst, reg[a.reduceMax], reg[a.expSum], reg[a.max], f.src, f.em, reg[a.inExpSum],
        reg[a.inMax], f.tmp, t, si);
  } else if constexpr (m1) {
    AscendC::SoftmaxFlashV2<Dev<T>, true, false, false, false, kM1Cfg>(
        f.dst, reg[a.expSum], reg[a.max], f.src, f.em, reg[a.inExpSum], reg[a.inMax], f.tmp, t, si);
  } else {
    AscendC::SoftmaxFlashV2<Dev<T>, true>(f.dst, reg[a.expSum], reg[a.max], f.src, f.em,
                                          reg[a.inExpSum], reg[a.inMax], f.tmp, t, si);
  }
}

// One update with the operands placed as `a` says; dst, expMax and all three regions compared.
template <class T, class S, bool v1 = false, bool m1 = false, bool reduceMax = false>
void CheckAliased(const Shape& s, const Alias& a, uint32_t seed) {
  SCOPED_TRACE(Name(s) + " v1 " + std::to_string(v1) + " m1 " + std::to_string(m1) + " reduceMax " +
               std::to_string(reduceMax) + " alias " + std::to_string(a.reduceMax) +
               std::to_string(a.expSum) + std::to_string(a.max) + std::to_string(a.inExpSum) +
               std::to_string(a.inMax) + " dst " + std::to_string(a.dst) + " seed " +
               std::to_string(seed));
  constexpr uint32_t kRegion = kUbBufBytes / 4 / sizeof(S);
  const auto x = Inputs<T>(seed, s);
  const uint32_t emN = m1 ? s.m : s.m * 32 / sizeof(T);
  // Values that serve as sums and as maxima alike (above and below the rows' maxima).
  const auto st0 = Uniform<S>(seed + 1, 3 * kRegion, 0.5f, 9.0f);
  constexpr uint32_t kEmAt = kUbBufBytes / 2 / sizeof(T);
  SoftMaxTiling t;
  AscendC::SoftMaxFlashV2TilingFunc(ge::Shape({s.m, s.k}), sizeof(T), sizeof(S), kUbBufBytes / 2, t,
                                    true);
  std::vector<T> y, em;
  std::vector<S> st;
  OnBlock(
      [&](Ub& ub) {
        Put(ub, 0, x);
        Put(ub, 1, Sentinel<T>(x.size()));
        Put(ub, 2, st0);
        auto b = ub.Get<Dev<S>>(2);
        const AscendC::LocalTensor<Dev<S>> reg[3] = {b[0], b[kRegion], b[2 * kRegion]};
        CallFlash<T, S, v1, m1, reduceMax>(ub, reg, a, t, {s.m, s.k, s.m, s.oriK});
        y = Take<T>(ub, 1, x.size());
        st = Take<S>(ub, 2, st0.size());
        em = Take<T>(ub, 3, emN, kEmAt);
      },
      k950);
  std::vector<T> wy = Sentinel<T>(x.size()), wem(emN);
  std::vector<S> w = st0;
  const auto at = [&](int region) { return w.data() + region * kRegion; };
  T* wdst = wy.data();
  if constexpr (std::is_same_v<T, S>) {
    if (a.dst >= 0) wdst = at(a.dst);
  }
  const lngrad_replay::NzFlashV2Io<T, S> io{x.data(),   wdst,           at(a.expSum), at(a.max),
                                            wem.data(), at(a.inExpSum), at(a.inMax)};
  r3510::SoftmaxFlashUpdate(s.m, s.k, s.oriK, io, v1,
                            {false, m1, reduceMax ? at(a.reduceMax) : nullptr});
  ExpectSameBits(y, wy, "dst");
  ExpectSameBits(st, w, "statistics");
  ExpectSameBits(em, wem, "expMax");
}

// outReduceMax (M1) is stored before inMax is read: aliased with inMax, with inExpSum (and
// expSum), with max and inMax.
TEST(SoftmaxFlashV2Update3510Replay, OutReduceMaxIsStoredFirst) {
  uint32_t seed = 4200;
  const Alias cases[] = {{0, 1, 2, 1, 0}, {1, 1, 0, 1, 0}, {0, 1, 0, 1, 0}, {2, 1, 2, 1, 0}};
  for (const Alias& a : cases) {
    for (const Shape& s : {Shape{5, 72, 70}, Shape{3, 128, 128}, Shape{9, 8, 6}}) {
      CheckAliased<float, float, false, true, true>(s, a, seed++);
    }
    for (const Shape& s : {Shape{4, 80, 77}, Shape{3, 16, 16}}) {
      CheckAliased<Half, Half, false, true, true>(s, a, seed++);
    }
  }
}

// max is stored before inExpSum is read (after the row's dst): max aliased with inExpSum, in both
// SoftmaxFlashV2 modes and in SoftmaxFlash; and expSum = inExpSum, max = inMax (in place).
TEST(SoftmaxFlashV2Update3510Replay, InExpSumIsReadAfterMaxIsStored) {
  uint32_t seed = 4250;
  const Alias cases[] = {{0, 0, 1, 1, 2}, {0, 2, 1, 1, 0}, {0, 0, 1, 0, 1}};
  for (const Alias& a : cases) {
    for (const Shape& s : {Shape{5, 72, 70}, Shape{3, 200, 200}}) {
      CheckAliased<float, float>(s, a, seed++);
      CheckAliased<float, float, false, true>(s, a, seed++);
      CheckAliased<float, float, true>(s, a, seed++);
    }
    CheckAliased<Half, float>({4, 80, 77}, a, seed++);
    CheckAliased<Half, Half, false, true>({4, 80, 77}, a, seed++);
    CheckAliased<Half, float, true>({3, 48, 48}, a, seed++);
  }
}

// SoftmaxFlash stores dst in a second loop, after every row's statistics, reading each row's sum
// back from sumTensor (float statistics) first: dst on inMax or inSum changes nothing the rows
// read; dst on sumTensor gives the later rows the dst values stored over their sums; dst on max
// is overwritten only after the statistics. (sfx4's reading of softmax_flash_impl.h.)
TEST(SoftmaxFlashUpdate3510Replay, DstIsStoredInASecondPass) {
  uint32_t seed = 4300;
  const Alias cases[] = {
      {0, 0, 1, 1, 2, 2}, {0, 0, 1, 2, 1, 2}, {0, 0, 1, 1, 2, 0}, {0, 0, 1, 1, 2, 1}};
  for (const Alias& a : cases) {
    for (const Shape& s : {Shape{5, 72, 70}, Shape{3, 200, 200}, Shape{9, 64, 64}}) {
      CheckAliased<float, float, true>(s, a, seed++);
    }
    CheckAliased<Half, Half, true>({4, 80, 77}, a, seed++);
    CheckAliased<Half, Half, true>({6, 32, 32}, a, seed++);
  }
}

// SoftmaxFlash and SoftmaxFlashV2 with update on the 950 read src twice per row
// (SoftmaxFlashND[WithTail]Impl, SoftmaxFlashV2[M1]ND[WithTail]UpdateVFImpl): for the max, and,
// after the row's max (V2: and expMax) is stored, for the exponentials. The kit's reuse check
// (MultipleTensorCheckFuncBasicClass) refuses only tensors of the same address and size, so
// maxTensor (or V2's expMaxTensor) may be a view into src's buffer at `at`: rows 0 and 1 store
// their statistics over the next row (read after), row 2 over its own columns (the second read
// sees them), the later rows over rows already read. Buffer 0: x, then a sentinel; every buffer
// compared.
template <class T, bool v1, bool onExpMax>
void CheckStatsOnSrc(const Shape& s, uint32_t at, uint32_t seed) {
  SCOPED_TRACE(Name(s) + " v1 " + std::to_string(v1) + " onExpMax " + std::to_string(onExpMax) +
               " at " + std::to_string(at));
  constexpr uint32_t kRegion = kUbBufBytes / 4 / sizeof(T), kEmAt = kUbBufBytes / 2 / sizeof(T);
  const uint32_t n = s.m * s.k, ls = 32 / sizeof(T);
  std::vector<T> b0 = Sentinel<T>(kUbBufBytes / sizeof(T));
  const auto x = Inputs<T>(seed, s);
  std::copy(x.begin(), x.end(), b0.begin());
  const auto st0 = Uniform<T>(seed + 1, 3 * kRegion, 0.5f, 9.0f);
  SoftMaxTiling t;
  AscendC::SoftMaxFlashV2TilingFunc(ge::Shape({s.m, s.k}), sizeof(T), sizeof(T), kUbBufBytes / 2, t,
                                    true);
  std::vector<T> y, got0, st, em;
  OnBlock(
      [&](Ub& ub) {
        Put(ub, 0, b0);
        Put(ub, 1, Sentinel<T>(n));
        Put(ub, 2, st0);
        const FlashTensors<T, T> f(ub);
        auto src = ub.Get<Dev<T>>(0), r = ub.Get<Dev<T>>(2);
        src.SetSize(n);
        const auto max = onExpMax ? r[2 * kRegion] : ub.Get<Dev<T>>(0)[at];
        const auto emT = onExpMax ? ub.Get<Dev<T>>(0)[at] : f.em;
        const AscendC::SoftMaxShapeInfo si{s.m, s.k, s.m, s.oriK};
        if constexpr (v1) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
          AscendC::SoftmaxFlash<Dev<T>>(f.dst, r[0], max, src, emT, r[kRegion], r[kRegion + 512],
                                        f.tmp, t, true, si);
#pragma GCC diagnostic pop
        } else {
          AscendC::SoftmaxFlashV2<Dev<T>, true>(f.dst, r[0], max, src, emT, r[kRegion],
                                                r[kRegion + 512], f.tmp, t, si);
        }
        y = Take<T>(ub, 1, n);
        got0 = Take<T>(ub, 0, b0.size());
        st = Take<T>(ub, 2, st0.size());
        em = Take<T>(ub, 3, s.m * ls, kEmAt);
      },
      k950);
  std::vector<T> wy = Sentinel<T>(n), w0 = b0, w = st0, wem(s.m * ls);
  T* wmax = onExpMax ? w.data() + 2 * kRegion : w0.data() + at;
  T* wemp = onExpMax ? w0.data() + at : wem.data();
  const lngrad_replay::NzFlashV2Io<T, T> io{
      w0.data(), wy.data(), w.data(), wmax, wemp, w.data() + kRegion, w.data() + kRegion + 512};
  r3510::SoftmaxFlashUpdate(s.m, s.k, s.oriK, io, v1);
  ExpectSameBits(y, wy, "dst");
  ExpectSameBits(got0, w0, "src buffer");
  ExpectSameBits(st, w, "statistics");
  if (!onExpMax) ExpectSameBits(em, wem, "expMax");
}

TEST(SoftmaxFlashUpdate3510Replay, SrcIsReadAgainAfterMaxIsStored) {
  uint32_t seed = 4400;
  CheckStatsOnSrc<float, true, false>({5, 72, 70}, 136, seed++);
  CheckStatsOnSrc<float, false, false>({5, 72, 70}, 136, seed++);
  CheckStatsOnSrc<float, false, true>({5, 72, 70}, 136, seed++);
  CheckStatsOnSrc<float, true, false>({4, 136, 136}, 264, seed++);
  CheckStatsOnSrc<Half, true, false>({4, 80, 77}, 144, seed++);
  CheckStatsOnSrc<Half, false, false>({4, 80, 77}, 144, seed++);
  CheckStatsOnSrc<Half, false, true>({4, 80, 77}, 144, seed++);
}

}  // namespace
