// The tensor API's MX forms (AscendC::Te, built for the 950) through whole kernels on the simulated
// 950: fp4 A (ND) and B (DN) with their e8m0 scales (ScaleAND / ScaleBDN, or ScaleADN /
// ScaleBND) from GM into L1 (NZ, ZN, ZZ, NN), into L0A / L0B and L0ScaleA / L0ScaleB, the MX
// Mmad in two K steps, L0C -> GM. Checked against a float64 oracle from the formats' value tables
// (e2m1: 0, 0.5, 1, 1.5, 2, 3, 4, 6; e1m2: 0, 0.25, ..., 1.75; e8m0: 2^(code - 127)), bound
// (K + 2) 2^-24 sum |products| (each product exact, each addition rounding once), and bit for bit
// against the basic API's LoadData (LoadData2DMxParams) and MmadMx on L1 written by this test's
// own reading of the layouts (A and B as 16-row blocks of 32-byte rows, K chunks outer; the
// scales in 16 x 2 fractals, row blocks outer, K pairs inner). Misuse: the named checks.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "run_on.h"
#include "tensor_api/tensor.h"

namespace {

using AscendC::TPosition;
#define CUBE_ARRAY(pos, type, name) \
  auto& name = lngrad::cube::CubeArray<type>(lngrad::cube::ArrayKey([] {}), #name, TPosition::pos)
namespace te = AscendC::Te;
constexpr const char* kSoc = "Ascend950PR_9599";
constexpr uint32_t kM = 48, kN = 32, kK = 256, kStepK = 128, kSk = kK / 32;

// Codes of A (M x K, e1m2) and B (K x N, e2m1) and their scales (A: M x K/32, B: K/32 x N).
struct Data {
  std::vector<uint8_t> a, b, as, bs;
};

Data Random(uint32_t seed) {
  std::mt19937 gen(seed);
  Data d{std::vector<uint8_t>(kM * kK), std::vector<uint8_t>(kK * kN),
         std::vector<uint8_t>(kM * kSk), std::vector<uint8_t>(kSk * kN)};
  for (auto* v : {&d.a, &d.b}) {
    for (auto& c : *v) c = static_cast<uint8_t>(gen() & 0xFu);
  }
  for (auto* v : {&d.as, &d.bs}) {
    for (auto& s : *v) s = static_cast<uint8_t>(122 + gen() % 12);
  }
  return d;
}

// 4-bit codes packed two a byte, element 2i in the low nibble of byte i.
std::vector<uint8_t> Pack(const std::vector<uint8_t>& codes) {
  std::vector<uint8_t> p(codes.size() / 2);
  for (size_t i = 0; i < p.size(); ++i) p[i] = codes[2 * i] | (codes[2 * i + 1] << 4);
  return p;
}

double E1m2(uint8_t c) {
  constexpr double kTable[8] = {0, 0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75};
  return (c & 8) != 0 ? -kTable[c & 7] : kTable[c & 7];
}
double E2m1(uint8_t c) {
  constexpr double kTable[8] = {0, 0.5, 1, 1.5, 2, 3, 4, 6};
  return (c & 8) != 0 ? -kTable[c & 7] : kTable[c & 7];
}

// The sample's MX trait (GEMV off).
struct MxTrait {
  using TraitType = te::MmadTrait;
  static constexpr TraitType value = te::MmadTrait{0, false, false, true, te::MmadType::MX};
};

// C (M x N float, ND) through the tensor API. alt: the scales in GM as ScaleADN / ScaleBND.
std::string RunTensorApi(const Data& d, bool alt, std::vector<float>* c, uint32_t tools = 0) {
  std::vector<uint8_t> a = Pack(d.a), b(kK * kN / 2), as(kM * kSk), bs(kSk * kN);
  std::vector<uint8_t> b_dn(kK * kN);  // B column-major: (k, n) at k + n K
  for (uint32_t k = 0; k < kK; ++k) {
    for (uint32_t n = 0; n < kN; ++n) b_dn[k + n * kK] = d.b[k * kN + n];
  }
  b = Pack(b_dn);
  for (uint32_t m = 0; m < kM; ++m) {
    for (uint32_t g = 0; g < kSk; ++g) {
      as[alt ? m * 2 + g % 2 + (g / 2) * 2 * kM : m * kSk + g] = d.as[m * kSk + g];
    }
  }
  for (uint32_t g = 0; g < kSk; ++g) {
    for (uint32_t n = 0; n < kN; ++n) {
      bs[alt ? g % 2 + (g / 2) * 2 * kN + n * 2 : g + n * kSk] = d.bs[g * kN + n];
    }
  }
  c->assign(kM * kN, 0.0f);
  const auto kernel = [&] {
    CUBE_ARRAY(A1, fp4x2_e1m2_t[kM * kK / 2], l1a);
    CUBE_ARRAY(A1, fp4x2_e2m1_t[kK * kN / 2], l1b);
    CUBE_ARRAY(A1, fp8_e8m0_t[kM * kSk], l1as);
    CUBE_ARRAY(A1, fp8_e8m0_t[kSk * kN], l1bs);
    CUBE_ARRAY(A2, fp4x2_e1m2_t[kM * kStepK / 2], l0a);
    CUBE_ARRAY(B2, fp4x2_e2m1_t[kStepK * kN / 2], l0b);
    CUBE_ARRAY(CO1, float[kM * kN], l0c);
    auto gmA = te::MakeTensor(te::MakeMemPtr(reinterpret_cast<fp4x2_e1m2_t*>(a.data())),
                              te::MakeFrameLayout<te::NDExtLayoutPtn>(kM, kK));
    auto gmB = te::MakeTensor(te::MakeMemPtr(reinterpret_cast<fp4x2_e2m1_t*>(b.data())),
                              te::MakeFrameLayout<te::DNExtLayoutPtn>(kK, kN));
    auto* as_p = reinterpret_cast<fp8_e8m0_t*>(as.data());
    auto* bs_p = reinterpret_cast<fp8_e8m0_t*>(bs.data());
    auto gmAs = alt ? te::MakeTensor(te::MakeMemPtr(as_p),
                                     te::MakeFrameLayout<te::ScaleADNLayoutPtn>(kM, kSk))
                    : te::MakeTensor(te::MakeMemPtr(as_p),
                                     te::MakeFrameLayout<te::ScaleANDLayoutPtn>(kM, kSk));
    auto gmBs = alt ? te::MakeTensor(te::MakeMemPtr(bs_p),
                                     te::MakeFrameLayout<te::ScaleBNDLayoutPtn>(kSk, kN))
                    : te::MakeTensor(te::MakeMemPtr(bs_p),
                                     te::MakeFrameLayout<te::ScaleBDNLayoutPtn>(kSk, kN));
    auto l1A =
        te::MakeTensor(te::MakeMemPtr(l1a), te::MakeFrameLayout<te::NZLayoutPtn, 64>(kM, kK));
    auto l1B =
        te::MakeTensor(te::MakeMemPtr(l1b), te::MakeFrameLayout<te::ZNLayoutPtn, 64>(kK, kN));
    auto l1As =
        te::MakeTensor(te::MakeMemPtr(l1as), te::MakeFrameLayout<te::ZZLayoutPtn, 2>(kM, kSk));
    auto l1Bs =
        te::MakeTensor(te::MakeMemPtr(l1bs), te::MakeFrameLayout<te::NNLayoutPtn, 2>(kSk, kN));
    auto l0A =
        te::MakeTensor(te::MakeMemPtr(l0a), te::MakeFrameLayout<te::NZLayoutPtn, 64>(kM, kStepK));
    auto l0B =
        te::MakeTensor(te::MakeMemPtr(l0b), te::MakeFrameLayout<te::ZNLayoutPtn, 64>(kStepK, kN));
    constexpr uint32_t kStepSk = kStepK / 32;
    auto l0As = te::MakeTensor(
        te::MakeMemPtr<te::Location::L0ScaleA, fp8_e8m0_t>(reinterpret_cast<uint64_t>(l0a) / 16),
        te::MakeFrameLayout<te::ZZLayoutPtn, 2>(kM, kStepSk));
    auto l0Bs = te::MakeTensor(
        te::MakeMemPtr<te::Location::L0ScaleB, fp8_e8m0_t>(reinterpret_cast<uint64_t>(l0b) / 16),
        te::MakeFrameLayout<te::NNLayoutPtn, 2>(kStepSk, kN));
    auto l0C =
        te::MakeTensor(te::MakeMemPtr(l0c), te::MakeFrameLayout<te::NZLayoutPtn, 16>(kM, kN));
    auto gmC =
        te::MakeTensor(te::MakeMemPtr(c->data()), te::MakeFrameLayout<te::NDExtLayoutPtn>(kM, kN));
    static constexpr auto kGm2L1 = te::MakeCopy(te::CopyGM2L1{});
    AscendC::Mutex::Lock<PIPE_MTE2>(0);
    te::Copy(kGm2L1, l1A, gmA);
    te::Copy(kGm2L1, l1B, gmB);
    te::Copy(kGm2L1, l1As, gmAs);
    te::Copy(kGm2L1, l1Bs, gmBs);
    AscendC::Mutex::Unlock<PIPE_MTE2>(0);
    for (uint32_t s = 0; s < kK / kStepK; ++s) {
      AscendC::Mutex::Lock<PIPE_MTE1>(0);
      te::Copy(te::MakeCopy(te::CopyL12L0A{}), l0A,
               l1A.Slice(te::MakeCoord(0, s * kStepK), te::MakeShape(kM, kStepK)));
      te::Copy(te::MakeCopy(te::CopyL12L0B{}), l0B,
               l1B.Slice(te::MakeCoord(s * kStepK, 0), te::MakeShape(kStepK, kN)));
      te::Copy(te::MakeCopy(te::CopyL12L0ScaleA{}), l0As,
               l1As.Slice(te::MakeCoord(0, s * kStepSk), te::MakeShape(kM, kStepSk)));
      te::Copy(te::MakeCopy(te::CopyL12L0ScaleB{}, te::CopyL12L0ScaleBTraitDefault{}), l0Bs,
               l1Bs.Slice(te::MakeCoord(s * kStepSk, 0), te::MakeShape(kStepSk, kN)));
      AscendC::Mutex::Unlock<PIPE_MTE1>(0);
      AscendC::Mutex::Lock<PIPE_M>(0);
      te::Mmad(te::MakeMmad(te::MmadOperation{}, MxTrait{})
                   .with(te::MmadParams(kM, kN, kStepK, 0, s == 0)),
               l0C, l0A, l0B);
      AscendC::Mutex::Unlock<PIPE_M>(0);
    }
    AscendC::Mutex::Lock<PIPE_FIX>(0);
    te::Copy(te::MakeCopy(te::CopyL0C2GM{}), gmC, l0C);
    AscendC::Mutex::Unlock<PIPE_FIX>(0);
  };
  return lngrad::cube::test::RunOn(kSoc, kernel, tools);
}

// The same matmul by the basic API: L1 written here (A: M rows, B: N rows (Bᵀ), K chunks of 64
// values outer, 16-row blocks, 32-byte rows; the scales' fractals at (row block x K/64 + pair) x
// 32, (row % 16) x 2 + group % 2), LoadData with LoadData2DMxParams, MmadMx per K step.
std::vector<float> RunBasicApi(const Data& d) {
  std::vector<float> c(kM * kN);
  const auto put = [](std::byte* l1, uint32_t at, uint32_t scale_at, uint32_t rows,
                      const auto& code, const auto& scale) {
    for (uint32_t r = 0; r < rows; ++r) {
      for (uint32_t k = 0; k < kK; ++k) {
        const uint64_t i = (uint64_t{k / 64} * rows + r) * 64 + k % 64;
        auto& byte = l1[at + i / 2];
        const auto v = static_cast<uint8_t>(code(r, k));
        byte = std::byte((static_cast<uint8_t>(byte) & (i % 2 == 0 ? 0xF0 : 0x0F)) |
                         (i % 2 == 0 ? v : v << 4));
      }
      for (uint32_t g = 0; g < kSk; ++g) {
        l1[scale_at + (r / 16 * (kK / 64) + g / 2) * 32 + (r % 16) * 2 + g % 2] =
            std::byte{scale(r, g)};
      }
    }
  };
  const std::string text = lngrad::cube::test::RunOn(kSoc, [&] {
    AscendC::LocalTensor<uint8_t> raw(TPosition::A1, 0, 64 * 1024);
    auto* l1 = static_cast<std::byte*>(raw.GetPhyAddr());
    put(
        l1, 0, 16384, kM, [&](uint32_t m, uint32_t k) { return d.a[m * kK + k]; },
        [&](uint32_t m, uint32_t g) { return d.as[m * kSk + g]; });
    put(
        l1, 32768, 49152, kN, [&](uint32_t n, uint32_t k) { return d.b[k * kN + n]; },
        [&](uint32_t n, uint32_t g) { return d.bs[g * kN + n]; });
    AscendC::LocalTensor<fp4x2_e1m2_t> a1(TPosition::A1, 0, kM * kK), a2(TPosition::A2, 0, 16384);
    AscendC::LocalTensor<fp4x2_e2m1_t> b1(TPosition::B1, 32768, kN * kK),
        b2(TPosition::B2, 0, 16384);
    AscendC::LocalTensor<fp8_e8m0_t> sa(TPosition::A1, 16384, 1024), sb(TPosition::B1, 49152, 1024);
    AscendC::LocalTensor<float> co1(TPosition::CO1, 0, kM * kN);
    for (uint32_t s = 0; s < kK / kStepK; ++s) {
      const auto k0 = static_cast<uint16_t>(s * kStepK / 64);  // 64-value chunks, scale pairs
      AscendC::LoadData(a2, a1, sa,
                        AscendC::LoadData2DParamsV2(0, k0, kM / 16, 2, kM / 16, kM / 16, false, 0),
                        AscendC::LoadData2DMxParams(0, k0, kM / 16, 2, kK / 64, 2));
      AscendC::LoadData(b2, b1, sb,
                        AscendC::LoadData2DParamsV2(0, k0, kN / 16, 2, kN / 16, kN / 16, false, 0),
                        AscendC::LoadData2DMxParams(0, k0, kN / 16, 2, kK / 64, 2));
      AscendC::MmadParams p;
      p.m = kM;
      p.n = kN;
      p.k = kStepK;
      p.cmatrixInitVal = s == 0;
      AscendC::MmadMx(co1, a2, b2, p);
    }
    const auto* out = static_cast<const float*>(co1.GetPhyAddr());
    for (uint32_t m = 0; m < kM; ++m) {
      for (uint32_t n = 0; n < kN; ++n) c[m * kN + n] = out[(n / 16) * kM * 16 + m * 16 + n % 16];
    }
  });
  EXPECT_EQ(text, "");
  return c;
}

void ExpectOracle(const std::vector<float>& c, const Data& d) {
  for (uint32_t m = 0; m < kM; ++m) {
    for (uint32_t n = 0; n < kN; ++n) {
      double exact = 0, mag = 0;
      for (uint32_t k = 0; k < kK; ++k) {
        const double va = E1m2(d.a[m * kK + k]) * std::ldexp(1.0, d.as[m * kSk + k / 32] - 127);
        const double vb = E2m1(d.b[k * kN + n]) * std::ldexp(1.0, d.bs[(k / 32) * kN + n] - 127);
        exact += va * vb;
        mag += std::fabs(va * vb);
      }
      ASSERT_LE(std::fabs(c[m * kN + n] - exact), (kK + 2) * std::ldexp(mag, -24)) << m << "," << n;
    }
  }
}

TEST(TensorApiMx, MatmulMatchesTheOracleAndIsSanitizerClean) {
  const Data d = Random(7);
  for (const bool alt : {false, true}) {
    std::vector<float> c;
    ASSERT_EQ(RunTensorApi(d, alt, &c, lngrad::aicore::san::kAllTools), "") << alt;
    ExpectOracle(c, d);
  }
}

TEST(TensorApiMx, SameBitsAsTheBasicApi) {
  const Data d = Random(11);
  std::vector<float> c;
  ASSERT_EQ(RunTensorApi(d, false, &c), "");
  const std::vector<float> basic = RunBasicApi(d);
  ASSERT_EQ(basic.size(), c.size());
  EXPECT_EQ(std::memcmp(basic.data(), c.data(), c.size() * sizeof(float)), 0);
  size_t same = 0;
  for (size_t i = 0; i < c.size(); ++i) same += std::memcmp(&basic[i], &c[i], 4) == 0;
  EXPECT_EQ(same, c.size());
}

// Misuse names its check: the scales' copy into a pointer's L0A tensor (not L0ScaleA), a ZZ
// layout into L0ScaleB, a GM -> L1 scale slice from an odd K scale (not a b16 pair).
TEST(TensorApiMx, MisuseIsNamed) {
  std::vector<uint8_t> g(kM * kSk, 127);
  const auto run = [&](int which) {
    return lngrad::cube::test::RunOn(kSoc, [&] {
      CUBE_ARRAY(A1, fp8_e8m0_t[kM * kSk], l1);
      CUBE_ARRAY(A2, fp8_e8m0_t[kM * kSk], l0a);
      auto zz =
          te::MakeTensor(te::MakeMemPtr(l1), te::MakeFrameLayout<te::ZZLayoutPtn, 2>(kM, kSk));
      auto gm = te::MakeTensor(te::MakeMemPtr(reinterpret_cast<fp8_e8m0_t*>(g.data())),
                               te::MakeFrameLayout<te::ScaleANDLayoutPtn>(kM, kSk));
      if (which == 0) {
        te::Copy(
            te::MakeCopy(te::CopyL12L0ScaleA{}),
            te::MakeTensor(te::MakeMemPtr(l0a), te::MakeFrameLayout<te::ZZLayoutPtn, 2>(kM, kSk)),
            zz);
      } else if (which == 1) {
        te::Copy(te::MakeCopy(te::CopyL12L0ScaleB{}),
                 te::MakeTensor(te::MakeMemPtr<te::Location::L0ScaleB, fp8_e8m0_t>(0),
                                te::MakeFrameLayout<te::ZZLayoutPtn, 2>(kM, kSk)),
                 zz);
      } else {
        te::Copy(te::MakeCopy(te::CopyGM2L1{}), zz.Slice(te::MakeCoord(0, 0), te::MakeShape(16, 2)),
                 gm.Slice(te::MakeCoord(0, 1), te::MakeShape(16, 2)));
      }
    });
  };
  EXPECT_NE(
      run(0).find(
          "[tensor_api.position] Copy(CopyL12L0ScaleA): dst is in L0A; it must be in L0ScaleA"),
      std::string::npos)
      << run(0);
  EXPECT_NE(run(1).find("[tensor_api.layout] Copy(CopyL12L0ScaleB): no copy from ZZ to ZZ"),
            std::string::npos)
      << run(1);
  EXPECT_NE(
      run(2).find("[tensor_api.alignment] Copy(CopyGM2L1, MX scales): the K scales' origin 1"),
      std::string::npos)
      << run(2);
}

}  // namespace
