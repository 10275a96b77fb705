// lngrad: what the element-wise activation APIs (Gelu, FasterGelu, FasterGeluV2, GeGLU, ReGlu,
// SwiGLU, Swish, Silu, Sigmoid; lib/activation/*.h) share: the basic instructions they are
// built from, as one element's arithmetic, and the running arch.
//
// Each API is the vendor's instruction sequence (impl/adv_api/detail/activation/...), replayed
// element by element: every step is one instruction, so one IEEE binary32 operation rounded to
// the compute type C (float, or half where the device keeps half in its registers and UB),
// with the same choices as the basic instructions (lngrad_aicore/instructions.h): Exp computed
// in double and rounded once to C; Div and Reciprocal correctly rounded; Mins/Maxs return the
// scalar when the element is NaN; no FMA. The chunking of the device loops (by the scratch
// size, by repeat) changes no element's arithmetic; on 2201/2002 the scratch (sharedTmpBuffer or
// the stack buffer) is left as those loops leave it (ChunkScratch below: the chunk length, the
// temp tensors' offsets, the last full chunk's and the tail's values; math_scratch.h), its other
// bytes untouched.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include "lib/math/math_common.h"
#include "lib/math/math_scratch.h"

namespace lngrad::aicore::eltwise_detail {

// One instruction's arithmetic on compute type C (float, half or bfloat16_t): the operands
// widened exactly to float, one float operation, rounded to C.
template <typename C>
struct Ar {
  static C Add(C a, C b) { return C(static_cast<float>(a) + static_cast<float>(b)); }
  static C Mul(C a, C b) { return C(static_cast<float>(a) * static_cast<float>(b)); }
  static C Div(C a, C b) { return C(static_cast<float>(a) / static_cast<float>(b)); }
  static C Adds(C a, C s) { return Add(a, s); }
  static C Muls(C a, C s) { return Mul(a, s); }
  static C Rec(C a) { return C(1.0f / static_cast<float>(a)); }
  static C Abs(C a) { return C(std::fabs(static_cast<float>(a))); }
  // a < s ? a : s and a > s ? a : s: a NaN element gives the scalar (the instructions' rule).
  static C Mins(C a, C s) { return static_cast<float>(a) < static_cast<float>(s) ? a : s; }
  static C Maxs(C a, C s) { return static_cast<float>(a) > static_cast<float>(s) ? a : s; }
  // e^a in double, rounded once to C (half: a single rounding, through half(double)).
  static C Exp(C a) { return C(std::exp(static_cast<double>(static_cast<float>(a)))); }
};

// A half value kept as the float it equals: what the half sequences carry from step to step.
// Hf(f) rounds a float to half precision (RNE, subnormals, overflow to inf, NaN kept) without
// packing it into 16 bits, so a chain of half steps converts to half only once, at the end;
// each step still rounds exactly as half(f) does. Hf(d) rounds a double once (Exp, constants).
struct Hf {
  float v;
  Hf() = default;
  Hf(float f) : v(Round(f)) {}  // NOLINT(google-explicit-constructor): the C(x) of Ar
  Hf(double d) : v(RoundDouble(d)) {}
  operator float() const { return v; }  // NOLINT(google-explicit-constructor)

  static float Round(float f) {
    uint32_t bits;
    std::memcpy(&bits, &f, sizeof bits);
    const uint32_t abs = bits & 0x7FFFFFFFu;
    if (abs >= 0x7F800000u) return f;                           // inf, NaN
    if (abs >= 0x477FF000u) return std::copysign(INFINITY, f);  // rounds to >= 65520
    if (abs >= 0x38800000u) {                                   // normal half range
      bits = (bits + 0xFFFu + ((bits >> 13) & 1u)) & ~0x1FFFu;  // RNE to 10 fraction bits
      std::memcpy(&f, &bits, sizeof f);
      return f;
    }
    // Subnormal half range: multiples of 2^-24; the ulp of [0.5, 1) is 2^-24, so adding and
    // removing 0.75 rounds |f| to nearest even there (the subtraction is exact).
    return std::copysign((std::fabs(f) + 0.75f) - 0.75f, f);
  }
  // float(half(d)): d rounded to float to odd (truncated, the last bit set when inexact: float
  // has more than 11 + 2 bits, so rounding that to half is d's one rounding), then Round, whose
  // result is float(half(x)) for every x but NaN, which half quiets (top payload bits kept).
  static float RoundDouble(double d) {
    const uint32_t odd = OddBits(d);
    if ((odd & 0x7FFFFFFFu) > 0x7F800000u) return FloatOf((odd | 0x00400000u) & 0xFFFFE000u);
    return Round(FloatOf(odd));
  }
  // Round and RoundDouble without branches on the data, for HfV's lanes, which meet subnormals,
  // zeros and overflow unpredictably: |f| plus 2^(e+13), e its exponent clamped to [-14, 16],
  // rounds |f| to a multiple of 2^(e-10), half's ulp there (the float addition rounds to
  // nearest even, the subtraction is exact); below 2^-14 the multiples of 2^-24 are half's
  // subnormals; a result above 65504 is an overflow (|f| >= 65520). The same bits as Round
  // (every float, NaN unchanged) and RoundDouble.
  static float RoundFlat(float f) {
    const uint32_t bits = BitsOf(f);
    const uint32_t abs = bits & 0x7FFFFFFFu;
    const uint32_t e = std::min(std::max(abs & 0x7F800000u, 0x38800000u), 0x47800000u);
    const float m = FloatOf(e + (13u << 23));
    float r = (FloatOf(abs) + m) - m;
    r = r > 65504.0f ? INFINITY : r;
    const uint32_t out = BitsOf(r) | (bits & 0x80000000u);
    return FloatOf(abs >= 0x7F800000u ? bits : out);
  }
  static float RoundDoubleFlat(double d) {
    const uint32_t odd = OddBits(d);
    const float nan = FloatOf((odd | 0x00400000u) & 0xFFFFE000u);
    const float r = RoundFlat(FloatOf(odd));
    return (odd & 0x7FFFFFFFu) > 0x7F800000u ? nan : r;
  }

 private:
  // d rounded to float to odd, as bits.
  static uint32_t OddBits(double d) {
    const float f = static_cast<float>(d);
    const uint32_t b = BitsOf(f);
    const double back = static_cast<double>(f);
    const bool inexact = (b & 0x7F800000u) != 0x7F800000u && back != d;
    const uint32_t toward_zero = b - (std::fabs(back) > std::fabs(d) ? 1u : 0u);
    return inexact ? (toward_zero | 1u) : b;
  }
  static uint32_t BitsOf(float f) {
    uint32_t b;
    std::memcpy(&b, &f, sizeof b);
    return b;
  }
  static float FloatOf(uint32_t b) {
    float f;
    std::memcpy(&f, &b, sizeof f);
    return f;
  }
};

// kHfLanes half values of independent elements, each rounded exactly as Hf rounds it (RoundFlat:
// the same bits without branches): a step sequence written for Hf runs on HfV unchanged (Ar<HfV>
// below), several elements at once, so the processor overlaps their dependency chains.
inline constexpr int kHfLanes = 8;
struct HfV {
  float v[kHfLanes];
  HfV() = default;
  HfV(float f) {  // NOLINT(google-explicit-constructor): the C(x) of Ar, one value in every lane
    const float r = Hf::RoundFlat(f);
    for (float& x : v) x = r;
  }
  HfV(double d) {  // NOLINT(google-explicit-constructor)
    const float r = Hf::RoundDoubleFlat(d);
    for (float& x : v) x = r;
  }
  template <typename F>
  static HfV Map(const HfV& a, F f) {
    HfV r;
    for (int k = 0; k < kHfLanes; ++k) r.v[k] = f(a.v[k]);
    return r;
  }
  template <typename F>
  static HfV Map(const HfV& a, const HfV& b, F f) {
    HfV r;
    for (int k = 0; k < kHfLanes; ++k) r.v[k] = f(a.v[k], b.v[k]);
    return r;
  }
};

// Ar<Hf> lane by lane.
template <>
struct Ar<HfV> {
  using V = HfV;
  static V Add(const V& a, const V& b) {
    return V::Map(a, b, [](float x, float y) { return Hf::RoundFlat(x + y); });
  }
  static V Mul(const V& a, const V& b) {
    return V::Map(a, b, [](float x, float y) { return Hf::RoundFlat(x * y); });
  }
  static V Div(const V& a, const V& b) {
    return V::Map(a, b, [](float x, float y) { return Hf::RoundFlat(x / y); });
  }
  static V Adds(const V& a, const V& s) { return Add(a, s); }
  static V Muls(const V& a, const V& s) { return Mul(a, s); }
  static V Rec(const V& a) {
    return V::Map(a, [](float x) { return Hf::RoundFlat(1.0f / x); });
  }
  static V Abs(const V& a) {
    return V::Map(a, [](float x) { return Hf::RoundFlat(std::fabs(x)); });
  }
  static V Mins(const V& a, const V& s) {
    return V::Map(a, s, [](float x, float y) { return x < y ? x : y; });
  }
  static V Maxs(const V& a, const V& s) {
    return V::Map(a, s, [](float x, float y) { return x > y ? x : y; });
  }
  static V Exp(const V& a) {
    return V::Map(a, [](float x) { return Hf::RoundDoubleFlat(std::exp(static_cast<double>(x))); });
  }
};

// The element function of a half sequence for UnaryPass: dst = T(step(C(src))) per element,
// and (C = Hf) Batch, the same on kHfLanes elements at a time through HfV, where dst and src
// are identical or disjoint (a partial overlap runs element by element, in increasing order).
template <typename T, typename C, typename Step>
struct StepFn {
  Step step;
  T operator()(T v) const { return T(static_cast<float>(step(C(static_cast<float>(v))))); }
  uint64_t Batch(T* out, const T* in, uint64_t n) const {
    if constexpr (!std::is_same_v<C, Hf>) {
      return 0;
    } else {
      const auto o = reinterpret_cast<uintptr_t>(out), i = reinterpret_cast<uintptr_t>(in);
      if (o != i && o < i + n * sizeof(T) && i < o + n * sizeof(T)) return 0;
      uint64_t done = 0;
      for (; done + kHfLanes <= n; done += kHfLanes) {
        HfV x;
        for (int k = 0; k < kHfLanes; ++k) x.v[k] = Hf(static_cast<float>(in[done + k])).v;
        const HfV r = step(x);
        for (int k = 0; k < kHfLanes; ++k) out[done + k] = T(r.v[k]);
      }
      return done;
    }
  }
};

// The compute type of a sequence that runs in T: Hf for half, T otherwise.
template <typename T>
using StepType = std::conditional_t<std::is_same_v<T, half>, Hf, T>;

// True when the running block is arch 3510 (the 950's register-based sequences).
inline bool On3510() { return detail::rep::RunningArch() == NpuArch::k3510; }

// Checked mode: bfloat16_t data exists on Atlas A2/A3 and the 950 only (arch 2201, 3510), not
// on Atlas inference AI Core (arch 2002).
inline void CheckBf16Product(const char* api) {
  if (!CheckedMode() || detail::rep::RunningArch() != NpuArch::k2002) return;
  RaiseKernelCheck(checks::kProduct,
                   std::string(api) +
                       ": bfloat16_t is not supported on arch 2002 (Atlas inference "
                       "AI Core takes half and float)");
}

// The scratch of the overloads without sharedTmpBuffer: the stack buffer on 2201/2002
// (PopStackBuffer, as the vendor's sequences take it), none on 3510, whose register sequences
// take no scratch and pop no stack buffer.
inline AscendC::LocalTensor<uint8_t> FrameworkTmp() {
  if (On3510()) return {};
  return math_detail::StackTmp();
}

using math_detail::kHalfOrFloat;

using math_detail::ChunkScratch;
using math_detail::MakeChunkScratch;

// x / (1 + e^(s * x)) in C: Muls, Exp, Adds 1, Div (Swish, Silu, SwiGLU's swish, FasterGelu
// with Div).
template <typename C>
C SwishSteps(C x, C s) {
  using A = Ar<C>;
  return A::Div(x, A::Adds(A::Exp(A::Muls(x, s)), C(1.0f)));
}

}  // namespace lngrad::aicore::eltwise_detail
