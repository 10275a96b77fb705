// LayerNormGrad in lngrad_adv: the documentation example, SIMD vs scalar bit equality,
// chunking independence, the memory effects the device has (isReuseSource, scratch), the
// register path, capacity checks, and accuracy against a float64 evaluation of spec §1.4.
#include <gtest/gtest.h>
#include <hwy/targets.h>

#include <cmath>
#include <limits>
#include <set>
#include <cstdio>
#include <string>
#include <vector>

#include "adv_test_util.h"

namespace lngrad::adv {
namespace {

using testing::FirstBitDifference;
using testing::MakeGradTiling;

// Owns every buffer of one call. Scratch gets `scratch_floats` floats, filled with a pattern so
// that reads of never-written scratch would show up as differences.
template <typename T>
struct GradCase {
  uint32_t b, s, h;
  std::vector<T> dy, x, var, mean, gamma, pd_x, res;
  std::vector<float> scratch;

  GradCase(uint32_t b_, uint32_t s_, uint32_t h_, uint32_t seed, size_t scratch_floats)
      : b(b_), s(s_), h(h_) {
    const size_t rows = size_t{b} * s;
    const auto xf = testing::Uniform(rows * h, -100.0f, 100.0f, seed);
    const auto dyf = testing::Uniform(rows * h, -100.0f, 100.0f, seed + 1);
    const auto gf = testing::Uniform(h, -100.0f, 100.0f, seed + 2);
    std::vector<float> mf, vf;
    testing::RowStats(xf, rows, h, &mf, &vf);
    x = testing::AsType<T>(xf);
    dy = testing::AsType<T>(dyf);
    gamma = testing::AsType<T>(gf);
    mean = testing::AsType<T>(mf);
    var = testing::AsType<T>(vf);
    pd_x.assign(rows * h, T{});
    res.assign(rows * h, T{});
    scratch.assign(scratch_floats, 0.0f);
    for (size_t i = 0; i < scratch.size(); ++i) scratch[i] = static_cast<float>(i % 97) - 48.5f;
  }
  LayerNormGradOperands<T> Operands() {
    using testing::Whole, testing::WholeIn;
    return {.outputPdX = Whole(pd_x),
            .resForGamma = Whole(res),
            .inputDy = Whole(dy),
            .inputX = Whole(x),
            .inputVariance = WholeIn(var),
            .inputMean = WholeIn(mean),
            .inputGamma = WholeIn(gamma),
            .scratch = Whole(scratch)};
  }
};

template <typename T>
float F(T v) {
  if constexpr (std::is_same_v<T, float>) {
    return v;
  } else {
    return v.ToFloat();
  }
}

// float64 evaluation of spec §1.4 from the (already rounded) inputs; N = n.
struct Oracle {
  std::vector<double> pd_x, res;
};
template <typename T>
Oracle Evaluate(const GradCase<T>& c, double eps, double n) {
  const size_t rows = size_t{c.b} * c.s;
  Oracle o;
  o.pd_x.resize(rows * c.h);
  o.res.resize(rows * c.h);
  for (size_t r = 0; r < rows; ++r) {
    const double v = F(c.var[r]) + eps;
    double pv = 0, s1 = 0, s2 = 0;
    for (size_t k = 0; k < c.h; ++k) {
      const double x1 = double{F(c.dy[r * c.h + k])} * F(c.gamma[k]);
      const double x2 = double{F(c.x[r * c.h + k])} - F(c.mean[r]);
      pv += -0.5 * x1 * x2 * std::pow(v, -1.5);
      s1 += -x1 * std::pow(v, -0.5);
      s2 += -2.0 * x2;
    }
    const double pm = s1 + pv / n * s2;
    for (size_t k = 0; k < c.h; ++k) {
      const double x1 = double{F(c.dy[r * c.h + k])} * F(c.gamma[k]);
      const double x2 = double{F(c.x[r * c.h + k])} - F(c.mean[r]);
      o.pd_x[r * c.h + k] = x1 * std::pow(v, -0.5) + pv * 2.0 / n * x2 + pm / n;
      o.res[r * c.h + k] = x2 * std::pow(v, -0.5);
    }
  }
  return o;
}

// Official sample rule (spec §5.5): an element fails only if both errors exceed tol.
int CountFailures(const std::vector<float>& got, const std::vector<double>& want, double tol) {
  int fails = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    const double abs_err = std::fabs(got[i] - want[i]);
    const double rel_err = want[i] != 0 ? abs_err / std::fabs(want[i]) : abs_err;
    if (abs_err > tol && rel_err > tol) ++fails;
  }
  return fails;
}

template <typename T>
std::vector<float> AsFloat(const std::vector<T>& v) {
  std::vector<float> f(v.size());
  for (size_t i = 0; i < v.size(); ++i) f[i] = F(v[i]);
  return f;
}

// ---------------------------------------------------------------------------------------------

TEST(LayerNormGradTiling, HelperReproducesTheSpecWorkedExamples) {
  // E1 and E2 of spec §2.7 pin the test's own tiling helper before the tests rely on it.
  const auto e1 = MakeGradTiling(2, 32, 16, 16, 6144, 4, false);
  EXPECT_EQ(e1.oneCalSize, 256u);
  EXPECT_EQ(e1.nohCalSize, 16u);
  EXPECT_EQ(e1.loopNum, 4u);
  EXPECT_EQ(e1.x3TensorPos, 1280u);
  EXPECT_EQ(e1.lastDimValueBack, 0x3D800000u);
  const auto e2 = MakeGradTiling(1, 8, 8, 8, 1536, 4, false);
  EXPECT_EQ(e2.oneCalSize, 64u);
  EXPECT_EQ(e2.pdMeanTensorPos, 128u);
  EXPECT_EQ(e2.lastDimValueBackMulTwo, 0x3E800000u);
  const auto e3 = MakeGradTiling(4, 16, 64, 64, 73728, 2, false);
  EXPECT_EQ(e3.oneCalSize, 2048u);
  EXPECT_EQ(e3.tmpTensor2Pos, 16384u);
}

struct DocExample {
  std::vector<float> dy, x, mean, var, gamma, pd_x, res;
  float eps;
};
DocExample LoadDoc() {
  auto m = testing::LoadExample("layernormgrad_doc_example.txt");
  return DocExample{m["inputDy"],    m["inputX"],    m["inputMean"],   m["inputVariance"],
                    m["inputGamma"], m["outputPdX"], m["resForGamma"], m["epsilon"].at(0)};
}

std::string Print8(float f) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.8g", static_cast<double>(f));
  return buf;
}

TEST(LayerNormGrad, DocumentationExampleWithinTheOfficialRule) {
  const DocExample d = LoadDoc();
  ASSERT_EQ(d.dy.size(), 64u);
  for (Algorithm algo : {Algorithm::kVector, Algorithm::kRegBase}) {
    for (Impl impl : {Impl::kScalar, Impl::kSimd}) {
      const auto t = MakeGradTiling(1, 8, 8, 8, 1536, 4, false);
      std::vector<float> dy = d.dy, x = d.x, pd_x(64), res(64), scratch(384);
      LayerNormGradOperands<float> o;
      o.outputPdX = {pd_x.data(), 64};
      o.resForGamma = {res.data(), 64};
      o.inputDy = {dy.data(), 64};
      o.inputX = {x.data(), 64};
      o.inputVariance = {d.var.data(), 8};
      o.inputMean = {d.mean.data(), 8};
      o.inputGamma = {d.gamma.data(), 8};
      o.scratch = {scratch.data(), scratch.size()};
      ASSERT_TRUE(LayerNormGrad(algo, t, o, d.eps, false, impl).ok());
      int fails = 0;
      for (size_t i = 0; i < 64; ++i) {
        for (auto [got, want] : {std::pair{pd_x[i], d.pd_x[i]}, std::pair{res[i], d.res[i]}}) {
          const double abs_err = std::fabs(double{got} - want);
          if (abs_err > 1e-4 && abs_err / std::fabs(double{want}) > 1e-4) ++fails;
        }
      }
      EXPECT_EQ(fails, 0);
      // Spec §1.14: the §1.7/§1.8 order with IEEE 1/sqrt gives these (printed to 8 digits).
      EXPECT_EQ(Print8(pd_x[0]), "3.0548177");
      EXPECT_EQ(Print8(pd_x[63]), "3.0568695");
    }
  }
}

TEST(LayerNormGrad, SampleSettingPassesAgainstFloat64) {
  // The official sample: [2,32,16] float, uniform [-100,100], eps 1e-4, tmp = min. Tolerance:
  // the official rule with 1e-4 (spec §5.5); pd_x sums three terms of size up to ~1e2 and the
  // float path rounds each of ~10 steps, so its error stays near 1e-5 relative to the terms.
  uint32_t max_b, min_b;
  testing::GradMaxMin(2, 32, 16, 4, false, &max_b, &min_b);
  const auto t = MakeGradTiling(2, 32, 16, 16, min_b, 4, false);
  GradCase<float> c(2, 32, 16, 7, min_b / 4);
  const Oracle o = Evaluate(c, 1e-4, 16);
  ASSERT_TRUE(LayerNormGrad(Algorithm::kVector, t, c.Operands(), 1e-4f, false).ok());
  EXPECT_EQ(CountFailures(c.pd_x, o.pd_x, 1e-4), 0);
  EXPECT_EQ(CountFailures(c.res, o.res, 1e-4), 0);
}

// Every element of two buffers: same bits, except that two NaNs need not share a payload
// (lngrad_adv/normalization.h: the compiler may commute operands); NaN-ness itself must match.
// Half buffers follow the same rule: a float NaN's payload (and sign: x86's generated NaN is
// negative) reaches the half NaN through the cast, so two half NaNs may differ in those bits.
template <typename T>
long FirstDifferenceOrNaNMismatch(const std::vector<T>& a, const std::vector<T>& b) {
  for (size_t k = 0; k < a.size(); ++k) {
    const bool nan_a = std::isnan(F(a[k]));
    if (nan_a != std::isnan(F(b[k]))) return static_cast<long>(k);
    if (!nan_a && FirstBitDifference(&a[k], &b[k], 1) >= 0) return static_cast<long>(k);
  }
  return -1;
}

// v[i] = f as T, when i is inside v (the special-value injections below skip what a small
// case lacks).
template <typename T>
void SetIfInside(std::vector<T>& v, size_t i, float f) {
  if (i >= v.size()) return;
  if constexpr (std::is_same_v<T, float>) {
    v[i] = f;
  } else {
    v[i] = Half(f);
  }
}

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

// Special values in a few rows (and gamma): NaN, +-Inf, -0, float and half subnormals, values
// that overflow half, variance 0 and -eps (1/sqrt(0) = Inf), mean = -Inf.
template <typename T>
void InjectSpecials(GradCase<T>* c) {
  const size_t rows = size_t{c->b} * c->s;
  const size_t h = c->h;
  SetIfInside(c->dy, 0 * h + 1, kNaN);
  SetIfInside(c->x, 1 * h + 2, kInf);
  SetIfInside(c->x, 1 * h + 3, -0.0f);
  SetIfInside(c->dy, 2 * h + 0, 1e-40f);
  SetIfInside(c->dy, 2 * h + 5, 6.0e-8f);
  SetIfInside(c->x, 2 * h + 7, -7e4f);
  SetIfInside(c->dy, 3 * h + 4, 7e4f);
  SetIfInside(c->var, 3, 0.0f);
  SetIfInside(c->var, 4, kInf);
  SetIfInside(c->mean, 5, -kInf);
  if (rows > 6) {
    for (size_t k = 0; k < h; ++k) SetIfInside(c->x, 6 * h + k, F(c->mean[6]));  // x - mean = 0
  }
  SetIfInside(c->gamma, h - 1, -0.0f);
}

// Special values spread over the whole row (InjectSpecials keeps to its first columns): in
// later 64-lane repeats, in the tail repeat, at the last column, a row of -0 products (signed
// zeros through the trees and the +0 masked lanes) and float subnormals. Rows 7..9 if present.
template <typename T>
void InjectSpreadSpecials(GradCase<T>* c) {
  const size_t rows = size_t{c->b} * c->s;
  const size_t h = c->h;
  SetIfInside(c->dy, 0 * h + h - 1, -kInf);
  SetIfInside(c->x, 1 * h + h - 2, kNaN);
  SetIfInside(c->dy, 2 * h + 64 * (h / 128) + 3, kInf);
  SetIfInside(c->x, 4 * h + h / 2, -0.0f);
  if (rows > 7) {
    for (size_t k = 0; k < h; ++k) SetIfInside(c->dy, 7 * h + k, -0.0f);
  }
  if (rows > 8) {
    for (size_t k = h / 3; k < h; k += 7) SetIfInside(c->dy, 8 * h + k, 1e-41f);
    for (size_t k = h / 2; k < h; k += 5) SetIfInside(c->x, 8 * h + k, F(c->mean[8]) + 3e-39f);
  }
  if (rows > 9) SetIfInside(c->var, 9, -1e-5f);  // variance + eps = 0: rstd = +Inf
  SetIfInside(c->dy, 3 * h + h - 5, kNaN);
  // Row 6 has x - mean = +0 (InjectSpecials); dy = gamma makes dy * gamma >= 0, so every
  // ComputePdVar product is -0: -0 sums for the full repeats, +0 where masked lanes enter.
  if (rows > 6) {
    for (size_t k = 0; k < h; ++k) c->dy[6 * h + k] = c->gamma[k];
  }
}

// Runs one configuration with the scalar steps, the SIMD steps and the SIMD default (row
// fusion where it applies) and compares every element the call can write: outputs, scratch,
// and the inputs (clobbered under reuse).
template <typename T>
void ExpectSimdEqualsScalar(Algorithm algo, uint32_t b, uint32_t s, uint32_t h, bool reuse,
                            uint32_t stack_bytes, bool specials = false,
                            bool spread_specials = false) {
  SCOPED_TRACE(::testing::Message()
               << "algo " << static_cast<int>(algo) << " [" << b << "," << s << "," << h
               << "] reuse " << reuse << " stack " << stack_bytes << " half " << (sizeof(T) == 2)
               << " specials " << specials << " spread " << spread_specials);
  constexpr uint32_t kTypeSize = sizeof(T);
  const auto t = MakeGradTiling(b, s, h, h, stack_bytes, kTypeSize, reuse);
  LayerNormGradFootprint f;
  ASSERT_TRUE(LayerNormGradFootprintFor(algo, t, kTypeSize == 2, reuse, &f).ok());
  const size_t scratch = std::max<uint64_t>(f.scratch, 1);
  const T eps = [] {
    if constexpr (std::is_same_v<T, float>)
      return 1e-5f;
    else
      return Half(1e-5f);
  }();
  std::vector<GradCase<T>> runs;
  for (Impl impl : {Impl::kScalar, Impl::kSimdSteps, Impl::kSimd}) {
    runs.emplace_back(b, s, h, 11, scratch);
    if (specials) InjectSpecials(&runs.back());
    if (spread_specials) InjectSpreadSpecials(&runs.back());
    ASSERT_TRUE(LayerNormGrad(algo, t, runs.back().Operands(), eps, reuse, impl).ok());
  }
  for (size_t k = 1; k < runs.size(); ++k) {
    SCOPED_TRACE(k == 1 ? "simd steps vs scalar" : "simd (fused) vs scalar");
    const GradCase<T>& a = runs[0];
    const GradCase<T>& v = runs[k];
    EXPECT_EQ(FirstDifferenceOrNaNMismatch(a.pd_x, v.pd_x), -1);
    EXPECT_EQ(FirstDifferenceOrNaNMismatch(a.res, v.res), -1);
    EXPECT_EQ(FirstDifferenceOrNaNMismatch(a.dy, v.dy), -1);
    EXPECT_EQ(FirstDifferenceOrNaNMismatch(a.x, v.x), -1);
    EXPECT_EQ(FirstDifferenceOrNaNMismatch(a.scratch, v.scratch), -1);
  }
}

TEST(LayerNormGrad, SimdEqualsScalarBitwise) {
  struct Shape {
    uint32_t b, s, h;
  };
  // H <= 64, 64 < H <= 4096 with and without a partial repeat, H > 4096; loop + tail chunks;
  // H below and above the row-fusion threshold; special values.
  const Shape shapes[] = {{1, 8, 8},   {2, 32, 16},  {1, 3, 16},   {2, 5, 72},
                          {1, 4, 144}, {1, 2, 4160}, {3, 7, 64},   {1, 9, 768},
                          {2, 3, 24},  {1, 3, 4104}, {1, 10, 320}, {1, 3, 1088}};
  for (const Shape& sh : shapes) {
    uint32_t max_b, min_b;
    for (Algorithm algo : {Algorithm::kVector, Algorithm::kRegBase}) {
      for (bool specials : {false, true}) {
        if (specials && sh.b * sh.s < 7) continue;
        for (bool reuse : {false, true}) {
          testing::GradMaxMin(sh.b, sh.s, sh.h, 4, reuse, &max_b, &min_b);
          ExpectSimdEqualsScalar<float>(algo, sh.b, sh.s, sh.h, reuse, min_b, specials);
        }
        if (sh.h % 16 == 0) {
          testing::GradMaxMin(sh.b, sh.s, sh.h, 2, false, &max_b, &min_b);
          ExpectSimdEqualsScalar<Half>(algo, sh.b, sh.s, sh.h, false, std::max(min_b, 9 * 4 * sh.h),
                                       specials);
        }
      }
    }
  }
}

struct RowShape {
  uint32_t rows, h;
};

// ExpectSimdEqualsScalar on one shape over the sizes of sharedTmpBuffer the fused-rows tests
// use: the API's minimum, its maximum if `with_max`, and three rows per buffer; float with and
// without reuse, half where h is a multiple of 16.
void ExpectFusionOnShape(RowShape sh, bool specials, bool with_max, bool spread_specials) {
  uint32_t max_b, min_b;
  for (bool reuse : {false, true}) {
    testing::GradMaxMin(1, sh.rows, sh.h, 4, reuse, &max_b, &min_b);
    const uint32_t n = reuse ? 4 : 6;
    // The max size (H*H per buffer for wide rows) is large: only for the narrow shapes.
    std::vector<uint32_t> sizes = {min_b};
    if (with_max) sizes.push_back(sh.h <= 320 ? max_b : min_b);
    sizes.push_back(n * 4 * 3 * sh.h);
    for (uint32_t bytes : sizes) {
      ExpectSimdEqualsScalar<float>(Algorithm::kVector, 1, sh.rows, sh.h, reuse, bytes, specials,
                                    spread_specials);
    }
  }
  if (sh.h % 16 == 0) {
    testing::GradMaxMin(1, sh.rows, sh.h, 2, false, &max_b, &min_b);
    // The API's minimum counts 2-byte elements for float buffers: at least one float row.
    const uint32_t least = std::max(min_b, 9 * 4 * sh.h);
    std::vector<uint32_t> sizes = {least};
    if (with_max) sizes.push_back(sh.h <= 320 ? max_b : least);
    sizes.push_back(9 * 4 * 3 * sh.h);
    for (uint32_t bytes : sizes) {
      ExpectSimdEqualsScalar<Half>(Algorithm::kVector, 1, sh.rows, sh.h, false, bytes, specials,
                                   spread_specials);
    }
  }
}

// The shapes and tmp sizes of tests/faithful (min, max, a row loop with a tail, one chunk), and
// special values: the fused rows must leave every buffer as the steps do.
TEST(LayerNormGrad, RowFusionLeavesTheStepsMemory) {
  const RowShape shapes[] = {{26, 16},  {19, 40},  {21, 48},  {10, 320}, {20, 96},
                             {20, 128}, {3, 1088}, {1, 4160}, {1, 4224}, {9, 200}};
  for (const RowShape& sh : shapes) {
    for (bool specials : {false, true}) ExpectFusionOnShape(sh, specials, true, false);
  }
}

// The fused rows reduce the product rows in registers (docs/math.md §8): whole groups of
// lane-count repeats, single repeats, and the tail repeat with masked lanes, on every SIMD
// target this CPU runs (each target has its own vector width, so its own tree grouping).
TEST(LayerNormGrad, RowFusionRegisterTreesLeaveTheStepsMemory) {
  // 128/192: fewer repeats than lanes; 200/4104/1000: tails of 8/8/40 lanes; 4096: exactly 64
  // first-pass sums (the second pass is the final tree); 4160/8192: more than 64 (a third pass).
  const RowShape shapes[] = {{10, 128}, {10, 192}, {10, 200}, {10, 1000},
                             {9, 4096}, {9, 4104}, {8, 4160}, {8, 8192}};
  std::vector<int64_t> targets = hwy::SupportedAndGeneratedTargets();
  std::set<std::string> names;  // each target really dispatched
  for (int64_t target : targets) {
    hwy::SetSupportedTargetsForTest(target);
    names.insert(SimdTargetName());
    SCOPED_TRACE(::testing::Message() << "target " << SimdTargetName());
    for (const RowShape& sh : shapes) {
      for (bool specials : {false, true}) ExpectFusionOnShape(sh, specials, false, specials);
    }
  }
  hwy::SetSupportedTargetsForTest(0);
  EXPECT_GE(targets.size(), 1u);
  EXPECT_EQ(names.size(), targets.size());
}

TEST(LayerNormGrad, RowFusionStepsAsideWhenScratchTensorsOverlap) {
  // A tiling whose x3 tensor starts inside pd_mean: the device's steps define what happens
  // there (the later steps overwrite the earlier ones' values), and the fused path must not
  // run. Compare the default path with the scalar steps on every buffer.
  const uint32_t rows = 8, h = 256;
  auto t = MakeGradTiling(1, rows, h, h, 6 * 4 * rows * h, 4, false);
  t.x3TensorPos = t.pdMeanTensorPos + 5 * h + 3;
  LayerNormGradFootprint f;
  ASSERT_TRUE(LayerNormGradFootprintFor(Algorithm::kVector, t, false, false, &f).ok());
  GradCase<float> a(1, rows, h, 3, f.scratch), v(1, rows, h, 3, f.scratch);
  ASSERT_TRUE(LayerNormGrad(Algorithm::kVector, t, a.Operands(), 1e-5f, false, Impl::kScalar).ok());
  ASSERT_TRUE(LayerNormGrad(Algorithm::kVector, t, v.Operands(), 1e-5f, false, Impl::kSimd).ok());
  EXPECT_EQ(FirstDifferenceOrNaNMismatch(a.pd_x, v.pd_x), -1);
  EXPECT_EQ(FirstDifferenceOrNaNMismatch(a.res, v.res), -1);
  EXPECT_EQ(FirstDifferenceOrNaNMismatch(a.scratch, v.scratch), -1);
  // And the overlap matters: without it the results differ (so the check above can fail).
  auto t2 = MakeGradTiling(1, rows, h, h, 6 * 4 * rows * h, 4, false);
  LayerNormGradFootprint f2;
  ASSERT_TRUE(LayerNormGradFootprintFor(Algorithm::kVector, t2, false, false, &f2).ok());
  GradCase<float> c(1, rows, h, 3, f2.scratch);
  ASSERT_TRUE(LayerNormGrad(Algorithm::kVector, t2, c.Operands(), 1e-5f, false, Impl::kSimd).ok());
  EXPECT_NE(FirstDifferenceOrNaNMismatch(a.pd_x, c.pd_x), -1);
}

// Rows are independent, so the chunking (tmp = min, max, or a chunk plus a partial tail) must
// not change a single output bit.
template <typename T>
void ExpectChunkingIndependent(uint32_t b, uint32_t s, uint32_t h) {
  constexpr uint32_t kTypeSize = sizeof(T);
  uint32_t max_b, min_b;
  testing::GradMaxMin(b, s, h, kTypeSize, false, &max_b, &min_b);
  const uint32_t n = kTypeSize == 2 ? 9 : 6;
  // 3 rows' worth per chunk (rounded up to a block by §2.5) leaves a tail for these shapes.
  const uint32_t odd_bytes = n * 4 * 3 * h;
  std::vector<std::vector<float>> results;
  for (uint32_t bytes : {min_b, max_b, odd_bytes}) {
    const auto t = MakeGradTiling(b, s, h, h, bytes, kTypeSize, false);
    LayerNormGradFootprint f;
    ASSERT_TRUE(LayerNormGradFootprintFor(Algorithm::kVector, t, kTypeSize == 2, false, &f).ok());
    GradCase<T> c(b, s, h, 5, f.scratch);
    const T eps = [] {
      if constexpr (std::is_same_v<T, float>)
        return 1e-4f;
      else
        return Half(1e-4f);
    }();
    ASSERT_TRUE(LayerNormGrad(Algorithm::kVector, t, c.Operands(), eps, false).ok());
    auto out = AsFloat(c.pd_x);
    auto r = AsFloat(c.res);
    out.insert(out.end(), r.begin(), r.end());
    results.push_back(out);
  }
  EXPECT_EQ(FirstBitDifference(results[0].data(), results[1].data(), results[0].size()), -1);
  EXPECT_EQ(FirstBitDifference(results[0].data(), results[2].data(), results[0].size()), -1);
}

TEST(LayerNormGrad, ChunkingDoesNotChangeTheBits) {
  ExpectChunkingIndependent<float>(2, 37, 24);
  ExpectChunkingIndependent<Half>(3, 19, 32);
  ExpectChunkingIndependent<float>(1, 40, 200);
}

TEST(LayerNormGrad, ReuseSourceClobbersTheInputsAsTheDeviceDoes) {
  // Float, vector path (spec §1.9): inputX chunk := x - mean; inputDy chunk := the value
  // before adding x3, i.e. outputPdX = inputDy_after + x3, with x3 = (dy*gamma) * rstd kept in
  // scratch at x3TensorPos. The outputs equal the non-reuse outputs bit for bit.
  const uint32_t b = 2, s = 9, h = 40;
  uint32_t max_b, min_b;
  testing::GradMaxMin(b, s, h, 4, true, &max_b, &min_b);
  const auto t_reuse = MakeGradTiling(b, s, h, h, min_b, 4, true);
  const auto t_plain = MakeGradTiling(b, s, h, h, min_b * 6 / 4, 4, false);
  ASSERT_EQ(t_reuse.oneCalSize, t_plain.oneCalSize);  // same chunks: one row set per chunk
  LayerNormGradFootprint fr, fp;
  ASSERT_TRUE(LayerNormGradFootprintFor(Algorithm::kVector, t_reuse, false, true, &fr).ok());
  ASSERT_TRUE(LayerNormGradFootprintFor(Algorithm::kVector, t_plain, false, false, &fp).ok());
  GradCase<float> r(b, s, h, 3, fr.scratch), p(b, s, h, 3, fp.scratch);
  const std::vector<float> dy0 = r.dy, x0 = r.x;
  const float eps = 1e-4f;
  ASSERT_TRUE(LayerNormGrad(Algorithm::kVector, t_reuse, r.Operands(), eps, true).ok());
  ASSERT_TRUE(LayerNormGrad(Algorithm::kVector, t_plain, p.Operands(), eps, false).ok());
  EXPECT_EQ(FirstBitDifference(r.pd_x.data(), p.pd_x.data(), r.pd_x.size()), -1);
  EXPECT_EQ(FirstBitDifference(r.res.data(), p.res.data(), r.res.size()), -1);
  EXPECT_EQ(p.dy, dy0);  // without reuse the inputs are untouched
  EXPECT_EQ(p.x, x0);
  // The last chunk's x3 stays in scratch; check the clobbered inputs there.
  const uint64_t rows = uint64_t{b} * s;
  const uint64_t last_rows = t_reuse.tailSize ? t_reuse.nohTailSize : t_reuse.nohCalSize;
  const uint64_t first_row = rows - last_rows;
  for (uint64_t row = 0; row < rows; ++row) {
    const float rstd = 1.0f / std::sqrt(r.var[row] + eps);
    for (uint64_t k = 0; k < h; ++k) {
      const uint64_t i = row * h + k;
      ASSERT_TRUE(testing::SameBits(r.x[i], x0[i] - r.mean[row])) << i;
      if (row >= first_row) {
        const float x3 = (dy0[i] * r.gamma[k]) * rstd;
        const float stored = r.scratch[t_reuse.x3TensorPos + (row - first_row) * h + k];
        ASSERT_TRUE(testing::SameBits(stored, x3)) << i;
        ASSERT_TRUE(testing::SameBits(r.pd_x[i], r.dy[i] + x3)) << i;
      }
    }
  }
}

TEST(LayerNormGrad, RegisterPathReuseRecyclesTheFirstRow) {
  // 3510 with float + reuse: x1Tmp/x2Tmp are inputDy/inputX themselves, not offset by the row,
  // so row 0 ends up holding the last row's x1*rstd and x - mean; other rows are untouched.
  const uint32_t b = 1, s = 5, h = 80;
  LayerNormGradTiling t = MakeGradTiling(b, s, h, h, 4 * 4 * h * h, 4, true);
  GradCase<float> c(b, s, h, 9, 1);
  const std::vector<float> dy0 = c.dy, x0 = c.x;
  const float eps = 1e-4f;
  auto o = c.Operands();
  o.scratch = {nullptr, 0};  // no scratch is touched
  ASSERT_TRUE(LayerNormGrad(Algorithm::kRegBase, t, o, eps, true).ok());
  const uint64_t last = s - 1;
  const float rstd = 1.0f / std::sqrt(c.var[last] + eps);
  for (uint64_t k = 0; k < h; ++k) {
    const uint64_t i = last * h + k;
    EXPECT_TRUE(testing::SameBits(c.dy[k], (dy0[i] * c.gamma[k]) * rstd)) << k;
    EXPECT_TRUE(testing::SameBits(c.x[k], x0[i] - c.mean[last])) << k;
  }
  for (uint64_t i = h; i < uint64_t{s} * h; ++i) {
    EXPECT_EQ(c.dy[i], dy0[i]);
    EXPECT_EQ(c.x[i], x0[i]);
  }
}

TEST(LayerNormGrad, RegisterPathEqualsVectorPathUpTo64Columns) {
  // For H <= 64 both paths sum one row with the same 64-lane tree and apply the same
  // element-wise steps, so every output bit agrees (float and half).
  for (uint32_t h : {16u, 48u, 64u}) {
    uint32_t max_b, min_b;
    testing::GradMaxMin(3, 11, h, 4, false, &max_b, &min_b);
    const auto t = MakeGradTiling(3, 11, h, h, min_b, 4, false);
    LayerNormGradFootprint f;
    ASSERT_TRUE(LayerNormGradFootprintFor(Algorithm::kVector, t, false, false, &f).ok());
    GradCase<float> v(3, 11, h, 21, f.scratch), r(3, 11, h, 21, 2 * h);
    ASSERT_TRUE(LayerNormGrad(Algorithm::kVector, t, v.Operands(), 1e-5f, false).ok());
    ASSERT_TRUE(LayerNormGrad(Algorithm::kRegBase, t, r.Operands(), 1e-5f, false).ok());
    EXPECT_EQ(FirstBitDifference(v.pd_x.data(), r.pd_x.data(), v.pd_x.size()), -1) << h;
    EXPECT_EQ(FirstBitDifference(v.res.data(), r.res.data(), v.res.size()), -1) << h;

    testing::GradMaxMin(3, 11, h, 2, false, &max_b, &min_b);
    const auto th = MakeGradTiling(3, 11, h, h, min_b, 2, false);
    ASSERT_TRUE(LayerNormGradFootprintFor(Algorithm::kVector, th, true, false, &f).ok());
    GradCase<Half> vh(3, 11, h, 22, f.scratch), rh(3, 11, h, 22, 2 * h);
    ASSERT_TRUE(LayerNormGrad(Algorithm::kVector, th, vh.Operands(), Half(1e-3f), false).ok());
    ASSERT_TRUE(LayerNormGrad(Algorithm::kRegBase, th, rh.Operands(), Half(1e-3f), false).ok());
    EXPECT_EQ(FirstBitDifference(vh.pd_x.data(), rh.pd_x.data(), vh.pd_x.size()), -1) << h;
    EXPECT_EQ(FirstBitDifference(vh.res.data(), rh.res.data(), vh.res.size()), -1) << h;
  }
}

TEST(LayerNormGrad, TheTwoPathsSumWideRowsInTheirOwnOrder) {
  // One row, H = 128, mean 0, var 4, eps 0, gamma 1, x 1: v^-1.5 = 1/8 and rstd = 1/2 exactly,
  // x2 = 1, and the pd_var terms are b = ((1 * 1/8) * dy) * -0.5 = -dy/16. With dy[0] = -2^28,
  // dy[64] = dy[65] = -16 (others 0) the terms are 2^24 at column 0 and 1 at columns 64, 65.
  //  - vector (§1.8): tree(cols 0..63) + tree(cols 64..127) = 2^24 + 2 (exact).
  //  - register (§1.13): lane sums 2^24 + 1 -> 2^24 (tie, even) and 1, then 2^24 + 1 -> 2^24.
  // Likewise sum(-x3) over x3 = dy/2: vector 2^27 + 16 (exact), register 2^27 (ties to even).
  // sum(-2*x2) = -256, so pd_mean = sum(-x3) + pd_var * (-2):
  //  - vector: 134217744 - 33554436 = 100663308, a tie in steps of 8 -> 100663312;
  //  - register: 2^27 - 2^25 = 100663296.
  // pd_x at a column with dy = 0: pd_var*(2/128) + pd_mean/128 + 0:
  //  - vector: 262144.03125 + 786432.125 = 1048576.15625 -> 1048576.125 (step 0.125);
  //  - register: 262144 + 786432 = 1048576.
  const uint32_t h = 128;
  const auto t = MakeGradTiling(1, 1, h, h, 6 * 4 * h * 8, 4, false);
  LayerNormGradFootprint f;
  ASSERT_TRUE(LayerNormGradFootprintFor(Algorithm::kVector, t, false, false, &f).ok());
  for (Algorithm algo : {Algorithm::kVector, Algorithm::kRegBase}) {
    GradCase<float> c(1, 1, h, 1, f.scratch);
    std::fill(c.dy.begin(), c.dy.end(), 0.0f);
    c.dy[0] = -268435456.0f;
    c.dy[64] = c.dy[65] = -16.0f;
    std::fill(c.x.begin(), c.x.end(), 1.0f);
    std::fill(c.gamma.begin(), c.gamma.end(), 1.0f);
    c.mean[0] = 0.0f;
    c.var[0] = 4.0f;
    ASSERT_TRUE(LayerNormGrad(algo, t, c.Operands(), 0.0f, false).ok());
    const bool vec = algo == Algorithm::kVector;
    EXPECT_EQ(c.pd_x[1], vec ? 1048576.125f : 1048576.0f);
    EXPECT_EQ(c.pd_x[127], vec ? 1048576.125f : 1048576.0f);
    EXPECT_EQ(c.pd_x[64], vec ? 1048568.125f : 1048568.0f);  // x3 = -8 added last
    EXPECT_EQ(c.res[5], 0.5f);
  }
}

TEST(LayerNormGrad, BothPathsAreAccurateForWideRows) {
  // H > 64: the paths sum in different orders (spec §1.13), both close to float64. Tolerance:
  // the official rule at 1e-4 for float (as in the sample), and at 2e-3 for half outputs,
  // whose final rounding alone is up to 2^-11 = 4.9e-4 relative.
  for (uint32_t h : {144u, 4160u}) {
    const uint32_t b = 1, s = 4;
    uint32_t max_b, min_b;
    testing::GradMaxMin(b, s, h, 4, false, &max_b, &min_b);
    const auto t = MakeGradTiling(b, s, h, h, min_b, 4, false);
    LayerNormGradFootprint f;
    ASSERT_TRUE(LayerNormGradFootprintFor(Algorithm::kVector, t, false, false, &f).ok());
    for (Algorithm algo : {Algorithm::kVector, Algorithm::kRegBase}) {
      GradCase<float> c(b, s, h, 31, f.scratch);
      const Oracle o = Evaluate(c, 1e-4, h);
      ASSERT_TRUE(LayerNormGrad(algo, t, c.Operands(), 1e-4f, false).ok());
      EXPECT_EQ(CountFailures(c.pd_x, o.pd_x, 1e-4), 0) << h;
      EXPECT_EQ(CountFailures(c.res, o.res, 1e-4), 0) << h;
    }
    testing::GradMaxMin(b, s, h, 2, false, &max_b, &min_b);
    const auto th = MakeGradTiling(b, s, h, h, min_b, 2, false);
    ASSERT_TRUE(LayerNormGradFootprintFor(Algorithm::kVector, th, true, false, &f).ok());
    for (Algorithm algo : {Algorithm::kVector, Algorithm::kRegBase}) {
      GradCase<Half> c(b, s, h, 32, f.scratch);
      const Half eps(1e-4f);
      const Oracle o = Evaluate(c, eps.ToFloat(), h);
      ASSERT_TRUE(LayerNormGrad(algo, th, c.Operands(), eps, false).ok());
      EXPECT_EQ(CountFailures(AsFloat(c.pd_x), o.pd_x, 2e-3), 0) << h;
      EXPECT_EQ(CountFailures(AsFloat(c.res), o.res, 2e-3), 0) << h;
    }
  }
}

TEST(LayerNormGrad, ScratchLayoutBeyondTheMinimumIsReportedNotWritten) {
  // Spec §2.8: [1,3,16,16] float with stackBufferSize = min (1152 B = 288 floats) lays its
  // buffers out 128 floats apart and touches 688 floats.
  uint32_t max_b, min_b;
  testing::GradMaxMin(1, 3, 16, 4, false, &max_b, &min_b);
  ASSERT_EQ(min_b, 1152u);
  const auto t = MakeGradTiling(1, 3, 16, 16, min_b, 4, false);
  LayerNormGradFootprint f;
  ASSERT_TRUE(LayerNormGradFootprintFor(Algorithm::kVector, t, false, false, &f).ok());
  EXPECT_EQ(f.scratch, 688u);
  GradCase<float> c(1, 3, 16, 2, min_b / 4);
  const auto pd_before = c.pd_x;
  const auto scratch_before = c.scratch;
  const Status st = LayerNormGrad(Algorithm::kVector, t, c.Operands(), 1e-4f, false);
  EXPECT_EQ(st.code(), StatusCode::kOutOfRange);
  EXPECT_NE(st.message().find("sharedTmpBuffer"), std::string::npos) << st.message();
  EXPECT_EQ(c.pd_x, pd_before);
  EXPECT_EQ(c.scratch, scratch_before);
  // E1-half (spec §2.7): tmp = min = 4608 B, layout end 2304 floats = 9216 B.
  const auto th = MakeGradTiling(2, 32, 16, 16, 4608, 2, false);
  ASSERT_TRUE(LayerNormGradFootprintFor(Algorithm::kVector, th, true, false, &f).ok());
  EXPECT_EQ(f.scratch, 2304u);
  // 3510: two rows of ceil8(H) floats; none for float + reuse.
  ASSERT_TRUE(LayerNormGradFootprintFor(Algorithm::kRegBase, t, false, false, &f).ok());
  EXPECT_EQ(f.scratch, 32u);
  ASSERT_TRUE(LayerNormGradFootprintFor(Algorithm::kRegBase, t, false, true, &f).ok());
  EXPECT_EQ(f.scratch, 0u);
}

TEST(LayerNormGrad, ShortOperandsAreRefusedBeforeAnyWrite) {
  const auto t = MakeGradTiling(2, 8, 16, 16, 6 * 4 * 256, 4, false);
  LayerNormGradFootprint f;
  ASSERT_TRUE(LayerNormGradFootprintFor(Algorithm::kVector, t, false, false, &f).ok());
  const char* names[] = {"outputPdX",     "resForGamma", "inputDy",   "inputX",
                         "inputVariance", "inputMean",   "inputGamma"};
  for (int which = 0; which < 7; ++which) {
    GradCase<float> c(2, 8, 16, 4, f.scratch);
    auto o = c.Operands();
    uint64_t* cap[] = {&o.outputPdX.capacity, &o.resForGamma.capacity,   &o.inputDy.capacity,
                       &o.inputX.capacity,    &o.inputVariance.capacity, &o.inputMean.capacity,
                       &o.inputGamma.capacity};
    *cap[which] -= 1;
    const auto pd_before = c.pd_x;
    const auto res_before = c.res;
    const Status st = LayerNormGrad(Algorithm::kVector, t, o, 1e-4f, false);
    EXPECT_EQ(st.code(), StatusCode::kOutOfRange) << names[which];
    EXPECT_NE(st.message().find(names[which]), std::string::npos) << st.message();
    EXPECT_EQ(c.pd_x, pd_before);
    EXPECT_EQ(c.res, res_before);
  }
}

TEST(LayerNormGrad, UnalignedOrZeroHIsRejected) {
  LayerNormGradFootprint f;
  auto t = MakeGradTiling(1, 8, 8, 8, 1536, 4, false);
  t.hLength = 12;
  Status st = LayerNormGradFootprintFor(Algorithm::kVector, t, false, false, &f);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("hLength"), std::string::npos);
  t.hLength = 8;  // fine for float, not for half (16 halves per 32 bytes)
  EXPECT_TRUE(LayerNormGradFootprintFor(Algorithm::kVector, t, false, false, &f).ok());
  EXPECT_EQ(LayerNormGradFootprintFor(Algorithm::kVector, t, true, false, &f).code(),
            StatusCode::kInvalidArgument);
  t.hLength = 0;
  EXPECT_EQ(LayerNormGradFootprintFor(Algorithm::kRegBase, t, false, false, &f).code(),
            StatusCode::kInvalidArgument);
}

TEST(LayerNormGrad, PaddedColumnsTakePartAsOnTheDevice) {
  // Spec §1.11: storage H 16, original H 12, zero padding. The padded columns still enter the
  // sums: sum(-2*x2) gains +2*mean per padded column, and padded outputs get
  // pd_x = (pd_var*2/N)*(-mean) + pd_mean/N, which is not 0.
  const uint32_t h = 16, orig = 12;
  auto t = MakeGradTiling(1, 8, h, orig, 6 * 4 * 128, 4, false);
  LayerNormGradFootprint f;
  ASSERT_TRUE(LayerNormGradFootprintFor(Algorithm::kVector, t, false, false, &f).ok());
  GradCase<float> c(1, 8, h, 8, f.scratch);
  for (uint32_t r = 0; r < 8; ++r) {
    for (uint32_t k = orig; k < h; ++k) c.dy[r * h + k] = c.x[r * h + k] = 0.0f;
  }
  for (uint32_t k = orig; k < h; ++k) c.gamma[k] = 0.0f;
  ASSERT_TRUE(LayerNormGrad(Algorithm::kVector, t, c.Operands(), 1e-4f, false).ok());
  int nonzero_pads = 0;
  for (uint32_t r = 0; r < 8; ++r) {
    for (uint32_t k = orig; k < h; ++k) nonzero_pads += c.pd_x[r * h + k] != 0.0f;
  }
  EXPECT_EQ(nonzero_pads, 8 * 4);
}

}  // namespace
}  // namespace lngrad::adv
