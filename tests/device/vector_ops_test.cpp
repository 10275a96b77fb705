// The element-wise primitives: the Highway path gives the scalar path's bits, in place too.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "../../src/core/device/vector_ops.h"
#include "device_test_util.h"

namespace lngrad::devmath {
namespace {

using detail::BinaryOp;
using detail::Ops;
using detail::ScalarOp;
using detail::UnaryOp;
using testing::FirstBitDifference;

// Random floats over many binades plus the special values that expose rounding and sign
// handling: signed zeros, subnormals, the largest finite values, infinities.
std::vector<float> Mixed(size_t n, uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<uint32_t> bits;
  std::vector<float> v(n);
  const float specials[] = {0.0f, -0.0f, 1e-45f, -1e-45f, 1.17549435e-38f, 3.4028235e38f,
                            -3.4028235e38f, std::numeric_limits<float>::infinity(), 1.0f, -2.5f};
  for (size_t i = 0; i < n; ++i) {
    if (i % 13 == 0) {
      v[i] = specials[(i / 13) % std::size(specials)];
    } else {
      float f = std::bit_cast<float>(bits(gen));
      if (std::isnan(f)) f = 1.5f;
      v[i] = f;
    }
  }
  return v;
}

// Sizes around every vector width (4, 8, 16 lanes) and a long run.
const size_t kSizes[] = {0, 1, 3, 4, 7, 8, 15, 16, 17, 63, 64, 65, 1000};

TEST(VectorOps, BinaryOpsSimdMatchScalarBitwise) {
  for (size_t n : kSizes) {
    const auto a = Mixed(n, 1);
    const auto b = Mixed(n, 2);
    for (BinaryOp op : {BinaryOp::kAdd, BinaryOp::kSub, BinaryOp::kMul, BinaryOp::kDiv}) {
      std::vector<float> s(n), v(n);
      Ops{false}.Binary(op, s.data(), a.data(), b.data(), n);
      Ops{true}.Binary(op, v.data(), a.data(), b.data(), n);
      EXPECT_EQ(FirstBitDifference(s.data(), v.data(), n), -1)
          << "op " << static_cast<int>(op) << " n " << n;
    }
  }
}

TEST(VectorOps, ScalarAndUnaryOpsSimdMatchScalarBitwise) {
  for (size_t n : kSizes) {
    const auto a = Mixed(n, 3);
    for (float sc : {0.0f, -0.5f, 1e-4f, 3.0e38f, 1e-40f}) {
      for (ScalarOp op : {ScalarOp::kAdds, ScalarOp::kSubs, ScalarOp::kMuls, ScalarOp::kDivs}) {
        std::vector<float> s(n), v(n);
        Ops{false}.Scalar(op, s.data(), a.data(), sc, n);
        Ops{true}.Scalar(op, v.data(), a.data(), sc, n);
        EXPECT_EQ(FirstBitDifference(s.data(), v.data(), n), -1)
            << "op " << static_cast<int>(op) << " s " << sc << " n " << n;
      }
    }
    for (UnaryOp op : {UnaryOp::kSqrt, UnaryOp::kRecip}) {
      std::vector<float> s(n), v(n);
      Ops{false}.Unary(op, s.data(), a.data(), n);
      Ops{true}.Unary(op, v.data(), a.data(), n);
      EXPECT_EQ(FirstBitDifference(s.data(), v.data(), n), -1) << "n " << n;
    }
  }
}

TEST(VectorOps, MulThenAddRoundsTwice) {
  // a*b = 1 - 2^-46 exactly, which rounds to 1; adding -1 then gives 0. A fused or wider
  // evaluation would give -2^-46 instead.
  const float a[] = {1.0f + 0x1p-23f};
  const float b[] = {1.0f - 0x1p-23f};
  const float c[] = {-1.0f};
  for (bool simd : {false, true}) {
    float t[1];
    Ops{simd}.Mul(t, a, b, 1);
    Ops{simd}.Add(t, t, c, 1);
    EXPECT_EQ(std::bit_cast<uint32_t>(t[0]), 0u) << "simd " << simd;
  }
  float recip[1];
  const float three[] = {3.0f};
  Ops{true}.Recip(recip, three, 1);
  EXPECT_EQ(std::bit_cast<uint32_t>(recip[0]), 0x3EAAAAABu);  // correctly rounded 1/3
}

TEST(VectorOps, InPlaceGivesTheSameBitsAsOutOfPlace) {
  const size_t n = 203;
  const auto a = Mixed(n, 4);
  const auto b = Mixed(n, 5);
  for (bool simd : {false, true}) {
    std::vector<float> out(n);
    Ops{simd}.Mul(out.data(), a.data(), b.data(), n);
    std::vector<float> inplace = a;
    Ops{simd}.Mul(inplace.data(), inplace.data(), b.data(), n);
    EXPECT_EQ(FirstBitDifference(out.data(), inplace.data(), n), -1);
    std::vector<float> inplace_b = b;
    Ops{simd}.Mul(inplace_b.data(), a.data(), inplace_b.data(), n);
    EXPECT_EQ(FirstBitDifference(out.data(), inplace_b.data(), n), -1);
  }
}

TEST(VectorOps, PartialOverlapRunsElementByElementInBothPaths) {
  // dst = src + 1 element: element order makes each output feed the next input (a prefix
  // sum with b = 1s gives 1, 2, 3, ...). The SIMD request must not change that.
  for (bool simd : {false, true}) {
    std::vector<float> buf(40, 0.0f);
    std::vector<float> ones(39, 1.0f);
    Ops{simd}.Add(buf.data() + 1, buf.data(), ones.data(), 39);
    for (size_t i = 0; i < 40; ++i) EXPECT_EQ(buf[i], static_cast<float>(i)) << "simd " << simd;
  }
}

TEST(VectorOps, HalfCastsRoundToNearestEvenAndSaturateOnlyWhenAsked) {
  const float in[] = {1.0f + 0x1p-11f, 1.0f + 3 * 0x1p-11f, 65520.0f, -1e6f, 0x1p-25f};
  Half out[5];
  detail::CastFloatToHalf(out, in, 5);
  EXPECT_EQ(out[0].bits, 0x3C00);  // tie -> even (1.0)
  EXPECT_EQ(out[1].bits, 0x3C02);  // tie -> even (1 + 2^-9)
  EXPECT_EQ(out[2].bits, 0x7C00);  // 65520 rounds past the largest half: +inf
  EXPECT_EQ(out[3].bits, 0xFC00);
  EXPECT_EQ(out[4].bits, 0x0000);  // half of the smallest subnormal: tie -> even (0)
  EXPECT_EQ(detail::FloatToHalfSaturate(65520.0f).bits, 0x7BFF);
  EXPECT_EQ(detail::FloatToHalfSaturate(-std::numeric_limits<float>::infinity()).bits, 0xFBFF);
  EXPECT_TRUE(std::isnan(HalfBitsToFloat(
      detail::FloatToHalfSaturate(std::numeric_limits<float>::quiet_NaN()).bits)));
  EXPECT_EQ(detail::FloatToHalfSaturate(1.5f).bits, 0x3E00);
}

TEST(VectorOps, DispatchedTargetIsNamed) {
  EXPECT_STRNE(SimdTargetName(), "");
  EXPECT_EQ(ResolveImpl(Impl::kScalar), Impl::kScalar);
  EXPECT_EQ(ResolveImpl(Impl::kSimd), Impl::kSimd);
}

}  // namespace
}  // namespace lngrad::devmath
