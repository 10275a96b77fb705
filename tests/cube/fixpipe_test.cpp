// Fixpipe's layouts (ND, NZ, NZ with channel split, DN), ndNum, NormReLU, the casts and the
// int8 quantisation against their definitions, on an L0C filled in the documented NZ layout.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <vector>

#include "kernel_operator.h"
#include "run_on.h"

namespace {

using AscendC::TPosition;
constexpr uint32_t kM = 20, kN = 40, kMs = 32;  // kMs: srcStride (m rounded up to 16)

// L0C holds C(m, n) = m * 0.5 - n * 0.25 (exact in every output type here).
float Value(uint32_t m, uint32_t n) {
  return static_cast<float>(m) * 0.5f - static_cast<float>(n) * 0.25f;
}

AscendC::LocalTensor<float> FilledL0c() {
  return lngrad::cube::test::NzL0c<float>(kM, kN, kMs, Value);
}
using lngrad::cube::test::Gm;

TEST(Fixpipe, NdWithReluAndHalf) {
  const auto c = FilledL0c();
  std::vector<half> out(kM * kN);
  AscendC::FixpipeParamsV220 p(kN, kM, kMs, kN, true);
  p.quantPre = QuantMode_t::F322F16;
  AscendC::Fixpipe(Gm(out), c, p);
  for (uint32_t m = 0; m < kM; ++m) {
    for (uint32_t n = 0; n < kN; ++n) {
      ASSERT_EQ(static_cast<float>(out[m * kN + n]), std::max(Value(m, n), 0.0f)) << m << "," << n;
    }
  }
}

// float to float ND without ReLU (the values' bits as they are): two matrices, a partial last
// column block, rows and matrices apart in GM with gaps that stay untouched. Expected: the
// definition read off L0C's NZ layout element by element.
TEST(Fixpipe, NdFloatOfTwoMatricesCopiesTheBits) {
  AscendC::LocalTensor<float> c(TPosition::CO1, 0, 4096);
  auto* l0c = static_cast<float*>(c.GetPhyAddr());
  for (uint32_t i = 0; i < 4096; ++i) l0c[i] = static_cast<float>(i) * 0.25f - 100.0f;
  constexpr uint32_t kStride = 45, kNdStride = kM * kStride + 7;
  const float kUntouched = -7.5f;
  std::vector<float> out(2 * kNdStride, kUntouched);
  AscendC::FixpipeParamsV220 p(kN, kM, kMs, kStride, false, QuantMode_t::NoQuant, 0, 2, 2,
                               kNdStride, 0);
  AscendC::Fixpipe(Gm(out), c, p);
  std::vector<float> want(out.size(), kUntouched);
  for (uint32_t i = 0; i < 2; ++i) {
    for (uint32_t m = 0; m < kM; ++m) {
      for (uint32_t n = 0; n < kN; ++n) {
        want[i * kNdStride + m * kStride + n] =
            l0c[i * 2 * lngrad::cube::kSrcNdUnit + (n / 16) * kMs * 16 + m * 16 + n % 16];
      }
    }
  }
  for (size_t j = 0; j < out.size(); ++j) ASSERT_EQ(out[j], want[j]) << j;
}

TEST(Fixpipe, NzAndChannelSplit) {
  const auto c = FilledL0c();
  std::vector<float> out(48 * kM);
  AscendC::FixpipeParamsV220 p(48, kM, kMs, kM * 16 * 4 / 32, false);  // dstStride: 32 B blocks
  AscendC::Fixpipe<float, float, AscendC::CFG_NZ>(Gm(out), c, p);
  for (uint32_t m = 0; m < kM; ++m) {
    for (uint32_t n = 0; n < kN; ++n)
      ASSERT_EQ(out[(n / 16) * kM * 16 + m * 16 + n % 16], Value(m, n));
  }
  p.isChannelSplit = true;
  p.dstStride = kM * 8 * 4 / 32;
  AscendC::Fixpipe<float, float, AscendC::CFG_NZ>(Gm(out), c, p);
  for (uint32_t m = 0; m < kM; ++m) {
    for (uint32_t n = 0; n < kN; ++n) ASSERT_EQ(out[(n / 8) * kM * 8 + m * 8 + n % 8], Value(m, n));
  }
}

TEST(Fixpipe, ScalarQuantToInt8) {
  const auto c = FilledL0c();
  std::vector<int8_t> out(kM * kN);
  AscendC::FixpipeParamsV220 p(kN, kM, kMs, kN, false);
  p.quantPre = QuantMode_t::QF322B8_PRE;
  const float scale = 3.0f;
  uint32_t bits;
  std::memcpy(&bits, &scale, 4);
  p.deqScalar = uint64_t{bits} | (uint64_t{1} << 46) | (uint64_t{2} << 37);  // int8, offset 2
  AscendC::Fixpipe(Gm(out), c, p);
  for (uint32_t m = 0; m < kM; ++m) {
    for (uint32_t n = 0; n < kN; ++n) {
      const double want = std::nearbyint(std::clamp(Value(m, n) * 3.0, -256.0, 255.0)) + 2;
      ASSERT_EQ(out[m * kN + n], static_cast<int8_t>(std::clamp(want, -128.0, 127.0)))
          << m << "," << n;
    }
  }
}

TEST(Fixpipe, ChecksTypesAndStrides) {
  const auto c = FilledL0c();
  std::vector<int8_t> out(kM * kN);
  AscendC::FixpipeParamsV220 p(kN, kM, kMs, kN, false);
  EXPECT_THROW(AscendC::Fixpipe(Gm(out), c, p), lngrad::aicore::KernelCheckError);  // no quant
  std::vector<float> f(kM * kN);
  p.srcStride = 16;  // below mSize
  EXPECT_THROW(AscendC::Fixpipe(Gm(f), c, p), lngrad::aicore::KernelCheckError);
}

TEST(Fixpipe, The950sColumnMajor) {
  std::vector<float> out(kM * kN);
  ASSERT_EQ(
      lngrad::cube::test::RunOn(
          "Ascend950PR_9599",
          [&] {
            AscendC::FixpipeParamsArch3510<AscendC::CO2Layout::COLUMN_MAJOR> p(kN, kM, kMs, kM);
            AscendC::Fixpipe<float, float, AscendC::CFG_COLUMN_MAJOR>(Gm(out), FilledL0c(), p);
          }),
      "");
  for (uint32_t m = 0; m < kM; ++m) {
    for (uint32_t n = 0; n < kN; ++n) ASSERT_EQ(out[n * kM + m], Value(m, n));
  }
}

}  // namespace

namespace {

TEST(Fixpipe, ToL1AsNzHalf) {
  const auto c = FilledL0c();
  AscendC::LocalTensor<half> l1(TPosition::C1, 0, 48 * kM);
  AscendC::FixpipeParamsV220 p(48, kM, kMs, kM * 16 * 2 / 32, false);
  p.quantPre = QuantMode_t::F322F16;
  AscendC::Fixpipe<half, float, AscendC::CFG_NZ>(l1, c, p);
  const half* out = static_cast<half*>(l1.GetPhyAddr());
  for (uint32_t m = 0; m < kM; ++m) {
    for (uint32_t n = 0; n < kN; ++n) {
      ASSERT_EQ(static_cast<float>(out[(n / 16) * kM * 16 + m * 16 + n % 16]), Value(m, n));
    }
  }
  AscendC::LocalTensor<half> l0a(TPosition::A2, 0, 48 * kM);
  EXPECT_THROW((AscendC::Fixpipe<half, float, AscendC::CFG_NZ>(l0a, c, p)),
               lngrad::aicore::KernelCheckError);
}

}  // namespace
