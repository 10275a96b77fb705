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
// size, by repeat) changes no element's arithmetic, so it is not replayed; the scratch itself is
// checked, not modelled (its contents after a call are not promised).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include "lib/math/math_common.h"

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
  Hf(double d) : v(static_cast<float>(half(d))) {}
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

// x / (1 + e^(s * x)) in C: Muls, Exp, Adds 1, Div (Swish, Silu, SwiGLU's swish, FasterGelu
// with Div).
template <typename C>
C SwishSteps(C x, C s) {
  using A = Ar<C>;
  return A::Div(x, A::Adds(A::Exp(A::Muls(x, s)), C(1.0f)));
}

}  // namespace lngrad::aicore::eltwise_detail
