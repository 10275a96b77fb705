// Host side for the documentation's call example (doc_call_example_kernel.cpp), written like the
// official sample's host code (spec §5.2, §6.7): a TilingDef {LayerNormGradTiling, epsilon},
// GetLayerNormGradMaxMinTmpSize / GetLayerNormGradNDTilingInfo with the minimum tmp size,
// SaveToBuffer into GmAlloc'd memory, ICPU_RUN_KF with one block.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "doc_example.h"
#include "lngrad/product.h"
#include "oracle.h"
#include "tikicpulib.h"
#include "tiling/tiling_api.h"

extern "C" void layernorm_grad_custom(GM_ADDR inputXGm, GM_ADDR inputDyGm, GM_ADDR inputVarianceGm,
                                      GM_ADDR inputMeanGm, GM_ADDR inputGammaGm,
                                      GM_ADDR outputPdXGm, GM_ADDR resForGammaGm, GM_ADDR workspace,
                                      GM_ADDR tiling);

namespace optiling {
BEGIN_TILING_DATA_DEF(LayernormGradCustomTilingData)
TILING_DATA_FIELD_DEF_STRUCT(LayerNormGradTiling, layernormGradTilingData);
TILING_DATA_FIELD_DEF(float, epsilon);
END_TILING_DATA_DEF;
}  // namespace optiling

namespace {

struct Inputs {
  uint32_t b, s, h;
  std::vector<float> x, dy, variance, mean, gamma;
};

struct Outputs {
  std::vector<float> pd_x, res_for_gamma;
};

// Runs the sample's flow on the current product.
Outputs RunSample(const Inputs& in, float epsilon) {
  const uint32_t bsh = in.b * in.s * in.h, bs = in.b * in.s;
  optiling::LayernormGradCustomTilingData tilingData;
  const ge::Shape shape({in.b, in.s, in.h, in.h});
  uint32_t maxValue = 0, minValue = 0;
  AscendC::GetLayerNormGradMaxMinTmpSize(shape, sizeof(float), false, maxValue, minValue);
  AscendC::GetLayerNormGradNDTilingInfo(shape, minValue, sizeof(float), false,
                                        tilingData.layernormGradTilingData);
  EXPECT_TRUE(lngrad::tiling::LastTilingStatus().ok())
      << lngrad::tiling::LastTilingStatus().ToString();
  tilingData.set_epsilon(epsilon);

  auto gm = [](size_t bytes) { return static_cast<uint8_t*>(AscendC::GmAlloc(bytes)); };
  uint8_t* x = gm(bsh * 4);
  uint8_t* dy = gm(bsh * 4);
  uint8_t* variance = gm(bs * 4);
  uint8_t* mean = gm(bs * 4);
  uint8_t* gamma = gm(in.h * 4);
  uint8_t* pdX = gm(bsh * 4);
  uint8_t* res = gm(bsh * 4);
  uint8_t* workspace = gm(16 * 1024 * 1024);
  uint8_t* tiling = gm(tilingData.GetDataSize());
  std::memcpy(x, in.x.data(), bsh * 4);
  std::memcpy(dy, in.dy.data(), bsh * 4);
  std::memcpy(variance, in.variance.data(), bs * 4);
  std::memcpy(mean, in.mean.data(), bs * 4);
  std::memcpy(gamma, in.gamma.data(), in.h * 4);
  tilingData.SaveToBuffer(tiling, tilingData.GetDataSize());

  // CANN samples spell it KernelMode::AIV_MODE; lngrad declares the enum in AscendC only.
  AscendC::SetKernelMode(AscendC::KernelMode::AIV_MODE);
  ICPU_RUN_KF(layernorm_grad_custom, 1, x, dy, variance, mean, gamma, pdX, res, workspace, tiling);

  Outputs out;
  out.pd_x.assign(reinterpret_cast<float*>(pdX), reinterpret_cast<float*>(pdX) + bsh);
  out.res_for_gamma.assign(reinterpret_cast<float*>(res), reinterpret_cast<float*>(res) + bsh);
  for (uint8_t* p : {x, dy, variance, mean, gamma, pdX, res, workspace, tiling}) AscendC::GmFree(p);
  return out;
}

std::vector<double> D(const std::vector<float>& v) { return {v.begin(), v.end()}; }

// gen_data.py's setting (spec §5.4): [2,32,16], dy, x, gamma uniform in [-100, 100], mean and
// biased variance of x.
Inputs OfficialSampleData(uint32_t b, uint32_t s, uint32_t h) {
  Inputs in{b, s, h, {}, {}, {}, {}, {}};
  uint64_t state = 12345;
  auto uniform = [&] {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<float>(-100.0 + 200.0 * static_cast<double>(state >> 11) * 0x1.0p-53);
  };
  for (uint32_t i = 0; i < b * s * h; ++i) in.dy.push_back(uniform());
  for (uint32_t i = 0; i < b * s * h; ++i) in.x.push_back(uniform());
  for (uint32_t i = 0; i < h; ++i) in.gamma.push_back(uniform());
  for (uint32_t r = 0; r < b * s; ++r) {
    double sum = 0, sq = 0;
    for (uint32_t c = 0; c < h; ++c) sum += in.x[r * h + c];
    const double m = sum / h;
    for (uint32_t c = 0; c < h; ++c) sq += (in.x[r * h + c] - m) * (in.x[r * h + c] - m);
    in.mean.push_back(static_cast<float>(m));
    in.variance.push_back(static_cast<float>(sq / h));
  }
  return in;
}

// The official rule (spec §5.5): wrong only if abs err > 1e-4 and rel err > 1e-4.
void ExpectOfficialRule(const char* name, const std::vector<float>& got,
                        const std::vector<double>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    const double abs_err = std::fabs(got[i] - want[i]);
    EXPECT_TRUE(abs_err <= 1e-4 || abs_err <= 1e-4 * std::fabs(want[i]))
        << name << "[" << i << "] = " << got[i] << ", expected " << want[i];
  }
}

class DocCallExampleTest : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    previous_ = lngrad::CurrentProduct().soc;
    ASSERT_TRUE(lngrad::SetCurrentSoc(GetParam()).ok());
  }
  void TearDown() override { (void)lngrad::SetCurrentSoc(previous_); }
  std::string previous_;
};

TEST_P(DocCallExampleTest, OfficialSampleWithinTheRuleAgainstFloat64) {
  const Inputs in = OfficialSampleData(2, 32, 16);
  const Outputs out = RunSample(in, 1e-4f);
  const lngrad::oracle::GradOutputs o =
      lngrad::oracle::LayerNormGrad(in.b * in.s, in.h, D(in.dy), D(in.x), D(in.mean),
                                    D(in.variance), D(in.gamma), static_cast<double>(1e-4f));
  ExpectOfficialRule("outputPdX", out.pd_x, o.pd_x);
  ExpectOfficialRule("resForGamma", out.res_for_gamma, o.res_for_gamma);
}

TEST_P(DocCallExampleTest, DocumentationExampleWithinTheRuleAgainstThePrintedValues) {
  bool opened = false;
  const auto doc = lngrad::test::ReadDocExample<float>("layernormgrad_doc_example.txt", &opened);
  ASSERT_TRUE(opened);
  const Inputs in{1,
                  8,
                  8,
                  doc.at("inputX"),
                  doc.at("inputDy"),
                  doc.at("inputVariance"),
                  doc.at("inputMean"),
                  doc.at("inputGamma")};
  const Outputs out = RunSample(in, doc.at("epsilon").at(0));
  ExpectOfficialRule("outputPdX", out.pd_x, D(doc.at("outputPdX")));
  ExpectOfficialRule("resForGamma", out.res_for_gamma, D(doc.at("resForGamma")));
}

INSTANTIATE_TEST_SUITE_P(Products, DocCallExampleTest,
                         ::testing::Values("Ascend910B1", "Ascend910_9391", "Ascend310P1",
                                           "Ascend950PR_9599"));

TEST(DocCallExampleTilingTest, TheTilingImageIsTheKernelsVecTiling) {
  // The kernel copies sizeof(VecTiling) = sizeof(LayerNormGradTiling) + sizeof(float) bytes.
  optiling::LayernormGradCustomTilingData tilingData;
  EXPECT_EQ(tilingData.GetDataSize(), sizeof(LayerNormGradTiling) + sizeof(float));
  EXPECT_EQ(tilingData.GetDataSize(), 124u);
}

}  // namespace
