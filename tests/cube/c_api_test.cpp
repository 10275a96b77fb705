// The cube's C API (950): a half matmul through asc_* gives the C++ API's bits (the same
// instructions: GM -> L1 ND2NZ, L1 -> L0A/L0B, Mmad, L0C -> GM), within the float64 bound of
// docs/ascendc_kernels.md; the arrays' placement; the checks. Arrays are made as lngrad-asc
// makes them from `__cbuf__ T name[N];` (CubeArray).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "c_api/asc_simd.h"
#include "kernel_operator.h"
#include "run_on.h"

namespace {

using AscendC::TPosition;
using lngrad::cube::ArrayKey;
using lngrad::cube::CubeArray;
constexpr uint32_t kM = 32, kK = 64, kN = 48;

// ND2NZ register: one matrix, rows 1 apart, C0 chunks `c0_stride` rows apart.
uint64_t NzPara(uint64_t c0_stride) { return (c0_stride << 32) | (uint64_t{1} << 16) | 1; }

void RunC(half* a, half* b, float* c) {
  auto& a_l1 = CubeArray<half[kM * kK]>(ArrayKey([] {}), "a_l1", TPosition::A1);
  auto& b_l1 = CubeArray<half[kK * kN]>(ArrayKey([] {}), "b_l1", TPosition::A1);
  auto& a_l0 = CubeArray<half[kM * kK]>(ArrayKey([] {}), "a_l0", TPosition::A2);
  auto& b_l0 = CubeArray<half[kK * kN]>(ArrayKey([] {}), "b_l0", TPosition::B2);
  auto& c_l0 = CubeArray<float[kM * kN]>(ArrayKey([] {}), "c_l0", TPosition::CO1);
  asc_set_gm2l1_nz_para(NzPara(kM));
  asc_copy_gm2l1_nd2nz(a_l1, a, kK * 2, 0, kM, kK, 0, false);
  asc_set_gm2l1_nz_para(NzPara(kK));
  asc_copy_gm2l1_nd2nz(b_l1, b, kN * 2, 0, kK, kN, 0, false);
  asc_sync_pipe(PIPE_ALL);
  asc_copy_l12l0a(a_l0, a_l1, 0, 0, kM / 16, kK / 16, kM / 16, kM / 16);
  asc_copy_l12l0b_transpose(b_l0, b_l1, 0, 0, kK / 16, kN / 16, kK / 16, kN / 16);
  asc_sync_pipe(PIPE_ALL);
  asc_mmad(c_l0, a_l0, b_l0, kM, kK, kN, 0, false, false, true);
  asc_sync_pipe(PIPE_ALL);
  asc_set_l0c2gm_nz2nd(1, 0, 0);
  asc_copy_l0c2gm(c, c_l0, kN, kM, kN, kM, 0, 0, 0, 0, 0, false, true, 0, 0, false, 0, false, false,
                  false, false);
  asc_sync_pipe(PIPE_ALL);
}

void RunCpp(half* a, half* b, float* c) {
  AscendC::GlobalTensor<half> ga, gb;
  AscendC::GlobalTensor<float> gc;
  ga.SetGlobalBuffer(a);
  gb.SetGlobalBuffer(b);
  gc.SetGlobalBuffer(c);
  AscendC::LocalTensor<half> a1(TPosition::A1, 0, kM * kK), b1(TPosition::B1, 8192, kK * kN);
  AscendC::LocalTensor<half> a2(TPosition::A2, 0, kM * kK), b2(TPosition::B2, 0, kK * kN);
  AscendC::LocalTensor<float> co1(TPosition::CO1, 0, kM * kN);
  AscendC::DataCopy(a1, ga, AscendC::Nd2NzParams(1, kM, kK, 0, kK, kM, 1, 0));
  AscendC::DataCopy(b1, gb, AscendC::Nd2NzParams(1, kK, kN, 0, kN, kK, 1, 0));
  AscendC::PipeBarrier<PIPE_ALL>();
  AscendC::LoadData(
      a2, a1, AscendC::LoadData2DParamsV2(0, 0, kM / 16, kK / 16, kM / 16, kM / 16, false, 0));
  AscendC::LoadData(b2, b1,
                    AscendC::LoadData2DParamsV2(0, 0, kK / 16, kN / 16, kK / 16, kN / 16, true, 0));
  AscendC::PipeBarrier<PIPE_ALL>();
  AscendC::MmadParams p;
  p.m = kM;
  p.k = kK;
  p.n = kN;
  AscendC::Mmad(co1, a2, b2, p);
  AscendC::PipeBarrier<PIPE_ALL>();
  AscendC::FixpipeParamsArch3510<AscendC::CO2Layout::ROW_MAJOR> f;
  f.nSize = kN;
  f.mSize = kM;
  f.srcStride = kM;
  f.dstStride = kN;
  AscendC::Fixpipe<float, float, AscendC::CFG_ROW_MAJOR>(gc, co1, f);
  AscendC::PipeBarrier<PIPE_ALL>();
}

TEST(CubeCApi, MatmulGivesTheCppBits) {
  std::vector<half> a(kM * kK), b(kK * kN);
  for (uint32_t i = 0; i < a.size(); ++i) a[i] = half(static_cast<float>(int(i * 7 % 23) - 11) / 8);
  for (uint32_t i = 0; i < b.size(); ++i) b[i] = half(static_cast<float>(int(i * 5 % 19) - 9) / 4);
  std::vector<float> c_out(kM * kN, -1.0f), cpp_out(kM * kN, -2.0f);
  ASSERT_EQ(lngrad::cube::test::RunOn(
                "Ascend950PR_9599", [&] { RunC(a.data(), b.data(), c_out.data()); },
                lngrad::aicore::san::kAllTools),
            "");
  ASSERT_EQ(lngrad::cube::test::RunOn("Ascend950PR_9599",
                                      [&] { RunCpp(a.data(), b.data(), cpp_out.data()); }),
            "");
  EXPECT_EQ(std::memcmp(c_out.data(), cpp_out.data(), c_out.size() * 4), 0);
  for (uint32_t m = 0; m < kM; ++m) {
    for (uint32_t n = 0; n < kN; ++n) {
      double exact = 0, mag = 0;
      for (uint32_t k = 0; k < kK; ++k) {
        const double prod = static_cast<double>(static_cast<float>(a[m * kK + k])) *
                            static_cast<float>(b[k * kN + n]);
        exact += prod;
        mag += std::fabs(prod);
      }
      ASSERT_LE(std::fabs(c_out[m * kN + n] - exact), (kK + 1) * std::ldexp(mag, -24))
          << m << "," << n;
    }
  }
}

TEST(CubeCApi, ArraysAndChecks) {
  const std::string text = lngrad::cube::test::RunOn("Ascend950PR_9599", [&] {
    auto& x = CubeArray<int8_t[100]>(ArrayKey([] {}), "x", TPosition::A1);
    auto& y = CubeArray<int8_t[100]>(ArrayKey([] {}), "y", TPosition::A1);
    auto* l1 =
        static_cast<std::byte*>(AscendC::LocalTensor<uint8_t>(TPosition::A1, 0, 1024).GetPhyAddr());
    // Each declaration once per block, one after the other on a 512-byte grid.
    EXPECT_EQ(reinterpret_cast<std::byte*>(x), l1);
    EXPECT_EQ(reinterpret_cast<std::byte*>(y), l1 + 512);
    std::vector<int8_t> gm(64);
    asc_set_gm2l1_nz_para(NzPara(16));
    asc_copy_gm2l1_nd2nz(x, gm.data(), 32, 0, 2, 32, 0, true);  // smallc0_en: cube.params
  });
  EXPECT_NE(text.find("[cube.params] asc_copy_gm2l1_nd2nz: smallc0_en is 1"), std::string::npos)
      << text;
  const std::string where = lngrad::cube::test::RunOn("Ascend950PR_9599", [&] {
    std::vector<half> host(1024);
    auto& l0 = CubeArray<half[1024]>(ArrayKey([] {}), "l0", TPosition::A2);
    asc_copy_l12l0a(l0, host.data(), 0, 0, 1, 1, 1, 1);  // src not in L1
  });
  EXPECT_NE(where.find("[cube.position] asc_copy_l12l0a: the pointer is not in the block's L1"),
            std::string::npos)
      << where;
  const std::string full = lngrad::cube::test::RunOn("Ascend950PR_9599", [&] {
    CubeArray<float[20000]>(ArrayKey([] {}), "big", TPosition::A2);  // 80000 B > 64 KiB
  });
  EXPECT_NE(full.find("[cube.bounds] the C API array big"), std::string::npos) << full;
}

}  // namespace
