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
// GetGeluMinTmpSize's 768 bytes, disjoint from the operands (3510 uses no scratch). On 2201/2002
// the scratch (sharedTmpBuffer or the stack buffer) is left as gelu_impl.h's loop leaves it
// (GeluScratch): the temp tensors' values of the last full chunk and the tail.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "lib/activation/eltwise_common.h"

namespace lngrad::aicore::eltwise_detail {

// x / d as the sequence divides: Div, or with highPerformance Reciprocal then Mul (d, the temp
// tensor, then holds 1 / d).
template <typename C>
C DivBy(C x, C& d, bool recip) {
  if (!recip) return Ar<C>::Div(x, d);
  d = Ar<C>::Rec(d);
  return Ar<C>::Mul(x, d);
}

// One element through a sequence of gelu_impl.h: the result r and the last values of the temp
// tensors tempTensorA, B, C (t[0..2], as many as the sequence takes).
template <typename C>
struct GeluTrace {
  C r;
  C t[3];
};

// Gelu: A = x / (e^(-|y|) + 1), B = e^(min(y, 0)).
template <typename C>
GeluTrace<C> GeluSteps(C x, bool recip) {
  using A = Ar<C>;
  const C cube = A::Mul(x, A::Mul(x, x));
  const C y = A::Muls(A::Add(x, A::Muls(cube, C(0.044715))), C(1.5957691216057308));
  const C lo = A::Exp(A::Mins(y, C(0.0f)));
  C e = A::Adds(A::Exp(A::Muls(A::Abs(y), C(-1.0f))), C(1.0f));
  const C q = DivBy(x, e, recip);
  return {A::Mul(q, lo), {q, lo, lo}};
}

// FasterGelu: A = e^(-1.702 x) + 1 (its reciprocal with highPerformance).
template <typename C>
GeluTrace<C> FasterGeluSteps(C x, bool recip) {
  using A = Ar<C>;
  C e = A::Adds(A::Exp(A::Muls(x, C(-1.702))), C(1.0f));
  const C r = DivBy(x, e, recip);
  return {r, {e, e, e}};
}

// FasterGeluV2: A = a * (b / |b|) + 0.5, B = b / |b|, C = |b| (its reciprocal).
template <typename C>
GeluTrace<C> FasterGeluV2Steps(C x, bool recip) {
  using A = Ar<C>;
  C a = A::Mins(A::Abs(A::Muls(x, C(0.7071))), C(1.769));
  a = A::Adds(a, C(-1.769));
  a = A::Adds(A::Muls(A::Mul(a, a), C(-0.1444)), C(0.5));
  const C b = A::Adds(x, C(0.000000000001));
  C mag = A::Abs(b);
  const C sign = DivBy(b, mag, recip);
  const C m = A::Adds(A::Mul(a, sign), C(0.5));
  return {A::Mul(x, m), {m, sign, mag}};
}

enum class GeluKind { kGelu, kFaster, kFasterV2 };

template <GeluKind kind, typename C>
GeluTrace<C> GeluTraceOf(C x, bool recip) {
  if constexpr (kind == GeluKind::kGelu) {
    return GeluSteps(x, recip);
  } else if constexpr (kind == GeluKind::kFaster) {
    return FasterGeluSteps(x, recip);
  } else {
    return FasterGeluV2Steps(x, recip);
  }
}

template <GeluKind kind, typename C>
C GeluOf(C x, bool recip) {
  return GeluTraceOf<kind>(x, recip).r;
}

// The scratch on 2201/2002 (GeluFormulas, GeluFormulasTmpCalc): elements S, float for half with
// highPrecision (float data ignores highPrecision there), T otherwise; chunks of stackSize =
// (scratch bytes / sizeof(S)) / (temp tensors + the float copy of highPrecision half) rounded
// down to 32 elements; temp tensor k at k * stackSize, the float copy (the result in float) after
// them. xs: the sources from element xs_first on.
template <GeluKind kind, typename T, bool highPrecision>
void GeluScratch(const char* api, const AscendC::LocalTensor<uint8_t>& tmp,
                 const std::vector<T>& xs, uint64_t xs_first, uint64_t n, bool recip, SrcLoc loc) {
  constexpr bool kConv = highPrecision && std::is_same_v<T, half>;  // float data: no copy
  using S = std::conditional_t<kConv, float, T>;
  using C = std::conditional_t<highPrecision, float, StepType<T>>;
  constexpr size_t kTemps = kind == GeluKind::kGelu ? 2 : kind == GeluKind::kFaster ? 1 : 3;
  constexpr size_t kSlots = kTemps + (kConv ? 1 : 0);
  const uint64_t elems = tmp.View().size_bytes / sizeof(S);
  const uint64_t stack = elems / kSlots / 32 * 32;
  const auto off = [stack](uint64_t) {
    std::array<uint64_t, kSlots> o{};
    for (size_t k = 0; k < kSlots; ++k) o[k] = k * stack;
    return o;
  };
  const auto scratch = MakeChunkScratch<S, kSlots>(tmp, n, stack, off);
  scratch.Write(api, loc, [&](uint64_t i) {
    const GeluTrace<C> tr = GeluTraceOf<kind>(C(static_cast<float>(xs[i - xs_first])), recip);
    std::array<S, kSlots> v{};
    for (size_t k = 0; k < kTemps; ++k) v[k] = AsElem<S>(tr.t[k]);
    if constexpr (kConv) v[kTemps] = AsElem<S>(tr.r);
    return v;
  });
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
  // The scratch's elements come from the sources, read before dst (which may be src) is written;
  // only the last full chunk's and the tail's (at most two chunks).
  const uint64_t keep =
      On3510() ? n : n - std::min<uint64_t>(n, 2 * tmp.View().size_bytes / sizeof(T));
  const std::vector<T> xs = SourceCopy(src, keep, n);
  m::UnaryPass(api, m::Products::kAll, m::Overlap::kIdentical, dst, src, &tmp, m::TmpMinBytes(3), n,
               loc, StepFn<T, C, decltype(step)>{step});
  if (!On3510()) GeluScratch<kind, T, highPrecision>(api, tmp, xs, keep, n, recip, loc);
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
