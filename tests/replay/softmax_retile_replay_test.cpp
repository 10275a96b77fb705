// A tiling made for another shape on dav-2201: the SoftMax and SimpleSoftMax kernels re-tile
// (softmax_base_impl.h SoftMaxImpl, softmax_common_simple.h SimpleSoftMaxBaseImpl: when the
// shape's srcM or srcK differs from the tiling's, SoftMaxTilingFunc of softmax_tiling_func.h on
// the work buffer's floats) and run the same path with that tiling. lngrad computes that tiling
// (SoftMaxKernelTiling) and follows it on the paths where the split shows: the basic-block paths'
// rangeM full splits and the constant-shape config's splitK stride. Against the replays with the
// replay's own reading of that function (SmxKernelTiling, sfx6, replay_softmax_cfg.cpp).
#include "softmax_replay_util.h"

#include "../aicore/checked_mode_scope.h"

namespace softmax_replay_test {
namespace {

using lngrad::aicore::test::CheckedModeScope;

// The tiling the host makes for a shape 8 rows taller (another shape: the kernel re-tiles).
SoftMaxTiling OtherShapes(const Shape& s, uint32_t typeSize) {
  return HostTiling({s.m + 8, s.k, s.k}, typeSize, 0);
}

// SoftMax<.., isBasicBlock> with statistics, tmpBytes of scratch and another shape's tiling:
// SoftMaxBasicBlock runs the re-tile's rangeM full splits (unchecked: the rows past them keep
// their sentinels; checked mode names them).
template <class T, class S>
void CheckSoftMaxBasic(const Shape& s, uint32_t tmpBytes, uint32_t seed) {
  SCOPED_TRACE(Name(s) + " tmp " + std::to_string(tmpBytes));
  CheckedModeScope unchecked(false);
  const auto x = Inputs<T>(seed, s);
  const SmxTiling kt =
      lngrad_replay::SmxKernelTiling(tmpBytes / 4, s.m, s.k, s.m, sizeof(T), sizeof(S), true);
  ASSERT_NE(kt.tailM, 0u);
  const uint32_t n = s.m * s.k, stats = s.m * kt.reduceK;
  std::vector<T> y;
  std::vector<S> sum, max;
  OnBlock(
      [&](Ub& ub) {
        PutSoftMaxOperands<T, S>(ub, x, n, stats);
        auto st = ub.Get<Dev<S>>(2);
        auto tmp = ub.Get<uint8_t>(3);
        tmp.SetSize(tmpBytes);
        AscendC::SoftMax<Dev<T>, false, true>(ub.Get<Dev<T>>(1), st[0], st[kMaxAt<S>],
                                              ub.Get<Dev<T>>(0), tmp, OtherShapes(s, sizeof(S)),
                                              {s.m, s.k, s.m, s.oriK});
        y = Take<T>(ub, 1, n);
        sum = Take<S>(ub, 2, stats);
        max = Take<S>(ub, 2, stats, kMaxAt<S>);
      },
      k910B);
  std::vector<T> wy = Sentinel<T>(n);
  std::vector<S> wsum = Sentinel<S>(stats), wmax = Sentinel<S>(stats);
  lngrad_replay::ReplaySoftMax(kt, s.oriK, x.data(), wy.data(), wsum.data(), wmax.data(), true);
  // The statistics of the full splits' rows (the last split's broadcast also stores rows past
  // them, which softmax_basic_scratch_replay_test compares; this replay writes the rows only).
  const auto rows = [&](const std::vector<S>& v) {
    const uint64_t end = uint64_t{kt.rangeM} * kt.splitM * kt.reduceK;
    return std::vector<S>(v.begin(), v.begin() + static_cast<int64_t>(end));
  };
  ExpectOutputs("", y, wy, rows(sum), rows(wsum), rows(max), rows(wmax));
}

}  // namespace

TEST(SoftMaxBasicReplay, OtherShapesTilingIsReTiled) {
  // [16, 128] half with 3 rows' scratch: rangeM 5, tailM 1; float [24, 64] with 5: 4 and 4.
  CheckSoftMaxBasic<Half, Half>({16, 128, 128}, 3 * (16 + 128 + 64) * 4, 6000);
  CheckSoftMaxBasic<Half, float>({16, 128, 120}, 3 * (8 + 128 + 64) * 4, 6001);
  CheckSoftMaxBasic<float, float>({24, 64, 64}, 5 * (8 + 64) * 4, 6002);
  // Checked mode names the rows the re-tile's splits leave.
  const Shape s{16, 128, 128};
  const auto r = lngrad::aicore::test::CheckOf(
      [&](Ub& ub) {
        auto st = ub.Get<half>(2);
        auto tmp = ub.Get<uint8_t>(3);
        tmp.SetSize(3 * (16 + 128 + 64) * 4);
        AscendC::SoftMax<half, false, true>(ub.Get<half>(1), st[0], st[kMaxAt<Half>],
                                            ub.Get<half>(0), tmp, OtherShapes(s, 2),
                                            {16, 128, 16, 128});
      },
      k910B);
  EXPECT_EQ(r.first, "invalid_count") << r.second;
  EXPECT_NE(r.second.find("rows 15 .. 15 of dstTensor, sumTensor and maxTensor"), std::string::npos)
      << r.second;
}

// SimpleSoftMax<.., isBasicBlock> with srcK not a multiple of 64 (unchecked: the kernel check
// refuses that srcK), another shape's tiling and tmpBytes of scratch: SimpleSoftMaxBasicBlock
// with the re-tile (half data: its splits; float data: every row at the uint8 stride).
template <class T, class S>
void CheckSimpleBasic(const Shape& s, uint32_t tmpBytes, uint32_t seed) {
  SCOPED_TRACE(Name(s) + " tmp " + std::to_string(tmpBytes));
  CheckedModeScope unchecked(false);
  const auto x = Uniform<T>(seed, s.m * s.k, -4.0f, 6.0f);
  const SmxTiling kt =
      lngrad_replay::SmxKernelTiling(tmpBytes / 4, s.m, s.k, s.m, sizeof(T), sizeof(S), true);
  const auto inMax = Stats<S>(seed + 1, s.m, kt.reduceK, -2.0f, 5.0f, true);
  const auto inSum = Stats<S>(seed + 2, s.m, kt.reduceK, 0.5f, 300.0f, true);
  std::vector<T> y;
  OnBlock(
      [&](Ub& ub) {
        Put(ub, 0, x);
        Put(ub, 1, Sentinel<T>(x.size()));
        Put(ub, 2, inSum);
        Put(ub, 2, inMax, kMaxAt<S>);
        auto st = ub.Get<Dev<S>>(2);
        auto tmp = ub.Get<uint8_t>(3);
        tmp.SetSize(tmpBytes);
        AscendC::SimpleSoftMax<Dev<T>, false, true>(
            ub.Get<Dev<T>>(1), st[0], st[kMaxAt<S>], ub.Get<Dev<T>>(0), tmp,
            OtherShapes(s, sizeof(S)), {s.m, s.k, s.m, s.k});
        y = Take<T>(ub, 1, x.size());
      },
      k910B);
  std::vector<T> want = Sentinel<T>(x.size());
  lngrad_replay::ReplaySimpleSoftMaxBasic(kt, x.data(), inSum.data(), inMax.data(), want.data());
  ExpectSameBits(y, want, "dst");
}

TEST(SimpleSoftMaxBasicReplay, OtherShapesTilingIsReTiledUnchecked) {
  CheckSimpleBasic<float, float>({4, 72, 72}, 2 * (8 + 64) * 4, 6100);
  CheckSimpleBasic<Half, Half>({7, 208, 208}, 3 * (16 + 208 + 64) * 4, 6101);
  CheckSimpleBasic<Half, float>({5, 144, 144}, 2 * (8 + 144 + 64) * 4, 6102);
  // srcK a multiple of 64, half: the re-tile's rangeM splits only (rows 15 .. 15 left).
  CheckSimpleBasic<Half, Half>({16, 128, 128}, 3 * (16 + 128 + 64) * 4, 6103);
}

// SoftMax's constant-shape config with splitK below srcK (unchecked) and another shape's tiling:
// the config's splits of the re-tile (statistics: float for SoftMax without them).
constexpr AscendC::SoftmaxConfig kCfg8x24{true, 8, 24};
constexpr AscendC::SoftmaxConfig kCfg8x20{true, 8, 20};
constexpr AscendC::SoftmaxConfig kCfg8x32{true, 8, 32};

template <class T, class S, const AscendC::SoftmaxConfig& cfg>
void CheckConfig(const Shape& s, uint32_t tmpBytes, bool stats, uint32_t seed) {
  SCOPED_TRACE(Name(s) + " tmp " + std::to_string(tmpBytes) + " stats " + std::to_string(stats));
  CheckedModeScope unchecked(false);
  const auto x = Inputs<T>(seed, s);
  const uint32_t statSize = stats ? sizeof(S) : 4;
  const SmxTiling kt =
      lngrad_replay::SmxKernelTiling(tmpBytes / 4, s.m, s.k, s.m, sizeof(T), statSize, false);
  ASSERT_GT(kt.rangeM, 1u);
  const uint32_t n = s.m * s.k, ns = s.m * kt.reduceK;
  std::vector<T> y;
  std::vector<S> sum, max;
  OnBlock(
      [&](Ub& ub) {
        PutSoftMaxOperands<T, S>(ub, x, n, ns);
        auto st = ub.Get<Dev<S>>(2);
        auto tmp = ub.Get<uint8_t>(3);
        tmp.SetSize(tmpBytes);
        const SoftMaxTiling other = OtherShapes(s, statSize);
        if (stats) {
          AscendC::SoftMax<Dev<T>, false, false, false, cfg>(ub.Get<Dev<T>>(1), st[0],
                                                             st[kMaxAt<S>], ub.Get<Dev<T>>(0), tmp,
                                                             other, {s.m, s.k, s.m, s.oriK});
        } else {
          AscendC::SoftMax<Dev<T>, false, false, cfg>(ub.Get<Dev<T>>(1), ub.Get<Dev<T>>(0), tmp,
                                                      other, {s.m, s.k, s.m, s.oriK});
        }
        y = Take<T>(ub, 1, n);
        sum = Take<S>(ub, 2, ns);
        max = Take<S>(ub, 2, ns, kMaxAt<S>);
      },
      k910B);
  std::vector<T> wy = Sentinel<T>(n), wsrc = x;
  std::vector<S> wsum = Sentinel<S>(ns), wmax = Sentinel<S>(ns);
  lngrad_replay::ReplaySoftMaxConfig<T, S>(kt, cfg.oriSrcM, cfg.oriSrcK,
                                           {wsrc.data(), wy.data(), stats ? wsum.data() : nullptr,
                                            stats ? wmax.data() : nullptr, false});
  ExpectOutputs("", y, wy, sum, wsum, max, wmax);
}

TEST(SoftMaxConfigReplay, OtherShapesTilingIsReTiledUnchecked) {
  CheckConfig<Half, Half, kCfg8x24>({8, 32, 24}, 3 * (16 + 32 + 64) * 4, true, 6200);
  CheckConfig<Half, float, kCfg8x24>({13, 32, 24}, 5 * (8 + 32 + 64) * 4, true, 6201);
  CheckConfig<float, float, kCfg8x20>({10, 32, 20}, 3 * (8 + 64) * 4, true, 6202);
  CheckConfig<float, float, kCfg8x20>({7, 32, 20}, 2 * (8 + 64) * 4, false, 6203);
}

// Half data without statistics (sfx7): the re-tile is made with float statistics (reduceK 8), the
// config's reductions write 16 per row, so the Sub and the Div of row r take split row r / 2's
// max and sum; splitK below srcK (config K 24) and equal to it (32).
TEST(SoftMaxConfigReplay, HalfWithoutStatisticsReTileReadsRowHalfsStatisticsUnchecked) {
  CheckConfig<Half, Half, kCfg8x24>({8, 32, 24}, 3 * (8 + 32 + 64) * 4, false, 6204);
  CheckConfig<Half, Half, kCfg8x24>({13, 32, 24}, 5 * (8 + 32 + 64) * 4, false, 6205);
  CheckConfig<Half, Half, kCfg8x32>({11, 32, 32}, 4 * (8 + 32 + 64) * 4, false, 6206);
  // Checked mode names the statistics stride.
  const auto r = lngrad::aicore::test::CheckOf(
      [&](Ub& ub) {
        auto tmp = ub.Get<uint8_t>(3);
        tmp.SetSize(4 * (8 + 32 + 64) * 4);
        AscendC::SoftMax<half, false, false, kCfg8x32>(
            ub.Get<half>(1), ub.Get<half>(0), tmp, OtherShapes({11, 32, 32}, 4), {11, 32, 11, 32});
      },
      k910B);
  EXPECT_EQ(r.first, "softmax_device_defect") << r.second;
  EXPECT_NE(r.second.find("read the max and sum of row r * 8 / 16"), std::string::npos) << r.second;
}

}  // namespace softmax_replay_test
