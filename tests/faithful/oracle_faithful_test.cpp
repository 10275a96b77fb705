// AscendC::LayerNormGrad and LayerNormGradBeta on the simulated device against the float64
// oracle (tests/oracle) within documented bounds, and the LayerNormGrad documentation example
// within the official sample rule.
//
// Bounds (u = 2^-24; mag = the oracle's magnitude, every term taken in absolute value):
//  * pd_x, float: |got - e| <= K * u * mag with K = 2D + 24. 2D + 14 is the first-order bound of
//    docs/math.md §6.1 (plus 8 units of slack for second-order terms) for sums of tree depth D;
//    the device adds up to 5 roundings in v^-1.5 = 1/sqrt((v*v)*v) and 1/N, 2/N are rounded
//    floats, which enter both pd_var terms: 10 more units. D, the longest chain of additions in
//    one sum: arch 2201/2002 sums 64-lane trees level by level (spec §1.8), D = 6 per level of
//    64; arch 3510 accumulates each lane over the H/64 chunks, then one 64-lane tree,
//    D = ceil(H/64) - 1 + 6 (spec §1.13).
//  * resForGamma, float: fl(fl(x - mean) * rstd), rstd = fl(1/fl(sqrt(fl(var + eps)))): relative
//    errors u (x - mean) + 2.5u (rstd) + u (product): |got - e| <= 5 * u * |e|.
//  * half outputs: the float result f obeys the float bound eps_f and the output is RNE_half(f),
//    so |got - e| <= eps_f + 1/2 * HalfSpacing(|e| + eps_f) (docs/math.md §6.4).
//  * LayerNormGradBeta, float: a sum of `rows` terms each rounded once (dy*res), in any order:
//    |got - e| <= (rows + 1) * u * sum|term|; half: the same eps_f, then the half rounding.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "doc_example.h"
#include "faithful_util.h"
#include "oracle.h"

namespace faithful {
namespace {

constexpr double kU = 0x1.0p-24;

int TreeDepth(const std::string& soc, uint32_t h) {
  if (IsArch3510(soc)) return static_cast<int>((h + 63) / 64) - 1 + 6;
  int levels = 1;
  for (uint64_t span = 64; span < h; span *= 64) ++levels;
  return 6 * levels;
}

// Largest err / bound over the elements, per output.
struct Worst {
  double pd_x = 0;
  double res = 0;
};

// Checks every element; returns how much of the bound the worst element used.
Worst CheckGrad(const GradCase& c, const GradResult& got, double eps) {
  const lngrad::oracle::GradOutputs o =
      lngrad::oracle::LayerNormGrad(c.rows, c.h, Values(c.dy), Values(c.x), Values(c.mean),
                                    Values(c.variance), Values(c.gamma), eps);
  const double k = 2.0 * TreeDepth(c.soc, c.h) + 24.0;
  const std::vector<double> pdx = Values(got.pd_x), res = Values(got.res_for_gamma);
  Worst worst;
  for (size_t i = 0; i < pdx.size(); ++i) {
    double bound_pdx = k * kU * o.pd_x_mag[i];
    double bound_res = 5.0 * kU * o.res_mag[i];
    if (c.half) {
      bound_pdx += 0.5 * lngrad::oracle::HalfSpacing(std::fabs(o.pd_x[i]) + bound_pdx);
      bound_res += 0.5 * lngrad::oracle::HalfSpacing(std::fabs(o.res_for_gamma[i]) + bound_res);
    }
    const double err_pdx = std::fabs(pdx[i] - o.pd_x[i]);
    const double err_res = std::fabs(res[i] - o.res_for_gamma[i]);
    EXPECT_LE(err_pdx, bound_pdx) << "outputPdX[" << i << "] = " << pdx[i] << ", oracle "
                                  << o.pd_x[i];
    EXPECT_LE(err_res, bound_res) << "resForGamma[" << i << "] = " << res[i] << ", oracle "
                                  << o.res_for_gamma[i];
    worst.pd_x = std::max(worst.pd_x, bound_pdx > 0 ? err_pdx / bound_pdx : 0.0);
    worst.res = std::max(worst.res, bound_res > 0 ? err_res / bound_res : 0.0);
  }
  return worst;
}

struct OracleShape {
  const char* name;
  uint32_t rows, h;
  TmpKind tmp;
};

class GradOracleTest : public ::testing::TestWithParam<std::tuple<std::string, bool>> {};

TEST_P(GradOracleTest, WithinTheDocumentedBounds) {
  const auto& [soc, half] = GetParam();
  const OracleShape shapes[] = {
      {"h64", 24, 64, TmpKind::kMin},
      {"h320", 6, 320, TmpKind::kRows},
      {"h1088", 2, 1088, TmpKind::kSingleChunk},
      {"h4160", 1, half ? 4224u : 4160u, TmpKind::kSingleChunk},
  };
  for (const OracleShape& s : shapes) {
    for (bool cancel : {false, true}) {
      SCOPED_TRACE(std::string(s.name) + (cancel ? " cancelling" : ""));
      GradCase c = NewCase<GradCase>(soc, half, false, s.rows, s.h);
      if (half && s.h == 320) c.h = 96;  // 9 half buffers of 16 rows of 320 do not fit 192 KiB
      c.epsilon_bits = EpsilonBits(half, 1e-5);
      FillGradInputs(c, 77 + s.h);
      if (cancel) {
        // dy constant along each row and gamma = 1: x1 is constant, so the exact pd_x is 0
        // (pd_x is orthogonal to constants) while every term is large.
        std::vector<double> dy = Values(c.dy);
        for (uint32_t r = 0; r < c.rows; ++r) {
          for (uint32_t col = 0; col < c.h; ++col) dy[r * c.h + col] = dy[r * c.h];
        }
        c.dy = MakeTensor(half, dy);
        c.gamma = MakeTensor(half, std::vector<double>(c.h, 1.0));
      }
      SetGradTiling(c, s.tmp);
      GradResult got;
      const lngrad::Status st = RunGrad(c, &got);
      ASSERT_TRUE(st.ok()) << st.ToString();
      const Worst w = CheckGrad(c, got, EpsilonValue(half, 1e-5));
      // How much of each bound the worst element used (in the test's XML output).
      RecordProperty(std::string(s.name) + (cancel ? "_cancel" : "") + "_pd_x_bound_used",
                     std::to_string(w.pd_x));
      RecordProperty(std::string(s.name) + (cancel ? "_cancel" : "") + "_res_bound_used",
                     std::to_string(w.res));
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllProducts, GradOracleTest,
                         ::testing::Combine(::testing::ValuesIn(kProducts), ::testing::Bool()));

class BetaOracleTest : public ::testing::TestWithParam<std::tuple<std::string, bool>> {};

TEST_P(BetaOracleTest, WithinTheSumBound) {
  const auto& [soc, half] = GetParam();
  for (TmpKind kind : {TmpKind::kMin, TmpKind::kRows, TmpKind::kMax}) {
    SCOPED_TRACE(TmpKindName(kind));
    BetaCase c = NewCase<BetaCase>(soc, half, false, 50, 64);
    c.dy = MakeTensor(half, Uniform(size_t{c.rows} * c.h, -3, 3, 31));
    c.res_for_gamma = MakeTensor(half, Uniform(size_t{c.rows} * c.h, -2, 2, 32));
    SetBetaTiling(c, kind);
    BetaResult got;
    ASSERT_TRUE(RunBeta(c, &got).ok());
    const lngrad::oracle::BetaOutputs o =
        lngrad::oracle::LayerNormGradBeta(c.rows, c.h, Values(c.dy), Values(c.res_for_gamma));
    const std::vector<double> g = Values(got.pd_gamma), b = Values(got.pd_beta);
    for (uint32_t col = 0; col < c.h; ++col) {
      double bound_g = (c.rows + 1) * kU * o.dgamma_mag[col];
      double bound_b = (c.rows + 1) * kU * o.dbeta_mag[col];
      if (half) {
        bound_g += 0.5 * lngrad::oracle::HalfSpacing(std::fabs(o.dgamma[col]) + bound_g);
        bound_b += 0.5 * lngrad::oracle::HalfSpacing(std::fabs(o.dbeta[col]) + bound_b);
      }
      EXPECT_LE(std::fabs(g[col] - o.dgamma[col]), bound_g) << "pd_gamma[" << col << "]";
      EXPECT_LE(std::fabs(b[col] - o.dbeta[col]), bound_b) << "pd_beta[" << col << "]";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllProducts, BetaOracleTest,
                         ::testing::Combine(::testing::ValuesIn(kProducts), ::testing::Bool()));

// data/layernormgrad_doc_example.txt: [1,8,8] float, epsilon 1e-4. The printed outputs are a
// float32 numpy golden (spec §1.14), so they are met by the official rule, not bitwise.
TEST(GradDocExampleTest, WithinTheOfficialRuleOnEveryProduct) {
  bool opened = false;
  const auto doc = lngrad::test::ReadDocExample("layernormgrad_doc_example.txt", &opened);
  ASSERT_TRUE(opened);
  ASSERT_EQ(doc.at("epsilon").at(0), 1e-4);
  for (const std::string& soc : kProducts) {
    for (bool reuse : {false, true}) {
      for (Proto proto : {Proto::kSharedTmpBuffer, Proto::kStack}) {
        SCOPED_TRACE(soc + (reuse ? " reuse" : "") +
                     (proto == Proto::kStack ? " PopStackBuffer" : ""));
        GradCase c = DocExampleCase<GradCase>(soc, reuse, proto);
        c.dy = MakeTensor(false, doc.at("inputDy"));
        c.x = MakeTensor(false, doc.at("inputX"));
        c.mean = MakeTensor(false, doc.at("inputMean"));
        c.variance = MakeTensor(false, doc.at("inputVariance"));
        c.gamma = MakeTensor(false, doc.at("inputGamma"));
        c.epsilon_bits = EpsilonBits(false, 1e-4);
        SetGradTiling(c, TmpKind::kMin);
        GradResult got;
        ASSERT_TRUE(RunGrad(c, &got).ok());
        const std::vector<double> pdx = Values(got.pd_x), res = Values(got.res_for_gamma);
        for (size_t i = 0; i < 64; ++i) {
          for (const auto& [name, value] :
               {std::pair{"outputPdX", pdx[i]}, std::pair{"resForGamma", res[i]}}) {
            const double want = doc.at(name).at(i);
            const double abs_err = std::fabs(value - want);
            const double rel_err = abs_err / std::fabs(want);
            EXPECT_TRUE(abs_err <= 1e-4 || rel_err <= 1e-4)
                << name << "[" << i << "] = " << value << ", documented " << want;
          }
        }
        // Also the bits of the replay (the example is a bitwise case too).
        const GradResult want = ReplayGrad(c);
        EXPECT_EQ(FirstDifference(got.pd_x, want.pd_x), -1);
        EXPECT_EQ(FirstDifference(got.res_for_gamma, want.res_for_gamma), -1);
        // The spec's worked numbers for this emulation (spec §1.14): 3.0548177 first, 3.0568695
        // last.
        EXPECT_FLOAT_EQ(static_cast<float>(pdx[0]), 3.0548177f);
        EXPECT_FLOAT_EQ(static_cast<float>(pdx[63]), 3.0568695f);
      }
    }
  }
}

}  // namespace
}  // namespace faithful
