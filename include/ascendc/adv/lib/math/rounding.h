// lngrad: the Ascend C high-level rounding APIs Ceil, Floor, Trunc, Round, Rint and Frac
// (the vendor's adv_api/math/{ceil,floor,trunc,round,rint,frac}.h), half and float.
//
// Results follow the device's casts bit for bit. Arch 2201 and the 950 round a float to an
// integral float (Cast float->float with CAST_CEIL / CAST_FLOOR / CAST_TRUNC / CAST_RINT), half
// through float, which is exact both ways; Frac is x - Trunc(x), one IEEE subtraction (±inf ->
// NaN). Signed zeros follow IEEE there (Ceil(-0.5) = -0, Frac(-2) = +0), NaN stays NaN. Arch
// 2002 has no float->float rounding cast: its sequences (<api>_v200_impl.h) round through int32
// (Cast float->int32 in the mode, saturating, a NaN giving 0; back CAST_NONE), so there a zero
// result is +0, NaN gives 0, |x| >= 2^31 and ±inf give ±2^31 (float; half ±inf again), and
// Frac(±inf) is ±inf. Round is the vendor's "四舍五入" implemented with CAST_RINT, i.e. ties to
// even (Round(2.5) = 2), as Rint.
//
// The scratch on 2201/2002 (sharedTmpBuffer, or the stack buffer the overloads without it pop)
// holds what the kit's loops leave there (chunks of the scratch's floats, down to 32 elements;
// math_scratch.h): the half paths' float temp (the widened source rounded in place; on 2002
// through the int32 in the same words), Frac<half>'s widened source and its float result after
// it, and the int32 of Ceil, Trunc and Round<float> on 2002; the other float paths leave it
// alone.
//
// Checked mode (lngrad::aicore::CheckedMode()): calCount within every operand, 32-byte aligned
// operands, dst and src disjoint (Trunc and Round: identical also allowed), sharedTmpBuffer at
// least the minimum of GetXxxMaxMinTmpSize on arch 2201/2002 and disjoint from the operands,
// Rint only on arch 3510. The overloads without sharedTmpBuffer take the stack buffer.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "lib/math/math_common.h"
#include "lib/math/math_scratch.h"
#include "lngrad_aicore/instructions.h"

namespace lngrad::aicore::math_detail {

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

inline float CeilF(float x) { return std::ceil(x); }
inline float FloorF(float x) { return std::floor(x); }
inline float TruncF(float x) { return std::trunc(x); }
// Ties to even without depending on the thread's rounding mode (x - t is exact).
inline float RintF(float x) {
  const float t = std::trunc(x);
  if (std::fabs(x - t) == 0.5f) return std::fmod(t, 2.0f) == 0.0f ? t : t + std::copysign(1.0f, x);
  return std::round(x);
}

// The cast mode of an API's rounding step (Frac: its Trunc).
inline AscendC::RoundMode RoundingMode(RoundingApi api) {
  switch (api) {
    case RoundingApi::kCeil:
      return AscendC::RoundMode::CAST_CEIL;
    case RoundingApi::kFloor:
      return AscendC::RoundMode::CAST_FLOOR;
    case RoundingApi::kRound:
    case RoundingApi::kRint:
      return AscendC::RoundMode::CAST_RINT;
    default:
      return AscendC::RoundMode::CAST_TRUNC;
  }
}

// 2002's rounding step (<api>_v200_impl.h): through int32, saturating, NaN -> 0.
inline int32_t RoundViaInt32(RoundingApi api, float x) {
  return FloatToInt32(x, RoundingMode(api));
}
inline float Int32Back(int32_t v) { return Int32ToFloat(v, AscendC::RoundMode::CAST_NONE); }

// The rounding step of `api` (Frac: its Trunc) on one float: the float->float cast, or on 2002
// the int32 round trip.
inline float RoundStep(RoundingApi api, float v, bool v200) {
  if (api == RoundingApi::kFrac) api = RoundingApi::kTrunc;
  if (v200) return Int32Back(RoundViaInt32(api, v));
  switch (api) {
    case RoundingApi::kCeil:
      return CeilF(v);
    case RoundingApi::kFloor:
      return FloorF(v);
    case RoundingApi::kRound:
    case RoundingApi::kRint:
      return RintF(v);
    default:
      return TruncF(v);
  }
}

// The chunk (elements) of the 2201/2002 loop that writes the scratch, 0 where the API's path
// leaves it alone: the float paths of 2201, Floor<float> and Frac<float> everywhere.
template <typename T>
uint64_t RoundingChunk(RoundingApi api, uint64_t bytes) {
  const bool f32 = sizeof(T) == 4, v200 = detail::rep::RunningArch() == NpuArch::k2002;
  switch (api) {
    case RoundingApi::kCeil:
    case RoundingApi::kTrunc:
      return f32 && !v200 ? 0 : ChunkOf(bytes, 1, 32);
    case RoundingApi::kFloor:
      return f32 ? 0 : ChunkOf(bytes, 1, 32);
    case RoundingApi::kRound:
      if (f32) return v200 ? ChunkOf(bytes, 1, 32) : 0;
      return ChunkOf(bytes, v200 ? 2 : 1, 32);
    case RoundingApi::kFrac:
      return f32 ? 0 : ChunkOf(bytes, 2, 32);
    case RoundingApi::kRint:
      return 0;
  }
  return 0;
}

inline float WordOf(int32_t v) {
  float f;
  std::memcpy(&f, &v, sizeof f);
  return f;
}

// What the loop leaves in the scratch for the sources `x` of elements first.. (widened): the
// half paths' float temp (the rounded value; Frac: the source, then x - Trunc(x) `chunk` words
// on), the float paths' int32 on 2002.
template <typename T>
void LeaveRoundingScratch(const char* api, RoundingApi which, SrcLoc loc,
                          const AscendC::LocalTensor<uint8_t>& tmp, uint64_t n, uint64_t chunk,
                          uint64_t first, const std::vector<float>& x) {
  const bool v200 = detail::rep::RunningArch() == NpuArch::k2002;
  if (which == RoundingApi::kFrac) {
    LeaveChunkScratch<2>(api, loc, tmp, n, chunk, {0, chunk}, [&](uint64_t i) {
      const float v = x[i - first];
      return std::array<float, 2>{v, v - RoundStep(which, v, v200)};
    });
    return;
  }
  LeaveChunkScratch<1>(api, loc, tmp, n, chunk, {0}, [&](uint64_t i) {
    const float v = x[i - first];
    if constexpr (sizeof(T) == 4) return std::array<float, 1>{WordOf(RoundViaInt32(which, v))};
    return std::array<float, 1>{RoundStep(which, v, v200)};
  });
}

template <typename T>
void RoundingPass(const char* api, RoundingApi which, const AscendC::LocalTensor<T>& dst,
                  const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<uint8_t>& tmp,
                  int64_t count, SrcLoc loc) {
  static_assert(kHalfOrFloat<T>, "T must be half or float");
  const Overlap overlap = which == RoundingApi::kTrunc || which == RoundingApi::kRound
                              ? Overlap::kIdentical
                              : Overlap::kNone;
  const Products products = which == RoundingApi::kRint ? Products::kOnly3510 : Products::kAll;
  const bool v200 = detail::rep::RunningArch() == NpuArch::k2002;
  const uint64_t n = count < 0 ? 0 : static_cast<uint64_t>(count);
  const uint64_t chunk = On3510() ? 0 : RoundingChunk<T>(which, tmp.View().size_bytes);
  const uint64_t first = chunk == 0 ? n : MakeChunkScratch<float, 1>(tmp, n, chunk, [](uint64_t) {
                                            return std::array<uint64_t, 1>{0};
                                          }).First();
  // The sources of the elements the scratch keeps, taken as the pass reads them (Trunc and
  // Round may run in place): the pass calls the step once per element, in order.
  std::vector<float> kept(n > first ? n - first : 0);
  uint64_t at = 0;
  UnaryPass<PassScratch::kModelled>(api, products, overlap, dst, src, &tmp,
                                    RoundingTmpMin<T>(which), count, loc, [&](T x) {
                                      const float v = static_cast<float>(x);
                                      if (at >= first) kept[at - first] = v;
                                      ++at;
                                      const float r = RoundStep(which, v, v200);
                                      return T(which == RoundingApi::kFrac ? v - r : r);
                                    });
  if (chunk != 0) LeaveRoundingScratch<T>(api, which, loc, tmp, n, chunk, first, kept);
}

}  // namespace lngrad::aicore::math_detail

#ifndef LNGRAD_COMMA
#define LNGRAD_COMMA ,
#endif

// The four overload shapes of a rounding API: (tmp, calCount), (tmp), (calCount), ().
#define LNGRAD_ROUNDING_API(Name, Which, TemplateHead, TemplateArgs)                               \
  TemplateHead void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,         \
                         const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount,     \
                         lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {         \
    namespace m = lngrad::aicore::math_detail;                                                     \
    m::RoundingPass(#Name, m::RoundingApi::Which, dstTensor, srcTensor, sharedTmpBuffer, calCount, \
                    loc);                                                                          \
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
LNGRAD_ROUNDING_API(Ceil, kCeil, template <typename T LNGRAD_COMMA bool isReuseSource = false>,
                    <T LNGRAD_COMMA isReuseSource>)
// Largest integral value <= x.
LNGRAD_ROUNDING_API(Floor, kFloor, template <typename T LNGRAD_COMMA bool isReuseSource = false>,
                    <T LNGRAD_COMMA isReuseSource>)
// Rounds toward zero; dst may be src.
LNGRAD_ROUNDING_API(Trunc, kTrunc, template <typename T LNGRAD_COMMA bool isReuseSource = false>,
                    <T LNGRAD_COMMA isReuseSource>)
LNGRAD_ROUNDING_API_WHOLE(Trunc, template <typename T LNGRAD_COMMA bool isReuseSource = false>,
                          <T LNGRAD_COMMA isReuseSource>)
// Nearest integral value, ties to even (the device's CAST_RINT); dst may be src.
LNGRAD_ROUNDING_API(Round, kRound, template <typename T LNGRAD_COMMA bool isReuseSource = false>,
                    <T LNGRAD_COMMA isReuseSource>)
// Nearest integral value, ties to even. Ascend 950 only.
LNGRAD_ROUNDING_API(
    Rint, kRint, template <const RintConfig& config = DEFAULT_RINT_CONFIG LNGRAD_COMMA typename T>,
    <config>)
// x - Trunc(x).
LNGRAD_ROUNDING_API(Frac, kFrac, template <typename T LNGRAD_COMMA bool isReuseSource = false>,
                    <T LNGRAD_COMMA isReuseSource>)
LNGRAD_ROUNDING_API_WHOLE(Frac, template <typename T LNGRAD_COMMA bool isReuseSource = false>,
                          <T LNGRAD_COMMA isReuseSource>)

}  // namespace AscendC
