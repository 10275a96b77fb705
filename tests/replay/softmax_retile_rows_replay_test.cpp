// A tiling made for another shape on dav-2201 with oriSrcM below srcM (sfx7): the kernels' re-tile
// (SoftMaxTilingFunc of softmax_tiling_func.h, called by softmax_base_impl.h SoftMaxImpl,
// softmax_common_simple.h SimpleSoftMaxBaseImpl and, whatever the tiling, logsoftmax_base_impl.h
// LogSoftMaxImpl) sets rangeM = oriSrcM / rows and tailM = oriSrcM % rows, so the generic split
// loops (SoftMaxNDExtImpl and SoftMaxNDImpl's `i <= rangeM` with the tail, LogSoftMaxNDImpl's,
// SimpleSoftMaxNDImpl's for half data; float SimpleSoftMax is one pass over srcM rows) compute the
// first oriSrcM rows only: the others of dst, sum and max keep their contents. Against the
// replays' split loops with the replay's own reading of the tiling function (SmxKernelTiling).
// SoftmaxGradFront<isBasicBlock> re-tiles too (softmax_grad_base_impl.h SoftmaxGradFrontImpl:
// SoftMaxGradTilingFunc over srcM rows) and sums the re-tile's rangeM full splits in the
// basic-block order (SmxGradTiling, sfx7's reading, replay_softmax_cfg.cpp).
#include "softmax_replay_util.h"

#include "../aicore/checked_mode_scope.h"

namespace softmax_replay_test {
namespace {

using lngrad::aicore::test::CheckedModeScope;

// [m, k] with oriSrcM = oriM rows and a tiling made for a shape 8 rows taller.
struct RowsCase {
  Shape s;
  uint32_t oriM, tmpBytes, seed;
};

SoftMaxTiling Taller(const Shape& s, uint32_t typeSize) {
  return HostTiling({s.m + 8, s.k, s.k}, typeSize, 0);
}

// SoftMax with statistics (stats) or without, generic path.
template <class T, class S>
void CheckSoftMax(const RowsCase& c, bool stats) {
  const Shape& s = c.s;
  SCOPED_TRACE(Name(s) + " oriM " + std::to_string(c.oriM) + " stats " + std::to_string(stats));
  CheckedModeScope unchecked(false);
  const auto x = Inputs<T>(c.seed, s);
  const uint32_t statSize = stats ? sizeof(S) : 4;
  const SmxTiling kt =
      lngrad_replay::SmxKernelTiling(c.tmpBytes / 4, s.m, s.k, c.oriM, sizeof(T), statSize, false);
  ASSERT_LT(kt.rangeM * kt.splitM + kt.tailM, s.m);
  const uint32_t n = s.m * s.k, ns = s.m * kt.reduceK;
  std::vector<T> y;
  std::vector<S> sum, max;
  OnBlock(
      [&](Ub& ub) {
        PutSoftMaxOperands<T, S>(ub, x, n, ns);
        auto st = ub.Get<Dev<S>>(2);
        auto tmp = ub.Get<uint8_t>(3);
        tmp.SetSize(c.tmpBytes);
        const AscendC::SoftMaxShapeInfo si{s.m, s.k, c.oriM, s.oriK};
        if (stats) {
          AscendC::SoftMax<Dev<T>>(ub.Get<Dev<T>>(1), st[0], st[kMaxAt<S>], ub.Get<Dev<T>>(0), tmp,
                                   Taller(s, statSize), si);
        } else {
          AscendC::SoftMax<Dev<T>>(ub.Get<Dev<T>>(1), ub.Get<Dev<T>>(0), tmp, Taller(s, 4), si);
        }
        y = Take<T>(ub, 1, n);
        sum = Take<S>(ub, 2, ns);
        max = Take<S>(ub, 2, ns, kMaxAt<S>);
      },
      k910B);
  std::vector<T> wy = Sentinel<T>(n), wsrc = x;
  std::vector<S> wsum = Sentinel<S>(ns), wmax = Sentinel<S>(ns);
  if (stats) {
    lngrad_replay::ReplaySoftMax(kt, s.oriK, x.data(), wy.data(), wsum.data(), wmax.data());
  } else {
    lngrad_replay::ReplaySoftMaxNoStats(kt, s.oriK, wsrc.data(), wy.data(), false);
  }
  ExpectOutputs("", y, wy, sum, wsum, max, wmax);
}

// SimpleSoftMax, generic path: half data runs the re-tile's splits, float data every row.
template <class T, class S>
void CheckSimple(const RowsCase& c) {
  const Shape& s = c.s;
  SCOPED_TRACE(Name(s) + " oriM " + std::to_string(c.oriM));
  CheckedModeScope unchecked(false);
  const auto x = Uniform<T>(c.seed, s.m * s.k, -4.0f, 6.0f);
  const SmxTiling kt =
      lngrad_replay::SmxKernelTiling(c.tmpBytes / 4, s.m, s.k, c.oriM, sizeof(T), sizeof(S), false);
  const auto inMax = Stats<S>(c.seed + 1, s.m, kt.reduceK, -2.0f, 5.0f, true);
  const auto inSum = Stats<S>(c.seed + 2, s.m, kt.reduceK, 0.5f, 300.0f, true);
  std::vector<T> y;
  OnBlock(
      [&](Ub& ub) {
        Put(ub, 0, x);
        Put(ub, 1, Sentinel<T>(x.size()));
        Put(ub, 2, inSum);
        Put(ub, 2, inMax, kMaxAt<S>);
        auto st = ub.Get<Dev<S>>(2);
        auto tmp = ub.Get<uint8_t>(3);
        tmp.SetSize(c.tmpBytes);
        AscendC::SimpleSoftMax<Dev<T>>(ub.Get<Dev<T>>(1), st[0], st[kMaxAt<S>], ub.Get<Dev<T>>(0),
                                       tmp, Taller(s, sizeof(S)), {s.m, s.k, c.oriM, s.k});
        y = Take<T>(ub, 1, x.size());
      },
      k910B);
  std::vector<T> want = Sentinel<T>(x.size());
  lngrad_replay::ReplaySimpleSoftMax(kt, x.data(), inSum.data(), inMax.data(), want.data());
  ExpectSameBits(y, want, "dst");
}

// LogSoftMax: the kernel re-tiles whatever the tiling (statistics of T).
template <class T>
void CheckLog(const RowsCase& c) {
  const Shape& s = c.s;
  SCOPED_TRACE(Name(s) + " oriM " + std::to_string(c.oriM));
  CheckedModeScope unchecked(false);
  const auto x = Inputs<T>(c.seed, s);
  const SmxTiling kt =
      lngrad_replay::SmxKernelTiling(c.tmpBytes / 4, s.m, s.k, c.oriM, sizeof(T), sizeof(T), false);
  const uint32_t n = s.m * s.k, ns = s.m * kt.reduceK, rows = kt.rangeM * kt.splitM + kt.tailM;
  std::vector<T> y, sum, max;
  OnBlock(
      [&](Ub& ub) {
        Put(ub, 0, x);
        Put(ub, 1, Sentinel<T>(n));
        Put(ub, 2, Sentinel<T>(ns));
        Put(ub, 2, Sentinel<T>(ns), kMaxAt<T>);
        auto st = ub.Get<Dev<T>>(2);
        auto tmp = ub.Get<uint8_t>(3);
        tmp.SetSize(c.tmpBytes);
        AscendC::LogSoftMax<Dev<T>>(ub.Get<Dev<T>>(1), st[0], st[kMaxAt<T>], ub.Get<Dev<T>>(0), tmp,
                                    LogSoftMaxTiling{}, {s.m, s.k, c.oriM, s.oriK});
        y = Take<T>(ub, 1, n);
        sum = Take<T>(ub, 2, ns);
        max = Take<T>(ub, 2, ns, kMaxAt<T>);
      },
      k910B);
  std::vector<T> wy = Sentinel<T>(n), wsum = Sentinel<T>(ns), wmax = Sentinel<T>(ns);
  lngrad_replay::ReplayLogSoftMax(rows, s.k, s.oriK, x.data(), wy.data(), wsum.data(), wmax.data());
  ExpectOutputs("", y, wy, sum, wsum, max, wmax);
}

// SoftmaxGradFront<T, isBasicBlock = true> with another shape's tiling and tmpBytes of scratch.
template <class T>
void CheckGradFront(const Shape& s, uint32_t tmpBytes, uint32_t seed) {
  SCOPED_TRACE(Name(s) + " tmp " + std::to_string(tmpBytes));
  const auto grad = Uniform<T>(seed, s.m * s.k, -3.0f, 3.0f);
  const auto y = Uniform<T>(seed + 1, s.m * s.k, 0.0f, 1.0f);
  const SmxTiling kt = lngrad_replay::SmxGradTiling(tmpBytes / 4, s.m, s.k, sizeof(T), true, true);
  ASSERT_GT(kt.rangeM, 0u);
  const uint32_t n = s.m * kt.reduceK;
  std::vector<T> out;
  OnBlock(
      [&](Ub& ub) {
        Put(ub, 0, grad);
        Put(ub, 1, y);
        Put(ub, 2, Sentinel<T>(grad.size()));
        auto tmp = ub.Get<uint8_t>(3);
        tmp.SetSize(tmpBytes);
        AscendC::SoftmaxGradFront<Dev<T>, true>(ub.Get<Dev<T>>(2), ub.Get<Dev<T>>(0),
                                                ub.Get<Dev<T>>(1), tmp, Taller(s, sizeof(T)),
                                                {s.m, s.k, s.m, s.oriK});
        out = Take<T>(ub, 2, n);
      },
      k910B);
  std::vector<T> want = Sentinel<T>(n);
  lngrad_replay::ReplaySoftmaxGrad(kt, s.oriK, grad.data(), y.data(), want.data(), true, true);
  ExpectSameBits(out, want, "dst");
}

}  // namespace

TEST(SoftMaxRetileRowsReplay, GenericPathsLeaveTheRowsPastOriSrcMUnchecked) {
  // [16, 32] with oriSrcM 11: 3 rows a split (rangeM 3, tailM 2) or 8 (1 and 3).
  const RowsCase h{{16, 32, 32}, 11, 3 * (16 + 32 + 64) * 4, 7000};
  const RowsCase f{{16, 32, 30}, 11, 8 * (8 + 64) * 4, 7001};
  const RowsCase hf{{13, 48, 40}, 6, 2 * (8 + 48 + 64) * 4, 7002};
  CheckSoftMax<Half, Half>(h, true);
  CheckSoftMax<float, float>(f, true);
  CheckSoftMax<Half, float>(hf, true);
  CheckSoftMax<Half, Half>(hf, false);
  CheckSoftMax<float, float>(f, false);
  CheckSimple<Half, Half>(h);
  CheckSimple<Half, float>(hf);
  CheckSimple<float, float>(f);  // one pass over srcM rows: every row
  CheckLog<Half>(h);
  CheckLog<float>(f);
}

TEST(SoftMaxRetileRowsReplay, CheckedModeNamesTheRowsPastOriSrcM) {
  const Shape s{16, 32, 32};
  const uint32_t tmpBytes = 3 * (16 + 32 + 64) * 4;
  const AscendC::SoftMaxShapeInfo si{16, 32, 11, 32};
  auto expectNamed = [](const std::pair<std::string, std::string>& r, const char* outs) {
    EXPECT_EQ(r.first, "invalid_count") << r.second;
    EXPECT_NE(r.second.find(std::string("rows 11 .. 15 of ") + outs), std::string::npos)
        << r.second;
  };
  auto tmpOf = [&](Ub& ub) {
    auto tmp = ub.Get<uint8_t>(3);
    tmp.SetSize(tmpBytes);
    return tmp;
  };
  expectNamed(lngrad::aicore::test::CheckOf(
                  [&](Ub& ub) {
                    auto st = ub.Get<half>(2);
                    AscendC::SoftMax<half>(ub.Get<half>(1), st[0], st[kMaxAt<Half>],
                                           ub.Get<half>(0), tmpOf(ub), Taller(s, 2), si);
                  },
                  k910B),
              "dstTensor, sumTensor and maxTensor");
  expectNamed(lngrad::aicore::test::CheckOf(
                  [&](Ub& ub) {
                    AscendC::SoftMax<half>(ub.Get<half>(1), ub.Get<half>(0), tmpOf(ub),
                                           Taller(s, 4), si);
                  },
                  k910B),
              "dstTensor");
  expectNamed(lngrad::aicore::test::CheckOf(
                  [&](Ub& ub) {
                    auto st = ub.Get<half>(2);
                    AscendC::SimpleSoftMax<half>(ub.Get<half>(1), st[0], st[kMaxAt<Half>],
                                                 ub.Get<half>(0), tmpOf(ub), Taller(s, 2), si);
                  },
                  k910B),
              "dstTensor");
  expectNamed(lngrad::aicore::test::CheckOf(
                  [&](Ub& ub) {
                    auto st = ub.Get<half>(2);
                    AscendC::LogSoftMax<half>(ub.Get<half>(1), st[0], st[kMaxAt<Half>],
                                              ub.Get<half>(0), tmpOf(ub), LogSoftMaxTiling{}, si);
                  },
                  k910B),
              "dst, sum and max");
}

TEST(SoftmaxGradFrontRetileReplay, BasicBlockSumsTheReTilesFullSplits) {
  // float [16, 128] with 5 rows' scratch: rangeM 3, tailM 1 (row 15 in the generic order);
  // half [16, 128] with 3 rows: 5 and 1; 20 rows of [24, 64]: cut to 16, then 8 (dividing 24).
  CheckGradFront<float>({16, 128, 128}, 5 * (8 + 128 + 64) * 4, 7100);
  CheckGradFront<Half>({16, 128, 128}, 3 * (32 + 384 + 64) * 4, 7101);
  CheckGradFront<float>({24, 64, 64}, 20 * (8 + 64 + 64) * 4, 7102);
  CheckGradFront<Half>({24, 64, 48}, 20 * (32 + 192 + 64) * 4, 7103);  // oriK 48
  // half [16, 64] oriK 48 with 5 rows: rangeM 3, tailM 1 (the basic rows sum all 64 columns).
  CheckGradFront<Half>({16, 64, 48}, 5 * (32 + 192 + 64) * 4, 7104);
}

}  // namespace softmax_replay_test
