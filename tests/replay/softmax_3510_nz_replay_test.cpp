// The NZ update forms of the SoftMax family on the 950 (dav-3510) through lngrad's Ascend C API,
// compared bit for bit with sfx5's replay of the toolkit's 3510 register code
// (replay_softmax_3510_nz.cpp): SoftmaxFlashV2 with update (float, half, half with float
// statistics; statistics whose lanes differ, NaN and infinities among them; oriSrcK tails and
// oriSrcM below srcM; statistics in place) and AdjustSoftMaxRes (register-wide rows, a fractal M
// that is not a multiple of the register's rows).
#include "replay_softmax_3510.h"

#include "../aicore/checked_mode_scope.h"
#include "../aicore/sanitizer_off.h"
#include "softmax_replay_util.h"

namespace {

using namespace softmax_replay_test;  // NOLINT(build/namespaces)
namespace r3510 = lngrad_replay::r3510;

struct NzShape {
  uint32_t srcM, srcK, oriM, oriK;
};

std::string Name(const NzShape& s) {
  return "NZ m " + std::to_string(s.srcM) + " k " + std::to_string(s.srcK) + " oriM " +
         std::to_string(s.oriM) + " oriK " + std::to_string(s.oriK);
}

// Statistics whose lanes differ, with NaN, +inf and -inf among the lanes of some rows.
template <class S>
std::vector<S> OddStats(uint32_t seed, uint32_t m, float lo, float hi) {
  std::vector<S> v = Stats<S>(seed, m, 32 / sizeof(S), lo, hi, true);
  const float odd[] = {NAN, INFINITY, -INFINITY};
  for (uint32_t r = 1; r < m; r += 4)
    v[r * (32 / sizeof(S)) + r % 5] = lngrad_replay::FromFloat<S>(odd[r % 3]);
  return v;
}

// SoftmaxFlashV2<isUpdate, NZ>: src buffer 0, dst buffer 1 (expMax after it), buffer 2 holds
// expSum, inExpSum, max and inMax (inPlace: expSum = inExpSum and max = inMax). Every output
// starts as a seeded value on both sides.
template <class T, class S>
void CheckFlashNzUpdate(const NzShape& s, bool inPlace, uint32_t seed) {
  SCOPED_TRACE(Name(s) + " inPlace " + std::to_string(inPlace) + " seed " + std::to_string(seed));
  constexpr uint32_t kEm = 8192, kQ = kMaxAt<S> / 2;
  const uint32_t lanes = 32 / sizeof(S), emLanes = 32 / sizeof(T), n = s.srcM * s.srcK;
  auto x = Uniform<T>(seed, n, -8.0f, 8.0f);
  x[3] = lngrad_replay::FromFloat<T>(-INFINITY);
  if (n > 40) x[40] = lngrad_replay::FromFloat<T>(NAN);
  const auto init = Uniform<T>(seed + 7, n, -3.0f, 3.0f);
  const auto inSum = OddStats<S>(seed + 1, s.srcM, 1.0f, 20.0f);
  const auto inMax = OddStats<S>(seed + 2, s.srcM, -4.0f, 9.0f);
  const auto outInit = Uniform<S>(seed + 3, s.srcM * lanes, -1.0f, 1.0f);
  const auto emInit = Uniform<T>(seed + 4, s.srcM * emLanes, -1.0f, 1.0f);
  const uint32_t inSumAt = inPlace ? 0 : kQ, inMaxAt = inPlace ? kMaxAt<S> : kMaxAt<S> + kQ;
  std::vector<T> y, em;
  std::vector<S> sum, max;
  OnBlock(
      [&](Ub& ub) {
        Put(ub, 0, x);
        Put(ub, 1, init);
        Put(ub, 1, emInit, kEm);
        Put(ub, 2, outInit);
        Put(ub, 2, outInit, kMaxAt<S>);
        Put(ub, 2, inSum, inSumAt);
        Put(ub, 2, inMax, inMaxAt);
        auto st = ub.Get<Dev<S>>(2);
        auto out = ub.Get<Dev<T>>(1);
        AscendC::SoftmaxFlashV2<Dev<T>, true, false, false, true>(
            out, st[0], st[kMaxAt<S>], ub.Get<Dev<T>>(0), out[kEm], st[inSumAt], st[inMaxAt],
            ub.Get<uint8_t>(3), SoftMaxTiling{}, {s.srcM, s.srcK, s.oriM, s.oriK});
        y = Take<T>(ub, 1, n);
        em = Take<T>(ub, 1, emInit.size(), kEm);
        sum = Take<S>(ub, 2, outInit.size());
        max = Take<S>(ub, 2, outInit.size(), kMaxAt<S>);
      },
      k950);
  std::vector<T> wy = init, wem = emInit;
  std::vector<S> wsum = inPlace ? inSum : outInit, wmax = inPlace ? inMax : outInit;
  const S* in0 = inPlace ? wsum.data() : inSum.data();
  const S* in1 = inPlace ? wmax.data() : inMax.data();
  r3510::SoftmaxFlashV2NzUpdate<T, S>(
      s.srcM, s.srcK, s.oriM, s.oriK,
      {x.data(), wy.data(), wsum.data(), wmax.data(), wem.data(), in0, in1});
  ExpectSameBits(y, wy, "dst");
  ExpectSameBits(em, wem, "expMax");
  ExpectSameBits(sum, wsum, "expSum");
  ExpectSameBits(max, wmax, "max");
}

const NzShape kFlashShapes[] = {{16, 16, 16, 16}, {16, 48, 16, 40}, {32, 64, 27, 64},
                                {16, 64, 11, 20}, {8, 32, 8, 24},   {24, 32, 24, 32},
                                {16, 80, 16, 69}};

TEST(SoftmaxFlashV2NzUpdate3510Replay, MatchesBitForBit) {
  uint32_t seed = 5100;
  for (const NzShape& s : kFlashShapes) {
    CheckFlashNzUpdate<float, float>(s, false, seed++);
    CheckFlashNzUpdate<Half, Half>(s, false, seed++);
    CheckFlashNzUpdate<Half, float>(s, false, seed++);
  }
}

TEST(SoftmaxFlashV2NzUpdate3510Replay, StatisticsInPlace) {
  uint32_t seed = 5200;
  for (const NzShape& s : {NzShape{16, 48, 13, 35}, NzShape{32, 32, 32, 32}}) {
    CheckFlashNzUpdate<float, float>(s, true, seed++);
    CheckFlashNzUpdate<Half, Half>(s, true, seed++);
    CheckFlashNzUpdate<Half, float>(s, true, seed++);
  }
}

// Half statistics: the e2b loops run ceil(srcM / 4) registers of 4 rows, so every row below
// oriSrcM is computed whatever srcM % 8.
TEST(SoftmaxFlashV2NzUpdate3510Replay, HalfStatisticsAnySrcM) {
  uint32_t seed = 5300;
  for (const NzShape& s :
       {NzShape{12, 32, 12, 32}, NzShape{4, 16, 4, 9}, NzShape{20, 48, 18, 40}}) {
    CheckFlashNzUpdate<Half, Half>(s, false, seed++);
  }
  CheckFlashNzUpdate<Half, float>({12, 32, 8, 32}, false, seed++);  // oriM within 8 * (12 / 8)
}

// Float statistics with oriSrcM above 8 * (srcM / 8): the device's e2b loops leave the last
// rows' max in scratch unwritten; refused in either mode.
TEST(SoftmaxFlashV2NzUpdate3510Replay, FloatStatisticsPastTheE2bRowsAreRefused) {
  for (const bool checked : {true, false}) {
    lngrad::aicore::test::CheckedModeScope mode(checked);
    const auto r = lngrad::aicore::test::CheckOf(
        [&](Ub& ub) {
          auto st = ub.Get<float>(2);
          auto out = ub.Get<float>(1);
          AscendC::SoftmaxFlashV2<float, true, false, false, true>(
              out, st[0], st[1024], ub.Get<float>(0), out[4096], st[2048], st[3072],
              ub.Get<uint8_t>(3), SoftMaxTiling{}, {12, 32, 12, 32});
        },
        k950);
    EXPECT_EQ(r.first, "invalid_count") << r.second;
    EXPECT_NE(r.second.find("8 * (srcM / 8)"), std::string::npos) << r.second;
  }
}

// AdjustSoftMaxRes<NZ> on the 950: the max of row i decides register i of every fractal; the
// buffer after the tensor is compared too (resMem: the whole buffer).
template <class T, class S>
void CheckAdjustNz(uint32_t m, uint32_t k, uint32_t seed) {
  SCOPED_TRACE("NZ m " + std::to_string(m) + " k " + std::to_string(k) + " seed " +
               std::to_string(seed));
  const uint32_t step = 32 / sizeof(S), mem = kUbBufBytes / sizeof(T);
  const auto res = Uniform<T>(seed, mem, 0.0f, 1.0f);
  std::vector<S> max = Uniform<S>(seed + 1, m * step, -4.0f, 4.0f);
  const uint32_t from = sizeof(S) == 2 ? 0xFBFFu : 0xFF7FFFFFu;  // the lowest finite value
  S marker;
  std::memcpy(&marker, &from, sizeof marker);
  for (uint32_t r = seed % 2; r < m; r += 3) max[r * step] = marker;
  if (m > 2) max[2 * step + 1] = marker;  // not the row's first element: no match
  const T to = lngrad_replay::FromFloat<T>(-0.5f);
  std::vector<T> got;
  bool any = false;
  OnBlock(
      [&](Ub& ub) {
        Put(ub, 0, res);
        Put(ub, 1, max);
        any = AscendC::AdjustSoftMaxRes<Dev<T>, Dev<S>, true>(
            ub.Get<Dev<T>>(0), ub.Get<Dev<S>>(1), from, *reinterpret_cast<const Dev<T>*>(&to),
            {m, k, m, k});
        got = Take<T>(ub, 0, res.size());
      },
      k950);
  std::vector<T> want = res;
  const bool wantAny = r3510::AdjustSoftMaxResNz(m, k, want.data(), max.data(), from, to, mem);
  EXPECT_EQ(any, wantAny);
  ExpectSameBits(got, want, "softMaxRes");
}

TEST(AdjustSoftMaxRes3510Replay, NzMatchesBitForBit) {
  uint32_t seed = 5400;
  for (const auto& mk : {std::pair{16u, 16u}, std::pair{16u, 48u}, std::pair{32u, 32u},
                         std::pair{13u, 32u}, std::pair{6u, 16u}, std::pair{24u, 64u}}) {
    CheckAdjustNz<float, float>(mk.first, mk.second, seed++);
    CheckAdjustNz<Half, Half>(mk.first, mk.second, seed++);
    CheckAdjustNz<Half, float>(mk.first, mk.second, seed++);
  }
}

// M = 13 half: the second register of each fractal (rows 8 .. 15) runs 3 rows past it; past
// softMaxRes of exactly m * k elements checked mode names the store.
TEST(AdjustSoftMaxRes3510Replay, NzCheckedModeNamesTheLastRegisterPastTheTensor) {
  lngrad::aicore::test::CheckedModeScope mode(true);
  const auto r = lngrad::aicore::test::CheckOf(
      [&](Ub& ub) {
        auto res = ub.Get<half>(0);
        res.SetSize(13 * 32);
        AscendC::AdjustSoftMaxRes<half, half, true>(res, ub.Get<half>(1), 0xFBFFu, half(0.0f),
                                                    {13, 32, 13, 32});
      },
      k950);
  EXPECT_EQ(r.first, "tensor_bounds") << r.second;
  EXPECT_NE(r.second.find("stored whole, to element 464"), std::string::npos) << r.second;
}

}  // namespace
