// Tensor values, dtype and shape parsing, and the one-rounding float64 -> half and -> bfloat16
// conversions.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "io/tensor.h"

namespace lngrad::io {
namespace {

TEST(DType, ParsesTheDocumentedSpellings) {
  DType t;
  for (const char* s : {"float", "float32", "f4", "fp32"}) {
    ASSERT_TRUE(ParseDType(s, &t).ok()) << s;
    EXPECT_EQ(t, DType::kFloat32);
  }
  for (const char* s : {"half", "float16", "f2", "fp16"}) {
    ASSERT_TRUE(ParseDType(s, &t).ok()) << s;
    EXPECT_EQ(t, DType::kFloat16);
  }
  for (const char* s : {"double", "float64", "f8", "fp64"}) {
    ASSERT_TRUE(ParseDType(s, &t).ok()) << s;
    EXPECT_EQ(t, DType::kFloat64);
  }
  for (const char* s : {"bf16", "bfloat16"}) {
    ASSERT_TRUE(ParseDType(s, &t).ok()) << s;
    EXPECT_EQ(t, DType::kBFloat16);
  }
  EXPECT_EQ(DTypeSize(DType::kBFloat16), 2u);
  EXPECT_STREQ(DTypeName(DType::kBFloat16), "bfloat16");
  EXPECT_STREQ(TraitsOf(DType::kBFloat16).npy_descr, "");  // no .npy form
  const Status st = ParseDType("int8", &t);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("\"int8\""), std::string::npos);
  EXPECT_EQ(DTypeSize(DType::kFloat16), 2u);
  EXPECT_EQ(DTypeSize(DType::kFloat64), 8u);
}

TEST(Shape, ParsesAndRefuses) {
  std::vector<int64_t> s;
  ASSERT_TRUE(ParseShape("2,32,16", "--shape", &s).ok());
  EXPECT_EQ(s, (std::vector<int64_t>{2, 32, 16}));
  ASSERT_TRUE(ParseShape("5", "--shape", &s).ok());
  EXPECT_EQ(s, (std::vector<int64_t>{5}));
  for (const char* bad : {"", "2,,3", "2,x", "-1", "2,3,", ",2", "1.5", "0", "2, 3", "+2"}) {
    const Status st = ParseShape(bad, "--shape", &s);
    EXPECT_FALSE(st.ok()) << "\"" << bad << "\"";
    EXPECT_NE(st.message().find("--shape"), std::string::npos) << st.message();
  }
  EXPECT_TRUE(ParseShape("0,3", "--shape", &s, /*allow_zero=*/true).ok());
  const Status big = ParseShape("1048576,1048576,2", "--shape", &s);
  EXPECT_EQ(big.code(), StatusCode::kOutOfRange);
  // A dimension beyond int64 breaks the size limit, not the syntax.
  for (const char* huge : {"99999999999999999999,2,8", "2,-99999999999999999999"}) {
    const Status st = ParseShape(huge, "--shape", &s);
    EXPECT_FALSE(st.ok()) << huge;
    EXPECT_EQ(st.message().find("not a non-negative integer"), std::string::npos) << st.message();
  }
  const Status huge = ParseShape("99999999999999999999,2,8", "--shape", &s);
  EXPECT_EQ(huge.code(), StatusCode::kOutOfRange);
  EXPECT_EQ(huge.message(),
            "--shape \"99999999999999999999,2,8\": dimension \"99999999999999999999\" is too "
            "large (a tensor has at most 2^40 elements)");
  EXPECT_EQ(ShapeText({2, 32, 16}), "[2,32,16]");
  EXPECT_EQ(ShapeText({}), "[]");
  EXPECT_EQ(IndexText({2, 3, 4}, 23), "[1,2,3]");
  EXPECT_EQ(IndexText({2, 3, 4}, 5), "[0,1,1]");
}

// The half nearest to d (ties to even), by search over all finite halves: independent of the
// conversion code under test (HalfBitsToFloat is exact and tested by the core tests).
// The nearest 16-bit code to d by trying every finite code (ties to the even code), an
// independent model of one correct rounding: `inf` is the code of +infinity (every code below it
// is finite), `overflow` the midpoint from which d rounds to infinity.
uint16_t NearestBySearch(double d, uint16_t inf, double overflow, float (*widen)(uint16_t)) {
  if (std::fabs(d) >= overflow) return d < 0 ? static_cast<uint16_t>(inf | 0x8000) : inf;
  uint16_t best = 0;
  double best_err = std::numeric_limits<double>::infinity();
  for (uint32_t b = 0; b < inf; ++b) {
    for (uint16_t sign : {uint16_t{0}, uint16_t{0x8000}}) {
      const uint16_t bits = static_cast<uint16_t>(b | sign);
      const double v = static_cast<double>(widen(bits));
      const double err = std::fabs(v - d);
      const bool better = err < best_err || (err == best_err && (bits & 1) == 0 && (best & 1));
      if (better) {
        best = bits;
        best_err = err;
      }
    }
  }
  // Zero: keep the sign of d.
  if ((best & 0x7FFF) == 0) best = std::signbit(d) ? 0x8000 : 0;
  return best;
}

uint16_t NearestHalfBySearch(double d) {
  if (std::isnan(d)) return 0x7E00;
  return NearestBySearch(d, 0x7C00, 65520.0, [](uint16_t b) { return HalfBitsToFloat(b); });
}

// bfloat16: the largest finite value is (2 - 2^-7) * 2^127; the midpoint to 2^128 overflows.
uint16_t NearestBFloat16BySearch(double d) {
  return NearestBySearch(d, 0x7F80, std::ldexp(2.0 - std::ldexp(1.0, -8), 127),
                         [](uint16_t b) { return BFloat16BitsToFloat(b); });
}

TEST(DoubleToHalf, AvoidsDoubleRoundingThroughFloat) {
  // 1 + 2^-11 + 2^-40 lies just above the midpoint of 1 and 1 + 2^-10: the right answer is
  // 1 + 2^-10 (0x3C01). Rounding to float first lands exactly on the midpoint and then ties to
  // even give 1.0 (0x3C00), which is wrong.
  const double d = 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40);
  EXPECT_EQ(FloatToHalfBits(static_cast<float>(d)), 0x3C00);  // the trap exists
  EXPECT_EQ(DoubleToHalfBits(d), 0x3C01);
  EXPECT_EQ(DoubleToHalfBits(-d), 0xBC01);
  EXPECT_EQ(DoubleToHalfBits(1.0 + std::ldexp(1.0, -11)), 0x3C00);  // an exact tie: even
  EXPECT_EQ(DoubleToHalfBits(65519.99), 0x7BFF);
  EXPECT_EQ(DoubleToHalfBits(65520.0), 0x7C00);
  EXPECT_EQ(DoubleToHalfBits(-1e10), 0xFC00);
  EXPECT_EQ(DoubleToHalfBits(std::ldexp(1.0, -25)), 0x0000);  // tie between 0 and 2^-24
  EXPECT_EQ(DoubleToHalfBits(std::ldexp(1.0, -25) * (1 + 1e-12)), 0x0001);
  EXPECT_EQ(DoubleToHalfBits(-0.0), 0x8000);
  EXPECT_EQ(DoubleToHalfBits(std::numeric_limits<double>::infinity()), 0x7C00);
  EXPECT_TRUE(std::isnan(HalfBitsToFloat(DoubleToHalfBits(std::nan("")))));
}

TEST(DoubleToHalf, MatchesExhaustiveSearchOnRandomValues) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> mant(1.0, 2.0);
  std::uniform_int_distribution<int> exp(-27, 16);
  for (int i = 0; i < 300; ++i) {
    const double d = (i % 2 ? -1 : 1) * std::ldexp(mant(rng), exp(rng));
    EXPECT_EQ(DoubleToHalfBits(d), NearestHalfBySearch(d)) << d;
  }
  // Values next to midpoints, where double rounding would bite.
  for (uint16_t b : {0x3C00, 0x0001, 0x03FF, 0x0400, 0x5A5A, 0x7BFE}) {
    const double lo = HalfBitsToFloat(b);
    const double hi = HalfBitsToFloat(static_cast<uint16_t>(b + 1));
    const double mid = (lo + hi) / 2;
    for (double d : {mid, std::nextafter(mid, 0.0), std::nextafter(mid, 1e9)}) {
      EXPECT_EQ(DoubleToHalfBits(d), NearestHalfBySearch(d)) << d;
    }
  }
}

TEST(DoubleToBFloat16, MatchesExhaustiveSearch) {
  // 1 + 2^-8 + 2^-40 lies just above the midpoint of 1 and 1 + 2^-7; through a float rounded to
  // nearest it would land on the midpoint and tie to 1.0.
  EXPECT_EQ(DoubleToBFloat16Bits(1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -40)), 0x3F81);
  EXPECT_EQ(DoubleToBFloat16Bits(1.0 + std::ldexp(1.0, -8)), 0x3F80);  // an exact tie: even
  EXPECT_EQ(DoubleToBFloat16Bits(-std::numeric_limits<double>::infinity()), 0xFF80);
  EXPECT_EQ(DoubleToBFloat16Bits(1e300), 0x7F80);
  EXPECT_EQ(DoubleToBFloat16Bits(-0.0), 0x8000);
  EXPECT_TRUE(std::isnan(BFloat16BitsToFloat(DoubleToBFloat16Bits(std::nan("")))));
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> mant(1.0, 2.0);
  std::uniform_int_distribution<int> exp(-136, 128);
  for (int i = 0; i < 300; ++i) {
    const double d = (i % 2 ? -1 : 1) * std::ldexp(mant(rng), exp(rng));
    EXPECT_EQ(DoubleToBFloat16Bits(d), NearestBFloat16BySearch(d)) << d;
  }
  // Next to midpoints (subnormal, normal, the last finite one and the overflow threshold).
  for (uint16_t b : {0x3F80, 0x0001, 0x007F, 0x0080, 0x5A5A, 0x7F7E, 0x7F7F}) {
    const double lo = BFloat16BitsToFloat(b);
    const double hi = b == 0x7F7F ? std::ldexp(1.0, 128) : BFloat16BitsToFloat(b + 1);
    const double mid = (lo + hi) / 2;
    for (double d : {mid, std::nextafter(mid, 0.0), std::nextafter(mid, 1e300)}) {
      EXPECT_EQ(DoubleToBFloat16Bits(d), NearestBFloat16BySearch(d)) << d;
    }
  }
}

TEST(Tensor, BFloat16SetRoundsOnceGetIsExactAndHasNoNpyForm) {
  Tensor t(DType::kBFloat16, {2, 3});
  EXPECT_EQ(t.ByteSize(), 12u);
  t.Set(1, 1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -40));
  EXPECT_EQ(t.bf16()[1].bits, 0x3F81);
  EXPECT_EQ(t.Get(1), 1.0 + std::ldexp(1.0, -7));
  EXPECT_TRUE(t.f16().empty() && t.f32().empty());
  EXPECT_EQ(t.ConvertedTo(DType::kFloat32).f32()[1], 1.0f + std::ldexp(1.0f, -7));
}

TEST(Tensor, SetRoundsOnceToTheDtypeAndGetIsExact) {
  Tensor f(DType::kFloat32, {3});
  f.Set(0, 0.1);
  EXPECT_EQ(f.f32()[0], 0.1f);
  EXPECT_EQ(f.Get(0), static_cast<double>(0.1f));
  Tensor h(DType::kFloat16, {2, 2});
  EXPECT_EQ(h.size(), 4);
  EXPECT_EQ(h.ByteSize(), 8u);
  h.Set(3, 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40));
  EXPECT_EQ(h.f16()[3].bits, 0x3C01);
  EXPECT_TRUE(h.f32().empty());
  Tensor d = h.ConvertedTo(DType::kFloat64);
  EXPECT_EQ(d.Get(3), 1.0 + std::ldexp(1.0, -10));
  EXPECT_EQ(d.shape(), h.shape());
}

TEST(Tensor, FindsNonFiniteValues) {
  Tensor t(DType::kFloat32, {5});
  EXPECT_EQ(FindNonFinite(t).first_index, -1);
  t.Set(2, std::numeric_limits<double>::infinity());
  t.Set(4, std::nan(""));
  t.Set(3, -std::numeric_limits<double>::infinity());
  const NonFinite nf = FindNonFinite(t);
  EXPECT_EQ(nf.nan_count, 1);
  EXPECT_EQ(nf.inf_count, 2);
  EXPECT_EQ(nf.first_index, 2);
  // Overflow on conversion to half counts as infinity too.
  Tensor h(DType::kFloat16, {1});
  h.Set(0, 1e6);
  EXPECT_EQ(FindNonFinite(h).inf_count, 1);
}

}  // namespace
}  // namespace lngrad::io
