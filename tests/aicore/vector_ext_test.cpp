// The compound, LeakyRelu, bitwise and shift instructions (compound_ops.h, logic_ops.h) against
// scalar models of the vendor's documented formulas written here: count forms, mask/repeat
// forms (which lanes of which repeats, where they lie with block/repeat strides, masked lanes
// untouched), every documented type pair, and the checked-mode rules with their messages.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "kernel_operator.h"
#include "sanitizer_off.h"

#include "checked_mode_scope.h"
#include "repeat_test_util.h"

namespace {

using namespace AscendC;
using namespace lngrad::aicore::test;

static_assert(std::is_same_v<Conditional<true, float, half>::type, float>);
static_assert(std::is_same_v<Conditional<false, float, half>::type, half>);

// The model's own rounding: float -> T round to nearest even (half via its constructor, which
// rounds once from float), to integers nearest even and saturated.
template <typename T>
T Round(double v) {
  if constexpr (std::is_integral_v<T>) {
    const double r = std::nearbyint(v);
    const double lo = std::numeric_limits<T>::min(), hi = std::numeric_limits<T>::max();
    return static_cast<T>(r < lo ? lo : r > hi ? hi : r);
  } else {
    return static_cast<T>(static_cast<float>(v));
  }
}
float F(half h) { return static_cast<float>(h); }
float F(float f) { return f; }

template <typename T>
std::vector<T> Ints(uint32_t seed, size_t n, int64_t lo, int64_t hi) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int64_t> d(lo, hi);
  std::vector<T> v(n);
  for (auto& x : v) x = static_cast<T>(d(gen));
  return v;
}

// a + b and a - b of 16-bit integers, wrapped to T as the instructions wrap them.
template <typename T>
std::pair<double, double> WrappedSumDiff(T a, T b) {
  const auto ua = static_cast<uint16_t>(a), ub = static_cast<uint16_t>(b);
  return {static_cast<T>(ua + ub), static_cast<T>(ua - ub)};
}

// AddRelu/SubRelu (D == S) or AddReluCast/SubReluCast (D != S), count forms over n elements of
// a and b, against the model: max(s, 0) and max(d, 0) rounded to D, {s, d} = sum_diff(i).
template <typename D, typename S, typename SumDiff>
void ExpectReluPair(const std::vector<S>& a, const std::vector<S>& b, uint32_t n,
                    SumDiff sum_diff) {
  constexpr bool kCast = !std::is_same_v<D, S>;
  std::vector<D> want_add(kUbBufBytes / sizeof(D)), want_sub(kUbBufBytes / sizeof(D));
  for (uint32_t i = 0; i < n; ++i) {
    const auto [s, d] = sum_diff(i);
    want_add[i] = Round<D>(s > 0 ? s : 0.0);
    want_sub[i] = Round<D>(d > 0 ? d : 0.0);
  }
  OnBlock([&](Ub& ub) {
    ub.Put<S>(0, a);
    ub.Put<S>(1, b);
    if constexpr (kCast) {
      AddReluCast(ub.Get<D>(2), ub.Get<S>(0), ub.Get<S>(1), n);
      SubReluCast(ub.Get<D>(3), ub.Get<S>(0), ub.Get<S>(1), n);
    } else {
      AddRelu(ub.Get<D>(2), ub.Get<S>(0), ub.Get<S>(1), n);
      SubRelu(ub.Get<D>(3), ub.Get<S>(0), ub.Get<S>(1), n);
    }
    ExpectSameBits(ub.Take<D>(2), want_add, kCast ? "AddReluCast" : "AddRelu");
    ExpectSameBits(ub.Take<D>(3), want_sub, kCast ? "SubReluCast" : "SubRelu");
  });
}

// Element position p of repeat r of an operand of element size `size` with strides blk/rep (in
// 32-byte blocks), as an element index (高维切分).
uint64_t At(uint32_t size, uint32_t blk, uint32_t rep, uint32_t r, uint32_t p) {
  const uint32_t per = 32 / size;
  return (uint64_t{r} * rep * 32 + uint64_t{p / per} * blk * 32) / size + p % per;
}

// ---------------------------------------------------------------------------------------------
// Count forms.

TEST(VectorExt, AddReluSubReluCountForms) {
  const uint32_t n = 300;
  auto run = [&](auto tag, auto make) {
    using T = decltype(tag);
    const std::vector<T> a = make(1), b = make(2);
    ExpectReluPair<T>(a, b, n, [&](uint32_t i) -> std::pair<double, double> {
      if constexpr (std::is_integral_v<T>) {
        return WrappedSumDiff(a[i], b[i]);
      } else {
        return {double(F(a[i])) + F(b[i]), double(F(a[i])) - F(b[i])};
      }
    });
  };
  run(half{}, [&](int s) { return RandomValues<half>(s, n, -100.f, 100.f); });
  run(float{}, [&](int s) { return RandomValues<float>(s, n, -100.f, 100.f); });
  run(int16_t{}, [&](int s) { return Ints<int16_t>(s, n, -32768, 32767); });  // wraps
}

TEST(VectorExt, AddReluCastAndSubReluCastPairs) {
  const uint32_t n = 200;
  auto run = [&](auto dtag, auto stag, const auto& a, const auto& b) {
    using D = decltype(dtag);
    using S = decltype(stag);
    ExpectReluPair<D>(a, b, n, [&](uint32_t i) -> std::pair<double, double> {
      if constexpr (std::is_integral_v<S>) {
        return WrappedSumDiff<S>(a[i], b[i]);
      } else {  // the float sum, then the cast
        return {static_cast<float>(F(a[i]) + F(b[i])), static_cast<float>(F(a[i]) - F(b[i]))};
      }
    });
  };
  run(half{}, float{}, RandomValues<float>(3, n, -70000.f, 70000.f),
      RandomValues<float>(4, n, -70000.f, 70000.f));  // beyond half's range: inf
  run(int8_t{}, half{}, RandomValues<half>(5, n, -200.f, 200.f),
      RandomValues<half>(6, n, -200.f, 200.f));  // saturates at 127, ties to even
  run(int8_t{}, int16_t{}, Ints<int16_t>(7, n, -300, 300), Ints<int16_t>(8, n, -300, 300));
}

TEST(VectorExt, MulAddFamilyCountForms) {
  const uint32_t n = 257;
  auto run = [&](auto dtag, auto stag) {
    using D = decltype(dtag);
    using S = decltype(stag);
    const auto a = RandomValues<S>(11, n), b = RandomValues<S>(12, n);
    const auto d0 = RandomValues<D>(13, n);
    std::vector<D> want_mad(kUbBufBytes / sizeof(D)), want_axpy(kUbBufBytes / sizeof(D));
    const S alpha = static_cast<S>(1.5f);
    for (uint32_t i = 0; i < n; ++i) {
      want_mad[i] = Round<D>(static_cast<float>(F(a[i]) * F(b[i])) + F(d0[i]));
      want_axpy[i] = Round<D>(static_cast<float>(F(alpha) * F(a[i])) + F(d0[i]));
    }
    OnBlock([&](Ub& ub) {
      ub.Put<S>(0, a);
      ub.Put<S>(1, b);
      ub.Put<D>(2, d0);
      ub.Put<D>(3, d0);
      MulAddDst(ub.Get<D>(2), ub.Get<S>(0), ub.Get<S>(1), n);
      Axpy(ub.Get<D>(3), ub.Get<S>(0), alpha, n);
      ExpectSameBits(ub.Take<D>(2), want_mad, "MulAddDst");
      ExpectSameBits(ub.Take<D>(3), want_axpy, "Axpy");
    });
  };
  run(half{}, half{});
  run(float{}, float{});
  run(float{}, half{});
}

TEST(VectorExt, FusedMulAddMulAddReluLeakyReluCountForms) {
  const uint32_t n = 190;
  auto run = [&](auto tag) {
    using T = decltype(tag);
    const auto a = RandomValues<T>(21, n), b = RandomValues<T>(22, n), d0 = RandomValues<T>(23, n);
    const T slope = static_cast<T>(0.01f);
    std::vector<T> fma(kUbBufBytes / sizeof(T)), relu(kUbBufBytes / sizeof(T)),
        leaky(kUbBufBytes / sizeof(T));
    for (uint32_t i = 0; i < n; ++i) {
      const float r = static_cast<float>(F(a[i]) * F(d0[i])) + F(b[i]);
      fma[i] = Round<T>(r);
      relu[i] = Round<T>(r > 0 ? r : 0.0f);
      leaky[i] = F(a[i]) >= 0 ? a[i] : Round<T>(F(slope) * F(a[i]));
    }
    OnBlock([&](Ub& ub) {
      ub.Put<T>(0, a);
      ub.Put<T>(1, b);
      ub.Put<T>(2, d0);
      ub.Put<T>(3, d0);
      FusedMulAdd(ub.Get<T>(2), ub.Get<T>(0), ub.Get<T>(1), n);
      MulAddRelu(ub.Get<T>(3), ub.Get<T>(0), ub.Get<T>(1), n);
      ExpectSameBits(ub.Take<T>(2), fma, "FusedMulAdd");
      ExpectSameBits(ub.Take<T>(3), relu, "MulAddRelu");
      LeakyRelu(ub.Get<T>(2), ub.Get<T>(0), slope, n);
      ExpectSameBits(ub.Take<T>(2), leaky, "LeakyRelu");
    });
  };
  run(half{});
  run(float{});
}

// ---------------------------------------------------------------------------------------------
// Mask/repeat forms: lanes, strides, masked lanes untouched.

TEST(VectorExt, RepeatFormsFollowMaskAndStrides) {
  // half, bit-wise mask with holes, dst block stride 2, src repeat stride 9.
  const uint64_t mask[2] = {0xF0F0F0F00000FFFFull, 0x8000000000000001ull};
  const uint32_t rt = 3;
  const BinaryRepeatParams bp(2, 1, 1, 16, 9, 8);
  const auto a = RandomValues<half>(31, 4000), b = RandomValues<half>(32, 4000);
  const auto d0 = RandomValues<half>(33, 4000);
  std::vector<half> want_relu(kUbBufBytes / 2), want_fma(kUbBufBytes / 2);
  for (size_t i = 0; i < want_relu.size(); ++i) {
    want_relu[i] = i < d0.size() ? d0[i] : half{};
    want_fma[i] = want_relu[i];
  }
  for (uint32_t r = 0; r < rt; ++r) {
    for (uint32_t p = 0; p < 128; ++p) {
      if (!((mask[p / 64] >> (p % 64)) & 1)) continue;
      const uint64_t di = At(2, 2, 16, r, p), ai = At(2, 1, 9, r, p), bi = At(2, 1, 8, r, p);
      const float s = F(a[ai]) + F(b[bi]);
      want_relu[di] = Round<half>(s > 0 ? s : 0.0f);
      want_fma[di] = Round<half>(F(a[ai]) * F(d0[di]) + F(b[bi]));
    }
  }
  OnBlock([&](Ub& ub) {
    ub.Put<half>(0, a);
    ub.Put<half>(1, b);
    ub.Put<half>(2, d0);
    ub.Put<half>(3, d0);
    AddRelu(ub.Get<half>(2), ub.Get<half>(0), ub.Get<half>(1), mask, rt, bp);
    FusedMulAdd(ub.Get<half>(3), ub.Get<half>(0), ub.Get<half>(1), mask, rt, bp);
    ExpectSameBits(ub.Take<half>(2), want_relu, "AddRelu repeat");
    ExpectSameBits(ub.Take<half>(3), want_fma, "FusedMulAdd repeat");
  });
}

TEST(VectorExt, WideningRepeatFormsCountTheWiderType) {
  // Axpy half -> float and AddReluCast float -> half: 64 lanes per repeat (the 4-byte type).
  const uint32_t rt = 2;
  const UnaryRepeatParams up(1, 1, 8, 4);  // the doc's example: src repeat stride 4
  const BinaryRepeatParams bp(1, 1, 1, 4, 8, 8);
  const auto s = RandomValues<half>(41, 2000);
  const auto f0 = RandomValues<float>(42, 2000), f1 = RandomValues<float>(43, 2000);
  const auto d0 = RandomValues<float>(44, 2000);
  const half alpha = static_cast<half>(-2.0f);
  std::vector<float> want_axpy(kUbBufBytes / 4);
  std::vector<half> want_cast(kUbBufBytes / 2);
  for (size_t i = 0; i < d0.size(); ++i) want_axpy[i] = d0[i];
  for (uint32_t r = 0; r < rt; ++r) {
    for (uint32_t p = 0; p < 50; ++p) {  // continuous mask 50
      const uint64_t di = At(4, 1, 8, r, p), si = At(2, 1, 4, r, p);
      want_axpy[di] = F(alpha) * F(s[si]) + d0[di];
      const uint64_t ci = At(2, 1, 4, r, p), fi = At(4, 1, 8, r, p);
      const float sum = f0[fi] + f1[fi];
      want_cast[ci] = Round<half>(sum > 0 ? sum : 0.0f);
    }
  }
  OnBlock([&](Ub& ub) {
    ub.Put<half>(0, s);
    ub.Put<float>(1, d0);
    Axpy(ub.Get<float>(1), ub.Get<half>(0), alpha, 50, rt, up);
    ExpectSameBits(ub.Take<float>(1), want_axpy, "Axpy half->float");
    ub.Put<float>(0, f0);
    ub.Put<float>(1, f1);
    ub.Put<half>(2, {});
    AddReluCast(ub.Get<half>(2), ub.Get<float>(0), ub.Get<float>(1), 50, rt, bp);
    ExpectSameBits(ub.Take<half>(2), want_cast, "AddReluCast float->half");
  });
}

TEST(VectorExt, LeakyReluSampleShapeAndMaskRegister) {
  // The kit's call: continuous mask 128, 4 repeats, {1, 1, 8, 8}; then isSetMask = false under
  // a register set by SetVectorMask.
  const auto a = RandomValues<half>(51, 1024, -900.f, 900.f);
  const half slope = static_cast<half>(0.01f);
  std::vector<half> want(kUbBufBytes / 2), want2(kUbBufBytes / 2);
  for (uint32_t i = 0; i < 512; ++i) {
    want[i] = F(a[i]) >= 0 ? a[i] : Round<half>(F(slope) * F(a[i]));
  }
  want2 = want;
  for (uint32_t i = 512; i < 512 + 128; ++i) {
    if (i % 2 == 0) want2[i] = F(a[i]) >= 0 ? a[i] : Round<half>(F(slope) * F(a[i]));
  }
  OnBlock([&](Ub& ub) {
    ub.Put<half>(0, a);
    LeakyRelu(ub.Get<half>(1), ub.Get<half>(0), slope, 128, 4, {1, 1, 8, 8});
    ExpectSameBits(ub.Take<half>(1), want, "LeakyRelu");
    SetVectorMask<half>(0x5555555555555555ull, 0x5555555555555555ull);
    LeakyRelu<half, false>(ub.Get<half>(1)[512], ub.Get<half>(0)[512], slope, MASK_PLACEHOLDER, 1,
                           {1, 1, 8, 8});
    ResetMask();
    ExpectSameBits(ub.Take<half>(1), want2, "LeakyRelu under the register");
  });
}

// ---------------------------------------------------------------------------------------------
// Bitwise and shifts.

TEST(VectorExt, AndOrNotCountAndRepeatForms) {
  const uint32_t n = 333;
  const auto a = Ints<uint16_t>(61, 4096, 0, 65535), b = Ints<uint16_t>(62, 4096, 0, 65535);
  std::vector<uint16_t> want_and(kUbBufBytes / 2), want_or(kUbBufBytes / 2),
      want_not(kUbBufBytes / 2);
  for (uint32_t i = 0; i < n; ++i) {
    want_and[i] = a[i] & b[i];
    want_or[i] = a[i] | b[i];
    want_not[i] = static_cast<uint16_t>(~a[i]);
  }
  OnBlock([&](Ub& ub) {
    ub.Put<uint16_t>(0, a);
    ub.Put<uint16_t>(1, b);
    And(ub.Get<uint16_t>(2), ub.Get<uint16_t>(0), ub.Get<uint16_t>(1), n);
    ExpectSameBits(ub.Take<uint16_t>(2), want_and, "And");
    Or(ub.Get<uint16_t>(2), ub.Get<uint16_t>(0), ub.Get<uint16_t>(1), n);
    ExpectSameBits(ub.Take<uint16_t>(2), want_or, "Or");
    Not(ub.Get<uint16_t>(2), ub.Get<uint16_t>(0), n);
    ExpectSameBits(ub.Take<uint16_t>(2), want_not, "Not");
  });
  // int16_t repeat forms: continuous mask 100, 2 repeats, src1 repeat stride 0 (re-read).
  const auto x = Ints<int16_t>(63, 4096, -32768, 32767), y = Ints<int16_t>(64, 4096, -32768, 32767);
  std::vector<int16_t> want(kUbBufBytes / 2, int16_t{7}), want_n(kUbBufBytes / 2, int16_t{7});
  for (uint32_t r = 0; r < 2; ++r) {
    for (uint32_t p = 0; p < 100; ++p) {
      want[At(2, 1, 8, r, p)] = static_cast<int16_t>(x[At(2, 1, 8, r, p)] & y[At(2, 1, 0, r, p)]);
      want_n[At(2, 1, 8, r, p)] = static_cast<int16_t>(~x[At(2, 2, 16, r, p)]);
    }
  }
  OnBlock([&](Ub& ub) {
    ub.Put<int16_t>(0, x);
    ub.Put<int16_t>(1, y);
    ub.Put<int16_t>(2, {}, int16_t{7});
    ub.Put<int16_t>(3, {}, int16_t{7});
    And(ub.Get<int16_t>(2), ub.Get<int16_t>(0), ub.Get<int16_t>(1), 100, 2, {1, 1, 1, 8, 8, 0});
    Not(ub.Get<int16_t>(3), ub.Get<int16_t>(0), 100, 2, {1, 2, 8, 16});
    ExpectSameBits(ub.Take<int16_t>(2), want, "And repeat");
    ExpectSameBits(ub.Take<int16_t>(3), want_n, "Not repeat");
  });
}

// The documented examples and the shift model: unsigned logical, signed arithmetic with the
// sign bit kept on a left shift.
template <typename T>
T ModelShl(T v, int n) {
  using U = std::make_unsigned_t<T>;
  const int bits = sizeof(T) * 8;
  U x = static_cast<U>(v);
  for (int k = 0; k < n; ++k) {
    if constexpr (std::is_signed_v<T>) {
      const U sign = static_cast<U>(x & (U{1} << (bits - 1)));
      x = static_cast<U>(sign | (static_cast<U>(x << 1) & static_cast<U>(~(U{1} << (bits - 1)))));
    } else {
      x = static_cast<U>(x << 1);
    }
  }
  return static_cast<T>(x);
}
template <typename T>
T ModelShr(T v, int n, bool round) {
  int64_t x = v;
  if constexpr (!std::is_signed_v<T>) round = false;
  int64_t lost = 0;
  for (int k = 0; k < n; ++k) {
    lost = x & 1;
    x = std::is_signed_v<T> ? (x >= 0 ? x / 2 : -((-x + 1) / 2)) : x / 2;  // floor halving
  }
  return static_cast<T>(x + (round ? lost : 0));
}

TEST(VectorExt, ShiftsMatchTheDocumentedExamples) {
  EXPECT_EQ(ModelShl<uint16_t>(0b1010101010101010, 1), 0b0101010101010100);
  EXPECT_EQ(static_cast<uint16_t>(ModelShl<int16_t>(static_cast<int16_t>(0b1010101010101010), 1)),
            0b1101010101010100);
  EXPECT_EQ(static_cast<uint16_t>(ModelShl<int16_t>(static_cast<int16_t>(0b1010101010101010), 3)),
            0b1101010101010000);
  EXPECT_EQ(
      static_cast<uint16_t>(ModelShr<int16_t>(static_cast<int16_t>(0b1010101010101010), 3, false)),
      0b1111010101010101);
  EXPECT_EQ(ModelShr<int16_t>(17, 5, true), 1);  // roundEn's documented example
  auto run = [](auto tag, int amount, bool round) {
    using T = decltype(tag);
    const uint32_t n = 256 / sizeof(T) * 2;
    const auto v =
        Ints<T>(71 + amount, n, std::numeric_limits<T>::min(), std::numeric_limits<T>::max());
    std::vector<T> shl(kUbBufBytes / sizeof(T)), shr(kUbBufBytes / sizeof(T));
    for (uint32_t i = 0; i < n; ++i) {
      shl[i] = ModelShl<T>(v[i], amount);
      shr[i] = ModelShr<T>(v[i], amount, round);
    }
    OnBlock([&](Ub& ub) {
      ub.Put<T>(0, v);
      ShiftLeft(ub.Get<T>(1), ub.Get<T>(0), static_cast<T>(amount), n);
      const uint64_t lanes = 256 / sizeof(T);
      ShiftRight(ub.Get<T>(2), ub.Get<T>(0), static_cast<T>(amount), lanes, 2, {1, 1, 8, 8}, round);
      ExpectSameBits(ub.Take<T>(1), shl, "ShiftLeft " + std::to_string(amount));
      ExpectSameBits(ub.Take<T>(2), shr, "ShiftRight " + std::to_string(amount));
    });
  };
  for (int amount : {0, 1, 5, 15, 16}) {
    run(int16_t{}, amount, false);
    run(int16_t{}, amount, true);
    run(uint16_t{}, amount, true);  // roundEn has no effect on unsigned types
  }
  for (int amount : {0, 7, 31, 32}) {
    run(int32_t{}, amount, false);
    run(uint32_t{}, amount, false);
  }
}

TEST(VectorExt, ShiftByTensorAmounts) {
  const uint32_t n = 128;
  const auto v = Ints<uint16_t>(81, n, 0, 65535);
  const auto s = Ints<int16_t>(82, n, 0, 20);  // beyond 16: 0
  const auto w = Ints<int16_t>(83, n, -32768, 32767);
  std::vector<uint16_t> want(kUbBufBytes / 2);
  std::vector<int16_t> want_r(kUbBufBytes / 2);
  for (uint32_t i = 0; i < n; ++i) {
    want[i] = s[i] >= 16 ? 0 : ModelShl<uint16_t>(v[i], s[i]);
    want_r[i] = ModelShr<int16_t>(w[i], s[i] > 16 ? 16 : s[i], false);
  }
  OnBlock([&](Ub& ub) {
    ub.Put<uint16_t>(0, v);
    ub.Put<int16_t>(1, s);
    ub.Put<int16_t>(3, w);
    ShiftLeft(ub.Get<uint16_t>(2), ub.Get<uint16_t>(0), ub.Get<int16_t>(1), n);
    ExpectSameBits(ub.Take<uint16_t>(2), want, "ShiftLeft by tensor");
    ShiftRight(ub.Get<int16_t>(2), ub.Get<int16_t>(3), ub.Get<int16_t>(1), n);
    ExpectSameBits(ub.Take<int16_t>(2), want_r, "ShiftRight by tensor");
  });
}

TEST(VectorExt, ScalarLogicWithBinaryConfig) {
  const uint32_t n = 160;
  const auto v = Ints<uint16_t>(91, n, 0, 65535);
  std::vector<uint16_t> want_or(kUbBufBytes / 2), want_and(kUbBufBytes / 2);
  const uint16_t scalar = v[0];  // the kit's sample: Ors<..., {0}>(dst, src0[0], src1, count)
  for (uint32_t i = 0; i < n; ++i) {
    want_or[i] = static_cast<uint16_t>(scalar | v[i]);
    want_and[i] = static_cast<uint16_t>(v[i] & 0x0FF0);
  }
  static constexpr BinaryConfig kLeft = {0};
  OnBlock([&](Ub& ub) {
    ub.Put<uint16_t>(0, v);
    Ors<BinaryDefaultType, true, kLeft>(ub.Get<uint16_t>(1), ub.Get<uint16_t>(0)[0],
                                        ub.Get<uint16_t>(0), n);
    ExpectSameBits(ub.Take<uint16_t>(1), want_or, "Ors, scalar tensor on the left");
    Ands(ub.Get<uint16_t>(2), ub.Get<uint16_t>(0), static_cast<uint16_t>(0x0FF0), n);
    ExpectSameBits(ub.Take<uint16_t>(2), want_and, "Ands, scalar argument");
  });
}

TEST(VectorExt, ComparesWithAScalarTensor) {
  // The 950's Compares(dst, src0, src1[0], mode, count): the scalar on the right by default,
  // on the left with scalarTensorIndex 0 (x op s becomes s op x).
  const auto v = lngrad::aicore::test::TieValues<float>(95, 64);
  std::vector<uint8_t> right(kUbBufBytes), left(kUbBufBytes);
  for (uint32_t i = 0; i < 64; ++i) {
    if (v[i] < v[0]) right[i / 8] = static_cast<uint8_t>(right[i / 8] | (1u << (i % 8)));
    if (v[0] < v[i]) left[i / 8] = static_cast<uint8_t>(left[i / 8] | (1u << (i % 8)));
  }
  static constexpr BinaryConfig kLeft = {0};
  OnBlock([&](Ub& ub) {
    ub.Put<float>(0, v);
    Compares(ub.Get<uint8_t>(1), ub.Get<float>(0), ub.Get<float>(0)[0], CMPMODE::LT, 64);
    ExpectSameBits(ub.Take<uint8_t>(1), right, "x < s");
    Compares<BinaryDefaultType, true, kLeft>(ub.Get<uint8_t>(2), ub.Get<float>(0)[0],
                                             ub.Get<float>(0), CMPMODE::LT, 64);
    ExpectSameBits(ub.Take<uint8_t>(2), left, "s < x");
  });
}

TEST(VectorExt, CreateVecIndex) {
  auto run = [](auto tag, auto first) {
    using T = decltype(tag);
    const uint32_t n = 300;
    std::vector<T> want(kUbBufBytes / sizeof(T));
    for (uint32_t i = 0; i < n; ++i) want[i] = static_cast<T>(static_cast<float>(first) + i);
    OnBlock([&](Ub& ub) {
      LocalTensor<T> d = ub.Get<T>(0);
      CreateVecIndex(d, static_cast<T>(first), n);
      ExpectSameBits(ub.Take<T>(0), want, "CreateVecIndex");
    });
  };
  run(float{}, -10.5f);
  run(half{}, 3.0f);  // 3 + 300 .. exact in half below 2048
  run(int32_t{}, -100);
  run(int16_t{}, 7);
}

// ---------------------------------------------------------------------------------------------
// The sanitizer's records: an instruction that reads dst reads exactly its active lanes.

std::string InitcheckOf(const std::function<void(Ub&)>& body) {
  lngrad::aicore::LaunchOptions o;
  o.soc = "Ascend910B1";
  o.sanitize = lngrad::aicore::san::kInitcheck;
  std::vector<lngrad::aicore::BlockFailure> failures;
  (void)lngrad::aicore::detail::RunBlocks(
      "kernel", 1,
      [&] {
        Ub ub;
        body(ub);
      },
      o, &failures);
  std::string all;
  for (const auto& f : failures) all += "[" + f.check + "] " + f.message + "\n";
  return all;
}

TEST(VectorExt, ReadsOfDstAreRecordedLaneByLane) {
  // src fully initialised, dst only its first 8 floats (UB bytes [40960 * 2, + 32)).
  auto kernel = [](uint64_t mask) {
    return [mask](Ub& ub) {
      Duplicate(ub.Get<float>(0), 1.0f, 64);
      Duplicate(ub.Get<float>(2), 2.0f, 8);
      Axpy(ub.Get<float>(2), ub.Get<float>(0), 3.0f, mask, 1, {1, 1, 8, 8});
    };
  };
  EXPECT_EQ(InitcheckOf(kernel(8)), "");
  const std::string m = InitcheckOf(kernel(9));
  EXPECT_NE(m.find("read of uninitialised UB: V Axpy"), std::string::npos) << m;
  EXPECT_NE(m.find("UB bytes [81952, 81956)"), std::string::npos) << m;
  // The count form of MulAddDst reads all of dst.
  const std::string c = InitcheckOf([](Ub& ub) {
    Duplicate(ub.Get<float>(0), 1.0f, 64);
    MulAddDst(ub.Get<float>(2), ub.Get<float>(0), ub.Get<float>(0), 64);
  });
  EXPECT_NE(c.find("V MulAddDst"), std::string::npos) << c;
  EXPECT_NE(c.find("UB bytes [81920, 82176)"), std::string::npos) << c;
}

// ---------------------------------------------------------------------------------------------
// Checked mode.

TEST(VectorExt, CheckedModeRules) {
  CheckedModeScope on(true);
  auto check = [](const std::function<void(Ub&)>& body, const std::string& name,
                  const std::string& text) {
    const auto [c, m] = CheckOf(body);
    EXPECT_EQ(c, name) << m;
    EXPECT_NE(m.find(text), std::string::npos) << m;
  };
  check([](Ub& ub) { ShiftLeft(ub.Get<int16_t>(0), ub.Get<int16_t>(1), int16_t{17}, 16); },
        "shift_amount", "ShiftLeft: scalarValue is 17, which must be in [0, 16]");
  check([](Ub& ub) { ShiftRight(ub.Get<uint32_t>(0), ub.Get<uint32_t>(1), uint32_t{33}, 8); },
        "shift_amount", "ShiftRight: scalarValue is 33, which must be in [0, 32]");
  check([](Ub& ub) { AddRelu(ub.Get<half>(0), ub.Get<half>(1), ub.Get<half>(2), -1); },
        "invalid_count", "AddRelu");
  check(
      [](Ub& ub) {
        AddRelu(ub.Get<float>(0), ub.Get<float>(1), ub.Get<float>(2), kUbBufBytes / 4 + 1);
      },
      "tensor_bounds", "AddRelu");
  check([](Ub& ub) { And(ub.Get<int16_t>(0)[3], ub.Get<int16_t>(1), ub.Get<int16_t>(2), 16); },
        "ub_alignment", "And");
  check(
      [](Ub& ub) {
        Axpy(ub.Get<float>(0), ub.Get<float>(1), 1.0f, 64, 300, {1, 1, 8, 8});
      },
      "repeat_times", "repeatTime");
  check(
      [](Ub& ub) {
        LeakyRelu(ub.Get<float>(0), ub.Get<float>(1), 0.5f, 64, 2, {0, 1, 8, 8});
      },
      "vector_stride", "dstBlkStride");
  // A destination that is also read (MulAddDst) must not be re-read after an earlier repeat
  // wrote it: dst repeat stride 0 over 2 repeats.
  check(
      [](Ub& ub) {
        MulAddDst(ub.Get<float>(0), ub.Get<float>(1), ub.Get<float>(2), 64, 2, {1, 1, 1, 0, 8, 8});
      },
      "address_overlap", "MulAddDst");
}

TEST(VectorExt, UncheckedShiftsBeyondTheWidth) {
  CheckedModeScope off(false);
  OnBlock([](Ub& ub) {
    ub.Put<int16_t>(0, {-5, 5, -32768, 32767});
    ShiftRight(ub.Get<int16_t>(1), ub.Get<int16_t>(0), int16_t{40}, 4);
    ShiftLeft(ub.Get<int16_t>(2), ub.Get<int16_t>(0), int16_t{40}, 4);
    const auto r = ub.Take<int16_t>(1);
    const auto l = ub.Take<int16_t>(2);
    EXPECT_EQ(r[0], -1);
    EXPECT_EQ(r[1], 0);
    EXPECT_EQ(l[0], -32768);  // the sign bit alone
    EXPECT_EQ(l[3], 0);
  });
}

}  // namespace
