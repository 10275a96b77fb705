// The Matmul's second-step forms on one block: COLUMN_MAJOR A, B and C, the channel split of a
// float NZ C, the triangle policies, the asynchronous Iterate<false>/GetTensorC<false>, A from a
// local tensor, 4-bit inputs, a copy callback, and the configuration functions (GetMMConfig's
// groups, field by field from the reference's list). C against a float64 oracle (bound as in
// matmul_test.cpp), read through a separate reading of each layout written here.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
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

constexpr int32_t kM = 70, kN = 90, kK = 100;

TCubeTiling TilingOf(const char* soc, mt::CubeFormat ab, mt::CubeFormat c, int32_t base_m = -1,
                     int32_t base_n = -1) {
  auto* platform = platform_ascendc::PlatformAscendCManager::GetInstance(soc);
  mt::MultiCoreMatmulTiling api(*platform);
  api.SetDim(1);
  api.SetAType(mt::TPosition::GM, ab, mt::DataType::DT_FLOAT16);
  api.SetBType(mt::TPosition::GM, ab, mt::DataType::DT_FLOAT16);
  api.SetCType(mt::TPosition::GM, c, mt::DataType::DT_FLOAT);
  api.SetBiasType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_FLOAT);
  api.SetOrgShape(kM, kN, kK);
  api.SetShape(kM, kN, kK);
  api.EnableBias(false);
  api.SetFixSplit(base_m, base_n, -1);
  TCubeTiling t;
  EXPECT_EQ(api.GetTiling(t), 0);
  return t;
}

std::string RunKernel(const char* soc, const std::function<void()>& kernel) {
  return lngrad::matmul_test::RunOneCore(soc, "matmul", kernel);
}

// A (kM x kK) and B (kK x kN) as logical matrices, and their float64 product with its bound.
struct Problem : lngrad::matmul_test::HalfProduct {
  Problem() : HalfProduct(kM, kK, kN, 3) {}
  // The transpose of a rows x cols row-major matrix (the COLUMN_MAJOR image).
  template <typename T>
  static std::vector<T> Transposed(const std::vector<T>& v, int32_t rows, int32_t cols) {
    std::vector<T> t(v.size());
    for (int32_t r = 0; r < rows; ++r)
      for (int32_t c = 0; c < cols; ++c) t[size_t(c) * rows + r] = v[size_t(r) * cols + c];
    return t;
  }
};

// got(i, j) within the oracle's bound for every element.
void ExpectC(const Problem& p, const std::function<float(int32_t, int32_t)>& got) {
  for (int32_t i = 0; i < kM; ++i)
    for (int32_t j = 0; j < kN; ++j)
      ASSERT_LE(std::fabs(got(i, j) - p.c[size_t(i) * kN + j]), p.bound[size_t(i) * kN + j])
          << i << "," << j;
}

using HalfNd = AscendC::MatmulType<TPosition::GM, CubeFormat::ND, half>;
using FloatNd = AscendC::MatmulType<TPosition::GM, CubeFormat::ND, float>;

// C = A x B by IterateAll on one block of soc, with the Matmul's types, configuration and policy.
template <class AT, class CT, const auto& CFG = CFG_NORM,
          template <const auto&, typename...> class Policy = AscendC::Impl::Detail::MatmulPolicy>
std::string IterateAll(const char* soc, const TCubeTiling& t, std::vector<half>& a,
                       std::vector<half>& b, std::vector<float>& c) {
  return RunKernel(soc, [&] {
    AscendC::Matmul<AT, AT, CT, FloatNd, CFG,
                    AscendC::MatmulCallBackFunc<nullptr, nullptr, nullptr>, Policy>
        mm;
    AscendC::TPipe pipe;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    AscendC::GlobalTensor<half> ga, gb;
    AscendC::GlobalTensor<float> gc;
    ga.SetGlobalBuffer(a.data(), a.size());
    gb.SetGlobalBuffer(b.data(), b.size());
    gc.SetGlobalBuffer(c.data(), c.size());
    mm.SetTensorA(ga);
    mm.SetTensorB(gb);
    mm.IterateAll(gc);
    mm.End();
  });
}

TEST(MatmulForms, ColumnMajorABAndC) {
  const Problem p;
  std::vector<half> a = Problem::Transposed(p.a, kM, kK), b = Problem::Transposed(p.b, kK, kN);
  std::vector<float> c(size_t{kM} * kN, -1.0f);
  const TCubeTiling t = TilingOf("Ascend950PR_9589", mt::CubeFormat::COLUMN_MAJOR,
                                 mt::CubeFormat::COLUMN_MAJOR, 32, 48);
  using HalfCol = AscendC::MatmulType<TPosition::GM, CubeFormat::COLUMN_MAJOR, half>;
  using FloatCol = AscendC::MatmulType<TPosition::GM, CubeFormat::COLUMN_MAJOR, float>;
  EXPECT_EQ((IterateAll<HalfCol, FloatCol>("Ascend950PR_9589", t, a, b, c)), "");
  ExpectC(p, [&](int32_t i, int32_t j) { return c[size_t(j) * kM + i]; });
}

// Float NZ C with isEnableChannelSplit: blocks of 8 columns, M aligned to 16 rows.
constexpr MatmulConfig ChannelSplitConfig() {
  MatmulConfig cfg = CFG_NORM;
  cfg.isEnableChannelSplit = true;
  return cfg;
}
constexpr MatmulConfig kChannelSplit = ChannelSplitConfig();

TEST(MatmulForms, ChannelSplitWritesEightColumnBlocks) {
  const Problem p;
  std::vector<half> a = p.a, b = p.b;
  const int32_t am = (kM + 15) / 16 * 16, an = (kN + 7) / 8 * 8;
  std::vector<float> c(size_t(am) * an, -1.0f);
  const TCubeTiling t = TilingOf("Ascend910B1", mt::CubeFormat::ND, mt::CubeFormat::NZ, 32, 48);
  using FloatNz = AscendC::MatmulType<TPosition::GM, CubeFormat::NZ, float>;
  EXPECT_EQ((IterateAll<HalfNd, FloatNz, kChannelSplit>("Ascend910B1", t, a, b, c)), "");
  ExpectC(p,
          [&](int32_t i, int32_t j) { return c[size_t(j / 8) * am * 8 + size_t(i) * 8 + j % 8]; });
}

// C by IterateAll with the given policy, from C's initial -7 everywhere.
template <template <const auto&, typename...> class Policy>
std::vector<float> RunPolicy(const Problem& p, const TCubeTiling& t) {
  std::vector<half> a = p.a, b = p.b;
  std::vector<float> c(size_t{kM} * kN, -7.0f);
  EXPECT_EQ((IterateAll<HalfNd, FloatNd, CFG_NORM, Policy>("Ascend910B1", t, a, b, c)), "");
  return c;
}

// Upper: base blocks (mi, ni) with ni >= mi; lower: ni <= mi; the others keep C's contents.
TEST(MatmulForms, TrianglePoliciesComputeTheirHalfOfTheBlocks) {
  const Problem p;
  const TCubeTiling t = TilingOf("Ascend910B1", mt::CubeFormat::ND, mt::CubeFormat::ND, 16, 16);
  ASSERT_EQ(t.baseM, 16);
  ASSERT_EQ(t.baseN, 16);
  const auto upper = RunPolicy<AscendC::Impl::Detail::TrianUpperMatmulPolicy>(p, t);
  const auto lower = RunPolicy<AscendC::Impl::Detail::TrianLowerMatmulPolicy>(p, t);
  const auto all = RunPolicy<AscendC::Impl::Detail::NBuffer33MatmulPolicy>(p, t);
  ExpectC(p, [&](int32_t i, int32_t j) { return all[size_t(i) * kN + j]; });
  for (int32_t i = 0; i < kM; ++i) {
    for (int32_t j = 0; j < kN; ++j) {
      const size_t at = size_t(i) * kN + j;
      EXPECT_EQ(upper[at], j / 16 >= i / 16 ? all[at] : -7.0f) << i << "," << j;
      EXPECT_EQ(lower[at], j / 16 <= i / 16 ? all[at] : -7.0f) << i << "," << j;
    }
  }
}

// Iterate<false> then one GetTensorC<false> per block gives IterateAll's bits; A from a VECIN
// tensor; a GetTensorC<false> past the last block is a usage error.
TEST(MatmulForms, AsynchronousIterateAndLocalA) {
  const Problem p;
  const TCubeTiling t = TilingOf("Ascend910B1", mt::CubeFormat::ND, mt::CubeFormat::ND, 32, 48);
  const auto want = RunPolicy<AscendC::Impl::Detail::MatmulPolicy>(p, t);
  std::vector<half> a = p.a, b = p.b;
  std::vector<float> c(size_t{kM} * kN, 0.0f);
  const uint32_t blocks = ((kM + 31) / 32) * ((kN + 47) / 48);
  const std::string r = RunKernel("Ascend910B1", [&] {
    using HalfIn = AscendC::MatmulType<TPosition::VECIN, CubeFormat::ND, half>;
    AscendC::Matmul<HalfIn, HalfNd, FloatNd> mm;
    AscendC::TPipe pipe;
    AscendC::TBuf<TPosition::VECIN> abuf;
    pipe.InitBuffer(abuf, kM * kK * 2);
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    AscendC::LocalTensor<half> la = abuf.Get<half>();
    for (int32_t i = 0; i < kM * kK; ++i) la.SetValue(i, a[i]);
    AscendC::GlobalTensor<half> gb;
    AscendC::GlobalTensor<float> gc;
    gb.SetGlobalBuffer(b.data(), b.size());
    gc.SetGlobalBuffer(c.data(), c.size());
    mm.SetTensorA(la);
    mm.SetTensorB(gb);
    mm.template Iterate<false>();
    for (uint32_t i = 0; i < blocks; ++i) mm.template GetTensorC<false>(gc);
    mm.template GetTensorC<false>(gc);  // one too many
  });
  EXPECT_NE(r.find("every block of C was already taken"), std::string::npos) << r;
  EXPECT_EQ(std::memcmp(c.data(), want.data(), c.size() * 4), 0);
}

// int8 A and B to half C: C = half(float(exact int32 sum) x M1), M1 the scale's sign, exponent
// and 10 mantissa bits (bits 13..31), one scale (SetQuantScalar) or one per column
// (SetQuantVector); a separate reading of the reference's dequantisation.
TEST(MatmulForms, DequantisesInt8ToHalf) {
  constexpr int32_t m = 40, n = 50, k = 64;
  auto* platform = platform_ascendc::PlatformAscendCManager::GetInstance("Ascend910B1");
  mt::MultiCoreMatmulTiling api(*platform);
  api.SetDim(1);
  api.SetAType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_INT8);
  api.SetBType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_INT8);
  api.SetCType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_FLOAT16);
  api.SetBiasType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_INT32);
  api.SetOrgShape(m, n, k);
  api.SetShape(m, n, k);
  api.EnableBias(false);
  TCubeTiling t;
  ASSERT_EQ(api.GetTiling(t), 0);
  std::mt19937 g(5);
  std::vector<int8_t> a(m * k), b(k * n);
  for (auto& x : a) x = static_cast<int8_t>(static_cast<int>(g() % 255) - 127);
  for (auto& x : b) x = static_cast<int8_t>(static_cast<int>(g() % 255) - 127);
  std::vector<uint64_t> scales(n);
  for (int32_t j = 0; j < n; ++j) {
    const float f = 0.001f * static_cast<float>(j + 1) + 1e-7f;  // mantissa bits below bit 13
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    scales[j] = bits;
  }
  for (bool vector : {false, true}) {
    std::vector<half> c(m * n, half(0.0f));
    EXPECT_EQ(RunKernel("Ascend910B1",
                        [&] {
                          using I8 = AscendC::MatmulType<TPosition::GM, CubeFormat::ND, int8_t>;
                          using H = AscendC::MatmulType<TPosition::GM, CubeFormat::ND, half>;
                          using I32 = AscendC::MatmulType<TPosition::GM, CubeFormat::ND, int32_t>;
                          AscendC::Matmul<I8, I8, H, I32> mm;
                          AscendC::TPipe pipe;
                          REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
                          AscendC::GlobalTensor<int8_t> ga, gb;
                          AscendC::GlobalTensor<half> gc;
                          AscendC::GlobalTensor<uint64_t> gq;
                          ga.SetGlobalBuffer(a.data(), a.size());
                          gb.SetGlobalBuffer(b.data(), b.size());
                          gc.SetGlobalBuffer(c.data(), c.size());
                          gq.SetGlobalBuffer(scales.data(), scales.size());
                          if (vector) {
                            mm.SetQuantVector(gq);
                          } else {
                            mm.SetQuantScalar(scales[6]);
                          }
                          mm.SetTensorA(ga);
                          mm.SetTensorB(gb);
                          mm.IterateAll(gc);
                          mm.End();
                        }),
              "");
    for (int32_t i = 0; i < m; ++i) {
      for (int32_t j = 0; j < n; ++j) {
        int32_t sum = 0;
        for (int32_t q = 0; q < k; ++q) sum += int32_t{a[i * k + q]} * b[q * n + j];
        const auto bits = static_cast<uint32_t>(scales[vector ? j : 6]) & 0xFFFFE000u;
        float m1;
        std::memcpy(&m1, &bits, 4);
        const half want(static_cast<float>(sum) * m1);
        ASSERT_EQ(static_cast<float>(c[i * n + j]), static_cast<float>(want))
            << i << "," << j << (vector ? " vector" : " scalar");
      }
    }
  }
}

// GetMMConfig: the mode's configuration, then each group's fields in argument order.
TEST(MatmulForms, ConfigurationFunctions) {
  constexpr MatmulConfig cfg = GetMMConfig<MatmulConfigMode::CONFIG_MDL>(
      MatmulShapeParams{128, 256, 64, 64, 128, 32},
      MatmulFuncParams{false, false, false, false, 2, IterateOrder::ORDER_N,
                       ScheduleType::OUTER_PRODUCT, true, true, false, true});
  static_assert(cfg.doMultiDataLoad && !cfg.doNorm);
  static_assert(cfg.singleCoreM == 128 && cfg.singleCoreN == 256 && cfg.singleCoreK == 64);
  static_assert(cfg.basicM == 64 && cfg.basicN == 128 && cfg.basicK == 32);
  static_assert(cfg.doMTE2Preload == 2 && cfg.iterateOrder == IterateOrder::ORDER_N);
  static_assert(cfg.scheduleType == ScheduleType::OUTER_PRODUCT && cfg.isA2B2Shared);
  static_assert(GetMDLConfig(false, false, 1).doMTE2Preload == 1);
  static_assert(GetNormalConfig().doNorm && CFG_NORM.enUnitFlag && !CFG_MDL.enUnitFlag);
  static_assert(MM_CFG_BB.doBasicBlock && MM_CFG_BB.basicM == 128);
  static_assert(CFG_IBSHARE_NORM.doIBShareNorm && GetSpecialMDLConfig().doSpecialMDL);
  constexpr MatmulConfig bias = GetMMConfig<MatmulConfigMode::CONFIG_NORM>(MatmulBiasParams{false});
  static_assert(!bias.enableSetBias && bias.doNorm);
  SUCCEED();
}

// 4-bit A and B (int4b_t, two to a byte, the even element in the low nibble) to int32 C, with B
// stored transposed and A taken from an element offset (GlobalTensor<int4b_t>[] steps half a
// byte per element): the exact sums of a scalar int64 model.
TEST(MatmulForms, Int4InputsGiveExactSums) {
  constexpr int32_t m = 40, n = 36, k = 128, skip = 64;  // A starts `skip` elements in
  auto* platform = platform_ascendc::PlatformAscendCManager::GetInstance("Ascend910B1");
  mt::MultiCoreMatmulTiling api(*platform);
  api.SetDim(1);
  api.SetAType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_INT4);
  api.SetBType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_INT4, true);
  api.SetCType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_INT32);
  api.SetOrgShape(m, n, k);
  api.SetShape(m, n, k);
  api.SetFixSplit(16, 16, -1);
  TCubeTiling t;
  ASSERT_EQ(api.GetTiling(t), 0);
  std::mt19937 g(9);
  std::uniform_int_distribution<int> d(-8, 7);
  std::vector<int8_t> av(size_t{m} * k), bv(size_t{n} * k);  // A m x k, B stored n x k
  for (auto& x : av) x = static_cast<int8_t>(d(g));
  for (auto& x : bv) x = static_cast<int8_t>(d(g));
  auto pack = [](const std::vector<int8_t>& v, size_t lead) {
    std::vector<uint8_t> p(lead / 2 + v.size() / 2, 0xEE);
    for (size_t i = 0; i < v.size(); ++i) {
      const size_t e = lead + i;
      const uint8_t nib = static_cast<uint8_t>(v[i]) & 0xFu;
      p[e / 2] = static_cast<uint8_t>(e % 2 == 0 ? (p[e / 2] & 0xF0u) | nib
                                                 : (p[e / 2] & 0x0Fu) | (nib << 4));
    }
    return p;
  };
  std::vector<uint8_t> a = pack(av, skip), b = pack(bv, 0);
  std::vector<int32_t> c(size_t{m} * n, -1);
  const std::string r = RunKernel("Ascend910B1", [&] {
    using S4 = AscendC::MatmulType<TPosition::GM, CubeFormat::ND, AscendC::int4b_t>;
    using S4T = AscendC::MatmulType<TPosition::GM, CubeFormat::ND, AscendC::int4b_t, true>;
    using I32 = AscendC::MatmulType<TPosition::GM, CubeFormat::ND, int32_t>;
    AscendC::Matmul<S4, S4T, I32, I32> mm;
    AscendC::TPipe pipe;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    AscendC::GlobalTensor<AscendC::int4b_t> ga, gb;
    AscendC::GlobalTensor<int32_t> gc;
    ga.SetGlobalBuffer(reinterpret_cast<AscendC::int4b_t*>(a.data()), a.size() * 2);
    gb.SetGlobalBuffer(reinterpret_cast<AscendC::int4b_t*>(b.data()), b.size() * 2);
    gc.SetGlobalBuffer(c.data(), c.size());
    mm.SetTensorA(ga[skip]);
    mm.SetTensorB(gb, true);
    mm.IterateAll(gc);
    mm.End();
  });
  EXPECT_EQ(r, "");
  for (int32_t i = 0; i < m; ++i) {
    for (int32_t j = 0; j < n; ++j) {
      int64_t s = 0;
      for (int32_t q = 0; q < k; ++q) s += int64_t{av[size_t(i) * k + q]} * bv[size_t(j) * k + q];
      ASSERT_EQ(c[size_t(i) * n + j], s) << i << "," << j;
    }
  }
}

// A copy callback (MatmulCallBackFunc's CopyA1): called for each block's K slice with the L1
// tile, A's address as set, the tile's (row, col) in base blocks, its extents and the two user
// values; it fills the tile in NZ itself (here from A with DataCopy's Nd2Nz), and C is A x B.
struct CallbackSeen {
  int row, col, m, k;
  uint64_t info, data;
};
std::vector<CallbackSeen> g_seen;  // one block at a time: no lock
void CopyAInto(const AscendC::LocalTensor<int8_t>& l1, const __gm__ void* gm, int row, int col,
               int useM, int useK, uint64_t info, uint64_t data) {
  g_seen.push_back({row, col, useM, useK, info, data});
  AscendC::GlobalTensor<half> a;
  a.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(const_cast<void*>(gm)));
  AscendC::Nd2NzParams p;
  p.ndNum = 1;
  p.nValue = static_cast<uint16_t>(useM);
  p.dValue = static_cast<uint16_t>(useK);
  p.srcNdMatrixStride = 0;
  p.srcDValue = static_cast<uint16_t>(info);  // A's row pitch, passed as SetUserDefInfo
  p.dstNzC0Stride = static_cast<uint16_t>((useM + 15) / 16 * 16);
  p.dstNzNStride = 1;
  p.dstNzMatrixStride = 0;
  AscendC::DataCopy(l1.ReinterpretCast<half>(), a[size_t(row) * 32 * info + size_t(col) * 32], p);
}

TEST(MatmulForms, CopyCallbackFillsTheL1TileOfEachSlice) {
  const Problem p;
  const TCubeTiling t = TilingOf("Ascend910B1", mt::CubeFormat::ND, mt::CubeFormat::ND, 32, 48);
  TCubeTiling tk = t;
  tk.baseK = 32;
  std::vector<half> a = p.a, b = p.b;
  std::vector<float> c(size_t{kM} * kN, NAN);
  g_seen.clear();
  const std::string r = RunKernel("Ascend910B1", [&] {
    AscendC::Matmul<HalfNd, HalfNd, FloatNd, FloatNd, CFG_NORM,
                    AscendC::MatmulCallBackFunc<nullptr, CopyAInto, nullptr>>
        mm;
    AscendC::TPipe pipe;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tk);
    AscendC::GlobalTensor<half> ga, gb;
    AscendC::GlobalTensor<float> gc;
    ga.SetGlobalBuffer(a.data(), a.size());
    gb.SetGlobalBuffer(b.data(), b.size());
    gc.SetGlobalBuffer(c.data(), c.size());
    mm.SetUserDefInfo(kK);
    mm.SetSelfDefineData(0x1234);
    mm.SetTensorA(ga);
    mm.SetTensorB(gb);
    mm.IterateAll(gc);
    mm.End();
  });
  EXPECT_EQ(r, "");
  ExpectC(p, [&](int32_t i, int32_t j) { return c[size_t(i) * kN + j]; });
  const uint32_t kit = (kK + 31) / 32, blocks = ((kM + 31) / 32) * ((kN + 47) / 48);
  ASSERT_EQ(g_seen.size(), blocks * kit);
  EXPECT_EQ(g_seen[0].col, 0);
  EXPECT_EQ(g_seen[kit - 1].col, static_cast<int>(kit - 1));
  EXPECT_EQ(g_seen[kit - 1].k, kK - static_cast<int>(kit - 1) * 32);
  ASSERT_EQ(tk.iterateOrder, 0);
  EXPECT_EQ(g_seen[kit].row, 1);  // the next block down M
  EXPECT_EQ(g_seen[kit].m, 32);
  EXPECT_EQ(g_seen[2 * kit].m, kM - 64);  // the M tail
  EXPECT_EQ(g_seen[0].info, uint64_t{kK});
  EXPECT_EQ(g_seen[0].data, 0x1234u);
}

}  // namespace
