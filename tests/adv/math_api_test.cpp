// The high-level math, index and GM-fill APIs (lib/math/*.h, lib/index/arithprogression.h,
// lib/utils/init_global_memory.h) and their host scratch sizes (tiling/math/math_tiling.h),
// against scalar models written here from the vendor's pages (Ceil.md, Fmod.md, Arange.md, ...)
// and its implementation sequences: every operation of a model runs in double and is rounded
// to the operand type afterwards (innocuous double rounding for +, -, *, /), so the models share
// no code with the float and half arithmetic under test. Each checked-mode rule is exercised.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "../aicore/checked_mode_scope.h"
#include "../aicore/repeat_test_util.h"
#include "../aicore/sanitizer_off.h"
#include "kernel_operator.h"
#include "tiling/tiling_api.h"

namespace {

using namespace AscendC;
using lngrad::aicore::test::ExpectCheck;
using lngrad::aicore::test::OnBlock;
using lngrad::aicore::test::Ub;

constexpr const char* k910B = "Ascend910B1";
constexpr const char* k950 = "Ascend950PR_9589";
constexpr const char* k310P = "Ascend310P1";
constexpr uint32_t kN = 1000;
constexpr uint32_t kBytes =
    lngrad::aicore::test::kUbBufBytes;  // elements per case: several repeats and a tail

using lngrad::aicore::Launch;
using lngrad::aicore::LaunchOptions;

template <typename T>
uint64_t Bits(T v) {
  uint64_t b = 0;
  std::memcpy(&b, &v, sizeof(T));
  return b;
}

template <typename T>
double D(T x) {
  return static_cast<double>(static_cast<float>(x));
}
// A double rounded to T (float, or half through float: exact when the double is a float).
template <typename T>
T Round(double x) {
  return T(static_cast<float>(x));
}

template <typename T>
bool SameValue(T a, T b) {
  if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, half>) {
    if (std::isnan(static_cast<float>(a)) && std::isnan(static_cast<float>(b))) return true;
  }
  return Bits(a) == Bits(b);
}

template <typename T>
void ExpectSame(const std::vector<T>& got, const std::vector<T>& want, const std::string& what) {
  for (size_t i = 0; i < want.size(); ++i) {
    if (!SameValue(got[i], want[i])) {
      ADD_FAILURE() << what << ": element " << i << " is " << D(got[i]) << " (0x" << std::hex
                    << Bits(got[i]) << "), expected " << D(want[i]) << " (0x" << Bits(want[i])
                    << std::dec << ")";
      return;
    }
  }
}

// Specials first (signed zeros, ties, large, tiny, infinities, NaN), then random values.
template <typename T>
std::vector<T> Inputs(uint32_t seed, uint32_t n = kN, float range = 100.0f) {
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<float> s = {
      0.0f,        -0.0f,    0.5f,  -0.5f, 1.5f,  -1.5f,
      2.5f,        -2.5f,    3.9f,  -3.9f, 1e-3f, -1e-3f,
      0.49999997f, 7.0f,     -7.0f, inf,   -inf,  std::numeric_limits<float>::quiet_NaN(),
      1000.5f,     -1000.25f};
  if constexpr (std::is_same_v<T, float>) {
    s.insert(s.end(), {8388607.5f, -8388607.5f, 16777216.0f, 3e38f, -3e38f, 1e-40f, -1e-40f});
  } else {
    s.insert(s.end(), {1023.5f, -1023.5f, 2047.0f, 65504.0f, -65504.0f, 6e-8f});
  }
  std::vector<T> v(n);
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> d(-range, range);
  for (uint32_t i = 0; i < n; ++i) v[i] = i < s.size() ? T(s[i]) : T(d(gen));
  return v;
}

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
    for (uint32_t i = 0; i < kN; ++i) want[i] = Round<T>(RoundingModel(r, D(in[i])));
    out.resize(kN);
    ExpectSame(out, want, std::string(name) + (with_tmp ? " with tmp" : " stack"));
  }
}

TEST(MathRounding, EveryApiHalfAndFloatMatchesTheModel) {
  const struct {
    Rnd r;
    const char* name;
    const char* soc;
  } cases[] = {{Rnd::kCeil, "Ceil", k910B},   {Rnd::kFloor, "Floor", k910B},
               {Rnd::kTrunc, "Trunc", k910B}, {Rnd::kRound, "Round", k910B},
               {Rnd::kFrac, "Frac", k910B},   {Rnd::kRint, "Rint", k950},
               {Rnd::kCeil, "Ceil", k950},    {Rnd::kRound, "Round", k310P}};
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
}

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

// Max(a, b) = a > b ? a : b, Min(a, b) = a < b ? a : b (the device's convention).
double MaxModel(double a, double b) { return a > b ? a : b; }
double MinModel(double a, double b) { return a < b ? a : b; }

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
      const float want = static_cast<float>(MinModel(MaxModel(x[i], l), h));
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
    for (uint32_t i = 0; i < 512; ++i) {
      ASSERT_TRUE(SameValue(mn[i], Round<half>(MaxModel(D(x[i]), 0.5)))) << soc << i;
      ASSERT_TRUE(SameValue(mx[i], Round<half>(MinModel(D(x[i]), -1.5)))) << soc << i;
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
    for (int i = 0; i < 512; ++i) {
      // Product rounded to float, then the sum rounded to float (then to half for a half dst).
      auto seq = [](double s, double k, double d) {
        const double p = static_cast<float>(s * k);
        return static_cast<float>(p + d);
      };
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
// Arange: the replay of the vendor's sequence (scalar first block, block doubling within the
// first repeat, repeat by repeat after it), written independently of the library.

template <typename T>
std::vector<T> ArangeReplay(double first, double diff, int count) {
  const int blk = 32 / sizeof(T), rep = 256 / sizeof(T);
  const int total = (count + blk - 1) / blk * blk;
  std::vector<double> v(total, 0.0);
  auto to_t = [](double x) {
    if constexpr (std::is_integral_v<T>) {
      return static_cast<double>(static_cast<T>(static_cast<int64_t>(x)));
    } else {
      return D(Round<T>(x));
    }
  };
  const int base = std::min(count, blk);
  for (int i = 0; i < base; ++i) {
    // half: in float; float: diff * i rounded, then the sum rounded.
    const double prod = std::is_integral_v<T> ? diff * i : static_cast<float>(diff * i);
    v[i] = to_t(std::is_integral_v<T> ? first + prod : static_cast<float>(first + prod));
  }
  if (count <= blk) {
    std::vector<T> r(count);
    for (int i = 0; i < count; ++i) r[i] = static_cast<T>(v[i]);
    return r;
  }
  const double bstep = to_t(std::is_integral_v<T> ? diff * blk : static_cast<float>(diff * blk));
  const double rstep = to_t(std::is_integral_v<T> ? diff * rep : static_cast<float>(diff * rep));
  auto add = [&](int at, int from, double s, int n) {
    for (int j = 0; j < n; ++j) v[at + j] = to_t(v[from + j] + s);
  };
  if (count > rep) {
    for (int i = 0; i < 7; ++i) add((i + 1) * blk, i * blk, bstep, blk);
    const int repeat = count / rep, tail = count % rep;
    for (int i = 0; i < repeat - 1; ++i) add((i + 1) * rep, i * rep, rstep, rep);
    if (tail > 0) add(repeat * rep, (repeat - 1) * rep, rstep, (tail + blk - 1) / blk * blk);
  } else {
    for (int i = 0; i < total / blk - 1; ++i) add((i + 1) * blk, i * blk, bstep, blk);
  }
  std::vector<T> r(total);
  for (int i = 0; i < total; ++i) r[i] = static_cast<T>(v[i]);
  return r;
}

template <typename T>
void CheckArange(double first, double diff, int count, const char* soc = k910B) {
  std::vector<T> out;
  OnBlock(
      [&](Ub& ub) {
        Arange<T>(ub.Get<T>(0), static_cast<T>(first), static_cast<T>(diff), count);
        out = ub.Take<T>(0);
      },
      soc);
  const std::vector<T> want =
      ArangeReplay<T>(D(static_cast<T>(first)), D(static_cast<T>(diff)), count);
  out.resize(want.size());
  ExpectSame(out, want, "Arange count " + std::to_string(count));
}

TEST(MathArange, MatchesTheVendorSequenceForEveryBranch) {
  for (int count : {1, 5, 8, 9, 16, 63, 64, 65, 100, 128, 129, 1000, 1001}) {
    CheckArange<float>(0.1, 0.3, count);
    CheckArange<half>(-3.0, 0.37, count);
    CheckArange<int32_t>(-100, 7, count);
    CheckArange<int16_t>(30000, 97, count);  // wraps in 16 bits
  }
  CheckArange<int64_t>(-5, 3, 300, k950);
  // Exactly representable progressions are exact: dst[i] = first + i * diff.
  OnBlock([](Ub& ub) {
    LocalTensor<float> d = ub.Get<float>(0);
    ArithProgression<float>(d, 1.0f, 0.5f, 777);
    for (int i = 0; i < 777; ++i) ASSERT_EQ(d.HostPtr()[i], 1.0f + 0.5f * i) << i;
    EXPECT_EQ(Bits(d.HostPtr()[777]), Bits(1.0f + 0.5f * 777));  // the whole block is written
    EXPECT_EQ(Bits(d.HostPtr()[784]), 0u);
  });
  ExpectCheck([](Ub& ub) { Arange<float>(ub.Get<float>(0), 1.0f, 1.0f, 0); }, "invalid_count",
              "must be > 0");
  ExpectCheck([](Ub& ub) { Arange<int64_t>(ub.Get<int64_t>(0), 1, 1, 8); }, "product", "int64_t");
}

// ----------------------------------------------------------------------------------------------
// Fill.

TEST(MathFill, SetsGmBeforeInitBufferOnly) {
  std::vector<float> gm(300, -1.0f);
  LaunchOptions o;
  o.soc = k910B;
  ASSERT_TRUE(Launch(
                  1,
                  [&] {
                    TPipe pipe;
                    GlobalTensor<float> g;
                    g.SetGlobalBuffer(gm.data(), 300);
                    Fill(g, 257, 2.5f);
                  },
                  o)
                  .ok());
  for (int i = 0; i < 300; ++i) ASSERT_EQ(gm[i], i < 257 ? 2.5f : -1.0f) << i;
  std::vector<uint16_t> g16(64, 0);
  ASSERT_TRUE(Launch(
                  1,
                  [&] {
                    GlobalTensor<uint16_t> g;
                    g.SetGlobalBuffer(g16.data(), 64);
                    Fill(g, 64, uint16_t{0xbeef});
                  },
                  o)
                  .ok());
  EXPECT_EQ(g16[63], 0xbeef);
  ExpectCheck(
      [&](Ub&) {
        GlobalTensor<float> g;
        g.SetGlobalBuffer(gm.data(), 300);
        Fill(g, 16, 1.0f);
      },
      "fill_order", "before any InitBuffer");
  const lngrad::aicore::test::CheckedModeScope checked(true);
  std::string check;
  (void)Launch(
      1,
      [&] {
        GlobalTensor<float> g;
        g.SetGlobalBuffer(gm.data(), 300);
        try {
          Fill(g, 301, 1.0f);
        } catch (const lngrad::aicore::KernelCheckError& e) {
          check = e.check();
        }
      },
      o);
  EXPECT_EQ(check, "gm_bounds");
  EXPECT_EQ(gm[299], -1.0f);
}

TEST(MathFill, InitOutputFillsAfterInitBufferToo) {
  for (const char* soc : {k910B, "Ascend950PR_9599"}) {
    std::vector<int32_t> gm(100, -1);
    LaunchOptions o;
    o.soc = soc;
    ASSERT_TRUE(Launch(
                    1,
                    [&] {
                      TPipe pipe;
                      TBuf<> b;
                      pipe.InitBuffer(b, 1024);
                      GlobalTensor<int32_t> g;
                      g.SetGlobalBuffer(gm.data(), 100);
                      InitOutput<int32_t>(g, 77, 5);
                    },
                    o)
                    .ok());
    for (int i = 0; i < 100; ++i) ASSERT_EQ(gm[i], i < 77 ? 5 : -1) << soc << " " << i;
  }
  // Where the vendor's InitOutput compiles to nothing, checked mode says so.
  std::vector<float> gm(16, -1.0f);
  ExpectCheck(
      [&](Ub&) {
        GlobalTensor<float> g;
        g.SetGlobalBuffer(gm.data(), 16);
        InitOutput<float>(g, 16, 0.0f);
      },
      "unsupported_on_product", "InitOutput", "Ascend310P1");
  EXPECT_EQ(gm[0], -1.0f);
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

// ----------------------------------------------------------------------------------------------
// Host scratch sizes.

TEST(MathTiling, ValuesOfTheToolkitFormulas) {
  using MaxMinFn = void (*)(const ge::Shape&, uint32_t, bool, uint32_t&, uint32_t&);
  // One call (srcShape {n}, typeSize, isReuseSource false) and the max and min it must give
  // (min: not checked where absent).
  struct MaxMinRow {
    const char* name;
    MaxMinFn fn;
    int64_t n;
    uint32_t type_size;
    uint32_t max;
    std::optional<uint32_t> min;
  };
  const MaxMinRow rows[] = {
      {"Ceil", GetCeilMaxMinTmpSize, 1000, 4, 4000, 256},
      {"Ceil", GetCeilMaxMinTmpSize, 8, 2, 512, 512},  // the ceil sample's call
      {"Floor", GetFloorMaxMinTmpSize, 1000, 4, 0, 0},
      {"Floor", GetFloorMaxMinTmpSize, 1000, 2, 4000, 512},
      {"Trunc", GetTruncMaxMinTmpSize, 1000, 2, 4000, std::nullopt},
      {"Frac", GetFracMaxMinTmpSize, 1000, 2, 8000, 1024},
      {"Fmod", GetFmodMaxMinTmpSize, 1000, 2, 16000, 2048},
      {"Fmod", GetFmodMaxMinTmpSize, 8, 4, 256, 256},
      {"Axpy", GetAxpyMaxMinTmpSize, 1000, 2, 8000, 1024},
      {"Axpy", GetAxpyMaxMinTmpSize, 8, 2, 1024, std::nullopt},
      {"Axpy", GetAxpyMaxMinTmpSize, 1000, 4, 0, std::nullopt},
      {"Xor", GetXorMaxMinTmpSize, 1000, 2, 2000, 256},
      {"Xor", GetXorMaxMinTmpSize, 8, 2, 256, std::nullopt},
      {"Clamp", GetClampMaxMinTmpSize, 1000, 4, 1000, 64},
      {"Clamp", GetClampMaxMinTmpSize, 8, 2, 128, 128},
  };
  uint32_t mx = 7, mn = 7, k = 7, extra = 7;
  for (const MaxMinRow& r : rows) {
    SCOPED_TRACE(::testing::Message()
                 << "Get" << r.name << "MaxMinTmpSize({" << r.n << "}, " << r.type_size << ")");
    r.fn(ge::Shape({r.n}), r.type_size, false, mx, mn);
    EXPECT_EQ(mx, r.max);
    if (r.min) {
      EXPECT_EQ(mn, *r.min);
    }
  }
  GetCeilTmpBufferFactorSize(2, k, extra);
  EXPECT_EQ(k, 2u);
  EXPECT_EQ(extra, 0u);
  GetFmodTmpBufferFactorSize(2, k, extra);
  EXPECT_EQ(k, 8u);
  GetFracTmpBufferFactorSize(4, k, extra);
  EXPECT_EQ(k, 0u);
  GetAxpyTmpBufferFactorSize(2, k, extra);
  EXPECT_EQ(k, 4u);
  GetArangeMaxMinTmpSize(mx, mn);
  EXPECT_EQ(mx + mn, 0u);
}

TEST(MathTiling, PlatformFunctions) {
  const platform_ascendc::PlatformAscendC& a2 =
      *platform_ascendc::PlatformAscendCManager::GetInstance(k910B);
  const platform_ascendc::PlatformAscendC& p950 =
      *platform_ascendc::PlatformAscendCManager::GetInstance(k950);
  const platform_ascendc::PlatformAscendC& p310 =
      *platform_ascendc::PlatformAscendCManager::GetInstance(k310P);
  const ge::Shape s({1000});
  uint32_t mx = 7, mn = 7, k = 7, extra = 7;
  GetRoundMaxMinTmpSize(a2, s, 4, false, mx, mn);
  EXPECT_EQ(mx, 0u);
  GetRoundMaxMinTmpSize(a2, s, 2, false, mx, mn);
  EXPECT_EQ(mx, 2000u);
  EXPECT_EQ(mn, 256u);
  GetRoundMaxMinTmpSize(p310, s, 2, false, mx, mn);
  EXPECT_EQ(mx, 4000u);
  EXPECT_EQ(mn, 512u);
  GetRoundTmpBufferFactorSize(p310, 4, k, extra);
  EXPECT_EQ(k, 1u);
  mx = mn = 7;
  GetRintMaxMinTmpSize(p950, s, 4, false, mx, mn);
  EXPECT_EQ(mx + mn, 0u);
  EXPECT_TRUE(lngrad::tiling::LastTilingStatus().ok());
  mx = mn = 7;
  GetRintMaxMinTmpSize(a2, s, 4, false, mx, mn);
  EXPECT_EQ(mx, 7u);  // untouched
  EXPECT_FALSE(lngrad::tiling::LastTilingStatus().ok());
  GetBitwiseAndMaxMinTmpSize(p950, s, 3, false, mx, mn);
  EXPECT_FALSE(lngrad::tiling::LastTilingStatus().ok());  // no 3-byte type
  GetWhereTmpBufferFactorSize(p950, 8, k, extra);
  EXPECT_EQ(k, 0u);
  EXPECT_TRUE(lngrad::tiling::LastTilingStatus().ok());
  GetCeilMaxMinTmpSize(ge::Shape({0}), 4, false, mx, mn);
  EXPECT_FALSE(lngrad::tiling::LastTilingStatus().ok());
}

}  // namespace
