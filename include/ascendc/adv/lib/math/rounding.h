// lngrad: the Ascend C high-level rounding APIs Ceil, Floor, Trunc, Round, Rint and Frac
// (the vendor's adv_api/math/{ceil,floor,trunc,round,rint,frac}.h), half and float.
//
// Results are exact and so the device's bit for bit: the device rounds a float to an integral
// float (Cast float->float with CAST_CEIL / CAST_FLOOR / CAST_TRUNC / CAST_RINT), half through
// float, which is exact both ways; Frac is x - Trunc(x), one IEEE subtraction (±inf -> NaN).
// Signed zeros follow IEEE (Ceil(-0.5) = -0, Frac(-2) = +0), NaN stays NaN. Round is the
// vendor's "四舍五入" implemented with CAST_RINT, i.e. ties to even (Round(2.5) = 2), as Rint.
//
// Checked mode (lngrad::aicore::CheckedMode()): calCount within every operand, 32-byte aligned
// operands, dst and src disjoint (Trunc and Round: identical also allowed), sharedTmpBuffer at
// least the minimum of GetXxxMaxMinTmpSize on arch 2201/2002 and disjoint from the operands,
// Rint only on arch 3510. The overloads without sharedTmpBuffer take the stack buffer. The
// vendor's input range limit on Atlas inference products ([-2147483647, 2147483647]) is not
// enforced: lngrad computes the exact result there.
#pragma once

#include <cmath>
#include <cstdint>

#include "lib/math/math_common.h"

namespace lngrad::aicore::math_detail {

template <typename T, typename F>
T ViaFloat(T x, F f) {
  if constexpr (std::is_same_v<T, half>) {
    return half(f(static_cast<float>(x)));
  } else {
    return f(x);
  }
}

// The scratch minimum (bytes) of the rounding APIs on 2201/2002, from their tiling functions.
enum class RoundingApi { kCeil, kFloor, kTrunc, kRound, kRint, kFrac };
template <typename T>
uint64_t RoundingTmpMin(RoundingApi api) {
  const bool f32 = sizeof(T) == 4;
  switch (api) {
    case RoundingApi::kCeil:
    case RoundingApi::kTrunc:
      return TmpMinBytes(f32 ? 1 : 2);
    case RoundingApi::kFloor:
      return TmpMinBytes(f32 ? 0 : 2);
    case RoundingApi::kRound:
      if (detail::rep::RunningArch() == NpuArch::k2002) return TmpMinBytes(f32 ? 1 : 2);
      return TmpMinBytes(f32 ? 0 : 1);
    case RoundingApi::kFrac:
      return TmpMinBytes(f32 ? 0 : 4);
    case RoundingApi::kRint:
      return 0;
  }
  return 0;
}

template <typename T, typename F>
void RoundingPass(const char* api, RoundingApi which, const AscendC::LocalTensor<T>& dst,
                  const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<uint8_t>& tmp,
                  int64_t count, SrcLoc loc, F f) {
  static_assert(kHalfOrFloat<T>, "T must be half or float");
  const Overlap overlap = which == RoundingApi::kTrunc || which == RoundingApi::kRound
                              ? Overlap::kIdentical
                              : Overlap::kNone;
  const Products products = which == RoundingApi::kRint ? Products::kOnly3510 : Products::kAll;
  UnaryPass(api, products, overlap, dst, src, &tmp, RoundingTmpMin<T>(which), count, loc,
            [f](T x) { return ViaFloat(x, f); });
}

inline float CeilF(float x) { return std::ceil(x); }
inline float FloorF(float x) { return std::floor(x); }
inline float TruncF(float x) { return std::trunc(x); }
// Ties to even without depending on the thread's rounding mode (x - t is exact).
inline float RintF(float x) {
  const float t = std::trunc(x);
  if (std::fabs(x - t) == 0.5f) return std::fmod(t, 2.0f) == 0.0f ? t : t + std::copysign(1.0f, x);
  return std::round(x);
}
// One subtraction, as the device's Sub after the truncating cast.
inline float FracF(float x) { return x - std::trunc(x); }

}  // namespace lngrad::aicore::math_detail

#ifndef LNGRAD_COMMA
#define LNGRAD_COMMA ,
#endif

// The four overload shapes of a rounding API: (tmp, calCount), (tmp), (calCount), ().
#define LNGRAD_ROUNDING_API(Name, Which, Fn, TemplateHead, TemplateArgs)                           \
  TemplateHead void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,         \
                         const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount,     \
                         lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {         \
    namespace m = lngrad::aicore::math_detail;                                                     \
    m::RoundingPass(#Name, m::RoundingApi::Which, dstTensor, srcTensor, sharedTmpBuffer, calCount, \
                    loc, m::Fn);                                                                   \
  }                                                                                                \
  TemplateHead void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,         \
                         const uint32_t calCount,                                                  \
                         lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {         \
    Name TemplateArgs(dstTensor, srcTensor, lngrad::aicore::math_detail::StackTmp(), calCount,     \
                      loc);                                                                        \
  }

#define LNGRAD_ROUNDING_API_WHOLE(Name, TemplateHead, TemplateArgs)                        \
  TemplateHead void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, \
                         const LocalTensor<uint8_t>& sharedTmpBuffer,                      \
                         lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) { \
    Name TemplateArgs(dstTensor, srcTensor, sharedTmpBuffer, srcTensor.GetSize(), loc);    \
  }                                                                                        \
  TemplateHead void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, \
                         lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) { \
    Name TemplateArgs(dstTensor, srcTensor, srcTensor.GetSize(), loc);                     \
  }

namespace AscendC {

LNGRAD_MATH_CONFIG(RintConfig, DEFAULT_RINT_CONFIG)

// Smallest integral value >= x.
LNGRAD_ROUNDING_API(Ceil, kCeil, CeilF,
                    template <typename T LNGRAD_COMMA bool isReuseSource = false>,
                    <T LNGRAD_COMMA isReuseSource>)
// Largest integral value <= x.
LNGRAD_ROUNDING_API(Floor, kFloor, FloorF,
                    template <typename T LNGRAD_COMMA bool isReuseSource = false>,
                    <T LNGRAD_COMMA isReuseSource>)
// Rounds toward zero; dst may be src.
LNGRAD_ROUNDING_API(Trunc, kTrunc, TruncF,
                    template <typename T LNGRAD_COMMA bool isReuseSource = false>,
                    <T LNGRAD_COMMA isReuseSource>)
LNGRAD_ROUNDING_API_WHOLE(Trunc, template <typename T LNGRAD_COMMA bool isReuseSource = false>,
                          <T LNGRAD_COMMA isReuseSource>)
// Nearest integral value, ties to even (the device's CAST_RINT); dst may be src.
LNGRAD_ROUNDING_API(Round, kRound, RintF,
                    template <typename T LNGRAD_COMMA bool isReuseSource = false>,
                    <T LNGRAD_COMMA isReuseSource>)
// Nearest integral value, ties to even. Ascend 950 only.
LNGRAD_ROUNDING_API(
    Rint, kRint, RintF,
    template <const RintConfig& config = DEFAULT_RINT_CONFIG LNGRAD_COMMA typename T>, <config>)
// x - Trunc(x).
LNGRAD_ROUNDING_API(Frac, kFrac, FracF,
                    template <typename T LNGRAD_COMMA bool isReuseSource = false>,
                    <T LNGRAD_COMMA isReuseSource>)
LNGRAD_ROUNDING_API_WHOLE(Frac, template <typename T LNGRAD_COMMA bool isReuseSource = false>,
                          <T LNGRAD_COMMA isReuseSource>)

}  // namespace AscendC
