// LayerNormGrad and LayerNormGradBeta against the documentation example and the float64 oracle,
// on every implementation path.
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "doc_example.h"
#include "oracle.h"
#include "test_util.h"

namespace lngrad {
namespace {

using test::ErrorStats;
using test::GradCase;
using test::Kind;
using test::Path;

// Official sample rule (spec §5.5): an element fails only if abs err > 1e-4 AND rel err > 1e-4.
bool SampleRuleFails(double got, double golden) {
  const double abs_err = std::fabs(got - golden);
  return abs_err > 1e-4 && abs_err / std::fabs(golden) > 1e-4;
}

std::vector<float> ToFloats(const std::vector<double>& v) { return {v.begin(), v.end()}; }

TEST(DocExample, LayerNormGradWithinSampleRuleAndOracle) {
  auto doc = test::ReadDocExample("layernormgrad_doc_example.txt");
  ASSERT_EQ(doc["inputDy"].size(), 64u);
  ASSERT_EQ(doc["outputPdX"].size(), 64u);
  ASSERT_EQ(doc["resForGamma"].size(), 64u);
  ASSERT_EQ(doc["epsilon"].size(), 1u);
  const RowShape shape{8, 8};
  const auto dy = ToFloats(doc["inputDy"]), x = ToFloats(doc["inputX"]);
  const auto mean = ToFloats(doc["inputMean"]), var = ToFloats(doc["inputVariance"]);
  const auto gamma = ToFloats(doc["inputGamma"]);
  const auto eps = static_cast<float>(doc["epsilon"][0]);
  const auto ref = oracle::LayerNormGrad(8, 8, test::Widen(dy), test::Widen(x), test::Widen(mean),
                                         test::Widen(var), test::Widen(gamma), eps);
  for (const Path& p : test::AllPaths()) {
    test::TargetScope scope(p);
    std::vector<float> pd_x(64), res(64);
    RunInfo info;
    Options o = test::PathOptions(p, &info);
    ASSERT_TRUE(LayerNormGrad(shape, dy.data(), x.data(), mean.data(), var.data(), gamma.data(),
                              eps, pd_x.data(), res.data(), o)
                    .ok());
    test::ExpectRan(p, info);
    ErrorStats stats;
    for (size_t i = 0; i < 64; ++i) {
      EXPECT_FALSE(SampleRuleFails(pd_x[i], doc["outputPdX"][i]))
          << p.name << " pd_x[" << i << "] = " << pd_x[i] << ", printed " << doc["outputPdX"][i];
      EXPECT_FALSE(SampleRuleFails(res[i], doc["resForGamma"][i]))
          << p.name << " res[" << i << "] = " << res[i] << ", printed " << doc["resForGamma"][i];
      test::CheckFloat(pd_x[i], ref.pd_x[i], test::PdXBoundFactor(8) * test::kU * ref.pd_x_mag[i],
                       "pd_x", i, &stats);
      test::CheckFloat(res[i], ref.res_for_gamma[i],
                       test::kResBoundFactor * test::kU * ref.res_mag[i], "res_for_gamma", i,
                       &stats);
    }
    EXPECT_EQ(stats.failures, 0) << p.name << ": " << stats.first_failure;
  }
}

TEST(DocExample, LayerNormGradBetaIsExact) {
  auto doc = test::ReadDocExample("layernormgradbeta_doc_example.txt");
  ASSERT_EQ(doc["inputDy"].size(), 64u);
  ASSERT_EQ(doc["outputPdGamma"].size(), 8u);
  ASSERT_EQ(doc["outputPdBeta"].size(), 8u);
  const auto dy = ToFloats(doc["inputDy"]), res = ToFloats(doc["resForGamma"]);
  for (const Path& p : test::AllPaths()) {
    test::TargetScope scope(p);
    std::vector<float> dgamma(8), dbeta(8);
    Options o;
    o.impl = p.impl;
    ASSERT_TRUE(
        LayerNormGradBeta({8, 8}, dy.data(), res.data(), dgamma.data(), dbeta.data(), o).ok());
    for (size_t c = 0; c < 8; ++c) {
      EXPECT_EQ(dgamma[c], doc["outputPdGamma"][c]) << p.name << " column " << c;
      EXPECT_EQ(dbeta[c], doc["outputPdBeta"][c]) << p.name << " column " << c;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Random cases.

constexpr int64_t kRows[] = {1, 3, 8, 255, 1000};
constexpr int64_t kHs[] = {1, 3, 8, 16, 64, 257, 768, 4097};

uint64_t SeedOf(int64_t rows, int64_t h, Kind kind) {
  return 1000003ull * static_cast<uint64_t>(rows) + 101ull * static_cast<uint64_t>(h) +
         static_cast<uint64_t>(kind);
}

// Every (rows, h) of the issue; the largest (1000 x 4097) only for the main kinds, to keep the
// test within seconds.
std::vector<GradCase> FullCases() {
  std::vector<GradCase> cases;
  for (int64_t rows : kRows) {
    for (int64_t h : kHs) {
      for (Kind kind : {Kind::kPlain, Kind::kOffsetMean, Kind::kPositive, Kind::kCancel}) {
        if (rows * h > 1000000 && (kind == Kind::kPositive || kind == Kind::kCancel)) continue;
        cases.push_back({rows, h, kind, SeedOf(rows, h, kind)});
      }
    }
  }
  // epsilon = 0 is allowed; with a non-constant row the variance is positive.
  cases.push_back({8, 257, Kind::kOffsetMean, 77, 0.0f});
  cases.push_back({3, 64, Kind::kCancel, 78, 0.0f});
  return cases;
}

// Per-target sweep: every tail length of the widest vector (h mod 16 and mod 64) and both
// unrolled loops, at moderate sizes.
std::vector<GradCase> TargetCases() {
  std::vector<GradCase> cases;
  for (int64_t h : {1, 3, 5, 8, 15, 16, 17, 31, 64, 65, 100, 257, 768}) {
    for (Kind kind : {Kind::kOffsetMean, Kind::kCancel}) {
      cases.push_back({7, h, kind, SeedOf(7, h, kind)});
    }
  }
  cases.push_back({255, 4097, Kind::kPlain, 5});
  return cases;
}

std::string Repro(const std::string& test_name, const GradCase& c, const Path& p) {
  return "repro: core_layer_norm_grad_test --gtest_filter=" + test_name + "  (" +
         test::Describe(c) + ", path " + p.name + ")";
}

template <class T>
void CheckGrad(const test::GradData<T>& d, const oracle::GradOutputs& ref, const Path& p,
               HalfEval eval, ErrorStats* pd_x_stats, ErrorStats* res_stats) {
  const auto n = static_cast<size_t>(d.c.rows * d.c.h);
  std::vector<T> pd_x(n), res(n);
  RunInfo info;
  Options o = test::PathOptions(p, &info, eval);
  const Status s =
      LayerNormGrad({d.c.rows, d.c.h}, d.dy.data(), d.x.data(), d.mean.data(), d.variance.data(),
                    d.gamma.data(), d.c.epsilon, pd_x.data(), res.data(), o);
  ASSERT_TRUE(s.ok()) << s.ToString();
  test::ExpectRan(p, info);
  const double k = test::PdXBoundFactor(d.c.h) * test::kU;
  for (size_t i = 0; i < n; ++i) {
    test::CheckValue(pd_x[i], ref.pd_x[i], k * ref.pd_x_mag[i], "pd_x", i, pd_x_stats, eval);
    test::CheckValue(res[i], ref.res_for_gamma[i],
                     test::kResBoundFactor * test::kU * ref.res_mag[i], "res_for_gamma", i,
                     res_stats);
  }
}

// Runs the cases on the paths; float: every element within its bound; half, correctly
// rounded: every element within 1 ulp and >= 99.9 % exact, cancelling cases included; half,
// fast: pd_x within the float bound plus half a half spacing, res_for_gamma within 1 ulp (the
// exact fraction is printed, not asserted: the fast evaluation promises the bound only).
template <class T>
void RunGradCases(const std::string& test_name, const std::vector<GradCase>& cases,
                  const std::vector<Path>& paths, HalfEval eval = HalfEval::kCorrectlyRounded) {
  std::vector<ErrorStats> exact_pool(paths.size()), worst(paths.size());
  for (const GradCase& c : cases) {
    const auto d = test::MakeGradData<T>(c);
    const auto ref = oracle::LayerNormGrad(c.rows, c.h, d.dy_d, d.x_d, d.mean_d, d.variance_d,
                                           d.gamma_d, c.epsilon);
    for (size_t pi = 0; pi < paths.size(); ++pi) {
      test::TargetScope scope(paths[pi]);
      ErrorStats pd_x, res;
      CheckGrad(d, ref, paths[pi], eval, &pd_x, &res);
      EXPECT_EQ(pd_x.failures, 0) << pd_x.failures << " elements, first " << pd_x.first_failure
                                  << "\n"
                                  << Repro(test_name, c, paths[pi]);
      EXPECT_EQ(res.failures, 0) << res.failures << " elements, first " << res.first_failure << "\n"
                                 << Repro(test_name, c, paths[pi]);
      worst[pi].Merge(pd_x);
      exact_pool[pi].Merge(pd_x);
      exact_pool[pi].Merge(res);
    }
  }
  for (size_t pi = 0; pi < paths.size(); ++pi) {
    // How much of the pd_x bound was used (float: |err|/bound; half: ulps from the rounded oracle).
    std::printf("%s %s: worst pd_x error / bound = %.3g\n", test_name.c_str(),
                paths[pi].name.c_str(), worst[pi].worst_ratio);
  }
  if constexpr (std::is_same_v<T, Half>) {
    for (size_t pi = 0; pi < paths.size(); ++pi) {
      const ErrorStats& s = exact_pool[pi];
      ASSERT_GT(s.count, 0);
      const double fraction = static_cast<double>(s.exact) / static_cast<double>(s.count);
      if (eval == HalfEval::kCorrectlyRounded) {
        EXPECT_GE(fraction, test::kHalfExactFraction)
            << paths[pi].name << ": " << s.exact << " of " << s.count << " equal to the oracle";
      }
      std::printf("%s %s: %lld/%lld half outputs equal to the rounded oracle (%.5f %%)\n",
                  test_name.c_str(), paths[pi].name.c_str(), static_cast<long long>(s.exact),
                  static_cast<long long>(s.count), 100.0 * fraction);
    }
  }
}

TEST(LayerNormGradRandom, FloatAllShapes) {
  RunGradCases<float>("LayerNormGradRandom.FloatAllShapes", FullCases(), test::MainPaths());
}

TEST(LayerNormGradRandom, HalfAllShapes) {
  RunGradCases<Half>("LayerNormGradRandom.HalfAllShapes", FullCases(), test::MainPaths());
}

TEST(LayerNormGradRandom, FloatEveryTarget) {
  RunGradCases<float>("LayerNormGradRandom.FloatEveryTarget", TargetCases(), test::AllPaths());
}

TEST(LayerNormGradRandom, HalfEveryTarget) {
  RunGradCases<Half>("LayerNormGradRandom.HalfEveryTarget", TargetCases(), test::AllPaths());
}

// The fast half evaluation (the default) against the oracle at its own bound (docs/math.md §6.4).
TEST(LayerNormGradRandom, HalfFastAllShapes) {
  RunGradCases<Half>("LayerNormGradRandom.HalfFastAllShapes", FullCases(), test::MainPaths(),
                     HalfEval::kFast);
}

TEST(LayerNormGradRandom, HalfFastEveryTarget) {
  RunGradCases<Half>("LayerNormGradRandom.HalfFastEveryTarget", TargetCases(), test::AllPaths(),
                     HalfEval::kFast);
}

// The sum(-2*x2) term of pd_mean: with a mean that is not the row mean, dropping it changes
// pd_x by far more than the tolerance (guards against "simplifying" the formula away).
TEST(LayerNormGradRandom, MeanTermMatters) {
  const GradCase c{4, 64, Kind::kOffsetMean, 11};
  const auto d = test::MakeGradData<float>(c);
  const auto ref = oracle::LayerNormGrad(c.rows, c.h, d.dy_d, d.x_d, d.mean_d, d.variance_d,
                                         d.gamma_d, c.epsilon);
  std::vector<float> pd_x(256), res(256);
  ASSERT_TRUE(LayerNormGrad({4, 64}, d.dy.data(), d.x.data(), d.mean.data(), d.variance.data(),
                            d.gamma.data(), c.epsilon, pd_x.data(), res.data())
                  .ok());
  double largest_term = 0;
  for (int64_t r = 0; r < 4; ++r) {
    double pd_var = 0, sum_x2 = 0;
    const double v = d.variance_d[r] + c.epsilon;
    for (int64_t i = 0; i < 64; ++i) {
      const double x2 = d.x_d[r * 64 + i] - d.mean_d[r];
      pd_var += -0.5 * d.dy_d[r * 64 + i] * d.gamma_d[i] * x2 * std::pow(v, -1.5);
      sum_x2 += -2.0 * x2;
    }
    // The term's contribution to every pd_x of the row: pd_var/N * sum(-2*x2) / N.
    largest_term = std::max(largest_term, std::fabs(pd_var / 64 * sum_x2 / 64));
  }
  double worst_bound = 0;
  for (size_t i = 0; i < 256; ++i) {
    worst_bound = std::max(worst_bound, test::PdXBoundFactor(64) * test::kU * ref.pd_x_mag[i]);
    EXPECT_NEAR(pd_x[i], ref.pd_x[i], test::PdXBoundFactor(64) * test::kU * ref.pd_x_mag[i]);
  }
  EXPECT_GT(largest_term, 1000 * worst_bound) << "the case does not exercise the term";
}

// ---------------------------------------------------------------------------------------------
// LayerNormGradBeta.

template <class T>
void RunBetaCase(int64_t rows, int64_t h, uint64_t seed, const std::vector<Path>& paths,
                 ErrorStats* exact_pool) {
  const auto n = static_cast<size_t>(rows * h);
  const auto dy = test::RandomVector<T>(n, seed, -1.0, 1.0);
  const auto res = test::RandomVector<T>(n, seed + 1, -2.0, 2.0);
  const auto ref = oracle::LayerNormGradBeta(rows, h, test::Widen(dy), test::Widen(res));
  const double k = test::AnyOrderSumFactor(rows) * test::kU;
  for (size_t pi = 0; pi < paths.size(); ++pi) {
    const Path& p = paths[pi];
    test::TargetScope scope(p);
    std::vector<T> dgamma(static_cast<size_t>(h)), dbeta(static_cast<size_t>(h));
    RunInfo info;
    Options o = test::PathOptions(p, &info);
    ASSERT_TRUE(
        LayerNormGradBeta({rows, h}, dy.data(), res.data(), dgamma.data(), dbeta.data(), o).ok());
    test::ExpectRan(p, info);
    ErrorStats s;
    for (size_t c = 0; c < static_cast<size_t>(h); ++c) {
      test::CheckValue(dgamma[c], ref.dgamma[c], k * ref.dgamma_mag[c], "dgamma", c, &s);
      test::CheckValue(dbeta[c], ref.dbeta[c], k * ref.dbeta_mag[c], "dbeta", c, &s);
    }
    EXPECT_EQ(s.failures, 0) << s.first_failure << "\nrepro: core_layer_norm_grad_test "
                             << "--gtest_filter=LayerNormGradBetaRandom.*  (rows=" << rows
                             << " h=" << h << " seed=" << seed << ", path " << p.name << ")";
    exact_pool[pi].Merge(s);
  }
}

template <class T>
void RunBetaCases(const std::vector<Path>& paths) {
  std::vector<ErrorStats> exact_pool(paths.size());
  for (int64_t rows : kRows) {
    for (int64_t h : kHs)
      RunBetaCase<T>(rows, h, SeedOf(rows, h, Kind::kPlain), paths, exact_pool.data());
  }
  RunBetaCase<T>(4096, 257, 99, paths, exact_pool.data());  // many row blocks
  if constexpr (std::is_same_v<T, Half>) {
    for (size_t pi = 0; pi < paths.size(); ++pi) {
      const double fraction =
          static_cast<double>(exact_pool[pi].exact) / static_cast<double>(exact_pool[pi].count);
      EXPECT_GE(fraction, test::kHalfExactFraction) << paths[pi].name;
    }
  }
}

TEST(LayerNormGradBetaRandom, Float) { RunBetaCases<float>(test::AllPaths()); }
TEST(LayerNormGradBetaRandom, Half) { RunBetaCases<Half>(test::AllPaths()); }

}  // namespace
}  // namespace lngrad
