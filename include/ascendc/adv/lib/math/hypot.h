// lngrad: the Ascend C high-level API Hypot (the vendor's adv_api/math/hypot.h), half, bfloat16_t
// and float, Ascend 950 only.
//
// The result is the device's register sequence (hypot_common_impl.h), per element in float
// (half widened exactly): x' = 1 where x or y is infinite, else x (y' likewise); with a = |x'|,
// b = |y'| compared as integer bit patterns, m = max, n = min; e = bits(m) & 0xfe000000; s =
// float(bits(0x7e800000 - e)) (a power of two scaling m near 1); p = n * s, q = m * s;
// r = Sqrt(fma(q, q, p * p)) * float(bits(e | 0x00800000)) (MulAddDst taken as fused, as the 950's
// fused multiply-add); half and bfloat16: rounded with saturation (CAST_RINT, SAT); then r = 0
// where both are +0 (bit patterns), x where x is NaN, y where y is NaN, +inf where either is
// infinite.
//
// Checked mode: calCount within every operand, operands 32-byte aligned and dst disjoint from
// the sources, arch 3510 only (no scratch: GetHypotMaxMinTmpSize is 0 and 0).
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "lib/math/math_steps.h"
#include "lngrad_aicore/vector_cast.h"  // SaturateFloat

namespace lngrad::aicore::math_detail {

inline float HypotScaled(float x, float y) {
  const uint32_t a = std::bit_cast<uint32_t>(std::fabs(x)),
                 b = std::bit_cast<uint32_t>(std::fabs(y));
  const int32_t ia = static_cast<int32_t>(a), ib = static_cast<int32_t>(b);
  const uint32_t mx = static_cast<uint32_t>(ia > ib ? ia : ib);
  const uint32_t mn = static_cast<uint32_t>(ia < ib ? ia : ib);
  const uint32_t e = mx & 0xfe000000u;
  const float scale = std::bit_cast<float>(0x7e800000u - e);
  const float p = std::bit_cast<float>(mn) * scale;
  const float q = std::bit_cast<float>(mx) * scale;
  const float pp = p * p;
  const float sum = std::fma(q, q, pp);
  return std::sqrt(sum) * std::bit_cast<float>(e | 0x00800000u);
}

template <typename T>
T HypotOf(T x, T y) {
  const float xf = Widen(x), yf = Widen(y);
  const bool inf = std::isinf(xf) || std::isinf(yf);
  const float r = HypotScaled(inf ? 1.0f : xf, inf ? 1.0f : yf);
  T out;
  if constexpr (std::is_same_v<T, half>) {
    out = half(static_cast<float>(FloatToHalfSaturate(r)));
  } else if constexpr (std::is_same_v<T, bfloat16_t>) {
    out = detail::SaturateFloat(
        bfloat16_t::FromBits(FloatToBf16Bits(r, AscendC::RoundMode::CAST_RINT)), true);
  } else {
    out = r;
  }
  const bool zero = std::bit_cast<uint32_t>(xf) == 0 && std::bit_cast<uint32_t>(yf) == 0;
  if (zero) out = T(0.0f);
  if (std::isnan(xf)) out = x;
  if (std::isnan(yf)) out = y;
  if (inf) out = T(std::numeric_limits<float>::infinity());
  return out;
}

}  // namespace lngrad::aicore::math_detail

namespace AscendC {

template <typename T, bool isReuseSource = false>
void Hypot(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
           const LocalTensor<T>& src1Tensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
           const uint32_t calCount,
           lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  namespace m = lngrad::aicore::math_detail;
  static_assert(m::kHalfOrFloat<T> || std::is_same_v<T, bfloat16_t>,
                "Hypot: T must be half, bfloat16_t or float");
  m::BinaryPass("Hypot", m::Products::kOnly3510, m::Overlap::kNone, dstTensor, src0Tensor,
                src1Tensor, &sharedTmpBuffer, 0, calCount, loc,
                [](T x, T y) { return m::HypotOf(x, y); });
}

template <typename T, bool isReuseSource = false>
void Hypot(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
           const LocalTensor<T>& src1Tensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
           lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  Hypot<T, isReuseSource>(dstTensor, src0Tensor, src1Tensor, sharedTmpBuffer, src0Tensor.GetSize(),
                          loc);
}

template <typename T, bool isReuseSource = false>
void Hypot(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
           const LocalTensor<T>& src1Tensor, const uint32_t calCount,
           lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  Hypot<T, isReuseSource>(dstTensor, src0Tensor, src1Tensor, LocalTensor<uint8_t>(), calCount, loc);
}

template <typename T, bool isReuseSource = false>
void Hypot(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
           const LocalTensor<T>& src1Tensor,
           lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  Hypot<T, isReuseSource>(dstTensor, src0Tensor, src1Tensor, src0Tensor.GetSize(), loc);
}

}  // namespace AscendC
