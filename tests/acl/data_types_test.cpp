// aclFloat16ToFloat, aclFloatToFloat16 and aclDataTypeSize (acl/acl_base.h) against a model of
// IEEE 754 binary16 written here from its definition.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "acl/acl.h"

namespace {

// binary16 by definition: sign, 5 exponent bits (bias 15), 10 fraction bits.
double Binary16Value(uint16_t h) {
  const int sign = (h >> 15) != 0 ? -1 : 1;
  const int exp = (h >> 10) & 0x1F;
  const int frac = h & 0x3FF;
  if (exp == 0x1F) {
    return frac == 0 ? sign * std::numeric_limits<double>::infinity()
                     : std::numeric_limits<double>::quiet_NaN();
  }
  if (exp == 0) return sign * std::ldexp(frac, -24);
  return sign * std::ldexp(1024 + frac, exp - 25);
}

bool IsNaN16(uint16_t h) { return ((h >> 10) & 0x1F) == 0x1F && (h & 0x3FF) != 0; }

TEST(AclFloat16, IsSixteenBits) {
  static_assert(sizeof(aclFloat16) == 2);
  static_assert(std::is_unsigned_v<aclFloat16>);
}

TEST(AclFloat16, EveryValueConvertsToFloatExactly) {
  for (uint32_t h = 0; h <= 0xFFFF; ++h) {
    const uint16_t bits = static_cast<uint16_t>(h);
    const float f = aclFloat16ToFloat(bits);
    if (IsNaN16(bits)) {
      EXPECT_TRUE(std::isnan(f)) << h;
      continue;
    }
    EXPECT_EQ(static_cast<double>(f), Binary16Value(bits)) << h;
    EXPECT_EQ(std::signbit(f), (h >> 15) != 0) << h;
  }
}

TEST(AclFloat16, RoundTripsAndRoundsToNearestEven) {
  for (uint32_t h = 0; h <= 0xFFFF; ++h) {
    const uint16_t bits = static_cast<uint16_t>(h);
    if (IsNaN16(bits)) {
      EXPECT_TRUE(IsNaN16(aclFloatToFloat16(aclFloat16ToFloat(bits)))) << h;
      continue;
    }
    EXPECT_EQ(aclFloatToFloat16(aclFloat16ToFloat(bits)), bits) << h;
  }
  // Between two neighbours (positive finite, below the largest): the midpoint goes to the one
  // with an even fraction, anything off the midpoint to the nearer one.
  for (uint16_t lo = 0; lo < 0x7BFF; lo += 37) {
    const double a = Binary16Value(lo);
    const double b = Binary16Value(static_cast<uint16_t>(lo + 1));
    const float mid = static_cast<float>((a + b) / 2);  // exact: 12 significant bits
    const uint16_t even = (lo & 1) == 0 ? lo : static_cast<uint16_t>(lo + 1);
    EXPECT_EQ(aclFloatToFloat16(mid), even) << lo;
    EXPECT_EQ(aclFloatToFloat16(std::nextafter(mid, 0.0f)), lo) << lo;
    EXPECT_EQ(aclFloatToFloat16(std::nextafter(mid, 1e9f)), lo + 1) << lo;
    EXPECT_EQ(aclFloatToFloat16(-mid), even | 0x8000) << lo;
  }
}

TEST(AclFloat16, OverflowUnderflowAndSpecials) {
  EXPECT_EQ(aclFloatToFloat16(65504.0f), 0x7BFF);  // the largest binary16
  EXPECT_EQ(aclFloatToFloat16(65520.0f), 0x7C00);  // half-way to 2^16: ties to even = inf
  EXPECT_EQ(aclFloatToFloat16(1e10f), 0x7C00);
  EXPECT_EQ(aclFloatToFloat16(-1e10f), 0xFC00);
  EXPECT_EQ(aclFloatToFloat16(std::numeric_limits<float>::infinity()), 0x7C00);
  EXPECT_TRUE(IsNaN16(aclFloatToFloat16(std::numeric_limits<float>::quiet_NaN())));
  EXPECT_EQ(aclFloatToFloat16(std::ldexp(1.0f, -25)), 0x0000);  // half the smallest: to even
  EXPECT_EQ(aclFloatToFloat16(std::ldexp(1.5f, -25)), 0x0001);
  EXPECT_EQ(aclFloatToFloat16(-0.0f), 0x8000);
  EXPECT_EQ(aclFloatToFloat16(1.0f), 0x3C00);
  EXPECT_EQ(aclFloatToFloat16(0.0), 0x0000);  // the kit's samples pass a double literal
  EXPECT_FLOAT_EQ(aclFloat16ToFloat(0x3555), 0.333251953125f);
}

TEST(AclDataType, ValuesAndSizes) {
  EXPECT_EQ(ACL_DT_UNDEFINED, -1);
  EXPECT_EQ(ACL_FLOAT, 0);
  EXPECT_EQ(ACL_FLOAT16, 1);
  EXPECT_EQ(ACL_INT16, 6);
  EXPECT_EQ(ACL_BF16, 27);
  EXPECT_EQ(ACL_FLOAT4_E1M2, 41);
  EXPECT_EQ(aclDataTypeSize(ACL_FLOAT), 4u);
  EXPECT_EQ(aclDataTypeSize(ACL_FLOAT16), 2u);
  EXPECT_EQ(aclDataTypeSize(ACL_BF16), 2u);
  EXPECT_EQ(aclDataTypeSize(ACL_INT8), 1u);
  EXPECT_EQ(aclDataTypeSize(ACL_BOOL), 1u);
  EXPECT_EQ(aclDataTypeSize(ACL_UINT32), 4u);
  EXPECT_EQ(aclDataTypeSize(ACL_INT64), 8u);
  EXPECT_EQ(aclDataTypeSize(ACL_DOUBLE), 8u);
  EXPECT_EQ(aclDataTypeSize(ACL_COMPLEX32), 4u);
  EXPECT_EQ(aclDataTypeSize(ACL_COMPLEX64), 8u);
  EXPECT_EQ(aclDataTypeSize(ACL_COMPLEX128), 16u);
  EXPECT_EQ(aclDataTypeSize(ACL_FLOAT8_E4M3FN), 1u);
  EXPECT_EQ(aclDataTypeSize(ACL_STRING), 0u);
  EXPECT_EQ(aclDataTypeSize(ACL_DT_UNDEFINED), 0u);
  EXPECT_EQ(aclDataTypeSize(ACL_INT4), 0u);
  EXPECT_EQ(aclDataTypeSize(static_cast<aclDataType>(5)), 0u);  // no type has the value 5
}

}  // namespace
