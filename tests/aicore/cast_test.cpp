// Cast over the vendor's tables (every pair lngrad has, every round mode the table lists for it,
// count and mask/repeat forms, both overflow modes, SetDeqScale), bfloat16_t, int4b_t and the
// 1- and 8-byte Duplicate, each against a scalar model of the vendor's documented semantics
// written here: values decoded from their bit patterns by hand, rounded in long double by the
// textbook rules (IEEE nearest-even / away / directed / to odd; integers saturated, NaN -> 0).
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "cast_test_util.h"
#include "checked_mode_scope.h"
#include "kernel_operator.h"
#include "sanitizer_off.h"
#include "round_model.h"
#include "run_kernel.h"

namespace {

using namespace AscendC;
using namespace lngrad::aicore::test;
using LD = long double;

// ---- The model -------------------------------------------------------------------------------

// A binary floating format: p significand bits (hidden bit included), exponents [emin, emax].
struct Fmt {
  int p;
  int emin;
  int emax;
  int exp_bits;
};
constexpr Fmt kHalfFmt{11, -14, 15, 5};
constexpr Fmt kBf16Fmt{8, -126, 127, 8};
constexpr Fmt kFloatFmt{24, -126, 127, 8};

LD Decode(const Fmt& f, uint64_t bits) {
  const int frac_bits = f.p - 1;
  const uint64_t frac = bits & ((uint64_t{1} << frac_bits) - 1);
  const uint64_t e = (bits >> frac_bits) & ((uint64_t{1} << f.exp_bits) - 1);
  const bool neg = (bits >> (frac_bits + f.exp_bits)) & 1u;
  LD v;
  if (e == (uint64_t{1} << f.exp_bits) - 1) {
    v = frac != 0 ? std::numeric_limits<LD>::quiet_NaN() : std::numeric_limits<LD>::infinity();
  } else if (e == 0) {
    v = std::ldexp(static_cast<LD>(frac), f.emin - frac_bits);
  } else {
    v = std::ldexp(static_cast<LD>(frac + (uint64_t{1} << frac_bits)),
                   static_cast<int>(e) - (1 << (f.exp_bits - 1)) + 1 - frac_bits);
  }
  return neg ? -v : v;
}
LD MaxFinite(const Fmt& f) { return std::ldexp(2.0L - std::ldexp(1.0L, 1 - f.p), f.emax); }

// x rounded to the format in `mode` (CAST_NONE = CAST_RINT), overflow as IEEE: to infinity in
// the nearest modes and in the direction away from zero, to the largest finite value otherwise.
LD RoundToFmt(const Fmt& f, LD x, RoundMode mode) {
  if (std::isnan(x) || std::isinf(x) || x == 0) return x;
  const bool neg = x < 0;
  const LD a = std::fabs(x);
  // Magnitude direction: "up" = away from zero.
  int e;
  std::frexp(a, &e);  // a in [2^(e-1), 2^e)
  int E = e - 1;
  if (E < f.emin) E = f.emin;
  const LD ulp = std::ldexp(1.0L, E - f.p + 1);
  const LD q = a / ulp;
  const LD fl = std::floor(q);
  LD m;  // chosen multiple of ulp
  const bool exact = fl == q;
  const LD diff = q - fl;
  const bool fl_odd = std::fmod(fl, 2.0L) != 0;
  switch (mode) {
    case RoundMode::CAST_FLOOR:
      m = neg ? (exact ? fl : fl + 1) : fl;
      break;
    case RoundMode::CAST_CEIL:
      m = neg ? fl : (exact ? fl : fl + 1);
      break;
    case RoundMode::CAST_TRUNC:
      m = fl;
      break;
    case RoundMode::CAST_ROUND:
      m = diff >= 0.5L ? fl + 1 : fl;
      break;
    case RoundMode::CAST_ODD:
      m = exact ? fl : (fl_odd ? fl : fl + 1);
      break;
    default:
      m = (diff > 0.5L || (diff == 0.5L && fl_odd)) ? fl + 1 : fl;
      break;
  }
  LD r = m * ulp;
  if (r > MaxFinite(f)) {
    // Beyond the largest finite value: only a rounding away from zero reaches infinity.
    const bool toward_zero = mode == RoundMode::CAST_TRUNC || mode == RoundMode::CAST_ODD ||
                             (mode == RoundMode::CAST_FLOOR && !neg) ||
                             (mode == RoundMode::CAST_CEIL && neg);
    r = toward_zero ? MaxFinite(f) : std::numeric_limits<LD>::infinity();
  }
  return neg ? -r : (r == 0 ? 0.0L : r);
}

// Element types: how the test reads a value from memory and what it means.
template <typename X>
struct Elem;
template <>
struct Elem<half> {
  static constexpr const Fmt* fmt = &kHalfFmt;
  static constexpr uint32_t bits = 16;
};
template <>
struct Elem<bfloat16_t> {
  static constexpr const Fmt* fmt = &kBf16Fmt;
  static constexpr uint32_t bits = 16;
};
template <>
struct Elem<float> {
  static constexpr const Fmt* fmt = &kFloatFmt;
  static constexpr uint32_t bits = 32;
};
#define INT_ELEM(T, B, LO, HI)                  \
  template <>                                   \
  struct Elem<T> {                              \
    static constexpr const Fmt* fmt = nullptr;  \
    static constexpr uint32_t bits = B;         \
    static constexpr LD lo = LO;                \
    static constexpr LD hi = HI;                \
    static constexpr bool is_signed = (LO) < 0; \
  };
INT_ELEM(int4b_t, 4, -8, 7)
INT_ELEM(int8_t, 8, -128, 127)
INT_ELEM(uint8_t, 8, 0, 255)
INT_ELEM(int16_t, 16, -32768, 32767)
INT_ELEM(uint16_t, 16, 0, 65535)
INT_ELEM(int32_t, 32, -2147483648.0L, 2147483647.0L)
INT_ELEM(uint32_t, 32, 0, 4294967295.0L)
INT_ELEM(int64_t, 64, -9223372036854775808.0L, 9223372036854775807.0L)
#undef INT_ELEM
// The 950's 8-bit floats: storage only here (their values come from fp8.h, see Fp8Pairs below).
#define FP8_ELEM(T)                     \
  template <>                           \
  struct Elem<T> {                      \
    static constexpr uint32_t bits = 8; \
  };
FP8_ELEM(hifloat8_t)
FP8_ELEM(fp8_e5m2_t)
FP8_ELEM(fp8_e4m3fn_t)
#undef FP8_ELEM

uint64_t GetBits(const std::vector<uint8_t>& mem, uint32_t bits, uint64_t i) {
  if (bits == 4) return (mem[i / 2] >> ((i % 2) * 4)) & 0xFu;
  uint64_t v = 0;
  std::memcpy(&v, mem.data() + i * (bits / 8), bits / 8);
  return v;
}
void PutBits(std::vector<uint8_t>& mem, uint32_t bits, uint64_t i, uint64_t v) {
  if (bits == 4) {
    const int sh = static_cast<int>(i % 2) * 4;
    mem[i / 2] = static_cast<uint8_t>((mem[i / 2] & ~(0xF << sh)) | ((v & 0xF) << sh));
    return;
  }
  std::memcpy(mem.data() + i * (bits / 8), &v, bits / 8);
}

template <typename X>
LD ValueOf(uint64_t b) {
  if constexpr (Elem<X>::fmt != nullptr) {
    return Decode(*Elem<X>::fmt, b);
  } else {
    constexpr uint32_t n = Elem<X>::bits;
    if (Elem<X>::is_signed && n < 64 && ((b >> (n - 1)) & 1u)) {
      return static_cast<LD>(static_cast<int64_t>(b) - (int64_t{1} << n));
    }
    if constexpr (n == 64) return static_cast<LD>(static_cast<int64_t>(b));
    return static_cast<LD>(b);
  }
}

// The expected result of U -> T for source value x: a value, NaN for "some NaN".
template <typename T, typename U>
LD Expected(LD x, RoundMode mode, bool saturate, LD deq) {
  if constexpr (Elem<T>::fmt != nullptr) {
    LD r;
    if constexpr (std::is_same_v<T, half> && std::is_same_v<U, int32_t>) {
      r = RoundToFmt(kHalfFmt, x * deq, RoundMode::CAST_RINT);
    } else if constexpr (std::is_same_v<T, float> && std::is_same_v<U, float>) {
      r = (std::isnan(x) || std::isinf(x)) ? x : RoundToInteger(x, mode);
      if (r == 0) r = std::signbit(x) ? -0.0L : 0.0L;
    } else {
      r = RoundToFmt(*Elem<T>::fmt, x, mode);
    }
    if (saturate && std::isnan(r)) return 0;
    if (saturate && std::isinf(r))
      return r > 0 ? MaxFinite(*Elem<T>::fmt) : -MaxFinite(*Elem<T>::fmt);
    return r;
  } else {
    if (std::isnan(x)) return 0;
    LD r = Elem<U>::fmt != nullptr ? RoundToInteger(x, mode) : x;
    if (r < Elem<T>::lo) r = Elem<T>::lo;
    if (r > Elem<T>::hi) r = Elem<T>::hi;
    return r == 0 ? 0.0L : r;  // an integer has no -0
  }
}

// ---- Running the instruction -----------------------------------------------------------------

template <typename X>
uint64_t Bytes(uint64_t n) {
  return (n * Elem<X>::bits + 7) / 8;
}

struct CastRun {
  const char* soc = kA2;
  bool saturate = true;
  float deq = 1.0f;
};

// Cast<T, U> of `n` source elements held in `src` (raw bytes), count form; returns dst bytes.
template <typename T, typename U>
std::vector<uint8_t> RunCount(const std::vector<uint8_t>& src, uint32_t n, RoundMode mode,
                              const CastRun& r) {
  std::vector<uint8_t> out(Bytes<T>(n));
  const auto failures = RunKernel(
      1,
      [&] {
        TPipe pipe;
        TBuf<> sb, db;
        pipe.InitBuffer(sb, static_cast<uint32_t>(Bytes<U>(n) + 32));
        pipe.InitBuffer(db, static_cast<uint32_t>(Bytes<T>(n) + 32));
        LocalTensor<U> s = sb.Get<uint8_t>().template ReinterpretCast<U>();
        LocalTensor<T> d = db.Get<uint8_t>().template ReinterpretCast<T>();
        std::memcpy(s.HostPtr(), src.data(), Bytes<U>(n));
        if (!r.saturate) AscendCUtils::SetOverflow(1);
        SetDeqScale(half(r.deq));
        Cast(d, s, mode, n);
        std::memcpy(out.data(), d.HostPtr(), Bytes<T>(n));
      },
      On(r.soc));
  EXPECT_TRUE(failures.empty()) << (failures.empty() ? "" : failures[0].message);
  return out;
}

template <typename T>
bool SameResult(LD want, uint64_t got_bits) {
  const LD got = ValueOf<T>(got_bits);
  if (std::isnan(want)) return std::isnan(got);
  return got == want && std::signbit(got) == std::signbit(want);
}

// Source values: every pattern of a narrow type, edges and random patterns of a wide one.
template <typename U>
std::vector<uint64_t> Sources() {
  std::vector<uint64_t> v;
  constexpr uint32_t n = Elem<U>::bits;
  if (n <= 16) {
    for (uint64_t b = 0; b < (uint64_t{1} << n); ++b) v.push_back(b);
    return v;
  }
  std::mt19937_64 rng(7);
  const auto add_value = [&](LD x) {
    if constexpr (std::is_same_v<U, float>) {
      v.push_back(std::bit_cast<uint32_t>(static_cast<float>(x)));
    } else {
      v.push_back(static_cast<uint64_t>(static_cast<int64_t>(x)) &
                  (n == 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1));
    }
  };
  if constexpr (std::is_same_v<U, float>) {
    for (uint64_t b : {0x0ull, 0x80000000ull, 0x7F800000ull, 0xFF800000ull, 0x7FC00000ull,
                       0x7F800001ull, 0xFFC12345ull, 0x00000001ull, 0x807FFFFFull, 0x7F7FFFFFull,
                       0xFF7FFFFFull, 0x477FE000ull, 0x477FEFFFull, 0x477FF000ull, 0x477FF001ull,
                       0x4F000000ull, 0xCF000000ull, 0x5F000000ull, 0xDF000001ull}) {
      v.push_back(b);
    }
    // Ties and near-ties for the integer and the narrow float destinations.
    for (int k = -70; k <= 70; ++k) add_value(k * 0.25L);
    for (int k = 0; k < 2000; ++k) {
      const uint32_t base = static_cast<uint32_t>(rng());
      v.push_back((base & 0xFFFF0000u) | 0x8000u);  // a bfloat16 tie
      v.push_back((base & 0xFFFFE000u) | 0x1000u);  // a half tie (normal range)
      v.push_back(base);
    }
    for (int k = 0; k < 2000; ++k) {
      // Values in the half range and near the integer boundaries of int16/int32.
      add_value(
          std::ldexp(static_cast<LD>(rng() % 2000001) - 1e6L, static_cast<int>(rng() % 40) - 20));
    }
  } else {
    for (LD x : {0.0L,        1.0L,        -1.0L,        2047.0L,       2049.0L,        16777216.0L,
                 16777217.0L, 16777219.0L, -16777219.0L, 33554435.0L,   65504.0L,       65519.0L,
                 65520.0L,    65536.0L,    -65520.0L,    2147483647.0L, -2147483648.0L, 32767.0L,
                 32768.0L,    -32769.0L,   255.0L,       256.0L}) {
      add_value(x);
    }
    if (n == 64) {
      for (uint64_t b : {0x7FFFFFFFFFFFFFFFull, 0x8000000000000000ull, 0x0000008000000040ull,
                         0x00000080000000C0ull, 0x00000080000000C1ull, 0xFFFFFF7FFFFFFF40ull}) {
        v.push_back(b);
      }
    }
    for (int k = 0; k < 6000; ++k) {
      const uint64_t b = rng();
      v.push_back(n == 64 ? b >> (rng() % 64) : (b & 0xFFFFFFFFu) >> (rng() % 32));
      v.back() = (rng() & 1) ? v.back() : (n == 64 ? ~v.back() + 1 : (~v.back() + 1) & 0xFFFFFFFFu);
    }
  }
  return v;
}

// Checks U -> T in `mode` over the sources, chunk by chunk (the UB is finite).
template <typename T, typename U>
void CheckPair(RoundMode mode, const CastRun& r = {}) {
  const std::vector<uint64_t> all = Sources<U>();
  constexpr uint32_t kChunk = 8192;
  for (size_t base = 0; base < all.size(); base += kChunk) {
    const uint32_t n = static_cast<uint32_t>(std::min<size_t>(kChunk, all.size() - base)) & ~1u;
    if (n == 0) break;
    std::vector<uint8_t> src(Bytes<U>(n));
    for (uint32_t i = 0; i < n; ++i) PutBits(src, Elem<U>::bits, i, all[base + i]);
    const std::vector<uint8_t> out = RunCount<T, U>(src, n, mode, r);
    for (uint32_t i = 0; i < n; ++i) {
      const uint64_t sb = all[base + i];
      const LD want = Expected<T, U>(ValueOf<U>(sb), mode, r.saturate, r.deq);
      const uint64_t got = GetBits(out, Elem<T>::bits, i);
      ASSERT_TRUE(SameResult<T>(want, got))
          << lngrad::aicore::detail::CastTypeName(lngrad::aicore::detail::CastTypeOf<U>()) << "->"
          << lngrad::aicore::detail::CastTypeName(lngrad::aicore::detail::CastTypeOf<T>()) << " "
          << lngrad::aicore::RoundModeName(mode) << (r.saturate ? " sat" : " inf/nan") << " src 0x"
          << std::hex << sb << " got 0x" << got << std::dec << " ("
          << static_cast<double>(ValueOf<T>(got)) << ") want " << static_cast<double>(want);
    }
  }
}

constexpr RoundMode kFive[] = {RoundMode::CAST_RINT, RoundMode::CAST_FLOOR, RoundMode::CAST_CEIL,
                               RoundMode::CAST_ROUND, RoundMode::CAST_TRUNC};

template <typename T, typename U>
void CheckPairModes(bool none, bool odd, const char* soc = kA2) {
  for (bool sat : {true, false}) {
    const CastRun r{soc, sat, 1.0f};
    for (RoundMode m : kFive) CheckPair<T, U>(m, r);
    if (none) CheckPair<T, U>(RoundMode::CAST_NONE, r);
    if (odd) CheckPair<T, U>(RoundMode::CAST_ODD, r);
  }
}

// ---- The Atlas A2/A3 table -------------------------------------------------------------------

TEST(Cast, WideningPairsAreExact) {
  for (bool sat : {true, false}) {
    const CastRun r{kA2, sat, 1.0f};
    CheckPair<half, int4b_t>(RoundMode::CAST_NONE, r);
    CheckPair<half, int8_t>(RoundMode::CAST_NONE, r);
    CheckPair<half, uint8_t>(RoundMode::CAST_NONE, r);
    CheckPair<float, int16_t>(RoundMode::CAST_NONE, r);
    CheckPair<float, half>(RoundMode::CAST_NONE, r);
    CheckPair<float, bfloat16_t>(RoundMode::CAST_NONE, r);
    CheckPair<int64_t, int32_t>(RoundMode::CAST_NONE, r);
  }
}

TEST(Cast, HalfToIntegers) {
  CheckPairModes<int4b_t, half>(true, false);
  CheckPairModes<int8_t, half>(true, false);
  CheckPairModes<uint8_t, half>(true, false);
  CheckPairModes<int16_t, half>(false, false);
  CheckPairModes<int32_t, half>(false, false);
}

TEST(Cast, FloatToEveryDestination) {
  CheckPairModes<half, float>(true, true);
  CheckPairModes<bfloat16_t, float>(false, false);
  CheckPairModes<int16_t, float>(false, false);
  CheckPairModes<int32_t, float>(false, false);
  CheckPairModes<float, float>(false, false);
  CheckPairModes<int64_t, float>(false, false);
}

TEST(Cast, IntegersToFloatingAndNarrowing) {
  CheckPairModes<half, int16_t>(true, false);
  CheckPairModes<float, int32_t>(true, false);
  CheckPairModes<int32_t, bfloat16_t>(false, false);
  if (std::numeric_limits<LD>::digits >= 64) CheckPairModes<float, int64_t>(false, false);
  for (bool sat : {true, false}) {
    CheckPair<int16_t, int32_t>(RoundMode::CAST_NONE, {kA2, sat, 1.0f});
    CheckPair<int32_t, int64_t>(RoundMode::CAST_NONE, {kA2, sat, 1.0f});
  }
}

TEST(Cast, Int32ToHalfScalesBySetDeqScaleAndIgnoresTheMode) {
  for (float scale : {1.0f, 0.5f, -0.0999755859375f, 3.0f, 0.0009765625f}) {  // exact halves
    for (RoundMode m : {RoundMode::CAST_NONE, RoundMode::CAST_FLOOR}) {
      CheckPair<half, int32_t>(m, {kA2, true, scale});
      CheckPair<half, int32_t>(m, {kA2, false, scale});
    }
  }
  // Atlas 200I/500 A2 has no DEQSCALE: a plain conversion whatever the register holds.
  std::vector<uint8_t> src(8);
  const int32_t v[2] = {2049, -70000};
  std::memcpy(src.data(), v, 8);
  const auto out =
      RunCount<half, int32_t>(src, 2, RoundMode::CAST_NONE, {"Ascend310B1", true, 4.0f});
  EXPECT_EQ(GetBits(out, 16, 0), 0x6800u);  // 2049 -> 2048 (ties to even)
  EXPECT_EQ(GetBits(out, 16, 1), 0xFBFFu);  // saturated to -65504
}

// ---- The 950's additional pairs --------------------------------------------------------------

TEST(Cast, Ascend950Pairs) {
  for (bool sat : {true, false}) {
    const CastRun r{k950, sat, 1.0f};
    CheckPair<int16_t, int4b_t>(RoundMode::CAST_NONE, r);
    CheckPair<bfloat16_t, int4b_t>(RoundMode::CAST_NONE, r);
    CheckPair<int16_t, int8_t>(RoundMode::CAST_NONE, r);
    CheckPair<int32_t, int8_t>(RoundMode::CAST_NONE, r);
    CheckPair<uint16_t, uint8_t>(RoundMode::CAST_NONE, r);
    CheckPair<uint32_t, uint8_t>(RoundMode::CAST_NONE, r);
    CheckPair<int4b_t, int16_t>(RoundMode::CAST_NONE, r);
    CheckPair<uint8_t, int16_t>(RoundMode::CAST_NONE, r);
    CheckPair<int32_t, int16_t>(RoundMode::CAST_NONE, r);
    CheckPair<uint32_t, int16_t>(RoundMode::CAST_NONE, r);
    CheckPair<uint8_t, uint16_t>(RoundMode::CAST_NONE, r);
    CheckPair<uint32_t, uint16_t>(RoundMode::CAST_NONE, r);
    CheckPair<uint8_t, int32_t>(RoundMode::CAST_NONE, r);
    CheckPair<uint16_t, int32_t>(RoundMode::CAST_NONE, r);
    CheckPair<uint8_t, uint32_t>(RoundMode::CAST_NONE, r);
    CheckPair<int16_t, uint32_t>(RoundMode::CAST_NONE, r);
    CheckPair<uint16_t, uint32_t>(RoundMode::CAST_NONE, r);
  }
  CheckPairModes<bfloat16_t, half>(false, false, k950);
  CheckPairModes<half, bfloat16_t>(false, false, k950);
}

// ---- The 950's 8-bit floats ----------------------------------------------------------------
// The element conversions are fp8.h's, which tests/simt/math_fp8_test.cpp checks code by code
// against models written separately (values by field, nearest-value searches, the hybrid
// pseudo-code). Here: that Cast runs the right one for each pair of the 950's table, each mode
// and each overflow mode, over every code or a spread of floats and halves, plus values worked
// out by hand from the formats.

namespace f8 = lngrad::aicore::fp8;

// The saturation mode's rule for a float or half destination: +-inf -> +-max, NaN -> +0.
float Saturated(float v, bool sat, float max = std::numeric_limits<float>::max()) {
  if (!sat) return v;
  if (std::isnan(v)) return 0.0f;
  if (std::isinf(v)) return v > 0 ? max : -max;
  return v;
}

template <typename T, typename U>
void CheckFp8Pair(RoundMode mode, bool sat, const std::vector<U>& values,
                  uint8_t (*expected)(U, RoundMode, bool)) {
  std::vector<uint8_t> src(values.size() * sizeof(U));
  std::memcpy(src.data(), values.data(), src.size());
  const auto n = static_cast<uint32_t>(values.size());
  const std::vector<uint8_t> out = RunCount<T, U>(src, n, mode, {k950, sat, 1.0f});
  for (uint32_t i = 0; i < n; ++i) {
    ASSERT_EQ(out[i], expected(values[i], mode, sat))
        << lngrad::aicore::RoundModeName(mode) << (sat ? " sat" : " inf/nan") << " value "
        << static_cast<float>(values[i]);
  }
}

std::vector<float> Fp8FloatSources() {
  std::vector<float> v = {0.0f,
                          -0.0f,
                          1.75f,
                          -2.5f,
                          300.0f,
                          65504.0f,
                          1e30f,
                          -1e30f,
                          std::numeric_limits<float>::infinity(),
                          -std::numeric_limits<float>::infinity(),
                          std::numeric_limits<float>::quiet_NaN(),
                          1e-30f,
                          3.0e-8f};
  std::mt19937 rng(8);
  while (v.size() < 4096) {
    // Exponents over every format's range and beyond, any fraction bits.
    const uint32_t bits = (rng() & 0x807FFFFFu) | ((100u + rng() % 60u) << 23);
    v.push_back(std::bit_cast<float>(bits));
  }
  return v;
}

TEST(Cast, Fp8PairsOn950) {
  const std::vector<float> floats = Fp8FloatSources();
  std::vector<half> halves(65536);
  for (uint32_t b = 0; b < 65536; ++b) halves[b] = half::FromBits(static_cast<uint16_t>(b));
  for (const bool sat : {true, false}) {
    for (const RoundMode m : {RoundMode::CAST_ROUND, RoundMode::CAST_HYBRID}) {
      CheckFp8Pair<hifloat8_t, float>(m, sat, floats, [](float x, RoundMode mm, bool s) {
        return f8::FloatToHif8(
            x, mm == RoundMode::CAST_HYBRID ? f8::Hif8Round::kHybrid : f8::Hif8Round::kRound, s);
      });
      CheckFp8Pair<hifloat8_t, half>(m, sat, halves, [](half x, RoundMode mm, bool s) {
        return f8::HalfToHif8(
            x.bits, mm == RoundMode::CAST_HYBRID ? f8::Hif8Round::kHybrid : f8::Hif8Round::kRound,
            s);
      });
    }
    CheckFp8Pair<fp8_e4m3fn_t, float>(
        RoundMode::CAST_RINT, sat, floats,
        [](float x, RoundMode, bool s) { return f8::FloatToE4m3(x, s); });
    CheckFp8Pair<fp8_e5m2_t, float>(
        RoundMode::CAST_RINT, sat, floats,
        [](float x, RoundMode, bool s) { return f8::FloatToE5m2(x, s); });
  }
}

TEST(Cast, Fp8HandValuesAndWideningOn950) {
  // 300 lies between e4m3's 288 (1.001b * 2^8, code 0x79) and 320; e5m2's neighbours are 256
  // and 320 (1.01b * 2^8, code 0x5D). 1.75 is exact in HiFloat8.
  const std::vector<float> in = {300.0f, 1.75f};
  std::vector<uint8_t> src(8);
  std::memcpy(src.data(), in.data(), 8);
  const CastRun on950{k950, true, 1.0f};
  EXPECT_EQ((RunCount<fp8_e4m3fn_t, float>(src, 2, RoundMode::CAST_RINT, on950)[0]), 0x79);
  EXPECT_EQ((RunCount<fp8_e5m2_t, float>(src, 2, RoundMode::CAST_RINT, on950)[0]), 0x5D);
  const auto hif8 = RunCount<hifloat8_t, float>(src, 2, RoundMode::CAST_ROUND, on950);
  EXPECT_EQ(static_cast<float>(hifloat8_t::FromBits(hif8[1])), 1.75f);
  // Every code widens exactly; the saturation mode maps infinities and NaN as for any float.
  std::vector<uint8_t> codes(256);
  for (int c = 0; c < 256; ++c) codes[c] = static_cast<uint8_t>(c);
  for (const bool sat : {true, false}) {
    const CastRun r{k950, sat, 1.0f};
    const auto to_float = [&](auto tag, const std::vector<uint8_t>& out) {
      using S = decltype(tag);
      for (int c = 0; c < 256; ++c) {
        float got;
        std::memcpy(&got, out.data() + 4 * c, 4);
        const float want = Saturated(static_cast<float>(S::FromBits(static_cast<uint8_t>(c))), sat);
        ASSERT_TRUE(got == want || (std::isnan(got) && std::isnan(want))) << c;
      }
    };
    to_float(hifloat8_t{}, RunCount<float, hifloat8_t>(codes, 256, RoundMode::CAST_NONE, r));
    to_float(fp8_e5m2_t{}, RunCount<float, fp8_e5m2_t>(codes, 256, RoundMode::CAST_NONE, r));
    to_float(fp8_e4m3fn_t{}, RunCount<float, fp8_e4m3fn_t>(codes, 256, RoundMode::CAST_NONE, r));
    const std::vector<uint8_t> h = RunCount<half, hifloat8_t>(codes, 256, RoundMode::CAST_NONE, r);
    for (int c = 0; c < 256; ++c) {
      half got;
      std::memcpy(&got, h.data() + 2 * c, 2);
      const float want = Saturated(
          static_cast<float>(hifloat8_t::FromBits(static_cast<uint8_t>(c))), sat, 65504.0f);
      ASSERT_TRUE(static_cast<float>(got) == want ||
                  (std::isnan(want) && std::isnan(static_cast<float>(got))))
          << c;
    }
  }
}

// ---- The mask/repeat form with int4b_t (the kit's cast sample layout) -------------------------

TEST(Cast, Int4MaskRepeatFormPacksNibblesAndLeavesMaskedBytes) {
  // half -> int4b_t, continuous mask 128, 4 repeats, dst repeat stride 2 blocks (128 nibbles).
  constexpr uint32_t kN = 512;
  std::vector<half> in(kN);
  for (uint32_t i = 0; i < kN; ++i) in[i] = half(static_cast<float>(i % 37) * 0.75f - 12.6f);
  for (const bool bitwise : {false, true}) {
    std::vector<uint8_t> out(kN / 2);
    const auto failures = RunKernel(1, [&] {
      TPipe pipe;
      TBuf<> sb, db;
      pipe.InitBuffer(sb, kN * 2);
      pipe.InitBuffer(db, kN / 2);
      LocalTensor<half> s = sb.Get<half>();
      LocalTensor<int8_t> d8 = db.Get<int8_t>();
      std::memcpy(s.HostPtr(), in.data(), kN * 2);
      std::memset(d8.HostPtr(), 0x5A, kN / 2);
      LocalTensor<int4b_t> d = d8.ReinterpretCast<int4b_t>();
      EXPECT_EQ(d.GetSize(), kN);
      EXPECT_EQ(d.GetLength(), kN / 2);
      if (bitwise) {
        // Pairs of lanes: elements 0..63 run, 64..127 do not.
        const uint64_t mask[2] = {~uint64_t{0}, 0};
        Cast<int4b_t, half>(d, s, RoundMode::CAST_CEIL, mask, 4, {1, 1, 2, 8});
      } else {
        Cast<int4b_t, half>(d, s, RoundMode::CAST_CEIL, uint64_t{128}, 4, {1, 1, 2, 8});
      }
      std::memcpy(out.data(), d8.HostPtr(), kN / 2);
    });
    ASSERT_TRUE(failures.empty()) << failures[0].message;
    for (uint32_t i = 0; i < kN; ++i) {
      const bool active = !bitwise || (i % 128) < 64;
      const uint64_t got = GetBits(out, 4, i);
      if (!active) {
        EXPECT_EQ(got, (i % 2) ? 0x5u : 0xAu) << i;
        continue;
      }
      const LD want =
          Expected<int4b_t, half>(ValueOf<half>(in[i].bits), RoundMode::CAST_CEIL, true, 1);
      EXPECT_EQ(ValueOf<int4b_t>(got), want) << i;
    }
  }
}

// ---- Checked mode ----------------------------------------------------------------------------

TEST(Cast, CheckedModeNamesThePairTheModeAndTheInt4Rules) {
  const auto cast = [](auto dst_tag, auto src_tag, RoundMode m, uint32_t n) {
    using D = decltype(dst_tag);
    using S = decltype(src_tag);
    return [m, n] {
      TPipe pipe;
      TBuf<> sb, db;
      pipe.InitBuffer(sb, 1024);
      pipe.InitBuffer(db, 1024);
      LocalTensor<S> s = sb.Get<uint8_t>().template ReinterpretCast<S>();
      LocalTensor<D> d = db.Get<uint8_t>().template ReinterpretCast<D>();
      Duplicate(sb.Get<int16_t>(), int16_t{0}, 512);
      Cast(d, s, m, n);
    };
  };
  EXPECT_EQ(CheckOf(kA2, cast(bfloat16_t{}, half{}, RoundMode::CAST_RINT, 64)).substr(0, 9),
            "cast_pair");
  EXPECT_EQ(CheckOf(k950, cast(bfloat16_t{}, half{}, RoundMode::CAST_RINT, 64)), "");
  // The 950 runs CAST_NONE as CAST_RINT where its table omits it (half -> int8_t).
  EXPECT_EQ(CheckOf(k950, cast(int8_t{}, half{}, RoundMode::CAST_NONE, 64)), "");
  EXPECT_NE(CheckOf(kA2, cast(int8_t{}, half{}, RoundMode::CAST_ODD, 64)).find("cast_round_mode"),
            std::string::npos);
  // The inference AI Core's half -> int8_t lacks CAST_RINT; the A2's has it.
  EXPECT_NE(CheckOf("Ascend310P1", cast(int8_t{}, half{}, RoundMode::CAST_RINT, 64))
                .find("cast_round_mode"),
            std::string::npos);
  EXPECT_EQ(CheckOf(kA2, cast(int8_t{}, half{}, RoundMode::CAST_RINT, 64)), "");
  // The 8-bit floats: the 950 only, each with its modes.
  EXPECT_EQ(CheckOf(kA2, cast(hifloat8_t{}, float{}, RoundMode::CAST_ROUND, 64)).substr(0, 9),
            "cast_pair");
  EXPECT_EQ(CheckOf(k950, cast(hifloat8_t{}, half{}, RoundMode::CAST_HYBRID, 64)), "");
  EXPECT_NE(CheckOf(k950, cast(hifloat8_t{}, float{}, RoundMode::CAST_RINT, 64))
                .find("allowed: CAST_ROUND, CAST_HYBRID"),
            std::string::npos);
  EXPECT_NE(CheckOf(k950, cast(fp8_e4m3fn_t{}, float{}, RoundMode::CAST_ROUND, 64))
                .find("cast_round_mode"),
            std::string::npos);
  EXPECT_EQ(CheckOf(k950, cast(float{}, fp8_e5m2_t{}, RoundMode::CAST_NONE, 64)), "");
  // int32_t -> half accepts any mode (it has none).
  EXPECT_EQ(CheckOf(kA2, cast(half{}, int32_t{}, RoundMode::CAST_ODD, 64)), "");
  const std::string odd = CheckOf(kA2, cast(int4b_t{}, half{}, RoundMode::CAST_RINT, 63));
  EXPECT_NE(odd.find("cast_int4"), std::string::npos) << odd;
  EXPECT_NE(odd.find("count is 63"), std::string::npos) << odd;
  const std::string split = CheckOf(kA2, [] {
    TPipe pipe;
    TBuf<> sb, db;
    pipe.InitBuffer(sb, 256);
    pipe.InitBuffer(db, 256);
    LocalTensor<half> s = sb.Get<half>();
    Duplicate(s, half(1.0f), 128);
    const uint64_t mask[2] = {0x1, 0};
    Cast(db.Get<int8_t>().ReinterpretCast<int4b_t>(), s, RoundMode::CAST_RINT, mask, 1,
         {1, 1, 2, 8});
  });
  EXPECT_NE(split.find("mask bits 0 and 1 differ"), std::string::npos) << split;
}

// ---- Types -----------------------------------------------------------------------------------

TEST(Types, Bfloat16ConvertsToNearestEvenAndBack) {
  for (uint64_t b = 0; b < (uint64_t{1} << 32); b += 0x10001ull * 7 + 3) {
    const float f = std::bit_cast<float>(static_cast<uint32_t>(b));
    const bfloat16_t h(f);
    const LD want = RoundToFmt(kBf16Fmt, static_cast<LD>(f), RoundMode::CAST_RINT);
    ASSERT_TRUE(SameResult<bfloat16_t>(want, h.bits)) << std::hex << b;
    if (!std::isnan(f)) {
      ASSERT_EQ(static_cast<LD>(static_cast<float>(h)), ValueOf<bfloat16_t>(h.bits));
    }
  }
  EXPECT_EQ(bfloat16_t(1.0f).bits, 0x3F80u);
  EXPECT_EQ((bfloat16_t(1.5f) * bfloat16_t(2.0f)).bits, bfloat16_t(3.0f).bits);
  EXPECT_EQ(bfloat16_t(1.0f) + 1, 2.0f);  // mixed operands promote to float
  EXPECT_EQ((-bfloat16_t(0.0f)).bits, 0x8000u);
  EXPECT_EQ(std::numeric_limits<bfloat16_t>::max().bits, 0x7F7Fu);
}

TEST(Types, Int4PacksTwoPerByteAndSignExtends) {
  for (int32_t v = -8; v <= 7; ++v) EXPECT_EQ(static_cast<int8_t>(int4b_t(v)), v);
  EXPECT_EQ(static_cast<int8_t>(int4b_t(9)), -7);  // the low nibble, as the vendor's constructor
  EXPECT_EQ(sizeof(int4b_t), 1u);
  EXPECT_EQ(lngrad::aicore::kElemBits<int4b_t>, 4u);
  EXPECT_EQ(lngrad::aicore::ElemBytes<int4b_t>(7), 4u);
}

}  // namespace
