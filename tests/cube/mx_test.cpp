// The MX forms (the 950): every fp8/fp4/e8m0 code against a decoding written here from the
// formats' definitions (OCP Microscaling: sign, exponent with its bias, mantissa; e4m3fn's only
// NaN is S.1111.111, e5m2 has infinities; e8m0 is 2^(code - 127), 0xFF NaN), and MmadMx after
// LoadData with LoadData2DMxParams against a float64 oracle. The operands are written into L1 by
// this test's own reading of the layouts (A and B NZ, 16-row blocks of 32-byte rows; scales in
// 16 x 2 fractals, row blocks outer and K pairs inner).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "run_on.h"

namespace {

using AscendC::TPosition;
using lngrad::cube::Elem;

// The format definitions: value of a code with `e` exponent bits (bias 2^(e-1) - 1, 1 for fp4)
// and `m` mantissa bits; field 0 subnormal.
double MiniFloat(uint32_t code, int e, int m, int bias) {
  const uint32_t exp = (code >> m) & ((1u << e) - 1u), man = code & ((1u << m) - 1u);
  const double frac = static_cast<double>(man) / (1u << m);
  const double mag = exp == 0 ? std::ldexp(frac, 1 - bias) : std::ldexp(1 + frac, int(exp) - bias);
  return ((code >> (e + m)) & 1u) != 0 ? -mag : mag;
}

TEST(Mx, Fp4CodesAreTheTables) {
  // e2m1: 0, 0.5, 1, 1.5, 2, 3, 4, 6; e1m2: 0, 0.25, ..., 1.75 (the sign bit negates).
  const double e2m1[8] = {0, 0.5, 1, 1.5, 2, 3, 4, 6};
  const double e1m2[8] = {0, 0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75};
  for (uint32_t c = 0; c < 16; ++c) {
    const double sign = c >= 8 ? -1.0 : 1.0;
    EXPECT_EQ(lngrad::cube::MxValue(Elem::kF4E2M1, c), sign * e2m1[c % 8]) << c;
    EXPECT_EQ(lngrad::cube::MxValue(Elem::kF4E1M2, c), sign * e1m2[c % 8]) << c;
  }
}

TEST(Mx, Fp8AndE8m0Codes) {
  for (uint32_t c = 0; c < 256; ++c) {
    const float e4 = lngrad::cube::MxValue(Elem::kF8E4M3, c);
    if ((c & 0x7Fu) == 0x7Fu) {
      EXPECT_TRUE(std::isnan(e4)) << c;
    } else {
      EXPECT_EQ(e4, MiniFloat(c, 4, 3, 7)) << c;
    }
    const float e5 = lngrad::cube::MxValue(Elem::kF8E5M2, c);
    if ((c & 0x7Cu) == 0x7Cu) {
      EXPECT_TRUE((c & 3u) == 0 ? std::isinf(e5) && (e5 < 0) == (c >= 128) : std::isnan(e5)) << c;
    } else {
      EXPECT_EQ(e5, MiniFloat(c, 5, 2, 15)) << c;
    }
    const float s = lngrad::cube::MxValue(Elem::kE8M0, c);
    if (c == 255) {
      EXPECT_TRUE(std::isnan(s));
    } else {
      EXPECT_EQ(static_cast<double>(s), std::pow(2.0, static_cast<double>(c) - 127.0)) << c;
    }
  }
}

constexpr uint32_t kM = 32, kN = 48, kK = 128;

struct Operand {
  std::vector<uint32_t> codes;  // rows x kK value codes
  std::vector<uint8_t> scales;  // rows x kK / 32 e8m0 codes
};

Operand Random(uint32_t rows, uint32_t bits, uint32_t seed) {
  std::mt19937 gen(seed);
  Operand o{std::vector<uint32_t>(rows * kK), std::vector<uint8_t>(rows * kK / 32)};
  for (auto& c : o.codes) {
    do {
      c = gen() & ((1u << bits) - 1u);
    } while (bits == 8 && (c & 0x78u) == 0x78u);  // no e4m3 NaN nor e5m2 inf/NaN
  }
  for (auto& s : o.scales) s = static_cast<uint8_t>(120 + gen() % 16);
  return o;
}

// L1 at byte `at`: the values NZ (16-row blocks of 32-byte rows, K chunks outer), then at
// `scale_at` the scales as 16 x 2 fractals (row blocks outer, K pairs inner).
void WriteL1(std::byte* l1, uint32_t at, uint32_t scale_at, const Operand& o, uint32_t rows,
             uint32_t bits) {
  const uint32_t c0 = 256 / bits;
  for (uint32_t r = 0; r < rows; ++r) {
    for (uint32_t k = 0; k < kK; ++k) {
      const uint64_t i =
          (uint64_t{k / c0} * (rows / 16) + r / 16) * 16 * c0 + (r % 16) * c0 + k % c0;
      auto& b = l1[at + i * bits / 8];
      const auto v = static_cast<uint8_t>(o.codes[r * kK + k]);
      if (bits == 8) {
        b = std::byte{v};
      } else {
        b = std::byte((static_cast<uint8_t>(b) & (i % 2 == 0 ? 0xF0 : 0x0F)) |
                      (i % 2 == 0 ? v : v << 4));
      }
    }
    for (uint32_t g = 0; g < kK / 32; ++g) {
      l1[scale_at + (r / 16 * (kK / 64) + g / 2) * 32 + (r % 16) * 2 + g % 2] =
          std::byte{o.scales[r * (kK / 32) + g]};
    }
  }
}

template <typename TA, typename TB>
std::vector<float> RunMx(const Operand& a, const Operand& b, uint32_t bits) {
  std::vector<float> c(kM * kN);
  const std::string text = lngrad::cube::test::RunOn("Ascend950PR_9599", [&] {
    AscendC::LocalTensor<uint8_t> raw(TPosition::A1, 0, 128 * 1024);
    auto* l1 = static_cast<std::byte*>(raw.GetPhyAddr());
    WriteL1(l1, 0, 32768, a, kM, bits);
    WriteL1(l1, 65536, 98304, b, kN, bits);
    constexpr uint32_t vals = 65536;  // elements per tensor (ample)
    AscendC::LocalTensor<TA> a1(TPosition::A1, 0, vals), a2(TPosition::A2, 0, vals / 2);
    AscendC::LocalTensor<TB> b1(TPosition::B1, 65536, vals), b2(TPosition::B2, 0, vals / 2);
    AscendC::LocalTensor<fp8_e8m0_t> sa(TPosition::A1, 32768, 1024), sb(TPosition::B1, 98304, 1024);
    const uint16_t k_steps = kK * bits / 256;
    AscendC::LoadData(
        a2, a1, sa, AscendC::LoadData2DParamsV2(0, 0, kM / 16, k_steps, kM / 16, kM / 16, false, 0),
        AscendC::LoadData2DMxParams(0, 0, kM / 16, kK / 64, kK / 64, kK / 64));
    AscendC::LoadData(
        b2, b1, sb, AscendC::LoadData2DParamsV2(0, 0, kN / 16, k_steps, kN / 16, kN / 16, false, 0),
        AscendC::LoadData2DMxParams(0, 0, kN / 16, kK / 64, kK / 64, kK / 64));
    AscendC::LocalTensor<float> co1(TPosition::CO1, 0, kM * kN);
    AscendC::MmadParams p;
    p.m = kM;
    p.n = kN;
    p.k = kK;
    AscendC::MmadMx(co1, a2, b2, p);
    const auto* out = static_cast<const float*>(co1.GetPhyAddr());
    for (uint32_t m = 0; m < kM; ++m) {
      for (uint32_t n = 0; n < kN; ++n) c[m * kN + n] = out[(n / 16) * kM * 16 + m * 16 + n % 16];
    }
  });
  EXPECT_EQ(text, "");
  return c;
}

// |C - exact| <= (k + 2) x 2^-24 x sum |products|: each product exact (powers of two times at most
// 4-bit significands), each of the k additions rounding once.
void ExpectOracle(const std::vector<float>& c, const Operand& a, Elem ea, const Operand& b,
                  Elem eb) {
  for (uint32_t m = 0; m < kM; ++m) {
    for (uint32_t n = 0; n < kN; ++n) {
      double exact = 0, mag = 0;
      for (uint32_t k = 0; k < kK; ++k) {
        const double va = lngrad::cube::MxValue(ea, a.codes[m * kK + k]) *
                          std::ldexp(1.0, a.scales[m * (kK / 32) + k / 32] - 127);
        const double vb = lngrad::cube::MxValue(eb, b.codes[n * kK + k]) *
                          std::ldexp(1.0, b.scales[n * (kK / 32) + k / 32] - 127);
        exact += va * vb;
        mag += std::fabs(va * vb);
      }
      ASSERT_LE(std::fabs(c[m * kN + n] - exact), (kK + 2) * std::ldexp(mag, -24)) << m << "," << n;
    }
  }
}

TEST(Mx, MmadMxFp8AgainstFloat64) {
  const Operand a = Random(kM, 8, 1), b = Random(kN, 8, 2);
  ExpectOracle(RunMx<fp8_e4m3fn_t, fp8_e5m2_t>(a, b, 8), a, Elem::kF8E4M3, b, Elem::kF8E5M2);
}

TEST(Mx, MmadMxFp4AgainstFloat64) {
  const Operand a = Random(kM, 4, 3), b = Random(kN, 4, 4);
  ExpectOracle(RunMx<fp4x2_e2m1_t, fp4x2_e1m2_t>(a, b, 4), a, Elem::kF4E2M1, b, Elem::kF4E1M2);
}

TEST(Mx, Checks) {
  AscendC::MmadParams p;
  p.m = 16;
  p.n = 16;
  p.k = 96;  // not a multiple of 64
  const std::string k_text = lngrad::cube::test::RunOn("Ascend950PR_9599", [&] {
    AscendC::LocalTensor<fp8_e4m3fn_t> a2(TPosition::A2, 0, 2048), b2(TPosition::B2, 0, 2048);
    AscendC::LocalTensor<float> co1(TPosition::CO1, 0, 256);
    AscendC::MmadMx(co1, a2, b2, p);
  });
  EXPECT_NE(k_text.find("[cube.params] MmadMx: k 96 must be a multiple of 64"), std::string::npos)
      << k_text;
  // The scales of an L0A tensor at 63 KiB start at 4032 of the 4 KiB L0A_MX: 4 fractals overflow.
  const std::string mx_text = lngrad::cube::test::RunOn("Ascend950PR_9599", [&] {
    AscendC::LocalTensor<fp8_e4m3fn_t> a1(TPosition::A1, 0, 4096),
        a2(TPosition::A2, 63 * 1024, 512);
    AscendC::LocalTensor<fp8_e8m0_t> s1(TPosition::A1, 8192, 1024);
    AscendC::LoadData(a2, a1, s1, AscendC::LoadData2DParamsV2(0, 0, 1, 1, 1, 1, false, 0),
                      AscendC::LoadData2DMxParams(0, 0, 1, 4, 4, 4));
  });
  EXPECT_NE(mx_text.find("[cube.bounds]"), std::string::npos) << mx_text;
  EXPECT_NE(mx_text.find("L0A_MX"), std::string::npos) << mx_text;
}

// The sanitizer sees the MX forms: the scales' L1 read right after an MTE1 Fill of them (no
// PipeBarrier<PIPE_MTE1>), the operands' MTE1 writes then MmadMx's M read (no MTE1 -> M flag).
TEST(Mx, SanitizerSeesTheMxForms) {
  const std::string text = lngrad::cube::test::RunOn(
      "Ascend950PR_9599",
      [&] {
        AscendC::LocalTensor<fp8_e4m3fn_t> a1(TPosition::A1, 0, 2048), a2(TPosition::A2, 0, 2048);
        AscendC::LocalTensor<fp8_e4m3fn_t> b2(TPosition::B2, 0, 2048);
        AscendC::LocalTensor<fp8_e8m0_t> s1(TPosition::A1, 8192, 1024);
        AscendC::Fill(a1.ReinterpretCast<uint16_t>(),
                      AscendC::InitConstValueParams<uint16_t>(1, 64, 0, 0));
        AscendC::Fill(s1.ReinterpretCast<uint16_t>(),
                      AscendC::InitConstValueParams<uint16_t>(1, 2, 0, 0x7F7F));
        AscendC::LoadData(a2, a1, s1, AscendC::LoadData2DParamsV2(0, 0, 1, 2, 1, 1, false, 0),
                          AscendC::LoadData2DMxParams(0, 0, 1, 1, 1, 1));
        AscendC::LoadData(b2, a1, s1, AscendC::LoadData2DParamsV2(0, 0, 1, 2, 1, 1, false, 0),
                          AscendC::LoadData2DMxParams(0, 0, 1, 1, 1, 1));
        AscendC::LocalTensor<float> co1(TPosition::CO1, 0, 256);
        AscendC::MmadParams p;
        p.m = 16;
        p.n = 16;
        p.k = 64;
        AscendC::MmadMx(co1, a2, b2, p);
        AscendC::PipeBarrier<PIPE_ALL>();
      },
      lngrad::aicore::san::kAllTools);
  EXPECT_NE(text.find("then M MmadMx"), std::string::npos) << text;
  EXPECT_NE(text.find("then MTE1 LoadData(L1->L0 MX scales, LoadData2DMxParams)"),
            std::string::npos)
      << text;
}

}  // namespace
