// lngrad: the Ascend C high-level API Acosh (the vendor's adv_api/math/acosh.h), half and float.
//
// The result is the device's sequence on arch 2201 (acosh_common_impl.h), per element in float
// (half widened exactly), each step one float instruction (math_steps.h): t = x * x; t = t +
// (-1); t = Sqrt(t); t = x + t; d = t / t; t = t * d; r = Ln(t) (double, rounded once); half:
// rounded to half (CAST_NONE). So x < 1 gives NaN (Sqrt of a negative), x = 1 gives 0, and
// x*x overflowing (|x| > ~1.8e19 in float) gives inf / inf = NaN, as on the device. Arch 3510
// (acosh_3510_impl.h, register code): the same steps without t * (t / t), so there x*x
// overflowing gives Ln(inf) = inf; half rounded back CAST_RINT without saturation.
// The scratch on 2201/2002 is left as the kit's rounds leave it (LeaveAcoshScratch: float t * (t
// / t); half t / t and the float result, the tail's second tensor at its length rounded up to 32).
//
// Checked mode: calCount within every operand, operands 32-byte aligned and dst disjoint from
// src, sharedTmpBuffer at least GetAcoshMaxMinTmpSize's minimum on 2201/2002 (256 bytes for
// float, 512 for half) and disjoint from the operands.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "lib/math/math_scratch.h"
#include "lib/math/math_steps.h"

namespace lngrad::aicore::math_detail {

// `parts` (if not null, 2201) gets d = t / t and t * d, Ln's argument.
inline float AcoshSteps(float x, std::array<float, 2>* parts = nullptr) {
  float t = x * x;
  t = t + -1.0f;
  t = std::sqrt(t);
  t = x + t;
  if (On3510()) return LnF(t);
  const float d = t / t;
  t = t * d;
  if (parts != nullptr) *parts = {d, t};
  return LnF(t);
}

// What Acosh leaves in its scratch on 2201/2002 (AcoshImpl, AcoshCompute): splitCount = bytes /
// 4 / (1 float, 2 half) down to 32; float: t * (t / t) at 0; half: t / t at 0 and the float
// result at L (StridedSlots: the tail's tensors at its length rounded up to 32).
template <typename T>
void LeaveAcoshScratch(const AscendC::LocalTensor<uint8_t>& tmp, const T* in, uint64_t n,
                       SrcLoc loc) {
  if (On3510()) return;
  if constexpr (std::is_same_v<T, half>) {
    MakeChunkScratch<float, 2>(tmp, n, ChunkOf(tmp.GetSize(), 2, 32), StridedSlots<2>)
        .Write("Acosh", loc, [in](uint64_t i) {
          std::array<float, 2> p{};
          const float r = AcoshSteps(Widen(in[i]), &p);
          return std::array<float, 2>{p[0], r};
        });
  } else {
    LeaveChunkScratch<1>("Acosh", loc, tmp, n, ChunkOf(tmp.GetSize(), 1, 32), {0},
                         [in](uint64_t i) {
                           std::array<float, 2> p{};
                           AcoshSteps(in[i], &p);
                           return std::array<float, 1>{p[1]};
                         });
  }
}

}  // namespace lngrad::aicore::math_detail

namespace AscendC {

template <typename T, bool isReuseSource = false>
void Acosh(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
           const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount,
           lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  namespace m = lngrad::aicore::math_detail;
  static_assert(m::kHalfOrFloat<T>, "Acosh: T must be half or float");
  const uint64_t tmp_min = m::TmpMinBytes(std::is_same_v<T, float> ? 1 : 2);
  m::UnaryPass<m::PassScratch::kModelled>(
      "Acosh", m::Products::kAll, m::Overlap::kNone, dstTensor, srcTensor, &sharedTmpBuffer,
      tmp_min, calCount, loc, [](T x) { return m::Narrow<T>(m::AcoshSteps(m::Widen(x))); });
  m::LeaveAcoshScratch<T>(sharedTmpBuffer, srcTensor.HostPtr(), calCount, loc);
}

LNGRAD_MATH_UNARY_FORWARDS(Acosh)

}  // namespace AscendC
