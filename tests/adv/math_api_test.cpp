// The high-level rounding, Fmod, Fma and Axpy APIs (lib/math/*.h) against scalar models written
// here from the vendor's pages (Ceil.md, Fmod.md, ...) and its implementation sequences: every
// operation of a model runs in double and is rounded to the operand type afterwards (innocuous
// double rounding for +, -, *, /), so the models share no code with the float and half
// arithmetic under test. Each checked-mode rule is exercised. The bit, logic and select APIs are
// in math_logic_api_test.cpp; Arange, the GM fill and the host scratch sizes in
// math_index_fill_api_test.cpp; the shared helpers in math_api_test_util.h.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "../aicore/repeat_test_util.h"
#include "../aicore/sanitizer_off.h"
#include "kernel_operator.h"
#include "math_api_test_util.h"

namespace {

using namespace AscendC;
using namespace lngrad::adv::testing;

// ----------------------------------------------------------------------------------------------
// Rounding APIs.

enum class Rnd { kCeil, kFloor, kTrunc, kRound, kRint, kFrac };

// The model: the double library's integral rounding of the value, Frac as the exact difference.
double RoundingModel(Rnd r, double x) {
  switch (r) {
    case Rnd::kCeil:
      return std::ceil(x);
    case Rnd::kFloor:
      return std::floor(x);
    case Rnd::kTrunc:
      return std::trunc(x);
    case Rnd::kRound:
    case Rnd::kRint:
      return std::nearbyint(x);  // the default mode: ties to even
    case Rnd::kFrac:
      return x - std::trunc(x);
  }
  return 0;
}

// Arch 2002 (<api>_v200_impl.h): the integral part through int32 (saturating, NaN -> 0, so a zero
// result is +0) and back to float (to nearest even); Frac subtracts that.
double RoundingModel2002(Rnd r, double x) {
  const Rnd step = r == Rnd::kFrac ? Rnd::kTrunc : r;
  double i = std::isnan(x) ? 0.0 : std::clamp(RoundingModel(step, x), -2147483648.0, 2147483647.0);
  if (i == 0.0) i = 0.0;
  i = static_cast<double>(static_cast<float>(i));
  return r == Rnd::kFrac ? x - i : i;
}

template <typename T>
void RunRounding(Rnd r, const std::vector<T>& in, std::vector<T>* out, bool with_tmp,
                 uint32_t count, const char* soc) {
  OnBlock(
      [&](Ub& ub) {
        ub.Put<T>(0, in);
        const LocalTensor<T> src = ub.Get<T>(0);
        LocalTensor<T> dst = ub.Get<T>(1);
        const LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(2);
        switch (r) {
          case Rnd::kCeil:
            with_tmp ? Ceil<T, false>(dst, src, tmp, count) : Ceil(dst, src, count);
            break;
          case Rnd::kFloor:
            with_tmp ? Floor<T, false>(dst, src, tmp, count) : Floor(dst, src, count);
            break;
          case Rnd::kTrunc:
            with_tmp ? Trunc<T, false>(dst, src, tmp, count) : Trunc(dst, src, count);
            break;
          case Rnd::kRound:
            with_tmp ? Round<T, false>(dst, src, tmp, count) : Round(dst, src, count);
            break;
          case Rnd::kRint:
            with_tmp ? Rint(dst, src, tmp, count) : Rint(dst, src, count);
            break;
          case Rnd::kFrac:
            with_tmp ? Frac<T, false>(dst, src, tmp, count) : Frac<T, false>(dst, src, count);
            break;
        }
        *out = ub.Take<T>(1);
      },
      soc);
}

template <typename T>
void CheckRounding(Rnd r, const char* name, const char* soc) {
  const std::vector<T> in = Inputs<T>(7);
  for (bool with_tmp : {true, false}) {
    std::vector<T> out;
    RunRounding(r, in, &out, with_tmp, kN, soc);
    std::vector<T> want(kN);
    for (uint32_t i = 0; i < kN; ++i) {
      const double x = D(in[i]);
      want[i] = Round<T>(soc == k310P ? RoundingModel2002(r, x) : RoundingModel(r, x));
    }
    out.resize(kN);
    ExpectSame(out, want, std::string(name) + (with_tmp ? " with tmp" : " stack"));
  }
}

TEST(MathRounding, EveryApiHalfAndFloatMatchesTheModel) {
  const struct {
    Rnd r;
    const char* name;
    const char* soc;
  } cases[] = {
      {Rnd::kCeil, "Ceil", k910B},   {Rnd::kFloor, "Floor", k910B}, {Rnd::kTrunc, "Trunc", k910B},
      {Rnd::kRound, "Round", k910B}, {Rnd::kFrac, "Frac", k910B},   {Rnd::kRint, "Rint", k950},
      {Rnd::kCeil, "Ceil", k950},    {Rnd::kRound, "Round", k310P}, {Rnd::kCeil, "Ceil", k310P},
      {Rnd::kFloor, "Floor", k310P}, {Rnd::kTrunc, "Trunc", k310P}, {Rnd::kFrac, "Frac", k310P}};
  for (const auto& c : cases) {
    CheckRounding<float>(c.r, c.name, c.soc);
    CheckRounding<half>(c.r, c.name, c.soc);
  }
}

TEST(MathRounding, DocumentedExamplesAndSignedZeros) {
  std::vector<float> in = {-1.1f, 0.0f, 0.9f, 1.9f, 2.9f, 3.9f, 4.9f, 5.9f, -0.5f, -2.0f};
  std::vector<float> out;
  RunRounding<float>(Rnd::kCeil, in, &out, true, 10, k910B);
  const std::vector<float> ceil_doc = {-1, 0, 1, 2, 3, 4, 5, 6};
  for (int i = 0; i < 8; ++i) EXPECT_EQ(out[i], ceil_doc[i]) << i;
  EXPECT_TRUE(std::signbit(out[8]));  // Ceil(-0.5) = -0
  RunRounding<float>(Rnd::kFrac, in, &out, true, 10, k910B);
  EXPECT_FALSE(std::signbit(out[9]));  // Frac(-2) = -2 - -2 = +0
  EXPECT_FLOAT_EQ(out[0], -1.1f - -1.0f);
  std::vector<float> ties = {0.5f, 1.5f, 2.5f, -2.5f, -0.5f};
  RunRounding<float>(Rnd::kRound, ties, &out, true, 5, k910B);
  EXPECT_EQ(out[0], 0.0f);
  EXPECT_EQ(out[1], 2.0f);
  EXPECT_EQ(out[2], 2.0f);
  EXPECT_EQ(out[3], -2.0f);
  EXPECT_TRUE(std::signbit(out[4]));
}

TEST(MathRounding, CountLeavesTheRestAndWholeTensorOverloads) {
  const std::vector<float> in = Inputs<float>(3);
  std::vector<float> out;
  RunRounding<float>(Rnd::kFloor, in, &out, true, 37, k910B);
  EXPECT_EQ(out[36], std::floor(in[36]));
  EXPECT_EQ(Bits(out[37]), 0u);  // beyond calCount: untouched (the UB's zero fill)
  OnBlock([&](Ub& ub) {
    LocalTensor<float> src = ub.Get<float>(0)[0];
    const LocalTensor<float> part = ub.Get<float>(3);
    for (uint32_t i = 0; i < 64; ++i) src.HostPtr()[i] = 0.25f + static_cast<float>(i);
    // The whole-tensor forms run over src.GetSize() elements.
    const LocalTensor<float> dst = ub.Get<float>(1);
    Trunc(dst, src);
    EXPECT_EQ(dst.HostPtr()[63], 63.0f);
    Frac<float, false>(part, src, ub.Get<uint8_t>(2));
    EXPECT_EQ(part.HostPtr()[63], 0.25f);
    Trunc(src, src, 64);  // Trunc documents that dst may be src
    EXPECT_EQ(src.HostPtr()[5], 5.0f);
  });
}

TEST(MathRounding, CheckedModeRules) {
  ExpectCheck(
      [](Ub& ub) {
        const LocalTensor<float> a = ub.Get<float>(0);
        Ceil<float, false>(a, a, ub.Get<uint8_t>(2), 64);
      },
      "address_overlap", "dst and src");
  ExpectCheck(
      [](Ub& ub) {
        const LocalTensor<float> a = ub.Get<float>(0);
        Round<float, false>(a[8], a, ub.Get<uint8_t>(2), 64);
      },
      "address_overlap", "dst and src");
  ExpectCheck(
      [](Ub& ub) {
        // half Ceil needs 512 bytes on arch 2201.
        Ceil<half, false>(ub.Get<half>(1), ub.Get<half>(0), ub.Get<uint8_t>(2), 64);
        LocalTensor<uint8_t> small = ub.Get<uint8_t>(2);
        small.SetSize(256);
        Ceil<half, false>(ub.Get<half>(1), ub.Get<half>(0), small, 64);
      },
      "tmp_buffer", "sharedTmpBuffer holds 256 bytes, less than the 512");
  ExpectCheck(
      [](Ub& ub) {
        const LocalTensor<float> src = ub.Get<float>(0);
        Frac<float, false>(ub.Get<float>(1), src, src.ReinterpretCast<uint8_t>()[128], 64);
      },
      "address_overlap", "sharedTmpBuffer and src");
  ExpectCheck([](Ub& ub) { Rint(ub.Get<float>(1), ub.Get<float>(0), 16); }, "product",
              "Rint: exists on Ascend 950 (arch 3510) only");
  ExpectCheck(
      [](Ub& ub) {
        Floor<float, false>(ub.Get<float>(1), ub.Get<float>(0)[8], ub.Get<uint8_t>(2), 64);
      },
      "", "");
  ExpectCheck([](Ub& ub) { Floor(ub.Get<float>(1)[8], ub.Get<float>(0), 10240); }, "tensor_bounds",
              "Floor dst");
  ExpectCheck(
      [](Ub& ub) {
        Ceil<float, false>(ub.Get<float>(1)[4], ub.Get<float>(0), ub.Get<uint8_t>(2), 16);
      },
      "ub_alignment", "dst");
}

// ----------------------------------------------------------------------------------------------
// Fmod: the device's sequence Div, Trunc, Mul, Sub in float (half through float).

template <typename T>
T FmodModel(T a, T b) {
  const float q = static_cast<float>(D(a) / D(b));
  const float t = static_cast<float>(std::trunc(static_cast<double>(q)));
  const float p = static_cast<float>(static_cast<double>(t) * D(b));
  return Round<T>(static_cast<double>(static_cast<float>(D(a) - static_cast<double>(p))));
}

template <typename T>
void CheckFmod(int overload) {
  const std::vector<T> a = Inputs<T>(11), b0 = Inputs<T>(12, kN, 9.0f);
  std::vector<T> b = b0;
  for (auto& x : b) {
    if (static_cast<float>(x) == 0.0f) x = T(0.75f);
  }
  b[1] = T(0.0f);  // x mod 0 -> NaN
  b[2] = T(std::numeric_limits<float>::infinity());
  std::vector<T> out;
  OnBlock([&](Ub& ub) {
    ub.Put<T>(0, a);
    ub.Put<T>(1, b);
    LocalTensor<T> s0 = ub.Get<T>(0), s1 = ub.Get<T>(1), dst = ub.Get<T>(2);
    s0.SetSize(kN);
    s1.SetSize(kN);
    const LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(3);
    switch (overload) {
      case 0:
        Fmod(dst, s0, s1, tmp, kN);
        break;
      case 1:
        Fmod(dst, s0, s1, tmp);
        break;
      case 2:
        Fmod(dst, s0, s1, kN);
        break;
      default:
        Fmod<T, false>(dst, s0, s1);
    }
    out = ub.Take<T>(2);
  });
  std::vector<T> want(kN);
  for (uint32_t i = 0; i < kN; ++i) want[i] = FmodModel(a[i], b[i]);
  out.resize(kN);
  ExpectSame(out, want, "Fmod overload " + std::to_string(overload));
  EXPECT_TRUE(std::isnan(static_cast<float>(out[1])));
  // Integer-valued operands below 2^12: every step is exact and the sequence is C's fmod.
  std::vector<T> ia(256), ib(256), iout;
  for (int i = 0; i < 256; ++i) {
    ia[i] = T(static_cast<float>((i * 37) % 4001 - 2000));
    ib[i] = T(static_cast<float>(i % 29 + 1) * (i % 2 ? -1.0f : 1.0f));
  }
  OnBlock([&](Ub& ub) {
    ub.Put<T>(0, ia);
    ub.Put<T>(1, ib);
    Fmod(ub.Get<T>(2), ub.Get<T>(0), ub.Get<T>(1), ub.Get<uint8_t>(3), 256);
    iout = ub.Take<T>(2);
  });
  for (int i = 0; i < 256; ++i) {
    ASSERT_EQ(D(iout[i]), std::fmod(D(ia[i]), D(ib[i]))) << i;
  }
}

TEST(MathFmod, EveryOverloadHalfAndFloatMatchesTheDeviceSequence) {
  for (int o = 0; o < 4; ++o) {
    CheckFmod<float>(o);
    CheckFmod<half>(o);
  }
}

TEST(MathFmod, LargeQuotientsGiveTheSequenceNotCFmod) {
  std::vector<float> a(512), b(512), out;
  std::mt19937 gen(5);
  std::uniform_real_distribution<float> big(1e6f, 1e9f), small(0.01f, 3.0f);
  for (int i = 0; i < 512; ++i) {
    a[i] = big(gen);
    b[i] = small(gen);
  }
  OnBlock([&](Ub& ub) {
    ub.Put<float>(0, a);
    ub.Put<float>(1, b);
    Fmod(ub.Get<float>(2), ub.Get<float>(0), ub.Get<float>(1), ub.Get<uint8_t>(3), 512);
    out = ub.Take<float>(2);
  });
  int differ = 0;
  for (int i = 0; i < 512; ++i) {
    ASSERT_EQ(Bits(out[i]), Bits(FmodModel(a[i], b[i]))) << i;
    differ += out[i] != std::fmod(a[i], b[i]);
  }
  EXPECT_GT(differ, 100);
}

TEST(MathFmod, CheckedModeRules) {
  ExpectCheck(
      [](Ub& ub) {
        const LocalTensor<float> a = ub.Get<float>(0);
        Fmod(a, a, ub.Get<float>(1), ub.Get<uint8_t>(3), 64);
      },
      "address_overlap", "dst and src0");
  ExpectCheck(
      [](Ub& ub) {
        LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(3);
        tmp.SetSize(1024);  // half needs 2048 bytes on 2201
        Fmod(ub.Get<half>(2), ub.Get<half>(0), ub.Get<half>(1), tmp, 64);
      },
      "tmp_buffer", "less than the 2048");
  // fmod_check_common.h and fmod_3510_impl.h assert equal source sizes, whatever calCount.
  for (const char* soc : {k910B, k310P, k950}) {
    ExpectCheck(
        [](Ub& ub) {
          LocalTensor<float> b = ub.Get<float>(1);
          b.SetSize(b.GetSize() - 8);
          Fmod(ub.Get<float>(2), ub.Get<float>(0), b, ub.Get<uint8_t>(3), 64);
        },
        "tensor_bounds", "the two sources must be the same size", soc);
  }
}
// ----------------------------------------------------------------------------------------------
// Fma and Axpy.

TEST(MathFma, FloatIsCorrectlyRoundedHalfIsBitExact) {
  const std::vector<float> a = Inputs<float>(21, 512, 4.0f), b = Inputs<float>(22, 512, 4.0f),
                           c = Inputs<float>(23, 512, 4.0f);
  std::vector<float> out;
  std::vector<half> hout;
  std::vector<half> ha(512), hb(512), hc(512);
  std::mt19937 gen(9);
  std::uniform_int_distribution<int> e(-7, 7);
  std::uniform_real_distribution<float> m(1.0f, 2.0f);
  for (int i = 0; i < 512; ++i) {
    // Normal halves of moderate exponents: a * b + c is exact in double, so rounding it once
    // to half is the fused result.
    ha[i] = half(std::ldexp(m(gen), e(gen)) * (i % 2 ? 1.0f : -1.0f));
    hb[i] = half(std::ldexp(m(gen), e(gen)));
    hc[i] = half(std::ldexp(m(gen), e(gen)) * (i % 3 ? 1.0f : -1.0f));
  }
  // A tie of the product (1 + 2^-10)(1 - 2^-11) + 2^-21 = 1 + 2^-11: ties to even (1.0), and
  // one that a separate rounding of the product would get wrong.
  ha[0] = half(1.0f + 0x1p-10f);
  hb[0] = half(1.0f - 0x1p-11f);
  hc[0] = half(0x1p-21f);
  hc[1] = half(0x1p-24f);
  ha[1] = ha[0];
  hb[1] = hb[0];
  OnBlock(
      [&](Ub& ub) {
        ub.Put<float>(0, a);
        ub.Put<float>(1, b);
        ub.Put<float>(2, c);
        LocalTensor<float> d = ub.Get<float>(3);
        Fma(d, ub.Get<float>(0), ub.Get<float>(1), ub.Get<float>(2), 512);
        out = ub.Take<float>(3);
        ub.Put<half>(0, ha);
        ub.Put<half>(1, hb);
        ub.Put<half>(2, hc);
        Fma(ub.Get<half>(3), ub.Get<half>(0), ub.Get<half>(1), ub.Get<half>(2), 512);
        hout = ub.Take<half>(3);
      },
      k950);
  for (int i = 0; i < 512; ++i) {
    const long double exact = static_cast<long double>(a[i]) * b[i] + c[i];
    if (!(std::fabs(exact) <= std::numeric_limits<float>::max())) continue;
    const double ulp = std::nextafter(std::fabs(out[i]), INFINITY) - std::fabs(out[i]);
    // Correct rounding: within half an ulp of the (long double) exact value.
    EXPECT_LE(std::fabs(static_cast<long double>(out[i]) - exact), 0.5L * ulp * (1 + 1e-6L)) << i;
    const double hexact = D(ha[i]) * D(hb[i]) + D(hc[i]);
    EXPECT_EQ(hout[i].bits, half(hexact).bits) << i;
  }
  EXPECT_EQ(hout[0].bits, half(1.0f).bits);
  EXPECT_EQ(hout[1].bits, half(1.0f).bits);
  ExpectCheck(
      [](Ub& ub) {
        Fma(ub.Get<float>(3), ub.Get<float>(0), ub.Get<float>(1), ub.Get<float>(2), 8);
      },
      "product", "Fma");
}

TEST(MathAxpy, EveryTypeCombinationFollowsTheDeviceSequence) {
  const std::vector<half> hs = Inputs<half>(31, 512, 8.0f);
  const std::vector<float> fs = Inputs<float>(32, 512, 8.0f), fd = Inputs<float>(33, 512, 8.0f);
  std::vector<half> hd(512);
  for (int i = 0; i < 512; ++i) hd[i] = half(fd[i]);
  std::vector<float> mix, ff;
  std::vector<half> hh;
  for (const char* soc : {k910B, k310P, k950}) {
    OnBlock(
        [&](Ub& ub) {
          const LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(3);
          ub.Put<half>(0, hs);
          ub.Put<float>(1, fd);
          Axpy(ub.Get<float>(1), ub.Get<half>(0), half(2.5f), tmp, 512);
          mix = ub.Take<float>(1);
          ub.Put<half>(1, hd);
          Axpy(ub.Get<half>(1), ub.Get<half>(0), half(-0.75f), tmp, 512);
          hh = ub.Take<half>(1);
          ub.Put<float>(0, fs);
          ub.Put<float>(1, fd);
          Axpy(ub.Get<float>(1), ub.Get<float>(0), 1.3f, tmp, 512);
          ff = ub.Take<float>(1);
        },
        soc);
    const bool on950 = std::string(soc) == k950;
    for (int i = 0; i < 512; ++i) {
      // 2201/2002: product rounded to float, then the sum rounded to float (then to half for a
      // half dst). 950: the register Axpy, one fused multiply-add rounded once to the dst type
      // (these half operands' exact sums fit a double: one rounding to half).
      auto seq = [](double s, double k, double d) {
        const double p = static_cast<float>(s * k);
        return static_cast<float>(p + d);
      };
      if (on950) {
        ASSERT_TRUE(SameValue(mix[i], std::fma(static_cast<float>(D(hs[i])), 2.5f, fd[i]))) << i;
        ASSERT_TRUE(SameValue(hh[i], half(D(hs[i]) * -0.75 + D(hd[i])))) << i;
        ASSERT_TRUE(SameValue(ff[i], std::fma(fs[i], 1.3f, fd[i]))) << i;
        continue;
      }
      ASSERT_TRUE(SameValue(mix[i], seq(D(hs[i]), 2.5, fd[i]))) << i;
      ASSERT_TRUE(SameValue(hh[i], half(seq(D(hs[i]), -0.75, D(hd[i]))))) << i;
      ASSERT_TRUE(SameValue(ff[i], seq(fs[i], static_cast<double>(1.3f), fd[i]))) << i;
    }
  }
  ExpectCheck(
      [](Ub& ub) {
        LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(3);
        tmp.SetSize(512);
        Axpy(ub.Get<float>(1), ub.Get<half>(0), half(1.0f), tmp, 64);
      },
      "tmp_buffer", "less than the 1024");
  ExpectCheck(
      [](Ub& ub) {
        const LocalTensor<float> a = ub.Get<float>(0);
        Axpy(a, a, 1.0f, ub.Get<uint8_t>(3), 64);
      },
      "address_overlap", "dstTensor and srcTensor");
}
// ----------------------------------------------------------------------------------------------
// The sanitizer sees the reads and writes.

TEST(MathSanitizer, UninitialisedSourceIsReportedAtTheApi) {
  const std::string f = lngrad::aicore::test::SanitizerFindings(
      [] {
        TPipe pipe;
        TBuf<> a, b, t;
        pipe.InitBuffer(a, 1024);
        pipe.InitBuffer(b, 1024);
        pipe.InitBuffer(t, 1024);
        Ceil<float, false>(b.Get<float>(), a.Get<float>(), t.Get<uint8_t>(), 64);
      },
      lngrad::aicore::san::kInitcheck);
  EXPECT_NE(f.find("initcheck"), std::string::npos) << f;
  EXPECT_NE(f.find("Ceil"), std::string::npos) << f;
}
}  // namespace
