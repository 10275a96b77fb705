// lngrad: the Ascend C high-level APIs Erf and Erfc (the vendor's adv_api/math/erf.h, erfc.h),
// half and float.
//
// The result is the device's sequence on arch 2201 (erf_common_impl.h), per element in float
// (half widened exactly), each step one float instruction (math_steps.h): x = Maxs(Mins(x,
// 3.92), -3.92) (a NaN becomes 3.92, the device's Mins convention); s = x * x;
//   P = x * (((((0.053443748819 s + 7.5517016694) s + 101.62808918) s + 1393.8061484) s
//       + 5063.7915060) s + 29639.384698),
//   Q = ((((s + 31.212858877) s + 398.56963806) s + 3023.1248150) s + 13243.365831) s
//       + 26267.224157
// (every * and + rounded, the constants rounded to float); Erf = P / Q; half: rounded to half
// with CAST_ROUND (ties away from zero) on arch 2201, to nearest even (CAST_NONE) on 2002
// (GetErfCastType). The scratch on 2201/2002 (sharedTmpBuffer or the stack buffer) is left as
// the kit's rounds leave it (LeaveErfScratch). Arch 3510 (erf_3510_impl.h, register
// code; half widened, rounded back CAST_RINT without saturation) by ErfConfig.algo:
//   PADE_APPROXIMATION: the same P / Q with the register Mins/Maxs (NaN stays NaN) and the
//   constants as double literals rounded to float;
//   SUBSECTION_POLYNOMIAL_APPROXIMATION (CUDA's erff): a = |x|, big = a >= bits 0x3F8060FE;
//   t = big ? a : x * x; a degree-6 polynomial in t by fused multiply-adds on one of two
//   constant sets; u = big ? -a : x; f = fma(p, u, u); below the switch r = f, else
//   r = (1 - Exp(f * Ln(2))) with x's sign bit or-ed in.
// The config is the 950's (off it the 2201 sequence runs whatever it says).
//
// Erfc (erfc_common_impl.h), per element in float: c = Maxs(Mins(x, 10), -10); a = |c| + 2^-62;
// s = c / a (the sign, 0 at 0); E = Exp(-(a * a)) * R(a) / S(a) with R a degree-8 and S a
// degree-5 polynomial (Horner, every step rounded, the float constants of the source); r =
// (s * -1 + 1) + E * s; half: rounded with CAST_ROUND on 2201, CAST_NONE on 2002. Arch 3510
// (erfc_3510_impl.h): the clip with the register Mins/Maxs (NaN stays NaN), a = |c| + 2^-62, e =
// Exp(-(a * a)), s = c / a, r = ((e * s) * R(min(a, 10))) / S(min(a, 10)) + (1 - s) (the same
// polynomials, another order); half rounded to nearest even without saturation.
//
// Checked mode: calCount within every operand, operands 32-byte aligned and dst disjoint from
// src, sharedTmpBuffer at least GetErfMaxMinTmpSize's minimum on 2201/2002 (768 bytes for
// float, 2048 for half; Erfc: 1792 and 4096) and disjoint from the operands.
#pragma once

#include <bit>
#include <array>
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "lib/math/math_scratch.h"
#include "lib/math/math_steps.h"

namespace AscendC {

enum class ErfAlgo {
  PADE_APPROXIMATION = 0,
  SUBSECTION_POLYNOMIAL_APPROXIMATION,
};

struct ErfConfig {
  ErfAlgo algo = ErfAlgo::PADE_APPROXIMATION;
};

constexpr ErfConfig defaultErfConfig = {ErfAlgo::PADE_APPROXIMATION};

}  // namespace AscendC

namespace lngrad::aicore::math_detail {

// What one element leaves in Erf's temp tensors on 2201/2002: s = x * x, P, Q, and the last
// product of Q's Horner (q before + 26267.224157).
struct ErfParts {
  float s = 0, p = 0, q = 0, q_last = 0;
};

// The rational approximation above, in float; `parts` (if not null) gets the temp values.
inline float ErfRational(float x0, ErfParts* parts = nullptr) {
  const float x = MaxsF(MinsF(x0, 3.92f), -3.92f);
  const float s = x * x;
  float p = s * 0.053443748819f;
  for (const float c : {7.5517016694f, 101.62808918f, 1393.8061484f, 5063.7915060f}) {
    p = p + c;
    p = s * p;
  }
  p = p + 29639.384698f;
  p = x * p;
  float q = s + 31.212858877f;
  for (const float c : {398.56963806f, 3023.1248150f, 13243.365831f}) {
    q = s * q;
    q = q + c;
  }
  q = s * q;
  const float q_last = q;
  q = q + 26267.224157f;
  if (parts != nullptr) *parts = {s, p, q, q_last};
  return p / q;
}

// Erf's half cast on 2201/2002 (GetErfCastType, GetErfcCastType): CAST_ROUND on 2201, CAST_NONE
// (to nearest even) on the others.
inline AscendC::RoundMode ErfHalfCast() {
  return detail::rep::RunningArch() == NpuArch::k2201 ? AscendC::RoundMode::CAST_ROUND
                                                      : AscendC::RoundMode::CAST_NONE;
}

// What Erf leaves in its scratch on 2201/2002 (ErfImpl): calSize = bytes / sizeof(T) / (3
// float, 8 half) down to 32, float temp tensors at k * calSize: float s, P, Q; half P / Q, P,
// Q, Q's last product (its fourth tensor held the widened, clipped source before).
template <typename T>
void LeaveErfScratch(const AscendC::LocalTensor<uint8_t>& tmp, const T* in, uint64_t n,
                     SrcLoc loc) {
  const auto parts = [in](uint64_t i, float* r) {
    ErfParts q;
    *r = ErfRational(Widen(in[i]), &q);
    return q;
  };
  if constexpr (std::is_same_v<T, half>) {
    const uint64_t cal = ChunkOf(tmp.GetSize(), 4, 32);
    LeaveChunkScratch<4>("Erf", loc, tmp, n, cal, {0, cal, 2 * cal, 3 * cal}, [&](uint64_t i) {
      float r = 0;
      const ErfParts q = parts(i, &r);
      return std::array<float, 4>{r, q.p, q.q, q.q_last};
    });
  } else {
    const uint64_t cal = ChunkOf(tmp.GetSize(), 3, 32);
    LeaveChunkScratch<3>("Erf", loc, tmp, n, cal, {0, cal, 2 * cal}, [&](uint64_t i) {
      float r = 0;
      const ErfParts q = parts(i, &r);
      return std::array<float, 3>{q.s, q.p, q.q};
    });
  }
}

// Erf's PADE_APPROXIMATION on 3510: the clip with the register Mins/Maxs, then P / Q.
inline float ErfPade3510(float x0) {
  const auto k = [](double c) { return static_cast<float>(c); };
  const float x = RegMaxOf(RegMinOf(x0, k(3.92)), -k(3.92));
  const float s = x * x;
  float p = s * k(0.053443748819);
  for (const double c : {0.75517016694e1, 0.10162808918e3, 0.13938061484e4, 0.50637915060e4}) {
    p = (p + k(c)) * s;
  }
  p = (p + k(0.29639384698e5)) * x;
  float q = s + k(0.31212858877e2);
  for (const double c : {0.39856963806e3, 0.30231248150e4, 0.13243365831e5}) q = q * s + k(c);
  q = q * s + k(0.26267224157e5);
  return p / q;
}

// Erf's SUBSECTION_POLYNOMIAL_APPROXIMATION on 3510 (ErfSubsectionCompute).
inline float ErfSubsection3510(float x) {
  static constexpr uint32_t kBig[] = {0x38EB4C3A, 0xBAAE005B, 0x3C09919F, 0xBD24D99A,
                                      0x3E235519, 0x3F69B4F9, 0x3F210A14};
  static constexpr uint32_t kSmall[] = {0x38B1E96A, 0xBA574D20, 0x3BAAD5EA, 0xBCDC1BE7,
                                        0x3DE718AF, 0xBEC093AC, 0x3E0375D3};
  const float switch_at = std::bit_cast<float>(0x3F8060FEu);
  const float a = std::fabs(x);
  const bool big = a >= switch_at;
  const float t = big ? a : x * x;
  const uint32_t* c = big ? kBig : kSmall;
  float p = std::bit_cast<float>(c[0]);
  for (int i = 1; i < 7; ++i) p = std::fma(p, t, std::bit_cast<float>(c[i]));
  const float u = big ? -a : x;
  const float f = std::fma(p, u, u);
  if (a < switch_at) return f;
  const float one_minus = 1.0f - ExpF(f * LnF(2.0f));
  const uint32_t sign = std::bit_cast<uint32_t>(x) & 0x80000000u;
  return std::bit_cast<float>(sign | std::bit_cast<uint32_t>(one_minus));
}

template <typename T, AscendC::ErfAlgo kAlgo = AscendC::ErfAlgo::PADE_APPROXIMATION>
T ErfOf(T x) {
  if (On3510()) {
    const float v = Widen(x);
    return Narrow<T>(kAlgo == AscendC::ErfAlgo::PADE_APPROXIMATION ? ErfPade3510(v)
                                                                   : ErfSubsection3510(v));
  }
  return Narrow<T>(ErfRational(Widen(x)), ErfHalfCast());
}

// Erfc's sequence above, in float.
// What one element leaves in Erfc's temp tensors on 2201/2002 (ErfcPublicSteps,
// ErfcPostCompute): e = Exp(-(a * a)), 1 - s, E * s, R, the last product of S's Horner (S before
// + 43.80524152), and the sign s.
struct ErfcParts {
  float e = 0, one_minus = 0, big = 0, r = 0, q_last = 0, s = 0;
};

inline float ErfcSteps(float x, ErfcParts* parts = nullptr) {
  const float c = MaxsF(MinsF(x, 10.0f), -10.0f);
  float a = std::fabs(c);
  a = a + 0x1p-62f;
  const float s = c / a;
  float r = a * 0.1735313680e-7f;
  for (const float k : {-0.9856738394e-6f, 0.2517003236e-4f, -0.3848015171e-3f, 0.5681528564e0f,
                        0.5245623129e1f, 0.2107740710e2f, 0.4212761755e2f}) {
    r = r + k;
    r = a * r;
  }
  r = r + 0.4380524149e2f;
  float q = a + 0.9349684299e1f;
  for (const float k : {0.3756930664e2f, 0.8058268949e2f, 0.9155653738e2f}) {
    q = a * q;
    q = q + k;
  }
  q = a * q;
  const float q_last = q;
  q = q + 0.4380524152e2f;
  float e = a * a;
  e = e * -1.0f;
  e = ExpF(e);
  const float ratio = r / q;
  float big = e * ratio;
  float one_minus = s * -1.0f;
  one_minus = one_minus + 1.0f;
  big = big * s;
  if (parts != nullptr) *parts = {e, one_minus, big, r, q_last, s};
  return big + one_minus;
}

// What Erfc leaves in its scratch on 2201/2002 (ErfcImpl): calSize = bytes / sizeof(T) / (5
// float, 12 half) down to 32, float temp tensors at k * calSize: e (half: the float result),
// 1 - s, E * s, R, S's last product, and for half the sign s.
template <typename T>
void LeaveErfcScratch(const AscendC::LocalTensor<uint8_t>& tmp, const T* in, uint64_t n,
                      SrcLoc loc) {
  const auto parts = [in](uint64_t i, float* res) {
    ErfcParts q;
    *res = ErfcSteps(Widen(in[i]), &q);
    return q;
  };
  if constexpr (std::is_same_v<T, half>) {
    const uint64_t cal = ChunkOf(tmp.GetSize(), 6, 32);
    LeaveChunkScratch<6>("Erfc", loc, tmp, n, cal, {0, cal, 2 * cal, 3 * cal, 4 * cal, 5 * cal},
                         [&](uint64_t i) {
                           float res = 0;
                           const ErfcParts q = parts(i, &res);
                           return std::array<float, 6>{res, q.one_minus, q.big, q.r, q.q_last, q.s};
                         });
  } else {
    const uint64_t cal = ChunkOf(tmp.GetSize(), 5, 32);
    LeaveChunkScratch<5>("Erfc", loc, tmp, n, cal, {0, cal, 2 * cal, 3 * cal, 4 * cal},
                         [&](uint64_t i) {
                           float res = 0;
                           const ErfcParts q = parts(i, &res);
                           return std::array<float, 5>{q.e, q.one_minus, q.big, q.r, q.q_last};
                         });
  }
}

// Erfc on 3510 (ErfcClip, ErfcPublicSteps).
inline float ErfcSteps3510(float x) {
  const auto k = [](double c) { return static_cast<float>(c); };
  const float c = RegMaxOf(RegMinOf(x, 10.0f), -10.0f);
  const float a = std::fabs(c) + k(2.168404344971009e-19);
  const float e = ExpF(-(a * a));
  const float z = RegMinOf(a, 10.0f);
  const float s = c / a;
  float r = z * k(0.1735313680e-7);
  for (const double v : {-0.9856738394e-6, 0.2517003236e-4, -0.3848015171e-3, 0.5681528564e0,
                         0.5245623129e1, 0.2107740710e2, 0.4212761755e2}) {
    r = r + k(v);
    r = r * z;
  }
  r = r + k(0.4380524149e2);
  float q = z + k(0.9349684299e1);
  for (const double v : {0.3756930664e2, 0.8058268949e2, 0.9155653738e2, 0.4380524152e2}) {
    q = q * z + k(v);
  }
  return ((e * s) * r) / q + (1.0f - s);
}

template <typename T>
T ErfcOf(T x) {
  if (On3510()) return Narrow<T>(ErfcSteps3510(Widen(x)));
  return Narrow<T>(ErfcSteps(Widen(x)), ErfHalfCast());
}

}  // namespace lngrad::aicore::math_detail

namespace AscendC {

template <typename T, bool isReuseSource = false, const ErfConfig& config = defaultErfConfig>
void Erf(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
         const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount,
         lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  namespace m = lngrad::aicore::math_detail;
  static_assert(m::kHalfOrFloat<T>, "Erf: T must be half or float");
  const uint64_t tmp_min = m::TmpMinBytes(std::is_same_v<T, float> ? 3 : 8);
  m::UnaryPass<m::PassScratch::kModelled>("Erf", m::Products::kAll, m::Overlap::kNone, dstTensor,
                                          srcTensor, &sharedTmpBuffer, tmp_min, calCount, loc,
                                          [](T x) { return m::ErfOf<T, config.algo>(x); });
  if (!m::On3510()) m::LeaveErfScratch<T>(sharedTmpBuffer, srcTensor.HostPtr(), calCount, loc);
}

LNGRAD_MATH_UNARY_FORWARDS_CONFIG(Erf, ErfConfig, defaultErfConfig)

template <typename T, bool isReuseSource = false>
void Erfc(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
          const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount,
          lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  namespace m = lngrad::aicore::math_detail;
  static_assert(m::kHalfOrFloat<T>, "Erfc: T must be half or float");
  const uint64_t tmp_min = m::TmpMinBytes(std::is_same_v<T, float> ? 7 : 16);
  m::UnaryPass<m::PassScratch::kModelled>("Erfc", m::Products::kAll, m::Overlap::kNone, dstTensor,
                                          srcTensor, &sharedTmpBuffer, tmp_min, calCount, loc,
                                          [](T x) { return m::ErfcOf<T>(x); });
  if (!m::On3510()) m::LeaveErfcScratch<T>(sharedTmpBuffer, srcTensor.HostPtr(), calCount, loc);
}
LNGRAD_MATH_UNARY_FORWARDS(Erfc)

}  // namespace AscendC
