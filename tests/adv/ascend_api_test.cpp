// AscendC::LayerNormGrad / LayerNormGradBeta / LayerNorm called from device-style kernels
// (ascend_kernels.cpp) on the simulated device: same bits as lngrad_adv, both prototypes
// agree, the product picks the algorithm, and checked mode reports what the spec asks for.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <cstring>
#include <string>
#include <vector>

#include "adv_test_util.h"
#include "kernel_operator.h"
#include "run_on.h"
#include "lngrad_adv/normalization.h"
#include "tiling/tiling_api.h"

extern "C" {
void lngrad_test_lng_float(GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR,
                           GM_ADDR);
void lngrad_test_lng_float_reuse(GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR,
                                 GM_ADDR, GM_ADDR);
void lngrad_test_lng_half(GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR,
                          GM_ADDR);
void lngrad_test_lngbeta_float(GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR);
void lngrad_test_ln_float(GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR);
}

namespace {

namespace dm = lngrad::adv;
using lngrad::aicore::BlockFailure;

// A GmAlloc block holding a copy of `data`.
class Gm {
 public:
  template <typename T>
  explicit Gm(const std::vector<T>& data) : bytes_(std::max<size_t>(data.size() * sizeof(T), 32)) {
    p_ = static_cast<uint8_t*>(AscendC::GmAlloc(bytes_));
    std::memcpy(p_, data.data(), data.size() * sizeof(T));
  }
  template <typename T>
  explicit Gm(const T& pod) : Gm(std::vector<T>{pod}) {}
  ~Gm() { AscendC::GmFree(p_); }
  Gm(const Gm&) = delete;
  Gm& operator=(const Gm&) = delete;
  uint8_t* get() const { return p_; }
  template <typename T>
  std::vector<T> Read(size_t n) const {
    std::vector<T> v(n);
    std::memcpy(v.data(), p_, n * sizeof(T));
    return v;
  }

 private:
  size_t bytes_;
  uint8_t* p_;
};

struct GradParams {
  uint32_t tmpBytes;
  float epsilon;
};

using lngrad::adv::testing::FirstCheck;
using lngrad::adv::testing::RunOn;

// Host tiling for `soc` (the tiling functions follow the current product, as on the host).
AscendC::tiling::LayerNormGradTiling GradTiling(const std::string& soc, uint32_t b, uint32_t s,
                                                uint32_t h, uint32_t orig_h, uint32_t type_size,
                                                bool reuse, bool use_max, uint32_t* bytes) {
  EXPECT_TRUE(lngrad::SetCurrentSoc(soc).ok());
  const ge::Shape shape({b, s, h, orig_h});
  uint32_t max_v = 0, min_v = 0;
  AscendC::GetLayerNormGradMaxMinTmpSize(shape, type_size, reuse, max_v, min_v);
  *bytes = use_max ? max_v : min_v;
  AscendC::tiling::LayerNormGradTiling t;
  AscendC::GetLayerNormGradNDTilingInfo(shape, *bytes, type_size, reuse, t);
  EXPECT_TRUE(lngrad::SetCurrentSoc("Ascend910B1").ok());
  return t;
}

struct FloatProblem {
  uint32_t b, s, h;
  std::vector<float> dy, x, var, mean, gamma;
};

FloatProblem RandomProblem(uint32_t b, uint32_t s, uint32_t h, uint32_t seed) {
  FloatProblem p{b, s, h, {}, {}, {}, {}, {}};
  p.x = lngrad::adv::testing::Uniform(size_t{b} * s * h, -100.0f, 100.0f, seed);
  p.dy = lngrad::adv::testing::Uniform(size_t{b} * s * h, -100.0f, 100.0f, seed + 1);
  p.gamma = lngrad::adv::testing::Uniform(h, -100.0f, 100.0f, seed + 2);
  lngrad::adv::testing::RowStats(p.x, size_t{b} * s, h, &p.mean, &p.var);
  return p;
}

// The reference: lngrad_adv called directly with generous scratch.
void Reference(dm::Algorithm algo, const AscendC::tiling::LayerNormGradTiling& tiling,
               FloatProblem p, float eps, bool reuse, std::vector<float>* pd_x,
               std::vector<float>* res) {
  const auto& t = tiling;
  dm::LayerNormGradFootprint f;
  ASSERT_TRUE(dm::LayerNormGradFootprintFor(algo, t, false, reuse, &f).ok());
  std::vector<float> scratch(std::max<uint64_t>(f.scratch, 1));
  pd_x->assign(p.dy.size(), 0.0f);
  res->assign(p.dy.size(), 0.0f);
  dm::LayerNormGradOperands<float> o;
  o.outputPdX = {pd_x->data(), pd_x->size()};
  o.resForGamma = {res->data(), res->size()};
  o.inputDy = {p.dy.data(), p.dy.size()};
  o.inputX = {p.x.data(), p.x.size()};
  o.inputVariance = {p.var.data(), p.var.size()};
  o.inputMean = {p.mean.data(), p.mean.size()};
  o.inputGamma = {p.gamma.data(), p.gamma.size()};
  o.scratch = {scratch.data(), scratch.size()};
  ASSERT_TRUE(dm::LayerNormGrad(algo, t, o, eps, reuse).ok());
}

using GradKernel = void (*)(GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR,
                            GM_ADDR);

struct GradRun {
  std::vector<BlockFailure> failures;
  std::vector<float> pd_x, res;
};

GradRun RunGrad(GradKernel kernel, const std::string& soc, const FloatProblem& p,
                const AscendC::tiling::LayerNormGradTiling& tiling, uint32_t tmp_bytes, float eps) {
  Gm dy(p.dy), x(p.x), var(p.var), mean(p.mean), gamma(p.gamma);
  Gm pdx(std::vector<float>(p.dy.size())), res(std::vector<float>(p.dy.size()));
  Gm tl(tiling), params(GradParams{tmp_bytes, eps});
  GradRun r;
  r.failures = RunOn(soc, [&] {
    kernel(dy.get(), x.get(), var.get(), mean.get(), gamma.get(), pdx.get(), res.get(), tl.get(),
           params.get());
  });
  r.pd_x = pdx.Read<float>(p.dy.size());
  r.res = res.Read<float>(p.dy.size());
  return r;
}

using lngrad::adv::testing::FirstBitDifference;

TEST(AscendLayerNormGrad, DocumentationExampleThroughBothPrototypes) {
  auto m = lngrad::adv::testing::LoadExample("layernormgrad_doc_example.txt");
  FloatProblem p{
      1, 8, 8, m["inputDy"], m["inputX"], m["inputVariance"], m["inputMean"], m["inputGamma"]};
  const float eps = m["epsilon"].at(0);
  uint32_t bytes = 0;
  const auto tiling = GradTiling("Ascend910B1", 1, 8, 8, 8, 4, false, false, &bytes);
  ASSERT_EQ(bytes, 1536u);  // spec §2.7 E2
  std::vector<float> want_pdx, want_res;
  Reference(dm::Algorithm::kVector, tiling, p, eps, false, &want_pdx, &want_res);
  const GradRun stack = RunGrad(lngrad_test_lng_float, "Ascend910B1", p, tiling, 0, eps);
  const GradRun shared = RunGrad(lngrad_test_lng_float, "Ascend910B1", p, tiling, bytes, eps);
  ASSERT_TRUE(stack.failures.empty())
      << FirstCheck(stack.failures) << " " << stack.failures[0].message;
  ASSERT_TRUE(shared.failures.empty())
      << FirstCheck(shared.failures) << " " << shared.failures[0].message;
  EXPECT_EQ(FirstBitDifference(stack.pd_x.data(), want_pdx.data(), 64), -1);
  EXPECT_EQ(FirstBitDifference(stack.res.data(), want_res.data(), 64), -1);
  EXPECT_EQ(FirstBitDifference(shared.pd_x.data(), want_pdx.data(), 64), -1);
  EXPECT_EQ(FirstBitDifference(shared.res.data(), want_res.data(), 64), -1);
  for (size_t i = 0; i < 64; ++i) {
    const double e = std::fabs(double{stack.pd_x[i]} - m["outputPdX"][i]);
    EXPECT_FALSE(e > 1e-4 && e / std::fabs(double{m["outputPdX"][i]}) > 1e-4) << i;
  }
}

TEST(AscendLayerNormGrad, MinAndMaxTmpSizeGiveTheSameBits) {
  const FloatProblem p = RandomProblem(2, 32, 16, 3);
  uint32_t min_b = 0, max_b = 0;
  const auto t_min = GradTiling("Ascend910B1", 2, 32, 16, 16, 4, false, false, &min_b);
  const auto t_max = GradTiling("Ascend910B1", 2, 32, 16, 16, 4, false, true, &max_b);
  const GradRun a = RunGrad(lngrad_test_lng_float, "Ascend910B1", p, t_min, min_b, 1e-4f);
  const GradRun b = RunGrad(lngrad_test_lng_float, "Ascend910B1", p, t_max, max_b, 1e-4f);
  const GradRun c =
      RunGrad(lngrad_test_lng_float_reuse, "Ascend910B1", p,
              GradTiling("Ascend910B1", 2, 32, 16, 16, 4, true, false, &min_b), min_b, 1e-4f);
  ASSERT_TRUE(a.failures.empty() && b.failures.empty() && c.failures.empty());
  EXPECT_EQ(FirstBitDifference(a.pd_x.data(), b.pd_x.data(), a.pd_x.size()), -1);
  EXPECT_EQ(FirstBitDifference(a.res.data(), b.res.data(), a.res.size()), -1);
  EXPECT_EQ(FirstBitDifference(a.pd_x.data(), c.pd_x.data(), a.pd_x.size()), -1);
}

TEST(AscendLayerNormGrad, TheProductSelectsTheAlgorithm) {
  // H = 144 > 64: the 3510 register path sums in another order than the 2201/2002 vector path.
  const FloatProblem p = RandomProblem(1, 8, 144, 5);
  for (const char* soc : {"Ascend910B1", "Ascend310P1", "Ascend950PR_9599"}) {
    SCOPED_TRACE(soc);
    uint32_t bytes = 0;
    const auto tiling = GradTiling(soc, 1, 8, 144, 144, 4, false, false, &bytes);
    const auto algo =
        std::string(soc) == "Ascend950PR_9599" ? dm::Algorithm::kRegBase : dm::Algorithm::kVector;
    std::vector<float> want_pdx, want_res;
    Reference(algo, tiling, p, 1e-5f, false, &want_pdx, &want_res);
    const GradRun r = RunGrad(lngrad_test_lng_float, soc, p, tiling, 0, 1e-5f);
    ASSERT_TRUE(r.failures.empty()) << FirstCheck(r.failures) << " " << r.failures[0].message;
    EXPECT_EQ(FirstBitDifference(r.pd_x.data(), want_pdx.data(), r.pd_x.size()), -1);
    EXPECT_EQ(FirstBitDifference(r.res.data(), want_res.data(), r.res.size()), -1);
  }
}

TEST(AscendLayerNormGrad, UnsupportedProductsAreRefused) {
  const FloatProblem p = RandomProblem(1, 8, 16, 6);
  uint32_t bytes = 0;
  const auto tiling = GradTiling("Ascend910B1", 1, 8, 16, 16, 4, false, false, &bytes);
  for (const char* soc : {"Ascend910A", "Ascend310B1"}) {
    const GradRun r = RunGrad(lngrad_test_lng_float, soc, p, tiling, bytes, 1e-5f);
    EXPECT_EQ(FirstCheck(r.failures), "LayerNormGrad.unsupported_product") << soc;
    if (!r.failures.empty()) {
      EXPECT_NE(r.failures[0].message.find(soc), std::string::npos);
    }
  }
}

TEST(AscendLayerNormGrad, PaddedHIsReportedUnlessTheDeviceResultIsRequested) {
  // Storage H 16, original H 12 (spec §1.11).
  FloatProblem p = RandomProblem(1, 8, 16, 7);
  uint32_t bytes = 0;
  const auto tiling = GradTiling("Ascend910B1", 1, 8, 16, 12, 4, false, false, &bytes);
  ASSERT_EQ(tiling.originalHLength, 12u);
  const GradRun refused = RunGrad(lngrad_test_lng_float, "Ascend910B1", p, tiling, bytes, 1e-5f);
  EXPECT_EQ(FirstCheck(refused.failures), "LayerNormGrad.padded_h");
  lngrad::adv::SetReproducePaddedH(true);
  const GradRun device = RunGrad(lngrad_test_lng_float, "Ascend910B1", p, tiling, bytes, 1e-5f);
  lngrad::adv::SetReproducePaddedH(false);
  ASSERT_TRUE(device.failures.empty()) << FirstCheck(device.failures);
  std::vector<float> want_pdx, want_res;
  Reference(dm::Algorithm::kVector, tiling, p, 1e-5f, false, &want_pdx, &want_res);
  EXPECT_EQ(FirstBitDifference(device.pd_x.data(), want_pdx.data(), want_pdx.size()), -1);
}

// An operator's padded rows (spec §1.11): storage H `h`, real H `orig`; real columns random,
// mean and variance over them. pad_dy: dy's padded columns 0 (gamma's random), else gamma's 0
// (dy's random); x's padded columns hold the row's float mean.
FloatProblem PaddedProblem(uint32_t rows, uint32_t h, uint32_t orig, bool pad_dy, uint32_t seed) {
  const FloatProblem real = RandomProblem(1, rows, orig, seed);
  FloatProblem p = RandomProblem(1, rows, h, seed + 10);  // random padding everywhere
  for (uint32_t r = 0; r < rows; ++r) {
    for (uint32_t c = 0; c < orig; ++c) {
      p.x[r * h + c] = real.x[r * orig + c];
      p.dy[r * h + c] = real.dy[r * orig + c];
    }
    for (uint32_t c = orig; c < h; ++c) {
      p.x[r * h + c] = real.mean[r];
      if (pad_dy) p.dy[r * h + c] = 0.0f;
    }
  }
  for (uint32_t c = 0; c < orig; ++c) p.gamma[c] = real.gamma[c];
  if (!pad_dy) std::fill(p.gamma.begin() + orig, p.gamma.end(), 0.0f);
  p.mean = real.mean;
  p.var = real.var;
  return p;
}

TEST(AscendLayerNormGrad, HarmlessPaddedHIsAcceptedAndDoesNotBiasTheRealColumns) {
  // Storage H 16 for real H 12, and 72 for 65 (two 64-lane chunks), on both algorithms.
  for (const char* soc : {"Ascend910B1", "Ascend950PR_9599"}) {
    for (const auto& [h, orig] : {std::pair{16u, 12u}, std::pair{72u, 65u}}) {
      SCOPED_TRACE(std::string(soc) + " H " + std::to_string(orig));
      const uint32_t rows = 8;
      uint32_t bytes = 0;
      const auto tiling = GradTiling(soc, 1, rows, h, orig, 4, false, false, &bytes);
      const FloatProblem a = PaddedProblem(rows, h, orig, true, 21);
      const FloatProblem b = PaddedProblem(rows, h, orig, false, 21);
      const GradRun ra = RunGrad(lngrad_test_lng_float, soc, a, tiling, bytes, 1e-5f);
      const GradRun rb = RunGrad(lngrad_test_lng_float, soc, b, tiling, bytes, 1e-5f);
      ASSERT_TRUE(ra.failures.empty()) << FirstCheck(ra.failures) << " " << ra.failures[0].message;
      ASSERT_TRUE(rb.failures.empty()) << FirstCheck(rb.failures) << " " << rb.failures[0].message;
      for (uint32_t r = 0; r < rows; ++r) {
        // Padded with 0 in dy or in gamma, and random in the other: the same real columns.
        EXPECT_EQ(FirstBitDifference(ra.pd_x.data() + r * h, rb.pd_x.data() + r * h, orig), -1);
        EXPECT_EQ(FirstBitDifference(ra.res.data() + r * h, rb.res.data() + r * h, orig), -1);
        // And the formula over the real columns only (N = orig), in double.
        const double v = double{a.var[r]} + double{1e-5f};
        const double rstd = 1.0 / std::sqrt(v);
        double s_x1x2 = 0, s_x1 = 0, s_x2 = 0, mag_pv = 0, mag_pm = 0;
        for (uint32_t c = 0; c < orig; ++c) {
          const double x1 = double{a.dy[r * h + c]} * a.gamma[c];
          const double x2 = double{a.x[r * h + c]} - a.mean[r];
          s_x1x2 += x1 * x2;
          s_x1 += x1;
          s_x2 += x2;
          mag_pv += std::fabs(x1 * x2);
          mag_pm += std::fabs(x1);
        }
        const double pv = -0.5 * s_x1x2 * rstd / v;
        const double pm = -s_x1 * rstd + pv * (-2.0 * s_x2) / orig;
        for (uint32_t c = 0; c < orig; ++c) {
          const double x1 = double{a.dy[r * h + c]} * a.gamma[c];
          const double x2 = double{a.x[r * h + c]} - a.mean[r];
          const double want = x1 * rstd + pv * 2.0 / orig * x2 + pm / orig;
          const double mag = std::fabs(x1) * rstd + mag_pv * rstd / v * std::fabs(x2) / orig +
                             mag_pm * rstd / orig;
          EXPECT_NEAR(ra.pd_x[r * h + c], want, 1e-5 * mag + 1e-30) << "row " << r << " col " << c;
          EXPECT_NEAR(ra.res[r * h + c], x2 * rstd, 1e-6 * std::fabs(x2 * rstd) + 1e-30);
        }
      }
    }
  }
}

TEST(AscendLayerNormGrad, PaddingThatBiasesTheSumsIsRefusedNamingRowAndColumn) {
  const uint32_t rows = 8, h = 16, orig = 12;
  uint32_t bytes = 0;
  for (const char* soc : {"Ascend910B1", "Ascend950PR_9599"}) {
    SCOPED_TRACE(soc);
    const auto tiling = GradTiling(soc, 1, rows, h, orig, 4, false, false, &bytes);
    // dy*gamma != 0 in one padded column of one row: dy pad 0 everywhere but there.
    FloatProblem p = PaddedProblem(rows, h, orig, true, 31);
    p.dy[3 * h + 13] = 0.5f;
    GradRun r = RunGrad(lngrad_test_lng_float, soc, p, tiling, bytes, 1e-5f);
    ASSERT_EQ(FirstCheck(r.failures), "LayerNormGrad.padded_h");
    EXPECT_NE(r.failures[0].message.find("row 3, padded column 13 dy*gamma"), std::string::npos)
        << r.failures[0].message;
    // x != the row's mean in a padded column, later rows already harmful too: the first named.
    p = PaddedProblem(rows, h, orig, false, 32);
    p.x[5 * h + 14] = p.mean[5] + 1.0f;
    p.x[6 * h + 12] = p.mean[6] - 1.0f;
    r = RunGrad(lngrad_test_lng_float, soc, p, tiling, bytes, 1e-5f);
    ASSERT_EQ(FirstCheck(r.failures), "LayerNormGrad.padded_h");
    EXPECT_NE(r.failures[0].message.find("row 5, padded column 14 x is"), std::string::npos)
        << r.failures[0].message;
    EXPECT_NE(r.failures[0].message.find("not the row's mean"), std::string::npos);
    // 0 * inf is no 0.
    p = PaddedProblem(rows, h, orig, true, 33);
    p.gamma[15] = std::numeric_limits<float>::infinity();
    r = RunGrad(lngrad_test_lng_float, soc, p, tiling, bytes, 1e-5f);
    ASSERT_EQ(FirstCheck(r.failures), "LayerNormGrad.padded_h");
    EXPECT_NE(r.failures[0].message.find("row 0, padded column 15"), std::string::npos);
    // The device's result when asked for, as before.
    lngrad::adv::SetReproducePaddedH(true);
    r = RunGrad(lngrad_test_lng_float, soc, p, tiling, bytes, 1e-5f);
    lngrad::adv::SetReproducePaddedH(false);
    EXPECT_TRUE(r.failures.empty()) << FirstCheck(r.failures);
  }
  // Storage shorter than the row: refused whatever the data.
  auto tiling = GradTiling("Ascend910B1", 1, rows, h, h, 4, false, false, &bytes);
  tiling.originalHLength = 24;
  const GradRun r = RunGrad(lngrad_test_lng_float, "Ascend910B1", RandomProblem(1, rows, h, 34),
                            tiling, bytes, 1e-5f);
  ASSERT_EQ(FirstCheck(r.failures), "LayerNormGrad.padded_h");
  EXPECT_NE(r.failures[0].message.find("cannot be shorter"), std::string::npos);
}

TEST(AscendLayerNormGrad, ScratchOverrunIsReportedInCheckedModeOnly) {
  // Spec §2.7 E1-half: [2,32,16] half with tmp = min (4608 B) lays out 9216 B of scratch.
  uint32_t bytes = 0;
  const auto tiling = GradTiling("Ascend910B1", 2, 32, 16, 16, 2, false, false, &bytes);
  ASSERT_EQ(bytes, 4608u);
  const FloatProblem pf = RandomProblem(2, 32, 16, 8);
  auto to_half = [](const std::vector<float>& v) {
    std::vector<half> h(v.size());
    for (size_t i = 0; i < v.size(); ++i) h[i] = half(v[i]);
    return h;
  };
  Gm dy(to_half(pf.dy)), x(to_half(pf.x)), var(to_half(pf.var)), mean(to_half(pf.mean)),
      gamma(to_half(pf.gamma));
  auto run = [&](std::vector<half>* out) {
    Gm pdx(std::vector<half>(1024)), res(std::vector<half>(1024));
    Gm tl(tiling), params(GradParams{bytes, 1e-4f});
    auto f = RunOn("Ascend910B1", [&] {
      lngrad_test_lng_half(dy.get(), x.get(), var.get(), mean.get(), gamma.get(), pdx.get(),
                           res.get(), tl.get(), params.get());
    });
    *out = pdx.Read<half>(1024);
    return f;
  };
  std::vector<half> checked_out, device_out;
  EXPECT_EQ(FirstCheck(run(&checked_out)), "LayerNormGrad.scratch_overrun");
  lngrad::aicore::SetCheckedMode(false);
  const auto f = run(&device_out);
  lngrad::aicore::SetCheckedMode(true);
  ASSERT_TRUE(f.empty()) << FirstCheck(f);
  // The device result: lngrad_adv with the full layout available.
  const auto& t = tiling;
  dm::LayerNormGradFootprint fp;
  ASSERT_TRUE(dm::LayerNormGradFootprintFor(dm::Algorithm::kVector, t, true, false, &fp).ok());
  ASSERT_EQ(fp.scratch, 2304u);
  auto hv = [&](const std::vector<float>& v) { return lngrad::adv::testing::ToHalf(v); };
  auto hdy = hv(pf.dy), hx = hv(pf.x), hvar = hv(pf.var), hmean = hv(pf.mean),
       hgamma = hv(pf.gamma);
  std::vector<lngrad::Half> want(1024), want_res(1024);
  std::vector<float> scratch(fp.scratch);
  dm::LayerNormGradOperands<lngrad::Half> o;
  o.outputPdX = {want.data(), 1024};
  o.resForGamma = {want_res.data(), 1024};
  o.inputDy = {hdy.data(), 1024};
  o.inputX = {hx.data(), 1024};
  o.inputVariance = {hvar.data(), 64};
  o.inputMean = {hmean.data(), 64};
  o.inputGamma = {hgamma.data(), 16};
  o.scratch = {scratch.data(), scratch.size()};
  ASSERT_TRUE(dm::LayerNormGrad(dm::Algorithm::kVector, t, o, lngrad::Half(1e-4f), false).ok());
  for (size_t i = 0; i < 1024; ++i) ASSERT_EQ(device_out[i].bits, want[i].bits) << i;
}

TEST(AscendLayerNormGrad, CheckedModeReportsTheDeviceChecks) {
  // [1,8,16] float; all operands carved from one TBuf so each case can bend one rule.
  uint32_t bytes = 0;
  const auto tiling = GradTiling("Ascend910B1", 1, 8, 16, 16, 4, false, false, &bytes);
  enum Case { kOk, kGammaLength, kSameOutputs, kNotNd, kSmallTmp, kShortDy };
  auto run = [&](Case c, float* pdx0 = nullptr) {
    return RunOn("Ascend910B1", [&] {
      using namespace AscendC;
      TPipe pipe;
      TBuf<TPosition::VECCALC> buf;
      pipe.InitBuffer(buf, 4096 + bytes);
      auto dy = buf.GetWithOffset<float>(c == kShortDy ? 64 : 128, 0);
      auto x = buf.GetWithOffset<float>(128, 512);
      auto var = buf.GetWithOffset<float>(8, 1024);
      auto mean = buf.GetWithOffset<float>(8, 1056);
      auto gamma = buf.GetWithOffset<float>(c == kGammaLength ? 12 : 16, 1088);
      auto pdx = buf.GetWithOffset<float>(128, 1152);
      auto res = c == kSameOutputs ? pdx : buf.GetWithOffset<float>(128, 1664);
      auto tmp = buf.GetWithOffset<uint8_t>(c == kSmallTmp ? bytes - 32 : bytes, 4096);
      // Defined inputs (clean under the sanitizer's initcheck); the checks do not look at them.
      Duplicate(buf.Get<float>(), 1.0f, 1152 / 4);
      for (uint32_t i = 0; i < 128; ++i) pdx.SetValue(i, 7.0f);
      LayerNormGradTiling t = tiling;
      LayerNormGradShapeInfo info{c == kNotNd ? DataFormat::NZ : DataFormat::ND};
      LayerNormGrad<float, false>(pdx, res, dy, x, var, mean, gamma, tmp, 1e-5f, t, info);
      if (pdx0 != nullptr) *pdx0 = pdx.GetValue(0);
    });
  };
  EXPECT_EQ(FirstCheck(run(kOk)), "");
  EXPECT_EQ(FirstCheck(run(kGammaLength)), "LayerNormGrad.gamma_alignment");
  EXPECT_EQ(FirstCheck(run(kSameOutputs)), "LayerNormGrad.tensor_reuse");
  EXPECT_EQ(FirstCheck(run(kNotNd)), "LayerNormGrad.data_format");
  EXPECT_EQ(FirstCheck(run(kSmallTmp)), "LayerNormGrad.stack_buffer");
  EXPECT_EQ(FirstCheck(run(kShortDy)), "LayerNormGrad.operand_bounds");
  // Unchecked: no checks; a non-ND format makes the call a no-op, as on the device.
  lngrad::aicore::SetCheckedMode(false);
  float pdx0 = 0.0f;
  const auto f = run(kNotNd, &pdx0);
  lngrad::aicore::SetCheckedMode(true);
  EXPECT_TRUE(f.empty());
  EXPECT_EQ(pdx0, 7.0f);
}

TEST(AscendLayerNormGradBeta, DocumentationExampleThroughBothPrototypes) {
  auto m = lngrad::adv::testing::LoadExample("layernormgradbeta_doc_example.txt");
  for (const char* soc : {"Ascend910B1", "Ascend950PR_9599"}) {
    ASSERT_TRUE(lngrad::SetCurrentSoc(soc).ok());
    const ge::Shape shape({1, 8, 8, 8});
    uint32_t max_v = 0, min_v = 0;
    AscendC::GetLayerNormGradBetaMaxMinTmpSize(shape, 4, false, max_v, min_v);
    AscendC::tiling::LayerNormGradBetaTiling t;
    AscendC::GetLayerNormGradBetaNDTilingInfo(shape, min_v, 4, false, t);
    ASSERT_TRUE(lngrad::SetCurrentSoc("Ascend910B1").ok());
    for (uint32_t tmp : {0u, min_v}) {
      Gm dy(m["inputDy"]), res(m["resForGamma"]), g(std::vector<float>(8)),
          b(std::vector<float>(8));
      Gm tl(t), tb(tmp);
      const auto f = RunOn(soc, [&] {
        lngrad_test_lngbeta_float(dy.get(), res.get(), g.get(), b.get(), tl.get(), tb.get());
      });
      ASSERT_TRUE(f.empty()) << FirstCheck(f) << " " << f[0].message;
      EXPECT_EQ(g.Read<float>(8), m["outputPdGamma"]) << soc << " tmp " << tmp;
      EXPECT_EQ(b.Read<float>(8), m["outputPdBeta"]) << soc << " tmp " << tmp;
    }
  }
}

// LayerNormGradBeta with storage H 16 and real H 12 on the vector path (spec §3.3): it sums the
// first 12 columns of rows it strides by 12, so only chunks of one row read their row.
TEST(AscendLayerNormGradBeta, PaddedHOnTheVectorPathNeedsOneRowPerChunk) {
  const uint32_t rows = 8, h = 16, orig = 12;
  ASSERT_TRUE(lngrad::SetCurrentSoc("Ascend910B1").ok());
  const ge::Shape shape({1, rows, h, orig});
  uint32_t max_v = 0, min_v = 0;
  AscendC::GetLayerNormGradBetaMaxMinTmpSize(shape, 4, false, max_v, min_v);
  AscendC::tiling::LayerNormGradBetaTiling t;
  AscendC::GetLayerNormGradBetaNDTilingInfo(shape, min_v, 4, false, t);
  ASSERT_EQ(t.bsCurLength, 2u);
  const std::vector<float> dy = lngrad::adv::testing::Uniform(rows * h, -4.0f, 4.0f, 51);
  const std::vector<float> res = lngrad::adv::testing::Uniform(rows * h, -4.0f, 4.0f, 52);
  auto run = [&](const AscendC::tiling::LayerNormGradBetaTiling& tl, std::vector<float>* g,
                 std::vector<float>* b) {
    Gm dg(dy), rg(res), gg(std::vector<float>(size_t{h})), bg(std::vector<float>(size_t{h})),
        tg(tl), tb(min_v);
    const auto f = RunOn("Ascend910B1", [&] {
      lngrad_test_lngbeta_float(dg.get(), rg.get(), gg.get(), bg.get(), tg.get(), tb.get());
    });
    *g = gg.Read<float>(h);
    *b = bg.Read<float>(h);
    return f;
  };
  std::vector<float> g, b;
  auto f = run(t, &g, &b);
  ASSERT_EQ(FirstCheck(f), "LayerNormGradBeta.padded_h");
  EXPECT_NE(f[0].message.find("storage element 12 (row 0, column 12) as row 1, column 0"),
            std::string::npos)
      << f[0].message;
  // One row per chunk: each chunk reads its row where it is stored; the padded columns of dy
  // and resForGamma (random here) reach no output. Row-sequential float sums, acc = row + acc.
  AscendC::tiling::LayerNormGradBetaTiling one = t;
  one.oneCalSize = one.bshCurLength = h;
  one.bsCurLength = 1;
  one.loopRound = rows;
  one.inputTailSize = one.inputTailPos = one.bsTailSize = 0;
  f = run(one, &g, &b);
  ASSERT_TRUE(f.empty()) << FirstCheck(f) << " " << f[0].message;
  for (uint32_t c = 0; c < orig; ++c) {
    float want_g = 0.0f, want_b = 0.0f;
    for (uint32_t r = 0; r < rows; ++r) {
      want_g = dy[r * h + c] * res[r * h + c] + want_g;
      want_b = dy[r * h + c] + want_b;
    }
    EXPECT_EQ(g[c], want_g) << c;
    EXPECT_EQ(b[c], want_b) << c;
  }
  // A chunk that starts inside a row: the device takes that element as the row's column 0.
  one.oneCalSize = one.bshCurLength = 20;
  one.loopRound = 2;
  f = run(one, &g, &b);
  ASSERT_EQ(FirstCheck(f), "LayerNormGradBeta.padded_h");
  EXPECT_NE(f[0].message.find("storage element 20 (row 1, column 4) as row 1"), std::string::npos)
      << f[0].message;
}

TEST(AscendLayerNorm, ForwardThenBackwardMatchesTheDeviceLibrary) {
  // LayerNorm's mean and variance feed LayerNormGrad, all on the simulated 910B. [2,12,32]
  // float with a chunk size that leaves a tail, so the tiling comes back with tail lengths.
  const uint32_t b = 2, s = 12, h = 32;
  dm::testing::NormCase<float> c(b, s, h, 40, 0);
  AscendC::tiling::LayerNormTiling lt;
  const ge::Shape shape({b, s, h, h});
  uint32_t max_v = 0, min_v = 0;
  AscendC::GetLayerNormMaxMinTmpSize(shape, 4, false, max_v, min_v);
  // 2000 B lies between min and max and gives chunks of 5 rows: 4 chunks and a 4-row tail.
  const uint32_t stack = 2000;
  ASSERT_TRUE(min_v <= stack && stack <= max_v);
  AscendC::GetLayerNormNDTilingInfo(shape, stack, 4, false, lt);
  ASSERT_GT(lt.inputTailSize, 0u);
  const auto lt_before = lt;
  Gm xg(c.x), gg(c.gamma), bg(c.beta), og(std::vector<float>(b * s * h)),
      mg(std::vector<float>(b * s)), vg(std::vector<float>(b * s)), tl(lt),
      params(GradParams{stack, 1e-5f});
  auto f = RunOn("Ascend910B1", [&] {
    lngrad_test_ln_float(xg.get(), gg.get(), bg.get(), og.get(), mg.get(), vg.get(), tl.get(),
                         params.get());
  });
  ASSERT_TRUE(f.empty()) << FirstCheck(f) << " " << f[0].message;
  // Reference with lngrad_adv directly.
  AscendC::tiling::LayerNormTiling d = lt_before;
  dm::LayerNormFootprint fp;
  ASSERT_TRUE(dm::LayerNormFootprintFor(dm::Algorithm::kVector, d, false, false, &fp).ok());
  c.scratch.assign(std::max<uint64_t>(fp.scratch, 1), 0.0f);
  ASSERT_TRUE(dm::LayerNorm(dm::Algorithm::kVector, d, c.Operands(), 1e-5f, false).ok());
  EXPECT_EQ(og.Read<float>(b * s * h), c.out);
  EXPECT_EQ(mg.Read<float>(b * s), c.mean);
  EXPECT_EQ(vg.Read<float>(b * s), c.var);
  const auto lt_after = tl.Read<AscendC::tiling::LayerNormTiling>(1)[0];
  EXPECT_EQ(lt_after.bshCurLength, lt_before.inputTailSize);
  EXPECT_EQ(lt_after.bshCurLength, d.bshCurLength);
  EXPECT_EQ(lt_after.bsCurLength, d.bsCurLength);

  // Backward with the forward statistics.
  FloatProblem p{b,   s,     h,      lngrad::adv::testing::Uniform(b * s * h, -1.0f, 1.0f, 43),
                 c.x, c.var, c.mean, c.gamma};
  uint32_t bytes = 0;
  const auto gt = GradTiling("Ascend910B1", b, s, h, h, 4, false, false, &bytes);
  std::vector<float> want_pdx, want_res;
  Reference(dm::Algorithm::kVector, gt, p, 1e-5f, false, &want_pdx, &want_res);
  const GradRun r = RunGrad(lngrad_test_lng_float, "Ascend910B1", p, gt, 0, 1e-5f);
  ASSERT_TRUE(r.failures.empty()) << FirstCheck(r.failures);
  EXPECT_EQ(FirstBitDifference(r.pd_x.data(), want_pdx.data(), want_pdx.size()), -1);
  // res_for_gamma = (x - mean) * rstd is the normalised x: |res| stays below sqrt(H).
  for (float v : r.res) EXPECT_LT(std::fabs(v), std::sqrt(32.0f));
}

}  // namespace
