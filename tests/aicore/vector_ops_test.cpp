// The kernel API's vector instructions (AscendC::Add & co.) on the simulated UB, which run the
// instruction set: SIMD by default, the scalar loops under LNGRAD_IMPL=scalar (CTest runs this
// test both ways, LNGRAD_TEST_EXPECTED_IMPL names the path). Both must give the bits of the
// per-element formula written here with the kernel types' own operators, at every length
// around the vector widths, in place, and element by element for partially overlapping
// operands (unchecked mode).
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <vector>

#include "kernel_operator.h"
#include "sanitizer_off.h"

#include "checked_mode_scope.h"

namespace {

using namespace AscendC;
using lngrad::aicore::test::CheckedModeScope;

constexpr uint32_t kCapacity = 4112;  // elements per operand buffer
const uint32_t kLengths[] = {1, 3, 7, 8, 9, 15, 16, 17, 31, 33, 100, 1000, 4095, 4104};

// Runs body(a, b, c) on one block with three UB buffers of kCapacity elements of T.
template <typename T>
void OnDevice(const std::function<void(LocalTensor<T>, LocalTensor<T>, LocalTensor<T>)>& body) {
  const lngrad::Status s = lngrad::aicore::Launch(1, [&] {
    TPipe pipe;
    TBuf<> bufs[3];
    for (auto& b : bufs) pipe.InitBuffer(b, kCapacity * sizeof(T));
    body(bufs[0].Get<T>(), bufs[1].Get<T>(), bufs[2].Get<T>());
  });
  ASSERT_TRUE(s.ok()) << s.ToString();
}

template <typename T>
bool IsNan(T v) {
  return std::isnan(static_cast<float>(v));
}
template <typename T>
uint32_t Bits(T v) {
  if constexpr (sizeof(T) == 2) {
    return std::bit_cast<uint16_t>(v);
  } else {
    return std::bit_cast<uint32_t>(v);
  }
}

// Random bit patterns: every class of value, NaNs and subnormals included.
template <typename T>
std::vector<T> RandomBits(uint32_t seed) {
  std::mt19937 gen(seed);
  std::vector<T> v(kCapacity);
  for (auto& x : v) {
    if constexpr (sizeof(T) == 2) {
      x = std::bit_cast<T>(static_cast<uint16_t>(gen()));
    } else {
      x = std::bit_cast<T>(static_cast<uint32_t>(gen()));
    }
  }
  return v;
}

// Index of the first element of got that differs from want(i), or -1; where both operands are
// NaN only NaN-ness is promised (instructions.h).
template <typename T, class Want>
long FirstMismatch(const std::vector<T>& got, const std::vector<T>& a, const std::vector<T>* b,
                   uint32_t n, Want want) {
  for (uint32_t i = 0; i < n; ++i) {
    const T w = want(i);
    if (b != nullptr && IsNan(a[i]) && IsNan((*b)[i])) {
      if (!IsNan(got[i])) return i;
    } else if (Bits(got[i]) != Bits(w)) {
      return i;
    }
  }
  return -1;
}

void ExpectPathFromEnvironment() {
  const char* expected = std::getenv("LNGRAD_TEST_EXPECTED_IMPL");
  ASSERT_NE(expected, nullptr) << "run through CTest";
  const bool scalar = std::string(expected) == "scalar";
  EXPECT_EQ(
      lngrad::aicore::ResolveImpl(lngrad::aicore::Impl::kAuto) == lngrad::aicore::Impl::kScalar,
      scalar);
}

template <typename T>
void CheckArithmetic() {
  ExpectPathFromEnvironment();
  const auto a = RandomBits<T>(1);
  const auto b = RandomBits<T>(2);
  const T s = static_cast<T>(-1.75f);
  using Fn = std::function<T(uint32_t)>;
  struct Case {
    const char* name;
    std::function<void(LocalTensor<T>, LocalTensor<T>, LocalTensor<T>, uint32_t)> run;
    Fn want;
    bool binary;
  };
  const std::vector<Case> cases = {
      {"Add", [](auto d, auto x, auto y, uint32_t n) { Add(d, x, y, n); },
       [&](uint32_t i) { return T(a[i] + b[i]); }, true},
      {"Sub", [](auto d, auto x, auto y, uint32_t n) { Sub(d, x, y, n); },
       [&](uint32_t i) { return T(a[i] - b[i]); }, true},
      {"Mul", [](auto d, auto x, auto y, uint32_t n) { Mul(d, x, y, n); },
       [&](uint32_t i) { return T(a[i] * b[i]); }, true},
      {"Div", [](auto d, auto x, auto y, uint32_t n) { Div(d, x, y, n); },
       [&](uint32_t i) { return T(a[i] / b[i]); }, true},
      {"Adds", [&](auto d, auto x, auto, uint32_t n) { Adds(d, x, s, n); },
       [&](uint32_t i) { return T(a[i] + s); }, false},
      {"Muls", [&](auto d, auto x, auto, uint32_t n) { Muls(d, x, s, n); },
       [&](uint32_t i) { return T(a[i] * s); }, false},
      {"Sqrt", [](auto d, auto x, auto, uint32_t n) { Sqrt(d, x, n); },
       [&](uint32_t i) { return T(std::sqrt(static_cast<float>(a[i]))); }, false},
  };
  for (const Case& c : cases) {
    for (uint32_t n : kLengths) {
      std::vector<T> out(n), inplace(n);
      OnDevice<T>([&](LocalTensor<T> x, LocalTensor<T> y, LocalTensor<T> d) {
        std::memcpy(x.HostPtr(), a.data(), kCapacity * sizeof(T));
        std::memcpy(y.HostPtr(), b.data(), kCapacity * sizeof(T));
        c.run(d, x, y, n);
        std::memcpy(out.data(), d.HostPtr(), n * sizeof(T));
        c.run(x, x, y, n);  // in place: dst is src0
        std::memcpy(inplace.data(), x.HostPtr(), n * sizeof(T));
      });
      EXPECT_EQ(FirstMismatch(out, a, c.binary ? &b : nullptr, n, c.want), -1)
          << c.name << " n " << n;
      EXPECT_EQ(FirstMismatch(inplace, a, c.binary ? &b : nullptr, n, c.want), -1)
          << c.name << " in place, n " << n;
    }
  }
}

TEST(AscendcVectorOps, FloatArithmeticGivesTheFormulasBits) { CheckArithmetic<float>(); }
TEST(AscendcVectorOps, HalfArithmeticGivesTheFormulasBits) { CheckArithmetic<half>(); }

template <typename T>
void CheckPartialOverlap() {
  // Unchecked mode: dst = src0 + 1 element runs element by element in increasing order, so each
  // output feeds the next input: 0, 1, 2, ... (exact in half up to 2048).
  CheckedModeScope unchecked(false);
  for (uint32_t n : {7u, 8u, 17u, 100u, 1000u}) {
    std::vector<T> got(n + 1);
    OnDevice<T>([&](LocalTensor<T> x, LocalTensor<T> ones, LocalTensor<T>) {
      Duplicate(x, T(0.0f), static_cast<int32_t>(n + 1));
      Duplicate(ones, T(1.0f), static_cast<int32_t>(n));
      Add(x[1], x, ones, n);
      std::memcpy(got.data(), x.HostPtr(), (n + 1) * sizeof(T));
    });
    for (uint32_t i = 0; i <= n; ++i)
      ASSERT_EQ(static_cast<float>(got[i]), static_cast<float>(i)) << n;
    OnDevice<T>([&](LocalTensor<T> x, LocalTensor<T>, LocalTensor<T>) {
      Duplicate(x, T(0.0f), static_cast<int32_t>(n + 1));
      Adds(x[1], x, T(1.0f), n);
      std::memcpy(got.data(), x.HostPtr(), (n + 1) * sizeof(T));
    });
    for (uint32_t i = 0; i <= n; ++i)
      ASSERT_EQ(static_cast<float>(got[i]), static_cast<float>(i)) << n;
  }
}

TEST(AscendcVectorOps, FloatPartialOverlapRunsElementByElement) { CheckPartialOverlap<float>(); }
TEST(AscendcVectorOps, HalfPartialOverlapRunsElementByElement) { CheckPartialOverlap<half>(); }

TEST(AscendcVectorOps, DuplicateMovesBitsForEveryElementType) {
  for (uint32_t n : kLengths) {
    std::vector<uint32_t> f(n + 1), i32(n + 1);
    std::vector<uint16_t> h(n + 1), i16(n + 1);
    OnDevice<uint32_t>(
        [&](LocalTensor<uint32_t> x, LocalTensor<uint32_t> y, LocalTensor<uint32_t>) {
          Duplicate(x, 7u, static_cast<int32_t>(n + 1));
          Duplicate(y, 7u, static_cast<int32_t>(n + 1));
          Duplicate(x.ReinterpretCast<float>(), std::bit_cast<float>(0x7F800001u),
                    static_cast<int32_t>(n));
          Duplicate(y.ReinterpretCast<int32_t>(), -5, static_cast<int32_t>(n));
          std::memcpy(f.data(), x.HostPtr(), (n + 1) * 4);
          std::memcpy(i32.data(), y.HostPtr(), (n + 1) * 4);
          LocalTensor<half> xh = x.ReinterpretCast<half>();
          LocalTensor<int16_t> yh = y.ReinterpretCast<int16_t>();
          Duplicate(xh, half::FromBits(9), static_cast<int32_t>(n + 1));
          Duplicate(yh, int16_t{9}, static_cast<int32_t>(n + 1));
          Duplicate(xh, half::FromBits(0xFC01), static_cast<int32_t>(n));
          Duplicate(yh, int16_t{-3}, static_cast<int32_t>(n));
          std::memcpy(h.data(), xh.HostPtr(), (n + 1) * 2);
          std::memcpy(i16.data(), yh.HostPtr(), (n + 1) * 2);
        });
    for (uint32_t i = 0; i < n; ++i) {
      ASSERT_EQ(f[i], 0x7F800001u) << n;  // a signalling NaN, not quieted
      ASSERT_EQ(i32[i], static_cast<uint32_t>(-5)) << n;
      ASSERT_EQ(h[i], 0xFC01u) << n;
      ASSERT_EQ(i16[i], static_cast<uint16_t>(-3)) << n;
    }
    EXPECT_EQ(f[n], 7u);
    EXPECT_EQ(i32[n], 7u);
    EXPECT_EQ(h[n], 9u);
    EXPECT_EQ(i16[n], 9u);
  }
}

TEST(AscendcVectorOps, CastsGiveTheCodecsBitsAtEveryLength) {
  ExpectPathFromEnvironment();
  const auto halves = RandomBits<half>(3);
  const auto floats = RandomBits<float>(4);
  for (uint32_t n : kLengths) {
    std::vector<float> widened(n);
    std::vector<half> narrowed(n), floored(n);
    const lngrad::Status s = lngrad::aicore::Launch(1, [&] {
      // The inf/NaN overflow mode: the codecs give IEEE infinities (cast_test.cpp covers the
      // default saturation mode).
      AscendCUtils::SetOverflow(1);
      TPipe pipe;
      TBuf<> hb, fb;
      pipe.InitBuffer(hb, kCapacity * sizeof(half));
      pipe.InitBuffer(fb, kCapacity * sizeof(float));
      LocalTensor<half> h = hb.Get<half>();
      LocalTensor<float> f = fb.Get<float>();
      std::memcpy(h.HostPtr(), halves.data(), n * sizeof(half));
      Cast(f, h, RoundMode::CAST_NONE, n);
      std::memcpy(widened.data(), f.HostPtr(), n * sizeof(float));
      std::memcpy(f.HostPtr(), floats.data(), n * sizeof(float));
      Cast(h, f, RoundMode::CAST_RINT, n);
      std::memcpy(narrowed.data(), h.HostPtr(), n * sizeof(half));
      Cast(h, f, RoundMode::CAST_FLOOR, n);
      std::memcpy(floored.data(), h.HostPtr(), n * sizeof(half));
    });
    ASSERT_TRUE(s.ok()) << s.ToString();
    for (uint32_t i = 0; i < n; ++i) {
      ASSERT_EQ(std::bit_cast<uint32_t>(widened[i]),
                std::bit_cast<uint32_t>(lngrad::HalfBitsToFloat(halves[i].bits)))
          << n << " " << i;
      ASSERT_EQ(narrowed[i].bits, lngrad::FloatToHalfBits(floats[i])) << n << " " << i;
      ASSERT_EQ(floored[i].bits,
                lngrad::aicore::detail::FloatToHalf(floats[i], RoundMode::CAST_FLOOR).bits)
          << n << " " << i;
    }
  }
}

}  // namespace
