// Host side for ascendc_only_kernel.cpp (a kernel that includes only the Ascend C include root):
// the tiling through the Ascend C host API (optiling TilingDef, Get*MaxMinTmpSize,
// Get*NDTilingInfo, SaveToBuffer), GmAlloc, ICPU_RUN_KF; results against the float64 oracle.
//
// Bounds (u = 2^-24, mag = the oracle's sum of |terms|; see tests/faithful/oracle_faithful_test.cpp
// for the derivation): pd_x <= (2D + 24) u mag with D = 6 (H <= 64: one 64-lane tree);
// resForGamma <= 5 u |e|; pd_gamma, pd_beta <= (rows + 1) u mag; half outputs add half a half
// spacing at |e| + the float bound (the final rounding).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "lngrad/product.h"
#include "lngrad/half.h"
#include "oracle.h"
#include "tikicpulib.h"
#include "tiling/tiling_api.h"

extern "C" void layernorm_grad_and_beta_custom(GM_ADDR x, GM_ADDR dy, GM_ADDR variance,
                                               GM_ADDR mean, GM_ADDR gamma, GM_ADDR pdX,
                                               GM_ADDR resForGamma, GM_ADDR pdGamma, GM_ADDR pdBeta,
                                               GM_ADDR tiling);

namespace optiling {
BEGIN_TILING_DATA_DEF(GradAndBetaTilingData)
TILING_DATA_FIELD_DEF_STRUCT(LayerNormGradTiling, grad);
TILING_DATA_FIELD_DEF_STRUCT(LayerNormGradBetaTiling, beta);
TILING_DATA_FIELD_DEF(float, epsilon);
TILING_DATA_FIELD_DEF(uint32_t, dtypeSize);
END_TILING_DATA_DEF;
}  // namespace optiling

namespace {

constexpr double kU = 0x1.0p-24;

struct Case {
  const char* soc;
  bool half;
  uint32_t b, s, h;
};

class AscendcOnlyKernelTest : public ::testing::TestWithParam<Case> {
 protected:
  void SetUp() override {
    previous_ = lngrad::CurrentProduct().soc;
    ASSERT_TRUE(lngrad::SetCurrentSoc(GetParam().soc).ok());
  }
  void TearDown() override { (void)lngrad::SetCurrentSoc(previous_); }
  std::string previous_;
};

// Stores v as float or half; returns the stored values.
std::vector<double> Store(bool half, const std::vector<double>& v, uint8_t* dst) {
  std::vector<double> stored(v.size());
  for (size_t i = 0; i < v.size(); ++i) {
    const float f = static_cast<float>(v[i]);
    if (half) {
      const uint16_t bits = lngrad::FloatToHalfBits(f);
      std::memcpy(dst + 2 * i, &bits, 2);
      stored[i] = lngrad::HalfBitsToFloat(bits);
    } else {
      std::memcpy(dst + 4 * i, &f, 4);
      stored[i] = f;
    }
  }
  return stored;
}

std::vector<double> Load(bool half, const uint8_t* src, size_t n) {
  std::vector<double> v(n);
  for (size_t i = 0; i < n; ++i) {
    if (half) {
      uint16_t bits;
      std::memcpy(&bits, src + 2 * i, 2);
      v[i] = lngrad::HalfBitsToFloat(bits);
    } else {
      float f;
      std::memcpy(&f, src + 4 * i, 4);
      v[i] = f;
    }
  }
  return v;
}

void ExpectWithin(const char* name, bool half, const std::vector<double>& got,
                  const std::vector<double>& want, const std::vector<double>& float_bound) {
  for (size_t i = 0; i < got.size(); ++i) {
    double bound = float_bound[i];
    if (half) bound += 0.5 * lngrad::oracle::HalfSpacing(std::fabs(want[i]) + bound);
    EXPECT_LE(std::fabs(got[i] - want[i]), bound)
        << name << "[" << i << "] = " << got[i] << ", oracle " << want[i];
  }
}

TEST_P(AscendcOnlyKernelTest, LayerNormGradThenBetaWithinTheOracleBounds) {
  const Case c = GetParam();
  const uint32_t ts = c.half ? 2 : 4;
  const uint32_t bs = c.b * c.s, bsh = bs * c.h;
  const ge::Shape shape({c.b, c.s, c.h, c.h});
  optiling::GradAndBetaTilingData tilingData;
  uint32_t maxValue = 0, minValue = 0;
  AscendC::GetLayerNormGradMaxMinTmpSize(shape, ts, false, maxValue, minValue);
  AscendC::GetLayerNormGradNDTilingInfo(shape, maxValue, ts, false, tilingData.grad);
  ASSERT_TRUE(lngrad::tiling::LastTilingStatus().ok())
      << lngrad::tiling::LastTilingStatus().ToString();
  AscendC::GetLayerNormGradBetaMaxMinTmpSize(shape, ts, false, maxValue, minValue);
  AscendC::GetLayerNormGradBetaNDTilingInfo(shape, minValue, ts, false, tilingData.beta);
  ASSERT_TRUE(lngrad::tiling::LastTilingStatus().ok())
      << lngrad::tiling::LastTilingStatus().ToString();
  const double eps =
      c.half ? lngrad::HalfBitsToFloat(lngrad::FloatToHalfBits(1e-3f)) : static_cast<double>(1e-3f);
  tilingData.set_epsilon(1e-3f);
  tilingData.set_dtypeSize(ts);

  auto gm = [](size_t bytes) { return static_cast<uint8_t*>(AscendC::GmAlloc(bytes)); };
  uint8_t *x = gm(bsh * ts), *dy = gm(bsh * ts), *var = gm(bs * ts), *mean = gm(bs * ts),
          *gamma = gm(c.h * ts);
  uint8_t *pdX = gm(bsh * ts), *res = gm(bsh * ts), *pdGamma = gm(c.h * ts), *pdBeta = gm(c.h * ts);
  uint8_t* tiling = gm(tilingData.GetDataSize());
  uint64_t state = 99;
  auto uniform = [&](double lo, double hi) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return lo + (hi - lo) * static_cast<double>(state >> 11) * 0x1.0p-53;
  };
  std::vector<double> xv(bsh), dyv(bsh), gv(c.h);
  for (double& v : xv) v = uniform(-5, 5);
  for (double& v : dyv) v = uniform(-1, 1);
  for (double& v : gv) v = uniform(-2, 2);
  const std::vector<double> xs = Store(c.half, xv, x), dys = Store(c.half, dyv, dy),
                            gs = Store(c.half, gv, gamma);
  std::vector<double> mv(bs), vv(bs);
  for (uint32_t r = 0; r < bs; ++r) {
    double sum = 0, sq = 0;
    for (uint32_t k = 0; k < c.h; ++k) sum += xs[r * c.h + k];
    mv[r] = sum / c.h;
    for (uint32_t k = 0; k < c.h; ++k) sq += (xs[r * c.h + k] - mv[r]) * (xs[r * c.h + k] - mv[r]);
    vv[r] = sq / c.h;
  }
  const std::vector<double> ms = Store(c.half, mv, mean), vs = Store(c.half, vv, var);
  tilingData.SaveToBuffer(tiling, tilingData.GetDataSize());

  ICPU_RUN_KF(layernorm_grad_and_beta_custom, 1, x, dy, var, mean, gamma, pdX, res, pdGamma, pdBeta,
              tiling);

  const lngrad::oracle::GradOutputs o =
      lngrad::oracle::LayerNormGrad(bs, c.h, dys, xs, ms, vs, gs, eps);
  std::vector<double> bound_pdx(bsh), bound_res(bsh);
  for (uint32_t i = 0; i < bsh; ++i) {
    bound_pdx[i] = (2 * 6 + 24) * kU * o.pd_x_mag[i];
    bound_res[i] = 5 * kU * o.res_mag[i];
  }
  ExpectWithin("outputPdX", c.half, Load(c.half, pdX, bsh), o.pd_x, bound_pdx);
  const std::vector<double> res_got = Load(c.half, res, bsh);
  ExpectWithin("resForGamma", c.half, res_got, o.res_for_gamma, bound_res);
  // LayerNormGradBeta saw the resForGamma the kernel produced.
  const lngrad::oracle::BetaOutputs ob = lngrad::oracle::LayerNormGradBeta(bs, c.h, dys, res_got);
  std::vector<double> bound_g(c.h), bound_b(c.h);
  for (uint32_t k = 0; k < c.h; ++k) {
    bound_g[k] = (bs + 1) * kU * ob.dgamma_mag[k];
    bound_b[k] = (bs + 1) * kU * ob.dbeta_mag[k];
  }
  ExpectWithin("outputPdGamma", c.half, Load(c.half, pdGamma, c.h), ob.dgamma, bound_g);
  ExpectWithin("outputPdBeta", c.half, Load(c.half, pdBeta, c.h), ob.dbeta, bound_b);
  for (uint8_t* p : {x, dy, var, mean, gamma, pdX, res, pdGamma, pdBeta, tiling})
    AscendC::GmFree(p);
}

INSTANTIATE_TEST_SUITE_P(
    Products, AscendcOnlyKernelTest,
    ::testing::Values(Case{"Ascend910B1", false, 2, 32, 16}, Case{"Ascend910B1", true, 2, 16, 32},
                      Case{"Ascend310P1", false, 4, 8, 64}, Case{"Ascend310P1", true, 1, 32, 48},
                      Case{"Ascend950PR_9599", false, 2, 32, 16},
                      Case{"Ascend950PR_9599", true, 2, 16, 32}),
    [](const ::testing::TestParamInfo<Case>& info) {
      return std::string(info.param.soc) + (info.param.half ? "_half" : "_float");
    });

}  // namespace
