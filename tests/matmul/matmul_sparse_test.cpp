// The 2:4 sparse Matmul (SparseMatmulType, SetSparseIndex): int8 A times a B that keeps two of
// every four K values, with the index matrix in the reference's NZ layout, built here from a
// logical sparse B; C bit-exactly against the int32 product of A and that logical B (+ bias),
// on tail blocks and two K slices.
#include <gtest/gtest.h>

#include <cstdint>
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

constexpr int32_t kM = 40, kN = 40, kK = 256;

struct Sparse {
  std::vector<int8_t> a, dense;  // A m x k; B's kept values, n x k / 2
  std::vector<uint8_t> index;    // NZ: 16 columns x 8 bytes a fractal
  std::vector<int32_t> bias, c;
  explicit Sparse(unsigned seed)
      : a(size_t(kM) * kK),
        dense(size_t(kN) * kK / 2),
        index(size_t(kN + 15) / 16 * 16 * kK / 8),
        bias(kN),
        c(size_t(kM) * kN) {
    std::mt19937 g(seed);
    for (auto& x : a) x = static_cast<int8_t>(int(g() % 11) - 5);
    for (auto& x : bias) x = int(g() % 7) - 3;
    std::vector<int8_t> logical(size_t(kN) * kK, 0);  // B transposed: n x k
    const int32_t ld = (kN + 15) / 16 * 16;
    for (int32_t n = 0; n < kN; ++n) {
      for (int32_t q = 0; q < kK / 4; ++q) {
        const int32_t p0 = int(g() % 3), p1 = p0 + 1 + int(g() % (3 - p0));  // p0 < p1 < 4
        const int32_t kept[2] = {p0, p1}, codes[2] = {p0, p1 - 1};
        for (int32_t t = 0; t < 2; ++t) {
          const auto v = static_cast<int8_t>(int(g() % 9) - 4);
          logical[size_t(n) * kK + q * 4 + kept[t]] = v;
          dense[size_t(n) * kK / 2 + q * 2 + t] = v;
          const int32_t e = q * 2 + t, byte = e / 4;
          index[(size_t(byte / 8) * ld + n) * 8 + byte % 8] |=
              static_cast<uint8_t>(codes[t] << (2 * (e % 4)));
        }
      }
    }
    for (int32_t i = 0; i < kM; ++i) {
      for (int32_t n = 0; n < kN; ++n) {
        int32_t s = bias[n];
        for (int32_t k = 0; k < kK; ++k) s += a[size_t(i) * kK + k] * logical[size_t(n) * kK + k];
        c[size_t(i) * kN + n] = s;
      }
    }
  }
};

TEST(MatmulSparse, TwoOfFourKValuesByTheIndexMatrix) {
  Sparse p(21);
  auto* platform = platform_ascendc::PlatformAscendCManager::GetInstance("Ascend910B1");
  mt::MultiCoreMatmulTiling api(*platform);
  api.SetDim(1);
  api.SetAType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_INT8);
  api.SetBType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_INT8, true);
  api.SetCType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_INT32);
  api.SetBiasType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_INT32);
  api.SetOrgShape(kM, kN, kK);
  api.SetShape(kM, kN, kK);
  api.EnableBias(true);
  api.SetSparse(true);
  api.SetFixSplit(32, 32, 128);  // tail blocks in M and N, two K slices
  TCubeTiling t;
  ASSERT_EQ(api.GetTiling(t), 0);
  std::vector<int32_t> c(p.c.size(), -1);
  const std::string r = lngrad::matmul_test::RunOneCore("Ascend910B1", "matmul_sparse", [&] {
    AscendC::Matmul<
        AscendC::MatmulType<TPosition::GM, CubeFormat::ND, int8_t>,
        AscendC::SparseMatmulType<TPosition::GM, TPosition::GM, CubeFormat::ND, int8_t, true>,
        AscendC::MatmulType<TPosition::GM, CubeFormat::ND, int32_t>,
        AscendC::MatmulType<TPosition::GM, CubeFormat::ND, int32_t>, CFG_MDL>
        mm;
    AscendC::TPipe pipe;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    AscendC::GlobalTensor<int8_t> ga, gb;
    AscendC::GlobalTensor<uint8_t> gi;
    AscendC::GlobalTensor<int32_t> gc, gbias;
    ga.SetGlobalBuffer(p.a.data(), p.a.size());
    gb.SetGlobalBuffer(p.dense.data(), p.dense.size());
    gi.SetGlobalBuffer(p.index.data(), p.index.size());
    gc.SetGlobalBuffer(c.data(), c.size());
    gbias.SetGlobalBuffer(p.bias.data(), p.bias.size());
    mm.SetTensorA(ga);
    mm.SetTensorB(gb, true);
    mm.SetSparseIndex(gi);
    mm.SetBias(gbias);
    mm.IterateAll(gc);
    mm.End();
  });
  ASSERT_EQ(r, "");
  EXPECT_EQ(c, p.c);
}

}  // namespace
