// The high-level bit, logic, classification and select APIs (lib/math/*.h: Xor, BitwiseAnd & co.,
// LogicalAnd & co., IsFinite, IsInf, IsNan, Where, Clamp, ClampMin, ClampMax) against scalar
// models written here from the vendor's pages, on every operand form and product; each
// checked-mode rule is exercised. The shared helpers are in math_api_test_util.h.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "../aicore/checked_mode_scope.h"
#include "../aicore/repeat_test_util.h"
#include "../aicore/sanitizer_off.h"
#include "kernel_operator.h"
#include "math_api_test_util.h"

namespace {

using namespace AscendC;
using namespace lngrad::adv::testing;

// ----------------------------------------------------------------------------------------------
// Bit and logic operations.

template <typename T>
std::vector<T> Ints(uint32_t seed, uint32_t n = kN) {
  std::mt19937_64 gen(seed);
  std::vector<T> v(n);
  for (auto& x : v) x = static_cast<T>(gen());
  return v;
}

TEST(MathBits, XorEveryOverload) {
  for (int overload = 0; overload < 4; ++overload) {
    for (const char* soc : {k910B, k950, k310P}) {
      const std::vector<int16_t> a = Ints<int16_t>(1), b = Ints<int16_t>(2);
      std::vector<int16_t> out;
      OnBlock(
          [&](Ub& ub) {
            ub.Put<int16_t>(0, a);
            ub.Put<int16_t>(1, b);
            LocalTensor<int16_t> s0 = ub.Get<int16_t>(0), s1 = ub.Get<int16_t>(1);
            s0.SetSize(kN);
            s1.SetSize(kN);
            const LocalTensor<int16_t> d = ub.Get<int16_t>(2);
            const LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(3);
            if (overload == 0) Xor(d, s0, s1, tmp, kN);
            if (overload == 1) Xor(d, s0, s1, tmp);
            if (overload == 2) Xor(d, s0, s1, kN);
            if (overload == 3) Xor<int16_t, false>(d, s0, s1);
            out = ub.Take<int16_t>(2);
          },
          soc);
      for (uint32_t i = 0; i < kN; ++i) {
        ASSERT_EQ(out[i], static_cast<int16_t>((a[i] | b[i]) & ~(a[i] & b[i]))) << i;
      }
    }
  }
  ExpectCheck(
      [](Ub& ub) {
        LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(3);
        tmp.SetSize(224);
        Xor(ub.Get<uint16_t>(2), ub.Get<uint16_t>(0), ub.Get<uint16_t>(1), tmp, 16);
      },
      "tmp_buffer", "less than the 256");
}

// The 950's Xor never reads sharedTmpBuffer; its CPU-debug check asks for 64 bytes (one
// 32-element block of T), so 64 pass there, while 2201 keeps the tiling's 256.
TEST(MathBits, XorScratchMinimumOn950) {
  auto xor_with = [](uint32_t bytes) {
    return [bytes](Ub& ub) {
      LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(3);
      tmp.SetSize(bytes);
      Xor(ub.Get<uint16_t>(2), ub.Get<uint16_t>(0), ub.Get<uint16_t>(1), tmp, 300);
    };
  };
  const lngrad::aicore::test::CheckedModeScope checked(true);
  const auto [check, msg] = lngrad::aicore::test::CheckOf(xor_with(64), k950);
  EXPECT_EQ(check, "") << msg;
  ExpectCheck(xor_with(32), "tmp_buffer", "less than the 64", k950);
  ExpectCheck(xor_with(64), "tmp_buffer", "less than the 256", k910B);
}

// Without calCount Xor takes src0's size; the kit's xor.h asserts src1 holds as many.
TEST(MathBits, XorWithoutCountNeedsSourcesOfOneSize) {
  for (const char* soc : {k910B, k950}) {
    for (int overload = 0; overload < 2; ++overload) {
      ExpectCheck(
          [overload](Ub& ub) {
            LocalTensor<int16_t> s0 = ub.Get<int16_t>(0), s1 = ub.Get<int16_t>(1);
            s0.SetSize(256);
            s1.SetSize(128);
            if (overload == 0) Xor(ub.Get<int16_t>(2), s0, s1, ub.Get<uint8_t>(3));
            if (overload == 1) Xor<int16_t, false>(ub.Get<int16_t>(2), s0, s1);
          },
          "tensor_bounds", "must be the same size", soc);
    }
  }
}

template <typename T>
void CheckBitwise() {
  const std::vector<T> a = Ints<T>(5), b = Ints<T>(6);
  std::vector<T> and_, or_, xor_, not_;
  OnBlock(
      [&](Ub& ub) {
        ub.Put<T>(0, a);
        ub.Put<T>(1, b);
        const LocalTensor<T> s0 = ub.Get<T>(0), s1 = ub.Get<T>(1), d = ub.Get<T>(2);
        const uint32_t n = static_cast<uint32_t>(std::min<size_t>(kN, kBytes / sizeof(T)));
        BitwiseAnd(d, s0, s1, n);
        and_ = ub.Take<T>(2);
        BitwiseOr(d, s0, s1, n);
        or_ = ub.Take<T>(2);
        BitwiseXor(d, s0, s1, n);
        xor_ = ub.Take<T>(2);
        BitwiseNot(d, s0, n);
        not_ = ub.Take<T>(2);
      },
      k950);
  const size_t n = std::min<size_t>(kN, kBytes / sizeof(T));
  for (size_t i = 0; i < n; ++i) {
    // Per bit, from the truth tables.
    T wa = 0, wo = 0, wx = 0, wn = 0;
    for (unsigned bit = 0; bit < sizeof(T) * 8; ++bit) {
      const bool x = (static_cast<uint64_t>(a[i]) >> bit) & 1;
      const bool y = (static_cast<uint64_t>(b[i]) >> bit) & 1;
      const auto m = static_cast<T>(uint64_t{1} << bit);
      if (x && y) wa |= m;
      if (x || y) wo |= m;
      if (x != y) wx |= m;
      if (!x) wn |= m;
    }
    ASSERT_EQ(and_[i], wa) << i;
    ASSERT_EQ(or_[i], wo) << i;
    ASSERT_EQ(xor_[i], wx) << i;
    ASSERT_EQ(not_[i], wn) << i;
  }
}
TEST(MathBits, BitwiseEveryIntegerType) {
  CheckBitwise<int8_t>();
  CheckBitwise<uint8_t>();
  CheckBitwise<int16_t>();
  CheckBitwise<uint16_t>();
  CheckBitwise<int32_t>();
  CheckBitwise<uint32_t>();
  CheckBitwise<int64_t>();
  CheckBitwise<uint64_t>();
  ExpectCheck(
      [](Ub& ub) { BitwiseAnd(ub.Get<int32_t>(2), ub.Get<int32_t>(0), ub.Get<int32_t>(1), 8); },
      "product", "BitwiseAnd: exists on Ascend 950");
  ExpectCheck(
      [](Ub& ub) {
        const LocalTensor<int32_t> a = ub.Get<int32_t>(0);
        BitwiseNot(a, a, 8);
      },
      "address_overlap", "dst and src", k950);
}

template <typename U>
void CheckLogical(const std::vector<U>& a, const std::vector<U>& b) {
  const uint32_t n = static_cast<uint32_t>(a.size());
  std::vector<bool> land(n), lor(n), lxor(n), lnot(n);
  OnBlock(
      [&](Ub& ub) {
        ub.Put<U>(0, a);
        ub.Put<U>(1, b);
        const LocalTensor<U> s0 = ub.Get<U>(0), s1 = ub.Get<U>(1);
        const LocalTensor<bool> d = ub.Get<bool>(2);
        auto take = [&](std::vector<bool>& v) {
          for (uint32_t i = 0; i < n; ++i) v[i] = reinterpret_cast<uint8_t*>(d.HostPtr())[i] == 1;
        };
        LogicalAnd(d, s0, s1, n);
        take(land);
        LogicalOr(d, s0, s1, n);
        take(lor);
        LogicalXor(d, s0, s1, n);
        take(lxor);
        LogicalNot(d, s0, n);
        take(lnot);
      },
      k950);
  for (uint32_t i = 0; i < n; ++i) {
    // 零被视为False，非零数据被视为True: compare against zero in double (NaN != 0).
    const bool x = D(a[i]) != 0.0, y = D(b[i]) != 0.0;
    ASSERT_EQ(land[i], x && y) << i;
    ASSERT_EQ(lor[i], x || y) << i;
    ASSERT_EQ(lxor[i], x != y) << i;
    ASSERT_EQ(lnot[i], !x) << i;
  }
}

TEST(MathLogical, ZeroIsFalseEverythingElseTrue) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> a = {0.0f, -0.0f, 1.0f, nan, -2.0f, 0.0f, 1e-40f, 3.0f};
  const std::vector<float> b = {0.0f, 1.0f, -0.0f, 1.0f, nan, 5.0f, 1.0f, 0.0f};
  CheckLogical(a, b);
  std::vector<half> ha, hb;
  for (float x : a) ha.push_back(half(x));
  for (float x : b) hb.push_back(half(x));
  CheckLogical(ha, hb);
  CheckLogical(Ints<int8_t>(3, 300), std::vector<int8_t>(300, 0));
  std::vector<int32_t> ia = Ints<int32_t>(4, 200), ib = Ints<int32_t>(5, 200);
  for (size_t i = 0; i < ia.size(); i += 3) ia[i] = 0;
  CheckLogical(ia, ib);
  ExpectCheck([](Ub& ub) { LogicalOr(ub.Get<bool>(2), ub.Get<float>(0), ub.Get<float>(1), 8); },
              "product", "LogicalOr");
}

// A bool source element is its byte, any nonzero byte true (the 950 compares the bytes NE 0):
// bytes 2, 0x80 and 0xff are read as true, not loaded as undefined C++ bools; the outputs are 1
// or 0. LogicalAnds / LogicalOrs take their scalar from element 0 of the second tensor.
TEST(MathLogical, BoolSourcesAreTheirBytes) {
  const std::vector<uint8_t> a = {0, 1, 2, 0x80, 0xff, 0, 0x40, 1, 0, 7};
  const std::vector<uint8_t> b = {0x80, 0, 0xff, 2, 0, 0, 1, 3, 0x10, 0};
  const uint32_t n = static_cast<uint32_t>(a.size());
  std::vector<std::vector<uint8_t>> got;
  OnBlock(
      [&](Ub& ub) {
        ub.Put<uint8_t>(0, a);
        ub.Put<uint8_t>(1, b);
        const LocalTensor<bool> s0 = ub.Get<bool>(0), s1 = ub.Get<bool>(1), d = ub.Get<bool>(2);
        auto take = [&] {
          const uint8_t* p = reinterpret_cast<const uint8_t*>(d.HostPtr());
          got.emplace_back(p, p + n);
        };
        LogicalAnd(d, s0, s1, n);
        take();
        LogicalOr(d, s0, s1, n);
        take();
        LogicalXor(d, s0, s1, n);
        take();
        LogicalNot(d, s0, n);
        take();
        LogicalAnds(d, s0, s1, n);  // scalar: s1's element 0, byte 0x80 (true)
        take();
        LogicalOrs(d, s1, s0, n);  // scalar: s0's element 0, byte 0 (false)
        take();
      },
      k950);
  ASSERT_EQ(got.size(), 6u);
  for (uint32_t i = 0; i < n; ++i) {
    const bool x = a[i] != 0, y = b[i] != 0;
    EXPECT_EQ(got[0][i], x && y ? 1 : 0) << i;
    EXPECT_EQ(got[1][i], x || y ? 1 : 0) << i;
    EXPECT_EQ(got[2][i], x != y ? 1 : 0) << i;
    EXPECT_EQ(got[3][i], x ? 0 : 1) << i;
    EXPECT_EQ(got[4][i], x ? 1 : 0) << i;
    EXPECT_EQ(got[5][i], y ? 1 : 0) << i;
  }
}

TEST(MathClassify, IsFiniteIsInfIsNanBoolAndValueOutputs) {
  const std::vector<float> in = Inputs<float>(9, 64);
  std::vector<float> fin, inf, nan;
  std::vector<uint8_t> bfin, binf, bnan;
  OnBlock(
      [&](Ub& ub) {
        ub.Put<float>(0, in);
        const LocalTensor<float> src = ub.Get<float>(0), d = ub.Get<float>(1);
        const LocalTensor<bool> b = ub.Get<bool>(2);
        auto bools = [&] {
          const uint8_t* p = reinterpret_cast<const uint8_t*>(b.HostPtr());
          return std::vector<uint8_t>(p, p + 64);
        };
        IsFinite(d, src, 64);
        fin = ub.Take<float>(1);
        IsFinite(b, src, 64);
        bfin = bools();
        IsInf(d, src, ub.Get<uint8_t>(3), 64);
        inf = ub.Take<float>(1);
        IsInf(b, src, 64);
        binf = bools();
        IsNan(d, src, 64);
        nan = ub.Take<float>(1);
        IsNan(b, src, ub.Get<uint8_t>(3), 64);
        bnan = bools();
      },
      k950);
  for (uint32_t i = 0; i < 64; ++i) {
    const double x = in[i];
    const bool is_nan = x != x;
    const bool is_inf = !is_nan && (x > 1.7976931348623157e308 || x < -1.7976931348623157e308);
    EXPECT_EQ(Bits(fin[i]), Bits(!is_nan && !is_inf ? 1.0f : 0.0f)) << i;
    EXPECT_EQ(Bits(inf[i]), Bits(is_inf ? 1.0f : 0.0f)) << i;
    EXPECT_EQ(Bits(nan[i]), Bits(is_nan ? 1.0f : 0.0f)) << i;
    EXPECT_EQ(bfin[i], !is_nan && !is_inf) << i;
    EXPECT_EQ(binf[i], is_inf) << i;
    EXPECT_EQ(bnan[i], is_nan) << i;
  }
  OnBlock(
      [](Ub& ub) {
        LocalTensor<half> src = ub.Get<half>(0);
        src.HostPtr()[0] = half::FromBits(0x7c00);  // +inf
        src.HostPtr()[1] = half::FromBits(0x7e00);  // NaN
        src.HostPtr()[2] = half(65504.0f);
        IsFinite(ub.Get<half>(1), src, 3);
        EXPECT_EQ(ub.Get<half>(1).HostPtr()[0].bits, 0);
        EXPECT_EQ(ub.Get<half>(1).HostPtr()[1].bits, 0);
        EXPECT_EQ(ub.Get<half>(1).HostPtr()[2].bits, 0x3c00);
      },
      k950);
  ExpectCheck([](Ub& ub) { IsNan(ub.Get<bool>(2), ub.Get<float>(0), 8); }, "product", "IsNan");
}

// ----------------------------------------------------------------------------------------------
// Where and Clamp.

TEST(MathSelect, WhereTensorAndScalarOperands) {
  const std::vector<float> a = Inputs<float>(1, 300), b = Inputs<float>(2, 300);
  std::vector<uint8_t> cond(300);
  for (size_t i = 0; i < cond.size(); ++i)
    cond[i] = (i % 3 == 0) ? 0 : static_cast<uint8_t>(i % 5 + 1);
  for (int form = 0; form < 4; ++form) {
    std::vector<float> out;
    OnBlock(
        [&](Ub& ub) {
          ub.Put<float>(0, a);
          ub.Put<float>(1, b);
          ub.Put<uint8_t>(2, cond);
          const LocalTensor<float> s0 = ub.Get<float>(0), s1 = ub.Get<float>(1);
          const LocalTensor<bool> c = ub.Get<bool>(2);
          const LocalTensor<float> d = ub.Get<float>(3);
          if (form == 0) Where(d, s0, s1, c, 300);
          if (form == 1) Where<float>(d, 7.5f, s1, c, 300);
          if (form == 2) Where<float>(d, s0, -1.0f, c, 300);
          if (form == 3) Where<float>(d, 7.5f, -1.0f, c, 300);
          out = ub.Take<float>(3);
        },
        k950);
    for (uint32_t i = 0; i < 300; ++i) {
      const float x = form == 1 || form == 3 ? 7.5f : a[i];
      const float y = form == 2 || form == 3 ? -1.0f : b[i];
      ASSERT_TRUE(SameValue(out[i], cond[i] != 0 ? x : y)) << form << " " << i;
    }
  }
  ExpectCheck(
      [](Ub& ub) {
        Where(ub.Get<float>(0), ub.Get<float>(0), ub.Get<float>(1), ub.Get<bool>(2), 8);
      },
      "address_overlap", "dst and src0", k950);
  ExpectCheck(
      [](Ub& ub) {
        Where(ub.Get<float>(3), ub.Get<float>(0), ub.Get<float>(1), ub.Get<bool>(2), 8);
      },
      "product", "Where", k910B);
}

// Max(a, b) = a > b ? a : b, Min(a, b) = a < b ? a : b (the vector convention: a NaN a gives b).
double MaxModel(double a, double b) { return a > b ? a : b; }
double MinModel(double a, double b) { return a < b ? a : b; }
// The 950's register Max/Min (lngrad's register semantics): a NaN operand (a first) gives NaN,
// b only where strictly larger (smaller), so a +-0 tie keeps a.
double RegMaxModel(double a, double b) {
  if (std::isnan(a)) return a;
  if (std::isnan(b)) return b;
  return b > a ? b : a;
}
double RegMinModel(double a, double b) {
  if (std::isnan(a)) return a;
  if (std::isnan(b)) return b;
  return b < a ? b : a;
}

TEST(MathSelect, ClampEveryOperandForm) {
  const std::vector<float> x = Inputs<float>(4, 256), lo = Inputs<float>(5, 256, 3.0f);
  std::vector<float> hi(256);
  for (size_t i = 0; i < hi.size(); ++i) hi[i] = std::fabs(lo[i]) + 1.0f;
  for (int form = 0; form < 4; ++form) {
    std::vector<float> out;
    OnBlock(
        [&](Ub& ub) {
          ub.Put<float>(0, x);
          ub.Put<float>(1, lo);
          ub.Put<float>(2, hi);
          const LocalTensor<float> s = ub.Get<float>(0), mn = ub.Get<float>(1),
                                   mx = ub.Get<float>(2), d = ub.Get<float>(3);
          if (form == 0) Clamp(d, s, mn, mx, 256);
          if (form == 1) Clamp(d, s, mn, 2.0f, 256);
          if (form == 2) Clamp(d, s, -2.0f, mx, 256);
          if (form == 3) Clamp(d, s, -2.0f, 2.0f, 256);
          out = ub.Take<float>(3);
        },
        k950);
    for (uint32_t i = 0; i < 256; ++i) {
      const double l = form == 2 || form == 3 ? -2.0 : lo[i];
      const double h = form == 1 || form == 3 ? 2.0 : hi[i];
      const float want = static_cast<float>(RegMinModel(RegMaxModel(x[i], l), h));
      ASSERT_TRUE(SameValue(out[i], want)) << form << " " << i;
    }
  }
  OnBlock(
      [](Ub& ub) {
        LocalTensor<int8_t> s = ub.Get<int8_t>(0);
        for (int i = 0; i < 64; ++i) s.HostPtr()[i] = static_cast<int8_t>(i * 4 - 128);
        Clamp(ub.Get<int8_t>(1), s, int8_t{-10}, int8_t{20}, 64);
        for (int i = 0; i < 64; ++i) {
          const int v = i * 4 - 128;
          ASSERT_EQ(ub.Get<int8_t>(1).HostPtr()[i], v < -10 ? -10 : (v > 20 ? 20 : v));
        }
      },
      k950);
}

TEST(MathSelect, ClampMinClampMaxOnEveryProduct) {
  for (const char* soc : {k910B, k310P, k950}) {
    const std::vector<half> x = Inputs<half>(6, 512);
    std::vector<half> mn, mx, mn2;
    OnBlock(
        [&](Ub& ub) {
          ub.Put<half>(0, x);
          LocalTensor<half> s = ub.Get<half>(0);
          s.SetSize(512);
          ClampMin<half, false>(ub.Get<half>(1), s, ub.Get<uint8_t>(3), half(0.5f), 512);
          mn = ub.Take<half>(1);
          ClampMax(ub.Get<half>(1), s, half(-1.5f), 512);
          mx = ub.Take<half>(1);
        },
        soc);
    const bool on950 = std::string(soc) == k950;
    for (uint32_t i = 0; i < 512; ++i) {
      const double lo = on950 ? RegMaxModel(D(x[i]), 0.5) : MaxModel(D(x[i]), 0.5);
      const double hi = on950 ? RegMinModel(D(x[i]), -1.5) : MinModel(D(x[i]), -1.5);
      ASSERT_TRUE(SameValue(mn[i], Round<half>(lo))) << soc << i;
      ASSERT_TRUE(SameValue(mx[i], Round<half>(hi))) << soc << i;
    }
  }
  ExpectCheck(
      [](Ub& ub) {
        LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(3);
        tmp.SetSize(64);  // half needs 128 on 2201
        ClampMax<half, false>(ub.Get<half>(1), ub.Get<half>(0), tmp, half(1.0f), 16);
      },
      "tmp_buffer", "less than the 128");
}
}  // namespace
