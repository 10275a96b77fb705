// The element-wise primitives: the Highway path gives the scalar path's bits, in place too.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>
#include <random>
#include <cstdlib>
#include <vector>

#include "../../src/adv/vector_ops.h"
#include "adv_test_util.h"

namespace lngrad::adv {
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

// Like Mixed, plus NaNs with distinct payloads (quiet and signalling, both signs), values
// that overflow half, half subnormals and float subnormals.
std::vector<float> Special(size_t n, uint32_t seed) {
  std::vector<float> v = Mixed(n, seed);
  const uint32_t nans[] = {0x7FC00000u, 0xFFC00001u, 0x7F800001u, 0xFFA5A5A5u, 0x7FBFFFFFu,
                           0x7FC0F00Du};
  const float more[] = {65504.0f, 65519.99f, 65520.0f, -7e4f, 6.0e-8f, -3.0e-8f, 2.98e-8f,
                        6.1e-5f, -std::numeric_limits<float>::infinity(), 1e-40f};
  for (size_t i = 0; i < n; ++i) {
    if (i % 7 == 3) v[i] = std::bit_cast<float>(nans[(i / 7) % std::size(nans)]);
    if (i % 11 == 5) v[i] = more[(i / 11) % std::size(more)];
  }
  return v;
}

// Index of the first element whose bits differ, NaN payloads included, or -1.
long FirstStrictDifference(const float* a, const float* b, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    if (std::bit_cast<uint32_t>(a[i]) != std::bit_cast<uint32_t>(b[i])) return static_cast<long>(i);
  }
  return -1;
}

TEST(VectorOps, FillAndBroadcastSimdMatchScalarBitwise) {
  const float values[] = {std::bit_cast<float>(0x7FA00001u), -0.0f, 1e-45f, 3.5f};
  for (size_t n : kSizes) {
    for (float value : values) {
      std::vector<float> s(n + 3, 9.0f), v(n + 3, 9.0f);
      detail::Fill(s.data() + 1, value, n, false);
      detail::Fill(v.data() + 1, value, n, true);
      EXPECT_EQ(FirstStrictDifference(s.data(), v.data(), n + 3), -1) << "n " << n;
    }
  }
  for (size_t rows : {1, 3, 8, 17}) {
    for (size_t h : {1, 8, 15, 16, 24, 33, 768}) {
      const auto src = Special(rows, 20);
      std::vector<float> s(rows * h + 2, 9.0f), v(rows * h + 2, 9.0f);
      detail::BroadcastRows(s.data(), src.data(), rows, h, false);
      detail::BroadcastRows(v.data(), src.data(), rows, h, true);
      EXPECT_EQ(FirstStrictDifference(s.data(), v.data(), s.size()), -1) << rows << "x" << h;
      for (size_t r = 0; r < rows; ++r) {
        EXPECT_EQ(std::bit_cast<uint32_t>(s[r * h + h - 1]), std::bit_cast<uint32_t>(src[r]));
      }
    }
  }
}

TEST(VectorOps, HalfToFloatSimdMatchesScalarForEveryHalf) {
  // All 65536 encodings (NaN payloads, signalling NaNs, subnormals, both zeros), at every
  // start offset within a vector so that each value also goes through the scalar tail.
  std::vector<Half> all(65536);
  for (uint32_t b = 0; b < 65536; ++b) all[b] = Half::FromBits(static_cast<uint16_t>(b));
  for (size_t off : {0, 1, 5, 13}) {
    const size_t n = all.size() - off;
    std::vector<float> s(n), v(n);
    detail::CastHalfToFloat(s.data(), all.data() + off, n, false);
    detail::CastHalfToFloat(v.data(), all.data() + off, n, true);
    EXPECT_EQ(FirstStrictDifference(s.data(), v.data(), n), -1) << "offset " << off;
  }
  // The scalar path itself keeps a signalling NaN's payload (not quieted).
  float f;
  const Half snan = Half::FromBits(0x7C01);
  detail::CastHalfToFloat(&f, &snan, 1, false);
  EXPECT_EQ(std::bit_cast<uint32_t>(f), 0x7F802000u);
}

TEST(VectorOps, FloatToHalfSimdMatchesScalar) {
  // Every sign/exponent/top-mantissa pattern (the upper 16 bits) with low halves that sit on,
  // just below and just above the rounding boundaries (ties, odd/even), plus random floats and
  // the special values.
  const uint32_t lows[] = {0x0000u, 0x0001u, 0x0FFFu, 0x1000u, 0x1001u, 0x1FFFu,
                           0x2000u, 0x3000u, 0x7FFFu, 0x8000u, 0xF000u, 0xFFFFu};
  std::vector<float> in;
  in.reserve(65536 * std::size(lows) + 100003);
  for (uint32_t hi = 0; hi < 65536; ++hi) {
    for (uint32_t lo : lows) in.push_back(std::bit_cast<float>((hi << 16) | lo));
  }
  const auto extra = Special(100003, 21);
  in.insert(in.end(), extra.begin(), extra.end());
  for (size_t off : {0, 3}) {
    const size_t n = in.size() - off;
    std::vector<Half> s(n), v(n);
    detail::CastFloatToHalf(s.data(), in.data() + off, n, false);
    detail::CastFloatToHalf(v.data(), in.data() + off, n, true);
    EXPECT_EQ(testing::FirstBitDifference(s.data(), v.data(), n), -1) << "offset " << off;
  }
  // Short lengths (scalar tail only, and one vector plus a tail).
  for (size_t n : kSizes) {
    const auto a = Special(n, 22);
    std::vector<Half> s(n), v(n);
    detail::CastFloatToHalf(s.data(), a.data(), n, false);
    detail::CastFloatToHalf(v.data(), a.data(), n, true);
    EXPECT_EQ(testing::FirstBitDifference(s.data(), v.data(), n), -1) << "n " << n;
  }
}

TEST(VectorOps, TreeSumsSimdMatchScalarBitwise) {
  // Every lane count 0..64 (masked lanes +0, trees narrower than a vector, staging), strides
  // equal to and different from the lane count, group sizes that are not powers of two.
  // Where two NaNs meet, which payload an addition keeps depends on how the compiler orders
  // the operands (it may commute them, devmath.h), so NaN results compare as NaN; every other
  // result, and which results are NaN, must match bit for bit.
  const auto src = Special(64 * 70 + 200, 23);
  for (uint32_t lanes = 0; lanes <= 64; ++lanes) {
    for (size_t stride : {size_t{lanes}, size_t{64}, size_t{67}}) {
      if (stride < lanes) continue;
      for (size_t count : {0, 1, 2, 3, 5, 8, 15, 16, 17, 31, 33, 64}) {
        std::vector<float> s(count + 1, 7.0f), v(count + 1, 7.0f);
        detail::TreeSums(false, src.data(), stride, lanes, count, s.data());
        detail::TreeSums(true, src.data(), stride, lanes, count, v.data());
        EXPECT_EQ(FirstBitDifference(s.data(), v.data(), count + 1), -1)
            << "lanes " << lanes << " stride " << stride << " count " << count;
        for (size_t t = 0; t <= count; ++t) ASSERT_EQ(std::isnan(s[t]), std::isnan(v[t])) << t;
      }
    }
  }
  // Finite data too (a NaN anywhere in a tree hides the other sums): random bits over all
  // binades, and values of mixed magnitude whose sums round differently in another order.
  auto ordered = testing::Uniform(64 * 40, -1.0f, 1.0f, 25);
  for (size_t i = 0; i < ordered.size(); ++i) ordered[i] = std::ldexp(ordered[i], static_cast<int>(i % 29) - 4);
  ordered[5] = -0.0f;
  ordered[70] = 1e-45f;
  for (const auto& finite : {Mixed(64 * 40, 24), ordered}) {
    for (uint32_t lanes : {1u, 2u, 7u, 8u, 12u, 16u, 31u, 48u, 63u, 64u}) {
      std::vector<float> s(40), v(40);
      detail::TreeSums(false, finite.data(), 64, lanes, 40, s.data());
      detail::TreeSums(true, finite.data(), 64, lanes, 40, v.data());
      EXPECT_EQ(FirstStrictDifference(s.data(), v.data(), 40), -1) << "lanes " << lanes;
    }
  }
}

TEST(VectorOps, DispatchedTargetIsNamed) {
  EXPECT_STRNE(SimdTargetName(), "");
  EXPECT_EQ(ResolveImpl(Impl::kScalar), Impl::kScalar);
  EXPECT_EQ(ResolveImpl(Impl::kSimd), Impl::kSimd);
  EXPECT_EQ(ResolveImpl(Impl::kSimdSteps), Impl::kSimdSteps);
  // kAuto: LNGRAD_IMPL=scalar wins, LNGRAD_DEVMATH_FUSE=0 selects the SIMD steps.
  ASSERT_EQ(setenv("LNGRAD_DEVMATH_FUSE", "0", 1), 0);
  EXPECT_EQ(ResolveImpl(Impl::kAuto), Impl::kSimdSteps);
  ASSERT_EQ(setenv("LNGRAD_IMPL", "scalar", 1), 0);
  EXPECT_EQ(ResolveImpl(Impl::kAuto), Impl::kScalar);
  ASSERT_EQ(unsetenv("LNGRAD_IMPL"), 0);
  ASSERT_EQ(unsetenv("LNGRAD_DEVMATH_FUSE"), 0);
  EXPECT_EQ(ResolveImpl(Impl::kAuto), Impl::kSimd);
}

}  // namespace
}  // namespace lngrad::adv
