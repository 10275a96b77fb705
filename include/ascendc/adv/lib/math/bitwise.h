// lngrad: the Ascend C high-level bit APIs Xor (int16_t, uint16_t; every product) and
// BitwiseAnd, BitwiseOr, BitwiseXor, BitwiseNot (8- to 64-bit integers; Ascend 950 only) — the
// vendor's adv_api/math/{xor,bitwise_and,bitwise_or,bitwise_xor,bitwise_not}.h. Exact.
//
// Checked mode: count within every operand, 32-byte aligned operands, dst disjoint from every
// source, the product, for Xor's overloads without calCount sources of one size (xor.h's
// assert; `tensor_bounds`), and for Xor a sharedTmpBuffer disjoint from the operands and of at
// least 256 bytes (GetXorMaxMinTmpSize; the 2201/2002 code chunks by it) or, on the 950, 64
// bytes: xor_3510_impl.h never reads the buffer, and its CPU-debug check (IsXorParamValid) asks
// for one whole 32-element block of T.
//
// The 950's loops (xor_3510_impl.h, bitwise_template.h: each register's lanes under the
// count's mask, in an order that touches no element twice) give these element-wise results.
// Xor's scratch on 2201/2002 (xor_membase_impl.h: chunks of bytes / 2 down to 32 elements, each
// computing (x & y) into dst, x | y into the scratch's start, then ~ and &): the last full
// chunk's and the tail's x | y, as T, at the start (XorScratch); the 950 leaves it alone.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "lib/math/math_common.h"
#include "lib/math/math_scratch.h"

namespace lngrad::aicore::math_detail {

// The overloads without calCount take src0's size; the kit's xor.h asserts (CPU debug, every
// product) that src1 holds as many elements.
template <typename T>
void CheckEqualSources(const char* api, const AscendC::LocalTensor<T>& src0,
                       const AscendC::LocalTensor<T>& src1, SrcLoc loc) {
  if (!CheckedMode() || src0.GetSize() == src1.GetSize()) return;
  RaiseKernelCheck(checks::kTensorBounds,
                   detail::WithLoc(api, loc) + ": src0Tensor holds " +
                       std::to_string(src0.GetSize()) + " elements and src1Tensor " +
                       std::to_string(src1.GetSize()) +
                       "; without calCount the two sources must be the same size");
}

// What Xor leaves in its scratch on 2201/2002 (the header's comment), after the pass.
template <typename T>
void XorScratch(const AscendC::LocalTensor<uint8_t>& tmp, const T* a, const T* b, uint64_t n,
                SrcLoc loc) {
  if (On3510()) return;
  MakeChunkScratch<T, 1>(tmp, n, tmp.GetSize() / sizeof(T) / 32 * 32, [](uint64_t) {
    return std::array<uint64_t, 1>{0};
  }).Write("Xor", loc, [a, b](uint64_t i) {
    return std::array<T, 1>{static_cast<T>(a[i] | b[i])};
  });
}

}  // namespace lngrad::aicore::math_detail

namespace AscendC {

LNGRAD_MATH_CONFIG(BitwiseAndConfig, DEFAULT_BITWISE_AND_CONFIG)
LNGRAD_MATH_CONFIG(BitwiseOrConfig, DEFAULT_BITWISE_OR_CONFIG)
LNGRAD_MATH_CONFIG(BitwiseXorConfig, DEFAULT_BITWISE_XOR_CONFIG)
LNGRAD_MATH_CONFIG(BitwiseNotConfig, DEFAULT_BITWISE_NOT_CONFIG)

template <typename T, bool isReuseSource = false>
void Xor(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
         const LocalTensor<T>& src1Tensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
         const uint32_t calCount, lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  namespace m = lngrad::aicore::math_detail;
  static_assert(std::is_same_v<T, int16_t> || std::is_same_v<T, uint16_t>,
                "Xor: T must be int16_t or uint16_t");
  m::BinaryPass<m::PassScratch::kModelled>("Xor", m::Products::kAll, m::Overlap::kNone, dstTensor,
                                           src0Tensor, src1Tensor, &sharedTmpBuffer,
                                           m::On3510() ? 64 : 256, calCount, loc,
                                           [](T a, T b) { return static_cast<T>(a ^ b); });
  m::XorScratch(sharedTmpBuffer, src0Tensor.HostPtr(), src1Tensor.HostPtr(), calCount, loc);
}
template <typename T, bool isReuseSource = false>
void Xor(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
         const LocalTensor<T>& src1Tensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
         lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::aicore::math_detail::CheckEqualSources("Xor", src0Tensor, src1Tensor, loc);
  Xor<T, isReuseSource>(dstTensor, src0Tensor, src1Tensor, sharedTmpBuffer, src0Tensor.GetSize(),
                        loc);
}
template <typename T, bool isReuseSource = false>
void Xor(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
         const LocalTensor<T>& src1Tensor, const uint32_t calCount,
         lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  Xor<T, isReuseSource>(dstTensor, src0Tensor, src1Tensor, lngrad::aicore::math_detail::StackTmp(),
                        calCount, loc);
}
template <typename T, bool isReuseSource = false>
void Xor(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
         const LocalTensor<T>& src1Tensor,
         lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::aicore::math_detail::CheckEqualSources("Xor", src0Tensor, src1Tensor, loc);
  Xor<T, isReuseSource>(dstTensor, src0Tensor, src1Tensor, src0Tensor.GetSize(), loc);
}

#define LNGRAD_BITWISE_BINARY(Name, Config, Default, Expr)                                       \
  template <const Config& config = Default, typename T>                                          \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,   \
            const uint32_t count,                                                                \
            lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {                    \
    namespace m = lngrad::aicore::math_detail;                                                   \
    static_assert(m::kBitwiseInt<T>, #Name ": T must be an 8-, 16-, 32- or 64-bit integer");     \
    m::BinaryPass(#Name, m::Products::kOnly3510, m::Overlap::kNone, dst, src0, src1, nullptr, 0, \
                  count, loc, [](T a, T b) { return static_cast<T>(Expr); });                    \
  }

LNGRAD_BITWISE_BINARY(BitwiseAnd, BitwiseAndConfig, DEFAULT_BITWISE_AND_CONFIG, a& b)
LNGRAD_BITWISE_BINARY(BitwiseOr, BitwiseOrConfig, DEFAULT_BITWISE_OR_CONFIG, a | b)
LNGRAD_BITWISE_BINARY(BitwiseXor, BitwiseXorConfig, DEFAULT_BITWISE_XOR_CONFIG, a ^ b)
#undef LNGRAD_BITWISE_BINARY

template <const BitwiseNotConfig& config = DEFAULT_BITWISE_NOT_CONFIG, typename T>
void BitwiseNot(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t count,
                lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  namespace m = lngrad::aicore::math_detail;
  static_assert(m::kBitwiseInt<T>, "BitwiseNot: T must be an 8-, 16-, 32- or 64-bit integer");
  m::UnaryPass("BitwiseNot", m::Products::kOnly3510, m::Overlap::kNone, dst, src, nullptr, 0, count,
               loc, [](T a) { return static_cast<T>(~a); });
}

}  // namespace AscendC
