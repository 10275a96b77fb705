// lngrad: the Ascend C high-level APIs Cosh, Sinh, Asinh and Atanh (the vendor's
// adv_api/math/{cosh,sinh,asinh,atanh}.h), half and float.
//
// The results are the device's sequences on arch 2201 (<api>_common_impl.h), per element in
// float (half widened exactly, the result rounded to half: CAST_ROUND for Cosh on 2201,
// CAST_NONE on 2002 and for the others), each step one instruction (math_steps.h; ln2 = the float
// nearest 0.693147...):
//   Cosh:  e = Exp(x + (-ln2)); r = e + 0.25 / e (its scratch on 2201/2002 left as the kit's
//          rounds leave it: e, 0.25 / e, and for half r);
//   Sinh:  a = Exp(x * -1 + (-ln2)); b = Exp(x + (-ln2)); r = b - a (its scratch on 2201/2002
//          left as the kit's rounds leave it: a, and for half the float r after it);
//   Asinh: a = |x|; s = Ln(Sqrt(a * a + 1) + a); sign = (x * 2^62) / (|x * 2^62| + 2^-62);
//          r = s * sign (so |x| beyond ~7.4e19 gives inf / inf = NaN, as on the device);
//   Atanh: r = Ln((x + 1) / (x * -1 + 1)) * 0.5.
// Arch 3510 (the register code, <api>_3510_impl.h; half widened, rounded back CAST_RINT):
//   Cosh: the same steps, half rounded to nearest even; Sinh: e = Exp(x + (-ln2)),
//   r = e - 0.25 / e; Asinh: s as above (x * x for |x| * |x|, the same value), r = -s where
//   x < 0, else s (Muls by -1 under the sign mask, then Or with s: no 2^62 division, so -0 gives
//   +0 and huge |x| +-inf); Atanh: the same operations as 2201 (1 - x is x * -1 + 1).
// Asinh's and Atanh's scratch on 2201/2002 is left as the kit's rounds leave it
// (LeaveAsinhScratch: the sign, its denominator, Ln's result (half: times the sign);
// LeaveAtanhScratch: x + 1, half after the float result; their tails' tensors at the tail's
// length rounded up to 32).
//
// Checked mode: calCount within every operand, operands 32-byte aligned and dst disjoint from
// src, sharedTmpBuffer at least the GetXxxMaxMinTmpSize minimum on 2201/2002 (256 bytes times:
// Cosh 2 / 6, Sinh 1 / 4, Asinh 3 / 3, Atanh 1 / 4 for float / half) and disjoint from the
// operands.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "lib/math/math_scratch.h"
#include "lib/math/math_steps.h"

namespace lngrad::aicore::math_detail {

inline constexpr float kNegLn2 = -0.69314718055994530941723212145818f;

// Cosh's steps in float: e = Exp(x + (-ln2)), q = 0.25 / e (to `eq` if not null), e + q.
inline float CoshSteps(float v, std::array<float, 2>* eq = nullptr) {
  const float e = ExpF(v + kNegLn2);
  const float q = 0.25f / e;
  if (eq != nullptr) *eq = {e, q};
  return e + q;
}

// Cosh's half cast: CAST_ROUND on 2201 (cosh_v220_impl.h), CAST_NONE on 2002
// (cosh_v200_impl.h), CAST_RINT on 3510.
inline AscendC::RoundMode CoshHalfCast() {
  switch (detail::rep::RunningArch()) {
    case NpuArch::k3510:
      return AscendC::RoundMode::CAST_RINT;
    case NpuArch::k2201:
      return AscendC::RoundMode::CAST_ROUND;
    default:
      return AscendC::RoundMode::CAST_NONE;
  }
}

template <typename T>
T CoshOf(T x) {
  return Narrow<T>(CoshSteps(Widen(x)), CoshHalfCast());
}

// What Cosh leaves in its scratch on 2201/2002 (CoshImpl): calSize = bytes / sizeof(T) / (2
// float, 6 half) down to 32, float temps at k * calSize: e, 0.25 / e, and for half e + 0.25 / e.
template <typename T>
void LeaveCoshScratch(const AscendC::LocalTensor<uint8_t>& tmp, const T* in, uint64_t n,
                      SrcLoc loc) {
  constexpr bool kHalf = std::is_same_v<T, half>;
  const uint64_t cal = ChunkOf(tmp.GetSize(), kHalf ? 3 : 2, 32);
  if constexpr (kHalf) {
    LeaveChunkScratch<3>("Cosh", loc, tmp, n, cal, {0, cal, 2 * cal}, [in](uint64_t i) {
      std::array<float, 2> eq{};
      const float r = CoshSteps(Widen(in[i]), &eq);
      return std::array<float, 3>{eq[0], eq[1], r};
    });
  } else {
    LeaveChunkScratch<2>("Cosh", loc, tmp, n, cal, {0, cal}, [in](uint64_t i) {
      std::array<float, 2> eq{};
      CoshSteps(in[i], &eq);
      return eq;
    });
  }
}

// Sinh's 2201 steps in float; `a_out` (if not null) gets a = Exp(x * -1 + (-ln2)).
inline float SinhSteps(float v, float* a_out = nullptr) {
  float a = v * -1.0f;
  a = ExpF(a + kNegLn2);
  const float b = ExpF(v + kNegLn2);
  if (a_out != nullptr) *a_out = a;
  return b - a;
}

template <typename T>
T SinhOf(T x) {
  const float v = Widen(x);
  if (detail::rep::RunningArch() == NpuArch::k3510) {
    const float e = ExpF(v + kNegLn2);
    return Narrow<T>(e - 0.25f / e);
  }
  return Narrow<T>(SinhSteps(v));
}

// What Sinh leaves in its scratch on 2201/2002 (SinhImpl): splitCount = bytes / sizeof(T) / (1
// float, 4 half) down to 32; a at the start, and for half the float result b - a at
// splitCount floats.
template <typename T>
void LeaveSinhScratch(const AscendC::LocalTensor<uint8_t>& tmp, const T* in, uint64_t n,
                      SrcLoc loc) {
  if constexpr (std::is_same_v<T, half>) {
    const uint64_t split = ChunkOf(tmp.GetSize(), 2, 32);
    LeaveChunkScratch<2>("Sinh", loc, tmp, n, split, {0, split}, [in](uint64_t i) {
      float a = 0;
      const float r = SinhSteps(Widen(in[i]), &a);
      return std::array<float, 2>{a, r};
    });
  } else {
    LeaveChunkScratch<1>("Sinh", loc, tmp, n, ChunkOf(tmp.GetSize(), 1, 32), {0}, [in](uint64_t i) {
      float a = 0;
      SinhSteps(in[i], &a);
      return std::array<float, 1>{a};
    });
  }
}

// Ln(Sqrt(|v| * |v| + 1) + |v|), Asinh's value before the sign.
inline float AsinhMagnitude(float v) {
  const float a = std::fabs(v);
  float s = a * a;
  s = s + 1.0f;
  s = std::sqrt(s);
  s = s + a;
  return LnF(s);
}

template <typename T>
T AsinhOf(T x) {
  const float v = Widen(x);
  const float s = AsinhMagnitude(v);
  if (detail::rep::RunningArch() == NpuArch::k3510) return Narrow<T>(v < 0.0f ? s * -1.0f : s);
  return Narrow<T>(s * SignByDivision(v));
}

// What Asinh leaves in its scratch on 2201/2002 (AsinhImpl, AsinhCompute): splitCount = bytes /
// 4 / 3 down to 32, three float tensors at 0, L and 2 L (StridedSlots): the sign (v * 2^62) / den,
// den = |v * 2^62| + 2^-62, and the magnitude (half: times the sign, the float result).
template <typename T>
void LeaveAsinhScratch(const AscendC::LocalTensor<uint8_t>& tmp, const T* in, uint64_t n,
                       SrcLoc loc) {
  if (On3510()) return;
  MakeChunkScratch<float, 3>(tmp, n, ChunkOf(tmp.GetSize(), 3, 32), StridedSlots<3>)
      .Write("Asinh", loc, [in](uint64_t i) {
        const float v = Widen(in[i]);
        const float s = AsinhMagnitude(v);
        const float d = v * 0x1p62f;
        const float den = std::fabs(d) + 0x1p-62f;
        const float sign = d / den;
        return std::array<float, 3>{sign, den, std::is_same_v<T, half> ? s * sign : s};
      });
}

// Atanh's steps; `one_plus` (if not null) gets v + 1.
inline float AtanhSteps(float v, float* one_plus = nullptr) {
  const float num = v + 1.0f;
  float den = v * -1.0f;
  den = den + 1.0f;
  if (one_plus != nullptr) *one_plus = num;
  return LnF(num / den) * 0.5f;
}

template <typename T>
T AtanhOf(T x) {
  return Narrow<T>(AtanhSteps(Widen(x)));
}

// What Atanh leaves in its scratch on 2201/2002 (AtanhImpl, AtanhCompute): splitCount = bytes /
// sizeof(T) / (1 float, 4 half) down to 32; float: x + 1 at 0; half: the float result at 0 and
// x + 1 at L (StridedSlots).
template <typename T>
void LeaveAtanhScratch(const AscendC::LocalTensor<uint8_t>& tmp, const T* in, uint64_t n,
                       SrcLoc loc) {
  if (On3510()) return;
  if constexpr (std::is_same_v<T, half>) {
    MakeChunkScratch<float, 2>(tmp, n, ChunkOf(tmp.GetSize(), 2, 32), StridedSlots<2>)
        .Write("Atanh", loc, [in](uint64_t i) {
          float p = 0;
          const float r = AtanhSteps(Widen(in[i]), &p);
          return std::array<float, 2>{r, p};
        });
  } else {
    LeaveChunkScratch<1>("Atanh", loc, tmp, n, ChunkOf(tmp.GetSize(), 1, 32), {0},
                         [in](uint64_t i) { return std::array<float, 1>{in[i] + 1.0f}; });
  }
}

}  // namespace lngrad::aicore::math_detail

namespace AscendC {

template <typename T, bool isReuseSource = false>
void Cosh(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
          const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount,
          lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  namespace m = lngrad::aicore::math_detail;
  static_assert(m::kHalfOrFloat<T>, "Cosh: T must be half or float");
  const uint64_t tmp_min = m::TmpMinBytes(std::is_same_v<T, float> ? 2 : 6);
  m::UnaryPass<m::PassScratch::kModelled>("Cosh", m::Products::kAll, m::Overlap::kNone, dstTensor,
                                          srcTensor, &sharedTmpBuffer, tmp_min, calCount, loc,
                                          [](T x) { return m::CoshOf<T>(x); });
  if (!m::On3510()) m::LeaveCoshScratch<T>(sharedTmpBuffer, srcTensor.HostPtr(), calCount, loc);
}
LNGRAD_MATH_UNARY_FORWARDS(Cosh)
template <typename T, bool isReuseSource = false>
void Sinh(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
          const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount,
          lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  namespace m = lngrad::aicore::math_detail;
  static_assert(m::kHalfOrFloat<T>, "Sinh: T must be half or float");
  const uint64_t tmp_min = m::TmpMinBytes(std::is_same_v<T, float> ? 1 : 4);
  m::UnaryPass<m::PassScratch::kModelled>("Sinh", m::Products::kAll, m::Overlap::kNone, dstTensor,
                                          srcTensor, &sharedTmpBuffer, tmp_min, calCount, loc,
                                          [](T x) { return m::SinhOf<T>(x); });
  if (!m::On3510()) m::LeaveSinhScratch<T>(sharedTmpBuffer, srcTensor.HostPtr(), calCount, loc);
}
LNGRAD_MATH_UNARY_FORWARDS(Sinh)
LNGRAD_MATH_UNARY_API_MODELLED(Asinh, 3, 3, AsinhOf, LeaveAsinhScratch)
LNGRAD_MATH_UNARY_API_MODELLED(Atanh, 1, 4, AtanhOf, LeaveAtanhScratch)

}  // namespace AscendC
