// lngrad: the Ascend C high-level APIs Fma (Ascend 950 only) and Axpy (every product) — the
// vendor's adv_api/math/{fma,axpy}.h. Their results depend on rounding; each follows the
// vendor's instruction sequence:
//  - Fma: dst = src0 * src1 + src2 rounded once (the 950's fused multiply-add,
//    FusedMulDstAdd), half and float. float: std::fma; half: the exact sum rounded once to half
//    (through a round-to-odd double, so no double rounding).
//  - Axpy: dst += src * scalar. 2201/2002 (axpy_common_impl.h): U = half: src, scalar (and a
//    half dst) go to float, the product and the sum are each rounded to float (Muls, Add), a
//    half dst is rounded back once. T = U = float: the basic Axpy instruction, taken here as the
//    same two float roundings (not fused; the vendor does not document which).
//    950 (axpy_3510_impl.h): the register Axpy on T's lanes, one fused multiply-add rounded once
//    to T (the kit's power_3510_impl.h writes its register Axpy steps as fmaf, as lngrad's Power
//    takes them): (float, float) fma(src, s, dst); (float, half) src and s widened exactly, then
//    the float fma; (half, half) the exact src·s + dst rounded once to half (FmaHalf). Only the
//    first calCount elements are written, as the device's masked stores.
//    The 2201/2002 scratch (half sources) holds what AxpySub's rounds leave (LeaveAxpyScratch).
//
// Checked mode: count within every operand, 32-byte aligned operands, dst disjoint from the
// sources, the product, and for Axpy with half sources a sharedTmpBuffer of at least 1024 bytes
// on 2201/2002 (GetAxpyMaxMinTmpSize), disjoint from the operands.
#pragma once

#include <cmath>
#include <cstdint>
#include <array>
#include <cstring>
#include <limits>
#include <type_traits>

#include "lib/math/math_common.h"
#include "lib/math/math_scratch.h"

namespace lngrad::aicore::math_detail {

// a * b + c rounded once to half. The product of two halves is exact in double; TwoSum gives
// the exact error of the double sum, from which the round-to-odd double of the exact result
// follows, and rounding that (53 >= 11 + 2 bits) to half is the single rounding.
inline half FmaHalf(half a, half b, half c) {
  const double p = static_cast<double>(static_cast<float>(a)) * static_cast<float>(b);
  const double q = static_cast<float>(c);
  const double s = p + q;
  if (!std::isfinite(s)) return half(s);
  const double v = s - p;
  const double err = (p - (s - v)) + (q - v);
  double r = s;
  if (err != 0) {
    uint64_t bits;
    std::memcpy(&bits, &s, sizeof bits);
    if ((bits & 1) == 0) {
      r = std::nextafter(s, err > 0 ? std::numeric_limits<double>::infinity()
                                    : -std::numeric_limits<double>::infinity());
    }
  }
  return half(r);
}

// What axpy_common_impl.h's AxpySub leaves in sharedTmpBuffer on 2201/2002 (half sources): the
// rounds of stackSize elements (the buffer's floats, halved for a half dst, down to 32) and the
// tail keep, per element, tmpSrc = float(src)·k at float 0 and (half dst) tmpDst = tmpSrc +
// float(dst) at float stackSize; the last full round and the tail decide the bytes. Call it
// before dst is updated (it reads dst's values before the call).
template <typename T>
void LeaveAxpyScratch(SrcLoc loc, const AscendC::LocalTensor<uint8_t>& tmp, const half* in,
                      const T* out, float k, uint64_t n) {
  const uint64_t bytes = tmp.View().size_bytes;
  if constexpr (std::is_same_v<T, half>) {
    const uint64_t stack = ChunkOf(bytes, 2, 32);
    LeaveChunkScratch<2>("Axpy", loc, tmp, n, stack, {0, stack}, [&](uint64_t i) {
      const float prod = static_cast<float>(in[i]) * k;
      return std::array<float, 2>{prod, prod + static_cast<float>(out[i])};
    });
  } else {
    LeaveChunkScratch<1>("Axpy", loc, tmp, n, ChunkOf(bytes, 1, 32), {0}, [&](uint64_t i) {
      return std::array<float, 1>{static_cast<float>(in[i]) * k};
    });
  }
}

}  // namespace lngrad::aicore::math_detail

namespace AscendC {

LNGRAD_MATH_CONFIG(FmaConfig, DEFAULT_FMA_CONFIG)

template <const FmaConfig& config = DEFAULT_FMA_CONFIG, typename T>
void Fma(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
         const LocalTensor<T>& src2, const LocalTensor<uint8_t>& sharedTmpBuffer,
         const uint32_t count, lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  namespace m = lngrad::aicore::math_detail;
  static_assert(m::kHalfOrFloat<T>, "Fma: T must be half or float");
  const m::Operand d = m::Op(dst, "dst"), a = m::Op(src0, "src0"), b = m::Op(src1, "src1"),
                   c = m::Op(src2, "src2");
  m::CheckElementwise("Fma", count, m::Products::kOnly3510, m::Overlap::kNone, {d, a, b, c});
  m::CheckTmpBuffer("Fma", sharedTmpBuffer.View(), 0, count, {d, a, b, c});
  lngrad::aicore::detail::RestoreMaskAfterCount(lngrad::aicore::detail::MaskContext("Fma"));
  m::Record("Fma", loc, count, {d, a, b, c});
  T* out = dst.HostPtr();
  const T* x = src0.HostPtr();
  const T* y = src1.HostPtr();
  const T* z = src2.HostPtr();
  for (uint64_t i = 0; i < count; ++i) {
    if constexpr (std::is_same_v<T, float>) {
      out[i] = std::fma(x[i], y[i], z[i]);
    } else {
      out[i] = m::FmaHalf(x[i], y[i], z[i]);
    }
  }
}

template <const FmaConfig& config = DEFAULT_FMA_CONFIG, typename T>
void Fma(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
         const LocalTensor<T>& src2, const uint32_t count,
         lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  Fma<config>(dst, src0, src1, src2, lngrad::aicore::math_detail::StackTmp(), count, loc);
}

template <typename T, typename U, bool isReuseSource = false>
void Axpy(const LocalTensor<T>& dstTensor, const LocalTensor<U>& srcTensor, const U scalarValue,
          const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount,
          lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  namespace m = lngrad::aicore::math_detail;
  static_assert((std::is_same_v<T, half> && std::is_same_v<U, half>) ||
                    (std::is_same_v<T, float> && std::is_same_v<U, float>) ||
                    (std::is_same_v<T, float> && std::is_same_v<U, half>),
                "Axpy: (T, U) must be (half, half), (float, float) or (float, half)");
  const m::Operand d = m::Op(dstTensor, "dstTensor"), s = m::Op(srcTensor, "srcTensor");
  m::CheckElementwise("Axpy", calCount, m::Products::kAll, m::Overlap::kNone, {d, s});
  const uint64_t tmp_min = sizeof(U) == 4 ? 0 : m::TmpMinBytes(4);
  m::CheckTmpBuffer("Axpy", sharedTmpBuffer.View(), tmp_min, calCount, {d, s});
  lngrad::aicore::detail::RestoreMaskAfterCount(lngrad::aicore::detail::MaskContext("Axpy"));
  // dst is read as well as written: record it as a source too.
  const m::Operand dr = m::Op(dstTensor, "dstTensor");
  m::Record("Axpy", loc, calCount, {d, s, dr});
  T* out = dstTensor.HostPtr();
  const U* in = srcTensor.HostPtr();
  if (m::On3510()) {
    for (uint64_t i = 0; i < calCount; ++i) {
      if constexpr (std::is_same_v<T, half>) {
        out[i] = m::FmaHalf(in[i], scalarValue, out[i]);
      } else {
        out[i] = std::fma(static_cast<float>(in[i]), static_cast<float>(scalarValue), out[i]);
      }
    }
    return;
  }
  const float k = static_cast<float>(scalarValue);
  if constexpr (sizeof(U) == 2) m::LeaveAxpyScratch<T>(loc, sharedTmpBuffer, in, out, k, calCount);
  for (uint64_t i = 0; i < calCount; ++i) {
    const float prod = static_cast<float>(in[i]) * k;
    const float sum = prod + static_cast<float>(out[i]);
    out[i] = T(sum);
  }
}

}  // namespace AscendC
