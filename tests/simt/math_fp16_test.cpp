// The half / half2 and bfloat16_t / bfloat16x2_t functions of the SIMT maths (typed tests, one
// body for both types). Oracles: the long double result rounded once by math_test_model.h's
// ModelRound (an independent reading of CAST_RINT). + - * / and fma must match it bit-exactly;
// the transcendental functions must be correctly rounded except within 1e-12 (relative) of a
// halfway point, where the C library's double result may fall on either side. Every 16-bit
// value is tried for the one-operand functions; random and special pairs for the others.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "math_test_model.h"
#include "simt_api/asc_bf16.h"
#include "simt_api/asc_fp16.h"

namespace {

using simt_math_test::Mode;

template <typename H>
struct Fp16Test : ::testing::Test {
  using H2 = std::conditional_t<std::is_same_v<H, half>, half2, bfloat16x2_t>;
  static constexpr simt_math_test::Format kFormat =
      std::is_same_v<H, half> ? simt_math_test::kHalfF : simt_math_test::kBf16F;

  static H FromBits(uint32_t b) {
    H h{};
    h.bits = static_cast<uint16_t>(b);
    return h;
  }
  static long double Wide(H h) { return static_cast<long double>(static_cast<float>(h)); }
  static bool IsNan(H h) { return std::isnan(static_cast<float>(h)); }
  // Equal bits, or both NaN (payloads may differ).
  static bool SameValue(H a, H b) { return a.bits == b.bits || (IsNan(a) && IsNan(b)); }
  // The correctly rounded bits of an exact (or long double) result.
  static uint32_t Rounded(long double v) {
    if (std::isnan(v)) return 0x7FFFu;  // compared by IsNan
    return simt_math_test::ModelRound(kFormat, v, Mode::kRn, false);
  }
  // got is the correctly rounded v, or v lies within 1e-12 (relative) of the halfway point
  // between got and the correctly rounded value.
  static bool NearlyCorrect(H got, long double v) {
    if (std::isnan(v)) return IsNan(got);
    const uint32_t want = Rounded(v);
    if (got.bits == want) return true;
    const long double mid = (Wide(got) + Wide(FromBits(want))) / 2;
    return std::fabs(mid - v) <= 1e-12L * std::fabs(v);
  }
  static std::vector<H> AllValues() {
    std::vector<H> v;
    for (uint32_t b = 0; b < 0x10000u; ++b) v.push_back(FromBits(b));
    return v;
  }
  static std::vector<H> Specials() {
    std::vector<H> v;
    for (uint32_t b : {0x0000u, 0x0001u, 0x3C00u, 0x3F80u, 0x4000u, 0x7BFFu, 0x7F7Fu, 0x7C00u,
                       0x7F80u, 0x7E00u, 0x7FC0u, 0x7FFFu}) {
      v.push_back(FromBits(b));
      v.push_back(FromBits(b | 0x8000u));
    }
    return v;
  }
  // Random finite values with an exponent in [-emax, emax] (bits of a random 16-bit value,
  // re-drawn while not finite or out of range).
  static std::vector<H> Random(size_t n, int emax, uint32_t seed) {
    std::mt19937 rng(seed);
    std::vector<H> v;
    while (v.size() < n) {
      const H h = FromBits(rng() & 0xFFFFu);
      const float f = static_cast<float>(h);
      if (std::isfinite(f) && (f == 0 || std::abs(std::ilogb(f)) <= emax)) v.push_back(h);
    }
    return v;
  }
};

using Fp16Types = ::testing::Types<half, bfloat16_t>;
TYPED_TEST_SUITE(Fp16Test, Fp16Types);

template <typename H>
struct UnaryCase {
  const char* name;
  H (*fn)(H);
  long double (*oracle)(long double);
  bool exact;  // correctly rounded for every input (else: NearlyCorrect)
};

TYPED_TEST(Fp16Test, OneOperandFunctionsOnEveryValue) {
  using H = TypeParam;
  using T = Fp16Test<H>;
  using F = H (*)(H);
  const std::vector<UnaryCase<H>> cases = {
      {"__habs", static_cast<F>(__habs), [](long double v) { return std::fabs(v); }, true},
      {"__hneg", static_cast<F>(__hneg), [](long double v) { return -v; }, true},
      {"hsqrt", static_cast<F>(hsqrt), [](long double v) { return std::sqrt(v); }, true},
      {"hrcp", static_cast<F>(hrcp), [](long double v) { return 1 / v; }, true},
      {"hrint", static_cast<F>(hrint), [](long double v) { return std::nearbyint(v); }, true},
      {"hfloor", static_cast<F>(hfloor), [](long double v) { return std::floor(v); }, true},
      {"hceil", static_cast<F>(hceil), [](long double v) { return std::ceil(v); }, true},
      {"htrunc", static_cast<F>(htrunc), [](long double v) { return std::trunc(v); }, true},
      {"hrsqrt", static_cast<F>(hrsqrt), [](long double v) { return 1 / std::sqrt(v); }, false},
      {"htanh", static_cast<F>(htanh), [](long double v) { return std::tanh(v); }, false},
      {"hexp", static_cast<F>(hexp), [](long double v) { return std::exp(v); }, false},
      {"hexp2", static_cast<F>(hexp2), [](long double v) { return std::exp2(v); }, false},
      {"hexp10", static_cast<F>(hexp10), [](long double v) { return std::pow(10.0L, v); }, false},
      {"hlog", static_cast<F>(hlog), [](long double v) { return std::log(v); }, false},
      {"hlog2", static_cast<F>(hlog2), [](long double v) { return std::log2(v); }, false},
      {"hlog10", static_cast<F>(hlog10), [](long double v) { return std::log10(v); }, false},
      {"hcos", static_cast<F>(hcos), [](long double v) { return std::cos(v); }, false},
      {"hsin", static_cast<F>(hsin), [](long double v) { return std::sin(v); }, false},
  };
  for (const auto& c : cases) {
    int failures = 0;
    for (const H x : T::AllValues()) {
      const H got = c.fn(x);
      const long double want = c.oracle(T::Wide(x));
      const bool ok = c.exact ? (std::isnan(want) ? T::IsNan(got) : got.bits == T::Rounded(want))
                              : T::NearlyCorrect(got, want);
      if (!ok && ++failures <= 5) {
        ADD_FAILURE() << c.name << "(" << static_cast<float>(x) << ") = " << static_cast<float>(got)
                      << ", the oracle " << static_cast<double>(want);
      }
    }
    EXPECT_EQ(failures, 0) << c.name;
  }
}

template <typename H>
struct BinaryCase {
  const char* name;
  H (*fn)(H, H);
  long double (*oracle)(long double, long double);
};

// The documented max/min: +0 above -0; a NaN operand yields the other one (both NaN: NaN), or NaN
// for the _nan forms.
long double ModelMaxMin(long double a, long double b, bool is_max, bool nan_wins) {
  const long double nan = std::numeric_limits<long double>::quiet_NaN();
  if (std::isnan(a) || std::isnan(b)) {
    if (nan_wins || (std::isnan(a) && std::isnan(b))) return nan;
    return std::isnan(a) ? b : a;
  }
  if (a == 0 && b == 0) {
    const bool both_neg = std::signbit(a) && std::signbit(b);
    const bool any_neg = std::signbit(a) || std::signbit(b);
    return (is_max ? both_neg : any_neg) ? -0.0L : 0.0L;
  }
  return is_max ? (a > b ? a : b) : (a < b ? a : b);
}

TYPED_TEST(Fp16Test, TwoOperandFunctionsBitExact) {
  using H = TypeParam;
  using T = Fp16Test<H>;
  using F = H (*)(H, H);
  using LD = long double;
  const std::vector<BinaryCase<H>> cases = {
      {"__hadd", static_cast<F>(__hadd), [](LD a, LD b) { return a + b; }},
      {"__hsub", static_cast<F>(__hsub), [](LD a, LD b) { return a - b; }},
      {"__hmul", static_cast<F>(__hmul), [](LD a, LD b) { return a * b; }},
      {"__hdiv", static_cast<F>(__hdiv), [](LD a, LD b) { return a / b; }},
      {"__hmax", static_cast<F>(__hmax), [](LD a, LD b) { return ModelMaxMin(a, b, true, false); }},
      {"__hmin", static_cast<F>(__hmin),
       [](LD a, LD b) { return ModelMaxMin(a, b, false, false); }},
      {"__hmax_nan", static_cast<F>(__hmax_nan),
       [](LD a, LD b) { return ModelMaxMin(a, b, true, true); }},
      {"__hmin_nan", static_cast<F>(__hmin_nan),
       [](LD a, LD b) { return ModelMaxMin(a, b, false, true); }},
  };
  std::vector<H> xs = T::Random(40000, 200, 7);
  std::vector<H> ys = T::Random(40000, 200, 8);
  for (const H a : T::Specials()) {
    for (const H b : T::Specials()) {
      xs.push_back(a);
      ys.push_back(b);
    }
  }
  for (const auto& c : cases) {
    int failures = 0;
    for (size_t i = 0; i < xs.size(); ++i) {
      const long double want = c.oracle(T::Wide(xs[i]), T::Wide(ys[i]));
      const H got = c.fn(xs[i], ys[i]);
      const bool ok = std::isnan(want) ? T::IsNan(got) : got.bits == T::Rounded(want);
      if (!ok && ++failures <= 5) {
        ADD_FAILURE() << c.name << "(" << static_cast<float>(xs[i]) << ", "
                      << static_cast<float>(ys[i]) << ") = " << static_cast<float>(got);
      }
    }
    EXPECT_EQ(failures, 0) << c.name;
  }
}

TYPED_TEST(Fp16Test, FmaRoundsOnceAndReluClampsNegatives) {
  using H = TypeParam;
  using T = Fp16Test<H>;
  // Exponents within +-10: every a * b + c is exact in long double, so its ModelRound is the
  // correctly rounded fma.
  const std::vector<H> a = T::Random(30000, 10, 1);
  const std::vector<H> b = T::Random(30000, 10, 2);
  const std::vector<H> c = T::Random(30000, 10, 3);
  int failures = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    const long double exact = T::Wide(a[i]) * T::Wide(b[i]) + T::Wide(c[i]);
    const H got = __hfma(a[i], b[i], c[i]);
    const H relu = __hfma_relu(a[i], b[i], c[i]);
    failures += got.bits != T::Rounded(exact);
    failures += relu.bits != (exact < 0 ? 0u : T::Rounded(exact));
  }
  EXPECT_EQ(failures, 0);
  const H inf = T::FromBits(std::is_same_v<H, half> ? 0x7C00u : 0x7F80u);
  EXPECT_TRUE(T::IsNan(__hfma(inf, T::FromBits(0), T::FromBits(0x3C00u))));
}

TYPED_TEST(Fp16Test, ComparisonsInEveryForm) {
  using H = TypeParam;
  using T = Fp16Test<H>;
  using H2 = typename T::H2;
  using C = bool (*)(H, H);
  struct Case {
    C ordered;
    C unordered;
    bool (*model)(long double, long double);
  };
  const std::vector<Case> cases = {
      {static_cast<C>(__heq), static_cast<C>(__hequ),
       [](long double a, long double b) { return a == b; }},
      {static_cast<C>(__hne), static_cast<C>(__hneu),
       [](long double a, long double b) { return a != b; }},
      {static_cast<C>(__hle), static_cast<C>(__hleu),
       [](long double a, long double b) { return a <= b; }},
      {static_cast<C>(__hge), static_cast<C>(__hgeu),
       [](long double a, long double b) { return a >= b; }},
      {static_cast<C>(__hlt), static_cast<C>(__hltu),
       [](long double a, long double b) { return a < b; }},
      {static_cast<C>(__hgt), static_cast<C>(__hgtu),
       [](long double a, long double b) { return a > b; }},
  };
  for (const H a : T::Specials()) {
    for (const H b : T::Specials()) {
      const bool any_nan = T::IsNan(a) || T::IsNan(b);
      for (const Case& c : cases) {
        const bool holds = !any_nan && c.model(T::Wide(a), T::Wide(b));
        EXPECT_EQ(c.ordered(a, b), holds);
        EXPECT_EQ(c.unordered(a, b), holds || any_nan);
      }
      const H2 x{a, b};
      const H2 y{b, b};
      const bool eq_x = __heq(a, b);
      const bool eq_y = __heq(b, b);
      EXPECT_EQ(__hbeqx2(x, y), eq_x && eq_y);
      EXPECT_EQ(__heqx2_mask(x, y), (eq_x ? 0xFFFFu : 0u) | (eq_y ? 0xFFFF0000u : 0u));
      EXPECT_EQ(static_cast<float>(__heqx2(x, y).x), eq_x ? 1.0f : 0.0f);
      EXPECT_EQ(__hbltux2(x, y), __hltu(a, b) && __hltu(b, b));
      EXPECT_EQ(__hgtux2_mask(x, y) >> 16, __hgtu(b, b) ? 0xFFFFu : 0u);
      EXPECT_EQ(static_cast<float>(__hneux2(x, y).y), __hneu(b, b) ? 1.0f : 0.0f);
      EXPECT_EQ(__hisnan(a), T::IsNan(a));
      EXPECT_EQ(__hisinf(a), std::isinf(static_cast<float>(a)));
      EXPECT_EQ(static_cast<float>(__isnanx2(x).y), T::IsNan(b) ? 1.0f : 0.0f);
    }
  }
}

TYPED_TEST(Fp16Test, PairFunctionsActPerComponent) {
  using H = TypeParam;
  using T = Fp16Test<H>;
  using H2 = typename T::H2;
  const std::vector<H> r = T::Random(3000, 12, 5);
  for (size_t i = 0; i + 5 < r.size(); i += 6) {
    const H2 x{r[i], r[i + 1]};
    const H2 y{r[i + 2], r[i + 3]};
    const H2 z{r[i + 4], r[i + 5]};
    EXPECT_EQ(__haddx2(x, y).y.bits, __hadd(x.y, y.y).bits);
    EXPECT_EQ(__hsubx2(x, y).x.bits, __hsub(x.x, y.x).bits);
    EXPECT_EQ(__hmulx2(x, y).y.bits, __hmul(x.y, y.y).bits);
    EXPECT_EQ(__hdivx2(x, y).x.bits, __hdiv(x.x, y.x).bits);
    EXPECT_EQ(__hfmax2(x, y, z).y.bits, __hfma(x.y, y.y, z.y).bits);
    EXPECT_EQ(__hfmax2_relu(x, y, z).x.bits, __hfma_relu(x.x, y.x, z.x).bits);
    EXPECT_EQ(__habsx2(x).y.bits, __habs(x.y).bits);
    EXPECT_EQ(__hnegx2(x).x.bits, __hneg(x.x).bits);
    EXPECT_EQ(__hmaxx2(x, y).y.bits, __hmax(x.y, y.y).bits);
    EXPECT_EQ(__hminx2_nan(x, y).x.bits, __hmin_nan(x.x, y.x).bits);
    EXPECT_EQ(h2exp(x).y.bits, hexp(x.y).bits);
    EXPECT_EQ(h2sqrt(x).x.bits, hsqrt(x.x).bits);
    EXPECT_EQ(h2floor(x).y.bits, hfloor(x.y).bits);
    // The complex multiply-add as documented: fma chains on the real and imaginary parts.
    const H2 cm = __hcmadd(x, y, z);
    EXPECT_EQ(cm.x.bits, __hfma(__hneg(x.y), y.y, __hfma(x.x, y.x, z.x)).bits);
    EXPECT_EQ(cm.y.bits, __hfma(x.y, y.x, __hfma(x.x, y.y, z.y)).bits);
    EXPECT_EQ(__low2float(x), static_cast<float>(x.x));
    EXPECT_EQ(__high2float(x), static_cast<float>(x.y));
    EXPECT_EQ(__lowhigh2highlow(x).x.bits, x.y.bits);
    // The pairs' operators (short_vector_add's half2 + half2) round each component as *x2 does.
    EXPECT_TRUE(T::SameValue((x + y).y, __hadd(x.y, y.y)));
    EXPECT_TRUE(T::SameValue((x - y).x, __hsub(x.x, y.x)));
    EXPECT_TRUE(T::SameValue((x * y).y, __hmul(x.y, y.y)));
    EXPECT_TRUE(T::SameValue((x / y).x, __hdiv(x.x, y.x)));
    EXPECT_TRUE(T::SameValue((-x).y, __hneg(x.y)));
    H2 acc = x;
    acc += y;
    EXPECT_TRUE(T::SameValue(acc.x, __hadd(x.x, y.x)));
  }
}

TEST(SimtMathFp16Moves, HalfAndBfloat16PairMoves) {
  const half2 a = __halves2half2(__float2half(1.0f), __float2half(2.0f));
  const half2 b = __floats2half2_rn(3.0f, 4.0f);
  EXPECT_EQ(__low2half(a).bits, 0x3C00u);
  EXPECT_EQ(__high2half(a).bits, 0x4000u);
  EXPECT_EQ(__low2half2(a).y.bits, 0x3C00u);
  EXPECT_EQ(__high2half2(a).x.bits, 0x4000u);
  EXPECT_EQ(__lows2half2(a, b).y.bits, 0x4200u);
  EXPECT_EQ(__highs2half2(a, b).x.bits, 0x4000u);
  EXPECT_EQ(__half22float2(b).y, 4.0f);
  EXPECT_EQ(__half2float(__ushort_as_half(0x3555u)), static_cast<float>(__ushort_as_half(0x3555u)));
  EXPECT_EQ(__half2float(ASCRT_MAX_NORMAL_FP16), 65504.0f);
  const bfloat16x2_t c = __halves2bfloat162(__float2bfloat16(1.0f), __float2bfloat16(-2.0f));
  EXPECT_EQ(__low2bfloat16(c).bits, 0x3F80u);
  EXPECT_EQ(__high2bfloat162(c).x.bits, 0xC000u);
  EXPECT_EQ(__lows2bfloat162(c, c).y.bits, 0x3F80u);
  EXPECT_EQ(__bfloat1622float2(c).y, -2.0f);
  EXPECT_EQ(__bfloat162bfloat162(__float2bfloat16(5.0f)).y.bits, 0x40A0u);
  EXPECT_EQ(__bfloat162float(ASCRT_ONE_BF16), 1.0f);
  EXPECT_EQ(__ushort_as_bfloat16(0x7F80u).bits, ASCRT_INF_BF16.bits);
}

}  // namespace
