// LayerNorm forward against the oracle, and the statistics-convention helpers
// (RstdToVariance / VarianceToRstd).
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "oracle.h"
#include "test_util.h"

namespace lngrad {
namespace {

using test::ErrorStats;
using test::Path;

struct ForwardCase {
  int64_t rows, h;
  double offset;  // x = offset + U(-2, 2): a large offset makes x - mean cancel
  uint64_t seed;
};

// Bounds (docs/math.md, "Tolerances"), D = RowSumDepth(h):
//   mean: (D + 1) u mean|x|                     (sum, then one division rounding)
//   var:  (D + 3) u V + (1 + (D + 3) u) em^2    (squares of rounded deviations; the mean error
//                                                em adds em^2 to the second moment)
//   y:    |gamma| (R em + R |x - m| (3u + rr)) + 2u (|gamma| R |x - m| + |beta|),
//         rr = var bound / (2 (V + eps)) + u    (relative error of rstd)
template <class T>
void CheckForward(const ForwardCase& fc, const std::vector<Path>& paths,
                  ErrorStats* pool = nullptr) {
  const auto n = static_cast<size_t>(fc.rows * fc.h);
  const auto x = test::RandomVector<T>(n, fc.seed, fc.offset - 2.0, fc.offset + 2.0);
  const auto gamma = test::RandomVector<T>(static_cast<size_t>(fc.h), fc.seed + 1, 0.5, 1.5);
  const auto beta = test::RandomVector<T>(static_cast<size_t>(fc.h), fc.seed + 2, -1.0, 1.0);
  const float eps = 1e-5f;
  const auto ref =
      oracle::LayerNorm(fc.rows, fc.h, test::Widen(x), test::Widen(gamma), test::Widen(beta), eps);
  const double u = test::kU, depth = test::RowSumDepth(fc.h);
  for (const Path& p : paths) {
    test::TargetScope scope(p);
    std::vector<T> y(n), mean(static_cast<size_t>(fc.rows)), var(static_cast<size_t>(fc.rows));
    RunInfo info;
    Options o = test::PathOptions(p, &info);
    ASSERT_TRUE(LayerNorm({fc.rows, fc.h}, x.data(), gamma.data(), beta.data(), eps, y.data(),
                          mean.data(), var.data(), o)
                    .ok());
    test::ExpectRan(p, info);
    ErrorStats s;
    for (int64_t r = 0; r < fc.rows; ++r) {
      const double em = (depth + 1) * u * ref.abs_mean[r];
      const double v = ref.variance[r];
      const double ev = (depth + 3) * u * v + (1 + (depth + 3) * u) * em * em;
      const double rstd = 1.0 / std::sqrt(v + eps);
      const double rr = ev / (2 * (v + eps)) + u;
      test::CheckValue(mean[r], ref.mean[r], em, "mean", r, &s);
      test::CheckValue(var[r], v, ev, "variance", r, &s);
      for (int64_t c = 0; c < fc.h; ++c) {
        const size_t i = static_cast<size_t>(r * fc.h + c);
        const double g = std::fabs(test::ToDouble(gamma[c]));
        const double dev = std::fabs(test::ToDouble(x[i]) - ref.mean[r]);
        const double bound = g * (rstd * em + rstd * dev * (3 * u + rr)) +
                             2 * u * (g * rstd * dev + std::fabs(test::ToDouble(beta[c])));
        test::CheckValue(y[i], ref.y[i], bound, "y", i, &s);
      }
    }
    EXPECT_EQ(s.failures, 0) << s.first_failure << "\nrepro: core_layer_norm_test "
                             << "--gtest_filter=LayerNormForward.*  (rows=" << fc.rows
                             << " h=" << fc.h << " offset=" << fc.offset << " seed=" << fc.seed
                             << ", path " << p.name << ", " << test::TypeName<T>() << ")";
    if (pool != nullptr) pool->Merge(s);
  }
}

std::vector<ForwardCase> ForwardCases() {
  std::vector<ForwardCase> cases;
  uint64_t seed = 1;
  for (int64_t rows : {1, 3, 255}) {
    for (int64_t h : {1, 3, 8, 16, 64, 257, 768, 4097}) cases.push_back({rows, h, 0.3, seed++});
  }
  cases.push_back({64, 1024, 100.0, seed++});  // mean >> spread
  return cases;
}

TEST(LayerNormForward, FloatMatchesOracle) {
  for (const ForwardCase& c : ForwardCases()) CheckForward<float>(c, test::MainPaths());
}

TEST(LayerNormForward, HalfMatchesOracle) {
  ErrorStats pool;
  for (const ForwardCase& c : ForwardCases()) CheckForward<Half>(c, test::MainPaths(), &pool);
  test::ExpectHalfExactFraction(pool);
}

// bfloat16: statistics and y in double, each rounded once (the half forward's structure).
TEST(LayerNormForward, Bfloat16MatchesOracle) {
  ErrorStats pool;
  for (const ForwardCase& c : ForwardCases()) {
    CheckForward<BFloat16>(c, test::MainPaths(), &pool);
  }
  test::ExpectHalfExactFraction(pool);
  for (int64_t h : {5, 17, 100}) {
    CheckForward<BFloat16>({5, h, 0.3, 80 + static_cast<uint64_t>(h)}, test::AllPaths());
  }
}

TEST(LayerNormForward, EveryTarget) {
  for (int64_t h : {5, 17, 100}) {
    CheckForward<float>({5, h, 0.3, 40 + static_cast<uint64_t>(h)}, test::AllPaths());
    CheckForward<Half>({5, h, 0.3, 60 + static_cast<uint64_t>(h)}, test::AllPaths());
  }
}

TEST(LayerNormForward, BitwiseForAnyThreadCount) {
  const auto x = test::RandomVector<float>(1000 * 768, 3, -2.0, 2.0);
  const auto gamma = test::RandomVector<float>(768, 4, 0.5, 1.5);
  const auto beta = test::RandomVector<float>(768, 5, -1.0, 1.0);
  std::vector<float> y1(x.size()), m1(1000), v1(1000);
  Options o;
  o.num_threads = 1;
  ASSERT_TRUE(LayerNorm({1000, 768}, x.data(), gamma.data(), beta.data(), 1e-5f, y1.data(),
                        m1.data(), v1.data(), o)
                  .ok());
  for (int threads : {2, 3, 7}) {
    std::vector<float> y(x.size()), m(1000), v(1000);
    RunInfo info;
    o.num_threads = threads;
    o.info = &info;
    ASSERT_TRUE(LayerNorm({1000, 768}, x.data(), gamma.data(), beta.data(), 1e-5f, y.data(),
                          m.data(), v.data(), o)
                    .ok());
    EXPECT_EQ(info.threads, threads);
    std::string where;
    EXPECT_TRUE(test::SameBits(y, y1, &where)) << threads << " threads: " << where;
    EXPECT_TRUE(test::SameBits(m, m1, &where)) << threads << " threads: " << where;
    EXPECT_TRUE(test::SameBits(v, v1, &where)) << threads << " threads: " << where;
  }
}

// LayerNormFloatStats: half data, float statistics. The same evaluation as the half forward:
// y bitwise equal on every path and target; mean and variance the double statistics rounded
// once to float, so within one float ulp of the oracle (whose statistics are exact up to
// double rounding) and equal to the half statistics once rounded to half, up to that ulp.
TEST(LayerNormForward, HalfDataFloatStats) {
  for (const ForwardCase& fc : ForwardCases()) {
    const auto n = static_cast<size_t>(fc.rows * fc.h);
    const auto x = test::RandomVector<Half>(n, fc.seed, fc.offset - 2.0, fc.offset + 2.0);
    const auto gamma = test::RandomVector<Half>(static_cast<size_t>(fc.h), fc.seed + 1, 0.5, 1.5);
    const auto beta = test::RandomVector<Half>(static_cast<size_t>(fc.h), fc.seed + 2, -1.0, 1.0);
    const auto ref = oracle::LayerNorm(fc.rows, fc.h, test::Widen(x), test::Widen(gamma),
                                       test::Widen(beta), 1e-5f);
    const auto rows = static_cast<size_t>(fc.rows);
    for (const Path& p : test::AllPaths()) {
      test::TargetScope scope(p);
      Options o = test::PathOptions(p, nullptr);
      std::vector<Half> y16(n), m16(rows), v16(rows), y(n);
      std::vector<float> m(rows), v(rows);
      ASSERT_TRUE(LayerNorm({fc.rows, fc.h}, x.data(), gamma.data(), beta.data(), 1e-5f, y16.data(),
                            m16.data(), v16.data(), o)
                      .ok());
      ASSERT_TRUE(LayerNormFloatStats({fc.rows, fc.h}, x.data(), gamma.data(), beta.data(), 1e-5f,
                                      y.data(), m.data(), v.data(), o)
                      .ok());
      std::string where;
      EXPECT_TRUE(test::SameBits(y, y16, &where)) << p.name << ": " << where;
      for (size_t r = 0; r < rows; ++r) {
        EXPECT_LE(std::fabs(m[r] - ref.mean[r]), std::fabs(ref.mean[r]) * 2 * test::kU + 1e-300)
            << p.name << " row " << r;
        EXPECT_LE(std::fabs(v[r] - ref.variance[r]), ref.variance[r] * 2 * test::kU + 1e-300)
            << p.name << " row " << r;
        EXPECT_LE(std::fabs(static_cast<float>(Half(m[r])) - static_cast<float>(m16[r])),
                  std::fabs(static_cast<float>(m16[r])) * 0x1p-10f)
            << p.name << " row " << r;
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Statistics conventions. Both helpers compute in double and round once, so each result is
// within 1 float ulp (u relative) of the exact formula applied to the float inputs.

TEST(StatsConvention, VarianceToRstdAndBack) {
  const auto var = test::RandomVector<float>(1000, 9, 1e-3, 10.0);
  const float eps = 1e-5f;
  std::vector<float> rstd(var.size()), back(var.size());
  ASSERT_TRUE(VarianceToRstd(static_cast<int64_t>(var.size()), var.data(), eps, rstd.data()).ok());
  ASSERT_TRUE(RstdToVariance(static_cast<int64_t>(var.size()), rstd.data(), eps, back.data()).ok());
  for (size_t i = 0; i < var.size(); ++i) {
    const double want_rstd = 1.0 / std::sqrt(static_cast<double>(var[i]) + eps);
    EXPECT_NEAR(rstd[i], want_rstd, 2 * test::kU * want_rstd) << i;
    const double r = rstd[i];
    const double want_var = 1.0 / (r * r) - eps;
    EXPECT_NEAR(back[i], want_var, 2 * test::kU * std::fabs(want_var)) << i;
    // Round trip: rstd's rounding (u) becomes 2u(var + eps) in 1/rstd^2, the final rounding adds
    // u var; one more u covers the second-order and double-precision terms.
    EXPECT_NEAR(back[i], var[i], 4 * test::kU * (var[i] + eps)) << i;
  }
}

TEST(StatsConvention, InPlaceIsAllowed) {
  std::vector<float> v = {0.5f, 1.0f, 4.0f};
  ASSERT_TRUE(VarianceToRstd(3, v.data(), 0.0f, v.data()).ok());
  EXPECT_EQ(v[0], static_cast<float>(1.0 / std::sqrt(0.5)));
  EXPECT_EQ(v[1], 1.0f);
  EXPECT_EQ(v[2], 0.5f);
  ASSERT_TRUE(RstdToVariance(3, v.data(), 0.0f, v.data()).ok());
  EXPECT_EQ(v[1], 1.0f);
  EXPECT_EQ(v[2], 4.0f);
}

TEST(StatsConvention, RoundingBelowZeroClampsToZero) {
  // rstd slightly above 1/sqrt(eps) (a zero variance after rounding) gives variance 0, not a
  // negative variance.
  const float eps = 1e-5f;
  const float rstd = std::nextafter(static_cast<float>(1.0 / std::sqrt(1e-5)), 1e9f);
  float var = -1.0f;
  ASSERT_TRUE(RstdToVariance(1, &rstd, eps, &var).ok());
  EXPECT_EQ(var, 0.0f);
}

TEST(StatsConvention, RejectsBadValuesAndWritesNothing) {
  struct Case {
    float value;
    const char* needle;
  };
  for (const Case& c : {Case{0.0f, "element 1"}, Case{-2.0f, "element 1"}, Case{NAN, "element 1"},
                        Case{INFINITY, "element 1"}}) {
    const std::vector<float> rstd = {1.0f, c.value, 1.0f};
    std::vector<float> out(3, 7.0f);
    const Status s = RstdToVariance(3, rstd.data(), 1e-5f, out.data());
    EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << c.value;
    EXPECT_NE(s.message().find("'rstd' " + std::string(c.needle)), std::string::npos)
        << s.message();
    EXPECT_EQ(out, std::vector<float>(3, 7.0f));
  }
  {
    const float tiny = 1e-30f;  // 1/tiny^2 = 1e60: beyond float
    float out = 7.0f;
    const Status s = RstdToVariance(1, &tiny, 0.0f, &out);
    EXPECT_EQ(s.code(), StatusCode::kOutOfRange);
    EXPECT_NE(s.message().find("'rstd'"), std::string::npos) << s.message();
    EXPECT_EQ(out, 7.0f);
  }
  for (float v : {-1.0f, NAN, INFINITY}) {
    const std::vector<float> var = {1.0f, 2.0f, v};
    std::vector<float> out(3, 7.0f);
    const Status s = VarianceToRstd(3, var.data(), 0.5f, out.data());
    EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << v;
    EXPECT_NE(s.message().find("'variance' element 2"), std::string::npos) << s.message();
    EXPECT_EQ(out, std::vector<float>(3, 7.0f));
  }
  {
    const float zero = 0.0f;
    float out = 7.0f;
    EXPECT_EQ(VarianceToRstd(1, &zero, 0.0f, &out).code(), StatusCode::kInvalidArgument)
        << "variance + eps = 0";
    EXPECT_TRUE(VarianceToRstd(1, &zero, 1e-5f, &out).ok()) << "variance 0 with eps > 0 is fine";
  }
}

TEST(StatsConvention, RejectsBadArguments) {
  std::vector<float> a(4, 1.0f), b(4, 1.0f);
  auto expect = [](const Status& s, StatusCode code, const std::string& needle) {
    EXPECT_EQ(s.code(), code) << s.ToString();
    EXPECT_NE(s.message().find(needle), std::string::npos) << s.message();
  };
  expect(RstdToVariance(0, a.data(), 0.0f, b.data()), StatusCode::kInvalidArgument, "'n'");
  expect(VarianceToRstd(-3, a.data(), 0.0f, b.data()), StatusCode::kInvalidArgument, "'n'");
  expect(RstdToVariance(int64_t{1} << 62, a.data(), 0.0f, b.data()), StatusCode::kOutOfRange,
         "'n'");
  expect(RstdToVariance(4, nullptr, 0.0f, b.data()), StatusCode::kInvalidArgument, "'rstd'");
  expect(RstdToVariance(4, a.data(), 0.0f, nullptr), StatusCode::kInvalidArgument, "'variance'");
  expect(VarianceToRstd(4, nullptr, 0.0f, b.data()), StatusCode::kInvalidArgument, "'variance'");
  expect(VarianceToRstd(4, a.data(), -1e-5f, b.data()), StatusCode::kInvalidArgument, "'epsilon'");
  expect(RstdToVariance(4, a.data(), NAN, b.data()), StatusCode::kInvalidArgument, "'epsilon'");
  expect(RstdToVariance(4, a.data(), 0.0f, a.data() + 1), StatusCode::kInvalidArgument,
         "'variance' overlaps 'rstd'");
  expect(VarianceToRstd(3, a.data() + 1, 0.0f, a.data()), StatusCode::kInvalidArgument,
         "'rstd' overlaps 'variance'");
  EXPECT_EQ(b, std::vector<float>(4, 1.0f));
}

}  // namespace
}  // namespace lngrad
