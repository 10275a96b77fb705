// The instruction set (lngrad_aicore/instructions.h): the Highway path gives the scalar path's
// bits, in place too, for float and half operands.
#include <gtest/gtest.h>
#include <hwy/targets.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <iterator>
#include <limits>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "bits_test_util.h"
#include "lngrad_aicore/instructions.h"

namespace lngrad::aicore {
namespace {

using testing::FirstBitDifference;

// Random floats over many binades plus the special values that expose rounding and sign
// handling: signed zeros, subnormals, the largest finite values, infinities.
std::vector<float> Mixed(size_t n, uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<uint32_t> bits;
  std::vector<float> v(n);
  const float specials[] = {0.0f,
                            -0.0f,
                            1e-45f,
                            -1e-45f,
                            1.17549435e-38f,
                            3.4028235e38f,
                            -3.4028235e38f,
                            std::numeric_limits<float>::infinity(),
                            1.0f,
                            -2.5f};
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
    for (BinaryOp op : {BinaryOp::kAdd, BinaryOp::kSub, BinaryOp::kMul, BinaryOp::kDiv,
                        BinaryOp::kMax, BinaryOp::kMin}) {
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
      for (ScalarOp op : {ScalarOp::kAdds, ScalarOp::kSubs, ScalarOp::kMuls, ScalarOp::kDivs,
                          ScalarOp::kMaxs, ScalarOp::kMins}) {
        std::vector<float> s(n), v(n);
        Ops{false}.Scalar(op, s.data(), a.data(), sc, n);
        Ops{true}.Scalar(op, v.data(), a.data(), sc, n);
        EXPECT_EQ(FirstBitDifference(s.data(), v.data(), n), -1)
            << "op " << static_cast<int>(op) << " s " << sc << " n " << n;
      }
    }
    for (UnaryOp op : {UnaryOp::kSqrt, UnaryOp::kRecip, UnaryOp::kAbs, UnaryOp::kRelu,
                       UnaryOp::kExp, UnaryOp::kLn, UnaryOp::kRsqrt}) {
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
  CastFloatToHalf(out, in, 5);
  EXPECT_EQ(out[0].bits, 0x3C00);  // tie -> even (1.0)
  EXPECT_EQ(out[1].bits, 0x3C02);  // tie -> even (1 + 2^-9)
  EXPECT_EQ(out[2].bits, 0x7C00);  // 65520 rounds past the largest half: +inf
  EXPECT_EQ(out[3].bits, 0xFC00);
  EXPECT_EQ(out[4].bits, 0x0000);  // half of the smallest subnormal: tie -> even (0)
  EXPECT_EQ(FloatToHalfSaturate(65520.0f).bits, 0x7BFF);
  EXPECT_EQ(FloatToHalfSaturate(-std::numeric_limits<float>::infinity()).bits, 0xFBFF);
  // The Cast documentation's saturation mode turns NaN into 0 (issue 14).
  EXPECT_EQ(FloatToHalfSaturate(std::numeric_limits<float>::quiet_NaN()).bits, 0x0000);
  EXPECT_EQ(FloatToHalfSaturate(-std::numeric_limits<float>::quiet_NaN()).bits, 0x0000);
  EXPECT_EQ(FloatToHalfSaturate(std::numeric_limits<float>::infinity()).bits, 0x7BFF);
  EXPECT_EQ(FloatToHalfSaturate(1.5f).bits, 0x3E00);
}

// Like Mixed, plus NaNs with distinct payloads (quiet and signalling, both signs), values
// that overflow half, half subnormals and float subnormals.
std::vector<float> Special(size_t n, uint32_t seed) {
  std::vector<float> v = Mixed(n, seed);
  const uint32_t nans[] = {0x7FC00000u, 0xFFC00001u, 0x7F800001u,
                           0xFFA5A5A5u, 0x7FBFFFFFu, 0x7FC0F00Du};
  const float more[] = {65504.0f, 65519.99f, 65520.0f,
                        -7e4f,    6.0e-8f,   -3.0e-8f,
                        2.98e-8f, 6.1e-5f,   -std::numeric_limits<float>::infinity(),
                        1e-40f};
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
      Fill(s.data() + 1, value, n, false);
      Fill(v.data() + 1, value, n, true);
      EXPECT_EQ(FirstStrictDifference(s.data(), v.data(), n + 3), -1) << "n " << n;
    }
  }
  for (size_t rows : {1, 3, 8, 17}) {
    for (size_t h : {1, 8, 15, 16, 24, 33, 768}) {
      const auto src = Special(rows, 20);
      std::vector<float> s(rows * h + 2, 9.0f), v(rows * h + 2, 9.0f);
      BroadcastRows(s.data(), src.data(), rows, h, false);
      BroadcastRows(v.data(), src.data(), rows, h, true);
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
    CastHalfToFloat(s.data(), all.data() + off, n, false);
    CastHalfToFloat(v.data(), all.data() + off, n, true);
    EXPECT_EQ(FirstStrictDifference(s.data(), v.data(), n), -1) << "offset " << off;
  }
  // The scalar path itself keeps a signalling NaN's payload (not quieted).
  float f;
  const Half snan = Half::FromBits(0x7C01);
  CastHalfToFloat(&f, &snan, 1, false);
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
    CastFloatToHalf(s.data(), in.data() + off, n, false);
    CastFloatToHalf(v.data(), in.data() + off, n, true);
    EXPECT_EQ(testing::FirstBitDifference(s.data(), v.data(), n), -1) << "offset " << off;
  }
  // Short lengths (scalar tail only, and one vector plus a tail).
  for (size_t n : kSizes) {
    const auto a = Special(n, 22);
    std::vector<Half> s(n), v(n);
    CastFloatToHalf(s.data(), a.data(), n, false);
    CastFloatToHalf(v.data(), a.data(), n, true);
    EXPECT_EQ(testing::FirstBitDifference(s.data(), v.data(), n), -1) << "n " << n;
  }
}

TEST(VectorOps, TreeSumsSimdMatchScalarBitwise) {
  // Every lane count 0..64 (masked lanes +0, trees narrower than a vector, staging), strides
  // equal to and different from the lane count, group sizes that are not powers of two.
  // Where two NaNs meet, which payload an addition keeps depends on how the compiler orders
  // the operands (it may commute them, instructions.h), so NaN results compare as NaN; every other
  // result, and which results are NaN, must match bit for bit.
  const auto src = Special(64 * 70 + 200, 23);
  for (uint32_t lanes = 0; lanes <= 64; ++lanes) {
    for (size_t stride : {size_t{lanes}, size_t{64}, size_t{67}}) {
      if (stride < lanes) continue;
      for (size_t count : {0, 1, 2, 3, 5, 8, 15, 16, 17, 31, 33, 64}) {
        std::vector<float> s(count + 1, 7.0f), v(count + 1, 7.0f);
        TreeSums(false, src.data(), stride, lanes, count, s.data());
        TreeSums(true, src.data(), stride, lanes, count, v.data());
        EXPECT_EQ(FirstBitDifference(s.data(), v.data(), count + 1), -1)
            << "lanes " << lanes << " stride " << stride << " count " << count;
        for (size_t t = 0; t <= count; ++t) ASSERT_EQ(std::isnan(s[t]), std::isnan(v[t])) << t;
      }
    }
  }
  // Finite data too (a NaN anywhere in a tree hides the other sums): random bits over all
  // binades, and values of mixed magnitude whose sums round differently in another order.
  auto ordered = testing::Uniform(64 * 40, -1.0f, 1.0f, 25);
  for (size_t i = 0; i < ordered.size(); ++i)
    ordered[i] = std::ldexp(ordered[i], static_cast<int>(i % 29) - 4);
  ordered[5] = -0.0f;
  ordered[70] = 1e-45f;
  for (const auto& finite : {Mixed(64 * 40, 24), ordered}) {
    for (uint32_t lanes : {1u, 2u, 7u, 8u, 12u, 16u, 31u, 48u, 63u, 64u}) {
      std::vector<float> s(40), v(40);
      TreeSums(false, finite.data(), 64, lanes, 40, s.data());
      TreeSums(true, finite.data(), 64, lanes, 40, v.data());
      EXPECT_EQ(FirstStrictDifference(s.data(), v.data(), 40), -1) << "lanes " << lanes;
    }
  }
}

// Every half encoding in a shuffled order (NaN payloads, signalling NaNs, infinities,
// subnormals, both zeros).
std::vector<Half> AllHalves(uint32_t seed) {
  std::vector<Half> v(65536);
  for (uint32_t b = 0; b < 65536; ++b) v[b] = Half::FromBits(static_cast<uint16_t>(b));
  std::shuffle(v.begin(), v.end(), std::mt19937(seed));
  return v;
}

bool IsNan(Half h) { return (h.bits & 0x7FFFu) > 0x7C00u; }
float Widen(Half h) { return HalfBitsToFloat(h.bits); }
Half Narrow(float f) { return Half::FromBits(FloatToHalfBits(f)); }

// Index of the first result that differs from `want`, or -1. Where both operands are NaN, which
// payload survives is not promised (the compiler may commute the operands): NaN-ness must match.
template <class Want>
long FirstHalfMismatch(const Half* got, const Half* a, const Half* b, size_t n, Want want) {
  for (size_t i = 0; i < n; ++i) {
    const Half w = want(i);
    if (b != nullptr && IsNan(a[i]) && IsNan(b[i])) {
      if (!IsNan(got[i])) return static_cast<long>(i);
    } else if (got[i].bits != w.bits) {
      return static_cast<long>(i);
    }
  }
  return -1;
}

// The two-operand forms in one order, vector-vector and vector-scalar, and their float model.
constexpr BinaryOp kBinaryOps[] = {BinaryOp::kAdd, BinaryOp::kSub, BinaryOp::kMul,
                                   BinaryOp::kDiv, BinaryOp::kMax, BinaryOp::kMin};
constexpr ScalarOp kScalarOps[] = {ScalarOp::kAdds, ScalarOp::kSubs, ScalarOp::kMuls,
                                   ScalarOp::kDivs, ScalarOp::kMaxs, ScalarOp::kMins};
float TwoOperandModel(size_t k, float x, float y) {
  switch (k) {
    case 0:
      return x + y;
    case 1:
      return x - y;
    case 2:
      return x * y;
    case 3:
      return x / y;
    case 4:
      return x > y ? x : y;
    default:
      return x < y ? x : y;
  }
}

TEST(VectorOps, HalfOpsSimdMatchScalarAndTheRoundedFloatOperation) {
  // Half operands: widened exactly, one float operation, one RNE rounding, in both paths, at
  // lengths that leave every possible tail after the last full vector.
  const auto a = AllHalves(30);
  const auto b = AllHalves(31);
  std::vector<size_t> sizes(std::begin(kSizes), std::end(kSizes));
  sizes.push_back(a.size());
  for (size_t n : sizes) {
    for (size_t k = 0; k < std::size(kBinaryOps); ++k) {
      const BinaryOp op = kBinaryOps[k];
      const auto f = [&](size_t i) { return Narrow(TwoOperandModel(k, Widen(a[i]), Widen(b[i]))); };
      for (bool simd : {false, true}) {
        std::vector<Half> out(n);
        Ops{simd}.Binary(op, out.data(), a.data(), b.data(), n);
        EXPECT_EQ(FirstHalfMismatch(out.data(), a.data(), b.data(), n, f), -1)
            << "op " << static_cast<int>(op) << " n " << n << " simd " << simd;
      }
    }
    for (float sc :
         {0.0f, -0.5f, 3.0f, 65504.0f, 5.96e-8f, -std::numeric_limits<float>::infinity()}) {
      for (size_t k = 0; k < std::size(kScalarOps); ++k) {
        const ScalarOp op = kScalarOps[k];
        const auto f = [&](size_t i) { return Narrow(TwoOperandModel(k, Widen(a[i]), sc)); };
        for (bool simd : {false, true}) {
          std::vector<Half> out(n);
          Ops{simd}.Scalar(op, out.data(), a.data(), sc, n);
          EXPECT_EQ(FirstHalfMismatch(out.data(), a.data(), nullptr, n, f), -1)
              << "op " << static_cast<int>(op) << " s " << sc << " n " << n << " simd " << simd;
        }
      }
    }
    for (UnaryOp op : {UnaryOp::kSqrt, UnaryOp::kRecip, UnaryOp::kAbs, UnaryOp::kRelu,
                       UnaryOp::kExp, UnaryOp::kLn, UnaryOp::kRsqrt}) {
      const auto f = [&](size_t i) {
        const float x = Widen(a[i]);
        switch (op) {
          case UnaryOp::kSqrt:
            return Narrow(std::sqrt(x));
          case UnaryOp::kRecip:
            return Narrow(1.0f / x);
          case UnaryOp::kAbs:
            return Narrow(std::fabs(x));
          case UnaryOp::kRelu:
            return Narrow(x > 0 ? x : 0.0f);
          default:
            return lngrad::aicore::DoubleToHalf(op == UnaryOp::kExp  ? std::exp(double{x})
                                                : op == UnaryOp::kLn ? std::log(double{x})
                                                                     : 1.0 / std::sqrt(double{x}));
        }
      };
      for (bool simd : {false, true}) {
        std::vector<Half> out(n);
        Ops{simd}.Unary(op, out.data(), a.data(), n);
        EXPECT_EQ(FirstHalfMismatch(out.data(), a.data(), nullptr, n, f), -1)
            << "op " << static_cast<int>(op) << " n " << n << " simd " << simd;
      }
    }
  }
}

TEST(VectorOps, HalfInPlaceAndPartialOverlap) {
  const size_t n = 203;
  auto a = AllHalves(32);
  auto b = AllHalves(33);
  a.resize(n);
  b.resize(n);
  for (bool simd : {false, true}) {
    std::vector<Half> out(n);
    Ops{simd}.Binary(BinaryOp::kMul, out.data(), a.data(), b.data(), n);
    std::vector<Half> inplace = a;
    Ops{simd}.Binary(BinaryOp::kMul, inplace.data(), inplace.data(), b.data(), n);
    EXPECT_EQ(FirstBitDifference(out.data(), inplace.data(), n), -1) << "simd " << simd;
    std::vector<Half> inplace_b = b;
    Ops{simd}.Binary(BinaryOp::kMul, inplace_b.data(), a.data(), inplace_b.data(), n);
    EXPECT_EQ(FirstBitDifference(out.data(), inplace_b.data(), n), -1) << "simd " << simd;
    std::vector<Half> sq(n), sq_inplace = a;
    Ops{simd}.Unary(UnaryOp::kSqrt, sq.data(), a.data(), n);
    Ops{simd}.Unary(UnaryOp::kSqrt, sq_inplace.data(), sq_inplace.data(), n);
    EXPECT_EQ(FirstBitDifference(sq.data(), sq_inplace.data(), n), -1) << "simd " << simd;
    // dst = src + 1 element: each output feeds the next input (1, 2, 3, ... exactly in half).
    std::vector<Half> buf(40, Half(0.0f));
    std::vector<Half> ones(39, Half(1.0f));
    Ops{simd}.Binary(BinaryOp::kAdd, buf.data() + 1, buf.data(), ones.data(), 39);
    for (size_t i = 0; i < 40; ++i)
      EXPECT_EQ(Widen(buf[i]), static_cast<float>(i)) << "simd " << simd;
    std::vector<Half> sbuf(40, Half(0.0f));
    Ops{simd}.Scalar(ScalarOp::kAdds, sbuf.data() + 1, sbuf.data(), 1.0f, 39);
    for (size_t i = 0; i < 40; ++i)
      EXPECT_EQ(Widen(sbuf[i]), static_cast<float>(i)) << "simd " << simd;
  }
}

TEST(VectorOps, HalfFillSimdMatchesScalarBitwise) {
  for (size_t n : kSizes) {
    for (uint16_t bits : {uint16_t{0x7C01}, uint16_t{0x8000}, uint16_t{0x0001}, uint16_t{0x3C00}}) {
      std::vector<Half> s(n + 3, Half::FromBits(0x1234)), v(n + 3, Half::FromBits(0x1234));
      Fill(s.data() + 1, Half::FromBits(bits), n, false);
      Fill(v.data() + 1, Half::FromBits(bits), n, true);
      EXPECT_EQ(FirstBitDifference(s.data(), v.data(), n + 3), -1) << "n " << n;
      if (n > 0) {
        EXPECT_EQ(v[n].bits, bits);
      }
      EXPECT_EQ(v[n + 1].bits, 0x1234);
    }
  }
}

TEST(VectorOps, OverlappingCastsRunElementByElement) {
  // float -> half in place (dst at src): both paths narrow every element correctly.
  const size_t n = 203;
  const auto in = Special(n, 34);
  std::vector<Half> want(n);
  CastFloatToHalf(want.data(), in.data(), n, false);
  for (bool simd : {false, true}) {
    std::vector<float> buf = in;
    CastFloatToHalf(reinterpret_cast<Half*>(buf.data()), buf.data(), n, simd);
    std::vector<Half> got(n);
    std::memcpy(static_cast<void*>(got.data()), buf.data(), n * sizeof(Half));
    EXPECT_EQ(FirstBitDifference(want.data(), got.data(), n), -1) << "simd " << simd;
  }
  // half -> float with dst at src: each widened element overwrites halves still to be read, in
  // increasing order, as the element-by-element loop does it.
  const auto halves = AllHalves(35);
  std::vector<uint8_t> ref(n * sizeof(float));
  std::memcpy(ref.data(), halves.data(), n * sizeof(Half));
  for (size_t i = 0; i < n; ++i) {
    uint16_t h;
    std::memcpy(&h, ref.data() + 2 * i, 2);
    const float f = HalfBitsToFloat(h);
    std::memcpy(ref.data() + 4 * i, &f, 4);
  }
  for (bool simd : {false, true}) {
    std::vector<float> buf(n);
    std::memcpy(buf.data(), halves.data(), n * sizeof(Half));
    CastHalfToFloat(buf.data(), reinterpret_cast<const Half*>(buf.data()), n, simd);
    EXPECT_EQ(std::memcmp(buf.data(), ref.data(), ref.size()), 0) << "simd " << simd;
  }
}

TEST(VectorOps, DirectedRoundingCastsMatchFloatToHalf) {
  const auto in = Special(1000, 36);
  for (auto mode : {AscendC::RoundMode::CAST_NONE, AscendC::RoundMode::CAST_RINT,
                    AscendC::RoundMode::CAST_FLOOR, AscendC::RoundMode::CAST_CEIL,
                    AscendC::RoundMode::CAST_ROUND, AscendC::RoundMode::CAST_TRUNC,
                    AscendC::RoundMode::CAST_ODD}) {
    for (bool simd : {false, true}) {
      std::vector<Half> out(in.size());
      Ops{simd}.CastFloatToHalf(out.data(), in.data(), in.size(), mode);
      for (size_t i = 0; i < in.size(); ++i) {
        ASSERT_EQ(out[i].bits, FloatToHalf(in[i], mode).bits)
            << RoundModeName(mode) << " " << in[i] << " simd " << simd;
      }
    }
  }
}

TEST(VectorOps, EverySimdTargetMatchesScalar) {
  // The SIMD instructions on every target this CPU supports (AVX-512, AVX2 with F16C, SSE4
  // without), against the scalar loops, float and half, lengths with every tail.
  const auto fa = Mixed(1003, 40);
  const auto fb = Mixed(1003, 41);
  const auto ha = AllHalves(42);
  const auto hb = AllHalves(43);
  const auto special = Special(4099, 44);
  const size_t nf = fa.size(), nh = ha.size();
  std::set<std::string> names;
  const std::vector<int64_t> targets = hwy::SupportedAndGeneratedTargets();
  for (int64_t target : targets) {
    hwy::SetSupportedTargetsForTest(target);
    names.insert(SimdTargetName());
    SCOPED_TRACE(::testing::Message() << "target " << SimdTargetName());
    for (BinaryOp op : {BinaryOp::kAdd, BinaryOp::kSub, BinaryOp::kMul, BinaryOp::kDiv,
                        BinaryOp::kMax, BinaryOp::kMin}) {
      std::vector<float> fs(nf), fv(nf);
      Ops{false}.Binary(op, fs.data(), fa.data(), fb.data(), nf);
      Ops{true}.Binary(op, fv.data(), fa.data(), fb.data(), nf);
      EXPECT_EQ(FirstBitDifference(fs.data(), fv.data(), nf), -1) << static_cast<int>(op);
      std::vector<Half> hs(nh), hv(nh);
      Ops{false}.Binary(op, hs.data(), ha.data(), hb.data(), nh);
      Ops{true}.Binary(op, hv.data(), ha.data(), hb.data(), nh);
      EXPECT_EQ(
          FirstHalfMismatch(hv.data(), ha.data(), hb.data(), nh, [&](size_t i) { return hs[i]; }),
          -1)
          << static_cast<int>(op);
    }
    for (ScalarOp op : {ScalarOp::kAdds, ScalarOp::kSubs, ScalarOp::kMuls, ScalarOp::kDivs,
                        ScalarOp::kMaxs, ScalarOp::kMins}) {
      std::vector<float> fs(nf), fv(nf);
      Ops{false}.Scalar(op, fs.data(), fa.data(), -0.75f, nf);
      Ops{true}.Scalar(op, fv.data(), fa.data(), -0.75f, nf);
      EXPECT_EQ(FirstBitDifference(fs.data(), fv.data(), nf), -1) << static_cast<int>(op);
      std::vector<Half> hs(nh), hv(nh);
      Ops{false}.Scalar(op, hs.data(), ha.data(), -0.75f, nh);
      Ops{true}.Scalar(op, hv.data(), ha.data(), -0.75f, nh);
      EXPECT_EQ(FirstBitDifference(hs.data(), hv.data(), nh), -1) << static_cast<int>(op);
    }
    for (UnaryOp op : {UnaryOp::kSqrt, UnaryOp::kRecip, UnaryOp::kAbs, UnaryOp::kRelu,
                       UnaryOp::kExp, UnaryOp::kLn, UnaryOp::kRsqrt}) {
      std::vector<float> fs(nf), fv(nf);
      Ops{false}.Unary(op, fs.data(), fa.data(), nf);
      Ops{true}.Unary(op, fv.data(), fa.data(), nf);
      EXPECT_EQ(FirstBitDifference(fs.data(), fv.data(), nf), -1) << static_cast<int>(op);
      std::vector<Half> hs(nh), hv(nh);
      Ops{false}.Unary(op, hs.data(), ha.data(), nh);
      Ops{true}.Unary(op, hv.data(), ha.data(), nh);
      EXPECT_EQ(FirstBitDifference(hs.data(), hv.data(), nh), -1) << static_cast<int>(op);
    }
    std::vector<float> ws(nh - 3), wv(nh - 3);
    CastHalfToFloat(ws.data(), ha.data() + 3, nh - 3, false);
    CastHalfToFloat(wv.data(), ha.data() + 3, nh - 3, true);
    EXPECT_EQ(FirstStrictDifference(ws.data(), wv.data(), nh - 3), -1);
    std::vector<Half> ns(special.size()), nv(special.size());
    CastFloatToHalf(ns.data(), special.data(), special.size(), false);
    CastFloatToHalf(nv.data(), special.data(), special.size(), true);
    EXPECT_EQ(FirstBitDifference(ns.data(), nv.data(), special.size()), -1);
    std::vector<Half> fill_s(nf), fill_v(nf);
    Fill(fill_s.data(), Half::FromBits(0x7D01), nf, false);
    Fill(fill_v.data(), Half::FromBits(0x7D01), nf, true);
    EXPECT_EQ(FirstBitDifference(fill_s.data(), fill_v.data(), nf), -1);
    for (uint32_t lanes : {7u, 16u, 64u}) {
      std::vector<float> ts(15), tv(15);
      TreeSums(false, fa.data(), 64, lanes, 15, ts.data());
      TreeSums(true, fa.data(), 64, lanes, 15, tv.data());
      EXPECT_EQ(FirstStrictDifference(ts.data(), tv.data(), 15), -1) << lanes;
    }
  }
  hwy::SetSupportedTargetsForTest(0);
  EXPECT_GE(targets.size(), 1u);
  EXPECT_EQ(names.size(), targets.size());
}

TEST(VectorOps, DispatchedTargetIsNamed) {
  EXPECT_STRNE(SimdTargetName(), "");
  EXPECT_EQ(ResolveImpl(Impl::kScalar), Impl::kScalar);
  EXPECT_EQ(ResolveImpl(Impl::kSimd), Impl::kSimd);
  EXPECT_EQ(ResolveImpl(Impl::kSimdSteps), Impl::kSimdSteps);
  // kAuto and the environment: impl_env_test.cpp (one process per setting).
}

}  // namespace
}  // namespace lngrad::aicore
