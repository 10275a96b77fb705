// lngrad: the Ascend C high-level APIs Log, Log2 and Log10 (the vendor's adv_api/math/log.h),
// half and float.
//
// The results are the device's sequences on arch 2201/2002 (log_common_impl.h), each step one
// basic instruction (math_steps.h):
//   Log:   Ln(x) (double, rounded once to T);
//   Log2:  float: Ln(x) * 1.4426950408889634f; half: widened to float, the same two float
//          steps, rounded to half (CAST_NONE) — its sharedTmpBuffer (or the stack buffer) is
//          left holding the float products of the last round and the tail (math_scratch.h);
//   Log10: Ln(x) * half-or-float(0.43429448190325176), both steps in T (half: Ln rounded to
//          half, the product rounded to half).
// Arch 3510 (log_3510_impl.h, register code): Log the same (the register Log on T); Log2 and
// Log10 in float for both types (half widened): Ln(x) * float(1 / ln 2 or 1 / ln 10), half cast
// back CAST_RINT with saturation (+-inf to +-65504, NaN to +0). So Log10 on half differs from
// 2201's half steps in the bits, and the half specials of Log2 / Log10 (0, negatives, inf, NaN)
// saturate there.
//
// Checked mode: calCount within every operand, operands 32-byte aligned and dst disjoint from
// src; Log2 with half: sharedTmpBuffer at least 256 bytes (GetLog2MaxMinTmpSize) on 2201/2002
// and disjoint from the operands.
#pragma once

#include <array>
#include <cstdint>
#include <type_traits>

#include "lib/math/math_scratch.h"
#include "lib/math/math_steps.h"

namespace lngrad::aicore::math_detail {

inline constexpr double kLn2Reciprocal = 1.4426950408889634;
inline constexpr double kLn10Reciprocal = 0.43429448190325176;

template <typename T>
T LnT(T x) {
  if constexpr (std::is_same_v<T, half>) {
    return LnH(x);
  } else {
    return LnF(x);
  }
}

template <typename T>
T Log2Of(T x) {
  const float r = LnF(Widen(x)) * static_cast<float>(kLn2Reciprocal);
  return On3510() ? NarrowSaturated<T>(r) : Narrow<T>(r);
}

template <typename T>
T Log10Of(T x) {
  if (On3510()) return NarrowSaturated<T>(LnF(Widen(x)) * static_cast<float>(kLn10Reciprocal));
  const T s = T(static_cast<float>(kLn10Reciprocal));
  return T(static_cast<float>(LnT(x)) * static_cast<float>(s));
}

}  // namespace lngrad::aicore::math_detail

namespace AscendC {

template <typename T, bool isReuseSource = false>
void Log(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, uint32_t calCount,
         lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  namespace m = lngrad::aicore::math_detail;
  static_assert(m::kHalfOrFloat<T>, "Log: T must be half or float");
  m::UnaryPass("Log", m::Products::kAll, m::Overlap::kNone, dstTensor, srcTensor, nullptr, 0,
               calCount, loc, [](T x) { return m::LnT(x); });
}

template <typename T, bool isReuseSource = false>
void Log(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
         lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  Log<T, isReuseSource>(dstTensor, srcTensor, srcTensor.GetSize(), loc);
}

template <typename T, bool isReuseSource = false>
void Log10(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, uint32_t calCount,
           lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  namespace m = lngrad::aicore::math_detail;
  static_assert(m::kHalfOrFloat<T>, "Log10: T must be half or float");
  m::UnaryPass("Log10", m::Products::kAll, m::Overlap::kNone, dstTensor, srcTensor, nullptr, 0,
               calCount, loc, [](T x) { return m::Log10Of(x); });
}

template <typename T, bool isReuseSource = false>
void Log10(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
           lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  Log10<T, isReuseSource>(dstTensor, srcTensor, srcTensor.GetSize(), loc);
}

template <typename T, bool isReuseSource = false>
void Log2(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
          const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount,
          lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  namespace m = lngrad::aicore::math_detail;
  static_assert(m::kHalfOrFloat<T>, "Log2: T must be half or float");
  // Float uses no scratch (the vendor's float path ignores sharedTmpBuffer).
  constexpr bool kHalf = std::is_same_v<T, half>;
  m::UnaryPass<m::PassScratch::kModelled>("Log2", m::Products::kAll, m::Overlap::kNone, dstTensor,
                                          srcTensor, kHalf ? &sharedTmpBuffer : nullptr,
                                          m::TmpMinBytes(1), calCount, loc,
                                          [](T x) { return m::Log2Of(x); });
  // Half on 2201/2002 (Log2Impl): rounds of (bytes / 4) floats down to 32, each leaving its
  // float products Ln(x) * 1/ln 2 at the scratch's start.
  if constexpr (kHalf) {
    const half* in = srcTensor.HostPtr();
    m::LeaveChunkScratch<1>("Log2", loc, sharedTmpBuffer, calCount,
                            m::ChunkOf(sharedTmpBuffer.GetSize(), 1, 32), {0}, [in](uint64_t i) {
                              return std::array<float, 1>{m::LnF(m::Widen(in[i])) *
                                                          static_cast<float>(m::kLn2Reciprocal)};
                            });
  }
}

template <typename T, bool isReuseSource = false>
void Log2(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
          const LocalTensor<uint8_t>& sharedTmpBuffer,
          lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  Log2<T, isReuseSource>(dstTensor, srcTensor, sharedTmpBuffer, srcTensor.GetSize(), loc);
}

template <typename T, bool isReuseSource = false>
void Log2(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, uint32_t calCount,
          lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  LocalTensor<uint8_t> stack;
  if constexpr (std::is_same_v<T, half>) stack = lngrad::aicore::math_detail::StackTmp();
  Log2<T, isReuseSource>(dstTensor, srcTensor, stack, calCount, loc);
}

template <typename T, bool isReuseSource = false>
void Log2(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
          lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  Log2<T, isReuseSource>(dstTensor, srcTensor, srcTensor.GetSize(), loc);
}

}  // namespace AscendC
