// LayerNormBackward (fused dx + dgamma + dbeta): against the oracle, against LayerNormGrad
// followed by LayerNormGradBeta, and bitwise reproducibility over thread counts.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "oracle.h"
#include "test_util.h"

namespace lngrad {
namespace {

using test::GradCase;
using test::Kind;
using test::Path;

// Bitwise equality of one output of the fused and the separate paths.
template <class V>
void ExpectSameBits(const V& fused, const V& separate, const Path& p, const GradCase& c,
                    const char* what) {
  std::string where;
  EXPECT_TRUE(test::SameBits(fused, separate, &where))
      << p.name << " " << test::Describe(c) << " " << what << ": " << where;
}

template <class T>
struct BackwardOut {
  std::vector<T> dx, dgamma, dbeta;
  RunInfo info;
};

// The options of a call on `impl` (threads 0: the default count).
Options CallOptions(Impl impl, int threads, HalfEval eval, RunInfo* info = nullptr) {
  Options o;
  o.impl = impl;
  o.num_threads = threads;
  o.half_eval = eval;
  o.info = info;
  return o;
}

// dx, dgamma, dbeta sized for the case.
template <class T>
BackwardOut<T> SizedOutputs(const GradCase& c) {
  BackwardOut<T> out;
  out.dx.resize(static_cast<size_t>(c.rows * c.h));
  out.dgamma.resize(static_cast<size_t>(c.h));
  out.dbeta.resize(static_cast<size_t>(c.h));
  return out;
}

template <class T>
BackwardOut<T> RunBackward(const test::GradData<T>& d, Impl impl, int threads,
                           HalfEval eval = HalfEval::kCorrectlyRounded) {
  BackwardOut<T> out = SizedOutputs<T>(d.c);
  const Options o = CallOptions(impl, threads, eval, &out.info);
  const Status s = LayerNormBackward({d.c.rows, d.c.h}, d.dy.data(), d.x.data(), d.mean.data(),
                                     d.variance.data(), d.gamma.data(), d.c.epsilon, out.dx.data(),
                                     out.dgamma.data(), out.dbeta.data(), o);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return out;
}

template <class T>
struct SeparateOut {
  std::vector<T> pd_x, res, dgamma, dbeta;
};

template <class T>
SeparateOut<T> RunSeparate(const test::GradData<T>& d, Impl impl, int threads,
                           HalfEval eval = HalfEval::kCorrectlyRounded) {
  const auto n = static_cast<size_t>(d.c.rows * d.c.h);
  SeparateOut<T> out;
  out.pd_x.resize(n);
  out.res.resize(n);
  out.dgamma.resize(static_cast<size_t>(d.c.h));
  out.dbeta.resize(static_cast<size_t>(d.c.h));
  const Options o = CallOptions(impl, threads, eval);
  const RowShape shape{d.c.rows, d.c.h};
  EXPECT_TRUE(LayerNormGrad(shape, d.dy.data(), d.x.data(), d.mean.data(), d.variance.data(),
                            d.gamma.data(), d.c.epsilon, out.pd_x.data(), out.res.data(), o)
                  .ok());
  EXPECT_TRUE(
      LayerNormGradBeta(shape, d.dy.data(), out.res.data(), out.dgamma.data(), out.dbeta.data(), o)
          .ok());
  return out;
}

// dx: the pd_x bound. dgamma = sum(dy * fl(x2*rstd)): each term carries res's 3 roundings,
// plus (rows - 1) additions in any order: (rows + 3) u sum|dy*res|. dbeta: rows u sum|dy|.
template <class T, class Grad, class Beta>
void CheckOutputs(const GradCase& c, const BackwardOut<T>& out, const Grad& ref,
                  const Beta& ref_beta, test::ErrorStats* s,
                  HalfEval eval = HalfEval::kCorrectlyRounded) {
  const double kx = test::PdXBoundFactor(c.h) * test::kU;
  for (size_t i = 0; i < out.dx.size(); ++i) {
    test::CheckValue(out.dx[i], ref.pd_x[i], kx * ref.pd_x_mag[i], "dx", i, s, eval);
  }
  const double kg = (static_cast<double>(c.rows) + 3.0) * test::kU;
  const double kb = test::AnyOrderSumFactor(c.rows) * test::kU;
  for (size_t j = 0; j < out.dgamma.size(); ++j) {
    test::CheckValue(out.dgamma[j], ref_beta.dgamma[j], kg * ref_beta.dgamma_mag[j], "dgamma", j,
                     s);
    test::CheckValue(out.dbeta[j], ref_beta.dbeta[j], kb * ref_beta.dbeta_mag[j], "dbeta", j, s);
  }
}

template <class T>
void CheckAgainstOracle(const GradCase& c, const std::vector<Path>& paths,
                        test::ErrorStats* pool = nullptr,
                        HalfEval eval = HalfEval::kCorrectlyRounded) {
  const auto d = test::MakeGradData<T>(c);
  const auto ref = oracle::LayerNormGrad(c.rows, c.h, d.dy_d, d.x_d, d.mean_d, d.variance_d,
                                         d.gamma_d, c.epsilon);
  const auto ref_beta = oracle::LayerNormGradBeta(c.rows, c.h, d.dy_d, ref.res_for_gamma);
  for (const Path& p : paths) {
    test::TargetScope scope(p);
    const auto out = RunBackward(d, p.impl, 0, eval);
    test::ExpectRan(p, out.info);
    test::ErrorStats s;
    CheckOutputs(c, out, ref, ref_beta, &s, eval);
    EXPECT_EQ(s.failures, 0) << s.first_failure << "\nrepro: core_layer_norm_backward_test "
                             << "--gtest_filter=LayerNormBackward.*Oracle*  (" << test::Describe(c)
                             << ", path " << p.name << ", " << test::TypeName<T>() << ")";
    if (pool != nullptr) pool->Merge(s);
  }
}

std::vector<GradCase> OracleCases() {
  std::vector<GradCase> cases;
  uint64_t seed = 500;
  for (int64_t rows : {1, 8, 255, 1000}) {
    for (int64_t h : {1, 16, 257, 768}) {
      for (Kind kind : {Kind::kPlain, Kind::kOffsetMean, Kind::kCancel}) {
        cases.push_back({rows, h, kind, seed++});
      }
    }
  }
  cases.push_back({3, 4097, Kind::kOffsetMean, seed++});
  return cases;
}

TEST(LayerNormBackward, FloatMatchesOracle) {
  for (const GradCase& c : OracleCases()) CheckAgainstOracle<float>(c, test::MainPaths());
}

TEST(LayerNormBackward, HalfMatchesOracle) {
  test::ErrorStats pool;
  for (const GradCase& c : OracleCases()) CheckAgainstOracle<Half>(c, test::MainPaths(), &pool);
  test::ExpectHalfExactFraction(pool);
}

TEST(LayerNormBackward, EveryTargetMatchesOracle) {
  for (int64_t h : {5, 17, 64, 100}) {
    CheckAgainstOracle<float>({9, h, Kind::kOffsetMean, 900 + static_cast<uint64_t>(h)},
                              test::AllPaths());
    CheckAgainstOracle<Half>({9, h, Kind::kOffsetMean, 950 + static_cast<uint64_t>(h)},
                             test::AllPaths());
    CheckAgainstOracle<Half>({9, h, Kind::kCancel, 970 + static_cast<uint64_t>(h)},
                             test::AllPaths(), nullptr, HalfEval::kFast);
  }
}

// The fast half evaluation (the default): dx within the float bound plus half a half spacing,
// dgamma and dbeta as in the correctly rounded evaluation (the same float sums).
TEST(LayerNormBackward, HalfFastMatchesOracle) {
  test::ErrorStats pool;
  for (const GradCase& c : OracleCases()) {
    CheckAgainstOracle<Half>(c, test::MainPaths(), &pool, HalfEval::kFast);
  }
  std::printf("fast: half outputs equal to the rounded oracle: %lld/%lld\n",
              static_cast<long long>(pool.exact), static_cast<long long>(pool.count));
}

// The fused kernel and LayerNormGrad + LayerNormGradBeta on path p, default threads.
template <class T>
std::pair<BackwardOut<T>, SeparateOut<T>> RunFusedAndSeparate(
    const test::GradData<T>& d, const Path& p, HalfEval eval = HalfEval::kCorrectlyRounded) {
  test::TargetScope scope(p);
  return {RunBackward(d, p.impl, 0, eval), RunSeparate(d, p.impl, 0, eval)};
}

// Shapes with one block, several blocks, a partial last block and column tails.
std::vector<GradCase> FusedCases() {
  return {{1, 3, Kind::kPlain, 1},      {8, 16, Kind::kOffsetMean, 2},
          {255, 257, Kind::kPlain, 3},  {1000, 768, Kind::kOffsetMean, 4},
          {255, 4097, Kind::kPlain, 5}, {1000, 17, Kind::kCancel, 6}};
}

// LayerNormBackwardFloatStats: half data with float statistics (PyTorch's convention).
BackwardOut<Half> RunBackwardFloatStats(const test::GradData<Half>& d,
                                        const std::vector<float>& mean,
                                        const std::vector<float>& variance, Impl impl,
                                        HalfEval eval = HalfEval::kCorrectlyRounded) {
  BackwardOut<Half> out = SizedOutputs<Half>(d.c);
  const Options o = CallOptions(impl, 0, eval, &out.info);
  const Status s = LayerNormBackwardFloatStats(
      {d.c.rows, d.c.h}, d.dy.data(), d.x.data(), mean.data(), variance.data(), d.gamma.data(),
      d.c.epsilon, out.dx.data(), out.dgamma.data(), out.dbeta.data(), o);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return out;
}

// Float statistics that are half values: the same evaluation as the half statistics, bitwise,
// on every path and target.
TEST(LayerNormBackward, FloatStatsOfHalfValuesEqualHalfStatsBitwise) {
  for (const GradCase& c : FusedCases()) {
    const auto d = test::MakeGradData<Half>(c);
    std::vector<float> mean(d.mean.size()), variance(d.variance.size());
    for (size_t r = 0; r < mean.size(); ++r) {
      mean[r] = static_cast<float>(d.mean[r]);
      variance[r] = static_cast<float>(d.variance[r]);
    }
    for (const Path& p : test::AllPaths()) {
      test::TargetScope scope(p);
      for (HalfEval eval : {HalfEval::kCorrectlyRounded, HalfEval::kFast}) {
        const auto half = RunBackward(d, p.impl, 0, eval);
        const auto mixed = RunBackwardFloatStats(d, mean, variance, p.impl, eval);
        ExpectSameBits(mixed.dx, half.dx, p, c, "dx");
        ExpectSameBits(mixed.dgamma, half.dgamma, p, c, "dgamma");
        ExpectSameBits(mixed.dbeta, half.dbeta, p, c, "dbeta");
      }
    }
  }
}

// Float statistics that are not half values (each row's exact statistics rounded to float):
// the half rules of docs/math.md §6.4 against the oracle at those statistics.
TEST(LayerNormBackward, HalfDataFloatStatsMatchOracle) {
  test::ErrorStats pool;
  for (const GradCase& c : OracleCases()) {
    const auto d = test::MakeGradData<Half>(c);
    const auto h = static_cast<size_t>(c.h);
    std::vector<float> mean(d.mean.size()), variance(d.variance.size());
    std::vector<double> mean_d(mean.size()), variance_d(mean.size());
    for (size_t r = 0; r < mean.size(); ++r) {
      double sum = 0, sq = 0;
      for (size_t i = 0; i < h; ++i) sum += d.x_d[r * h + i];
      const double m = sum / static_cast<double>(h);
      for (size_t i = 0; i < h; ++i) sq += (d.x_d[r * h + i] - m) * (d.x_d[r * h + i] - m);
      mean[r] = static_cast<float>(m);
      variance[r] = static_cast<float>(sq / static_cast<double>(h));
      mean_d[r] = mean[r];
      variance_d[r] = variance[r];
    }
    const auto ref =
        oracle::LayerNormGrad(c.rows, c.h, d.dy_d, d.x_d, mean_d, variance_d, d.gamma_d, c.epsilon);
    const auto ref_beta = oracle::LayerNormGradBeta(c.rows, c.h, d.dy_d, ref.res_for_gamma);
    for (const Path& p : test::MainPaths()) {
      test::TargetScope scope(p);
      const auto out = RunBackwardFloatStats(d, mean, variance, p.impl);
      test::ExpectRan(p, out.info);
      test::ErrorStats s;
      CheckOutputs(c, out, ref, ref_beta, &s);
      EXPECT_EQ(s.failures, 0) << s.first_failure << " (" << test::Describe(c) << ", path "
                               << p.name << ")";
      pool.Merge(s);
    }
  }
  test::ExpectHalfExactFraction(pool);
}

TEST(LayerNormBackward, FloatStatsEmptyBatchAndErrors) {
  const Half gamma[2] = {Half(1.0f), Half(2.0f)};
  Half dgamma[2] = {Half(5.0f), Half(5.0f)}, dbeta[2] = {Half(5.0f), Half(5.0f)};
  ASSERT_TRUE(LayerNormBackwardFloatStats({0, 2}, nullptr, nullptr, nullptr, nullptr, gamma, 0.0f,
                                          nullptr, dgamma, dbeta)
                  .ok());
  EXPECT_EQ(static_cast<float>(dgamma[1]), 0.0f);
  EXPECT_EQ(static_cast<float>(dbeta[0]), 0.0f);
  const Half x[2] = {Half(1.0f), Half(2.0f)};
  const float mean = 1.5f;
  Half dx[2];
  const Status s =
      LayerNormBackwardFloatStats({1, 2}, x, x, &mean, nullptr, gamma, 0.0f, dx, dgamma, dbeta);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("'variance'"), std::string::npos) << s.message();
}

// Float: the fused kernel performs exactly the operations of LayerNormGrad (dx) and of
// LayerNormGradBeta on the float res_for_gamma (dgamma, dbeta), on the same row blocks:
// all three are bitwise equal.
TEST(LayerNormBackward, FloatFusedEqualsSeparateBitwise) {
  for (const GradCase& c : FusedCases()) {
    const auto d = test::MakeGradData<float>(c);
    for (const Path& p : test::AllPaths()) {
      const auto [fused, separate] = RunFusedAndSeparate(d, p);
      ExpectSameBits(fused.dx, separate.pd_x, p, c, "dx");
      ExpectSameBits(fused.dgamma, separate.dgamma, p, c, "dgamma");
      ExpectSameBits(fused.dbeta, separate.dbeta, p, c, "dbeta");
    }
  }
}

// Half, both evaluations: dx and dbeta are bitwise equal as above. dgamma differs because the
// separate path rounds res_for_gamma to half before the sum (relative change <= 2^-11 per term),
// while the fused path keeps it in float: |fused - separate| <= 2^-11 sum|dy*res| + both sums'
// float error (2 * rows * u * sum|dy*res|) + half a half-spacing for each final rounding.
TEST(LayerNormBackward, HalfFusedMatchesSeparate) {
  for (const GradCase& c : FusedCases()) {
    const auto d = test::MakeGradData<Half>(c);
    const auto ref = oracle::LayerNormGrad(c.rows, c.h, d.dy_d, d.x_d, d.mean_d, d.variance_d,
                                           d.gamma_d, c.epsilon);
    const auto ref_beta = oracle::LayerNormGradBeta(c.rows, c.h, d.dy_d, ref.res_for_gamma);
    for (const auto& [p, eval] : test::EvalPaths(test::MainPaths())) {
      const auto [fused, separate] = RunFusedAndSeparate(d, p, eval);
      ExpectSameBits(fused.dx, separate.pd_x, p, c, "dx");
      ExpectSameBits(fused.dbeta, separate.dbeta, p, c, "dbeta");
      for (size_t j = 0; j < fused.dgamma.size(); ++j) {
        const double a = test::ToDouble(fused.dgamma[j]);
        const double b = test::ToDouble(separate.dgamma[j]);
        // 1.01 covers the res magnitudes being those of the float, not the exact, res.
        const double mag = 1.01 * ref_beta.dgamma_mag[j];
        const double bound = 0x1p-11 * mag + 2.0 * static_cast<double>(c.rows) * test::kU * mag +
                             0.5 * oracle::HalfSpacing(a) + 0.5 * oracle::HalfSpacing(b);
        EXPECT_LE(std::fabs(a - b), bound) << p.name << " " << HalfEvalName(eval) << " "
                                           << test::Describe(c) << " dgamma[" << j << "]";
      }
    }
  }
}

// Outputs of core::StreamThresholdElements() or more go through non-temporal stores after a
// peel that depends on the output address (float; half keeps ordinary stores while
// HalfStreamable() is off, and this case guards the switch). The threshold (8 Mi elements) is
// lowered to the case's size so that the test stays small. The values must not change: the
// fused and separate results agree bitwise whatever the alignment of dx (offset by 0..3
// elements) and of res_for_gamma, for 1 and 2 threads, and pd_x stays within the oracle bound.
struct StreamThresholdScope {
  explicit StreamThresholdScope(size_t elements) {
    core::SetStreamThresholdElementsForTesting(elements);
  }
  ~StreamThresholdScope() { core::SetStreamThresholdElementsForTesting(core::kStreamElements); }
};

template <class T>
void CheckStreamedOutputs(const GradCase& c, HalfEval eval = HalfEval::kCorrectlyRounded) {
  const StreamThresholdScope threshold(static_cast<size_t>(c.rows * c.h));
  const auto d = test::MakeGradData<T>(c);
  const auto n = static_cast<size_t>(c.rows * c.h);
  const RowShape shape{c.rows, c.h};
  const auto ref = oracle::LayerNormGrad(c.rows, c.h, d.dy_d, d.x_d, d.mean_d, d.variance_d,
                                         d.gamma_d, c.epsilon);
  for (const Path& p : test::MainPaths()) {
    test::TargetScope scope(p);
    const auto base = RunSeparate(d, p.impl, 1, eval);
    test::ErrorStats s;
    for (size_t i = 0; i < n; ++i) {
      test::CheckValue(base.pd_x[i], ref.pd_x[i],
                       test::PdXBoundFactor(c.h) * test::kU * ref.pd_x_mag[i], "pd_x", i, &s, eval);
    }
    EXPECT_EQ(s.failures, 0) << s.first_failure << " " << p.name;
    for (size_t offset : {0, 1, 3}) {
      for (int threads : {1, 2}) {
        std::vector<T> dx(n + 4), res(n + 4), dgamma(static_cast<size_t>(c.h)),
            dbeta(static_cast<size_t>(c.h));
        const Options o = CallOptions(p.impl, threads, eval);
        ASSERT_TRUE(LayerNormBackward(shape, d.dy.data(), d.x.data(), d.mean.data(),
                                      d.variance.data(), d.gamma.data(), c.epsilon,
                                      dx.data() + offset, dgamma.data(), dbeta.data(), o)
                        .ok());
        const std::string what = p.name + " offset " + std::to_string(offset) + " threads " +
                                 std::to_string(threads) + " " + test::TypeName<T>() + " " +
                                 HalfEvalName(eval);
        std::string where;
        EXPECT_TRUE(test::SameBits(std::vector<T>(dx.begin() + static_cast<long>(offset),
                                                  dx.begin() + static_cast<long>(offset + n)),
                                   base.pd_x, &where))
            << what << " dx: " << where;
        EXPECT_TRUE(test::SameBits(dbeta, base.dbeta, &where)) << what << " dbeta: " << where;
        if constexpr (std::is_same_v<T, float>) {
          EXPECT_TRUE(test::SameBits(dgamma, base.dgamma, &where)) << what << " dgamma: " << where;
        }
        // Separate path with pd_x and res_for_gamma misaligned differently (offset vs 0).
        std::vector<T> pd_x(n + 4);
        ASSERT_TRUE(LayerNormGrad(shape, d.dy.data(), d.x.data(), d.mean.data(), d.variance.data(),
                                  d.gamma.data(), c.epsilon, pd_x.data() + offset, res.data(), o)
                        .ok());
        EXPECT_TRUE(test::SameBits(std::vector<T>(pd_x.begin() + static_cast<long>(offset),
                                                  pd_x.begin() + static_cast<long>(offset + n)),
                                   base.pd_x, &where))
            << what << " pd_x: " << where;
        EXPECT_TRUE(test::SameBits(std::vector<T>(res.begin(), res.begin() + static_cast<long>(n)),
                                   base.res, &where))
            << what << " res_for_gamma: " << where;
      }
    }
  }
}

TEST(LayerNormBackward, FloatStreamedOutputsUnchanged) {
  CheckStreamedOutputs<float>({1100, 2048, Kind::kOffsetMean, 41});
}

TEST(LayerNormBackward, HalfStreamedOutputsUnchanged) {
  CheckStreamedOutputs<Half>({2100, 2048, Kind::kOffsetMean, 42});
  CheckStreamedOutputs<Half>({2100, 2048, Kind::kOffsetMean, 43}, HalfEval::kFast);
}

// Streamed 16-bit outputs on every target: the bits of the unstreamed ones (half fast and
// bfloat16, fused and separate). Highway's Stream of the 8-byte 16-bit vectors of SSE4 and SSSE3
// wrote a 16-byte register at 8-byte aligned addresses (a fault, or 8 bytes past the vector), so
// StreamPlan gives those targets ordinary stores; the wider targets stream.
template <class T>
void CheckStreamedOnEveryTarget(const GradCase& c) {
  const auto d = test::MakeGradData<T>(c);
  for (const Path& p : test::AllPaths()) {
    test::TargetScope scope(p);
    const auto base = RunBackward(d, p.impl, 1, HalfEval::kFast);
    const auto base_sep = RunSeparate(d, p.impl, 1, HalfEval::kFast);
    const StreamThresholdScope threshold(0);
    for (int threads : {1, 2}) {
      const auto got = RunBackward(d, p.impl, threads, HalfEval::kFast);
      const auto sep = RunSeparate(d, p.impl, threads, HalfEval::kFast);
      const std::string what =
          p.name + " " + test::TypeName<T>() + " threads " + std::to_string(threads);
      std::string where;
      EXPECT_TRUE(test::SameBits(got.dx, base.dx, &where)) << what << " dx: " << where;
      EXPECT_TRUE(test::SameBits(got.dgamma, base.dgamma, &where)) << what << " dgamma: " << where;
      EXPECT_TRUE(test::SameBits(got.dbeta, base.dbeta, &where)) << what << " dbeta: " << where;
      EXPECT_TRUE(test::SameBits(sep.pd_x, base_sep.pd_x, &where)) << what << " pd_x: " << where;
      EXPECT_TRUE(test::SameBits(sep.res, base_sep.res, &where)) << what << " res: " << where;
    }
  }
}

TEST(LayerNormBackward, SixteenBitStreamedOnEveryTarget) {
  CheckStreamedOnEveryTarget<Half>({67, 1024, Kind::kOffsetMean, 44});
  CheckStreamedOnEveryTarget<BFloat16>({67, 1024, Kind::kOffsetMean, 45});
}

// The row blocks depend on the shape only, so the bits do not depend on the thread count.
template <class T>
void CheckThreadCounts(const GradCase& c, HalfEval eval = HalfEval::kCorrectlyRounded) {
  const auto d = test::MakeGradData<T>(c);
  for (const Path& p : test::MainPaths()) {
    test::TargetScope scope(p);
    const auto base = RunBackward(d, p.impl, 1, eval);
    const auto base_sep = RunSeparate(d, p.impl, 1, eval);
    EXPECT_EQ(base.info.threads, 1);
    for (int threads : {2, 3, 7}) {
      const auto got = RunBackward(d, p.impl, threads, eval);
      const auto sep = RunSeparate(d, p.impl, threads, eval);
      EXPECT_EQ(got.info.threads, threads) << "the shape has enough blocks for every thread";
      std::string where;
      const std::string what = p.name + " " + test::Describe(c) + " threads " +
                               std::to_string(threads) + " " + test::TypeName<T>() + " " +
                               HalfEvalName(eval);
      EXPECT_TRUE(test::SameBits(got.dx, base.dx, &where)) << what << " dx: " << where;
      EXPECT_TRUE(test::SameBits(got.dgamma, base.dgamma, &where)) << what << " dgamma: " << where;
      EXPECT_TRUE(test::SameBits(got.dbeta, base.dbeta, &where)) << what << " dbeta: " << where;
      EXPECT_TRUE(test::SameBits(sep.pd_x, base_sep.pd_x, &where)) << what << " pd_x: " << where;
      EXPECT_TRUE(test::SameBits(sep.res, base_sep.res, &where)) << what << " res: " << where;
      EXPECT_TRUE(test::SameBits(sep.dgamma, base_sep.dgamma, &where))
          << what << " GradBeta dgamma: " << where;
      EXPECT_TRUE(test::SameBits(sep.dbeta, base_sep.dbeta, &where))
          << what << " GradBeta dbeta: " << where;
    }
  }
}

TEST(LayerNormBackward, FloatBitwiseForAnyThreadCount) {
  CheckThreadCounts<float>({1000, 768, Kind::kOffsetMean, 21});
  CheckThreadCounts<float>({255, 4097, Kind::kPlain, 22});
}

TEST(LayerNormBackward, HalfBitwiseForAnyThreadCount) {
  CheckThreadCounts<Half>({1000, 768, Kind::kOffsetMean, 23});
  CheckThreadCounts<Half>({4099, 33, Kind::kPlain, 24});
  CheckThreadCounts<Half>({1000, 768, Kind::kOffsetMean, 25}, HalfEval::kFast);
  CheckThreadCounts<Half>({4099, 33, Kind::kPlain, 26}, HalfEval::kFast);
}

TEST(LayerNormBackward, DefaultThreadCountIsAllCores) {
  const auto d = test::MakeGradData<float>({1000, 768, Kind::kPlain, 31});
  const auto out = RunBackward(d, Impl::kAuto, 0);
  EXPECT_EQ(out.info.threads, std::min(DefaultThreadCount(), 46))  // 1000 rows / 22 per block
      << "num_threads = 0 uses DefaultThreadCount() threads (capped by the 46 row blocks)";
  EXPECT_GE(DefaultThreadCount(), 1);
}

TEST(LayerNormBackward, SmallProblemsRunOnTheCaller) {
  const auto d = test::MakeGradData<float>({64, 16, Kind::kPlain, 32});
  EXPECT_EQ(RunBackward(d, Impl::kAuto, 7).info.threads, 1);
}

// An empty batch (rows = 0), as PyTorch allows it: dx is empty, dgamma and dbeta are the sums over
// no rows, 0; the empty tensors may be null; gamma and the [h] outputs still must not be.
template <class T>
void ExpectEmptyBatch() {
  const int64_t h = 24;
  const std::vector<T> gamma(h, T(1.5f));
  std::vector<T> dgamma(h, T(7.0f)), dbeta(h, T(-7.0f));
  for (int threads : {1, 3}) {
    Options options;
    options.num_threads = threads;
    const Status s = LayerNormBackward({0, h}, nullptr, nullptr, nullptr, nullptr, gamma.data(),
                                       1e-5f, nullptr, dgamma.data(), dbeta.data(), options);
    ASSERT_TRUE(s.ok()) << s.ToString();
    for (int64_t i = 0; i < h; ++i) {
      EXPECT_EQ(static_cast<float>(dgamma[i]), 0.0f) << i;
      EXPECT_EQ(static_cast<float>(dbeta[i]), 0.0f) << i;
      EXPECT_FALSE(std::signbit(static_cast<float>(dbeta[i]))) << i;
    }
  }
  // The rules that do not depend on rows still hold.
  const Status no_gamma =
      LayerNormBackward({0, h}, nullptr, nullptr, nullptr, nullptr, static_cast<const T*>(nullptr),
                        1e-5f, nullptr, dgamma.data(), dbeta.data());
  EXPECT_NE(no_gamma.message().find("'gamma' is null"), std::string::npos) << no_gamma.ToString();
  const Status bad_eps = LayerNormBackward({0, h}, nullptr, nullptr, nullptr, nullptr, gamma.data(),
                                           -1.0f, nullptr, dgamma.data(), dbeta.data());
  EXPECT_NE(bad_eps.message().find("'epsilon'"), std::string::npos) << bad_eps.ToString();
  const Status no_h = LayerNormBackward({0, 0}, nullptr, nullptr, nullptr, nullptr, gamma.data(),
                                        1e-5f, nullptr, dgamma.data(), dbeta.data());
  EXPECT_NE(no_h.message().find("'shape.h' must be >= 1"), std::string::npos) << no_h.ToString();
  const Status negative =
      LayerNormBackward({-1, h}, nullptr, nullptr, nullptr, nullptr, gamma.data(), 1e-5f, nullptr,
                        dgamma.data(), dbeta.data());
  EXPECT_NE(negative.message().find("'shape.rows' must be >= 0 (got -1)"), std::string::npos)
      << negative.ToString();
  // No matrix bounds h when rows = 0: an h whose [h] tensors no process can have is refused
  // before anything is written (fuzz_native_args found fill_n running past dgamma).
  for (int64_t huge : {std::numeric_limits<int64_t>::max(), int64_t{1} << 62}) {
    std::fill(dgamma.begin(), dgamma.end(), T(7.0f));
    const Status too_long =
        LayerNormBackward({0, huge}, nullptr, nullptr, nullptr, nullptr, gamma.data(), 1e-5f,
                          nullptr, dgamma.data(), dbeta.data());
    EXPECT_EQ(too_long.code(), StatusCode::kOutOfRange) << too_long.ToString();
    EXPECT_NE(too_long.message().find("'shape.h'"), std::string::npos) << too_long.ToString();
    EXPECT_EQ(static_cast<float>(dgamma[0]), 7.0f) << "written by a call that failed";
  }
}

TEST(LayerNormBackward, FloatEmptyBatchGivesZeroSums) { ExpectEmptyBatch<float>(); }
TEST(LayerNormBackward, HalfEmptyBatchGivesZeroSums) { ExpectEmptyBatch<Half>(); }

}  // namespace
}  // namespace lngrad
