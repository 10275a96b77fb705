// bfloat16 in the native API (issue 32): the conversions against a model by values (nearest
// bfloat16, ties to even: test::Bf16Round), and LayerNormGrad, LayerNormGradBeta,
// LayerNormBackward (bfloat16 and float statistics) as the float evaluation of the same values
// with each output rounded once, on every path and target, one and three threads. The float
// evaluation is held to the float64 oracle by the float tests; the forward's bfloat16 oracle
// test is in layer_norm_test.cpp (LayerNormForward.Bfloat16MatchesOracle).
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
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

float FloatOfBits(uint32_t b) {
  float f;
  std::memcpy(&f, &b, sizeof(f));
  return f;
}

TEST(BFloat16, RoundsToNearestEvenAsTheValueModel) {
  std::vector<float> in = {0.0f,
                           -0.0f,
                           1.0f,
                           3.0f,
                           1.00390625f,
                           1.01171875f,
                           65504.0f,
                           std::numeric_limits<float>::max(),
                           -std::numeric_limits<float>::max(),
                           std::numeric_limits<float>::denorm_min(),
                           std::numeric_limits<float>::min(),
                           0x1.fefp127f,
                           0x1.ff0p127f};
  std::mt19937 rng(32);
  for (int i = 0; i < 200000; ++i) {
    const uint32_t b = rng();
    if ((b & 0x7F800000u) == 0x7F800000u) continue;  // NaN and inf: checked below
    in.push_back(FloatOfBits(b));
    in.push_back(FloatOfBits((b & 0xFFFF0000u) | 0x8000u));  // ties
  }
  for (const float f : in) {
    const uint16_t got = FloatToBFloat16Bits(f);
    const double want = test::Bf16Round(f);
    const double got_v = BFloat16BitsToFloat(got);
    ASSERT_TRUE(got_v == want && std::signbit(got_v) == std::signbit(f))
        << f << " -> " << got_v << ", want " << want;
  }
  EXPECT_EQ(FloatToBFloat16Bits(1.00390625f), 0x3F80);  // 1 + 2^-8: tie, to the even 1.0
  EXPECT_EQ(FloatToBFloat16Bits(1.01171875f), 0x3F82);  // 1 + 3 * 2^-8: tie, to the even 0x3F82
  EXPECT_EQ(FloatToBFloat16Bits(std::numeric_limits<float>::infinity()), 0x7F80);
  const uint16_t nan = FloatToBFloat16Bits(FloatOfBits(0x7F800001u));
  EXPECT_TRUE(std::isnan(BFloat16BitsToFloat(nan)));  // a signalling payload stays NaN
  for (uint32_t b = 0; b < 65536; ++b) {              // widening puts the bits on top, exactly
    uint32_t w;
    const float f = BFloat16BitsToFloat(static_cast<uint16_t>(b));
    std::memcpy(&w, &f, sizeof(w));
    ASSERT_EQ(w, b << 16);
  }
}

struct Outputs {
  std::vector<uint16_t> pd_x, res, dgamma_g, dbeta_g, dx, dgamma, dbeta, dx_f, dgamma_f, dbeta_f;
};

std::vector<uint16_t> BitsOf(const std::vector<BFloat16>& v) {
  std::vector<uint16_t> b(v.size());
  for (size_t i = 0; i < v.size(); ++i) b[i] = v[i].bits;
  return b;
}

std::vector<uint16_t> Rounded(const std::vector<float>& v) {
  std::vector<uint16_t> b(v.size());
  for (size_t i = 0; i < v.size(); ++i) b[i] = FloatToBFloat16Bits(v[i]);
  return b;
}

// The functions on data of type T (BFloat16, or float holding the same values); a Rounding
// turns the outputs into bfloat16 bits (the identity's bits for BFloat16, one rounding for
// float).
template <class T, class Round>
Outputs RunAll(const test::GradData<BFloat16>& d, const Options& o, Round round) {
  auto as = [](const std::vector<BFloat16>& v) {
    std::vector<T> out(v.size());
    for (size_t i = 0; i < v.size(); ++i) {
      if constexpr (std::is_same_v<T, float>) {
        out[i] = BFloat16BitsToFloat(v[i].bits);
      } else {
        out[i] = v[i];
      }
    }
    return out;
  };
  const auto dy = as(d.dy), x = as(d.x), mean = as(d.mean), var = as(d.variance),
             gamma = as(d.gamma);
  std::vector<float> mean_f(d.mean.size()), var_f(d.mean.size());
  for (size_t i = 0; i < mean_f.size(); ++i) {
    mean_f[i] = BFloat16BitsToFloat(d.mean[i].bits) + 0.0078125f;  // float statistics
    var_f[i] = BFloat16BitsToFloat(d.variance[i].bits) * 1.0009765625f;
  }
  const auto n = static_cast<size_t>(d.c.rows * d.c.h), h = static_cast<size_t>(d.c.h);
  const RowShape shape{d.c.rows, d.c.h};
  const float eps = d.c.epsilon;
  std::vector<T> pd_x(n), res(n), g(h), b(h), dx(n), dg(h), db(h), dx_f(n), dg_f(h), db_f(h);
  EXPECT_TRUE(LayerNormGrad(shape, dy.data(), x.data(), mean.data(), var.data(), gamma.data(), eps,
                            pd_x.data(), res.data(), o)
                  .ok());
  EXPECT_TRUE(LayerNormGradBeta(shape, dy.data(), res.data(), g.data(), b.data(), o).ok());
  EXPECT_TRUE(LayerNormBackward(shape, dy.data(), x.data(), mean.data(), var.data(), gamma.data(),
                                eps, dx.data(), dg.data(), db.data(), o)
                  .ok());
  if constexpr (std::is_same_v<T, float>) {
    EXPECT_TRUE(LayerNormBackward(shape, dy.data(), x.data(), mean_f.data(), var_f.data(),
                                  gamma.data(), eps, dx_f.data(), dg_f.data(), db_f.data(), o)
                    .ok());
  } else {
    EXPECT_TRUE(LayerNormBackwardFloatStats(shape, dy.data(), x.data(), mean_f.data(), var_f.data(),
                                            gamma.data(), eps, dx_f.data(), dg_f.data(),
                                            db_f.data(), o)
                    .ok());
  }
  return {round(pd_x), round(res), round(g),    round(b),    round(dx),
          round(dg),   round(db),  round(dx_f), round(dg_f), round(db_f)};
}

void ExpectEqual(const Outputs& a, const Outputs& b, const std::string& what) {
  EXPECT_EQ(a.pd_x, b.pd_x) << what << " LayerNormGrad pd_x";
  EXPECT_EQ(a.res, b.res) << what << " LayerNormGrad res_for_gamma";
  EXPECT_EQ(a.dx, b.dx) << what << " LayerNormBackward dx";
  EXPECT_EQ(a.dgamma, b.dgamma) << what << " LayerNormBackward dgamma";
  EXPECT_EQ(a.dbeta, b.dbeta) << what << " LayerNormBackward dbeta";
  EXPECT_EQ(a.dx_f, b.dx_f) << what << " LayerNormBackwardFloatStats dx";
  EXPECT_EQ(a.dgamma_f, b.dgamma_f) << what << " LayerNormBackwardFloatStats dgamma";
  EXPECT_EQ(a.dbeta_f, b.dbeta_f) << what << " LayerNormBackwardFloatStats dbeta";
}

TEST(BFloat16Kernels, AreTheFloatEvaluationRoundedOnce) {
  const std::vector<GradCase> cases = {{7, 5, Kind::kOffsetMean, 1},
                                       {9, 17, Kind::kCancel, 2},
                                       {33, 64, Kind::kPlain, 3},
                                       {40, 768, Kind::kPlain, 6},
                                       {3, 4097, Kind::kOffsetMean, 7}};
  for (const GradCase& c : cases) {
    const auto d = test::MakeGradData<BFloat16>(c);
    for (const Path& p : test::AllPaths()) {
      test::TargetScope scope(p);
      for (int threads : {1, 3}) {
        Options o = test::PathOptions(p, nullptr);
        o.num_threads = threads;
        const Outputs bf = RunAll<BFloat16>(d, o, BitsOf);
        const Outputs fl = RunAll<float>(d, o, Rounded);
        const std::string what =
            p.name + " " + test::Describe(c) + " threads " + std::to_string(threads);
        ExpectEqual(bf, fl, what);
        // LayerNormGradBeta over the rounded res_for_gamma: the float sums of the same
        // values, rounded once.
        EXPECT_EQ(bf.dbeta_g, fl.dbeta_g) << what << " LayerNormGradBeta dbeta";
      }
    }
  }
}

// The kernels' vector bfloat16 stores (issue 32: two vectors packed at once, as GradRows stores
// its column groups; single vectors; partial vectors) against the scalar conversion above, which
// the value model checks, on every target: random bit patterns and what a rounding can miss
// (ties to either side, the carry into the exponent, overflow to infinity, subnormals,
// infinities, quiet and signalling NaNs of both signs).
TEST(BFloat16Kernels, VectorStoresRoundAsTheScalarConversion) {
  std::vector<uint32_t> bits = {0x00000000u, 0x80000000u, 0x00000001u, 0x00008000u, 0x00018000u,
                                0x007FFFFFu, 0x00800000u, 0x3F808000u, 0x3F818000u, 0x3F807FFFu,
                                0x3F808001u, 0x3FFF8000u, 0x7F7F8000u, 0x7F7F7FFFu, 0x7F7FFFFFu,
                                0xFF7FFFFFu, 0x7F800000u, 0xFF800000u, 0x7F800001u, 0xFF800001u,
                                0x7FC00000u, 0xFFC00000u, 0x7FFFFFFFu, 0xFFFFFFFFu, 0x7FBF8000u};
  std::mt19937 rng(32);
  for (int i = 0; i < 1 << 16; ++i) {
    const uint32_t r = static_cast<uint32_t>(rng());
    bits.push_back(r);
    bits.push_back((r & 0xFFFF0000u) | 0x8000u);  // a tie
  }
  std::vector<float> in(bits.size());
  std::memcpy(in.data(), bits.data(), bits.size() * sizeof(float));
  for (const Path& p : test::AllPaths()) {
    test::TargetScope scope(p);
    int64_t target = 0;
    const core::KernelTable& table =
        p.impl == Impl::kSimd ? core::SimdKernels(&target) : core::ScalarKernels();
    for (size_t len : {in.size(), in.size() - 13}) {  // the second ends in single vectors
      std::vector<BFloat16> out(len);
      table.round_bf16(in.data(), len, out.data());
      for (size_t i = 0; i < len; ++i) {
        ASSERT_EQ(out[i].bits, FloatToBFloat16Bits(in[i]))
            << p.name << " element " << i << " of " << len << ", float bits 0x" << std::hex
            << bits[i];
      }
    }
  }
}

}  // namespace
}  // namespace lngrad
