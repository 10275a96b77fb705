// The inverse trigonometric and hyperbolic math APIs' scratch on arch 2201/2002
// (replay_math_scratch_inverse.h). Provenance: written by helper mth4 (session 18) from the
// toolkit's sources, read for this file before lngrad's change to these APIs' scratch:
// atan_common_impl.h (AtanImpl, AtanCompute for float and half, AtanFormulaImpl, TaylorExpand,
// AtanTransform, Sign), asin_common_impl.h (AsinImpl, AsinCompute, AsinFp16Compute,
// AsinTaylorCompute, AsinTaylorComputeBySquareValue, GetSign), math_constant_util.h (kCOEF,
// BOUNDARY, HALF_PI, ASIN_*_CALC_PROCEDURE), acos_common_impl.h (AcosImpl, AcosCompute for float
// and half), acosh_common_impl.h (AcoshImpl, AcoshCompute for float and half),
// asinh_common_impl.h (AsinhImpl, AsinhCompute for float and half, AsinhGetSign) and
// atanh_common_impl.h (AtanhImpl, AtanhCompute for float and half), and the public headers
// (adv_api/math/<api>.h: the same file on 2201 and 2002; no _v200 file, no arch branch inside).
// A separate reading by the same helper who then changed lngrad's scratch of these APIs; lngrad's
// per-element steps of these APIs had been read before. Each instruction is one binary32
// operation per element (replay_math_ops.h's choices: Ln in double rounded once, Mins and Min
// give the scalar / second operand for a NaN element); a half instruction is one float
// operation on the widened operands rounded to half; counter mode: an instruction touches
// exactly the round's elements.
#include "replay_math_scratch_inverse.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "replay_math_ops.h"

namespace lngrad_replay {
namespace {

using math_ops::LnF;
using math_ops::Maxs;
using math_ops::Min;
using math_ops::Mins;

// A tensor of E (float or Half) over bytes: element j at p + sizeof(E) * j.
template <class E>
class View {
 public:
  View(void* p, size_t elemOffset) : p_(static_cast<uint8_t*>(p) + sizeof(E) * elemOffset) {}
  E Get(uint32_t j) const {
    E v;
    std::memcpy(&v, p_ + sizeof(E) * static_cast<size_t>(j), sizeof(E));
    return v;
  }
  void Set(uint32_t j, E v) const {
    std::memcpy(p_ + sizeof(E) * static_cast<size_t>(j), &v, sizeof(E));
  }
  uint8_t* Bytes() const { return p_; }

 private:
  uint8_t* p_;
};
using F32 = View<float>;
using H16 = View<Half>;

F32 Floats(const float* p) { return F32(const_cast<float*>(p), 0); }
H16 Halves(const Half* p) { return H16(const_cast<Half*>(p), 0); }

// One instruction over a round: f(j) for its elements in order.
template <class F>
void Each(uint32_t len, F f) {
  for (uint32_t j = 0; j < len; ++j) f(j);
}

// The kit's round loop: rounds of `chunk` elements, then the tail; body(offset, len).
template <class Body>
void Rounds(uint32_t n, uint32_t chunk, Body body) {
  const uint32_t rounds = n / chunk, tail = n % chunk;
  uint32_t offset = 0;
  for (uint32_t r = 0; r < rounds; ++r, offset += chunk) body(offset, chunk);
  if (tail != 0) body(offset, tail);
}

// The tail's tensor length of Acosh, Asinh and Atanh: the round's length up to 32 elements.
uint32_t Up32(uint32_t len) { return (len + 31) / 32 * 32; }

float W(Half h) { return HalfToFloat(h); }
Half H(float f) { return FloatToHalf(f); }

// ---------------------------------------------------------------------------------------------
// Atan

constexpr float kAtanFactor[7] = {1.0f,
                                  static_cast<float>(-0.3333333333333333),
                                  0.2f,
                                  static_cast<float>(-0.14285714285714285),
                                  static_cast<float>(0.1111111111111111),
                                  static_cast<float>(-0.09090909090909091),
                                  static_cast<float>(0.07692307692307693)};
constexpr float kPiBy4 = static_cast<float>(0.78539816339744830961566084581988);
constexpr float kPiBy8 = static_cast<float>(0.39269908169872415480783042290994);
constexpr float kTanPiBy8 = static_cast<float>(0.4142135623730950);
constexpr float k2p62 = 4611686018427387904.0f;
constexpr float k2m62 = static_cast<float>(2.168404344971009e-19);

// TaylorExpand(dst, src, square, level).
void TaylorExpand(const F32& dst, const F32& src, const F32& sq, int level, uint32_t len) {
  Each(len, [&](uint32_t j) { sq.Set(j, src.Get(j) * src.Get(j)); });
  Each(len, [&](uint32_t j) { dst.Set(j, src.Get(j) * src.Get(j)); });
  Each(len, [&](uint32_t j) { dst.Set(j, dst.Get(j) * kAtanFactor[level]); });
  for (int i = level - 1; i > 0; --i) {
    Each(len, [&](uint32_t j) { dst.Set(j, dst.Get(j) + kAtanFactor[i]); });
    Each(len, [&](uint32_t j) { dst.Set(j, dst.Get(j) * sq.Get(j)); });
  }
  Each(len, [&](uint32_t j) { dst.Set(j, dst.Get(j) + kAtanFactor[0]); });
  Each(len, [&](uint32_t j) { dst.Set(j, dst.Get(j) * src.Get(j)); });
}

// AtanTransform(dst, src, tmp, t): |(src - t) / (src * t + 1)|.
void AtanTransform(const F32& dst, const F32& src, const F32& tmp, float t, uint32_t len) {
  const float negT = 0 - t;
  Each(len, [&](uint32_t j) { dst.Set(j, src.Get(j) * t); });
  Each(len, [&](uint32_t j) { dst.Set(j, dst.Get(j) + 1.0f); });
  Each(len, [&](uint32_t j) { tmp.Set(j, src.Get(j) + negT); });
  Each(len, [&](uint32_t j) { dst.Set(j, tmp.Get(j) / dst.Get(j)); });
  Each(len, [&](uint32_t j) { dst.Set(j, std::fabs(dst.Get(j))); });
}

// Sign(dst, src, denominator) on float tensors (the 2^62 constants), also Asin's float GetSign
// and AsinhGetSign.
void SignFloat(const F32& dst, const F32& src, const F32& den, uint32_t len) {
  Each(len, [&](uint32_t j) { dst.Set(j, src.Get(j) * k2p62); });
  Each(len, [&](uint32_t j) { den.Set(j, std::fabs(dst.Get(j))); });
  Each(len, [&](uint32_t j) { den.Set(j, den.Get(j) + k2m62); });
  Each(len, [&](uint32_t j) { dst.Set(j, dst.Get(j) / den.Get(j)); });
}

// AtanFormulaImpl(dst, src, tmpTensor, splitSize): t[0..4] = tmp, clip, abs, tmp2, square.
void AtanFormula(const F32& dst, const F32& src, const F32* t, uint32_t len) {
  const F32 &tmp = t[0], &clip = t[1], &abs = t[2], &tmp2 = t[3], &sq = t[4];
  Each(len, [&](uint32_t j) { clip.Set(j, Mins(src.Get(j), 10000.0f)); });
  Each(len, [&](uint32_t j) { clip.Set(j, Maxs(clip.Get(j), -10000.0f)); });
  Each(len, [&](uint32_t j) { abs.Set(j, std::fabs(clip.Get(j))); });
  TaylorExpand(dst, abs, sq, 4, len);
  AtanTransform(tmp, abs, tmp2, kTanPiBy8, len);
  TaylorExpand(tmp2, tmp, sq, 4, len);
  Each(len, [&](uint32_t j) { tmp2.Set(j, tmp2.Get(j) + kPiBy8); });
  Each(len, [&](uint32_t j) { dst.Set(j, Min(dst.Get(j), tmp2.Get(j))); });
  Each(len, [&](uint32_t j) { tmp2.Set(j, abs.Get(j) + 1.0f); });
  Each(len, [&](uint32_t j) { tmp.Set(j, abs.Get(j) + -1.0f); });
  Each(len, [&](uint32_t j) { tmp.Set(j, tmp.Get(j) / tmp2.Get(j)); });
  Each(len, [&](uint32_t j) { tmp.Set(j, std::fabs(tmp.Get(j))); });
  TaylorExpand(tmp2, tmp, sq, 4, len);
  Each(len, [&](uint32_t j) { tmp2.Set(j, tmp2.Get(j) + kPiBy4); });
  Each(len, [&](uint32_t j) { dst.Set(j, Min(dst.Get(j), tmp2.Get(j))); });
  AtanTransform(tmp2, tmp, sq, kTanPiBy8, len);
  TaylorExpand(tmp, tmp2, sq, 6, len);
  Each(len, [&](uint32_t j) { tmp.Set(j, tmp.Get(j) + kPiBy8); });
  Each(len, [&](uint32_t j) { tmp.Set(j, tmp.Get(j) + kPiBy4); });
  Each(len, [&](uint32_t j) { dst.Set(j, Min(dst.Get(j), tmp.Get(j))); });
  SignFloat(tmp, clip, tmp2, len);
  Each(len, [&](uint32_t j) { dst.Set(j, dst.Get(j) * tmp.Get(j)); });
}

// ---------------------------------------------------------------------------------------------
// Asin and Acos

constexpr float kHalfPi = static_cast<float>(1.5707963267948966192313216916398);
constexpr float kBoundary = static_cast<float>(0.70710678118654752440084436210485);
constexpr float kCoef[8] = {1.0f,
                            static_cast<float>(0.16666666666666666666666666666667),
                            0.075f,
                            static_cast<float>(0.04464285714285714285714285714286),
                            static_cast<float>(0.03038194444444444444444444444444),
                            static_cast<float>(0.02237215909090909090909090909091),
                            static_cast<float>(0.01735276442307692307692307692308),
                            0.01396484375f};

// AsinTaylorCompute<T>(dst, src, localTemp); for half every operation and constant in half.
template <class E>
void AsinTaylor(const View<E>& dst, const View<E>& src, const View<E>& tmp, uint32_t len) {
  constexpr bool kHalf = sizeof(E) == 2;
  const auto r = [](float v) -> E {
    if constexpr (kHalf) {
      return H(v);
    } else {
      return v;
    }
  };
  const auto w = [](E v) -> float {
    if constexpr (kHalf) {
      return W(v);
    } else {
      return v;
    }
  };
  const auto c = [&](int i) { return w(r(kCoef[i])); };  // static_cast<T>(kCOEF[i])
  Each(len, [&](uint32_t j) { dst.Set(j, r(w(src.Get(j)) * w(src.Get(j)))); });
  Each(len, [&](uint32_t j) { tmp.Set(j, r(w(src.Get(j)) * w(src.Get(j)))); });
  Each(len, [&](uint32_t j) { dst.Set(j, r(w(dst.Get(j)) * c(7))); });
  for (int i = 6; i > 0; --i) {
    Each(len, [&](uint32_t j) { dst.Set(j, r(w(dst.Get(j)) + c(i))); });
    Each(len, [&](uint32_t j) { dst.Set(j, r(w(dst.Get(j)) * w(tmp.Get(j)))); });
  }
  Each(len, [&](uint32_t j) { dst.Set(j, r(w(dst.Get(j)) + c(0))); });
  Each(len, [&](uint32_t j) { dst.Set(j, r(w(dst.Get(j)) * w(src.Get(j)))); });
}

// AsinTaylorComputeBySquareValue(dst, src) on float tensors; src ends as Sqrt(src).
void AsinTaylorBySquare(const F32& dst, const F32& src, uint32_t len) {
  Each(len, [&](uint32_t j) { dst.Set(j, src.Get(j) * 1.0f); });
  Each(len, [&](uint32_t j) { dst.Set(j, dst.Get(j) * kCoef[7]); });
  for (int i = 6; i > 0; --i) {
    Each(len, [&](uint32_t j) { dst.Set(j, dst.Get(j) + kCoef[i]); });
    Each(len, [&](uint32_t j) { dst.Set(j, dst.Get(j) * src.Get(j)); });
  }
  Each(len, [&](uint32_t j) { dst.Set(j, dst.Get(j) + kCoef[0]); });
  Each(len, [&](uint32_t j) { src.Set(j, std::sqrt(src.Get(j))); });
  Each(len, [&](uint32_t j) { dst.Set(j, dst.Get(j) * src.Get(j)); });
}

// The Cast float -> int32 CAST_FLOOR in place (the int32 bits stored), then back CAST_NONE.
void FloorThroughInt32InPlace(const F32& t, uint32_t len) {
  Each(len, [&](uint32_t j) {
    const float x = t.Get(j);
    const double f = std::isnan(x) ? 0.0 : std::floor(static_cast<double>(x));
    const int32_t i = static_cast<int32_t>(std::clamp(f, -2147483648.0, 2147483647.0));
    std::memcpy(t.Bytes() + 4 * static_cast<size_t>(j), &i, 4);
  });
  Each(len, [&](uint32_t j) {
    int32_t i;
    std::memcpy(&i, t.Bytes() + 4 * static_cast<size_t>(j), 4);
    t.Set(j, static_cast<float>(i));
  });
}

// AsinCompute<float>(dst, src, tmpBuffer, calSize): t1 = tmpBuffer, t2 = tmpBuffer[calSize].
void AsinFloat(const F32& dst, const F32& src, const F32& t1, const F32& t2, uint32_t len) {
  Each(len, [&](uint32_t j) { t2.Set(j, src.Get(j) * src.Get(j)); });
  Each(len, [&](uint32_t j) { t2.Set(j, t2.Get(j) * -1.0f); });
  Each(len, [&](uint32_t j) { t2.Set(j, t2.Get(j) + 1.0f); });
  Each(len, [&](uint32_t j) { dst.Set(j, std::sqrt(t2.Get(j))); });
  AsinTaylor<float>(t2, dst, t1, len);
  Each(len, [&](uint32_t j) { t2.Set(j, t2.Get(j) * -1.0f); });
  Each(len, [&](uint32_t j) { t2.Set(j, t2.Get(j) + kHalfPi); });
  Each(len, [&](uint32_t j) { t1.Set(j, src.Get(j) * src.Get(j)); });
  AsinTaylorBySquare(dst, t1, len);
  Each(len, [&](uint32_t j) { t1.Set(j, Mins(t1.Get(j), kBoundary)); });
  Each(len, [&](uint32_t j) { t1.Set(j, t1.Get(j) + -kBoundary); });
  FloorThroughInt32InPlace(t1, len);
  Each(len, [&](uint32_t j) { t1.Set(j, t1.Get(j) * -1.0f); });
  Each(len, [&](uint32_t j) { dst.Set(j, dst.Get(j) * t1.Get(j)); });
  Each(len, [&](uint32_t j) { t1.Set(j, t1.Get(j) * -1.0f); });
  Each(len, [&](uint32_t j) { t1.Set(j, t1.Get(j) + 1.0f); });
  Each(len, [&](uint32_t j) { t2.Set(j, t2.Get(j) * t1.Get(j)); });
  Each(len, [&](uint32_t j) { dst.Set(j, dst.Get(j) + t2.Get(j)); });
  SignFloat(t2, src, t1, len);
  Each(len, [&](uint32_t j) { dst.Set(j, dst.Get(j) * t2.Get(j)); });
}

// The half tensors' Cast<int8_t, half>(CAST_FLOOR) into `s8` (bytes), then back to half.
void FloorThroughInt8(const H16& s8, const H16& h, uint32_t len) {
  Each(len, [&](uint32_t j) {
    const float x = W(h.Get(j));
    const float f = std::isnan(x) ? 0.0f : std::floor(x);
    s8.Bytes()[j] = static_cast<uint8_t>(static_cast<int8_t>(std::clamp(f, -128.0f, 127.0f)));
  });
  Each(len,
       [&](uint32_t j) { h.Set(j, H(static_cast<float>(static_cast<int8_t>(s8.Bytes()[j])))); });
}

// AsinFp16Compute(dst, src, stackBuffer, calSize): f1, f2 float at 0 and calSize floats; h1, h2
// half at 4 calSize and 5 calSize halves.
void AsinHalf(const H16& dst, const H16& src, uint8_t* scratch, uint32_t cal, uint32_t len) {
  const F32 f1(scratch, 0), f2(scratch, cal);
  const H16 h1(scratch, 4 * static_cast<size_t>(cal)), h2(scratch, 5 * static_cast<size_t>(cal));
  Each(len, [&](uint32_t j) { f2.Set(j, W(src.Get(j))); });
  Each(len, [&](uint32_t j) { f2.Set(j, f2.Get(j) * f2.Get(j)); });
  Each(len, [&](uint32_t j) { f2.Set(j, f2.Get(j) * -1.0f); });
  Each(len, [&](uint32_t j) { f2.Set(j, f2.Get(j) + 1.0f); });
  AsinTaylorBySquare(f1, f2, len);
  Each(len, [&](uint32_t j) { f1.Set(j, f1.Get(j) * -1.0f); });
  Each(len, [&](uint32_t j) { f1.Set(j, f1.Get(j) + kHalfPi); });
  Each(len, [&](uint32_t j) { h2.Set(j, H(std::fabs(W(src.Get(j))))); });
  AsinTaylor<Half>(dst, h2, h1, len);
  Each(len, [&](uint32_t j) { h2.Set(j, H(Mins(W(h2.Get(j)), W(H(kBoundary))))); });
  Each(len, [&](uint32_t j) { h2.Set(j, H(W(h2.Get(j)) + W(H(-kBoundary)))); });
  FloorThroughInt8(h1, h2, len);
  Each(len, [&](uint32_t j) { h2.Set(j, H(W(h2.Get(j)) * -1.0f)); });
  Each(len, [&](uint32_t j) { dst.Set(j, H(W(dst.Get(j)) * W(h2.Get(j)))); });
  Each(len, [&](uint32_t j) { h2.Set(j, H(W(h2.Get(j)) * -1.0f)); });
  Each(len, [&](uint32_t j) { h2.Set(j, H(W(h2.Get(j)) + 1.0f)); });
  Each(len, [&](uint32_t j) { f2.Set(j, W(h2.Get(j))); });
  Each(len, [&](uint32_t j) { f1.Set(j, f1.Get(j) * f2.Get(j)); });
  Each(len, [&](uint32_t j) { f2.Set(j, W(dst.Get(j))); });
  Each(len, [&](uint32_t j) { f1.Set(j, f2.Get(j) + f1.Get(j)); });
  // GetSign<half>(h1, src, h2): 2^15 and 2^-15 as half.
  Each(len, [&](uint32_t j) { h1.Set(j, H(W(src.Get(j)) * W(H(32768.0f)))); });
  Each(len, [&](uint32_t j) { h2.Set(j, H(std::fabs(W(h1.Get(j))))); });
  Each(len, [&](uint32_t j) { h2.Set(j, H(W(h2.Get(j)) + W(H(3.0517578125e-05f)))); });
  Each(len, [&](uint32_t j) { h1.Set(j, H(W(h1.Get(j)) / W(h2.Get(j)))); });
  Each(len, [&](uint32_t j) { f2.Set(j, W(h1.Get(j))); });
  Each(len, [&](uint32_t j) { f1.Set(j, f1.Get(j) * f2.Get(j)); });
  Each(len, [&](uint32_t j) { dst.Set(j, H(f1.Get(j))); });
}

template <bool kAcos>
bool AsinAcosFloat(const float* src, float* dst, uint32_t n, uint8_t* scratch, uint32_t tmpBytes) {
  const uint32_t cal = tmpBytes / 4 / 4 / 32 * 32;
  if (cal == 0) return false;
  const F32 t1(scratch, 0), t2(scratch, cal);
  Rounds(n, cal, [&](uint32_t off, uint32_t len) {
    const F32 d = Floats(dst + off);
    AsinFloat(d, Floats(src + off), t1, t2, len);
    if (!kAcos) return;
    Each(len, [&](uint32_t j) { d.Set(j, d.Get(j) + -kHalfPi); });
    Each(len, [&](uint32_t j) { d.Set(j, d.Get(j) * -1.0f); });
  });
  return true;
}

template <bool kAcos>
bool AsinAcosHalf(const Half* src, Half* dst, uint32_t n, uint8_t* scratch, uint32_t tmpBytes) {
  const uint32_t cal = tmpBytes / 2 / 6 / 32 * 32;
  if (cal == 0) return false;
  const F32 f1(scratch, 0);
  Rounds(n, cal, [&](uint32_t off, uint32_t len) {
    const H16 d = Halves(dst + off);
    AsinHalf(d, Halves(src + off), scratch, cal, len);
    if (!kAcos) return;
    Each(len, [&](uint32_t j) { f1.Set(j, f1.Get(j) + -kHalfPi); });
    Each(len, [&](uint32_t j) { f1.Set(j, f1.Get(j) * -1.0f); });
    Each(len, [&](uint32_t j) { d.Set(j, H(f1.Get(j))); });
  });
  return true;
}

}  // namespace

bool ReplayAtanScratch(const float* src, float* dst, uint32_t n, uint8_t* scratch,
                       uint32_t tmpBytes) {
  const uint32_t cal = tmpBytes / 4 / 5 / 32 * 32;
  if (cal == 0) return false;
  const F32 t[] = {F32(scratch, 0), F32(scratch, cal), F32(scratch, 2 * cal), F32(scratch, 3 * cal),
                   F32(scratch, 4 * cal)};
  Rounds(n, cal, [&](uint32_t off, uint32_t len) {
    AtanFormula(Floats(dst + off), Floats(src + off), t, len);
  });
  return true;
}

bool ReplayAtanScratch(const Half* src, Half* dst, uint32_t n, uint8_t* scratch,
                       uint32_t tmpBytes) {
  const uint32_t cal = tmpBytes / 4 / 6 / 32 * 32;
  if (cal == 0) return false;
  const F32 t[] = {F32(scratch, 0), F32(scratch, cal), F32(scratch, 2 * cal), F32(scratch, 3 * cal),
                   F32(scratch, 4 * cal)};
  const F32 conv(scratch, 5 * static_cast<size_t>(cal));
  Rounds(n, cal, [&](uint32_t off, uint32_t len) {
    Each(len, [&](uint32_t j) { conv.Set(j, W(src[off + j])); });
    AtanFormula(conv, conv, t, len);
    Each(len, [&](uint32_t j) { dst[off + j] = H(conv.Get(j)); });
  });
  return true;
}

bool ReplayAsinScratch(const float* src, float* dst, uint32_t n, uint8_t* scratch,
                       uint32_t tmpBytes) {
  return AsinAcosFloat<false>(src, dst, n, scratch, tmpBytes);
}
bool ReplayAsinScratch(const Half* src, Half* dst, uint32_t n, uint8_t* scratch,
                       uint32_t tmpBytes) {
  return AsinAcosHalf<false>(src, dst, n, scratch, tmpBytes);
}
bool ReplayAcosScratch(const float* src, float* dst, uint32_t n, uint8_t* scratch,
                       uint32_t tmpBytes) {
  return AsinAcosFloat<true>(src, dst, n, scratch, tmpBytes);
}
bool ReplayAcosScratch(const Half* src, Half* dst, uint32_t n, uint8_t* scratch,
                       uint32_t tmpBytes) {
  return AsinAcosHalf<true>(src, dst, n, scratch, tmpBytes);
}

bool ReplayAcoshScratch(const float* src, float* dst, uint32_t n, uint8_t* scratch,
                        uint32_t tmpBytes) {
  const uint32_t split = tmpBytes / 4 / 1 / 32 * 32;
  if (split == 0) return false;
  const F32 t(scratch, 0);
  Rounds(n, split, [&](uint32_t off, uint32_t len) {
    const F32 x = Floats(src + off), d = Floats(dst + off);
    Each(len, [&](uint32_t j) { t.Set(j, x.Get(j) * x.Get(j)); });
    Each(len, [&](uint32_t j) { t.Set(j, t.Get(j) + -1.0f); });
    Each(len, [&](uint32_t j) { t.Set(j, std::sqrt(t.Get(j))); });
    Each(len, [&](uint32_t j) { t.Set(j, x.Get(j) + t.Get(j)); });
    Each(len, [&](uint32_t j) { d.Set(j, t.Get(j) / t.Get(j)); });
    Each(len, [&](uint32_t j) { t.Set(j, t.Get(j) * d.Get(j)); });
    Each(len, [&](uint32_t j) { d.Set(j, LnF(t.Get(j))); });
  });
  return true;
}

bool ReplayAcoshScratch(const Half* src, Half* dst, uint32_t n, uint8_t* scratch,
                        uint32_t tmpBytes) {
  const uint32_t split = tmpBytes / 4 / 2 / 32 * 32;
  if (split == 0) return false;
  Rounds(n, split, [&](uint32_t off, uint32_t len) {
    const F32 f1(scratch, 0), f2(scratch, Up32(len));
    Each(len, [&](uint32_t j) { f1.Set(j, W(src[off + j])); });
    Each(len, [&](uint32_t j) { f2.Set(j, f1.Get(j) * f1.Get(j)); });
    Each(len, [&](uint32_t j) { f2.Set(j, f2.Get(j) + W(H(-1.0f))); });
    Each(len, [&](uint32_t j) { f2.Set(j, std::sqrt(f2.Get(j))); });
    Each(len, [&](uint32_t j) { f2.Set(j, f2.Get(j) + f1.Get(j)); });
    Each(len, [&](uint32_t j) { f1.Set(j, f2.Get(j) / f2.Get(j)); });
    Each(len, [&](uint32_t j) { f2.Set(j, f2.Get(j) * f1.Get(j)); });
    Each(len, [&](uint32_t j) { f2.Set(j, LnF(f2.Get(j))); });
    Each(len, [&](uint32_t j) { dst[off + j] = H(f2.Get(j)); });
  });
  return true;
}

bool ReplayAsinhScratch(const float* src, float* dst, uint32_t n, uint8_t* scratch,
                        uint32_t tmpBytes) {
  const uint32_t split = tmpBytes / 4 / 3 / 32 * 32;
  if (split == 0) return false;
  Rounds(n, split, [&](uint32_t off, uint32_t len) {
    const uint32_t l = Up32(len);
    const F32 f1(scratch, 0), f3(scratch, l), f2(scratch, 2 * static_cast<size_t>(l));
    const F32 x = Floats(src + off), d = Floats(dst + off);
    Each(len, [&](uint32_t j) { f1.Set(j, std::fabs(x.Get(j))); });
    Each(len, [&](uint32_t j) { f2.Set(j, f1.Get(j) * f1.Get(j)); });
    Each(len, [&](uint32_t j) { f2.Set(j, f2.Get(j) + 1.0f); });
    Each(len, [&](uint32_t j) { f2.Set(j, std::sqrt(f2.Get(j))); });
    Each(len, [&](uint32_t j) { f2.Set(j, f2.Get(j) + f1.Get(j)); });
    Each(len, [&](uint32_t j) { f2.Set(j, LnF(f2.Get(j))); });
    SignFloat(f1, x, f3, len);
    Each(len, [&](uint32_t j) { d.Set(j, f2.Get(j) * f1.Get(j)); });
  });
  return true;
}

bool ReplayAsinhScratch(const Half* src, Half* dst, uint32_t n, uint8_t* scratch,
                        uint32_t tmpBytes) {
  const uint32_t split = tmpBytes / 4 / 3 / 32 * 32;
  if (split == 0) return false;
  Rounds(n, split, [&](uint32_t off, uint32_t len) {
    const uint32_t l = Up32(len);
    const F32 f1(scratch, 0), f3(scratch, l), f2(scratch, 2 * static_cast<size_t>(l));
    Each(len, [&](uint32_t j) { f1.Set(j, W(src[off + j])); });
    Each(len, [&](uint32_t j) { f1.Set(j, std::fabs(f1.Get(j))); });
    Each(len, [&](uint32_t j) { f2.Set(j, f1.Get(j) * f1.Get(j)); });
    Each(len, [&](uint32_t j) { f2.Set(j, f2.Get(j) + W(H(1.0f))); });
    Each(len, [&](uint32_t j) { f2.Set(j, std::sqrt(f2.Get(j))); });
    Each(len, [&](uint32_t j) { f2.Set(j, f2.Get(j) + f1.Get(j)); });
    Each(len, [&](uint32_t j) { f2.Set(j, LnF(f2.Get(j))); });
    Each(len, [&](uint32_t j) { f1.Set(j, W(src[off + j])); });
    SignFloat(f1, f1, f3, len);
    Each(len, [&](uint32_t j) { f2.Set(j, f2.Get(j) * f1.Get(j)); });
    Each(len, [&](uint32_t j) { dst[off + j] = H(f2.Get(j)); });
  });
  return true;
}

bool ReplayAtanhScratch(const float* src, float* dst, uint32_t n, uint8_t* scratch,
                        uint32_t tmpBytes) {
  const uint32_t split = tmpBytes / 4 / 1 / 32 * 32;
  if (split == 0) return false;
  const F32 t(scratch, 0);
  Rounds(n, split, [&](uint32_t off, uint32_t len) {
    const F32 x = Floats(src + off), d = Floats(dst + off);
    Each(len, [&](uint32_t j) { t.Set(j, x.Get(j) + 1.0f); });
    Each(len, [&](uint32_t j) { d.Set(j, x.Get(j) * -1.0f); });
    Each(len, [&](uint32_t j) { d.Set(j, d.Get(j) + 1.0f); });
    Each(len, [&](uint32_t j) { d.Set(j, t.Get(j) / d.Get(j)); });
    Each(len, [&](uint32_t j) { d.Set(j, LnF(d.Get(j))); });
    Each(len, [&](uint32_t j) { d.Set(j, d.Get(j) * 0.5f); });
  });
  return true;
}

bool ReplayAtanhScratch(const Half* src, Half* dst, uint32_t n, uint8_t* scratch,
                        uint32_t tmpBytes) {
  const uint32_t split = tmpBytes / 2 / 4 / 32 * 32;
  if (split == 0) return false;
  Rounds(n, split, [&](uint32_t off, uint32_t len) {
    const F32 f1(scratch, 0), f2(scratch, Up32(len));
    Each(len, [&](uint32_t j) { f1.Set(j, W(src[off + j])); });
    Each(len, [&](uint32_t j) { f2.Set(j, f1.Get(j) + 1.0f); });
    Each(len, [&](uint32_t j) { f1.Set(j, f1.Get(j) * -1.0f); });
    Each(len, [&](uint32_t j) { f1.Set(j, f1.Get(j) + 1.0f); });
    Each(len, [&](uint32_t j) { f1.Set(j, f2.Get(j) / f1.Get(j)); });
    Each(len, [&](uint32_t j) { f1.Set(j, LnF(f1.Get(j))); });
    Each(len, [&](uint32_t j) { f1.Set(j, f1.Get(j) * 0.5f); });
    Each(len, [&](uint32_t j) { dst[off + j] = H(f1.Get(j)); });
  });
  return true;
}

}  // namespace lngrad_replay
