// The type conversion functions of the SIMT maths, bit-exactly against the scalar models of
// math_test_model.h (an independent reading of the reference's rounding modes): float, half,
// bfloat16 and the 32/64-bit integers in every mode the API lists, with and without _sat, on every
// 16-bit value, the float neighbours and midpoints around them, the specials (NaN, inf, -0,
// overflow) and random bit patterns. The function lists come from the headers' own X-macro
// tables, so every generated variant is tested.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "math_test_model.h"
#include "simt_api/asc_bf16.h"
#include "simt_api/asc_fp16.h"
#include "simt_api/math_functions.h"

namespace {

using simt_math_test::Format;
using simt_math_test::Mode;

// A conversion to a floating-point format, with the mode and saturation it promises.
template <typename From, typename To>
struct ToFpCase {
  const char* name;
  To (*fn)(From);
  Mode mode;
  bool sat;
};

#define FP_CASE(from, ftype, to, ttype, sat_suffix, sat, m, mk) \
  {"__" #from "2" #to "_" #m #sat_suffix, &__##from##2##to##_##m##sat_suffix, Mode::mk, sat},

// Checks every case of `cases` on `inputs` against ModelRound into `format`.
template <typename From, typename To>
void CheckToFp(const std::vector<ToFpCase<From, To>>& cases, const std::vector<From>& inputs,
               Format format) {
  for (const auto& c : cases) {
    int failures = 0;
    for (const From x : inputs) {
      const long double v = static_cast<long double>(x);
      const uint32_t got = simt_math_test::BitsOf(c.fn(x));
      if (std::isnan(v)) {
        const bool got_nan = (got & ~format.SignBit()) > format.InfBits();
        EXPECT_TRUE(c.sat ? got == 0 : got_nan) << c.name << " of NaN gave " << got;
        continue;
      }
      const uint32_t want = simt_math_test::ModelRound(format, v, c.mode, c.sat);
      if (got != want && ++failures <= 5) {
        ADD_FAILURE() << c.name << "(" << static_cast<double>(v) << "): got 0x" << std::hex << got
                      << ", the model gives 0x" << want;
      }
    }
    EXPECT_EQ(failures, 0) << c.name;
  }
}

// The interesting floats around the half (shift16 0) or bfloat16 (16) grid.
std::vector<float> FloatInputs(int shift16) {
  std::vector<float> v = simt_math_test::InterestingFloats(shift16, 20000);
  v.push_back(std::bit_cast<float>(0x7FC00001u));
  v.push_back(std::bit_cast<float>(0xFF800001u));
  return v;
}

TEST(SimtMathConvert, FloatToHalfEveryModeAndSaturation) {
  const std::vector<ToFpCase<float, half>> cases = {
      LNGRAD_SIMT_FOR_MODES6(FP_CASE, float, float, half, half, , false)
          LNGRAD_SIMT_FOR_MODES6(FP_CASE, float, float, half, half, _sat, true)};
  EXPECT_EQ(cases.size(), 12u);
  CheckToFp(cases, FloatInputs(0), simt_math_test::kHalfF);
}

TEST(SimtMathConvert, FloatToBfloat16EveryModeAndSaturation) {
  const std::vector<ToFpCase<float, bfloat16_t>> cases = {
      LNGRAD_SIMT_FOR_MODES5(FP_CASE, float, float, bfloat16, bfloat16_t, , false)
          LNGRAD_SIMT_FOR_MODES5(FP_CASE, float, float, bfloat16, bfloat16_t, _sat, true)};
  CheckToFp(cases, FloatInputs(16), simt_math_test::kBf16F);
}

template <typename T>
std::vector<T> All16BitValues() {
  std::vector<T> v(0x10000);
  for (uint32_t b = 0; b < 0x10000u; ++b) v[b].bits = static_cast<uint16_t>(b);
  return v;
}

TEST(SimtMathConvert, HalfAndBfloat16EachOtherExhaustively) {
  const std::vector<ToFpCase<bfloat16_t, half>> to_half = {
      LNGRAD_SIMT_FOR_MODES5(FP_CASE, bfloat16, bfloat16_t, half, half, , false)
          LNGRAD_SIMT_FOR_MODES5(FP_CASE, bfloat16, bfloat16_t, half, half, _sat, true)};
  CheckToFp(to_half, All16BitValues<bfloat16_t>(), simt_math_test::kHalfF);
  const std::vector<ToFpCase<half, bfloat16_t>> to_bf16 = {
      LNGRAD_SIMT_FOR_MODES5(FP_CASE, half, half, bfloat16, bfloat16_t, , false)};
  CheckToFp(to_bf16, All16BitValues<half>(), simt_math_test::kBf16F);
}

// Integers near every power of two (and its neighbours, halfway points of the 16-bit and float
// grids included), the type's limits and random values.
template <typename I>
std::vector<I> IntInputs() {
  std::vector<I> v = {0, 1, 2, 3, std::numeric_limits<I>::max(), std::numeric_limits<I>::lowest()};
  for (int p = 0; p < static_cast<int>(8 * sizeof(I)) - 1; ++p) {
    const auto base = static_cast<I>(static_cast<uint64_t>(1) << p);
    for (int d = -3; d <= 3; ++d) {
      v.push_back(static_cast<I>(base + d));
      if (std::is_signed_v<I>) v.push_back(static_cast<I>(-base + d));
      // The halfway points of a 24-bit, 11-bit and 8-bit significand at this magnitude.
      for (int keep : {24, 11, 8}) {
        if (p > keep) v.push_back(static_cast<I>(base + (static_cast<I>(1) << (p - keep)) + d));
      }
    }
  }
  std::mt19937_64 rng(99);
  for (int i = 0; i < 20000; ++i) v.push_back(static_cast<I>(rng() >> (rng() % 64)));
  return v;
}

#define INT_CASE(to, ttype, sat_suffix, sat, iname, itype, m, mk) \
  {"__" #iname "2" #to "_" #m #sat_suffix, &__##iname##2##to##_##m##sat_suffix, Mode::mk, sat},
#define INT_CASES(to, ttype, sat_suffix, sat, iname, itype)             \
  CheckToFp(std::vector<ToFpCase<itype, ttype>>{LNGRAD_SIMT_FOR_MODES5( \
                INT_CASE, to, ttype, sat_suffix, sat, iname, itype)},   \
            IntInputs<itype>(), format);

TEST(SimtMathConvert, IntegersToFloatHalfBfloat16EveryMode) {
  Format format = simt_math_test::kFloatF;
  LNGRAD_SIMT_FOR_INTS(INT_CASES, float, float, , false)
  format = simt_math_test::kHalfF;
  LNGRAD_SIMT_FOR_INTS(INT_CASES, half, half, , false)
  INT_CASES(half, half, _sat, true, uint, unsigned int)
  INT_CASES(half, half, _sat, true, int, int)
  format = simt_math_test::kBf16F;
  LNGRAD_SIMT_FOR_INTS(INT_CASES, bfloat16, bfloat16_t, , false)
}

// A conversion to an integer type.
template <typename From, typename I>
struct ToIntCase {
  const char* name;
  I (*fn)(From);
  Mode mode;
};

template <typename From, typename I>
void CheckToInt(const std::vector<ToIntCase<From, I>>& cases, const std::vector<From>& inputs) {
  for (const auto& c : cases) {
    int failures = 0;
    for (const From x : inputs) {
      const long double v = static_cast<long double>(static_cast<float>(x));
      const I want = simt_math_test::ModelToInt<I>(v, c.mode);
      const I got = c.fn(x);
      if (got != want && ++failures <= 5) {
        ADD_FAILURE() << c.name << "(" << static_cast<double>(v) << "): got " << got
                      << ", the model gives " << want;
      }
    }
    EXPECT_EQ(failures, 0) << c.name;
  }
}

std::vector<float> FloatToIntInputs() {
  std::vector<float> v = FloatInputs(0);
  const std::vector<float> bf = FloatInputs(16);
  v.insert(v.end(), bf.begin(), bf.end());
  for (float p : {0.5f, 1.5f, 2.5f, 3.5f, 2147483648.0f, 4294967296.0f, 9223372036854775808.0f,
                  18446744073709551616.0f}) {
    for (float s : {1.0f, -1.0f}) {
      const float x = s * p;
      v.insert(v.end(), {x, std::nextafter(x, 0.0f), std::nextafter(x, 2 * x)});
    }
  }
  return v;
}

#define TO_INT_CASE(from, ftype, iname, itype, m, mk) \
  {"__" #from "2" #iname "_" #m, &__##from##2##iname##_##m, Mode::mk},
#define TO_INT_CASES(from, ftype, iname, itype)                                                    \
  CheckToInt(std::vector<ToIntCase<ftype, itype>>{LNGRAD_SIMT_FOR_MODES5(TO_INT_CASE, from, ftype, \
                                                                         iname, itype)},           \
             inputs);

TEST(SimtMathConvert, FloatHalfBfloat16ToIntegersEveryMode) {
  {
    const std::vector<float> inputs = FloatToIntInputs();
    LNGRAD_SIMT_FOR_INTS(TO_INT_CASES, float, float)
  }
  {
    const std::vector<half> inputs = All16BitValues<half>();
    LNGRAD_SIMT_FOR_INTS(TO_INT_CASES, half, half)
  }
  {
    const std::vector<bfloat16_t> inputs = All16BitValues<bfloat16_t>();
    LNGRAD_SIMT_FOR_INTS(TO_INT_CASES, bfloat16, bfloat16_t)
  }
}

TEST(SimtMathConvert, DocumentedSpecialValues) {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(__float2int_rn(nan), 0);
  EXPECT_EQ(__float2int_rn(inf), 2147483647);
  EXPECT_EQ(__float2int_rn(-inf), -2147483647 - 1);
  EXPECT_EQ(__float2int_rn(0.5f), 0);
  EXPECT_EQ(__float2int_rn(1.5f), 2);
  EXPECT_EQ(__float2int_rn(-1.5f), -2);
  EXPECT_EQ(__float2uint_rz(-inf), 0u);
  EXPECT_EQ(__float2uint_rz(-3.0f), 0u);
  EXPECT_EQ(__float2uint_rz(1.5f), 1u);
  EXPECT_EQ(__float2uint_rz(inf), 4294967295u);
  EXPECT_EQ(__float2half_rn_sat(nan).bits, 0u);
  EXPECT_EQ(__float2half_rn_sat(inf).bits, 0x7BFFu);
  EXPECT_EQ(__float2half_rn_sat(-inf).bits, 0xFBFFu);
  EXPECT_EQ(__float2half_ro(65510.0f).bits, 0x7BFFu);  // above and near the largest half
  EXPECT_EQ(__float2half_ro(1e6f).bits, 0x7C00u);      // far above it
  EXPECT_EQ(__float2half_ro_sat(1e6f).bits, 0x7BFFu);
  EXPECT_EQ(__half2int_rz(__ushort_as_half(0x7BFFu)), 65504);
  EXPECT_EQ(__float2half(1.0f / 3).bits, __float2half_rn(1.0f / 3).bits);
  EXPECT_EQ(__float2bfloat16(1.0f / 3).bits, __float2bfloat16_rn(1.0f / 3).bits);
}

// A rounding to an integral value of the same type.
template <typename T>
struct IntegralCase {
  const char* name;
  T (*fn)(T);
  Mode mode;
};
#define INTEGRAL_CASE(from, ftype, m, mk) \
  {"__" #from "2" #from "_" #m, &__##from##2##from##_##m, Mode::mk},

// The standard library's roundings to integral values (signs of zero kept).
float ModelIntegral(float x, Mode mode) {
  switch (mode) {
    case Mode::kRz:
      return std::trunc(x);
    case Mode::kRd:
      return std::floor(x);
    case Mode::kRu:
      return std::ceil(x);
    case Mode::kRna:
      return std::round(x);
    default:
      return std::nearbyint(x);
  }
}

template <typename T>
void CheckIntegral(const std::vector<IntegralCase<T>>& cases, const std::vector<T>& inputs) {
  for (const auto& c : cases) {
    for (const T x : inputs) {
      const float v = static_cast<float>(x);
      const float got = static_cast<float>(c.fn(x));
      if (std::isnan(v)) {
        EXPECT_TRUE(std::isnan(got)) << c.name;
        continue;
      }
      const float want = ModelIntegral(v, c.mode);
      EXPECT_TRUE(got == want && std::signbit(got) == std::signbit(want))
          << c.name << "(" << v << ")";
    }
  }
}

TEST(SimtMathConvert, SameTypeRoundingToIntegralValues) {
  CheckIntegral<float>({LNGRAD_SIMT_FOR_MODES5(INTEGRAL_CASE, float, float)}, FloatToIntInputs());
  CheckIntegral<half>({LNGRAD_SIMT_FOR_MODES5(INTEGRAL_CASE, half, half)}, All16BitValues<half>());
  CheckIntegral<bfloat16_t>({LNGRAD_SIMT_FOR_MODES5(INTEGRAL_CASE, bfloat16, bfloat16_t)},
                            All16BitValues<bfloat16_t>());
}

TEST(SimtMathConvert, PairsAndBitReinterpretations) {
  const float2 f{1.0f / 3, -65536.0f};
  EXPECT_EQ(__float22half2_rz(f).x.bits, __float2half_rz(f.x).bits);
  EXPECT_EQ(__float22half2_rz_sat(f).y.bits, 0xFBFFu);
  EXPECT_EQ(__float22half2_rn(f).y.bits, 0xFC00u);
  EXPECT_EQ(__float22bfloat162_ru(f).x.bits, __float2bfloat16_ru(f.x).bits);
  EXPECT_EQ(__floats2half2_rn(1.0f, 2.0f).y.bits, 0x4000u);
  EXPECT_EQ(__float2bfloat162_rn(1.0f).y.bits, 0x3F80u);
  EXPECT_EQ(__int_as_float(0x3F800000), 1.0f);
  EXPECT_EQ(__uint_as_float(0xBF800000u), -1.0f);
  EXPECT_EQ(__float_as_int(-0.0f), static_cast<int>(0x80000000u));
  EXPECT_EQ(__float_as_uint(2.0f), 0x40000000u);
}

}  // namespace
