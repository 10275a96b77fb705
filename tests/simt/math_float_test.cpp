// The float functions, integer intrinsics and vector types of the SIMT maths. Float functions:
// against a long double oracle (erfinv/erfcinv by bisection on erfl/erfcl), within the stated
// ulp bound of the float result; the integer intrinsics bit-exactly against loops written from
// the reference's descriptions.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "run_simt.h"
#include "simt_api/asc_fp16.h"
#include "simt_api/math_functions.h"
#include "simt_api/vector_functions.h"

namespace {

constexpr long double kPiL = 3.141592653589793238462643383279502884L;

// The distance between got and the oracle in units of the float spacing at the oracle.
double UlpError(float got, long double want) {
  if (std::isnan(want)) return std::isnan(got) ? 0 : 1e9;
  if (std::isinf(want) || std::isinf(got)) return static_cast<long double>(got) == want ? 0 : 1e9;
  const float w = static_cast<float>(want);
  const float spacing =
      std::nextafter(std::fabs(w), std::numeric_limits<float>::infinity()) - std::fabs(w);
  const float ulp = std::max(spacing, std::numeric_limits<float>::denorm_min());
  return static_cast<double>(std::fabs(static_cast<long double>(got) - want) / ulp);
}

// y in [lo, hi] with f(y) == target for an increasing f, by bisection.
template <typename F>
long double Bisect(F f, long double target, long double lo, long double hi) {
  for (int i = 0; i < 200; ++i) {
    const long double mid = (lo + hi) / 2;
    (f(mid) < target ? lo : hi) = mid;
  }
  return (lo + hi) / 2;
}
long double ErfInvL(long double x) {
  if (x == 0) return x;
  if (std::fabs(x) >= 1) return std::fabs(x) == 1 ? std::copysign(INFINITY, x) : NAN;
  return Bisect([](long double y) { return std::erf(y); }, x, -7, 7);
}
long double ErfcInvL(long double x) {
  if (x == 1) return 0;
  if (x <= 0 || x >= 2) return x == 0 ? INFINITY : (x == 2 ? -INFINITY : NAN);
  return Bisect([](long double y) { return -std::erfc(y); }, -x, -7, 28);
}

// sin(pi v), cos(pi v), tan(pi v) with the exact zeros of integers and half-integers.
long double SinPiL(long double v) {
  const long double r = std::fmod(v, 2.0L);
  return r == std::trunc(r) ? 0.0L : std::sin(kPiL * r);
}
long double CosPiL(long double v) {
  const long double r = std::fmod(v, 2.0L);
  return std::fabs(r - std::trunc(r)) == 0.5L ? 0.0L : std::cos(kPiL * r);
}
long double TanPiL(long double v) { return SinPiL(v) / CosPiL(v); }

struct FloatCase {
  const char* name;
  float (*fn)(float);
  long double (*oracle)(long double);
  float lo, hi;      // the input range tried
  double bound_ulp;  // the bound on the error
};

std::vector<float> Inputs(float lo, float hi) {
  std::vector<float> v = {lo, hi, 0.0f, -0.0f, 1.0f, -1.0f, 0.5f, -0.5f};
  std::mt19937 rng(42);
  std::uniform_real_distribution<float> u(lo, hi);
  for (int i = 0; i < 20000; ++i) v.push_back(u(rng));
  for (int i = 0; i < 2000; ++i) v.push_back(u(rng) * 1e-6f);
  return v;
}

TEST(SimtMathFloat, FunctionsBeyondTheCLibraryWithinTheirBounds) {
  using LD = long double;
  const std::vector<FloatCase> cases = {
      {"rsqrtf", rsqrtf, [](LD v) { return 1 / std::sqrt(v); }, 1e-30f, 1e30f, 0.501},
      {"rcbrtf", rcbrtf, [](LD v) { return 1 / std::cbrt(v); }, -1e30f, 1e30f, 0.501},
      {"sinpif", sinpif, SinPiL, -1e4f, 1e4f, 0.501},
      {"cospif", cospif, CosPiL, -1e4f, 1e4f, 0.501},
      {"tanpif", tanpif, TanPiL, -100.0f, 100.0f, 0.501},
      {"erfinvf", erfinvf, ErfInvL, -1.0f, 1.0f, 1.0},
      {"erfcinvf", erfcinvf, ErfcInvL, 0.0f, 2.0f, 1.0},
      {"normcdfinvf", normcdfinvf, [](LD v) { return -std::sqrt(2.0L) * ErfcInvL(2 * v); }, 0.0f,
       1.0f, 1.0},
      {"normcdff", normcdff, [](LD v) { return std::erfc(-v / std::sqrt(2.0L)) / 2; }, -13.0f,
       13.0f, 1.0},
      {"erfcxf", erfcxf, [](LD v) { return std::exp(v * v) * std::erfc(v); }, -9.0f, 100.0f, 1.0},
      {"cyl_bessel_i0f", cyl_bessel_i0f, [](LD v) { return std::cyl_bessel_i(0.0L, std::fabs(v)); },
       -80.0f, 80.0f, 1.0},
      {"cyl_bessel_i1f", cyl_bessel_i1f,
       [](LD v) { return std::copysign(std::cyl_bessel_i(1.0L, std::fabs(v)), v); }, -80.0f, 80.0f,
       1.0},
      // The C library's, as the samples call them: within the glibc bounds measured here.
      {"sqrtf", sqrtf, [](LD v) { return std::sqrt(v); }, 0.0f, 1e30f, 0.5},
      {"expf", expf, [](LD v) { return std::exp(v); }, -80.0f, 80.0f, 1.0},
      {"logf", logf, [](LD v) { return std::log(v); }, 1e-30f, 1e30f, 1.0},
      {"sinf", sinf, [](LD v) { return std::sin(v); }, -1e4f, 1e4f, 1.0},
      {"cosf", cosf, [](LD v) { return std::cos(v); }, -1e4f, 1e4f, 1.0},
      {"floorf", floorf, [](LD v) { return std::floor(v); }, -1e9f, 1e9f, 0.0},
  };
  for (const FloatCase& c : cases) {
    double worst = 0;
    float worst_x = 0;
    for (const float x : Inputs(c.lo, c.hi)) {
      const double e = UlpError(c.fn(x), c.oracle(x));
      if (e > worst) {
        worst = e;
        worst_x = x;
      }
    }
    EXPECT_LE(worst, c.bound_ulp) << c.name << " at " << worst_x;
  }
}

TEST(SimtMathFloat, NormsAndTheirReciprocals) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> u(-1e18f, 1e18f);
  for (int i = 0; i < 5000; ++i) {
    const float a = u(rng), b = u(rng) * 1e-9f, c = u(rng), d = u(rng) * 1e-20f;
    const long double n3 = std::sqrt((long double)a * a + (long double)b * b + (long double)c * c);
    const long double n4 = std::sqrt(n3 * n3 + (long double)d * d);
    const float v[] = {a, b, c, d};
    EXPECT_LE(UlpError(norm3df(a, b, c), n3), 0.501);
    EXPECT_LE(UlpError(rnorm3df(a, b, c), 1 / n3), 0.501);
    EXPECT_LE(UlpError(norm4df(a, b, c, d), n4), 0.501);
    EXPECT_LE(UlpError(rnorm4df(a, b, c, d), 1 / n4), 0.501);
    EXPECT_LE(UlpError(normf(4, v), n4), 0.501);
    EXPECT_LE(UlpError(rnormf(4, v), 1 / n4), 0.501);
    EXPECT_LE(UlpError(rhypotf(a, c), 1 / std::hypot((long double)a, (long double)c)), 0.501);
  }
}

TEST(SimtMathFloat, SpecialValues) {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_TRUE(sinpif(1.0f) == 0 && !std::signbit(sinpif(1.0f)));
  EXPECT_TRUE(sinpif(-2.0f) == 0 && std::signbit(sinpif(-2.0f)));
  EXPECT_TRUE(cospif(0.5f) == 0 && !std::signbit(cospif(-1.5f)));
  EXPECT_EQ(tanpif(0.5f), inf);
  EXPECT_EQ(sinpif(0.5f), 1.0f);
  EXPECT_TRUE(std::isnan(sinpif(inf)));
  float s = 0, c = 0;
  sincospif(1.0f / 6, &s, &c);
  EXPECT_EQ(s, 0.5f);
  EXPECT_EQ(c, sqrtf(3.0f) / 2);
  EXPECT_EQ(erfinvf(1.0f), inf);
  EXPECT_EQ(erfinvf(-1.0f), -inf);
  EXPECT_TRUE(std::isnan(erfinvf(1.5f)));
  EXPECT_EQ(erfcinvf(0.0f), inf);
  EXPECT_EQ(erfcinvf(2.0f), -inf);
  EXPECT_EQ(normcdfinvf(0.0f), -inf);
  EXPECT_EQ(normcdfinvf(1.0f), inf);
  EXPECT_EQ(rsqrtf(0.0f), inf);
  EXPECT_EQ(rsqrtf(inf), 0.0f);
  EXPECT_EQ(erfcxf(inf), 0.0f);
  EXPECT_EQ(__saturatef(nan), 0.0f);
  EXPECT_EQ(__saturatef(2.0f), 1.0f);
  EXPECT_EQ(__saturatef(-0.5f), 0.0f);
  EXPECT_EQ(__saturatef(0.25f), 0.25f);
  EXPECT_EQ(__fdividef(1.0f, 0.0f), inf);
  EXPECT_EQ(__fdividef(-1.0f, 0.0f), -inf);
  EXPECT_TRUE(std::isnan(fdividef(0.0f, 0.0f)));
  EXPECT_EQ(fdividef(1.0f, 3.0f), 1.0f / 3.0f);
  EXPECT_EQ(rhypotf(inf, nan), 0.0f);
  EXPECT_EQ(norm3df(nan, -inf, 1.0f), inf);
  EXPECT_TRUE(isnan(nan) && isinf(-inf) && isfinite(1.0f) && signbit(-0.0f));
  EXPECT_EQ(ASCRT_PI_F, 3.14159265f);
  EXPECT_EQ(std::bit_cast<uint32_t>(ASCRT_NAN_F), 0x7FFFFFFFu);
  EXPECT_EQ(ASCRT_MAX_NORMAL_F, std::numeric_limits<float>::max());
}

// The integer intrinsics against loops over bits and bytes (the reference's descriptions).
uint64_t MulHiModel(uint64_t x, uint64_t y) {  // schoolbook on 32-bit limbs
  const uint64_t xl = x & 0xFFFFFFFFu, xh = x >> 32, yl = y & 0xFFFFFFFFu, yh = y >> 32;
  const uint64_t ll = xl * yl, lh = xl * yh, hl = xh * yl, hh = xh * yh;
  const uint64_t mid = (ll >> 32) + (lh & 0xFFFFFFFFu) + (hl & 0xFFFFFFFFu);
  return hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
}
int64_t SignedMulHiModel(int64_t x, int64_t y) {
  // The unsigned high half corrected for the signs (two's complement).
  uint64_t hi = MulHiModel(static_cast<uint64_t>(x), static_cast<uint64_t>(y));
  if (x < 0) hi -= static_cast<uint64_t>(y);
  if (y < 0) hi -= static_cast<uint64_t>(x);
  return static_cast<int64_t>(hi);
}

TEST(SimtMathInteger, IntrinsicsAgainstBitLoops) {
  std::mt19937_64 rng(5);
  std::vector<uint64_t> vals = {0,
                                1,
                                2,
                                0x7FFFFFFFu,
                                0x80000000u,
                                0xFFFFFFFFu,
                                0xFFFFFFFFFFFFFFFFu,
                                0x8000000000000000u,
                                0x7FFFFFFFFFFFFFFFu,
                                0x00800000u,
                                0x00FFFFFFu};
  for (int i = 0; i < 3000; ++i) vals.push_back(rng() >> (rng() % 64));
  for (size_t i = 0; i < vals.size(); ++i) {
    const uint64_t a = vals[i], b = vals[(i * 7 + 3) % vals.size()];
    const auto a32 = static_cast<uint32_t>(a), b32 = static_cast<uint32_t>(b);
    const auto sa = static_cast<int32_t>(a32), sb = static_cast<int32_t>(b32);
    EXPECT_EQ(__umul64hi(a, b), MulHiModel(a, b));
    EXPECT_EQ(__mul64hi(static_cast<long long>(a), static_cast<long long>(b)),
              SignedMulHiModel(static_cast<int64_t>(a), static_cast<int64_t>(b)));
    EXPECT_EQ(__umulhi(a32, b32), static_cast<uint32_t>(MulHiModel(uint64_t{a32} << 32, b32)));
    EXPECT_EQ(__mulhi(sa, sb), static_cast<int32_t>((int64_t{sa} * sb) >> 32));
    EXPECT_EQ(__mul_i32toi64(sa, sb), int64_t{sa} * sb);
    EXPECT_EQ(__mul_i32toi64(a32, b32), uint64_t{a32} * b32);
    uint32_t rev = 0, pop = 0;
    int clz = 32, ffs = 0;
    for (int bit = 0; bit < 32; ++bit) {
      const bool set = ((a32 >> bit) & 1u) != 0;
      rev |= static_cast<uint32_t>(set) << (31 - bit);
      pop += set;
      if (set) clz = 31 - bit;
      if (set && ffs == 0) ffs = bit + 1;
    }
    EXPECT_EQ(__brev(a32), rev);
    EXPECT_EQ(__popc(a32), static_cast<int>(pop));
    EXPECT_EQ(__clz(sa), clz);
    EXPECT_EQ(__ffs(sa), ffs);
    EXPECT_EQ(__brev(static_cast<unsigned long long>(a)) >> 32, __brev(static_cast<uint32_t>(a)));
    EXPECT_EQ(__popc(static_cast<unsigned long long>(a)),
              __popc(a32) + __popc(static_cast<uint32_t>(a >> 32)));
    EXPECT_EQ(__clz(static_cast<long long>(a)),
              (a >> 32) != 0 ? __clz(static_cast<int>(a >> 32)) : 32 + clz);
    EXPECT_EQ(__ffs(static_cast<long long>(a)),
              a32 != 0 ? ffs : (a == 0 ? 0 : 32 + __ffs(static_cast<int>(a >> 32))));
    const int64_t d = int64_t{sa} - sb;
    EXPECT_EQ(__sad(sa, sb, a32), static_cast<uint32_t>((d < 0 ? -d : d) + a32));
    EXPECT_EQ(__usad(a32, b32, 7u), (a32 > b32 ? a32 - b32 : b32 - a32) + 7u);
    const int64_t x24 = static_cast<int32_t>(a32 << 8) >> 8,
                  y24 = static_cast<int32_t>(b32 << 8) >> 8;
    EXPECT_EQ(__mul24(sa, sb), static_cast<int32_t>(static_cast<uint32_t>(x24 * y24)));
    EXPECT_EQ(__umul24(a32, b32),
              static_cast<uint32_t>(uint64_t{a32 & 0xFFFFFFu} * (b32 & 0xFFFFFFu)));
    const int64_t sum = int64_t{sa} + sb;
    const int64_t floor_half = sum >= 0 ? sum / 2 : -((-sum + 1) / 2);
    EXPECT_EQ(__hadd(sa, sb), floor_half);
    EXPECT_EQ(__rhadd(sa, sb), sum + 1 >= 0 ? (sum + 1) / 2 : -((-(sum + 1) + 1) / 2));
    EXPECT_EQ(__uhadd(a32, b32), static_cast<uint32_t>((uint64_t{a32} + b32) / 2));
    EXPECT_EQ(__urhadd(a32, b32), static_cast<uint32_t>((uint64_t{a32} + b32 + 1) / 2));
    // __byte_perm: byte i of the result is byte (s >> 4i) & 7 of the 8 bytes y:x.
    const uint32_t s = static_cast<uint32_t>(b >> 7);
    uint32_t perm = 0;
    for (int k = 0; k < 4; ++k) {
      const uint32_t sel = (s >> (4 * k)) & 7u;
      const uint32_t byte = sel < 4 ? (a32 >> (8 * sel)) & 0xFFu : (b32 >> (8 * (sel - 4))) & 0xFFu;
      perm |= byte << (8 * k);
    }
    EXPECT_EQ(__byte_perm(a32, b32, s), perm);
  }
  EXPECT_EQ(__byte_perm(1u, 1u, 1u), 16843008u);  // the documented example
  EXPECT_EQ(__brev(1ull), 9223372036854775808ull);
  EXPECT_EQ(__clz(0), 32);
  EXPECT_EQ(__ffs(0), 0);
}

TEST(SimtMathInteger, MinMaxAbs) {
  EXPECT_EQ(min(3, -4), -4);
  EXPECT_EQ(max(3u, 4000000000u), 4000000000u);
  EXPECT_EQ(max(static_cast<char>(5), static_cast<char>(-1)), 5);
  EXPECT_EQ(min(static_cast<unsigned short>(9), static_cast<unsigned short>(2)), 2);
  EXPECT_EQ(min(-1L, 1L), -1L);
  EXPECT_EQ(llmax(-5LL, 3LL), 3LL);
  EXPECT_EQ(llmin(-5LL, 3LL), -5LL);
  EXPECT_EQ(ullmax(1ULL, ~0ULL), ~0ULL);
  EXPECT_EQ(ullmin(1ULL, ~0ULL), 1ULL);
  EXPECT_EQ(umax(1u, 2u), 2u);
  EXPECT_EQ(umin(1u, 2u), 1u);
  EXPECT_EQ(labs(-7L), 7L);
  EXPECT_EQ(llabs(-7LL), 7LL);
}

TEST(SimtMathVectors, MakeFunctionsFillTheMembersInOrder) {
#define CHECK_MAKE(prefix, type)                                                            \
  {                                                                                         \
    const auto v2 = make_##prefix##2(static_cast<type>(1), static_cast<type>(2));           \
    const auto v3 =                                                                         \
        make_##prefix##3(static_cast<type>(1), static_cast<type>(2), static_cast<type>(3)); \
    const auto v4 = make_##prefix##4(static_cast<type>(1), static_cast<type>(2),            \
                                     static_cast<type>(3), static_cast<type>(4));           \
    EXPECT_TRUE(v2.x == static_cast<type>(1) && v2.y == static_cast<type>(2));              \
    EXPECT_TRUE(v3.x == static_cast<type>(1) && v3.y == static_cast<type>(2) &&             \
                v3.z == static_cast<type>(3));                                              \
    EXPECT_TRUE(v4.x == static_cast<type>(1) && v4.y == static_cast<type>(2) &&             \
                v4.z == static_cast<type>(3) && v4.w == static_cast<type>(4));              \
    static_assert(sizeof(v4) == 4 * sizeof(type) && sizeof(v3) == 3 * sizeof(type));        \
  }
  LNGRAD_SIMT_VECTOR_ELEMENTS(CHECK_MAKE)
#undef CHECK_MAKE
  const half2 h{half(1.0f), half(2.0f)};
  EXPECT_EQ(static_cast<float>(h.y), 2.0f);
}

}  // namespace

namespace {

// The functions inside SIMT threads give what they give in host code (pure functions).
TEST(SimtMathInThreads, SameResultsAsOnTheHost) {
  constexpr uint32_t kThreads = 64;
  std::vector<float> out(kThreads, 0.0f);
  std::vector<uint32_t> bits(kThreads, 0);
  const lngrad::Status st = lngrad::simt::testing::RunSimt(dim3(1), dim3(kThreads), [&] {
    const uint32_t i = threadIdx.x;
    float s = 0, c = 0;
    sincosf(0.1f * static_cast<float>(i), &s, &c);
    out[i] = expf(s) + rsqrtf(static_cast<float>(i + 1)) + floorf(c * 10.0f);
    bits[i] = static_cast<uint32_t>(__popc(i * 0x01010101u)) + __umulhi(i, 0x80000000u) +
              __float2half_rn(s).bits;
  });
  ASSERT_TRUE(st.ok()) << st.message();
  for (uint32_t i = 0; i < kThreads; ++i) {
    float s = 0, c = 0;
    sincosf(0.1f * static_cast<float>(i), &s, &c);
    EXPECT_EQ(out[i], expf(s) + rsqrtf(static_cast<float>(i + 1)) + floorf(c * 10.0f));
    EXPECT_EQ(bits[i], static_cast<uint32_t>(__popc(i * 0x01010101u)) + __umulhi(i, 0x80000000u) +
                           __float2half_rn(s).bits);
  }
}

}  // namespace
