// lngrad: the Ascend C high-level API Exp (the vendor's adv_api/math/exp.h): e^x with a Taylor
// expansion of the fractional part, half and float.
//
// The result is the device's sequence on arch 2201/2002 (exp_common_impl.h), per element in
// float (half widened exactly): i = Cast<FLOOR>(x); f = x - i; e = Exp(i) (the instruction:
// double, rounded once); r = f + 0; r = r + 1; p = f; for n = 2..taylorExpandLevel: p = f * p,
// p = p * (1.0f / n) (that quotient rounded to float once), r = r + p; r = r * e; half: r
// rounded to half (CAST_NONE). taylorExpandLevel 0 is the basic Exp instruction. Arch 3510 runs
// its register implementation, whose bits lngrad does not model: there the same sequence runs.
// isReuseSource with float lets the device keep f in srcTensor: lngrad writes f there too, as
// the device does, at the source's base chunk after chunk (exp_common_impl.h: FloorX = src).
//
// Checked mode: calCount within every operand, operands 32-byte aligned and dst disjoint from
// src, sharedTmpBuffer at least GetExpMaxMinTmpSize's minimum on 2201/2002 (256 bytes times 4
// for half, 3 for float, 2 for float with isReuseSource) and disjoint from the operands.
#pragma once

#include <cstdint>
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
    const uint64_t tmp_min = m::TmpMinBytes(!kFloat ? 4 : (isReuseSource ? 2 : 3));
    m::UnaryPass("Exp", m::Products::kAll, m::Overlap::kNone, dstLocal, srcLocal, &sharedTmpBuffer,
                 tmp_min, calCount, loc,
                 [](T x) { return m::Narrow<T>(m::ExpTaylor(m::Widen(x), taylorExpandLevel)); });
    if constexpr (kFloat && isReuseSource) {
      // The fractional parts the device leaves in the reused source: its FloorX tensor is the
      // source at its base (not at the chunk's offset), so each chunk of
      // (sharedTmpBuffer floats / 2, rounded down to 8) writes src[0, chunk length).
      T* src = srcLocal.HostPtr();
      const uint32_t chunk = sharedTmpBuffer.GetSize() / sizeof(float) / 2 / 8 * 8;
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
