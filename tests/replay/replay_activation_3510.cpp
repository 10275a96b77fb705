// lngrad_replay, the element-wise activations on arch 3510 (replay_activation_3510.h): the
// register sequences of the toolkit's *_3510_impl.h files, one repeat at a time, one line per
// register instruction.
#include "replay_activation_3510.h"

#include <algorithm>
#include <cmath>
#include <type_traits>

namespace lngrad_replay {
namespace {

constexpr uint32_t kVecBytes = 256;  // one register

// A lane of L (float or Half) as float, exactly, and a float rounded once to L.
float F(float v) { return v; }
float F(Half v) { return HalfToFloat(v); }
template <class L>
L To(float v) {
  if constexpr (std::is_same_v<L, Half>) {
    return FloatToHalf(v);
  } else {
    return v;
  }
}

// The register instructions on one selected lane.
template <class L>
L Mul(L a, L b) {
  return To<L>(F(a) * F(b));
}
template <class L>
L Add(L a, L b) {
  return To<L>(F(a) + F(b));
}
template <class L>
L Div(L a, L b) {
  return To<L>(F(a) / F(b));
}
template <class L>
L Muls(L a, float s) {
  return Mul(a, To<L>(s));
}
template <class L>
L Adds(L a, float s) {
  return Add(a, To<L>(s));
}
template <class L>
L Mins(L a, float s) {
  const L b = To<L>(s);
  if (std::isnan(F(a))) return a;
  if (std::isnan(F(b))) return b;
  return F(b) < F(a) ? b : a;
}
template <class L>
L Abs(L a) {
  if constexpr (std::is_same_v<L, Half>) {
    return Half{static_cast<uint16_t>(a.bits & 0x7FFFu)};
  } else {
    return FromBits(Bits(a) & 0x7FFFFFFFu);
  }
}
template <class L>
L Exp(L a) {
  return To<L>(static_cast<float>(std::exp(static_cast<double>(F(a)))));
}

// The device loop: repeats of kVecBytes / sizeof(L) lanes; lane l of repeat r is element
// r * lanes + l, selected while below count. load(element) gives the lane's operand(s) as L
// (a widened half through its exact Cast), step computes the lane, store(element, result) writes
// it (a half destination through the CAST_RINT Cast).
template <class L, class Load, class Step, class Store>
void Repeats(uint32_t count, const Load& load, const Step& step, const Store& store) {
  constexpr uint32_t lanes = kVecBytes / sizeof(L);
  const uint32_t repeatTimes = (count + lanes - 1) / lanes;
  uint32_t remaining = count;
  for (uint32_t r = 0; r < repeatTimes; ++r) {
    const uint32_t selected = std::min(remaining, lanes);  // UpdateMask
    remaining -= selected;
    for (uint32_t l = 0; l < selected; ++l) {
      const uint32_t e = r * lanes + l;
      store(e, step(load(e)));
    }
  }
}

// GeluImplVF: y = (((x*x)*x)*0.044715 + x)*1.5957691216057308 (constexpr float), then
// Exp(Mins(y, 0)) * (x / (Exp(|y| * -1) + 1)).
template <class L>
L GeluLane(L x) {
  constexpr float coefficientsA = 0.044715;
  constexpr float coefficientsB = 1.5957691216057308;
  L t0 = Mul(x, x);
  t0 = Mul(t0, x);
  t0 = Muls(t0, coefficientsA);
  t0 = Add(t0, x);
  t0 = Muls(t0, coefficientsB);
  L t1 = Mins(t0, 0.0f);
  t1 = Exp(t1);
  L t2 = Abs(t0);
  t2 = Muls(t2, -1.0f);
  L t3 = Exp(t2);
  t3 = Adds(t3, 1.0f);
  t3 = Div(x, t3);
  return Mul(t1, t3);
}

// FastGeluCoreAlg: x / (Exp(x * -1.702f) + 1).
template <class L>
L FasterGeluLane(L x) {
  L s = Muls(x, -1.702f);
  s = Exp(s);
  s = Adds(s, 1.0f);
  return Div(x, s);
}

// FastGeluV2CoreAlg: a = (Mins(|x * 0.7071|, 1.769) + -1.769)^2 * -0.1444 + 0.5; b = x + 1e-12
// (constexpr float; 0 in a half lane); x * (a * (b / |b|) + 0.5).
template <class L>
L FasterGeluV2Lane(L x) {
  constexpr float coefficients = 0.000000000001;
  L a = Muls(x, 0.7071f);
  a = Abs(a);
  a = Mins(a, 1.769f);
  a = Adds(a, -1.769f);
  a = Mul(a, a);
  a = Muls(a, -0.1444f);
  a = Adds(a, 0.5f);
  L b = Adds(x, coefficients);
  const L c = Abs(b);
  b = Div(b, c);
  a = Mul(a, b);
  a = Adds(a, 0.5f);
  return Mul(x, a);
}

template <class L>
L GeluFormLane(GeluForm form, L x) {
  if (form == GeluForm::kGelu) return GeluLane(x);
  if (form == GeluForm::kFasterGelu) return FasterGeluLane(x);
  return FasterGeluV2Lane(x);
}

// Lanes of T reading src, writing dst (dst read back nowhere, so dst may be src).
template <class T, class Step>
void SameTypeLanes(const T* src, T* dst, uint32_t count, const Step& step) {
  Repeats<T>(
      count, [src](uint32_t e) { return src[e]; }, step, [dst](uint32_t e, T v) { dst[e] = v; });
}

// Float lanes over T data: a half element widened exactly, the result cast back CAST_RINT.
template <class T, class Step>
void FloatLanes(const T* src, T* dst, uint32_t count, const Step& step) {
  Repeats<float>(
      count, [src](uint32_t e) { return F(src[e]); }, step,
      [dst](uint32_t e, float v) { dst[e] = To<T>(v); });
}

// The gated pair: float lanes x0, x1 (widened), the product cast back.
template <class T, class Step>
void GatedLanes(const T* src0, const T* src1, T* dst, uint32_t count, const Step& step) {
  constexpr uint32_t lanes = kVecBytes / sizeof(float);
  for (uint32_t r = 0; r * lanes < count; ++r) {
    const uint32_t selected = std::min(count - r * lanes, lanes);  // UpdateMask
    for (uint32_t l = 0; l < selected; ++l) {
      const uint32_t e = r * lanes + l;
      dst[e] = To<T>(step(F(src0[e]), F(src1[e])));
    }
  }
}

}  // namespace

template <class T>
void ReplayGelu3510(GeluForm form, bool highPrecision, const T* src, T* dst, uint32_t count) {
  if (std::is_same_v<T, Half> && highPrecision) {
    FloatLanes(src, dst, count, [form](float x) { return GeluFormLane(form, x); });
  } else {
    SameTypeLanes(src, dst, count, [form](T x) { return GeluFormLane(form, x); });
  }
}

template <class T>
void ReplaySigmoid3510(const T* src, T* dst, uint32_t count) {
  FloatLanes(src, dst, count, [](float x) {
    float t = Muls(x, -1.0f);
    t = Exp(t);
    t = Adds(t, 1.0f);
    const float one = 1.0f;  // Duplicate
    return Div(one, t);
  });
}

template <class T>
void ReplaySwish3510(const T* src, T* dst, uint32_t count, T beta) {
  const float negOne = -1.0;
  const T scalar = To<T>(negOne * F(beta));
  SameTypeLanes(src, dst, count, [scalar](T x) {
    T v = Muls(x, F(scalar));
    v = Exp(v);
    v = Adds(v, 1.0f);
    return Div(x, v);
  });
}

template <class T>
void ReplaySilu3510(const T* src, T* dst, uint32_t count) {
  SameTypeLanes(src, dst, count, [](T x) {
    T t = Muls(x, -1.0f);
    t = Exp(t);
    t = Adds(t, 1.0f);
    return Div(x, t);
  });
}

template <class T>
void ReplayGeGLU3510(const T* src0, const T* src1, T* dst, uint32_t count) {
  constexpr float gegluConstantA = 22.36386;
  constexpr float gegluConstantB = -0.071354814;
  GatedLanes(src0, src1, dst, count, [](float x0, float x1) {
    float t0 = Mul(x1, x1);
    t0 = Adds(t0, gegluConstantA);
    t0 = Mul(t0, x1);
    t0 = Muls(t0, gegluConstantB);
    float t1 = Exp(t0);
    t1 = Adds(t1, 1.0f);
    t1 = Div(x1, t1);
    return Mul(x0, t1);
  });
}

template <class T>
void ReplaySwiGLU3510(const T* src0, const T* src1, T* dst, uint32_t count, float beta) {
  const float scalar = -1.0f * beta;
  GatedLanes(src0, src1, dst, count, [scalar](float x0, float x1) {
    float t0 = Muls(x1, scalar);
    float t1 = Exp(t0);
    t1 = Adds(t1, 1.0f);
    t1 = Div(x1, t1);
    return Mul(x0, t1);
  });
}

template void ReplayGelu3510<float>(GeluForm, bool, const float*, float*, uint32_t);
template void ReplayGelu3510<Half>(GeluForm, bool, const Half*, Half*, uint32_t);
template void ReplaySigmoid3510<float>(const float*, float*, uint32_t);
template void ReplaySigmoid3510<Half>(const Half*, Half*, uint32_t);
template void ReplaySwish3510<float>(const float*, float*, uint32_t, float);
template void ReplaySwish3510<Half>(const Half*, Half*, uint32_t, Half);
template void ReplaySilu3510<float>(const float*, float*, uint32_t);
template void ReplaySilu3510<Half>(const Half*, Half*, uint32_t);
template void ReplayGeGLU3510<float>(const float*, const float*, float*, uint32_t);
template void ReplayGeGLU3510<Half>(const Half*, const Half*, Half*, uint32_t);
template void ReplaySwiGLU3510<float>(const float*, const float*, float*, uint32_t, float);
template void ReplaySwiGLU3510<Half>(const Half*, const Half*, Half*, uint32_t, float);

}  // namespace lngrad_replay
