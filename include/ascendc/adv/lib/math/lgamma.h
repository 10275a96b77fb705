// lngrad: the Ascend C high-level API Lgamma (the vendor's adv_api/math/lgamma.h), half and
// float, ln|Gamma(x)|.
//
// The result is the device's sequence on arch 2201 (lgamma_common_impl.h,
// lgamma_common_basic_impl.h), per element in float, each step one instruction (math_steps.h);
// as in Digamma each case is added where its Compare mask holds to a sum that starts at +0.
//   float, on a = |x|: P(a) by range: a < 0.7: -ln(a + a * Q7(a)); [0.7, 1.5): Q11(1 - a);
//     [1.5, 3): Q10(a - 2); [3, 5.8): y + (Q4(y) - 143033.40625) / (Q3(y) - 206353.578125),
//     y = a - 3; [5.8, inf): (a - 0.5) ln(a) / 2 twice + (Q2(1/a^2) + 0.0833332762122) / a +
//     0.91893851757 - a; a = inf: a (Qn(t) = Horner with n constants, times t). x >= 0: P(a);
//     x < 0: a < 1e-19: -ln(a); otherwise, a not an integer and the product finite:
//     ln(pi) - ln(|S(r)| * a) - P(a), r = (a - round(2a) / 2) * pi (rounding 2a + 0.5 down),
//     S the odd polynomial of sin (round(2a) even) or the even one of cos (odd); the negative
//     integers and an infinite product: +inf. NaN x: NaN. isReuseSource lets the device use
//     srcTensor at its base as its zero scalar: each round (the chunk, sharedTmpBuffer's floats
//     / 7 down to 32, then the tail) sets src[0, its length) to +0 after reading its own
//     elements, so src[0, min(calCount, chunk)) ends +0 and the rest keeps its values; lngrad
//     writes those zeros too (LgammaReuseZeros).
//   half (widened exactly; the sum rounded to half): x >= 0: L4(x) - ln x - ln(x+1) - ln(x+2)
//     - ln(x+3), L4 Stirling's series on x + 4 with the 1/(12x - 0.1/x) correction;
//     x < 0: ln(pi / |Sin(pi (x - floor x))|) - P_h(1 - x) (Sin: sin.h's sequence); |x| >= 65504
//     gives 655040 before the rounding to half (+inf).
// 2002 (lgamma_v200_impl.h) floors through int32, which changes no result. On 2201/2002 the
// scratch is left as the kit's rounds leave it (lgamma_scratch.h runs them over its bytes).
// Arch 3510 runs its register implementation (lgamma_3510_impl.h), another algorithm: eleven
// intervals of |x| with their own fits and a SinPi reflection, half through the float sequence
// (lgamma_3510.h); isReuseSource leaves the source as it was there. Its first pass stores its
// float value for each element (Lg3510OnAbs of |x|, half widened) to the scratch, float i at
// bytes [4i, 4i + 4) for i < calCount, which the second pass reads back: lngrad writes those
// bytes too (the rest of the scratch is left as it was).
//
// Checked mode: calCount within every operand, operands 32-byte aligned and dst disjoint from
// src, sharedTmpBuffer at least GetLgammaMaxMinTmpSize's minimum (2201: 256 bytes times 8 for
// float, 7 with isReuseSource, 26 for half; 3510: 4 * calCount) and disjoint from the operands.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <type_traits>

#include "lib/math/digamma.h"  // MaskedSum, GammaPass
#include "lib/math/lgamma_3510.h"
#include "lib/math/lgamma_scratch.h"
#include "lib/math/math_steps.h"
#include "lib/math/sin.h"

namespace lngrad::aicore::math_detail {

inline constexpr float kLgammaPi = 3.1415927410125732421875f;

// t * p0 + p1, then * t + p_i for the rest, then * t (the device's LGammaCalcMulAdd).
inline float LgammaHorner(float t, std::initializer_list<float> p) {
  const float* c = p.begin();
  float r = t * c[0];
  r = r + c[1];
  for (const float* it = c + 2; it != p.end(); ++it) {
    r = r * t;
    r = r + *it;
  }
  return r * t;
}

inline float LgammaBelow07(float a) {
  float t =
      LgammaHorner(a, {0.00358751555905f, -0.00547128543258f, -0.0446271263063f, 0.167317703366f,
                       -0.0421359799802f, -0.655867278576f, 0.577215373516f});
  t = t * a;
  t = t + a;
  return LnF(t) * -1.0f;
}

inline float Lgamma07To15(float a) {
  float y = a * -1.0f;
  y = y + 1.0f;
  return LgammaHorner(y, {0.0458826646209f, 0.103739671409f, 0.122803635895f, 0.127524212003f,
                          0.143216684461f, 0.169343575835f, 0.207407936454f, 0.27058750391f,
                          0.400685429573f, 0.82246696949f, 0.577215671539f});
}

inline float Lgamma15To3(float a) {
  return LgammaHorner(
      a + -2.0f, {4.95984932058e-05f, -0.000220894842641f, 0.000541314249858f, -0.00120451697148f,
                  0.00288425176404f, -0.00738275796175f, 0.0205813199282f, -0.067352488637f,
                  0.322467029095f, 0.422784328461f});
}

inline float Lgamma3To58(float a) {
  const float y = a + -3.0f;
  float n = LgammaHorner(y, {-748.890319824f, -12349.7421875f, -41061.375f, -48310.6640625f});
  n = n + -143033.40625f;
  float d = LgammaHorner(y, {-259.250976562f, -10777.1796875f, -92685.046875f});
  d = d + -206353.578125f;
  return n / d + y;
}

inline float LgammaFrom58(float a) {
  const float h = LnF(a) * 0.5f;
  const float t2 = (a + -0.5f) * h;
  const float r = 1.0f / a;  // Reciprocal
  float t = LgammaHorner(r * r, {0.000777830660809f, -0.00277765537612f});
  t = t + 0.0833332762122f;
  t = t * r;
  t = t + 0.91893851757f;
  t = t + t2;
  t = t + t2;
  return t - a;
}

// P(a) of the float sequence, a = |x|.
inline float LgammaPositiveF(float a) {
  const float inf = std::numeric_limits<float>::infinity();
  MaskedSum r;
  r.Add(a < 0.7f, LgammaBelow07(a));
  r.Add(a >= 0.7f && a < 1.5f, Lgamma07To15(a));
  r.Add(a >= 1.5f && a < 3.0f, Lgamma15To3(a));
  r.Add(a >= 3.0f && a < 5.8f, Lgamma3To58(a));
  r.Add(a >= 5.8f && a < inf, LgammaFrom58(a));
  r.Add(a >= inf, a);
  return r.sum;
}

// The reflection for x < 0 (a = |x|, p = P(a)).
inline float LgammaNegativeF(float a, float p) {
  const float inf = std::numeric_limits<float>::infinity();
  constexpr float kTiny = 9.99999968266e-20f;
  MaskedSum r;
  r.Add(a < kTiny, LnF(a) * -1.0f);
  float n = a + a;
  n = n + 0.5f;
  n = FloorF(n);
  const float half_n = FloorF(n * 0.5f) * 2.0f;
  const bool odd = n - half_n >= 0.5f;
  float t = n * -0.5f;
  t = t + a;
  t = t * kLgammaPi;
  const float t_sq = t * t;
  MaskedSum s;
  float even_v = LgammaHorner(t_sq, {-0.000195746586541645228862762451171875f,
                                     0.0083327032625675201416015625f, -0.16666662693023681640625f});
  even_v = even_v * t;
  s.Add(!odd, even_v + t);
  s.Add(odd,
        LgammaHorner(t_sq, {0.00002427957952022552490234375f, -0.001388786011375486850738525390625f,
                            0.0416667275130748748779296875f, -0.4999999701976776123046875f}) +
            1.0f);
  const float prod = std::fabs(s.sum) * a;
  float v = LnF(prod) * -1.0f;
  v = v + 1.1447298526763916015625f;
  v = v + p * -1.0f;
  const bool finite = FloorF(a) != a && prod < inf && a >= kTiny;
  r.Add(finite, v);
  r.Add(!finite && a >= kTiny, inf);
  return r.sum;
}

inline float LgammaF(float x) {
  const float a = std::fabs(x);
  const float p = LgammaPositiveF(a);
  MaskedSum r;
  r.Add(x >= 0.0f, p);
  r.Add(x < 0.0f, LgammaNegativeF(a, p));
  r.Add(!(x >= 0.0f) && !(x < 0.0f), a);
  return r.sum;
}

// P_h(x) of the half sequence: Stirling on x + 4, less ln x (x+1) (x+2) (x+3).
inline float LgammaPositiveH(float x) {
  const float x4 = x + 4.0f;
  const float inv = 1.0f / x4;
  float t2 = inv * kLgammaPi;
  t2 = t2 * 2.0f;
  t2 = LnF(t2) * 0.5f;
  const float t3 = inv * -0.1f;
  float t4 = x4 * 12.0f;
  t4 = t4 + t3;
  t4 = 1.0f / t4;
  t4 = t4 + x4;
  t4 = LnF(t4);
  t4 = t4 + -1.0f;
  t4 = t4 * x4;
  const float l4 = t4 + t2;
  float s = LnF(x);
  for (const float c : {1.0f, 2.0f, 3.0f}) s = s + LnF(x + c);
  return l4 - s;
}

inline float LgammaNegativeH(float x) {
  float y = x * -1.0f;
  y = y + 1.0f;
  const float r = LgammaPositiveH(y) * -1.0f;
  const float t = (x - FloorF(x)) * kLgammaPi;
  const float s = kLgammaPi / std::fabs(SinSteps(t));
  return r + LnF(s);
}

inline float LgammaH(float x) {
  MaskedSum r;
  const bool ge = x >= 0.0f, lt = x < 0.0f;
  r.Add(ge, LgammaPositiveH(x));
  r.Add(lt, LgammaNegativeH(x));
  r.Add(!ge && !lt, x);
  return std::fabs(x) >= 65504.0f ? 655040.0f : r.sum;
}

template <typename T>
T LgammaOf(T x, bool arch3510) {
  if constexpr (std::is_same_v<T, float>) {
    if (arch3510) return Lgamma3510(x);
    return LgammaF(x);
  } else {
    if (arch3510) return NarrowSaturated<T>(Lgamma3510(Widen(x)));
    return Narrow<T>(LgammaH(Widen(x)));
  }
}

// Arch 3510: the first pass's value of each element stored to the scratch as the device's work
// buffer holds it (float i at bytes 4i; the scratch holds 4 * count bytes, checked above).
template <typename T>
void LgammaWork3510(const char* api, const AscendC::LocalTensor<uint8_t>& tmp,
                    const AscendC::LocalTensor<T>& src, uint32_t count, SrcLoc loc) {
  const detail::TensorView w = tmp.View();
  if (uint64_t{count} * 4 > w.size_bytes) {
    detail::OnTensorOverrun(w, 0, count, 4, "Lgamma sharedTmpBuffer (the work buffer)");
  }
  san::Instr in(Pipe::kV, api, loc);
  if (in) in.Write(w.ptr, uint64_t{count} * 4);
  const T* s = src.HostPtr();
  uint8_t* out = tmp.HostPtr();
  for (uint32_t i = 0; i < count; ++i) {
    const float v = Lg3510OnAbs(std::fabs(static_cast<float>(s[i])));
    std::memcpy(out + uint64_t{i} * 4, &v, 4);
  }
}

// Float isReuseSource on 2201/2002: the zero scalar the device's rounds write at the source's
// base, src[0, min(count, chunk)) (LGammaInitFParams; the chunk is the scratch's floats / 7
// down to a multiple of 32, nonzero by the scratch minimum checked before).
inline void LgammaReuseZeros(const char* api, const AscendC::LocalTensor<uint8_t>& tmp,
                             const AscendC::LocalTensor<float>& src, uint32_t count, SrcLoc loc) {
  const uint64_t chunk = uint64_t{tmp.GetSize()} / 4 / 7 / 32 * 32;
  const uint64_t n = std::min<uint64_t>(count, chunk);
  if (n == 0) return;
  san::Instr in(Pipe::kV, api, loc);
  if (in) in.Write(src.HostPtr(), n * sizeof(float));
  std::fill(src.HostPtr(), src.HostPtr() + n, 0.0f);
}

// The scratch minimum of GetLgammaMaxMinTmpSize for `count` elements on the running arch.
template <typename T, bool isReuseSource>
uint64_t LgammaTmpMin(uint32_t count) {
  if (detail::rep::RunningArch() == NpuArch::k3510) return uint64_t{count} * 4;
  return TmpMinBytes(!std::is_same_v<T, float> ? 26 : (isReuseSource ? 7 : 8));
}

}  // namespace lngrad::aicore::math_detail

namespace AscendC {

template <typename T, bool isReuseSource = false>
void Lgamma(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
            const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount,
            lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  namespace m = lngrad::aicore::math_detail;
  const bool arch3510 = lngrad::aicore::detail::rep::RunningArch() == lngrad::NpuArch::k3510;
  static_assert(m::kHalfOrFloat<T>, "Lgamma: T must be half or float");
  constexpr bool kFloat = std::is_same_v<T, float>;
  m::UnaryPass<m::PassScratch::kModelled>(
      "Lgamma", m::Products::kAll, m::Overlap::kNone, dstTensor, srcTensor, &sharedTmpBuffer,
      m::LgammaTmpMin<T, isReuseSource>(calCount), calCount, loc,
      [arch3510](T x) { return m::LgammaOf<T>(x, arch3510); });
  if (arch3510) m::LgammaWork3510("Lgamma", sharedTmpBuffer, srcTensor, calCount, loc);
  if constexpr (kFloat) {
    if (!arch3510) {
      m::LgammaFloatScratch(sharedTmpBuffer, isReuseSource).Run("Lgamma", loc, srcTensor, calCount);
    }
  } else {
    if (!arch3510) m::LgammaHalfScratch(sharedTmpBuffer).Run("Lgamma", loc, srcTensor, calCount);
  }
  // Float isReuseSource on 2201/2002: the device's zero scalar (the Select's other operand) is
  // kept at the source's base (3510 keeps it in a register).
  if constexpr (kFloat && isReuseSource) {
    if (!arch3510) m::LgammaReuseZeros("Lgamma", sharedTmpBuffer, srcTensor, calCount, loc);
  }
}

LNGRAD_MATH_UNARY_STACK_OVERLOAD(Lgamma)

}  // namespace AscendC
