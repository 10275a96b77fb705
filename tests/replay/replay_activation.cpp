// lngrad_replay, the element-wise activations (replay_activation.h): the 2201/2002 instruction
// sequences of the toolkit's impl/adv_api/detail/activation/ sources, one loop per instruction.
#include "replay_activation.h"

#include <algorithm>
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
// (x / (e^(-|y|) + 1)) * e^(min(y, 0)); tempTensorA a, tempTensorB b (n elements each).
template <class C>
void GeluSequence(C* dst, const C* x, C* a, C* b, bool highPerformance, uint32_t n) {
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

// FastGeluCalcSimplified: x / (e^(-1.702 x) + 1); its stack buffer is tempTensorA s.
template <class C>
void FasterGeluSequence(C* dst, const C* x, C* s, bool highPerformance, uint32_t n) {
  Muls(s, x, Const<C>(-1.702), n);
  Exp(s, s, n);
  Adds(s, s, Const<C>(1.0), n);
  DivideBy(dst, x, s, highPerformance, n);
}

// FastGeluV2CalcSimplified: a = (min(|0.7071 x|, 1.769) - 1.769)^2 * -0.1444 + 0.5,
// b = x + 1e-12, x * (a * (b / |b|) + 0.5); tempTensorA a, B b, C c.
template <class C>
void FasterGeluV2Sequence(C* dst, const C* x, C* a, C* b, C* c, bool highPerformance, uint32_t n) {
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

// The sequence of `form` on the temp tensors t[0], t[1], t[2] (as many as the form takes).
template <class C>
void GeluFormSequence(GeluForm form, C* dst, const C* x, C* const* t, bool highPerformance,
                      uint32_t n) {
  if (form == GeluForm::kGelu) GeluSequence(dst, x, t[0], t[1], highPerformance, n);
  if (form == GeluForm::kFasterGelu) FasterGeluSequence(dst, x, t[0], highPerformance, n);
  if (form == GeluForm::kFasterGeluV2) {
    FasterGeluV2Sequence(dst, x, t[0], t[1], t[2], highPerformance, n);
  }
}

// The sequence with temp tensors of its own (the replay without the scratch).
template <class C>
void GeluFormOwnTemps(GeluForm form, C* dst, const C* x, bool highPerformance, uint32_t n) {
  std::vector<C> a(n), b(n), c(n);
  C* const t[3] = {a.data(), b.data(), c.data()};
  GeluFormSequence(form, dst, x, t, highPerformance, n);
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

// The half specialisation of GeGLUCompute: tmpFloatBuffer1 f1, tmpFloatBuffer2 f2.
template <class T>
void GeGluHalf(T* dst, const T* src0, const T* src1, float* f1, float* f2, uint32_t n) {
  Cast(f1, src1, n);
  Mul(f2, f1, f1, n);
  Adds(f2, f2, kGeGluCoeff1, n);
  Mul(f2, f2, f1, n);
  Muls(f2, f2, kGeGluCoeff0, n);
  Exp(f2, f2, n);
  Adds(f2, f2, 1.0f, n);
  Div(f2, f1, f2, n);
  Cast(f1, src0, n);  // the first float buffer now holds src0
  Mul(f2, f1, f2, n);
  Cast(dst, f2, n);
}

// ReGluCompute for half and bfloat16: x0CastBuffer, x1CastBuffer, yCastBuffer.
template <class T>
void ReGluCast(T* dst, const T* src0, const T* src1, float* x0, float* x1, float* y, uint32_t n) {
  Cast(x0, src0, n);
  Cast(x1, src1, n);
  Maxs(y, x1, 0.0f, n);
  Mul(y, x0, y, n);
  Cast(dst, y, n);
}

// The half specialisation of SwiGLUImpl: tmpSrc1FloatBuffer1 f1, tmpSrc1FloatBuffer2 f2,
// tmpSrc0FloatBuffer f0.
template <class T>
void SwiGluHalf(T* dst, const T* src0, const T* src1, float beta, float* f1, float* f2, float* f0,
                uint32_t n) {
  Cast(f1, src1, n);
  const float scalar = -1.0f * beta;
  Muls(f2, f1, scalar, n);
  Exp(f2, f2, n);
  Adds(f2, f2, 1.0f, n);
  Div(f2, f1, f2, n);
  Cast(f0, src0, n);
  Mul(f2, f0, f2, n);
  Cast(dst, f2, n);
}

}  // namespace

template <class T>
void ReplayGelu(GeluForm form, bool highPrecision, bool highPerformance, const T* src, T* dst,
                uint32_t count) {
  if (std::is_same_v<T, Half> && highPrecision) {
    // GeluFormulasHighPrecision: the float copy is both the source and the destination.
    std::vector<float> conv(count);
    Cast(conv.data(), src, count);
    GeluFormOwnTemps(form, conv.data(), conv.data(), highPerformance, count);
    Cast(dst, conv.data(), count);
    return;
  }
  GeluFormOwnTemps(form, dst, src, highPerformance, count);
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
    GeGluHalf(dst, src0, src1, f1.data(), f2.data(), count);
  }
}

template <class T>
void ReplayReGlu(const T* src0, const T* src1, T* dst, uint32_t count) {
  if constexpr (std::is_same_v<T, float>) {
    Maxs(dst, src1, 0.0f, count);
    Mul(dst, src0, dst, count);
  } else {
    std::vector<float> x0(count), x1(count), y(count);
    ReGluCast(dst, src0, src1, x0.data(), x1.data(), y.data(), count);
  }
}

template <class T>
void ReplaySwiGLU(const T* src0, const T* src1, T* dst, uint32_t count, float beta) {
  if constexpr (std::is_same_v<T, float>) {
    SwiGluFloat(dst, src0, src1, beta, count);
  } else {
    std::vector<float> f1(count), f2(count), f0(count);
    SwiGluHalf(dst, src0, src1, beta, f1.data(), f2.data(), f0.data(), count);
  }
}

// ---------------------------------------------------------------------------------------------
// The loops with their scratch (replay_activation.h, "The scratch"): the kit's chunked loops run
// on a typed copy of the scratch's bytes (tmpBytes / sizeof(element) elements, copied in and
// back; trailing bytes of a partial element stay as they are).

namespace {

constexpr uint32_t kOneBlk = 32;  // ONE_BLK_SIZE

template <class S>
std::vector<S> ScratchIn(const uint8_t* tmp, uint32_t tmpBytes) {
  std::vector<S> s(tmpBytes / sizeof(S));
  if (!s.empty()) std::memcpy(s.data(), tmp, s.size() * sizeof(S));
  return s;
}

template <class S>
void ScratchOut(const std::vector<S>& s, uint8_t* tmp) {
  if (!s.empty()) std::memcpy(tmp, s.data(), s.size() * sizeof(S));
}

// GeluFormulas / GeluFormulasHighPrecision with GeluFormulasTmpCalc's layout: bufferNumber temp
// tensors of stackSize elements of C from the scratch's start (tempTensorA, B, C), the float
// copy tempTensorConv after them (highPrecision half); stackSize = tmpBufferSize (elements of
// C) / (bufferNumber + highPrecision), rounded down to 32 elements (ONE_BLK_SIZE, in elements).
template <class T, class C>
bool GeluLoop(GeluForm form, bool conv, bool highPerformance, const T* src, T* dst, uint32_t count,
              uint8_t* tmp, uint32_t tmpBytes) {
  const uint32_t buffers = form == GeluForm::kGelu ? 2u : form == GeluForm::kFasterGelu ? 1u : 3u;
  std::vector<C> s = ScratchIn<C>(tmp, tmpBytes);
  const auto size = static_cast<uint32_t>(s.size());
  const uint32_t stackSize = size / (buffers + (conv ? 1u : 0u)) / kOneBlk * kOneBlk;
  if (size == 0 || stackSize == 0) return false;  // the kit's ASCENDC_ASSERTs
  C* const t[3] = {s.data(), s.data() + stackSize, s.data() + 2 * stackSize};
  C* const cv = s.data() + buffers * stackSize;
  for (uint32_t offset = 0; offset < count; offset += stackSize) {
    const uint32_t n = std::min(stackSize, count - offset);  // the rounds, then the tail
    if constexpr (std::is_same_v<T, C>) {
      GeluFormSequence(form, dst + offset, src + offset, t, highPerformance, n);
    } else {
      Cast(cv, src + offset, n);
      GeluFormSequence(form, cv, cv, t, highPerformance, n);
      Cast(dst + offset, cv, n);
    }
  }
  ScratchOut(s, tmp);
  return true;
}

}  // namespace

template <class T>
bool ReplayGeluScratch(GeluForm form, bool highPrecision, bool highPerformance, const T* src,
                       T* dst, uint32_t count, uint8_t* tmp, uint32_t tmpBytes) {
  if (std::is_same_v<T, Half> && highPrecision) {
    return GeluLoop<T, float>(form, true, highPerformance, src, dst, count, tmp, tmpBytes);
  }
  return GeluLoop<T, T>(form, false, highPerformance, src, dst, count, tmp, tmpBytes);
}

// SigmoidImpl / SigmoidCompute: splitSize = the scratch's bytes / sizeof(T); each chunk's
// Duplicate of 1 fills the scratch's first n elements.
template <class T>
bool ReplaySigmoidScratch(const T* src, T* dst, uint32_t count, uint8_t* tmp, uint32_t tmpBytes) {
  std::vector<T> s = ScratchIn<T>(tmp, tmpBytes);
  const auto splitSize = static_cast<uint32_t>(s.size());
  if (splitSize == 0) return false;
  for (uint32_t offset = 0; offset < count; offset += splitSize) {
    const uint32_t n = std::min(splitSize, count - offset);
    T* d = dst + offset;
    Muls(d, src + offset, Const<T>(-1.0), n);
    Exp(d, d, n);
    Adds(d, d, Const<T>(1.0), n);
    Duplicate(s.data(), Const<T>(1.0), n);
    Div(d, s.data(), d, n);
  }
  ScratchOut(s, tmp);
  return true;
}

// GeGLUImpl: float computes in dst (the scratch untouched); half in chunks of tmpBufCount =
// bytes / 8 rounded down to 16 halves (32 bytes), each chunk's n elements with
// tmpFloatBuffer1 at float 0 and tmpFloatBuffer2 at float n rounded up to 16.
template <class T>
bool ReplayGeGLUScratch(const T* src0, const T* src1, T* dst, uint32_t count, uint8_t* tmp,
                        uint32_t tmpBytes) {
  if constexpr (std::is_same_v<T, float>) {
    (void)tmp;
    (void)tmpBytes;
    GeGluFloat(dst, src0, src1, count);
    return true;
  } else {
    std::vector<float> s = ScratchIn<float>(tmp, tmpBytes);
    const uint32_t perBlk = kOneBlk / sizeof(T);
    const uint32_t tmpBufCount = tmpBytes / 8 / perBlk * perBlk;
    if (tmpBufCount == 0 && count != 0) return false;  // the kit's loop would not advance
    for (uint32_t offset = 0; offset < count; offset += tmpBufCount) {
      const uint32_t n = std::min(tmpBufCount, count - offset);
      const uint32_t aligned = (n + perBlk - 1) / perBlk * perBlk;
      GeGluHalf(dst + offset, src0 + offset, src1 + offset, s.data(), s.data() + aligned, n);
    }
    ScratchOut(s, tmp);
    return true;
  }
}

// ReGluImpl: float computes in dst; half and bfloat16 in chunks of stackSize = float elements / 3
// rounded down to 32, the three float buffers at 0, stackSize and 2 stackSize for every chunk.
template <class T>
bool ReplayReGluScratch(const T* src0, const T* src1, T* dst, uint32_t count, uint8_t* tmp,
                        uint32_t tmpBytes) {
  if constexpr (std::is_same_v<T, float>) {
    (void)tmp;
    (void)tmpBytes;
    ReplayReGlu(src0, src1, dst, count);
    return true;
  } else {
    std::vector<float> s = ScratchIn<float>(tmp, tmpBytes);
    const auto size = static_cast<uint32_t>(s.size());
    const uint32_t stackSize = size / 3 / kOneBlk * kOneBlk;
    if (size == 0 || stackSize == 0) return false;
    float* b = s.data();
    for (uint32_t offset = 0; offset < count; offset += stackSize) {
      const uint32_t n = std::min(stackSize, count - offset);
      ReGluCast(dst + offset, src0 + offset, src1 + offset, b, b + stackSize, b + 2 * stackSize, n);
    }
    ScratchOut(s, tmp);
    return true;
  }
}

// SwiGLUImpl: float computes in dst (its chunks of calCount rounded down to 8 change nothing);
// half in chunks of stackSize = float elements / 3 rounded down to 16 halves (16 when that is
// 0), the tail's buffers laid out for its count rounded up to 16: buffers at 0, c and 2c.
template <class T>
bool ReplaySwiGLUScratch(const T* src0, const T* src1, T* dst, uint32_t count, float beta,
                         uint8_t* tmp, uint32_t tmpBytes) {
  if constexpr (std::is_same_v<T, float>) {
    (void)tmp;
    (void)tmpBytes;
    SwiGluFloat(dst, src0, src1, beta, count);
    return true;
  } else {
    std::vector<float> s = ScratchIn<float>(tmp, tmpBytes);
    const uint32_t perBlk = kOneBlk / sizeof(T);
    uint32_t stackSize = tmpBytes / 4 / 3 / perBlk * perBlk;
    if (stackSize == 0) stackSize = perBlk;
    const uint32_t round = count / stackSize, tail = count % stackSize;
    const auto chunk = [&](uint32_t offset, uint32_t n, uint32_t c) {
      if (uint64_t{3} * c > s.size()) return false;  // past the scratch
      float* b = s.data();
      SwiGluHalf(dst + offset, src0 + offset, src1 + offset, beta, b, b + c, b + 2 * c, n);
      return true;
    };
    for (uint32_t i = 0; i < round; ++i) {
      if (!chunk(i * stackSize, stackSize, stackSize)) return false;
    }
    if (tail != 0 && !chunk(round * stackSize, tail, (tail + perBlk - 1) / perBlk * perBlk)) {
      return false;
    }
    ScratchOut(s, tmp);
    return true;
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

template bool ReplayGeluScratch<float>(GeluForm, bool, bool, const float*, float*, uint32_t,
                                       uint8_t*, uint32_t);
template bool ReplayGeluScratch<Half>(GeluForm, bool, bool, const Half*, Half*, uint32_t, uint8_t*,
                                      uint32_t);
template bool ReplaySigmoidScratch<float>(const float*, float*, uint32_t, uint8_t*, uint32_t);
template bool ReplaySigmoidScratch<Half>(const Half*, Half*, uint32_t, uint8_t*, uint32_t);
template bool ReplayGeGLUScratch<float>(const float*, const float*, float*, uint32_t, uint8_t*,
                                        uint32_t);
template bool ReplayGeGLUScratch<Half>(const Half*, const Half*, Half*, uint32_t, uint8_t*,
                                       uint32_t);
template bool ReplayReGluScratch<float>(const float*, const float*, float*, uint32_t, uint8_t*,
                                        uint32_t);
template bool ReplayReGluScratch<Half>(const Half*, const Half*, Half*, uint32_t, uint8_t*,
                                       uint32_t);
template bool ReplayReGluScratch<Bf16>(const Bf16*, const Bf16*, Bf16*, uint32_t, uint8_t*,
                                       uint32_t);
template bool ReplaySwiGLUScratch<float>(const float*, const float*, float*, uint32_t, float,
                                         uint8_t*, uint32_t);
template bool ReplaySwiGLUScratch<Half>(const Half*, const Half*, Half*, uint32_t, float, uint8_t*,
                                        uint32_t);

// ReGluImplVF on 3510: Cast in (exact), Maxs(src1, 0.0f), Mul(src0, that), Cast back.
float ReplayReGlu3510(float x0, float x1) {
  float m = x1;
  if (!(x1 != x1) && 0.0f > x1) m = 0.0f;
  return x0 * m;
}

}  // namespace lngrad_replay
