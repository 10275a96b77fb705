// lngrad_replay, the element-wise activations (replay_activation.h): the 2201/2002 instruction
// sequences of the toolkit's impl/adv_api/detail/activation/ sources, one loop per instruction.
#include "replay_activation.h"

#include <cmath>
#include <cstring>
#include <type_traits>
#include <vector>

namespace lngrad_replay {

namespace {

// The value of a half magnitude pattern, 0x7C00 read as 2^16 (the step above 65504).
double HalfMagnitude(uint16_t m) { return m >= 0x7C00u ? 65536.0 : HalfToFloat(Half{m}); }

}  // namespace

Half DoubleToHalf(double d) {
  const uint16_t sign = std::signbit(d) ? 0x8000u : 0u;
  const double a = std::fabs(d);
  if (std::isnan(d)) return Half{static_cast<uint16_t>(sign | 0x7E00u)};
  if (a >= 65520.0) return Half{static_cast<uint16_t>(sign | 0x7C00u)};  // the tie goes to inf
  // A nearby half, then the two halves around a and the exact midpoint between them.
  const uint16_t h0 = FloatToHalf(static_cast<float>(a)).bits;
  const double v0 = HalfMagnitude(h0);
  if (v0 == a) return Half{static_cast<uint16_t>(sign | h0)};
  const uint16_t lo = v0 > a ? static_cast<uint16_t>(h0 - 1u) : h0;
  const uint16_t hi = static_cast<uint16_t>(lo + 1u);
  const double mid = (HalfMagnitude(lo) + HalfMagnitude(hi)) / 2.0;  // exact in double
  uint16_t m = a < mid ? lo : hi;
  if (a == mid) m = (lo & 1u) ? hi : lo;
  return Half{static_cast<uint16_t>(sign | m)};
}

namespace {

// One element as float (exact), and a result stored as T with one rounding.
float Ld(float v) { return v; }
float Ld(Half v) { return HalfToFloat(v); }
float Ld(Bf16 v) { return Bf16ToFloat(v); }

template <class T>
T St(float v) {
  if constexpr (std::is_same_v<T, Half>) {
    return FloatToHalf(v);
  } else if constexpr (std::is_same_v<T, Bf16>) {
    return FloatToBf16(v);
  } else {
    return v;
  }
}

// A transcendental result (computed in double) rounded once to T.
template <class T>
T StD(double v) {
  if constexpr (std::is_same_v<T, Half>) {
    return DoubleToHalf(v);
  } else {
    return static_cast<float>(v);
  }
}

// A constant of the source written `const T c = <double literal>`.
template <class T>
T Const(double c) {
  return StD<T>(c);
}

// The vector instructions, n elements each, in increasing index order.
template <class T>
void Mul(T* d, const T* a, const T* b, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) d[i] = St<T>(Ld(a[i]) * Ld(b[i]));
}
template <class T>
void Add(T* d, const T* a, const T* b, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) d[i] = St<T>(Ld(a[i]) + Ld(b[i]));
}
template <class T>
void Div(T* d, const T* a, const T* b, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) d[i] = St<T>(Ld(a[i]) / Ld(b[i]));
}
template <class T>
void Muls(T* d, const T* a, T s, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) d[i] = St<T>(Ld(a[i]) * Ld(s));
}
template <class T>
void Adds(T* d, const T* a, T s, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) d[i] = St<T>(Ld(a[i]) + Ld(s));
}
template <class T>
void Mins(T* d, const T* a, T s, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) d[i] = Ld(a[i]) < Ld(s) ? a[i] : s;
}
template <class T>
void Maxs(T* d, const T* a, T s, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) d[i] = Ld(a[i]) > Ld(s) ? a[i] : s;
}
template <class T>
void Abs(T* d, const T* a, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) d[i] = St<T>(std::fabs(Ld(a[i])));
}
template <class T>
void Exp(T* d, const T* a, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) d[i] = StD<T>(std::exp(static_cast<double>(Ld(a[i]))));
}
template <class T>
void Reciprocal(T* d, const T* a, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) d[i] = St<T>(1.0f / Ld(a[i]));
}
template <class T>
void Duplicate(T* d, T s, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) d[i] = s;
}
template <class D, class S>
void Cast(D* d, const S* s, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) d[i] = St<D>(Ld(s[i]));
}

// x / d (or x * (1/d) with highPerformance), d overwritten, into out.
template <class C>
void DivideBy(C* out, const C* x, C* d, bool highPerformance, uint32_t n) {
  if (highPerformance) {
    Reciprocal(d, d, n);
    Mul(out, x, d, n);
  } else {
    Div(out, x, d, n);
  }
}

// GeluCalcSimplifiedAvoid: y = ((x*(x*x))*0.044715 + x)*1.5957691216057308, then
// (x / (e^(-|y|) + 1)) * e^(min(y, 0)).
template <class C>
void GeluSequence(C* dst, const C* x, bool highPerformance, uint32_t n) {
  std::vector<C> bufA(n), bufB(n);
  C* a = bufA.data();
  C* b = bufB.data();
  Mul(a, x, x, n);
  Mul(b, x, a, n);
  Muls(a, b, Const<C>(0.044715), n);
  Add(b, x, a, n);
  Muls(a, b, Const<C>(1.5957691216057308), n);
  Mins(b, a, Const<C>(0.0), n);
  Exp(b, b, n);
  Abs(a, a, n);
  Muls(a, a, Const<C>(-1.0), n);
  Exp(a, a, n);
  Adds(a, a, Const<C>(1.0), n);
  DivideBy(a, x, a, highPerformance, n);
  Mul(dst, a, b, n);
}

// FastGeluCalcSimplified: x / (e^(-1.702 x) + 1).
template <class C>
void FasterGeluSequence(C* dst, const C* x, bool highPerformance, uint32_t n) {
  std::vector<C> buf(n);
  C* s = buf.data();
  Muls(s, x, Const<C>(-1.702), n);
  Exp(s, s, n);
  Adds(s, s, Const<C>(1.0), n);
  DivideBy(dst, x, s, highPerformance, n);
}

// FastGeluV2CalcSimplified: a = (min(|0.7071 x|, 1.769) - 1.769)^2 * -0.1444 + 0.5,
// b = x + 1e-12, x * (a * (b / |b|) + 0.5).
template <class C>
void FasterGeluV2Sequence(C* dst, const C* x, bool highPerformance, uint32_t n) {
  std::vector<C> bufA(n), bufB(n), bufC(n);
  C* a = bufA.data();
  C* b = bufB.data();
  C* c = bufC.data();
  Muls(a, x, Const<C>(0.7071), n);
  Abs(a, a, n);
  Mins(a, a, Const<C>(1.769), n);
  Adds(a, a, Const<C>(-1.769), n);
  Mul(a, a, a, n);
  Muls(a, a, Const<C>(-0.1444), n);
  Adds(a, a, Const<C>(0.5), n);
  Adds(b, x, Const<C>(0.000000000001), n);
  Abs(c, b, n);
  DivideBy(b, b, c, highPerformance, n);
  Mul(a, a, b, n);
  Adds(a, a, Const<C>(0.5), n);
  Mul(dst, x, a, n);
}

template <class C>
void GeluFormSequence(GeluForm form, C* dst, const C* x, bool highPerformance, uint32_t n) {
  if (form == GeluForm::kGelu) GeluSequence(dst, x, highPerformance, n);
  if (form == GeluForm::kFasterGelu) FasterGeluSequence(dst, x, highPerformance, n);
  if (form == GeluForm::kFasterGeluV2) FasterGeluV2Sequence(dst, x, highPerformance, n);
}

// The GeGLU constants (constexpr float in the source).
constexpr float kGeGluCoeff0 = static_cast<float>(-0.0713548162726);
constexpr float kGeGluCoeff1 = static_cast<float>(2.2363860002236e1);

// GeGLUCompute in float on float arrays: the working buffer is `w` (dst, or the half
// specialisation's second float buffer); x1 is read again by the later steps.
void GeGluFloat(float* w, const float* x0, const float* x1, uint32_t n) {
  Mul(w, x1, x1, n);
  Adds(w, w, kGeGluCoeff1, n);
  Mul(w, w, x1, n);
  Muls(w, w, kGeGluCoeff0, n);
  Exp(w, w, n);
  Adds(w, w, 1.0f, n);
  Div(w, x1, w, n);
  Mul(w, x0, w, n);
}

// SwishCalcSimplified of SwiGLU then the product with x0, working in w.
void SwiGluFloat(float* w, const float* x0, const float* x1, float beta, uint32_t n) {
  const float scalar = -1.0f * beta;
  Muls(w, x1, scalar, n);
  Exp(w, w, n);
  Adds(w, w, 1.0f, n);
  Div(w, x1, w, n);
  Mul(w, x0, w, n);
}

}  // namespace

template <class T>
void ReplayGelu(GeluForm form, bool highPrecision, bool highPerformance, const T* src, T* dst,
                uint32_t count) {
  if (std::is_same_v<T, Half> && highPrecision) {
    // GeluFormulasHighPrecision: the float copy is both the source and the destination.
    std::vector<float> conv(count);
    Cast(conv.data(), src, count);
    GeluFormSequence(form, conv.data(), conv.data(), highPerformance, count);
    Cast(dst, conv.data(), count);
    return;
  }
  GeluFormSequence(form, dst, src, highPerformance, count);
}

template <class T>
void ReplaySigmoid(const T* src, T* dst, uint32_t count) {
  std::vector<T> ones(count);
  Muls(dst, src, Const<T>(-1.0), count);
  Exp(dst, dst, count);
  Adds(dst, dst, Const<T>(1.0), count);
  Duplicate(ones.data(), Const<T>(1.0), count);
  Div(dst, ones.data(), dst, count);
}

template <class T>
void ReplaySwish(const T* src, T* dst, uint32_t count, T beta) {
  const T scalar = St<T>(-1.0f * Ld(beta));
  Muls(dst, src, scalar, count);
  Exp(dst, dst, count);
  Adds(dst, dst, Const<T>(1.0), count);
  Div(dst, src, dst, count);
}

template <class T>
void ReplaySilu(const T* src, T* dst, uint32_t count) {
  Muls(dst, src, Const<T>(-1.0), count);
  Exp(dst, dst, count);
  Adds(dst, dst, Const<T>(1.0), count);
  Div(dst, src, dst, count);
}

template <class T>
void ReplayGeGLU(const T* src0, const T* src1, T* dst, uint32_t count) {
  if constexpr (std::is_same_v<T, float>) {
    GeGluFloat(dst, src0, src1, count);
  } else {
    std::vector<float> f1(count), f2(count);
    Cast(f1.data(), src1, count);
    Mul(f2.data(), f1.data(), f1.data(), count);
    Adds(f2.data(), f2.data(), kGeGluCoeff1, count);
    Mul(f2.data(), f2.data(), f1.data(), count);
    Muls(f2.data(), f2.data(), kGeGluCoeff0, count);
    Exp(f2.data(), f2.data(), count);
    Adds(f2.data(), f2.data(), 1.0f, count);
    Div(f2.data(), f1.data(), f2.data(), count);
    Cast(f1.data(), src0, count);  // the first float buffer now holds src0
    Mul(f2.data(), f1.data(), f2.data(), count);
    Cast(dst, f2.data(), count);
  }
}

template <class T>
void ReplayReGlu(const T* src0, const T* src1, T* dst, uint32_t count) {
  if constexpr (std::is_same_v<T, float>) {
    Maxs(dst, src1, 0.0f, count);
    Mul(dst, src0, dst, count);
  } else {
    std::vector<float> x0(count), x1(count), y(count);
    Cast(x0.data(), src0, count);
    Cast(x1.data(), src1, count);
    Maxs(y.data(), x1.data(), 0.0f, count);
    Mul(y.data(), x0.data(), y.data(), count);
    Cast(dst, y.data(), count);
  }
}

template <class T>
void ReplaySwiGLU(const T* src0, const T* src1, T* dst, uint32_t count, float beta) {
  if constexpr (std::is_same_v<T, float>) {
    SwiGluFloat(dst, src0, src1, beta, count);
  } else {
    std::vector<float> f1(count), f2(count), f0(count);
    Cast(f1.data(), src1, count);
    const float scalar = -1.0f * beta;
    Muls(f2.data(), f1.data(), scalar, count);
    Exp(f2.data(), f2.data(), count);
    Adds(f2.data(), f2.data(), 1.0f, count);
    Div(f2.data(), f1.data(), f2.data(), count);
    Cast(f0.data(), src0, count);
    Mul(f2.data(), f0.data(), f2.data(), count);
    Cast(dst, f2.data(), count);
  }
}

template void ReplayGelu<float>(GeluForm, bool, bool, const float*, float*, uint32_t);
template void ReplayGelu<Half>(GeluForm, bool, bool, const Half*, Half*, uint32_t);
template void ReplaySigmoid<float>(const float*, float*, uint32_t);
template void ReplaySigmoid<Half>(const Half*, Half*, uint32_t);
template void ReplaySwish<float>(const float*, float*, uint32_t, float);
template void ReplaySwish<Half>(const Half*, Half*, uint32_t, Half);
template void ReplaySilu<float>(const float*, float*, uint32_t);
template void ReplaySilu<Half>(const Half*, Half*, uint32_t);
template void ReplayGeGLU<float>(const float*, const float*, float*, uint32_t);
template void ReplayGeGLU<Half>(const Half*, const Half*, Half*, uint32_t);
template void ReplayReGlu<float>(const float*, const float*, float*, uint32_t);
template void ReplayReGlu<Half>(const Half*, const Half*, Half*, uint32_t);
template void ReplayReGlu<Bf16>(const Bf16*, const Bf16*, Bf16*, uint32_t);
template void ReplaySwiGLU<float>(const float*, const float*, float*, uint32_t, float);
template void ReplaySwiGLU<Half>(const Half*, const Half*, Half*, uint32_t, float);

// ReGluImplVF on 3510: Cast in (exact), Maxs(src1, 0.0f), Mul(src0, that), Cast back.
float ReplayReGlu3510(float x0, float x1) {
  float m = x1;
  if (!(x1 != x1) && 0.0f > x1) m = 0.0f;
  return x0 * m;
}

}  // namespace lngrad_replay
