// The AIV side of mixed Matmul kernels (one AIC and two AIVs per AI core, the AIC leaving at
// REGIST_MATMUL_OBJ): SplitMMatmulPolicy and A+B IBSHARE giving each AIV of a 950 half of the
// rows of a block in its UB, A from the UB of a 950 with 32-byte rows, A+B IBSHARE on a 950
// writing C to GM from AIV 0 only, Init again without a TPipe, SyncAll among the AIVs,
// isPartialOutput's baseK slices, and the launch split of a file that names ASCENDC_CUBE_ONLY. C
// against a float64 oracle with the bound of matmul_test.cpp (2^-24 (2K + 1) sum |a b|); the row
// shares read from the reference's description (the rows rounded up to even, the first half to AIV
// 0), written out here.
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

constexpr int32_t kM = 71, kN = 40, kK = 50;
constexpr const char* k950 = "Ascend950PR_9599";

TCubeTiling TilingOf(const char* soc, int32_t base_m, int32_t base_n) {
  auto* platform = platform_ascendc::PlatformAscendCManager::GetInstance(soc);
  mt::MultiCoreMatmulTiling api(*platform);
  api.SetDim(1);
  api.SetAType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_FLOAT16);
  api.SetBType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_FLOAT16);
  api.SetCType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_FLOAT);
  api.SetBiasType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_FLOAT);
  api.SetOrgShape(kM, kN, kK);
  api.SetShape(kM, kN, kK);
  api.EnableBias(false);
  api.SetFixSplit(base_m, base_n, -1);
  TCubeTiling t;
  EXPECT_EQ(api.GetTiling(t), 0);
  return t;
}

// One AI core of soc running `kernel` on its AIC and two AIVs (a __mix__(1, 2) launch).
std::string RunMixed(const char* soc, const std::function<void()>& kernel) {
  return lngrad::matmul_test::RunOneCore(soc, "mixed", kernel,
                                         lngrad::aicore::CoreSplit{1, 2, true});
}

struct Problem : lngrad::matmul_test::HalfProduct {
  Problem() : HalfProduct(kM, kK, kN, 5) {}
  void Expect(const std::vector<float>& got) const {
    for (size_t i = 0; i < c.size(); ++i) ASSERT_LE(std::fabs(got[i] - c[i]), bound[i]) << i;
  }
};

using HalfNd = AscendC::MatmulType<TPosition::GM, CubeFormat::ND, half>;
using HalfShared =
    AscendC::MatmulType<TPosition::GM, CubeFormat::ND, half, false, LayoutMode::NONE, true>;
using FloatNd = AscendC::MatmulType<TPosition::GM, CubeFormat::ND, float>;
using FloatUb = AscendC::MatmulType<TPosition::VECIN, CubeFormat::ND_ALIGN, float>;

// Every block of C by Iterate and GetTensorC (sequential, ND_ALIGN) into each AIV's UB, each
// AIV copying the rows it holds to C at the rows `share` gives it (the kit's matmul_splitm).
template <template <const auto&, typename...> class Policy>
std::string SplitRows(const char* soc, const TCubeTiling& t, const Problem& p,
                      std::vector<float>& c,
                      const std::function<uint32_t(uint32_t m, int64_t sub)>& first) {
  return RunMixed(soc, [&] {
    AscendC::Matmul<HalfShared, HalfShared, FloatUb, FloatNd, CFG_NORM,
                    AscendC::MatmulCallBackFunc<nullptr, nullptr, nullptr>, Policy>
        mm;
    AscendC::TPipe pipe;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    AscendC::TBuf<TPosition::VECIN> buf;
    const uint32_t ld = (t.baseN + 7) / 8 * 8;
    pipe.InitBuffer(buf, t.baseM * ld * 4);
    AscendC::GlobalTensor<half> ga, gb;
    ga.SetGlobalBuffer(const_cast<half*>(p.a.data()), p.a.size());
    gb.SetGlobalBuffer(const_cast<half*>(p.b.data()), p.b.size());
    mm.SetTensorA(ga);
    mm.SetTensorB(gb);
    const int64_t sub = AscendC::GetSubBlockIdx();
    for (uint32_t blk = 0; mm.Iterate(); ++blk) {
      AscendC::LocalTensor<float> l = buf.Get<float>();
      mm.GetTensorC(l, 0, true);
      const uint32_t mit = (kM + t.baseM - 1) / t.baseM, nit = (kN + t.baseN - 1) / t.baseN;
      const uint32_t mi = t.iterateOrder == 1 ? blk / nit : blk % mit;
      const uint32_t ni = t.iterateOrder == 1 ? blk % nit : blk / mit;
      const uint32_t m = std::min<uint32_t>(t.baseM, kM - mi * t.baseM);
      const uint32_t n = std::min<uint32_t>(t.baseN, kN - ni * t.baseN);
      const uint32_t r0 = first(m, sub), r1 = first(m, sub + 1);
      for (uint32_t r = r0; r < r1; ++r)
        for (uint32_t j = 0; j < n; ++j)
          c[size_t(mi * t.baseM + r) * kN + ni * t.baseN + j] =
              l.GetValue((r - r0) * ((n + 7) / 8 * 8) + j);
    }
    mm.End();
  });
}

// The reference's split: the block's rows rounded up to even, half to each AIV.
uint32_t HalfRows(uint32_t m, int64_t sub) { return std::min<uint32_t>(m, (m + 1) / 2 * sub); }

TEST(MatmulMixed, SplitMGivesEachAivHalfTheRowsOfABlock) {
  const Problem p;
  const TCubeTiling t = TilingOf(k950, 48, 32);  // blocks of 48 and 23 rows (12 and 11)
  std::vector<float> c(size_t{kM} * kN, NAN);
  const std::string r =
      SplitRows<AscendC::Impl::Detail::SplitMMatmulPolicy>(k950, t, p, c, HalfRows);
  EXPECT_EQ(r, "");
  p.Expect(c);
}

// On Atlas A2 the split does not exist: each AIV receives the whole block.
TEST(MatmulMixed, NoSplitOnAtlasA2) {
  const Problem p;
  const TCubeTiling t = TilingOf("Ascend910B1", 48, 32);
  std::vector<float> c(size_t{kM} * kN, NAN);
  const std::string r = SplitRows<AscendC::Impl::Detail::SplitMMatmulPolicy>(
      "Ascend910B1", t, p, c, [](uint32_t m, int64_t sub) { return sub == 0 ? 0u : m; });
  EXPECT_EQ(r, "");
  p.Expect(c);
}

// A in the UB of a 950 with its rows on 32-byte blocks (K = 50: rows of 64 halves), and A+B
// IBSHARE there: only AIV 0's C reaches GM (its cube serves AIV 0's requests only).
TEST(MatmulMixed, LocalAOn950HasAlignedRowsAndSharedABWritesFromAiv0) {
  const Problem p;
  const TCubeTiling t = TilingOf(k950, 32, 32);
  std::vector<float> c0(size_t{kM} * kN, 0.0f), c1(c0.size(), 0.0f);
  const std::string r = RunMixed(k950, [&] {
    using HalfUb =
        AscendC::MatmulType<TPosition::VECOUT, CubeFormat::ND, half, false, LayoutMode::NONE, true>;
    AscendC::Matmul<HalfUb, HalfShared, FloatNd> mm;
    AscendC::TPipe pipe;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    AscendC::TBuf<TPosition::VECOUT> abuf;
    constexpr int32_t kLd = 64;
    pipe.InitBuffer(abuf, kM * kLd * 2);
    AscendC::LocalTensor<half> la = abuf.Get<half>();
    for (int32_t i = 0; i < kM; ++i)
      for (int32_t k = 0; k < kLd; ++k)
        la.SetValue(i * kLd + k, k < kK ? p.a[i * kK + k] : half(NAN));
    AscendC::GlobalTensor<half> gb;
    AscendC::GlobalTensor<float> gc;
    gb.SetGlobalBuffer(const_cast<half*>(p.b.data()), p.b.size());
    gc.SetGlobalBuffer(AscendC::GetSubBlockIdx() == 0 ? c0.data() : c1.data(), c0.size());
    mm.SetTensorA(la);
    mm.SetTensorB(gb);
    mm.IterateAll(gc);
    mm.End();
  });
  EXPECT_EQ(r, "");
  p.Expect(c0);
  for (float v : c1) ASSERT_EQ(v, 0.0f);
}

// Init again with no TPipe (after REGIST_MATMUL_OBJ) takes the new tiling in the memories of
// the first; a tiling with larger base blocks is refused.
TEST(MatmulMixed, InitAgainWithoutPipe) {
  const Problem p;
  const TCubeTiling first = TilingOf("Ascend910B1", 48, 32),
                    smaller = TilingOf("Ascend910B1", 16, 16);
  std::vector<float> c(size_t{kM} * kN, NAN);
  std::string r = RunMixed("Ascend910B1", [&] {
    AscendC::Matmul<HalfNd, HalfNd, FloatNd> mm;
    AscendC::TPipe pipe;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &first);
    mm.Init(&smaller);
    AscendC::GlobalTensor<half> ga, gb;
    AscendC::GlobalTensor<float> gc;
    ga.SetGlobalBuffer(const_cast<half*>(p.a.data()), p.a.size());
    gb.SetGlobalBuffer(const_cast<half*>(p.b.data()), p.b.size());
    gc.SetGlobalBuffer(c.data(), c.size());
    mm.SetTensorA(ga);
    mm.SetTensorB(gb);
    if (AscendC::GetSubBlockIdx() == 0) mm.IterateAll(gc);
    mm.End();
  });
  EXPECT_EQ(r, "");
  p.Expect(c);
  r = RunMixed("Ascend910B1", [&] {
    AscendC::Matmul<HalfNd, HalfNd, FloatNd> mm;
    AscendC::TPipe pipe;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &smaller);
    mm.Init(&first);
  });
  EXPECT_NE(r.find("Matmul::Init: the new tiling's base blocks exceed those of the first Init"),
            std::string::npos)
      << r;
}

// SyncAll in a mixed kernel whose AIC left at REGIST_MATMUL_OBJ: a rendezvous of the AIVs.
TEST(MatmulMixed, SyncAllAmongTheAivs) {
  const TCubeTiling t = TilingOf("Ascend910B1", 32, 32);
  std::vector<int32_t> seen(2, -1);
  const std::string r = RunMixed("Ascend910B1", [&] {
    AscendC::Matmul<HalfNd, HalfNd, FloatNd> mm;
    AscendC::TPipe pipe;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    const int64_t sub = AscendC::GetSubBlockIdx();
    seen[sub] = 1;
    AscendC::SyncAll();
    seen[sub] = seen[1 - sub];  // the other AIV's write, ordered by the rendezvous
  });
  EXPECT_EQ(r, "");
  EXPECT_EQ(seen, (std::vector<int32_t>{1, 1}));
  // An AIC's SyncAll there is refused by name.
  const std::string aic = RunMixed("Ascend910B1", [&] {
    if (ASCEND_IS_AIC) AscendC::SyncAll();
  });
  EXPECT_NE(aic.find("SyncAll on the AIC of a kernel with AIVs is not modelled"), std::string::npos)
      << aic;
}

constexpr MatmulConfig PartialCfg() {
  MatmulConfig c = CFG_MDL;
  c.isPartialOutput = true;
  return c;
}
constexpr MatmulConfig kPartialCfg = PartialCfg();

// isPartialOutput: each Iterate gives one baseK slice of a block (the bias, none here, with
// the first), block after block; the slices of a block sum to C.
TEST(MatmulMixed, PartialOutputGivesTheBaseKSlicesOfEachBlock) {
  const Problem p;
  TCubeTiling t = TilingOf("Ascend910B1", 32, 32);
  t.baseK = 16;  // K = 50: slices of 16, 16, 16 and 2
  const uint32_t mit = (kM + 31) / 32, nit = (kN + 31) / 32, kit = (kK + 15) / 16;
  std::vector<float> c(size_t{kM} * kN, 0.0f);
  uint32_t iterations = 0;
  const std::string r = RunMixed("Ascend910B1", [&] {
    AscendC::Matmul<HalfNd, HalfNd, FloatNd, FloatNd, kPartialCfg> mm;
    AscendC::TPipe pipe;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    if (AscendC::GetSubBlockIdx() != 0) return;
    AscendC::TBuf<TPosition::VECIN> buf;
    pipe.InitBuffer(buf, 32 * 32 * 4);
    AscendC::GlobalTensor<half> ga, gb;
    ga.SetGlobalBuffer(const_cast<half*>(p.a.data()), p.a.size());
    gb.SetGlobalBuffer(const_cast<half*>(p.b.data()), p.b.size());
    mm.SetTensorA(ga);
    mm.SetTensorB(gb);
    std::vector<float> slice(32 * 32);
    AscendC::GlobalTensor<float> gs;
    gs.SetGlobalBuffer(slice.data(), slice.size());
    for (; mm.Iterate(); ++iterations) {
      mm.GetTensorC(gs, 0, true);
      const uint32_t blk = iterations / kit, mi = blk % mit, ni = blk / mit;
      const uint32_t m = std::min<uint32_t>(32, kM - mi * 32),
                     n = std::min<uint32_t>(32, kN - ni * 32);
      for (uint32_t i = 0; i < m; ++i)
        for (uint32_t j = 0; j < n; ++j)
          c[size_t(mi * 32 + i) * kN + ni * 32 + j] += slice[i * n + j];
    }
    mm.End();
  });
  EXPECT_EQ(r, "");
  EXPECT_EQ(t.iterateOrder, 0);
  EXPECT_EQ(iterations, mit * nit * kit);
  p.Expect(c);
}

// A in TSCM is whole in each core's L1: the tiling does not split M; the TSCM queues of the two
// AIVs of an AI core lie in separate halves of its L1 (the reference's default TSCM mask).
TEST(MatmulMixed, TscmOperandsAreWholeAndTheAivsTscmDoNotOverlap) {
  auto* platform = platform_ascendc::PlatformAscendCManager::GetInstance("Ascend910B1");
  mt::MultiCoreMatmulTiling api(*platform);
  api.SetDim(8);
  api.SetAType(mt::TPosition::TSCM, mt::CubeFormat::NZ, mt::DataType::DT_FLOAT16);
  api.SetBType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_FLOAT16);
  api.SetCType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_FLOAT);
  api.SetOrgShape(256, 256, 64);
  api.SetShape(256, 256, 64);
  TCubeTiling t;
  ASSERT_EQ(api.GetTiling(t), 0);
  EXPECT_EQ(t.singleCoreM, 256);
  EXPECT_GT(t.usedCoreNum, 1);
  std::vector<const half*> at(2, nullptr);
  const std::string r = RunMixed("Ascend910B1", [&] {
    if (ASCEND_IS_AIC) return;
    AscendC::TPipe pipe;
    AscendC::TSCM<TPosition::GM, 1> scm;
    pipe.InitBuffer(scm, 1, 64 * 1024);
    AscendC::LocalTensor<half> l = scm.AllocTensor<half>();
    at[AscendC::GetSubBlockIdx()] = l.HostPtr();
    scm.FreeTensor(l);
  });
  EXPECT_EQ(r, "");
  ASSERT_NE(at[0], nullptr);
  EXPECT_GE(std::abs(at[1] - at[0]), 64 * 1024 / static_cast<ptrdiff_t>(sizeof(half)));
}

constexpr MatmulConfig A2B2Cfg() {
  MatmulConfig c = CFG_NORM;
  c.isA2B2Shared = true;
  return c;
}
constexpr MatmulConfig kA2B2Cfg = A2B2Cfg();

// isA2B2Shared: two objects whose base blocks each fill L0C (128 x 256 floats) share the first
// one's L0 memories (REGIST_MATMUL_OBJ order), one after the other; a later object with larger
// base blocks is refused.
TEST(MatmulMixed, A2B2SharedObjectsShareTheFirstObjectsL0) {
  const Problem p;
  TCubeTiling big = TilingOf("Ascend910B1", 32, 32);
  big.baseM = 128;
  big.baseN = 256;
  std::vector<float> c1(size_t{kM} * kN, NAN), c2(c1.size(), NAN);
  std::string r = RunMixed("Ascend910B1", [&] {
    AscendC::Matmul<HalfNd, HalfNd, FloatNd, FloatNd, kA2B2Cfg> mm1, mm2;
    AscendC::TPipe pipe;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm1, &big, mm2, &big);
    if (AscendC::GetSubBlockIdx() != 0) return;
    AscendC::GlobalTensor<half> ga, gb;
    AscendC::GlobalTensor<float> g1, g2;
    ga.SetGlobalBuffer(const_cast<half*>(p.a.data()), p.a.size());
    gb.SetGlobalBuffer(const_cast<half*>(p.b.data()), p.b.size());
    g1.SetGlobalBuffer(c1.data(), c1.size());
    g2.SetGlobalBuffer(c2.data(), c2.size());
    for (auto* mm : {&mm1, &mm2}) {
      mm->SetTensorA(ga);
      mm->SetTensorB(gb);
      mm->IterateAll(mm == &mm1 ? g1 : g2);
      mm->End();
    }
  });
  EXPECT_EQ(r, "");
  p.Expect(c1);
  p.Expect(c2);
  const TCubeTiling small = TilingOf("Ascend910B1", 32, 32);
  r = RunMixed("Ascend910B1", [&] {
    AscendC::Matmul<HalfNd, HalfNd, FloatNd, FloatNd, kA2B2Cfg> mm1, mm2;
    AscendC::TPipe pipe;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm1, &small, mm2, &big);
  });
  EXPECT_NE(r.find("isA2B2Shared: the base blocks exceed the L0 memories of the first object"),
            std::string::npos)
      << r;
}

// lngrad-asc's split for a file naming ASCENDC_CUBE_ONLY, decided where the kernel is launched.
static_assert(lngrad::matmul::MixUnlessCubeOnly("ASCENDC_CUBE_ONLY").aiv == 2);
static_assert(lngrad::matmul::MixUnlessCubeOnly("").aic == 0);
static_assert(!lngrad::matmul::MixUnlessCubeOnly("1").mix);

}  // namespace
