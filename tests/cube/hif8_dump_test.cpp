// The 950's cube_buffer_dump paths: Mmad of hifloat8_t A and B into float against a float64
// oracle (values that hifloat8_t holds exactly, checked here), Fixpipe with VQF322BF16_PRE reading
// its per-column values from SetFixPipeConfig's Fixpipe Buffer tensor against a bfloat16 rounding
// written here (nearest even), the Fixpipe Buffer keeping bits [7:0], [31:13] and [46:37] of each
// 8 bytes copied from L1 (the DumpTensor page), and AscendC::DumpTensor / asc_dump_l1buf of the
// cube's memories in the reference's printed form.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "run_on.h"
#include "utils/debug/asc_dump.h"

namespace {

using AscendC::TPosition;
constexpr const char* k950 = "Ascend950PR_9599";
constexpr uint32_t kM = 16, kN = 16, kK = 64;  // 8-bit C0 = 32: two K fractals

double AValue(uint32_t m, uint32_t k) { return std::ldexp(1.0, int((m + 3 * k) % 5) - 2); }
double BValue(uint32_t k, uint32_t n) { return ((k + n) % 3 == 0 ? -1.0 : 1.0) * 0.5; }

// bfloat16 of f, nearest even (f finite), as the reference rounds F322BF16.
uint16_t Bf16Rne(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  return static_cast<uint16_t>((bits + 0x7FFFu + ((bits >> 16) & 1u)) >> 16);
}

TEST(Hif8, MmadIntoFloatMatchesTheOracle) {
  EXPECT_EQ(lngrad::cube::test::RunOn(
                k950,
                [] {
                  AscendC::LocalTensor<hifloat8_t> a(TPosition::A2, 0, kM * kK);
                  AscendC::LocalTensor<hifloat8_t> b(TPosition::B2, 0, kK * kN);
                  AscendC::LocalTensor<float> c(TPosition::CO1, 0, kM * kN);
                  auto* pa = static_cast<hifloat8_t*>(a.GetPhyAddr());
                  auto* pb = static_cast<hifloat8_t*>(b.GetPhyAddr());
                  for (uint32_t m = 0; m < kM; ++m) {
                    for (uint32_t k = 0; k < kK; ++k) {
                      // L0A NZ on the 950: K fractals outer; a fractal row holds 32 k values.
                      pa[(k / 32) * 512 + m * 32 + k % 32] = hifloat8_t(float(AValue(m, k)));
                      ASSERT_EQ(float(pa[(k / 32) * 512 + m * 32 + k % 32]), AValue(m, k));
                    }
                  }
                  for (uint32_t k = 0; k < kK; ++k) {
                    for (uint32_t n = 0; n < kN; ++n) {
                      pb[(k / 32) * 512 + n * 32 + k % 32] = hifloat8_t(float(BValue(k, n)));
                    }
                  }
                  AscendC::MmadParams p;
                  p.m = kM;
                  p.n = kN;
                  p.k = kK;
                  AscendC::Mmad(c, a, b, p);
                  const float* pc = static_cast<float*>(c.GetPhyAddr());
                  for (uint32_t m = 0; m < kM; ++m) {
                    for (uint32_t n = 0; n < kN; ++n) {
                      double want = 0.0;
                      for (uint32_t k = 0; k < kK; ++k) want += AValue(m, k) * BValue(k, n);
                      EXPECT_EQ(pc[m * 16 + n], want) << m << "," << n;  // exact: few bits
                    }
                  }
                }),
            "");
}

TEST(Hif8, VectorBf16QuantReadsTheFixpipeBuffer) {
  std::vector<uint16_t> out(kM * kN);
  EXPECT_EQ(lngrad::cube::test::RunOn(
                k950,
                [&] {
                  AscendC::LocalTensor<float> c(TPosition::CO1, 0, kM * kN);
                  float* pc = static_cast<float*>(c.GetPhyAddr());
                  for (uint32_t i = 0; i < kM * kN; ++i) pc[i] = 1.0f + float(i) / 3.0f;
                  AscendC::LocalTensor<uint64_t> l1(TPosition::C1, 0, 16);
                  auto* q = static_cast<uint64_t*>(l1.GetPhyAddr());
                  for (uint32_t n = 0; n < kN; ++n) {
                    const float scale = n % 2 == 0 ? 1.0f : 0.5f;
                    uint32_t bits;
                    std::memcpy(&bits, &scale, 4);
                    q[n] = bits | 0x1F00u;  // bits [12:8] set: the buffer clears them
                  }
                  AscendC::LocalTensor<uint64_t> fb(TPosition::C2PIPE2GM, 0, 16);
                  AscendC::DataCopy(fb, l1, AscendC::DataCopyParams{1, 1, 0, 0});  // 128 bytes
                  const auto* kept = static_cast<uint64_t*>(fb.GetPhyAddr());
                  for (uint32_t n = 0; n < kN; ++n) EXPECT_EQ(kept[n], q[n] & ~uint64_t{0x1F00});
                  AscendC::SetFixPipeConfig(fb);
                  AscendC::GlobalTensor<bfloat16_t> g;
                  g.SetGlobalBuffer(reinterpret_cast<bfloat16_t*>(out.data()), kM * kN);
                  AscendC::FixpipeParamsArch3510<AscendC::CO2Layout::ROW_MAJOR> fp(kN, kM, kM, kN);
                  fp.quantPre = QuantMode_t::VQF322BF16_PRE;
                  AscendC::Fixpipe<bfloat16_t, float, AscendC::CFG_ROW_MAJOR>(g, c, fp);
                }),
            "");
  for (uint32_t m = 0; m < kM; ++m) {
    for (uint32_t n = 0; n < kN; ++n) {
      const float x = 1.0f + float((n / 16) * kM * 16 + m * 16 + n % 16) / 3.0f;
      EXPECT_EQ(out[m * kN + n], Bf16Rne(x * (n % 2 == 0 ? 1.0f : 0.5f))) << m << "," << n;
    }
  }
}

TEST(Hif8, DumpTensorNamesTheCubeMemories) {
  testing::internal::CaptureStdout();
  EXPECT_EQ(
      lngrad::cube::test::RunOn(k950,
                                [] {
                                  AscendC::LocalTensor<float> l1(TPosition::C1, 256, 2);
                                  static_cast<float*>(l1.GetPhyAddr())[0] = 1.5f;
                                  static_cast<float*>(l1.GetPhyAddr())[1] = -2.0f;
                                  AscendC::DumpTensor(l1, 7, 2);
                                  AscendC::LocalTensor<hifloat8_t> a(TPosition::A1, 0, 2);
                                  static_cast<hifloat8_t*>(a.GetPhyAddr())[0] = hifloat8_t(1.0f);
                                  static_cast<hifloat8_t*>(a.GetPhyAddr())[1] = hifloat8_t(0.5f);
                                  asc_dump_l1buf(static_cast<hifloat8_t*>(a.GetPhyAddr()), 8, 2);
                                  AscendC::LocalTensor<float> bias(TPosition::C2, 64, 1);
                                  static_cast<float*>(bias.GetPhyAddr())[0] = 3.0f;
                                  AscendC::DumpTensor(bias, 9, 1);
                                }),
      "");
  const std::string text = testing::internal::GetCapturedStdout();
  EXPECT_NE(text.find("DumpTensor: desc=7, addr=256, data_type=float32, position=L1, "
                      "dump_size=2\n[1.500000, -2.000000]"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("DumpTensor: desc=8, addr=0, data_type=hifloat8, position=L1, "
                      "dump_size=2\n[1.000000, 0.500000]"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("DumpTensor: desc=9, addr=64, data_type=float32, position=BIAS, "
                      "dump_size=1\n[3.000000]"),
            std::string::npos)
      << text;
}

// A dump is a PIPE_ALL barrier (the device's dump waits for every pipe): an L1 tile that MTE2
// wrote, dumped, then read by FIX is ordered; without the dump the sanitizer names the race.
TEST(Hif8, DumpOrdersThePipesForTheSanitizer) {
  std::vector<uint64_t> gm(16, 0x3F800000u);
  for (const bool dump : {true, false}) {
    const std::string text = lngrad::cube::test::RunOn(
        k950,
        [&] {
          AscendC::LocalTensor<uint64_t> l1(TPosition::C1, 0, 16);
          AscendC::DataCopy(l1, lngrad::cube::test::Gm(gm), 16);
          if (dump) AscendC::DumpTensor(l1, 1, 1);
          AscendC::LocalTensor<uint64_t> fb(TPosition::C2PIPE2GM, 0, 16);
          AscendC::DataCopy(fb, l1, AscendC::DataCopyParams{1, 1, 0, 0});
        },
        lngrad::aicore::san::kAllTools);
    EXPECT_EQ(text.find("read-after-write hazard on L1") == std::string::npos, dump) << text;
  }
}

}  // namespace
