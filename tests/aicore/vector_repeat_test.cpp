// The mask/repeat forms (and the new count forms) of the element-wise vector instructions
// against a scalar model of the vendor's documented semantics written here: which elements of
// which repeats run (Normal mode: mask bits per repeat; Counter mode: the first count elements,
// repeat after repeat; Copy: count per repeat), where they are (block and repeat strides in
// 32-byte blocks), the per-element formula, masked lanes untouched, repeats in order; every
// dtype; and the checked-mode rules. The model is in vector_repeat_test_util.h, the Cast forms
// in vector_repeat_cast_test.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "sanitizer_off.h"

#include "checked_mode_scope.h"
#include "vector_repeat_test_util.h"

namespace {

using namespace AscendC;
using lngrad::aicore::KernelCheckError;
using namespace lngrad::aicore::test;
using lngrad::aicore::test::Layout;  // not AscendC::Layout (TransData's layouts)

const Strides kBinaryStrides[] = {{{1, 1, 1}, {8, 8, 8}},
                                  {{2, 1, 3}, {16, 8, 24}},
                                  {{1, 0, 2}, {9, 0, 1}},
                                  {{1, 1, 1}, {4, 8, 8}}};

// ---------------------------------------------------------------------------------------------
// Binary instructions.

template <typename T>
using BinFn = T (*)(T, T);

template <typename T>
void CheckBinary(const char* name, BinFn<T> f,
                 void (*bits)(const LocalTensor<T>&, const LocalTensor<T>&, const LocalTensor<T>&,
                              const uint64_t*, int32_t, const BinaryRepeatParams&),
                 void (*len)(const LocalTensor<T>&, const LocalTensor<T>&, const LocalTensor<T>&,
                             uint64_t, int32_t, const BinaryRepeatParams&),
                 void (*reg)(const LocalTensor<T>&, const LocalTensor<T>&, const LocalTensor<T>&,
                             const uint64_t*, int32_t, const BinaryRepeatParams&)) {
  const uint32_t lanes = 256 / sizeof(T);
  const auto init = Fill<T>(11, false);
  for (const Strides& st : kBinaryStrides) {
    for (const Scenario& s : Scenarios(lanes)) {
      const BinaryRepeatParams p(st.blk[0], st.blk[1], st.blk[2], st.rep[0], st.rep[1], st.rep[2]);
      const std::vector<Layout> ops = {{0, sizeof(T), st.blk[0], st.rep[0]},
                                       {kOpBytes, sizeof(T), st.blk[1], st.rep[1]},
                                       {2 * kOpBytes, sizeof(T), st.blk[2], st.rep[2]}};
      std::vector<std::byte> want = init;
      for (const auto& e : Active(s.model, lanes, ops)) {
        Store(want, e[0], f(Load<T>(want, e[1]), Load<T>(want, e[2])));
      }
      const auto got = OnUb(init, [&](LocalTensor<uint8_t> r) {
        const auto d = At<T>(r, 0), a = At<T>(r, kOpBytes), b = At<T>(r, 2 * kOpBytes);
        const int32_t rt = static_cast<int32_t>(s.model.repeat_time);
        Drive(
            s, [&](const uint64_t* m) { bits(d, a, b, m, rt, p); },
            [&](uint64_t m) { len(d, a, b, m, rt, p); },
            [&] { reg(d, a, b, MASK_PLACEHOLDER_LIST, rt, p); });
      });
      ASSERT_EQ(FirstDiff(got, want), -1)
          << name << " " << s.name << " strides " << st.blk[0] << st.blk[1] << st.blk[2] << "/"
          << st.rep[0] << "," << st.rep[1] << "," << st.rep[2];
    }
  }
}

#define BINARY_FORMS(Name, T)                                                                      \
  [](const LocalTensor<T>& d, const LocalTensor<T>& a, const LocalTensor<T>& b, const uint64_t* m, \
     int32_t rt, const BinaryRepeatParams& p) { Name(d, a, b, m, rt, p); },                        \
      [](const LocalTensor<T>& d, const LocalTensor<T>& a, const LocalTensor<T>& b, uint64_t m,    \
         int32_t rt, const BinaryRepeatParams& p) { Name(d, a, b, m, rt, p); },                    \
      [](const LocalTensor<T>& d, const LocalTensor<T>& a, const LocalTensor<T>& b,                \
         const uint64_t* m, int32_t rt,                                                            \
         const BinaryRepeatParams& p) { Name<T, false>(d, a, b, m, rt, p); }

template <typename T>
T Wrap(int64_t v) {
  return static_cast<T>(v);  // modulo 2^bits (C++20)
}

template <typename T>
void CheckAllBinary() {
  if constexpr (std::is_integral_v<T>) {
    CheckBinary<T>(
        "Add", [](T a, T b) { return Wrap<T>(int64_t{a} + b); }, BINARY_FORMS(Add, T));
    CheckBinary<T>(
        "Sub", [](T a, T b) { return Wrap<T>(int64_t{a} - b); }, BINARY_FORMS(Sub, T));
    CheckBinary<T>(
        "Mul", [](T a, T b) { return Wrap<T>(int64_t{a} * b); }, BINARY_FORMS(Mul, T));
  } else {
    CheckBinary<T>(
        "Add", [](T a, T b) { return T(float(a) + float(b)); }, BINARY_FORMS(Add, T));
    CheckBinary<T>(
        "Sub", [](T a, T b) { return T(float(a) - float(b)); }, BINARY_FORMS(Sub, T));
    CheckBinary<T>(
        "Mul", [](T a, T b) { return T(float(a) * float(b)); }, BINARY_FORMS(Mul, T));
    CheckBinary<T>(
        "Div", [](T a, T b) { return T(float(a) / float(b)); }, BINARY_FORMS(Div, T));
  }
  CheckBinary<T>(
      "Max", [](T a, T b) { return a > b ? a : b; }, BINARY_FORMS(Max, T));
  CheckBinary<T>(
      "Min", [](T a, T b) { return a < b ? a : b; }, BINARY_FORMS(Min, T));
}

TEST(VectorRepeat, BinaryFloat) { CheckAllBinary<float>(); }
TEST(VectorRepeat, BinaryHalf) { CheckAllBinary<half>(); }
TEST(VectorRepeat, BinaryInt32) { CheckAllBinary<int32_t>(); }
TEST(VectorRepeat, BinaryInt16) { CheckAllBinary<int16_t>(); }

// ---------------------------------------------------------------------------------------------
// Unary and tensor-scalar instructions (one source).

#define UNARY_DRIVER(Name, T)                                                                    \
  [](const LocalTensor<T>& d, const LocalTensor<T>& a, int how, const uint64_t* m, uint64_t len, \
     int32_t rt, const UnaryRepeatParams& p) {                                                   \
    if (how == 0) Name(d, a, m, rt, p);                                                          \
    if (how == 1) Name(d, a, len, rt, p);                                                        \
    if (how == 2) Name<T, false>(d, a, m, rt, p);                                                \
  }
#define SCALAR_DRIVER(Name, T, s)                                                                \
  [](const LocalTensor<T>& d, const LocalTensor<T>& a, int how, const uint64_t* m, uint64_t len, \
     int32_t rt, const UnaryRepeatParams& p) {                                                   \
    if (how == 0) Name(d, a, T(s), m, rt, p);                                                    \
    if (how == 1) Name(d, a, T(s), len, rt, p);                                                  \
    if (how == 2) Name<T, false>(d, a, T(s), m, rt, p);                                          \
  }

template <typename T>
T FromLongDouble(long double v) {
  if constexpr (std::is_same_v<T, half>) {
    return half::FromBits(NearestHalf(v));
  } else {
    return static_cast<float>(v);
  }
}

template <typename T>
void CheckAllOneSource() {
  using F = std::function<T(T)>;
  const auto ld = [](T x) { return static_cast<long double>(static_cast<float>(x)); };
  CheckOneSource<T, T>("Abs", F([](T x) { return T(std::fabs(float(x))); }), UNARY_DRIVER(Abs, T));
  CheckOneSource<T, T>("Relu", F([](T x) { return float(x) > 0 ? x : T(0.0f); }),
                       UNARY_DRIVER(Relu, T));
  CheckOneSource<T, T>("Sqrt", F([&](T x) { return FromLongDouble<T>(std::sqrt(ld(x))); }),
                       UNARY_DRIVER(Sqrt, T), true);
  CheckOneSource<T, T>("Reciprocal", F([&](T x) { return FromLongDouble<T>(1.0L / ld(x)); }),
                       UNARY_DRIVER(Reciprocal, T));
  CheckOneSource<T, T>("Exp", F([&](T x) { return FromLongDouble<T>(std::exp(ld(x))); }),
                       UNARY_DRIVER(Exp, T), false, 10.0f);
  CheckOneSource<T, T>("Ln", F([&](T x) { return FromLongDouble<T>(std::log(ld(x))); }),
                       UNARY_DRIVER(Ln, T), true);
  CheckOneSource<T, T>("Rsqrt", F([&](T x) { return FromLongDouble<T>(1.0L / std::sqrt(ld(x))); }),
                       UNARY_DRIVER(Rsqrt, T), true);
  CheckOneSource<T, T>("Adds", F([](T x) { return T(float(x) + -1.75f); }),
                       SCALAR_DRIVER(Adds, T, -1.75f));
  CheckOneSource<T, T>("Muls", F([](T x) { return T(float(x) * 3.5f); }),
                       SCALAR_DRIVER(Muls, T, 3.5f));
  CheckOneSource<T, T>("Maxs", F([](T x) { return float(x) > 2.5f ? x : T(2.5f); }),
                       SCALAR_DRIVER(Maxs, T, 2.5f));
  CheckOneSource<T, T>("Mins", F([](T x) { return float(x) < 2.5f ? x : T(2.5f); }),
                       SCALAR_DRIVER(Mins, T, 2.5f));
}

TEST(VectorRepeat, OneSourceFloat) { CheckAllOneSource<float>(); }
TEST(VectorRepeat, OneSourceHalf) { CheckAllOneSource<half>(); }

template <typename T>
void CheckIntOneSource() {
  using F = std::function<T(T)>;
  CheckOneSource<T, T>("Adds", F([](T x) { return Wrap<T>(int64_t{x} - 7); }),
                       SCALAR_DRIVER(Adds, T, -7));
  CheckOneSource<T, T>("Muls", F([](T x) { return Wrap<T>(int64_t{x} * 3); }),
                       SCALAR_DRIVER(Muls, T, 3));
  CheckOneSource<T, T>("Maxs", F([](T x) { return x > T(5) ? x : T(5); }),
                       SCALAR_DRIVER(Maxs, T, 5));
  CheckOneSource<T, T>("Mins", F([](T x) { return x < T(5) ? x : T(5); }),
                       SCALAR_DRIVER(Mins, T, 5));
  if constexpr (std::is_same_v<T, int32_t>) {
    CheckOneSource<T, T>("Relu", F([](T x) { return x > 0 ? x : T(0); }), UNARY_DRIVER(Relu, T));
  }
}

TEST(VectorRepeat, OneSourceInt32) { CheckIntOneSource<int32_t>(); }
TEST(VectorRepeat, OneSourceInt16) { CheckIntOneSource<int16_t>(); }

// ---------------------------------------------------------------------------------------------
// Duplicate and Copy.

TEST(VectorRepeat, DuplicateMaskForms) {
  for (const Scenario& s : Scenarios(64)) {
    for (const auto& br : {std::pair{1u, 8u}, {2u, 16u}, {1u, 0u}, {3u, 5u}}) {
      // Plain variables: clang 14 cannot capture structured bindings in lambdas.
      const uint32_t blk = br.first, rep = br.second;
      const auto init = Fill<float>(3, false);
      std::vector<std::byte> want = init;
      for (const auto& e : Active(s.model, 64, {{0, 4, blk, rep}})) Store(want, e[0], 4.25f);
      const auto got = OnUb(init, [&](LocalTensor<uint8_t> r) {
        const auto d = At<float>(r, 0);
        const int32_t rt = static_cast<int32_t>(s.model.repeat_time);
        Drive(
            s, [&](const uint64_t* m) { Duplicate(d, 4.25f, m, rt, blk, rep); },
            [&](uint64_t m) { Duplicate(d, 4.25f, m, rt, blk, rep); },
            [&] { Duplicate<float, false>(d, 4.25f, MASK_PLACEHOLDER, rt, blk, rep); });
      });
      ASSERT_EQ(FirstDiff(got, want), -1) << s.name << " " << blk << "/" << rep;
    }
  }
}

TEST(VectorRepeat, CopyMaskFormsAndCopysOwnCounterMode) {
  for (const Scenario& s0 : Scenarios(128)) {
    Scenario s = s0;
    if (s.model.counter) {
      // Copy: the count applies to each repeat, and repeatTime counts.
      s.model.copy_counter = true;
      s.model.repeat_time = 3;
    }
    const auto init = Fill<int16_t>(4, false);
    const CopyRepeatParams p(2, 1, 16, 8);
    std::vector<std::byte> want = init;
    for (const auto& e : Active(s.model, 128, {{0, 2, 2, 16}, {kOpBytes, 2, 1, 8}})) {
      Store(want, e[0], Load<int16_t>(want, e[1]));
    }
    const auto got = OnUb(init, [&](LocalTensor<uint8_t> r) {
      const auto d = At<int16_t>(r, 0);
      const auto a = At<int16_t>(r, kOpBytes);
      const int32_t rt = static_cast<int32_t>(s.model.repeat_time);
      Drive(
          s, [&](const uint64_t* m) { Copy(d, a, m, rt, p); },
          [&](uint64_t m) { Copy(d, a, m, rt, p); },
          [&] { Copy<int16_t, false>(d, a, MASK_PLACEHOLDER, rt, p); });
    });
    ASSERT_EQ(FirstDiff(got, want), -1) << s.name;
  }
}

// The Copy documentation's Counter-mode scenario: 18 rows of 64 int32, the first 8 of each row
// gathered into [18, 8] by one repeat of 144 elements whose 18 source blocks are 8 blocks apart.
TEST(VectorRepeat, CopyCounterModeGathersRowsInOneRepeat) {
  const lngrad::Status s = lngrad::aicore::Launch(1, [] {
    LocalTensor<int32_t> src(TPosition::VECIN, 0, 18 * 64);
    LocalTensor<int32_t> dst(TPosition::VECOUT, 18 * 64 * 4, 18 * 8);
    for (uint32_t i = 0; i < 18 * 64; ++i) src.SetValue(i, static_cast<int32_t>(i));
    SetMaskCount();
    SetVectorMask<int32_t, MaskMode::COUNTER>(144);
    Copy<int32_t, false>(dst, src, MASK_PLACEHOLDER, 1, {1, 8, 8, 8});
    SetMaskNorm();
    ResetMask();
    for (uint32_t row = 0; row < 18; ++row) {
      for (uint32_t c = 0; c < 8; ++c) {
        ASSERT_EQ(dst.GetValue(row * 8 + c), static_cast<int32_t>(row * 64 + c)) << row << " " << c;
      }
    }
    // The continuous-mask scenarios: 8 elements per repeat, 18 repeats (rows), and 64 x 8.
    Duplicate(dst, 0, 144);
    Copy(dst, src, 8, 18, {1, 1, 1, 8});
    for (uint32_t row = 0; row < 18; ++row) {
      ASSERT_EQ(dst.GetValue(row * 8 + 7), static_cast<int32_t>(row * 64 + 7)) << row;
    }
  });
  ASSERT_TRUE(s.ok()) << s.ToString();
}

// ---------------------------------------------------------------------------------------------
// Count forms of the new instructions, and what they leave in the mask register.

TEST(VectorRepeat, NewCountFormsAtEveryTail) {
  const auto init = Fill<float>(8, true);
  for (uint32_t n : {1u, 7u, 8u, 63u, 64u, 65u, 1000u, 8191u}) {
    std::vector<std::byte> want = init;
    for (uint32_t i = 0; i < n; ++i) {
      const float a = Load<float>(init, kOpBytes + i * 4);
      const float b = Load<float>(init, 2 * kOpBytes + i * 4);
      Store(want, i * 4, a > b ? a : b);
    }
    const auto got = OnUb(init, [&](LocalTensor<uint8_t> r) {
      Max(At<float>(r, 0), At<float>(r, kOpBytes), At<float>(r, 2 * kOpBytes), n);
    });
    ASSERT_EQ(FirstDiff(got, want), -1) << "Max " << n;
    struct Case {
      const char* name;
      std::function<void(LocalTensor<float>, LocalTensor<float>)> run;
      std::function<float(float)> f;
    };
    const std::vector<Case> cases = {
        {"Min", [n](auto d, auto a) { Mins(d, a, 20.0f, n); },
         [](float x) { return x < 20.0f ? x : 20.0f; }},
        {"Maxs", [n](auto d, auto a) { Maxs(d, a, 20.0f, n); },
         [](float x) { return x > 20.0f ? x : 20.0f; }},
        {"Exp", [n](auto d, auto a) { Exp(d, a, n); },
         [](float x) { return static_cast<float>(std::exp(static_cast<long double>(x))); }},
        {"Ln", [n](auto d, auto a) { Ln(d, a, n); },
         [](float x) { return static_cast<float>(std::log(static_cast<long double>(x))); }},
        {"Rsqrt", [n](auto d, auto a) { Rsqrt(d, a, n); },
         [](float x) { return static_cast<float>(1.0L / std::sqrt(static_cast<long double>(x))); }},
        {"Reciprocal", [n](auto d, auto a) { Reciprocal(d, a, n); },
         [](float x) { return 1.0f / x; }},
        {"Abs", [n](auto d, auto a) { Abs(d, a, n); }, [](float x) { return std::fabs(x); }},
        {"Relu", [n](auto d, auto a) { Relu(d, a, n); }, [](float x) { return x > 0 ? x : 0.0f; }},
    };
    for (const Case& c : cases) {
      std::vector<std::byte> w = init;
      for (uint32_t i = 0; i < n; ++i) Store(w, i * 4, c.f(Load<float>(init, kOpBytes + i * 4)));
      const auto g = OnUb(
          init, [&](LocalTensor<uint8_t> r) { c.run(At<float>(r, 0), At<float>(r, kOpBytes)); });
      ASSERT_EQ(FirstDiff(g, w), -1) << c.name << " " << n;
    }
  }
}

TEST(VectorRepeat, CountFormsLeaveTheMaskFullAndNormal) {
  const lngrad::Status s = LaunchOnFloatBuf(1024, [](LocalTensor<float> x) {
    SetMaskCount();
    SetVectorMask<float>(0, 5);
    Add(x, x, x, 8);  // the vendor's Level 2: Counter mode inside, then full mask, Normal mode
    auto* ctx = lngrad::aicore::CurrentBlockContext();
    EXPECT_FALSE(ctx->mask_counter);
    EXPECT_EQ(ctx->mask_low, ~0ull);
    EXPECT_EQ(ctx->mask_high, ~0ull);
    // isSetMask = false count form: the register, one repeat, count ignored.
    Duplicate(x, 1.0f, 256);
    SetVectorMask<float>(0, 0b1010);
    Adds<float, false>(x, x, 2.0f, 1);
    EXPECT_EQ(x.GetValue(0), 1.0f);
    EXPECT_EQ(x.GetValue(1), 3.0f);
    EXPECT_EQ(x.GetValue(3), 3.0f);
    EXPECT_EQ(x.GetValue(4), 1.0f);
    // A mask form with isSetMask = true leaves its mask in the register.
    Muls(x, x, 2.0f, 3ull, 1, UnaryRepeatParams());
    EXPECT_EQ(ctx->mask_low, 0b111u);
    ResetMask();
  });
  ASSERT_TRUE(s.ok()) << s.ToString();
}

// In place with the documented accumulation exception: dst = src1, dstRepStride 0: each repeat
// adds into the same 64 floats.
TEST(VectorRepeat, AccumulationIntoSrc1RunsRepeatsInOrder) {
  const lngrad::Status s = LaunchOnFloatBuf(8192, [](LocalTensor<float> acc) {
    LocalTensor<float> src = acc[256];
    Duplicate(acc, 0.0f, 64);
    for (uint32_t i = 0; i < 256; ++i) src.SetValue(i, static_cast<float>(i / 64 + 1));
    Add(acc, src, acc, 64, 4, BinaryRepeatParams(1, 1, 1, 0, 8, 0));
    for (uint32_t i = 0; i < 64; ++i) EXPECT_EQ(acc.GetValue(i), 10.0f) << i;
  });
  ASSERT_TRUE(s.ok()) << s.ToString();
}

// ---------------------------------------------------------------------------------------------
// Checked-mode rules.

std::string ErrorOf(const std::function<void(LocalTensor<float>)>& body) {
  std::string got;
  const lngrad::Status s = lngrad::aicore::Launch(1, [&] {
    TPipe pipe;
    TBuf<> buf;
    pipe.InitBuffer(buf, 16384);
    try {
      body(buf.Get<float>());
    } catch (const KernelCheckError& e) {
      lngrad::aicore::DismissKernelCheck(e);  // handled here: not the launch's failure
      got = e.check() + ": " + e.message();
    }
  });
  EXPECT_TRUE(s.ok()) << s.ToString();
  return got;
}

void ExpectRule(const char* check, const char* words,
                const std::function<void(LocalTensor<float>)>& bad,
                const std::function<void(LocalTensor<float>)>& good) {
  CheckedModeScope on(true);
  const std::string m = ErrorOf(bad);
  EXPECT_EQ(m.rfind(check, 0), 0u) << m;
  EXPECT_NE(m.find(words), std::string::npos) << m;
  EXPECT_EQ(ErrorOf(good), "");
}

TEST(VectorRepeatChecks, RepeatTimeAbove255) {
  ExpectRule(
      "repeat_times", "Add: repeatTime is 300",
      [](LocalTensor<float> x) {
        Add(x, x[1024], x[2048], 64, 300, {1, 1, 1, 0, 0, 0});
      },
      [](LocalTensor<float> x) {
        Add(x, x[1024], x[2048], 64, 255, {1, 1, 1, 0, 0, 0});
      });
}

TEST(VectorRepeatChecks, DestinationBlockStrideZero) {
  ExpectRule(
      "vector_stride", "Exp: dstBlkStride is 0",
      [](LocalTensor<float> x) {
        Exp(x, x[1024], 64, 1, {0, 1, 8, 8});
      },
      [](LocalTensor<float> x) {
        Exp(x, x[1024], 64, 1, {1, 0, 8, 8});
      });
}

TEST(VectorRepeatChecks, OperandBeyondItsTensorOverAllRepeats) {
  // The tensor holds 4096 floats = 64 repeats of 64; src1's repeat stride 16 reaches past it.
  ExpectRule(
      "tensor_bounds", "Sub src1",
      [](LocalTensor<float> x) {
        Sub(x, x, x[2048], 64, 32, {1, 1, 1, 8, 8, 16});
      },
      [](LocalTensor<float> x) {
        Sub(x, x, x[2048], 64, 32, {1, 1, 1, 8, 8, 8});
      });
  // Only active elements count: the last element of the last repeat decides.
  ExpectRule(
      "tensor_bounds", "Abs dst",
      [](LocalTensor<float> x) {
        Abs(x[4032], x, 2, 2, {1, 1, 8, 8});
      },
      [](LocalTensor<float> x) {
        Abs(x[4032], x, 2, 2, {1, 1, 7, 8});
      });
}

TEST(VectorRepeatChecks, MisalignedOperand) {
  ExpectRule(
      "ub_alignment", "src",
      [](LocalTensor<float> x) {
        Relu(x, x[1025], 64, 1, {1, 1, 8, 8});
      },
      [](LocalTensor<float> x) {
        Relu(x, x[1024], 64, 1, {1, 1, 8, 8});
      });
}

TEST(VectorRepeatChecks, PartialOverlapWithinARepeat) {
  ExpectRule(
      "address_overlap", "within repeat 0",
      [](LocalTensor<float> x) {
        Muls(x[8], x, 2.0f, 64, 1, {1, 1, 8, 8});
      },
      [](LocalTensor<float> x) {
        Muls(x, x, 2.0f, 64, 1, {1, 1, 8, 8});
      });
}

TEST(VectorRepeatChecks, LaterRepeatReadsAnEarlierRepeatsResult) {
  ExpectRule(
      "address_overlap", "repeat 1 reads src",
      [](LocalTensor<float> x) {
        Muls(x[64], x, 2.0f, 64, 2, {1, 1, 8, 8});
      },
      [](LocalTensor<float> x) {
        Muls(x[128], x, 2.0f, 64, 2, {1, 1, 8, 8});
      });
  // In place with repeats that meet: repeat 1 reads what repeat 0 wrote.
  ExpectRule(
      "address_overlap", "repeat 1 reads src",
      [](LocalTensor<float> x) {
        Adds(x, x, 1.0f, 64, 2, {1, 1, 4, 4});
      },
      [](LocalTensor<float> x) {
        Adds(x, x, 1.0f, 64, 2, {1, 1, 8, 8});
      });
  // The documented exception: dst onto src1 with src1RepStride or dstRepStride 0 (Add, ...) but
  // not for Div.
  ExpectRule(
      "address_overlap", "Div",
      [](LocalTensor<float> x) {
        Div(x, x[256], x, 64, 4, {1, 1, 1, 0, 8, 0});
      },
      [](LocalTensor<float> x) {
        Mul(x, x[256], x, 64, 4, {1, 1, 1, 0, 8, 0});
      });
}

TEST(VectorRepeatChecks, CastRoundModeOutsideTheTable) {
  ExpectRule(
      "cast_round_mode", "float->int32_t",
      [](LocalTensor<float> x) {
        Cast(x[1024].ReinterpretCast<int32_t>(), x, RoundMode::CAST_NONE, 64, 1, {1, 1, 8, 8});
      },
      [](LocalTensor<float> x) {
        Cast(x[1024].ReinterpretCast<int32_t>(), x, RoundMode::CAST_TRUNC, 64, 1, {1, 1, 8, 8});
      });
}

TEST(VectorRepeatChecks, UncheckedModeStillStaysInsideTheUb) {
  CheckedModeScope off(false);
  const std::string m = ErrorOf([](LocalTensor<float> x) {
    Adds(x, x, 1.0f, 64, 255, {1, 1, 255, 255});  // 255 repeats of 8 KB: far past the UB
  });
  EXPECT_EQ(m.rfind("ub_bounds", 0), 0u) << m;
  // Past the tensor but inside the UB: runs, like the device.
  EXPECT_EQ(ErrorOf([](LocalTensor<float> x) { Adds(x, x, 1.0f, 64, 80, {1, 1, 8, 8}); }), "");
}

}  // namespace
