// verify's comparison engine (tools/lngrad/compare.cpp).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "compare.h"

namespace lngrad::cli {
namespace {

io::Tensor Make(io::DType dt, const std::vector<double>& v) {
  io::Tensor t(dt, {static_cast<int64_t>(v.size())});
  for (size_t i = 0; i < v.size(); ++i) t.Set(static_cast<int64_t>(i), v[i]);
  return t;
}

TEST(Ulp, CountsRepresentableValuesAcrossZero) {
  EXPECT_EQ(UlpDistance(1.0, 1.0, io::DType::kFloat32), 0u);
  EXPECT_EQ(UlpDistance(1.0, std::nextafter(1.0f, 2.0f), io::DType::kFloat32), 1u);
  EXPECT_EQ(UlpDistance(-0.0, 0.0, io::DType::kFloat32), 0u);
  // The smallest subnormals on either side of zero are 2 steps apart.
  const double tiny = std::numeric_limits<float>::denorm_min();
  EXPECT_EQ(UlpDistance(-tiny, tiny, io::DType::kFloat32), 2u);
  EXPECT_EQ(UlpDistance(1.0, 1.0 + 0x1.0p-10, io::DType::kFloat16), 1u);
  EXPECT_EQ(UlpDistance(65504.0, 32768.0, io::DType::kFloat16), 1023u);  // 0x7BFF - 0x7800
  EXPECT_EQ(UlpDistance(1.0, 1.0 + 0x1.0p-52, io::DType::kFloat64), 1u);
  // The second value is rounded to the dtype first: 1 + 2^-30 is 1.0f.
  EXPECT_EQ(UlpDistance(1.0, 1.0 + 0x1.0p-30, io::DType::kFloat32), 0u);
}

TEST(Compare, AscendRuleNeedsBothErrorsOverTolerance) {
  const io::Tensor golden = Make(io::DType::kFloat64, {1, 1000, 1e-6, 0, 0});
  // [0]: abs 1.5e-4, rel 1.5e-4: wrong. [1]: abs 0.05, rel 5e-5: fine. [2]: abs 5e-5: fine.
  // [3]: 0 vs 0: fine. [4]: golden 0, out 1e-3: abs > atol, rel inf: wrong.
  const io::Tensor out = Make(io::DType::kFloat64, {1.00015, 1000.05, 5.1e-5, 0, 1e-3});
  const CompareResult r = Compare(out, golden, CompareRule{}, 5);
  EXPECT_EQ(r.mismatches, 2);
  ASSERT_EQ(r.worst.size(), 5u);
  EXPECT_EQ(r.worst[0].index, 4);
  EXPECT_TRUE(std::isinf(r.worst[0].rel_err));
  EXPECT_EQ(r.worst[1].index, 0);
  EXPECT_TRUE(r.worst[1].fails);
  EXPECT_FALSE(r.worst[2].fails);
  EXPECT_EQ(r.max_abs_index, 1);
  EXPECT_NEAR(r.max_abs, 0.05, 1e-9);
}

TEST(Compare, AllcloseRuleScalesWithTheGolden) {
  CompareRule rule;
  rule.kind = CompareRule::kAllclose;
  const io::Tensor golden = Make(io::DType::kFloat64, {1, 1000});
  // [0]: 1.5e-4 <= 1e-4 + 1e-4: fine. [1]: 0.2 > 1e-4 + 0.1: wrong.
  const io::Tensor out = Make(io::DType::kFloat64, {1.00015, 1000.2});
  const CompareResult r = Compare(out, golden, rule, 1);
  EXPECT_EQ(r.mismatches, 1);
  ASSERT_EQ(r.worst.size(), 1u);
  EXPECT_EQ(r.worst[0].index, 1);
}

TEST(Compare, NonFiniteValuesMatchOnlyThemselves) {
  const double inf = std::numeric_limits<double>::infinity(), nan = std::nan("");
  const io::Tensor golden = Make(io::DType::kFloat32, {nan, inf, -inf, 1, nan});
  const io::Tensor out = Make(io::DType::kFloat32, {nan, inf, inf, nan, 2});
  CompareRule loose;
  loose.atol = loose.rtol = 1e30;
  const CompareResult r = Compare(out, golden, loose, 0);
  EXPECT_EQ(r.mismatches, 3);
  EXPECT_EQ(r.non_finite_mismatches, 3);
  EXPECT_EQ(r.ulp_hist[0] + r.ulp_hist[1] + r.ulp_hist[2] + r.ulp_hist[3], 0);
  EXPECT_TRUE(r.worst.empty());
}

TEST(Compare, UlpStatisticsInTheOutputDtype) {
  // Golden in float64; OUT in half: distances count half steps from the golden rounded to half.
  const io::Tensor golden = Make(io::DType::kFloat64, {1.0, 2.0 + 1e-9, 3.0, 100.0});
  const io::Tensor out = Make(io::DType::kFloat16, {1.0, 2.0, 3.0 + 3 * 0x1.0p-9, 100.5});
  const CompareResult r = Compare(out, golden, CompareRule{}, 0);
  EXPECT_EQ(r.ulp_hist[0], 2);  // 1.0, and 2.0 (2 + 1e-9 rounds to 2.0 in half)
  EXPECT_EQ(r.ulp_hist[2], 1);  // 3 steps of 2^-9 at 3.0
  EXPECT_EQ(r.ulp_hist[3], 1);  // 100.5: 8 steps of 2^-4
  EXPECT_EQ(r.ulp_max, 8u);
  EXPECT_DOUBLE_EQ(r.ulp_mean, (0 + 0 + 3 + 8) / 4.0);
}

TEST(Tolerance, FollowsTheDtype) {
  EXPECT_EQ(DefaultTolerance(io::DType::kFloat16), 1e-3);
  EXPECT_EQ(DefaultTolerance(io::DType::kFloat32), 1e-4);
  EXPECT_EQ(DefaultTolerance(io::DType::kFloat64), 1e-4);
  // The half rule passes every 1-ulp difference between halves, the float rule does not pass
  // every 1-ulp difference of half values: what made `verify` fail half runs before.
  for (double v : {0.75, 1.0, 1.999, 100.0, 1000.0, 65504.0}) {
    const double ulp = Spacing(v, io::DType::kFloat16);
    const io::Tensor g = Make(io::DType::kFloat16, {v}), o = Make(io::DType::kFloat16, {v - ulp});
    CompareRule half;
    half.atol = half.rtol = DefaultTolerance(io::DType::kFloat16);
    EXPECT_EQ(Compare(o, g, half, 0).mismatches, 0) << v;
    EXPECT_EQ(Compare(o, g, CompareRule{}, 0).mismatches, 1) << v;
  }
}

TEST(Spacing, IsTheUlpOfEachDtype) {
  EXPECT_EQ(Spacing(1.0, io::DType::kFloat16), 0x1.0p-10);
  EXPECT_EQ(Spacing(1.5, io::DType::kFloat16), 0x1.0p-10);
  EXPECT_EQ(Spacing(-2.0, io::DType::kFloat16), 0x1.0p-9);
  EXPECT_EQ(Spacing(65504.0, io::DType::kFloat16), 32.0);
  EXPECT_EQ(Spacing(0.0, io::DType::kFloat16), 0x1.0p-24);   // the subnormal step
  EXPECT_EQ(Spacing(1e-6, io::DType::kFloat16), 0x1.0p-24);  // a half subnormal
  EXPECT_EQ(Spacing(1.0, io::DType::kFloat32), 0x1.0p-23);
  EXPECT_EQ(Spacing(1e-40, io::DType::kFloat32), 0x1.0p-149);  // a float subnormal
  EXPECT_EQ(Spacing(1.0, io::DType::kFloat64), 0x1.0p-52);
}

TEST(Magnitude, BoundsFollowDocsMath) {
  MagnitudeRule pd;
  pd.what = Cancelling::kPdX;
  pd.rows = 1024;
  pd.h = 4096;  // D = 256 + 9
  EXPECT_EQ(pd.UnitFactor(), 2 * 265 + 14);
  EXPECT_EQ(pd.HalfFactor(io::DType::kFloat16), 0);
  MagnitudeRule dg = pd, db = pd;
  dg.what = Cancelling::kDgamma;
  db.what = Cancelling::kDbeta;
  EXPECT_EQ(dg.UnitFactor(), 1024 + 7);
  EXPECT_EQ(db.UnitFactor(), 1024 + 1);
  EXPECT_EQ(dg.HalfFactor(io::DType::kFloat16), 3);
  EXPECT_EQ(dg.HalfFactor(io::DType::kFloat32), 0);
  EXPECT_EQ(db.HalfFactor(io::DType::kFloat16), 1);
  dg.mag = {1000.0};
  // (1031 u + 3 u_h) * 1000 + one half ulp at 8 (2^-7).
  EXPECT_DOUBLE_EQ(dg.Bound(0, 8.0, 8.0, io::DType::kFloat16),
                   (1031 * 0x1.0p-24 + 3 * 0x1.0p-11) * 1000 + 0x1.0p-7);
  EXPECT_EQ(MagnitudeText(dg, io::DType::kFloat16), "abs err <= (1031 u + 3 u_h) * mag + 1 ulp");
  EXPECT_EQ(MagnitudeText(pd, io::DType::kFloat32), "abs err <= 544 u * mag + 1 ulp");
}

TEST(Magnitude, AcceptsCancellingElementsAndStillCatchesErrors) {
  // A column whose terms (mag 1e4) cancel to 0.01: a float summation error of 1e-3 is 10 %
  // of the value (wrong by the ascend rule) but far inside (1024 + 7) u * mag = 0.61.
  MagnitudeRule m;
  m.what = Cancelling::kDgamma;
  m.rows = 1024;
  m.h = 3;
  m.mag = {1e4, 1e4, 1e4};
  const io::Tensor golden = Make(io::DType::kFloat32, {0.01, 0.01, 5000});
  const io::Tensor out = Make(io::DType::kFloat32, {0.011, 0.9, 5000 * (1 + 1e-3)});
  const CompareResult plain = Compare(out, golden, CompareRule{}, 3);
  EXPECT_EQ(plain.mismatches, 3);
  EXPECT_EQ(plain.magnitude_accepted, 0);
  EXPECT_EQ(plain.worst[0].bound, -1);
  const CompareResult r = Compare(out, golden, CompareRule{}, 3, &m);
  // [0] right only by the magnitude rule; [1] off by 0.89 > 0.61; [2] off by 5 (1e-3 relative).
  EXPECT_EQ(r.mismatches, 2);
  EXPECT_EQ(r.magnitude_accepted, 1);
  ASSERT_EQ(r.worst.size(), 3u);
  EXPECT_EQ(r.worst[0].index, 2);
  EXPECT_TRUE(r.worst[0].fails);
  EXPECT_EQ(r.worst[1].index, 1);
  EXPECT_TRUE(r.worst[1].fails);
  EXPECT_FALSE(r.worst[2].fails);
  EXPECT_NEAR(r.worst[2].bound, 1031 * 0x1.0p-24 * 1e4, 1e-6);
}

}  // namespace
}  // namespace lngrad::cli
