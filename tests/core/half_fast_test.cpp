// The fast half evaluation (Options::half_eval = HalfEval::kFast, the default): what it is and
// how it is selected. Its accuracy against the float64 oracle is tested beside the correctly
// rounded evaluation's (layer_norm_grad_test.cpp, layer_norm_backward_test.cpp: *HalfFast*).
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "lngrad/lngrad.h"
#include "test_util.h"

namespace lngrad {
namespace {

using test::GradCase;
using test::Kind;
using test::Path;

struct Outputs {
  std::vector<uint16_t> pd_x, res, dx, dgamma, dbeta;  // half bits
};

// LayerNormGrad and LayerNormBackward on half data with the given options.
Outputs RunHalf(const test::GradData<Half>& d, const Options& o) {
  const auto n = static_cast<size_t>(d.c.rows * d.c.h);
  const auto h = static_cast<size_t>(d.c.h);
  std::vector<Half> pd_x(n), res(n), dx(n), dgamma(h), dbeta(h);
  const RowShape shape{d.c.rows, d.c.h};
  EXPECT_TRUE(LayerNormGrad(shape, d.dy.data(), d.x.data(), d.mean.data(), d.variance.data(),
                            d.gamma.data(), d.c.epsilon, pd_x.data(), res.data(), o)
                  .ok());
  EXPECT_TRUE(LayerNormBackward(shape, d.dy.data(), d.x.data(), d.mean.data(), d.variance.data(),
                                d.gamma.data(), d.c.epsilon, dx.data(), dgamma.data(), dbeta.data(),
                                o)
                  .ok());
  auto bits = [](const std::vector<Half>& v) {
    std::vector<uint16_t> b(v.size());
    for (size_t i = 0; i < v.size(); ++i) b[i] = v[i].bits;
    return b;
  };
  return {bits(pd_x), bits(res), bits(dx), bits(dgamma), bits(dbeta)};
}

// The float API on the same values (half widens to float exactly), each output rounded once to
// half (RNE, the library's scalar conversion).
Outputs RunFloatRounded(const test::GradData<Half>& d, const Options& o) {
  auto widen = [](const std::vector<Half>& v) {
    std::vector<float> f(v.size());
    for (size_t i = 0; i < v.size(); ++i) f[i] = HalfBitsToFloat(v[i].bits);
    return f;
  };
  const auto dy = widen(d.dy), x = widen(d.x), mean = widen(d.mean), variance = widen(d.variance),
             gamma = widen(d.gamma);
  const auto n = static_cast<size_t>(d.c.rows * d.c.h);
  const auto h = static_cast<size_t>(d.c.h);
  std::vector<float> pd_x(n), res(n), dx(n), dgamma(h), dbeta(h);
  const RowShape shape{d.c.rows, d.c.h};
  EXPECT_TRUE(LayerNormGrad(shape, dy.data(), x.data(), mean.data(), variance.data(), gamma.data(),
                            d.c.epsilon, pd_x.data(), res.data(), o)
                  .ok());
  EXPECT_TRUE(LayerNormBackward(shape, dy.data(), x.data(), mean.data(), variance.data(),
                                gamma.data(), d.c.epsilon, dx.data(), dgamma.data(), dbeta.data(),
                                o)
                  .ok());
  auto round = [](const std::vector<float>& v) {
    std::vector<uint16_t> b(v.size());
    for (size_t i = 0; i < v.size(); ++i) b[i] = FloatToHalfBits(v[i]);
    return b;
  };
  return {round(pd_x), round(res), round(dx), round(dgamma), round(dbeta)};
}

void ExpectEqual(const Outputs& a, const Outputs& b, const std::string& what) {
  EXPECT_EQ(a.pd_x, b.pd_x) << what << " pd_x";
  EXPECT_EQ(a.res, b.res) << what << " res_for_gamma";
  EXPECT_EQ(a.dx, b.dx) << what << " dx";
  EXPECT_EQ(a.dgamma, b.dgamma) << what << " dgamma";
  EXPECT_EQ(a.dbeta, b.dbeta) << what << " dbeta";
}

std::vector<GradCase> Cases() {
  return {{7, 5, Kind::kOffsetMean, 1}, {9, 17, Kind::kCancel, 2},
          {33, 64, Kind::kPlain, 3},    {5, 100, Kind::kOffsetMean, 4},
          {255, 257, Kind::kCancel, 5}, {40, 768, Kind::kOffsetMean, 6},
          {3, 4097, Kind::kPlain, 7},   {300, 2048, Kind::kOffsetMean, 8}};
}

// The fast evaluation is the float evaluation of the same values, each output rounded once to
// half: on every path and target, with one thread and with three (the float kernels are
// bitwise the same for any thread count). The structure that docs/math.md §6.4's bound of the
// fast evaluation rests on.
TEST(HalfFast, IsTheFloatEvaluationRoundedOnce) {
  for (const GradCase& c : Cases()) {
    const auto d = test::MakeGradData<Half>(c);
    for (const Path& p : test::AllPaths()) {
      test::TargetScope scope(p);
      for (int threads : {1, 3}) {
        Options o = test::PathOptions(p, nullptr, HalfEval::kFast);
        o.num_threads = threads;
        ExpectEqual(RunHalf(d, o), RunFloatRounded(d, o),
                    p.name + " " + test::Describe(c) + " threads " + std::to_string(threads));
      }
    }
  }
}

// Options{} runs the fast evaluation; kCorrectlyRounded another one (it differs on these
// cancelling rows), and the two agree on what they share: res_for_gamma, dbeta and the fused
// dgamma are evaluated alike.
TEST(HalfFast, IsTheDefaultAndCorrectlyRoundedIsSelectable) {
  const auto d = test::MakeGradData<Half>({64, 768, Kind::kCancel, 11});
  for (const Path& p : test::MainPaths()) {
    test::TargetScope scope(p);
    Options def;
    def.impl = p.impl;
    const Outputs fast = RunHalf(d, test::PathOptions(p, nullptr, HalfEval::kFast));
    const Outputs exact = RunHalf(d, test::PathOptions(p, nullptr, HalfEval::kCorrectlyRounded));
    ExpectEqual(RunHalf(d, def), fast, p.name + " default");
    EXPECT_NE(fast.pd_x, exact.pd_x) << p.name;
    EXPECT_NE(fast.dx, exact.dx) << p.name;
    EXPECT_EQ(fast.res, exact.res) << p.name;
    EXPECT_EQ(fast.dbeta, exact.dbeta) << p.name;
    EXPECT_EQ(fast.dgamma, exact.dgamma) << p.name;
  }
}

TEST(HalfFast, NamesParseAndPrint) {
  for (HalfEval e : {HalfEval::kFast, HalfEval::kCorrectlyRounded}) {
    HalfEval parsed = static_cast<HalfEval>(-1);
    ASSERT_TRUE(ParseHalfEval(HalfEvalName(e), &parsed).ok()) << HalfEvalName(e);
    EXPECT_EQ(parsed, e);
  }
  EXPECT_STREQ(HalfEvalName(HalfEval::kFast), "fast");
  EXPECT_STREQ(HalfEvalName(HalfEval::kCorrectlyRounded), "correctly-rounded");
  HalfEval out = HalfEval::kFast;
  const Status s = ParseHalfEval("exact", &out);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("fast or correctly-rounded (got 'exact')"), std::string::npos)
      << s.message();
  EXPECT_EQ(out, HalfEval::kFast) << "untouched on error";
  EXPECT_FALSE(ParseHalfEval("fast", nullptr).ok());
}

}  // namespace
}  // namespace lngrad
