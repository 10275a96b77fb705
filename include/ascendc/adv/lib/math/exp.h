// lngrad: the Ascend C high-level API Exp (the vendor's adv_api/math/exp.h): e^x with a Taylor
// expansion of the fractional part, half and float.
//
// The result is the device's sequence on arch 2201/2002 (exp_common_impl.h), per element in
// float (half widened exactly): i = Cast<FLOOR>(x); f = x - i; e = Exp(i) (the instruction:
// double, rounded once); r = f + 0; r = r + 1; p = f; for n = 2..taylorExpandLevel: p = f * p,
// p = p * (1.0f / n) (that quotient rounded to float once), r = r + p; r = r * e; half: r
// rounded to half (CAST_NONE). taylorExpandLevel 0 is the basic Exp instruction. isReuseSource
// with float lets the device keep f in srcTensor: lngrad writes f there too, as the device
// does, at the source's base chunk after chunk (exp_common_impl.h: FloorX = src).
// Arch 3510 (exp_3510_impl.h, register code): the same chain (r = f + 1: the 2201 f + 0 changes
// no value; the 1 / n from a Div of an Arange), then x = +inf gives +inf and x = -inf gives +0
// (compared as bit patterns; 2201 gives NaN for both); half: the float result cast CAST_RINT
// with saturation (+-inf to +-65504, NaN to +0); the source is left alone with isReuseSource;
// sharedTmpBuffer's first 256 bytes get the register of 1 / n (StoreExpTable3510).
//
// Checked mode: calCount within every operand, operands 32-byte aligned and dst disjoint from
// src, sharedTmpBuffer at least GetExpMaxMinTmpSize's minimum on 2201/2002 (256 bytes times 4
// for half, 3 for float, 2 for float with isReuseSource; on 3510 the 256 bytes its register of
// 1 / n is stored to) and disjoint from the operands.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "lib/math/math_steps.h"

namespace lngrad::aicore::math_detail {

// e^x by the Taylor sequence above, in float.
inline float ExpTaylor(float x, uint32_t level) {
  const float i = FloorF(x);
  const float f = x - i;
  const float e = ExpF(i);
  float r = f + 0.0f;
  r = r + 1.0f;
  float p = f;
  for (uint32_t n = 2; n <= level; ++n) {
    p = f * p;
    p = p * (1.0f / static_cast<float>(n));
    r = r + p;
  }
  return r * e;
}

// Exp<T, level> on arch 3510: the chain above with the infinities selected after it.
template <typename T>
T ExpTaylor3510(T x, uint32_t level) {
  const float v = Widen(x);
  float r = ExpTaylor(v, level);
  if (std::isinf(v)) r = v > 0.0f ? v : 0.0f;
  return NarrowSaturated<T>(r);
}

// What the 950's Exp<T, level> leaves in sharedTmpBuffer (exp_3510_impl.h): its register of
// 1 / n, Div(1, Arange(2)), lane i = 1.0f / (i + 2) for i < 64, stored at the scratch's start
// (the part of those 256 bytes the buffer holds).
inline void StoreExpTable3510(const AscendC::LocalTensor<uint8_t>& tmp, SrcLoc loc) {
  const uint64_t bytes = std::min<uint64_t>(256, tmp.GetSize());
  for (uint64_t i = 0; i < bytes / sizeof(float); ++i) {
    const float v = 1.0f / static_cast<float>(i + 2);
    std::memcpy(tmp.HostPtr() + i * sizeof(float), &v, sizeof(float));
  }
  san::Instr rec(Pipe::kV, "Exp", loc);
  if (rec && bytes != 0) rec.Write(tmp.HostPtr(), bytes / sizeof(float) * sizeof(float));
}

}  // namespace lngrad::aicore::math_detail

namespace AscendC {

template <typename T, uint8_t taylorExpandLevel, bool isReuseSource = false>
void Exp(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
         const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount,
         lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  namespace m = lngrad::aicore::math_detail;
  static_assert(m::kHalfOrFloat<T>, "Exp: T must be half or float");
  if constexpr (taylorExpandLevel == 0) {
    Exp<T>(dstLocal, srcLocal, static_cast<int32_t>(calCount), loc);
  } else {
    constexpr bool kFloat = std::is_same_v<T, float>;
    const bool arch3510 = lngrad::aicore::detail::rep::RunningArch() == lngrad::NpuArch::k3510;
    // The 950 stores its register of 1 / n (64 floats) at the scratch's start.
    const uint64_t tmp_min =
        arch3510 ? uint64_t{256} : m::TmpMinBytes(!kFloat ? 4 : (isReuseSource ? 2 : 3));
    m::UnaryPass("Exp", m::Products::kAll, m::Overlap::kNone, dstLocal, srcLocal, &sharedTmpBuffer,
                 tmp_min, calCount, loc, [arch3510](T x) {
                   if (arch3510) return m::ExpTaylor3510(x, taylorExpandLevel);
                   return m::Narrow<T>(m::ExpTaylor(m::Widen(x), taylorExpandLevel));
                 });
    if (arch3510) m::StoreExpTable3510(sharedTmpBuffer, loc);
    if constexpr (kFloat && isReuseSource) {
      // The fractional parts the device leaves in the reused source: its FloorX tensor is the
      // source at its base (not at the chunk's offset), so each chunk of
      // (sharedTmpBuffer floats / 2, rounded down to 8) writes src[0, chunk length).
      T* src = srcLocal.HostPtr();
      // (The 950's register code leaves the source alone.)
      const uint32_t chunk = arch3510 ? 0 : sharedTmpBuffer.GetSize() / sizeof(float) / 2 / 8 * 8;
      for (uint32_t off = 0; chunk != 0 && off < calCount; off += chunk) {
        for (uint32_t j = 0; j < chunk && off + j < calCount; ++j) {
          const float x = src[off + j] + 0.0f;
          src[j] = x - m::FloorF(x);
        }
      }
    }
  }
}

template <typename T, uint8_t taylorExpandLevel, bool isReuseSource = false>
void Exp(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t calCount,
         lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  Exp<T, taylorExpandLevel, isReuseSource>(dstLocal, srcLocal,
                                           lngrad::aicore::math_detail::StackTmp(), calCount, loc);
}

}  // namespace AscendC
