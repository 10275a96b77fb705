// lngrad: the Ascend C high-level APIs Sigmoid, Swish and Silu (the vendor's
// adv_api/activation/{sigmoid,swish,silu}.h), half and float, on every product (Atlas A2/A3,
// Ascend 950).
//
// Each is the vendor's instruction sequence, replayed per element (eltwise_detail::Ar):
//  - Sigmoid: t = e^(x * -1) + 1; dst = 1 / t (Duplicate 1, Div). On 2201 (sigmoid_impl.h) half
//    data is computed in half, every step rounded to half; on 3510 (sigmoid_3510_impl.h) half is
//    cast to float, computed in float and rounded once to half.
//  - Swish: s = -scalarValue rounded to T; dst = x / (e^(x * s) + 1) in T on every arch
//    (swish_common_impl.h, swish_3510_impl.h).
//  - Silu: Swish with s = -1 (silu_common_impl.h, silu_3510_impl.h).
//
// Checked mode: the count within dst and src, 32-byte aligned operands, dst and src disjoint
// (不支持源操作数与目的操作数地址重叠), and for Sigmoid on 2201 a sharedTmpBuffer of at least
// GetSigmoidMaxMinTmpSize's 256 bytes, disjoint from the operands. On 2201/2002 Sigmoid's scratch
// holds 1 (its Duplicate) in the first min(count, chunk) elements of T, as sigmoid_impl.h leaves
// it. Swish and Silu take no scratch.
#pragma once

#include <array>
#include <cstdint>

#include "lib/activation/eltwise_common.h"

namespace lngrad::aicore::eltwise_detail {

template <typename C>
C SigmoidSteps(C x) {
  using A = Ar<C>;
  return A::Div(C(1.0f), A::Adds(A::Exp(A::Muls(x, C(-1.0f))), C(1.0f)));
}

// Swish and Silu: dst = SwishSteps(x, s) in T, s = -beta rounded to T.
template <typename T>
void SwishPass(const char* api, const AscendC::LocalTensor<T>& dst,
               const AscendC::LocalTensor<T>& src, uint32_t n, float beta, SrcLoc loc) {
  static_assert(kHalfOrFloat<T>, "Swish/Silu: T must be half or float");
  namespace m = math_detail;
  const T s = T(-1.0f * beta);
  m::UnaryPass(api, m::Products::kAll, m::Overlap::kNone, dst, src, nullptr, 0, n, loc, [s](T x) {
    using C = StepType<T>;
    return T(static_cast<float>(SwishSteps(C(static_cast<float>(x)), C(static_cast<float>(s)))));
  });
}

}  // namespace lngrad::aicore::eltwise_detail

namespace AscendC {

template <typename T, bool isReuseSource = false>
void Sigmoid(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
             const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount,
             lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  namespace a = lngrad::aicore::eltwise_detail;
  namespace m = lngrad::aicore::math_detail;
  static_assert(a::kHalfOrFloat<T>, "Sigmoid: T must be half or float");
  const bool in_float = a::On3510();
  m::UnaryPass<m::PassScratch::kModelled>(
      "Sigmoid", m::Products::kAll, m::Overlap::kNone, dstTensor, srcTensor, &sharedTmpBuffer,
      m::TmpMinBytes(1), calCount, loc, [in_float](T x) {
        using C = a::StepType<T>;
        const float r = in_float ? a::SigmoidSteps(static_cast<float>(x))
                                 : static_cast<float>(a::SigmoidSteps(C(static_cast<float>(x))));
        return T(r);
      });
  // On 2201/2002 (sigmoid_impl.h): chunks of the scratch's bytes / sizeof(T), each one's
  // Duplicate of 1 at the scratch's start: 1 in its first min(count, chunk) elements.
  if (in_float) return;
  const uint64_t chunk = sharedTmpBuffer.View().size_bytes / sizeof(T);
  a::MakeChunkScratch<T, 1>(sharedTmpBuffer, calCount, chunk, [](uint64_t) {
    return std::array<uint64_t, 1>{0};
  }).Write("Sigmoid", loc, [](uint64_t) { return std::array<T, 1>{T(1.0f)}; });
}

template <typename T, bool isReuseSource = false>
void Sigmoid(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
             const uint32_t calCount,
             lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  Sigmoid<T, isReuseSource>(dstTensor, srcTensor, lngrad::aicore::eltwise_detail::FrameworkTmp(),
                            calCount, loc);
}

template <typename T, bool isReuseSource = false>
void Sigmoid(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
             const LocalTensor<uint8_t>& sharedTmpBuffer,
             lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  Sigmoid<T, isReuseSource>(dstTensor, srcTensor, sharedTmpBuffer, srcTensor.GetSize(), loc);
}

template <typename T, bool isReuseSource = false>
void Sigmoid(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
             lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  Sigmoid<T, isReuseSource>(dstTensor, srcTensor, srcTensor.GetSize(), loc);
}

template <typename T, bool isReuseSource = false>
void Swish(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, uint32_t dataSize,
           const T scalarValue, lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::aicore::eltwise_detail::SwishPass("Swish", dstLocal, srcLocal, dataSize,
                                            static_cast<float>(scalarValue), loc);
}

template <typename T, bool isReuseSource = false>
void Silu(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, uint32_t dataSize,
          lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::aicore::eltwise_detail::SwishPass("Silu", dstLocal, srcLocal, dataSize, 1.0f, loc);
}

}  // namespace AscendC
