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
// (GeluLayout, GeluFn): the temp tensors' values of the last full chunk and the tail.
#pragma once

#include <array>
#include <cstdint>
#include <memory>

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

// An element's trace as floats (a half step's value is the float it equals): r, then t[0..2].
using GeluFloats = std::array<float, 4>;

template <typename C>
GeluFloats FloatsOf(const GeluTrace<C>& tr) {
  return {static_cast<float>(tr.r), static_cast<float>(tr.t[0]), static_cast<float>(tr.t[1]),
          static_cast<float>(tr.t[2])};
}

// The element function of GeluPass (UnaryPass takes all n elements through Batch): dst[i] =
// T(r) for every i, and for i >= first (the elements whose temp values the scratch keeps) the
// trace in traces[i - first]. Half steps (C = Hf) run kHfLanes elements at a time through HfV
// where dst and src are identical or disjoint; a partial overlap runs element by element, in
// increasing order, as UnaryPass's own loop.
template <GeluKind kind, typename T, typename C>
struct GeluFn {
  bool recip;
  uint64_t first;
  GeluFloats* traces;

  T operator()(T v) const {
    return T(static_cast<float>(GeluOf<kind>(C(static_cast<float>(v)), recip)));
  }
  uint64_t Batch(T* out, const T* in, uint64_t n) const {
    const auto o = reinterpret_cast<uintptr_t>(out), i = reinterpret_cast<uintptr_t>(in);
    const bool partial = o != i && o < i + n * sizeof(T) && i < o + n * sizeof(T);
    const uint64_t split = std::min(first, n);
    uint64_t k = Lanes(out, in, 0, split, partial, false);
    for (; k < split; ++k) out[k] = (*this)(in[k]);
    k = Lanes(out, in, split, n, partial, true);
    for (; k < n; ++k) {
      const GeluTrace<C> tr = GeluTraceOf<kind>(C(static_cast<float>(in[k])), recip);
      traces[k - first] = FloatsOf(tr);
      out[k] = T(static_cast<float>(tr.r));
    }
    return n;
  }

 private:
  // Elements [from, to) in groups of kHfLanes (C = Hf only); returns where it stopped.
  uint64_t Lanes(T* out, const T* in, uint64_t from, uint64_t to, bool partial, bool keep) const {
    uint64_t k = from;
    if constexpr (std::is_same_v<C, Hf>) {
      if (partial) return k;
      for (; k + kHfLanes <= to; k += kHfLanes) {
        HfV x;
        for (int l = 0; l < kHfLanes; ++l) x.v[l] = Hf(static_cast<float>(in[k + l])).v;
        const GeluTrace<HfV> tr = GeluTraceOf<kind>(x, recip);
        for (int l = 0; l < kHfLanes; ++l) {
          if (keep) {
            traces[k + l - first] = {tr.r.v[l], tr.t[0].v[l], tr.t[1].v[l], tr.t[2].v[l]};
          }
          out[k + l] = T(tr.r.v[l]);
        }
      }
    }
    return k;
  }
};

// The scratch on 2201/2002 (GeluFormulas, GeluFormulasTmpCalc), elements S: float for half with
// highPrecision (float data ignores highPrecision there), T otherwise; chunks of stackSize =
// (scratch bytes / sizeof(S)) / (temp tensors + the float copy of highPrecision half) rounded
// down to 32 elements; temp tensor k at k * stackSize, the float copy (the result in float) after
// them.
template <GeluKind kind, typename T, bool highPrecision>
struct GeluLayout {
  static constexpr bool kConv = highPrecision && std::is_same_v<T, half>;
  using S = std::conditional_t<kConv, float, T>;
  static constexpr size_t kTemps = kind == GeluKind::kGelu ? 2 : kind == GeluKind::kFaster ? 1 : 3;
  static constexpr size_t kSlots = kTemps + (kConv ? 1 : 0);
  uint64_t stack;
  std::array<uint64_t, kSlots> operator()(uint64_t) const {
    std::array<uint64_t, kSlots> o{};
    for (size_t k = 0; k < kSlots; ++k) o[k] = k * stack;
    return o;
  }
  // An element's slot values from its trace.
  static std::array<S, kSlots> Values(const GeluFloats& tr) {
    std::array<S, kSlots> v{};
    for (size_t k = 0; k < kTemps; ++k) v[k] = S(tr[k + 1]);
    if constexpr (kConv) v[kTemps] = S(tr[0]);
    return v;
  }
};

template <GeluKind kind, typename T, bool highPrecision, bool highPerformance>
void GeluPass(const char* api, const AscendC::LocalTensor<T>& dst,
              const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<uint8_t>& tmp,
              uint32_t n, SrcLoc loc) {
  static_assert(kHalfOrFloat<T>, "Gelu family: T must be half or float");
  namespace m = math_detail;
  using C = std::conditional_t<highPrecision, float, StepType<T>>;
  using L = GeluLayout<kind, T, highPrecision>;
  const bool recip = highPerformance && !On3510();
  const bool scratch = !On3510();
  const L layout{scratch ? tmp.View().size_bytes / sizeof(typename L::S) / L::kSlots / 32 * 32 : 0};
  const auto kept = MakeChunkScratch<typename L::S, L::kSlots>(tmp, n, layout.stack, layout);
  // The traces of the elements the scratch keeps (at most two chunks), taken in the pass: dst
  // may be src.
  const uint64_t first = kept.Active() ? kept.First() : n;
  const std::unique_ptr<GeluFloats[]> traces(new GeluFloats[n - first]);  // written in the pass
  m::UnaryPass<m::PassScratch::kModelled>(api, m::Products::kAll, m::Overlap::kIdentical, dst, src,
                                          &tmp, m::TmpMinBytes(3), n, loc,
                                          GeluFn<kind, T, C>{recip, first, traces.get()});
  kept.Write(api, loc, [&](uint64_t i) { return L::Values(traces[i - first]); });
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
