// MultiCoreMatmulTiling / MatmulApiTiling: lngrad's plan always fits the product's L0A, L0B,
// L0C, BiasTable and L1, with 16-aligned baseM/baseN, baseK a multiple of one K fractal,
// consistent steps and depths, cores covering the shape; -1 for impossible requests.
#include <gtest/gtest.h>

#include <cstdint>

#include "tiling/tiling_api.h"

namespace {

namespace mt = matmul_tiling;

struct Req {
  int32_t m, n, k;
  mt::DataType type;
  bool bias;
  int32_t cores;
  bool split_k;
};

int32_t Bits(mt::DataType t) {
  return t == mt::DataType::DT_FLOAT ? 32 : t == mt::DataType::DT_INT8 ? 8 : 16;
}

void ExpectValid(const char* soc, const Req& r) {
  auto* platform = platform_ascendc::PlatformAscendCManager::GetInstance(soc);
  mt::MultiCoreMatmulTiling api(*platform);
  api.SetDim(r.cores);
  api.SetAType(mt::TPosition::GM, mt::CubeFormat::ND, r.type);
  api.SetBType(mt::TPosition::GM, mt::CubeFormat::ND, r.type);
  api.SetCType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_FLOAT);
  api.SetShape(r.m, r.n, r.k);
  api.SetOrgShape(r.m, r.n, r.k);
  api.EnableBias(r.bias);
  api.EnableMultiCoreSplitK(r.split_k);
  optiling::TCubeTiling host;
  ASSERT_EQ(api.GetTiling(host), 0);
  TCubeTiling t;
  ASSERT_EQ(host.GetDataSize(), sizeof(TCubeTiling));
  host.SaveToBuffer(&t, sizeof(t));
  const lngrad::CubeBuffers& cb = platform->SimulatedProduct().cube;
  const int64_t bits = Bits(r.type), kal = 256 / bits;
  EXPECT_EQ(t.M, r.m);
  EXPECT_EQ(t.Ka, r.k);
  EXPECT_EQ(t.baseM % 16, 0);
  EXPECT_EQ(t.baseN % 16, 0);
  EXPECT_EQ(t.baseK % kal, 0);
  EXPECT_LE(int64_t{t.baseM} * t.baseK * bits / 8, cb.l0a_bytes / 2);
  EXPECT_LE(int64_t{t.baseN} * t.baseK * bits / 8, cb.l0b_bytes / 2);
  EXPECT_LE(int64_t{t.baseM} * t.baseN * 4, cb.l0c_bytes);
  if (r.bias) {
    EXPECT_LE(t.baseN * 4, static_cast<int32_t>(cb.bt_bytes));
  }
  EXPECT_LE(t.shareL1Size, static_cast<int32_t>(cb.l1_bytes));
  EXPECT_GE(t.depthA1, t.stepM * t.stepKa);
  EXPECT_GE(t.depthB1, t.stepN * t.stepKb);
  EXPECT_LE(t.usedCoreNum, r.cores);
  const int64_t blocks = ((r.m + t.singleCoreM - 1) / t.singleCoreM) *
                         ((r.n + t.singleCoreN - 1) / t.singleCoreN) *
                         ((r.k + t.singleCoreK - 1) / t.singleCoreK);
  EXPECT_EQ(blocks, t.usedCoreNum);
  if (!r.split_k) {
    EXPECT_EQ(t.singleCoreK, r.k);
  }
  EXPECT_EQ(t.isBias, r.bias ? 1 : 0);
}

TEST(MatmulTiling, ValidOnManyShapes) {
  const mt::DataType types[] = {mt::DataType::DT_FLOAT16, mt::DataType::DT_FLOAT,
                                mt::DataType::DT_INT8, mt::DataType::DT_BF16};
  for (const char* soc : {"Ascend910B1", "Ascend950PR_9589"}) {
    for (int32_t m : {1, 16, 37, 128, 1000, 4097}) {
      for (int32_t n : {1, 31, 256, 2048}) {
        for (int32_t k : {1, 15, 64, 1024, 9999}) {
          for (mt::DataType ty : types) {
            for (int32_t cores : {1, 7, 24}) {
              SCOPED_TRACE(std::string(soc) + " " + std::to_string(m) + "x" + std::to_string(n) +
                           "x" + std::to_string(k) + " cores " + std::to_string(cores));
              ExpectValid(soc, {m, n, k, ty, (m + n) % 2 == 0, cores, k > 512});
            }
          }
        }
      }
    }
  }
}

TEST(MatmulTiling, ImpossibleRequestsReturnMinusOne) {
  mt::MatmulApiTiling api;
  api.SetAType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_FLOAT16);
  api.SetBType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_FLOAT16);
  optiling::TCubeTiling t;
  api.SetShape(0, 16, 16);
  EXPECT_EQ(api.GetTiling(t), -1);
  api.SetShape(32, 32, 32);
  api.SetOrgShape(16, 32, 32);
  EXPECT_EQ(api.GetTiling(t), -1);  // the original shape is smaller
  api.SetOrgShape(32, 32, 32);
  api.SetBType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_INT64);
  EXPECT_EQ(api.GetTiling(t), -1);  // not a cube type
  api.SetBType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_FLOAT16);
  api.SetFixSplit(24, 32, 32);
  EXPECT_EQ(api.GetTiling(t), -1);  // baseM not 16-aligned
  api.SetFixSplit(-1, -1, -1);
  api.SetBufferSpace(1000);
  EXPECT_EQ(api.GetTiling(t), -1);  // one block of A and B does not fit 1000 bytes of L1
  api.SetBufferSpace(-1);
  EXPECT_EQ(api.GetTiling(t), 0);
  EXPECT_EQ(t.get_usedCoreNum(), 1);
  EXPECT_EQ(t.get_baseM(), 32);
}

}  // namespace
