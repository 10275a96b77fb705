// GM -> L1 (Nd2Nz) -> L0A/L0B (LoadData, LoadDataWithTranspose) -> Mmad -> Fixpipe -> GM, in the
// layouts the vendor's mmad sample uses, against a float64 oracle.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "run_on.h"

namespace {

using AscendC::TPosition;
constexpr uint32_t kM = 30, kN = 40, kK = 70;
uint32_t Align(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

// A [M, K] and B^T [N, K] (both ND, K contiguous) -> C [M, N] through the cube; T the input type
// (C0 elements per 32 bytes), R the result type.
template <typename T, typename R, typename O = R>
std::vector<O> CubeMatmul(const std::vector<T>& a, const std::vector<T>& bt,
                          AscendC::QuantMode_t quant = AscendC::QuantMode_t::NoQuant) {
  constexpr uint32_t c0 = 32 / sizeof(T);
  const uint32_t m16 = Align(kM, 16), n16 = Align(kN, 16), kc = Align(kK, c0);
  std::vector<O> c(kM * kN);
  AscendC::GlobalTensor<T> ga, gb;
  AscendC::GlobalTensor<O> gc;
  ga.SetGlobalBuffer(const_cast<T*>(a.data()), a.size());
  gb.SetGlobalBuffer(const_cast<T*>(bt.data()), bt.size());
  gc.SetGlobalBuffer(c.data(), c.size());
  AscendC::TPipe pipe;
  AscendC::TQue<TPosition::A1, 1> qa1;
  AscendC::TQue<TPosition::B1, 1> qb1;
  AscendC::TQue<TPosition::A2, 1> qa2;
  AscendC::TQue<TPosition::B2, 1> qb2;
  AscendC::TQue<TPosition::CO1, 1> qc;
  pipe.InitBuffer(qa1, 1, m16 * kc * sizeof(T));
  pipe.InitBuffer(qb1, 1, n16 * kc * sizeof(T));
  pipe.InitBuffer(qa2, 1, m16 * kc * sizeof(T));
  pipe.InitBuffer(qb2, 1, n16 * kc * sizeof(T));
  pipe.InitBuffer(qc, 1, m16 * n16 * sizeof(R));
  auto a1 = qa1.AllocTensor<T>();
  auto b1 = qb1.AllocTensor<T>();
  AscendC::DataCopy(a1, ga,
                    AscendC::Nd2NzParams{1, kM, kK, 0, kK, static_cast<uint16_t>(m16), 1, 0});
  AscendC::DataCopy(b1, gb,
                    AscendC::Nd2NzParams{1, kN, kK, 0, kK, static_cast<uint16_t>(n16), 1, 0});
  qa1.EnQue(a1);
  qb1.EnQue(b1);
  a1 = qa1.DeQue<T>();
  b1 = qb1.DeQue<T>();
  auto a2 = qa2.AllocTensor<T>();
  auto b2 = qb2.AllocTensor<T>();
  AscendC::LoadData2DParams la;
  la.repeatTimes = static_cast<uint8_t>(kc / c0);
  la.srcStride = static_cast<uint16_t>(m16 / 16);
  for (uint32_t i = 0; i < m16 / 16; ++i) AscendC::LoadData(a2[i * kc * 16], a1[i * 16 * c0], la);
  AscendC::LoadData2DParams lb;
  lb.repeatTimes = static_cast<uint8_t>(n16 / 16 * kc / c0);
  lb.srcStride = 1;
  AscendC::LoadData(b2, b1, lb);
  qa1.FreeTensor(a1);
  qb1.FreeTensor(b1);
  qa2.EnQue(a2);
  qb2.EnQue(b2);
  a2 = qa2.DeQue<T>();
  b2 = qb2.DeQue<T>();
  auto co1 = qc.AllocTensor<R>();
  AscendC::Mmad(co1, a2, b2, AscendC::MmadParams(kM, kN, kK, 0, false, true));
  qa2.FreeTensor(a2);
  qb2.FreeTensor(b2);
  qc.EnQue(co1);
  co1 = qc.DeQue<R>();
  AscendC::FixpipeParamsV220 fp(kN, kM, static_cast<uint16_t>(m16), kN, false);
  fp.quantPre = quant;
  AscendC::Fixpipe(gc, co1, fp);
  qc.FreeTensor(co1);
  return c;
}

template <typename T, typename F>
void Fill(std::vector<T>& v, uint32_t n, uint32_t seed, F make) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> d(-64, 64);
  v.resize(n);
  for (auto& x : v) x = make(d(rng));
}

template <typename T>
std::vector<double> Oracle(const std::vector<T>& a, const std::vector<T>& bt) {
  std::vector<double> c(kM * kN, 0.0);
  for (uint32_t m = 0; m < kM; ++m) {
    for (uint32_t n = 0; n < kN; ++n) {
      for (uint32_t k = 0; k < kK; ++k) {
        c[m * kN + n] += static_cast<double>(static_cast<float>(a[m * kK + k])) *
                         static_cast<double>(static_cast<float>(bt[n * kK + k]));
      }
    }
  }
  return c;
}

// Bound: K products, each exact in float for half inputs, summed in float (K/C0 + C0 roundings
// per element at most): |err| <= 2^-24 * (K + 1) * sum |a_k b_k|.
template <typename T>
double Bound(const std::vector<T>& a, const std::vector<T>& bt, uint32_t m, uint32_t n) {
  double s = 0;
  for (uint32_t k = 0; k < kK; ++k) {
    s += std::fabs(static_cast<double>(static_cast<float>(a[m * kK + k])) *
                   static_cast<float>(bt[n * kK + k]));
  }
  return std::ldexp(s * (kK + 1), -24);
}

TEST(Mmad, HalfToFloatWithinTheOracleBound) {
  std::vector<half> a, bt;
  Fill(a, kM * kK, 1, [](int v) { return half(static_cast<float>(v) / 7.0f); });
  Fill(bt, kN * kK, 2, [](int v) { return half(static_cast<float>(v) / 3.0f); });
  const std::vector<float> c = CubeMatmul<half, float>(a, bt);
  const std::vector<double> want = Oracle(a, bt);
  for (uint32_t m = 0; m < kM; ++m) {
    for (uint32_t n = 0; n < kN; ++n) {
      ASSERT_LE(std::fabs(c[m * kN + n] - want[m * kN + n]), Bound(a, bt, m, n)) << m << "," << n;
    }
  }
}

TEST(Mmad, Int8ToInt32IsExact) {
  std::vector<int8_t> a, bt;
  Fill(a, kM * kK, 3, [](int v) { return static_cast<int8_t>(v * 2 - 1); });
  Fill(bt, kN * kK, 4, [](int v) { return static_cast<int8_t>(v); });
  const std::vector<int32_t> c = CubeMatmul<int8_t, int32_t>(a, bt);
  const std::vector<double> want = Oracle(a, bt);
  for (uint32_t i = 0; i < kM * kN; ++i) ASSERT_EQ(c[i], static_cast<int32_t>(want[i])) << i;
}

TEST(Mmad, FixpipeRoundsFloatToHalf) {
  std::vector<half> a, bt;
  Fill(a, kM * kK, 5, [](int v) { return half(static_cast<float>(v) / 5.0f); });
  Fill(bt, kN * kK, 6, [](int v) { return half(static_cast<float>(v) / 9.0f); });
  const std::vector<float> f = CubeMatmul<half, float>(a, bt);
  const std::vector<half> h = CubeMatmul<half, float, half>(a, bt, AscendC::QuantMode_t::F322F16);
  for (uint32_t i = 0; i < kM * kN; ++i) {
    ASSERT_EQ(static_cast<float>(h[i]), static_cast<float>(half(f[i]))) << i;
  }
}

TEST(CubeChecks, BuffersHaveTheProductsSizes) {
  AscendC::TPipe pipe;
  AscendC::TBuf<TPosition::A2> l0a;
  AscendC::TBuf<TPosition::CO1> l0c;
  EXPECT_TRUE(pipe.InitBuffer(l0a, 64 * 1024));
  EXPECT_TRUE(pipe.InitBuffer(l0c, 128 * 1024));
  AscendC::TBuf<TPosition::B2> l0b;
  EXPECT_TRUE(pipe.InitBuffer(l0b, 64 * 1024));
  AscendC::TBuf<TPosition::A2> more;
  EXPECT_THROW(pipe.InitBuffer(more, 32), lngrad::aicore::KernelCheckError);
}

// The 950: L0C 256 KB, BiasTable 4 KB, L1 512 KB; queues on them carve from address 0 of each.
TEST(CubeChecks, The950sBuffers) {
  const std::string failed = lngrad::cube::test::RunOn("Ascend950PR_9599", [] {
    AscendC::TPipe pipe;
    AscendC::TQue<TPosition::CO1, 1> l0c;
    AscendC::TBuf<TPosition::C2> bt;
    AscendC::TBuf<TPosition::A1> l1;
    AscendC::TBuf<TPosition::C1> more_l1;
    EXPECT_TRUE(pipe.InitBuffer(l0c, 1, 256 * 1024));
    EXPECT_TRUE(pipe.InitBuffer(bt, 4 * 1024));
    EXPECT_TRUE(pipe.InitBuffer(l1, 256 * 1024));
    EXPECT_TRUE(pipe.InitBuffer(more_l1, 256 * 1024));  // A1 and C1 share the L1
    EXPECT_EQ(static_cast<uint64_t>(more_l1.Get<int8_t>().GetPhyAddr()), 256u * 1024u);
    AscendC::TBuf<TPosition::B1> over;
    try {
      pipe.InitBuffer(over, 32);
      ADD_FAILURE() << "the L1 is full";
    } catch (const lngrad::aicore::KernelCheckError& e) {
      EXPECT_NE(std::string(e.what()).find("of the 524288 B L1"), std::string::npos) << e.what();
      lngrad::aicore::DismissKernelCheck(e);  // raised on purpose inside a launch
    }
    auto c = l0c.AllocTensor<float>();
    EXPECT_EQ(static_cast<uint64_t>(c.GetPhyAddr()), 0u);
    l0c.FreeTensor(c);
  });
  EXPECT_EQ(failed, "");
}

// The bias forms: a C2 tensor copied from C1 (blockLen in 64-byte units on Atlas A2/A3).
TEST(CubeChecks, BiasTensorFromL1) {
  AscendC::LocalTensor<float> c1(TPosition::C1, 0, 16);
  AscendC::LocalTensor<float> c2(TPosition::C2, 0, 16);
  float* p = static_cast<float*>(c1.GetPhyAddr());
  for (int i = 0; i < 16; ++i) p[i] = static_cast<float>(i) - 4.0f;
  AscendC::DataCopy(c2, c1, AscendC::DataCopyParams{1, 1, 0, 0});
  AscendC::LocalTensor<half> a(TPosition::A2, 0, 256), b(TPosition::B2, 0, 256);
  AscendC::LocalTensor<float> c(TPosition::CO1, 0, 256);
  half* pa = static_cast<half*>(a.GetPhyAddr());
  half* pb = static_cast<half*>(b.GetPhyAddr());
  for (int i = 0; i < 256; ++i) pa[i] = pb[i] = half(1.0f);
  AscendC::MmadParams mp(16, 16, 16, 0, false, false);
  AscendC::Mmad(c, a, b, c2, mp);
  const float* pc = static_cast<float*>(c.GetPhyAddr());
  for (int m = 0; m < 16; ++m) {
    for (int n = 0; n < 16; ++n) ASSERT_EQ(pc[m * 16 + n], 16.0f + static_cast<float>(n) - 4.0f);
  }
  EXPECT_THROW(AscendC::DataCopy(c1, c2, AscendC::DataCopyParams{1, 1, 0, 0}),
               lngrad::aicore::KernelCheckError);  // C2 -> C1 is no path
}

TEST(CubeChecks, MmadNamesWrongPositionsAndLimits) {
  AscendC::LocalTensor<half> a(TPosition::A2, 0, 256);
  AscendC::LocalTensor<half> b(TPosition::B2, 0, 256);
  AscendC::LocalTensor<float> c(TPosition::CO1, 0, 256);
  AscendC::LocalTensor<half> wrong(TPosition::A1, 0, 256);
  EXPECT_THROW(AscendC::Mmad(c, wrong, b, AscendC::MmadParams(16, 16, 16, 0, false, true)),
               lngrad::aicore::KernelCheckError);
  EXPECT_THROW(AscendC::Mmad(c, a, b, AscendC::MmadParams(4096, 16, 16, 0, false, true)),
               lngrad::aicore::KernelCheckError);
  AscendC::LocalTensor<half> off(TPosition::A2, 32, 256);
  EXPECT_THROW(AscendC::Mmad(c, off, b, AscendC::MmadParams(16, 16, 16, 0, false, true)),
               lngrad::aicore::KernelCheckError);
  EXPECT_NO_THROW(AscendC::Mmad(c, a, b, AscendC::MmadParams(16, 16, 16, 0, false, true)));
}

}  // namespace
