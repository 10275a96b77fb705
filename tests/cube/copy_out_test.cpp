// DataCopy CO1 -> GM with DataCopyCO12DstParams: the Fixpipe registers (SetFixpipePreQuantFlag,
// SetFixpipeNz2ndFlag, SetFixPipeConfig with its L1 -> Fixpipe Buffer copy), NZ and ND outputs,
// REQ8/VREQ8 and DEQF16/VDEQF16, against the conversions written out here from the reference's
// rules (float64: scale, clamp, round to nearest even, offset, clamp), and the checks.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "kernel_operator.h"
#include "run_on.h"

namespace {

using AscendC::TPosition;
constexpr uint32_t kM = 20, kN = 48, kMs = 32;  // kMs: srcStride (m rounded up to 16)

// L0C holds C(m, n) = 7m - 5n - 40 (int32).
int32_t Value(uint32_t m, uint32_t n) {
  return static_cast<int32_t>(7 * m) - static_cast<int32_t>(5 * n) - 40;
}

AscendC::LocalTensor<int32_t> FilledL0c() {
  return lngrad::cube::test::NzL0c<int32_t>(kM, kN, kMs, Value);
}
using lngrad::cube::test::Gm;

// The 64-bit quantisation value: M1 (a float's bits), offset (bits 37..45), sign (bit 46).
uint64_t QuantValue(float m1, uint32_t offset, bool sign) {
  uint32_t bits;
  std::memcpy(&bits, &m1, 4);
  return uint64_t{bits} | (uint64_t{offset} << 37) | (uint64_t{sign ? 1u : 0u} << 46);
}

// REQ8's int8 result of v: v x m1 (0 for v < 0 with ReLU), clamped to [-256, 255], rounded to
// nearest even, plus the offset, clamped to int8.
int8_t Req8(int32_t v, double m1, int offset, bool relu) {
  const double scaled = v < 0 && relu ? 0.0 : v * m1;
  const double r = std::nearbyint(std::clamp(scaled, -256.0, 255.0)) + offset;
  return static_cast<int8_t>(std::clamp(r, -128.0, 127.0));
}

TEST(CopyOut, ScalarReq8AsNd) {
  const auto c = FilledL0c();
  std::vector<int8_t> out(kM * kN);
  AscendC::SetFixpipePreQuantFlag(QuantValue(0.75f, 3, true));
  AscendC::SetFixpipeNz2ndFlag(1, 0, 0);
  AscendC::DataCopyCO12DstParams p(kN, kM, kN, kMs, QuantMode_t::REQ8, 1, false, true);
  AscendC::DataCopy(Gm(out), c, p);
  for (uint32_t m = 0; m < kM; ++m) {
    for (uint32_t n = 0; n < kN; ++n) {
      ASSERT_EQ(out[m * kN + n], Req8(Value(m, n), 0.75, 3, true)) << m << "," << n;
    }
  }
}

// VDEQF16 through the Fixpipe Buffer: column n's scale 2^-(n % 4); NZ output of 16-column blocks
// kM rows apart (dstStride in 32-byte blocks). Every value is exact in half.
TEST(CopyOut, VectorDeqf16AsNz) {
  const auto c = FilledL0c();
  AscendC::LocalTensor<uint64_t> l1(TPosition::C1, 0, kN);
  auto* values = static_cast<uint64_t*>(l1.GetPhyAddr());
  for (uint32_t n = 0; n < kN; ++n) values[n] = QuantValue(std::ldexp(1.0f, -int(n % 4)), 0, 0);
  AscendC::LocalTensor<uint64_t> fb(TPosition::C2PIPE2GM, 0, kN);
  AscendC::DataCopy(fb, l1, AscendC::DataCopyParams(1, kN * 8 / 128, 0, 0));
  AscendC::SetFixPipeConfig(fb);
  std::vector<half> out(kN * kM);
  AscendC::DataCopyCO12DstParams p(kN, kM, kM * 16 * 2 / 32, kMs, QuantMode_t::VDEQF16, 0, false,
                                   false);
  AscendC::DataCopy(Gm(out), c, p);
  for (uint32_t m = 0; m < kM; ++m) {
    for (uint32_t n = 0; n < kN; ++n) {
      ASSERT_EQ(static_cast<float>(out[(n / 16) * kM * 16 + m * 16 + n % 16]),
                std::ldexp(static_cast<double>(Value(m, n)), -int(n % 4)))
          << m << "," << n;
    }
  }
}

// NZ2ND with two matrices: the second 2 x 16 x 16 floats (2 KiB: srcNdStride 2 x 1024 B) on in
// L0C, dstNdStride elements apart in GM.
TEST(CopyOut, Nz2ndOfTwoMatrices) {
  AscendC::LocalTensor<int32_t> c(TPosition::CO1, 0, 2 * 512);
  auto* p = static_cast<int32_t*>(c.GetPhyAddr());
  for (uint32_t i = 0; i < 2 * 512; ++i) p[i] = static_cast<int32_t>(i);
  std::vector<int32_t> out(2 * 16 * 16 + 8);
  AscendC::SetFixpipeNz2ndFlag(2, 2, 16 * 16 + 8);
  AscendC::DataCopyCO12DstParams params(16, 16, 16, 16, QuantMode_t::NoQuant, 0, false, true);
  AscendC::DataCopy(Gm(out), c, params);
  for (uint32_t i = 0; i < 2; ++i) {
    for (uint32_t m = 0; m < 16; ++m) {
      for (uint32_t n = 0; n < 16; ++n) {
        ASSERT_EQ(out[i * (16 * 16 + 8) + m * 16 + n], static_cast<int32_t>(i * 512 + m * 16 + n));
      }
    }
  }
  AscendC::SetFixpipeNz2ndFlag(1, 0, 0);
}

TEST(CopyOut, Checks) {
  std::vector<int8_t> out(kM * kN);
  // A vector mode before SetFixPipeConfig named a Fixpipe Buffer tensor (a fresh block).
  const std::string text = lngrad::cube::test::RunOn("Ascend910B1", [&] {
    AscendC::DataCopyCO12DstParams p(kN, kM, kN, kMs, QuantMode_t::VREQ8, 0, false, true);
    AscendC::DataCopy(Gm(out), FilledL0c(), p);
  });
  EXPECT_NE(text.find("[cube.params] DataCopy(CO1->GM, DataCopyCO12DstParams)"), std::string::npos)
      << text;
  EXPECT_NE(text.find("SetFixPipeConfig"), std::string::npos) << text;
  const auto c = FilledL0c();
  AscendC::DataCopyCO12DstParams p(kN, kM, kN, kMs, QuantMode_t::REQ8, 2, false, true);
  EXPECT_THROW(AscendC::DataCopy(Gm(out), c, p), lngrad::aicore::KernelCheckError);  // reluPre 2
  EXPECT_THROW(AscendC::SetFixpipeNz2ndFlag(0, 0, 0), lngrad::aicore::KernelCheckError);
  EXPECT_THROW(AscendC::SetFixpipeNz2ndFlag(2, 0, 16), lngrad::aicore::KernelCheckError);
  std::vector<float> f(kM * kN);
  p.reluPre = 0;
  EXPECT_THROW(AscendC::DataCopy(Gm(f), c, p), lngrad::aicore::KernelCheckError);  // int32->float
}

// The sanitizer: the L1 -> Fixpipe Buffer copy runs on FIX, so an L1 it reads that MTE2 wrote
// needs an MTE2 -> FIX flag; FIX's copy then conversion need nothing between them.
std::string RunQuantOut(bool mte2_fix) {
  std::vector<uint64_t> q(kN, QuantValue(1.0f, 0, true));
  std::vector<int8_t> out(kM * kN);
  return lngrad::cube::test::RunOn(
      "Ascend910B1",
      [&] {
        const auto c = FilledL0c();
        AscendC::LocalTensor<uint64_t> l1(TPosition::C1, 0, kN);
        AscendC::DataCopy(l1, Gm(q), kN);
        if (mte2_fix) {
          AscendC::SetFlag<AscendC::HardEvent::MTE2_FIX>(EVENT_ID0);
          AscendC::WaitFlag<AscendC::HardEvent::MTE2_FIX>(EVENT_ID0);
        }
        AscendC::LocalTensor<uint64_t> fb(TPosition::C2PIPE2GM, 0, kN);
        AscendC::DataCopy(fb, l1, AscendC::DataCopyParams(1, kN * 8 / 128, 0, 0));
        AscendC::SetFixPipeConfig(fb);
        AscendC::SetFixpipeNz2ndFlag(1, 0, 0);
        AscendC::DataCopyCO12DstParams p(kN, kM, kN, kMs, QuantMode_t::VREQ8, 0, false, true);
        AscendC::DataCopy(Gm(out), c, p);
        AscendC::PipeBarrier<PIPE_ALL>();
      },
      lngrad::aicore::san::kAllTools);
}

TEST(CopyOut, SanitizerSeesTheFixpipeBufferCopy) {
  EXPECT_EQ(RunQuantOut(true), "");
  const std::string text = RunQuantOut(false);
  EXPECT_NE(text.find("DataCopy(C1->C2PIPE2GM, DataCopyParams)"), std::string::npos) << text;
  EXPECT_NE(text.find("MTE2_FIX"), std::string::npos) << text;
}

}  // namespace
