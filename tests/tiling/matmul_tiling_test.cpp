// MultiCoreMatmulTiling / MatmulApiTiling: the vendor's core split; lngrad's plan always fits the
// product's L0A, L0B, L0C, BiasTable and L1, with 16-aligned baseM/baseN, baseK a multiple of one K
// fractal, consistent steps and depths, cores covering the shape; -1 for impossible requests.
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

// The vendor's multi-core split (src/tiling/matmul/matmul_tiling_dims.cpp), pinned against cases
// derived by hand from the reference implementation's dims search (matmul_tiling_algorithm.cpp:
// candidate factors, L1 load size, loops to L0, the "big package" rule, the mini-shape rule and
// the N_BUFFER_33 compute-intensity sort), not from lngrad's code. Half A and B, Atlas A2.
struct SplitCase {
  const char* what;
  int32_t m, n, k, cores;
  bool split_k, n_buffer_33;
  int32_t fix_m, fix_n;
  int32_t used, single_m, single_n, single_k;
};

TEST(MatmulTiling, VendorMultiCoreSplit) {
  const SplitCase cases[] = {
      // 32 x 32 fractals, 2 cores: (m 1, n 1) then (m 2, n 1), which sets the big package; (m 1,
      // n 2) has as many loops and the same load: M is split (00_introduction matmul_advanced_api).
      {"square", 512, 512, 128, 2, false, false, -1, -1, 2, 256, 512, 128},
      // n32 = 8 < 16 never sets the big package: the last candidate (m 1, n 2) wins
      // (matmul_leakyrelu_advanced_api, SetFixSplit(128, 64, 128) changes no dimension).
      {"narrow", 512, 128, 128, 2, false, false, 128, 64, 2, 512, 64, 128},
      // 40 x 64 fractals on 48 cores: the fewest loops to L0 (8) with the most cores is (12, 4);
      // 4 fractals of M per core need only 10 cores: 10 x 4 (matmul_async_iterate).
      {"async", 640, 1024, 512, 48, false, false, -1, -1, 40, 64, 256, 512},
      // N_BUFFER_33, base 128 x 256 x 64: mDim 1, nDim 1 .. 3; 1 and 2 have the same intensity,
      // 2 the fewer cycles per core (matmul_nbuffer33).
      {"nbuffer33", 256, 512, 192, 24, false, true, -1, -1, 2, 256, 256, 192},
      // A mini shape (2 x 2 fractals, everything in L0) takes one core.
      {"mini", 32, 32, 32, 24, false, false, -1, -1, 1, 32, 32, 32},
      // A mini shape with split K: K in two (its smallest divisor above 1) (matmul_splitk).
      {"mini split K", 16, 16, 1024, 8, true, false, -1, -1, 2, 16, 16, 512},
      // Not mini (256 K fractals): no candidate sets the big package, the last one (2, 3, 1)
      // wins, and one fractal of M and N per core leaves one core.
      {"split K, one core", 16, 16, 4096, 8, true, false, -1, -1, 1, 16, 16, 4096},
  };
  for (const SplitCase& c : cases) {
    SCOPED_TRACE(c.what);
    auto* platform = platform_ascendc::PlatformAscendCManager::GetInstance("Ascend910B1");
    mt::MultiCoreMatmulTiling api(*platform);
    api.SetDim(c.cores);
    api.SetAType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_FLOAT16);
    api.SetBType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_FLOAT16);
    api.SetCType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_FLOAT);
    api.SetOrgShape(c.m, c.n, c.k);
    api.SetShape(c.m, c.n, c.k);
    api.SetFixSplit(c.fix_m, c.fix_n, -1);
    api.EnableMultiCoreSplitK(c.split_k);
    if (c.n_buffer_33) {
      api.SetMatmulConfigParams(1, false, mt::ScheduleType::N_BUFFER_33);
    }
    TCubeTiling t;
    ASSERT_EQ(api.GetTiling(t), 0);
    EXPECT_EQ(t.usedCoreNum, c.used);
    EXPECT_EQ(t.singleCoreM, c.single_m);
    EXPECT_EQ(t.singleCoreN, c.single_n);
    EXPECT_EQ(t.singleCoreK, c.single_k);
  }
}

// N_BUFFER_33 holds at most three base blocks of K per core: more needs split K.
TEST(MatmulTiling, NBuffer33RefusesALongKWithoutSplitK) {
  auto* platform = platform_ascendc::PlatformAscendCManager::GetInstance("Ascend910B1");
  mt::MultiCoreMatmulTiling api(*platform);
  api.SetDim(24);
  api.SetAType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_FLOAT16);
  api.SetBType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_FLOAT16);
  api.SetOrgShape(256, 512, 256);
  api.SetShape(256, 512, 256);
  api.SetMatmulConfigParams(1, false, mt::ScheduleType::N_BUFFER_33);
  TCubeTiling t;
  EXPECT_EQ(api.GetTiling(t), -1);  // 4 base blocks of 64
  api.EnableMultiCoreSplitK(true);
  EXPECT_EQ(api.GetTiling(t), 0);
}

}  // namespace
