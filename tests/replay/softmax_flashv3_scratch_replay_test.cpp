// SoftmaxFlashV3's work buffer on Ascend910B1 (arch 2201), half data and float statistics,
// without and with update: lngrad against the replay of the kit's instruction sequence
// (replay_softmax_flashv3_scratch.h), the whole scratch byte for byte (0xa5 where nothing is
// written; two NaNs match), dst with 40 sentinels past it, mean, expSum, max and expMax against
// the replay's own results, the sources unchanged. Both overloads: sharedTmpBuffer and the stack
// buffer (the TPipe leaves exactly the scratch). Scratch sizes: one row's minimum, three rows'
// and 12 bytes (not a multiple of 32: the shared overload only), the maximum (capped at 60 KiB).
// Session 23 (sf3, who also changed lngrad: softmaxflashv3.h RefuseFlashV3Tiling): tilings
// covering fewer rows than the call (refused in checked mode, unchecked the covered rows) and
// with another srcM, which the 2201 kernel (membase/v220/softmax_flashv3_impl.h, the split
// loops of SoftmaxFlashV3NoUpdateExtImpl / SoftmaxFlashV3NDExtImpl) does not read. Session 24
// (tie2, who also changed lngrad's maxTmp): rows whose row max is a +0/-0 tie.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "../aicore/sanitizer_off.h"
#include "kernel_operator.h"
#include "lngrad_aicore/launch.h"
#include "replay.h"
#include "replay_softmax.h"
#include "replay_softmax_flashv3_scratch.h"
#include "softmax_flash_scratch_util.h"
#include "tiling/tiling_api.h"

namespace {

namespace sh = lngrad_replay::scratch_test;
using AscendC::LocalTensor;
using lngrad_replay::Half;
using lngrad_replay::SmxTiling;
using namespace lngrad_replay::flash_scratch_test;  // Al, Load, Store, Uniform, Widened

constexpr uint32_t kPast = 40;
constexpr uint8_t kFill = 0xa5;
constexpr uint32_t kStat = 8;  // floats of statistics per row

struct Shape {
  uint32_t m, k;
};

// Inputs in [-8, 8); every fourth row spans [-110, 12) (exponentials underflow); +-0 and half
// subnormals in rows 1 and 2 mod 5. No inf or NaN in src: one makes the row's mean, so every
// shifted value of the row, NaN.
std::vector<Half> Inputs(uint32_t seed, const Shape& s) {
  std::mt19937 gen(seed);
  std::vector<Half> v(uint64_t{s.m} * s.k);
  const float specials[] = {0.0f, -0.0f, 6e-8f, -3e-6f, 1e-5f, -0.0f};
  for (uint32_t r = 0; r < s.m; ++r) {
    const bool wide = r % 4 == 3;
    std::uniform_real_distribution<float> d(wide ? -110.0f : -8.0f, wide ? 12.0f : 8.0f);
    for (uint32_t c = 0; c < s.k; ++c) {
      v[uint64_t{r} * s.k + c] = lngrad_replay::FromFloat<Half>(d(gen));
    }
    if (r % 5 == 1 || r % 5 == 2) {
      for (uint32_t i = 0; i < 7; ++i) {
        v[uint64_t{r} * s.k + gen() % s.k] = lngrad_replay::FromFloat<Half>(specials[gen() % 6]);
      }
    }
  }
  return v;
}

// Rows whose shifted values keep their zeros' signs and whose maximum is a +0/-0 tie: every
// 8-column block, shuffled, is {z, -1, ..., -7} (z a random signed zero), {z, z', -1, -2, -3, -4,
// -5, -13} or {-1, -1, -2, -3, -4, -5, -5, -7}; all sum to -28 exactly, so every segment's mean
// is the same, the shifts are +0 and x - shift is x. Without update maxTmp keeps the row max's
// sign (the final max, max + (+0), does not).
std::vector<Half> TieInputs(uint32_t seed, const Shape& s) {
  std::mt19937 gen(seed);
  std::vector<Half> v(uint64_t{s.m} * s.k);
  const float kinds[3][8] = {{0.0f, -1, -2, -3, -4, -5, -6, -7},
                             {0.0f, 0.0f, -1, -2, -3, -4, -5, -13},
                             {-1, -1, -2, -3, -4, -5, -5, -7}};
  for (uint32_t r = 0; r < s.m; ++r) {
    for (uint32_t c = 0; c < s.k; c += 8) {
      float b[8];
      std::memcpy(b, kinds[gen() % 3], sizeof b);
      for (float& x : b) x = x == 0.0f && gen() % 2 ? -0.0f : x;
      std::shuffle(std::begin(b), std::end(b), gen);
      for (uint32_t i = 0; i < 8; ++i)
        v[uint64_t{r} * s.k + c + i] = lngrad_replay::FromFloat<Half>(b[i]);
    }
  }
  return v;
}

struct Io {
  std::vector<Half> src, dst, em;
  std::vector<float> mean, sum, max, inMean, inSum, inMax;
  std::vector<uint8_t> tmp;
};

template <bool kUpdate>
void Call(const LocalTensor<half> (&h)[3], const LocalTensor<float> (&f)[6],
          const LocalTensor<uint8_t>& tmp, bool stack, const SoftMaxTiling& t,
          const AscendC::SoftMaxParams& p) {
  if (stack) {
    AscendC::SoftmaxFlashV3<half, float, kUpdate>(h[1], f[0], f[1], f[2], h[0], h[2], f[3], f[4],
                                                  f[5], t, p);
  } else {
    AscendC::SoftmaxFlashV3<half, float, kUpdate>(h[1], f[0], f[1], f[2], h[0], h[2], f[3], f[4],
                                                  f[5], tmp, t, p);
  }
}

// Runs SoftmaxFlashV3<half, float, update> on a block of Ascend910B1 with the operands of `in`.
// refused: where given, the launch's failure message ("" when it succeeded), not expected to
// succeed.
Io RunLngrad(bool update, bool stack, uint32_t tmpBytes, const SoftMaxTiling& t,
             const AscendC::SoftMaxParams& p, const Io& in, std::string* refused = nullptr) {
  Io got = in;
  lngrad::aicore::LaunchOptions opts;
  opts.soc = "Ascend910B1";
  const auto kernel = [&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<> hb[3], fb[6], own, filler;
    const uint64_t hs[3] = {in.src.size() * 2, in.dst.size() * 2, in.em.size() * 2};
    for (int i = 0; i < 3; ++i) pipe.InitBuffer(hb[i], Al(hs[i]));
    for (int i = 0; i < 6; ++i) pipe.InitBuffer(fb[i], Al(in.mean.size() * 4));
    LocalTensor<uint8_t> tmp;
    lngrad_replay::scratch_test::TakeScratch(pipe, own, filler, stack, tmpBytes, &tmp);
    if (::testing::Test::HasFatalFailure()) return;
    const LocalTensor<half> h[3] = {hb[0].Get<half>(), hb[1].Get<half>(), hb[2].Get<half>()};
    const LocalTensor<float> f[6] = {fb[0].Get<float>(), fb[1].Get<float>(), fb[2].Get<float>(),
                                     fb[3].Get<float>(), fb[4].Get<float>(), fb[5].Get<float>()};
    Load(h[0], in.src), Load(h[1], in.dst), Load(h[2], in.em);
    Load(f[0], in.mean), Load(f[1], in.sum), Load(f[2], in.max);
    Load(f[3], in.inMean), Load(f[4], in.inSum), Load(f[5], in.inMax);
    std::memset(tmp.HostPtr(), kFill, tmpBytes);
    if (update) {
      Call<true>(h, f, tmp, stack, t, p);
    } else {
      Call<false>(h, f, tmp, stack, t, p);
    }
    Store(h[0], got.src), Store(h[1], got.dst), Store(h[2], got.em);
    Store(f[0], got.mean), Store(f[1], got.sum), Store(f[2], got.max);
    Store(f[3], got.inMean), Store(f[4], got.inSum), Store(f[5], got.inMax);
    got.tmp.assign(tmp.HostPtr(), tmp.HostPtr() + tmpBytes);
  };
  const auto status = lngrad::aicore::Launch(1, kernel, opts);
  if (refused != nullptr) {
    *refused = status.ok() ? "" : std::string(status.message());
  } else {
    EXPECT_TRUE(status.ok()) << status.message();
  }
  return got;
}

Io Operands(const Shape& s, uint32_t seed, bool ties = false) {
  const uint64_t n = uint64_t{s.m} * s.k, st = uint64_t{s.m} * kStat;
  Io in;
  in.src = ties ? TieInputs(seed, s) : Inputs(seed, s);
  in.dst.assign(n + kPast, lngrad_replay::FromFloat<Half>(-77.0f));
  in.em.assign(uint64_t{s.m} * 16, lngrad_replay::FromFloat<Half>(-5.0f));
  in.mean = Uniform(seed + 1, st, -3.0f, 3.0f);  // stale contents the kit may read
  in.sum = Uniform(seed + 2, st, -3.0f, 3.0f);
  in.max = Uniform(seed + 3, st, -3.0f, 3.0f);
  in.inMean = Uniform(seed + 4, st, -2.0f, 2.0f);
  in.inSum = Uniform(seed + 5, st, 0.5f, 40.0f);
  in.inMax = Uniform(seed + 6, st, -6.0f, 9.0f);
  if (st > 9) in.inMax[9] = NAN;
  if (st > 17) in.inMax[17] = -INFINITY;
  return in;
}

// One shape, one scratch size, both overloads, without and with update (ties: TieInputs' src).
void Check(const Shape& s, uint32_t tmpBytes, uint32_t seed, bool ties = false) {
  for (const bool update : {false, true}) {
    SoftMaxTiling t;
    AscendC::SoftMaxFlashV3TilingFunc(ge::Shape({s.m, s.k}), 2, 4, tmpBytes, t, update, false);
    SmxTiling mt;
    std::memcpy(&mt, &t, sizeof mt);
    const AscendC::SoftMaxParams p{s.m, s.k, s.m, s.k, 3, 8, 0.9375f};
    const Io in = Operands(s, seed, ties);
    for (const bool stack : {false, true}) {
      if (stack && tmpBytes % 32 != 0) continue;  // the stack buffer comes in 32-byte blocks
      SCOPED_TRACE("m " + std::to_string(s.m) + " k " + std::to_string(s.k) + " tmp " +
                   std::to_string(tmpBytes) + " splitM " + std::to_string(t.splitM) + " tailM " +
                   std::to_string(t.tailM) + (update ? " update" : " no update") +
                   (stack ? " stack" : " shared"));
      // Without update a split of more than 8 rows copies its mean with a mask above 64: checked
      // mode refuses it (CheckMaskValue); unchecked lngrad follows the device, compared here.
      const bool maskPast64 = !update && (t.reduceSize > 64 || t.tailReduceSize > 64);
      const bool was = lngrad::aicore::CheckedMode();
      lngrad::aicore::SetCheckedMode(!maskPast64 && was);
      const Io got = RunLngrad(update, stack, tmpBytes, t, p, in);
      lngrad::aicore::SetCheckedMode(was);
      if (::testing::Test::HasFailure()) return;
      Io want = in;
      std::vector<float> dst(uint64_t{s.m} * s.k), em = Widened(in.em);
      std::vector<uint8_t> wtmp(tmpBytes, kFill);
      const std::vector<float> src = Widened(in.src);
      ASSERT_TRUE(lngrad_replay::ReplayFlashV3Scratch(
          mt, {update, s.k, 8, p.loopCnt, p.alpha},
          {src.data(), dst.data(), want.mean.data(), want.sum.data(), want.max.data(), em.data(),
           in.inMean.data(), in.inSum.data(), in.inMax.data()},
          wtmp.data(), tmpBytes));
      for (size_t i = 0; i < dst.size(); ++i)
        want.dst[i] = lngrad_replay::FloatToHalfRoundAway(dst[i]);
      for (size_t i = 0; i < em.size(); ++i)
        want.em[i] = lngrad_replay::FloatToHalfRoundAway(em[i]);
      sh::ExpectSameImage(got.tmp, wtmp, 4, "scratch");
      sh::ExpectSameValues(got.dst, want.dst, "dst");
      sh::ExpectSameValues(got.mean, want.mean, "mean");
      sh::ExpectSameValues(got.sum, want.sum, "expSum");
      sh::ExpectSameValues(got.max, want.max, "max");
      sh::ExpectSameValues(got.em, want.em, "expMax");
      sh::ExpectSameValues(got.src, in.src, "src");
      sh::ExpectSameValues(got.inMean, in.inMean, "inMean");
      sh::ExpectSameValues(got.inSum, in.inSum, "inExpSum");
      sh::ExpectSameValues(got.inMax, in.inMax, "inMax");
    }
  }
}

uint32_t MinBytes(const Shape& s, bool update) {
  uint32_t max = 0, min = 0;
  AscendC::GetSoftMaxFlashV3MaxMinTmpSize(ge::Shape({s.m, s.k}), 2, 4, max, min, update, false);
  return min;
}
uint32_t MaxBytes(const Shape& s, bool update) {
  uint32_t max = 0, min = 0;
  AscendC::GetSoftMaxFlashV3MaxMinTmpSize(ge::Shape({s.m, s.k}), 2, 4, max, min, update, false);
  return std::min<uint32_t>(max, 60 * 1024);
}

// Every size: the minimum (one row per split), three rows' and 12 bytes, the maximum.
void Sweep(const Shape* shapes, size_t count, uint32_t seed) {
  for (size_t i = 0; i < count; ++i) {
    const Shape& s = shapes[i];
    Check(s, MinBytes(s, true), seed += 10);
    Check(s, MinBytes(s, true) * 3 + 12, seed += 10);
    Check(s, MaxBytes(s, true), seed += 10);
  }
}

const Shape kFew[] = {{1, 512}, {2, 512}, {3, 576}, {5, 512}, {8, 640}};
const Shape kMany[] = {{9, 512}, {12, 512}, {17, 512}, {2, 1024}, {4, 1536}};

TEST(SoftmaxFlashV3ScratchReplay, SplitsOfUpToEightRows) { Sweep(kFew, std::size(kFew), 4900); }

TEST(SoftmaxFlashV3ScratchReplay, SplitsOfMoreRowsAndLongRows) {
  Sweep(kMany, std::size(kMany), 5900);
}

// Rows whose shifted maximum is a tie of +0 and -0 (TieInputs), one row a split and more, 512
// columns and longer (the chunks past 512 combined with Max(chunk, acc)): the row max
// NewReduceMaxLastNDImpl leaves in maxTmp takes lngrad's lane rule for WholeReduceMax /
// BlockReduceMax (the first lane holding the maximum) in lngrad and the replay (session 24, tie2:
// the replay's lane reductions were a pair tree of Max2, lngrad's maxTmp a left-to-right fold).
TEST(SoftmaxFlashV3ScratchReplay, SignedZeroTieRowMaxFollowsTheKitsOrder) {
  uint32_t seed = 8100;
  for (const Shape& s : {Shape{1, 512}, Shape{3, 512}, Shape{2, 576}, Shape{9, 640}, Shape{2, 1024},
                         Shape{4, 1536}}) {
    Check(s, MinBytes(s, true), seed += 10, true);
    Check(s, MinBytes(s, true) * 3, seed += 10, true);
    Check(s, MaxBytes(s, true), seed += 10, true);
  }
}

// The 2201 kernel runs the tiling it is given (no re-tile) and does not read tiling.srcM. A
// tiling whose splits cover fewer rows than the call (here SoftMaxFlashV3TilingFunc's for 2 rows
// fewer): checked mode refuses it (softmax_device_defect); unchecked,
// lngrad computes the covered rows only, the buffer as the kit leaves it, the other rows as they
// were. A tiling of the form covering the rows with another srcM: modelled in checked mode. Both
// against the replay (which runs the tiling's splits).
TEST(SoftmaxFlashV3ScratchReplay, TilingsOfOtherRowsFollowTheKit) {
  uint32_t seed = 7100;
  for (const Shape& s : {Shape{5, 512}, Shape{12, 512}, Shape{9, 576}}) {
    for (const bool update : {false, true}) {
      const uint32_t bytes = MinBytes(s, true) * 3;
      for (const bool fewer : {true, false}) {
        SoftMaxTiling t;
        AscendC::SoftMaxFlashV3TilingFunc(ge::Shape({fewer ? s.m - 2 : s.m, s.k}), 2, 4, bytes, t,
                                          update, false);
        if (!fewer) t.srcM = s.m + 7;
        SmxTiling mt;
        std::memcpy(&mt, &t, sizeof mt);
        const AscendC::SoftMaxParams p{s.m, s.k, s.m, s.k, 3, 8, 0.9375f};
        const Io in = Operands(s, seed += 10);
        SCOPED_TRACE("m " + std::to_string(s.m) + " splitM " + std::to_string(t.splitM) +
                     " tailM " + std::to_string(t.tailM) + (update ? " update" : " no update") +
                     (fewer ? " fewer rows" : " srcM " + std::to_string(t.srcM)));
        Io got;
        if (fewer) {
          std::string refused;
          RunLngrad(update, false, bytes, t, p, in, &refused);
          EXPECT_NE(refused.find("softmax_device_defect"), std::string::npos) << refused;
          const bool was = lngrad::aicore::CheckedMode();
          lngrad::aicore::SetCheckedMode(false);
          got = RunLngrad(update, false, bytes, t, p, in);
          lngrad::aicore::SetCheckedMode(was);
        } else {
          got = RunLngrad(update, false, bytes, t, p, in);
        }
        if (::testing::Test::HasFailure()) return;
        Io want = in;
        std::vector<float> dst = Widened(in.dst), em = Widened(in.em);
        std::vector<uint8_t> wtmp(bytes, kFill);
        const std::vector<float> src = Widened(in.src);
        ASSERT_TRUE(lngrad_replay::ReplayFlashV3Scratch(
            mt, {update, s.k, 8, p.loopCnt, p.alpha},
            {src.data(), dst.data(), want.mean.data(), want.sum.data(), want.max.data(), em.data(),
             in.inMean.data(), in.inSum.data(), in.inMax.data()},
            wtmp.data(), bytes));
        for (size_t i = 0; i < dst.size(); ++i)
          want.dst[i] = lngrad_replay::FloatToHalfRoundAway(dst[i]);
        for (size_t i = 0; i < em.size(); ++i)
          want.em[i] = lngrad_replay::FloatToHalfRoundAway(em[i]);
        sh::ExpectSameImage(got.tmp, wtmp, 4, "scratch");
        sh::ExpectSameValues(got.dst, want.dst, "dst");
        sh::ExpectSameValues(got.mean, want.mean, "mean");
        sh::ExpectSameValues(got.sum, want.sum, "expSum");
        sh::ExpectSameValues(got.max, want.max, "max");
        sh::ExpectSameValues(got.em, want.em, "expMax");
      }
    }
  }
}

}  // namespace
