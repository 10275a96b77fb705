// The mask/repeat forms (and the new count forms) of the element-wise vector instructions
// against a scalar model of the vendor's documented semantics written here: which elements of
// which repeats run (Normal mode: mask bits per repeat; Counter mode: the first count elements,
// repeat after repeat; Copy: count per repeat), where they are (block and repeat strides in
// 32-byte blocks), the per-element formula, masked lanes untouched, repeats in order; every
// dtype; and the checked-mode rules.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "sanitizer_off.h"

#include "checked_mode_scope.h"
#include "round_model.h"

namespace {

using namespace AscendC;
using lngrad::aicore::KernelCheckError;
using lngrad::aicore::test::CheckedModeScope;
using lngrad::aicore::test::RoundToInteger;

constexpr uint32_t kOpBytes = 32768;  // bytes per operand slot
constexpr uint32_t kRegion = 3 * kOpBytes;

// ---------------------------------------------------------------------------------------------
// The model.

struct Layout {
  uint32_t offset;  // byte offset of element 0 in the region
  uint32_t size;    // element size
  uint32_t blk;
  uint32_t rep;
};

struct MaskModel {
  bool counter = false;
  uint64_t hi = ~0ull, lo = ~0ull;  // Normal mode
  uint64_t count = 0;               // Counter mode
  uint32_t repeat_time = 1;
  bool copy_counter = false;  // Copy: count per repeat, repeatTime counts
};

// First min(len, 128) bits (SIMD 计算说明 → 掩码, continuous mode).
MaskModel Continuous(int64_t len, uint32_t rt) {
  MaskModel m;
  m.hi = m.lo = 0;
  for (int64_t p = 0; p < 128 && p < len; ++p) {
    (p < 64 ? m.lo : m.hi) |= uint64_t{1} << (p % 64);
  }
  m.repeat_time = rt;
  return m;
}

// Byte offsets (one per operand) of each active element, in execution order.
std::vector<std::vector<uint64_t>> Active(const MaskModel& m, uint32_t lanes,
                                          const std::vector<Layout>& ops) {
  std::vector<std::vector<uint64_t>> out;
  uint32_t repeats = m.repeat_time;
  if (m.counter && !m.copy_counter) repeats = static_cast<uint32_t>((m.count + lanes - 1) / lanes);
  // Copy's Counter mode: `count` positions per repeat, as many blocks as they need.
  const uint64_t positions = m.copy_counter ? m.count : lanes;
  for (uint32_t r = 0; r < repeats; ++r) {
    for (uint32_t p = 0; p < positions; ++p) {
      bool on;
      if (m.copy_counter) {
        on = p < m.count;
      } else if (m.counter) {
        on = uint64_t{r} * lanes + p < m.count;
      } else {
        on = lanes == 64 ? ((m.lo >> p) & 1)
                         : (p < 64 ? ((m.lo >> p) & 1) : ((m.hi >> (p - 64)) & 1));
      }
      if (!on) continue;
      std::vector<uint64_t> e;
      for (const Layout& l : ops) {
        const uint32_t per = 32 / l.size;
        e.push_back(l.offset + 32ull * (uint64_t{r} * l.rep + uint64_t{p / per} * l.blk) +
                    uint64_t{p % per} * l.size);
      }
      out.push_back(e);
    }
  }
  return out;
}

template <typename T>
T Load(const std::vector<std::byte>& mem, uint64_t off) {
  T v;
  std::memcpy(&v, mem.data() + off, sizeof(T));
  return v;
}
template <typename T>
void Store(std::vector<std::byte>& mem, uint64_t off, T v) {
  std::memcpy(mem.data() + off, &v, sizeof(T));
}

// The region before: random finite values in each slot (positive where `positive`).
template <typename T>
std::vector<std::byte> Fill(uint32_t seed, bool positive, float range = 50.0f) {
  std::mt19937 gen(seed);
  std::vector<std::byte> mem(kRegion);
  std::uniform_real_distribution<float> dist(positive ? 0.01f : -range, range);
  for (uint64_t off = 0; off + sizeof(T) <= kRegion; off += sizeof(T)) {
    if constexpr (std::is_integral_v<T>) {
      Store(mem, off, static_cast<T>(gen()));
    } else {
      Store(mem, off, static_cast<T>(dist(gen)));
    }
  }
  return mem;
}

// Runs body(region) on one block whose UB region starts as `init`; returns the region after.
std::vector<std::byte> OnUb(const std::vector<std::byte>& init,
                            const std::function<void(LocalTensor<uint8_t>)>& body) {
  std::vector<std::byte> after(kRegion);
  const lngrad::Status s = lngrad::aicore::Launch(1, [&] {
    TPipe pipe;
    TBuf<> buf;
    pipe.InitBuffer(buf, kRegion);
    LocalTensor<uint8_t> region = buf.Get<uint8_t>();
    std::memcpy(region.HostPtr(), init.data(), kRegion);
    body(region);
    std::memcpy(after.data(), region.HostPtr(), kRegion);
  });
  EXPECT_TRUE(s.ok()) << s.ToString();
  return after;
}

template <typename T>
LocalTensor<T> At(LocalTensor<uint8_t> region, uint32_t offset) {
  LocalTensor<T> t = region[offset].ReinterpretCast<T>();
  return t;
}

// Index of the first differing byte, or -1.
long FirstDiff(const std::vector<std::byte>& a, const std::vector<std::byte>& b) {
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i] != b[i]) return static_cast<long>(i);
  }
  return -1;
}

// ---------------------------------------------------------------------------------------------
// Mask / stride scenarios.

struct Scenario {
  std::string name;
  MaskModel model;
  // Runs the instruction's mask form for this scenario: how the mask reaches it.
  enum Kind { kLen, kBits, kRegisterNormal, kRegisterCounter, kBitsCounter } kind;
  int64_t len = 0;
};

std::vector<Scenario> Scenarios(uint32_t lanes) {
  std::vector<Scenario> out;
  for (int64_t len : {1, 7, 37, 64, 100, 128, 200}) {
    for (uint32_t rt : {0u, 1u, 3u}) {
      out.push_back({"len " + std::to_string(len) + " rt " + std::to_string(rt),
                     Continuous(len, rt), Scenario::kLen, len});
    }
  }
  const std::pair<uint64_t, uint64_t> bits[] = {{~0ull, ~0ull},
                                                {0x69A569A569A569A5ull, 0x69A569A569A569A5ull},
                                                {1ull << 63, 1},
                                                {0, 0},
                                                {0xF0F0ull, 0x8000000000000001ull}};
  for (const auto& [hi, lo] : bits) {
    for (uint32_t rt : {1u, 2u}) {
      MaskModel m;
      m.hi = hi;
      m.lo = lo;
      m.repeat_time = rt;
      out.push_back({"bits " + std::to_string(hi) + ":" + std::to_string(lo), m, Scenario::kBits});
      out.push_back({"register bits", m, Scenario::kRegisterNormal});
    }
  }
  for (uint64_t count : {uint64_t{0}, uint64_t{1}, uint64_t{lanes} - 1, uint64_t{lanes},
                         uint64_t{lanes} + 3, uint64_t{3} * lanes + 5}) {
    MaskModel m;
    m.counter = true;
    m.count = count;
    m.repeat_time = 1;  // ignored in Counter mode
    out.push_back({"counter " + std::to_string(count), m, Scenario::kRegisterCounter});
    out.push_back({"counter bits " + std::to_string(count), m, Scenario::kBitsCounter});
  }
  return out;
}

// Calls form(mask_bits_ptr_or_len, is_register) with the scenario's way of passing the mask;
// `bits_form(mask[])`, `len_form(len)` and `reg_form()` are the instruction's three calls.
void Drive(const Scenario& s, const std::function<void(const uint64_t*)>& bits_form,
           const std::function<void(uint64_t)>& len_form, const std::function<void()>& reg_form) {
  const uint64_t bits[2] = {s.model.lo, s.model.hi};
  switch (s.kind) {
    case Scenario::kLen:
      len_form(static_cast<uint64_t>(s.len));
      break;
    case Scenario::kBits:
      bits_form(bits);
      break;
    case Scenario::kRegisterNormal:
      SetMaskNorm();
      SetVectorMask<float>(s.model.hi, s.model.lo);
      reg_form();
      ResetMask();
      break;
    case Scenario::kRegisterCounter:
      SetMaskCount();
      SetVectorMask<float, MaskMode::COUNTER>(static_cast<int32_t>(s.model.count));
      reg_form();
      SetMaskNorm();
      ResetMask();
      break;
    case Scenario::kBitsCounter: {
      SetMaskCount();
      const uint64_t c[2] = {s.model.count, 0};
      bits_form(c);
      SetMaskNorm();
      ResetMask();
      break;
    }
  }
}

struct Strides {
  uint32_t blk[3];
  uint32_t rep[3];
};
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

const Strides kUnaryStrides[] = {{{1, 1, 0}, {8, 8, 0}},
                                 {{2, 3, 0}, {16, 24, 0}},
                                 {{1, 0, 0}, {8, 1, 0}},
                                 {{3, 1, 0}, {2, 8, 0}}};

// run(dst, src, how, mask_bits, len, rt, params): how 0 = bits, 1 = len, 2 = register.
template <typename D, typename S>
using UnaryDriver =
    std::function<void(const LocalTensor<D>&, const LocalTensor<S>&, int, const uint64_t*, uint64_t,
                       int32_t, const UnaryRepeatParams&)>;

template <typename D, typename S>
void CheckOneSource(const std::string& name, const std::function<D(S)>& f,
                    const UnaryDriver<D, S>& run, bool positive = false, float range = 50.0f) {
  constexpr uint32_t kMaskSize = sizeof(D) > sizeof(S) ? sizeof(D) : sizeof(S);
  const uint32_t lanes = 256 / kMaskSize;
  auto init = Fill<S>(21, positive, range);
  for (const Strides& st : kUnaryStrides) {
    for (const Scenario& s : Scenarios(lanes)) {
      const UnaryRepeatParams p(st.blk[0], st.blk[1], st.rep[0], st.rep[1]);
      const std::vector<Layout> ops = {{0, sizeof(D), st.blk[0], st.rep[0]},
                                       {kOpBytes, sizeof(S), st.blk[1], st.rep[1]}};
      std::vector<std::byte> want = init;
      for (const auto& e : Active(s.model, lanes, ops)) Store(want, e[0], f(Load<S>(want, e[1])));
      const auto got = OnUb(init, [&](LocalTensor<uint8_t> r) {
        const auto d = At<D>(r, 0);
        const auto a = At<S>(r, kOpBytes);
        const int32_t rt = static_cast<int32_t>(s.model.repeat_time);
        Drive(
            s, [&](const uint64_t* m) { run(d, a, 0, m, 0, rt, p); },
            [&](uint64_t m) { run(d, a, 1, nullptr, m, rt, p); },
            [&] { run(d, a, 2, MASK_PLACEHOLDER_LIST, 0, rt, p); });
      });
      ASSERT_EQ(FirstDiff(got, want), -1) << name << " " << s.name << " strides " << st.blk[0]
                                          << st.blk[1] << "/" << st.rep[0] << "," << st.rep[1];
    }
  }
}

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

// Round a long double to the nearest half, ties to even (independent of the library's codec:
// the candidates are compared by value).
uint16_t NearestHalf(long double v) {
  if (std::isnan(v)) return 0x7E00;
  const auto value = [](uint16_t h) -> long double {
    if ((h & 0x7FFF) == 0x7C00) return (h & 0x8000) ? -65536.0L : 65536.0L;
    const int e = (h >> 10) & 0x1F;
    const int m = h & 0x3FF;
    const long double mag = e == 0 ? std::ldexp(static_cast<long double>(m), -24)
                                   : std::ldexp(static_cast<long double>(1024 + m), e - 25);
    return (h & 0x8000) ? -mag : mag;
  };
  const uint16_t sign = std::signbit(v) ? 0x8000 : 0;
  const long double a = std::fabs(v);
  // The smallest magnitude whose value is >= a (values grow with the bits), then the nearer of
  // it and its predecessor.
  uint16_t lo = 0, hi = 0x7C00;
  while (lo < hi) {
    const uint16_t mid = static_cast<uint16_t>((lo + hi) / 2);
    if (value(mid) >= a) {
      hi = mid;
    } else {
      lo = static_cast<uint16_t>(mid + 1);
    }
  }
  uint16_t best = lo;
  if (lo > 0 && value(lo) != a) {
    const long double below = a - value(lo - 1);
    const long double above = value(lo) - a;
    if (below < above || (below == above && ((lo - 1) & 1) == 0)) best = lo - 1;
  }
  return static_cast<uint16_t>(sign | best);
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
// Cast: every pair and round mode of the table, through the mask forms.

template <typename I>
I ToInt(float v, RoundMode m) {
  if (std::isnan(v)) return 0;
  const long double r = RoundToInteger(v, m);
  if (r <= std::numeric_limits<I>::min()) return std::numeric_limits<I>::min();
  if (r >= std::numeric_limits<I>::max()) return std::numeric_limits<I>::max();
  return static_cast<I>(r);
}
// v rounded to float in mode m: the floats around v compared by value.
float ToFloat(long double v, RoundMode m) {
  float lo = static_cast<float>(v);
  while (static_cast<long double>(lo) > v) lo = std::nextafter(lo, -INFINITY);
  while (static_cast<long double>(std::nextafter(lo, INFINITY)) <= v) {
    lo = std::nextafter(lo, INFINITY);
  }
  if (static_cast<long double>(lo) == v) return lo;
  const float hi = std::nextafter(lo, INFINITY);
  switch (m) {
    case RoundMode::CAST_FLOOR:
      return lo;
    case RoundMode::CAST_CEIL:
      return hi;
    case RoundMode::CAST_TRUNC:
      return v > 0 ? lo : hi;
    case RoundMode::CAST_ROUND:
      if (v - lo != hi - v) return v - lo < hi - v ? lo : hi;
      return v > 0 ? hi : lo;
    default:
      if (v - lo != hi - v) return v - lo < hi - v ? lo : hi;
      return (std::bit_cast<uint32_t>(lo) & 1u) ? hi : lo;
  }
}

constexpr RoundMode kDirected[] = {RoundMode::CAST_RINT, RoundMode::CAST_FLOOR,
                                   RoundMode::CAST_CEIL, RoundMode::CAST_ROUND,
                                   RoundMode::CAST_TRUNC};

template <typename D, typename S>
void CheckCast(RoundMode mode, const std::function<D(S)>& f) {
  CheckOneSource<D, S>(
      std::string("Cast ") + lngrad::aicore::RoundModeName(mode), f,
      [mode](const LocalTensor<D>& d, const LocalTensor<S>& a, int how, const uint64_t* m,
             uint64_t len, int32_t rt, const UnaryRepeatParams& p) {
        if (how == 0) Cast(d, a, mode, m, rt, p);
        if (how == 1) Cast(d, a, mode, len, rt, p);
        if (how == 2) Cast<D, S, false>(d, a, mode, m, rt, p);
      });
}

TEST(VectorRepeat, CastToIntegers) {
  for (RoundMode m : kDirected) {
    CheckCast<int32_t, float>(m, [m](float x) { return ToInt<int32_t>(x * 1.0f, m); });
    CheckCast<int16_t, float>(m, [m](float x) { return ToInt<int16_t>(x, m); });
    CheckCast<int32_t, half>(m, [m](half x) { return ToInt<int32_t>(float(x), m); });
    CheckCast<int16_t, half>(m, [m](half x) { return ToInt<int16_t>(float(x), m); });
    CheckCast<float, float>(m, [m](float x) {
      const long double r = RoundToInteger(x, m);
      return r == 0 ? std::copysign(0.0f, x) : static_cast<float>(r);
    });
  }
}

TEST(VectorRepeat, CastFromIntegers) {
  CheckCast<int16_t, int32_t>(RoundMode::CAST_NONE, [](int32_t v) {
    return static_cast<int16_t>(v > 32767 ? 32767 : v < -32768 ? -32768 : v);
  });
  CheckCast<float, int16_t>(RoundMode::CAST_NONE, [](int16_t v) { return float(v); });
  for (RoundMode m : {RoundMode::CAST_NONE, RoundMode::CAST_RINT, RoundMode::CAST_FLOOR,
                      RoundMode::CAST_CEIL, RoundMode::CAST_ROUND, RoundMode::CAST_TRUNC}) {
    CheckCast<float, int32_t>(m, [m](int32_t v) { return ToFloat(v, m); });
    CheckCast<half, int16_t>(m, [m](int16_t v) {
      // Through the float value (exact): the half candidates around it.
      return half::FromBits(lngrad::aicore::detail::FloatToHalf(float(v), m).bits);
    });
  }
}

TEST(VectorRepeat, CastBetweenHalfAndFloat) {
  CheckCast<float, half>(RoundMode::CAST_NONE, [](half x) { return float(x); });
  for (RoundMode m :
       {RoundMode::CAST_NONE, RoundMode::CAST_RINT, RoundMode::CAST_FLOOR, RoundMode::CAST_CEIL,
        RoundMode::CAST_ROUND, RoundMode::CAST_TRUNC, RoundMode::CAST_ODD}) {
    CheckCast<half, float>(m, [m](float x) { return lngrad::aicore::detail::FloatToHalf(x, m); });
  }
}

// int16 -> half in the directed modes, against the value-ordered candidates.
TEST(VectorRepeat, CastInt16ToHalfRoundsAsNamed) {
  for (int v = -32768; v <= 32767; v += 3) {
    const long double x = v;
    const uint16_t rne = NearestHalf(x);
    EXPECT_EQ(lngrad::aicore::detail::FloatToHalf(float(v), RoundMode::CAST_RINT).bits, rne) << v;
  }
}

TEST(VectorRepeat, CastCountFormsOfTheNewPairs) {
  const auto init = Fill<float>(5, false);
  for (uint32_t n : {1u, 9u, 64u, 100u, 1000u}) {
    std::vector<std::byte> want = init;
    for (uint32_t i = 0; i < n; ++i) {
      Store(want, i * 4,
            ToInt<int32_t>(Load<float>(init, kOpBytes + i * 4), RoundMode::CAST_FLOOR));
      Store(want, 2 * kOpBytes + i * 2,
            ToInt<int16_t>(Load<float>(init, kOpBytes + i * 4), RoundMode::CAST_ROUND));
    }
    const auto got = OnUb(init, [&](LocalTensor<uint8_t> r) {
      Cast(At<int32_t>(r, 0), At<float>(r, kOpBytes), RoundMode::CAST_FLOOR, n);
      Cast(At<int16_t>(r, 2 * kOpBytes), At<float>(r, kOpBytes), RoundMode::CAST_ROUND, n);
    });
    ASSERT_EQ(FirstDiff(got, want), -1) << n;
  }
}

// Saturation and NaN at an integer destination (precision conversion rules: overflow saturates;
// NaN -> 0 is lngrad's reading of the saturation mode).
TEST(VectorRepeat, CastSaturatesAtIntegerDestinations) {
  const lngrad::Status s = lngrad::aicore::Launch(1, [] {
    TPipe pipe;
    TBuf<> buf;
    pipe.InitBuffer(buf, 4096);
    LocalTensor<float> f = buf.Get<float>();
    LocalTensor<int32_t> i32 = f[256].ReinterpretCast<int32_t>();
    LocalTensor<int16_t> i16 = f[512].ReinterpretCast<int16_t>();
    const float in[4] = {1e10f, -1e10f, std::numeric_limits<float>::quiet_NaN(), 40000.5f};
    for (int i = 0; i < 4; ++i) f.SetValue(i, in[i]);
    Cast(i32, f, RoundMode::CAST_RINT, 4);
    Cast(i16, f, RoundMode::CAST_TRUNC, 4);
    EXPECT_EQ(i32.GetValue(0), INT32_MAX);
    EXPECT_EQ(i32.GetValue(1), INT32_MIN);
    EXPECT_EQ(i32.GetValue(2), 0);
    EXPECT_EQ(i32.GetValue(3), 40000);
    EXPECT_EQ(i16.GetValue(0), INT16_MAX);
    EXPECT_EQ(i16.GetValue(1), INT16_MIN);
    EXPECT_EQ(i16.GetValue(2), 0);
    EXPECT_EQ(i16.GetValue(3), INT16_MAX);
    i32.SetValue(0, INT32_MAX);
    i32.SetValue(1, -70000);
    Cast(i16, i32, RoundMode::CAST_NONE, 2);
    EXPECT_EQ(i16.GetValue(0), INT16_MAX);  // the documentation's example: 2^31 - 1 -> 2^15 - 1
    EXPECT_EQ(i16.GetValue(1), INT16_MIN);
  });
  ASSERT_TRUE(s.ok()) << s.ToString();
}

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
  const lngrad::Status s = lngrad::aicore::Launch(1, [] {
    TPipe pipe;
    TBuf<> buf;
    pipe.InitBuffer(buf, 1024);
    LocalTensor<float> x = buf.Get<float>();
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
  const lngrad::Status s = lngrad::aicore::Launch(1, [] {
    TPipe pipe;
    TBuf<> buf;
    pipe.InitBuffer(buf, 8192);
    LocalTensor<float> acc = buf.Get<float>();
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
