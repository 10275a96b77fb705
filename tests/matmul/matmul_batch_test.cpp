// Batch Matmul: the host's layout setters (SetALayout/SetBLayout/SetCLayout, SetBatchNum,
// SetBatchInfoForNormal) field by field, and IterateBatch/IterateNBatch in the NORMAL and BSNGD
// layouts (A's batches broadcast over B's, a bias per batch or one for all) against a float64
// oracle with the bound of matmul_test.cpp (2^-24 (2K + 1) sum |a b|). The layouts' element
// positions are read from the reference's pictures and written out here (Index below).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "lib/matmul_intf.h"
#include "tiling/tiling_api.h"
#include "matmul_test_support.h"

namespace {

using AscendC::TPosition;
namespace mt = matmul_tiling;

constexpr int32_t kM = 20, kN = 24, kK = 40, kG = 3;

TEST(MatmulBatchTiling, LayoutSettersFillTheTilingsFields) {
  auto* platform = platform_ascendc::PlatformAscendCManager::GetInstance("Ascend910B1");
  mt::BatchMatmulTiling api(*platform);
  api.SetAType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_FLOAT16);
  api.SetBType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_FLOAT16);
  api.SetCType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_FLOAT);
  api.SetShape(kM, kN, kK);
  api.SetOrgShape(kM, kN, kK);
  EXPECT_EQ(api.SetBatchInfoForNormal(2, 4, kM, kN, kK), 0);
  EXPECT_EQ(api.SetBatchNum(4), 0);
  TCubeTiling t;
  ASSERT_EQ(api.GetTiling(t), 0);
  EXPECT_EQ(t.usedCoreNum, 1);
  const int32_t want[15] = {2, kM, 1, 1, kK, 4, kN, 1, 1, kK, 4, kM, 1, 1, kN};
  const int32_t got[15] = {t.ALayoutInfoB, t.ALayoutInfoS, t.ALayoutInfoN, t.ALayoutInfoG,
                           t.ALayoutInfoD, t.BLayoutInfoB, t.BLayoutInfoS, t.BLayoutInfoN,
                           t.BLayoutInfoG, t.BLayoutInfoD, t.CLayoutInfoB, t.CLayoutInfoS1,
                           t.CLayoutInfoN, t.CLayoutInfoG, t.CLayoutInfoS2};
  for (int i = 0; i < 15; ++i) EXPECT_EQ(got[i], want[i]) << i;
  EXPECT_EQ(t.BatchNum, 4);
  EXPECT_EQ(api.SetALayout(1, 2, 0, 1, 1), -1);
  EXPECT_EQ(api.SetBatchNum(0), -1);
}

TCubeTiling TilingOf(int32_t batch, const int32_t (&a)[5], const int32_t (&b)[5],
                     const int32_t (&c)[5], bool bias, bool trans_b) {
  auto* platform = platform_ascendc::PlatformAscendCManager::GetInstance("Ascend910B1");
  mt::MultiCoreMatmulTiling api(*platform);
  api.SetDim(1);
  api.SetAType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_FLOAT16);
  api.SetBType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_FLOAT16, trans_b);
  api.SetCType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_FLOAT);
  api.SetBiasType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_FLOAT);
  api.SetShape(kM, kN, kK);
  api.SetOrgShape(kM, kN, kK);
  api.EnableBias(bias);
  api.SetFixSplit(16, 16, -1);  // several blocks per matrix, with tails
  api.SetALayout(a[0], a[1], a[2], a[3], a[4]);
  api.SetBLayout(b[0], b[1], b[2], b[3], b[4]);
  api.SetCLayout(c[0], c[1], c[2], c[3], c[4]);
  api.SetBatchNum(batch);
  TCubeTiling t;
  EXPECT_EQ(api.GetTiling(t), 0);
  return t;
}

std::string RunBlock(const std::function<void()>& kernel) {
  return lngrad::matmul_test::RunOneCore("Ascend910B1", "batch", kernel);
}

std::vector<half> Random(size_t n, unsigned seed) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<float> d(-2.0f, 2.0f);
  std::vector<half> v(n);
  for (auto& x : v) x = half(d(g));
  return v;
}

// C[c](i, j) = sum_k A[a(c)](i, k) B[b(c)](k, j) + bias, through each matrix's element index.
using Index = std::function<size_t(int32_t batch, int32_t row, int32_t col)>;
void ExpectBatches(int32_t batch_c, const std::vector<half>& a, const Index& ai,
                   const std::vector<half>& b, const Index& bi, const std::vector<float>& c,
                   const Index& ci, const std::function<int32_t(int32_t)>& a_of,
                   const std::function<double(int32_t, int32_t)>& bias) {
  for (int32_t q = 0; q < batch_c; ++q) {
    for (int32_t i = 0; i < kM; ++i) {
      for (int32_t j = 0; j < kN; ++j) {
        double s = bias(q, j), mag = std::fabs(s);
        for (int32_t k = 0; k < kK; ++k) {
          const double p = static_cast<double>(static_cast<float>(a[ai(a_of(q), i, k)])) *
                           static_cast<float>(b[bi(q, k, j)]);
          s += p;
          mag += std::fabs(p);
        }
        ASSERT_LE(std::fabs(c[ci(q, i, j)] - s), std::ldexp(1.0, -24) * (2.0 * kK + 2) * mag)
            << q << " " << i << " " << j;
      }
    }
  }
}

// NORMAL: 2 A matrices broadcast over 4 B matrices (A 0 for C 0 and 1, A 1 for C 2 and 3),
// with one bias row per batch.
TEST(MatmulBatch, NormalLayoutBroadcastsAAndTakesABiasPerBatch) {
  const TCubeTiling t =
      TilingOf(4, {2, kM, 1, 1, kK}, {4, kN, 1, 1, kK}, {4, kM, 1, 1, kN}, true, false);
  std::vector<half> a = Random(2 * kM * kK, 1), b = Random(4 * kK * kN, 2);
  std::vector<float> bias(4 * kN), c(4 * kM * kN, NAN);
  for (size_t i = 0; i < bias.size(); ++i) bias[i] = static_cast<float>(i % 7) - 3.0f;
  using T = LayoutMode;
  const std::string r = RunBlock([&] {
    AscendC::Matmul<AscendC::MatmulType<TPosition::GM, CubeFormat::ND, half, false, T::NORMAL>,
                    AscendC::MatmulType<TPosition::GM, CubeFormat::ND, half, false, T::NORMAL>,
                    AscendC::MatmulType<TPosition::GM, CubeFormat::ND, float, false, T::NORMAL>,
                    AscendC::MatmulType<TPosition::GM, CubeFormat::ND, float>>
        mm;
    AscendC::TPipe pipe;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    AscendC::GlobalTensor<half> ga, gb;
    AscendC::GlobalTensor<float> gc, gbias;
    ga.SetGlobalBuffer(a.data(), a.size());
    gb.SetGlobalBuffer(b.data(), b.size());
    gc.SetGlobalBuffer(c.data(), c.size());
    gbias.SetGlobalBuffer(bias.data(), bias.size());
    mm.SetTensorA(ga);
    mm.SetTensorB(gb);
    mm.SetBias(gbias);
    mm.IterateBatch(gc, 2, 4, false);
  });
  EXPECT_EQ(r, "");
  ExpectBatches(
      4, a, [](int32_t q, int32_t i, int32_t k) { return size_t(q) * kM * kK + i * kK + k; }, b,
      [](int32_t q, int32_t k, int32_t j) { return size_t(q) * kK * kN + k * kN + j; }, c,
      [](int32_t q, int32_t i, int32_t j) { return size_t(q) * kM * kN + i * kN + j; },
      [](int32_t q) { return q / 2; }, [&](int32_t q, int32_t j) { return bias[q * kN + j]; });
}

// BSNGD (B = 2, N = 1, G = 3): A[b][s][g][d], B transposed [b][n][g][k], C[b][m][g][n]; each of
// the 2 IterateNBatch steps takes the G = 3 heads of one b into the workspace.
TEST(MatmulBatch, BsngdLayoutsThroughIterateNBatch) {
  const TCubeTiling t =
      TilingOf(kG, {2, kM, 1, kG, kK}, {2, kN, 1, kG, kK}, {2, kM, 1, kG, kN}, false, true);
  std::vector<half> a = Random(2 * kM * kG * kK, 3), b = Random(2 * kN * kG * kK, 4);
  std::vector<float> c(2 * kM * kG * kN, NAN);
  using T = LayoutMode;
  const std::string r = RunBlock([&] {
    AscendC::Matmul<AscendC::MatmulType<TPosition::GM, CubeFormat::ND, half, false, T::BSNGD>,
                    AscendC::MatmulType<TPosition::GM, CubeFormat::ND, half, true, T::BSNGD>,
                    AscendC::MatmulType<TPosition::GM, CubeFormat::ND, float, false, T::BSNGD>,
                    AscendC::MatmulType<TPosition::GM, CubeFormat::ND, float>>
        mm;
    AscendC::TPipe pipe;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    AscendC::GlobalTensor<half> ga, gb;
    AscendC::GlobalTensor<float> gc;
    ga.SetGlobalBuffer(a.data(), a.size());
    gb.SetGlobalBuffer(b.data(), b.size());
    gc.SetGlobalBuffer(c.data(), c.size());
    mm.SetTensorA(ga);
    mm.SetTensorB(gb, true);
    mm.SetWorkspace(gc);
    mm.IterateNBatch(2, kG, kG, false);
  });
  EXPECT_EQ(r, "");
  // Batch q = b * G + g.
  ExpectBatches(
      2 * kG, a,
      [](int32_t q, int32_t i, int32_t k) {
        return ((size_t(q / kG) * kM + i) * kG + q % kG) * kK + k;
      },
      b,
      [](int32_t q, int32_t k, int32_t j) {
        return ((size_t(q / kG) * kN + j) * kG + q % kG) * kK + k;
      },
      c,
      [](int32_t q, int32_t i, int32_t j) {
        return ((size_t(q / kG) * kM + i) * kG + q % kG) * kN + j;
      },
      [](int32_t q) { return q; }, [](int32_t, int32_t) { return 0.0; });
}

TEST(MatmulBatch, BatchesThatDoNotDivideAreRefused) {
  const TCubeTiling t =
      TilingOf(3, {2, kM, 1, 1, kK}, {3, kN, 1, 1, kK}, {3, kM, 1, 1, kN}, false, false);
  std::vector<half> a(2 * kM * kK), b(3 * kK * kN);
  std::vector<float> c(3 * kM * kN);
  const std::string r = RunBlock([&] {
    using N = AscendC::MatmulType<TPosition::GM, CubeFormat::ND, half, false, LayoutMode::NORMAL>;
    AscendC::Matmul<N, N, AscendC::MatmulType<TPosition::GM, CubeFormat::ND, float>> mm;
    AscendC::TPipe pipe;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    AscendC::GlobalTensor<half> ga, gb;
    AscendC::GlobalTensor<float> gc;
    ga.SetGlobalBuffer(a.data(), a.size());
    gb.SetGlobalBuffer(b.data(), b.size());
    gc.SetGlobalBuffer(c.data(), c.size());
    mm.SetTensorA(ga);
    mm.SetTensorB(gb);
    mm.IterateBatch(gc, 2, 3, false);
  });
  EXPECT_NE(r.find("Matmul::IterateBatch: batchA and batchB must be at least 1 and divide the "
                   "larger of them (2 into 3)"),
            std::string::npos)
      << r;
}

}  // namespace
