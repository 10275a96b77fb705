// lngrad: the single steps the transcendental high-level math APIs (lib/math/exp.h, log.h,
// erf.h, acosh.h, power.h, cumsum.h) are sequences of, each what one basic vector instruction
// gives on one element in lngrad (lngrad_aicore/instructions.h, docs/ascendc_kernels.md §2):
// + - * / and Sqrt one IEEE binary32 operation (correctly rounded, no FMA); Exp and Ln computed
// in double and rounded once to the element type; Cast float -> float to an integral value in
// the named mode; half widened exactly and rounded back (to nearest even unless a mode is
// named). The APIs write their algorithm as a chain of these on one element; the element loop,
// the checks and the sanitizer record are math_common.h's.
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "lib/math/math_common.h"
#include "lib/math/rounding.h"  // FloorF, RintF: Cast<float, float>(CAST_FLOOR / CAST_RINT)
#include "lngrad_aicore/instructions.h"

namespace lngrad::aicore::math_detail {

// The Exp and Ln instructions on float: the double result rounded once to float.
inline float ExpF(float x) { return static_cast<float>(std::exp(static_cast<double>(x))); }
inline float LnF(float x) { return static_cast<float>(std::log(static_cast<double>(x))); }

// The same instructions on half elements: the double result rounded once to half.
inline half LnH(half x) {
  return half(static_cast<float>(DoubleToHalf(std::log(static_cast<double>(float(x))))));
}

// Cast<float, T>: half from float in `mode` (CAST_NONE: nearest even), float unchanged.
template <typename T>
T Narrow(float f, AscendC::RoundMode mode = AscendC::RoundMode::CAST_NONE) {
  if constexpr (std::is_same_v<T, half>) {
    if (mode == AscendC::RoundMode::CAST_NONE) return half(f);
    return half(static_cast<float>(FloatToHalf(f, mode)));
  } else {
    return f;
  }
}

// The register Cast float -> T with CAST_RINT and saturation (the 950's register code): half
// rounded to nearest even, +-inf to +-65504, NaN to +0 (vector_cast.h's saturation); float
// unchanged.
template <typename T>
T NarrowSaturated(float f) {
  if constexpr (std::is_same_v<T, half>) {
    return half(static_cast<float>(FloatToHalfSaturate(f)));
  } else {
    return f;
  }
}

// Cast<float, T>'s other direction: exact.
template <typename T>
float Widen(T x) {
  return static_cast<float>(x);
}

// (x * 2^62) / (|x * 2^62| + 2^-62): +-1, 0 at 0 (Asinh's and Atan's sign step).
inline float SignByDivision(float x) {
  const float d = x * 0x1p62f;
  float den = std::fabs(d);
  den = den + 0x1p-62f;
  return d / den;
}

// Sin's, Cos's and Tan's Cast to an integral value (SinCast, CosCast, TanCast): on 2201 (and
// 3510) Cast<float, float> in `mode`; on 2002 (<api>_v200_impl.h) Cast<int32_t, float> in
// `mode` (saturating, NaN -> 0), then back to float (to nearest even): |v| past 2^31 gives
// +-2^31, +-inf too, NaN 0.
inline float TrigIntegral(float v, AscendC::RoundMode mode) {
  if (detail::rep::RunningArch() == NpuArch::k2002) {
    return static_cast<float>(FloatToInt32(v, mode));
  }
  if (mode == AscendC::RoundMode::CAST_RINT) return RintF(v);
  if (mode == AscendC::RoundMode::CAST_FLOOR) return FloorF(v);
  return RoundToIntegral(v, mode);
}

// The device's Maxs/Mins convention (a NaN element gives the scalar).
inline float MinsF(float a, float s) { return a < s ? a : s; }
inline float MaxsF(float a, float s) { return a > s ? a : s; }

}  // namespace lngrad::aicore::math_detail

// The overload (dst, src, calCount) of a unary API <T, isReuseSource> with the stack buffer as
// its sharedTmpBuffer.
#define LNGRAD_MATH_UNARY_STACK_OVERLOAD(Name)                                            \
  template <typename T, bool isReuseSource = false>                                       \
  void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,             \
            const uint32_t calCount,                                                      \
            lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {             \
    Name<T, isReuseSource>(dstTensor, srcTensor, lngrad::aicore::math_detail::StackTmp(), \
                           calCount, loc);                                                \
  }

// The three forwarding overloads of a unary API <T, isReuseSource> whose full form is
// Name(dst, src, sharedTmpBuffer, calCount): (dst, src, sharedTmpBuffer) over src's size,
// (dst, src, calCount) with the stack buffer, (dst, src).
#define LNGRAD_MATH_UNARY_FORWARDS(Name)                                                     \
  template <typename T, bool isReuseSource = false>                                          \
  void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                \
            const LocalTensor<uint8_t>& sharedTmpBuffer,                                     \
            lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {                \
    Name<T, isReuseSource>(dstTensor, srcTensor, sharedTmpBuffer, srcTensor.GetSize(), loc); \
  }                                                                                          \
  LNGRAD_MATH_UNARY_STACK_OVERLOAD(Name)                                                     \
  template <typename T, bool isReuseSource = false>                                          \
  void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                \
            lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {                \
    Name<T, isReuseSource>(dstTensor, srcTensor, srcTensor.GetSize(), loc);                  \
  }

// A unary API <T, isReuseSource> on half and float whose result is Fn<T>(x) per element, with a
// scratch minimum of 256 * KFloat (float) or 256 * KHalf (half) bytes on 2201/2002, dst and src
// disjoint, on every product; and its forwarding overloads. After the pass, off the 950,
// Leave<T>(scratch, src, calCount, loc) writes what the device's loop leaves in the scratch
// (PassScratch::kModelled: no initcheck mark).
#define LNGRAD_MATH_UNARY_API_MODELLED(Name, KFloat, KHalf, Fn, Leave)                       \
  template <typename T, bool isReuseSource = false>                                          \
  void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                \
            const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount,            \
            lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {                \
    namespace m = lngrad::aicore::math_detail;                                               \
    static_assert(m::kHalfOrFloat<T>, #Name ": T must be half or float");                    \
    const uint64_t tmp_min = m::TmpMinBytes(std::is_same_v<T, float> ? KFloat : KHalf);      \
    m::UnaryPass<m::PassScratch::kModelled>(#Name, m::Products::kAll, m::Overlap::kNone,     \
                                            dstTensor, srcTensor, &sharedTmpBuffer, tmp_min, \
                                            calCount, loc, [](T x) { return m::Fn<T>(x); }); \
    if (!m::On3510()) m::Leave<T>(sharedTmpBuffer, srcTensor.HostPtr(), calCount, loc);      \
  }                                                                                          \
  LNGRAD_MATH_UNARY_FORWARDS(Name)

// LNGRAD_MATH_UNARY_FORWARDS for an API with a config template parameter
// <T, isReuseSource, const Config& config = Default> (Erf, Sin).
#define LNGRAD_MATH_UNARY_FORWARDS_CONFIG(Name, Config, Default)                                  \
  template <typename T, bool isReuseSource = false, const Config& config = Default>               \
  void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                     \
            const LocalTensor<uint8_t>& sharedTmpBuffer,                                          \
            lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {                     \
    Name<T, isReuseSource, config>(dstTensor, srcTensor, sharedTmpBuffer, srcTensor.GetSize(),    \
                                   loc);                                                          \
  }                                                                                               \
  template <typename T, bool isReuseSource = false, const Config& config = Default>               \
  void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                     \
            const uint32_t calCount,                                                              \
            lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {                     \
    Name<T, isReuseSource, config>(dstTensor, srcTensor, lngrad::aicore::math_detail::StackTmp(), \
                                   calCount, loc);                                                \
  }                                                                                               \
  template <typename T, bool isReuseSource = false, const Config& config = Default>               \
  void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                     \
            lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {                     \
    Name<T, isReuseSource, config>(dstTensor, srcTensor, srcTensor.GetSize(), loc);               \
  }
