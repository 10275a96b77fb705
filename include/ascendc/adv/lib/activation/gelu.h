// lngrad: the Ascend C high-level APIs Gelu, FasterGelu and FasterGeluV2 (the vendor's
// adv_api/activation/gelu.h), half and float, on every product (Atlas A2/A3, Ascend 950).
//
// Each is the vendor's instruction sequence (gelu_impl.h on 2201, gelu_3510_impl.h on 3510),
// replayed per element (eltwise_detail::Ar): C = float for float data and for half with
// highPrecision (cast in, computed in float, rounded once to half), C = half otherwise (every
// step rounded to half, as the device's half registers do).
//  - Gelu: y = ((x * (x * x)) * 0.044715 + x) * 1.5957691216057308; dst = (x / (e^(-|y|) + 1))
//    * e^(min(y, 0)), the tanh approximation written to avoid overflow.
//  - FasterGelu: dst = x / (e^(-1.702 x) + 1).
//  - FasterGeluV2: a = (min(|0.7071 x|, 1.769) - 1.769)^2 * -0.1444 + 0.5; b = x + 1e-12;
//    dst = x * (a * (b / |b|) + 0.5). With C = half, 1e-12 rounds to 0 and x = 0 gives NaN
//    (0 / 0), as the sequence does on the device.
// highPerformance (2201 only; the 3510 sequences ignore it): every x / d is Reciprocal(d) then
// Mul (two roundings) instead of Div.
//
// Checked mode: dataSize within dst and src, 32-byte aligned operands, dst and src identical or
// disjoint (the page forbids no in-place use), and on 2201 a sharedTmpBuffer of at least
// GetGeluMinTmpSize's 768 bytes, disjoint from the operands (3510 uses no scratch).
#pragma once

#include <cstdint>

#include "lib/activation/eltwise_common.h"

namespace lngrad::aicore::eltwise_detail {

// x / d as the sequence divides: Div, or with highPerformance Reciprocal then Mul.
template <typename C>
C DivBy(C x, C d, bool recip) {
  return recip ? Ar<C>::Mul(x, Ar<C>::Rec(d)) : Ar<C>::Div(x, d);
}

template <typename C>
C GeluSteps(C x, bool recip) {
  using A = Ar<C>;
  const C cube = A::Mul(x, A::Mul(x, x));
  const C y = A::Muls(A::Add(x, A::Muls(cube, C(0.044715))), C(1.5957691216057308));
  const C lo = A::Exp(A::Mins(y, C(0.0f)));
  const C e = A::Adds(A::Exp(A::Muls(A::Abs(y), C(-1.0f))), C(1.0f));
  return A::Mul(DivBy(x, e, recip), lo);
}

template <typename C>
C FasterGeluSteps(C x, bool recip) {
  using A = Ar<C>;
  const C e = A::Adds(A::Exp(A::Muls(x, C(-1.702))), C(1.0f));
  return DivBy(x, e, recip);
}

template <typename C>
C FasterGeluV2Steps(C x, bool recip) {
  using A = Ar<C>;
  C a = A::Mins(A::Abs(A::Muls(x, C(0.7071))), C(1.769));
  a = A::Adds(a, C(-1.769));
  a = A::Adds(A::Muls(A::Mul(a, a), C(-0.1444)), C(0.5));
  const C b = A::Adds(x, C(0.000000000001));
  const C sign = DivBy(b, A::Abs(b), recip);
  return A::Mul(x, A::Adds(A::Mul(a, sign), C(0.5)));
}

enum class GeluKind { kGelu, kFaster, kFasterV2 };

template <GeluKind kind, typename C>
C GeluOf(C x, bool recip) {
  if constexpr (kind == GeluKind::kGelu) {
    return GeluSteps(x, recip);
  } else if constexpr (kind == GeluKind::kFaster) {
    return FasterGeluSteps(x, recip);
  } else {
    return FasterGeluV2Steps(x, recip);
  }
}

template <GeluKind kind, typename T, bool highPrecision, bool highPerformance>
void GeluPass(const char* api, const AscendC::LocalTensor<T>& dst,
              const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<uint8_t>& tmp,
              uint32_t n, SrcLoc loc) {
  static_assert(kHalfOrFloat<T>, "Gelu family: T must be half or float");
  namespace m = math_detail;
  using C = std::conditional_t<highPrecision, float, StepType<T>>;
  bool recip = highPerformance && !On3510();  // not const: a capture under either compiler
  const auto step = [recip](auto x) { return GeluOf<kind>(x, recip); };
  m::UnaryPass(api, m::Products::kAll, m::Overlap::kIdentical, dst, src, &tmp, m::TmpMinBytes(3), n,
               loc, StepFn<T, C, decltype(step)>{step});
}

}  // namespace lngrad::aicore::eltwise_detail

namespace AscendC {

#define LNGRAD_GELU_API(Name, Kind)                                                         \
  template <typename T, bool highPrecision = false, bool highPerformance = false>           \
  void Name(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,                 \
            const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t dataSize,           \
            lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {               \
    namespace a = lngrad::aicore::eltwise_detail;                                           \
    a::GeluPass<a::GeluKind::Kind, T, highPrecision, highPerformance>(                      \
        #Name, dstLocal, srcLocal, sharedTmpBuffer, dataSize, loc);                         \
  }                                                                                         \
  template <typename T, bool highPrecision = false, bool highPerformance = false>           \
  void Name(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,                 \
            const uint32_t dataSize,                                                        \
            lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {               \
    Name<T, highPrecision, highPerformance>(                                                \
        dstLocal, srcLocal, lngrad::aicore::eltwise_detail::FrameworkTmp(), dataSize, loc); \
  }

LNGRAD_GELU_API(Gelu, kGelu)
LNGRAD_GELU_API(FasterGelu, kFaster)
LNGRAD_GELU_API(FasterGeluV2, kFasterV2)
#undef LNGRAD_GELU_API

}  // namespace AscendC
