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

}  // namespace
}  // namespace lngrad::cli
