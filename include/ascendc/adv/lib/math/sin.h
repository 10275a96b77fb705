// lngrad: the Ascend C high-level APIs Sin and Cos (the vendor's adv_api/math/sin.h, cos.h),
// half and float.
//
// The result is the device's sequence on arch 2201 (sin_common_impl.h), per element in float
// (half widened exactly, the result rounded to half, CAST_NONE), each step one instruction
// (math_steps.h): k = Cast<ROUND>(x * 0.31830987...) (ties away from zero); x0 = x - k * pi0,
// then - k * pi1, - k * pi2, - k * pi3 (pi split in four float constants, each product rounded);
// s = Floor(k * 0.5) * 4 + k * -2 + 1 (the sign (-1)^k); z = x0 * x0;
// p = (((z * R0 + R1) * z + R2) * z + R3) * z + 1; r = p * x0 * s. isReuseSource with float
// lets the device keep x0 in srcTensor: lngrad writes it there too. Cos (cos_common_impl.h):
// k = Cast<RINT>(x * 0.31830987... + 0.5); x0 = x - k * pi0 - k * pi1, + 1.5707963705 (pi/2
// in float), - k * pi2 - k * pi3 - k * pi4, + -4.371139e-8; then Sin's sign and polynomial,
// clamped by Mins(1.0) and Maxs(-1.0) (so Cos(+-inf) = Cos(NaN) = 1). On 2002
// (sin_v200_impl.h, cos_v200_impl.h) the Casts of k and of Floor(k * 0.5) go through int32
// (TrigIntegral: |x| past about 6.7e9 and +-inf take k = +-2^31, NaN k = 0, so Sin(+-inf) is
// +-inf there, not NaN). The scratch on 2201/2002 is left as the kit's rounds leave it
// (LeaveSinCosScratch: x0 * P, x0 * x0, x0; half the float result first), both overloads.
// Arch 3510 (sin_3510_impl.h, cos_3510_impl.h, register code) by the config's algo:
//   POLYNOMIAL_APPROXIMATION (the default): the same steps, except that Sin's k rounds to nearest
//   even (Truncate CAST_RINT; 2201's Cast CAST_ROUND ties away), Cos's clamp is the register
//   Mins/Maxs (a NaN stays NaN: Cos(+-inf) = Cos(NaN) = NaN), and the source is only read
//   (isReuseSource leaves it as it was); half widened and cast back CAST_RINT without
//   saturation;
//   RADIAN_REDUCTION: SinCos's sequence (sincos_3510_impl.h, sincos.h here: Payne-Hanek for
//   float, Cody-Waite for half, fused polynomials), its sin (Sin) or its cos (Cos) output, run
//   in chunks of GetSinTmpBufferSize's elements (the scratch's bytes / 8 aligned up to 32, in
//   elements): the scratch keeps the last chunks' reductions (TrigScratch3510, sincos.h).
// The config is the 950's (off it the 2201 sequence runs whatever it says).
//
// Checked mode: calCount within every operand, operands 32-byte aligned and dst disjoint from
// src, sharedTmpBuffer at least GetSinMaxMinTmpSize's (GetCosMaxMinTmpSize's) minimum on 2201/2002
// (256 bytes times 3 for float, 2 with isReuseSource, 8 for half; on 3510 none, RADIAN_REDUCTION
// the config-taking form's 8 * (calCount rounded up to 32) + 32) and disjoint from the operands.
#pragma once

#include <array>
#include <cstdint>
#include <type_traits>

#include "kernel_tiling/math_config.h"
#include "lib/math/math_scratch.h"
#include "lib/math/math_steps.h"
#include "lib/math/sincos.h"

namespace lngrad::aicore::math_detail {

// x reduced by k * pi (k = round(x / pi): ties away from zero on 2201, to even on 3510), and k.
struct SinReduced {
  float x0, k;
};

inline SinReduced SinReduce(float x, bool ties_even = false) {
  float k = x * 0.3183098733425140380859375f;
  k = ties_even ? RintF(k) : TrigIntegral(k, AscendC::RoundMode::CAST_ROUND);
  float x0 = x;
  for (const float pi_part : {3.140625f, 0.0009670257568359375f, 6.2771141529083251953125e-7f,
                              1.21644916362129151821136474609375e-10f}) {
    const float kp = k * pi_part;
    x0 = x0 - kp;
  }
  return {x0, k};
}

// Cos's reduction: x0 = x - k * pi + pi/2 with k = rint(x / pi + 1/2).
inline SinReduced CosReduce(float x) {
  float k = x * 0.3183098733425140380859375f;
  k = k + 0.5f;
  k = TrigIntegral(k, AscendC::RoundMode::CAST_RINT);
  float x0 = x;
  const auto sub = [&](float pi_part) {
    const float kp = k * pi_part;
    x0 = x0 - kp;
  };
  sub(3.140625f);
  sub(0.0009670257568359375f);
  x0 = x0 + 1.57079637050628662109375f;
  sub(6.2771141529083251953125e-7f);
  sub(1.21644916362129151821136474609375e-10f);
  sub(-1.0290623200529979163359041220560e-13f);
  x0 = x0 + -0.00000004371139000189375f;
  return {x0, k};
}

// What one element leaves in the temp tensors on 2201/2002: the reduced argument x0, z = x0 * x0,
// the polynomial times x0 (before the sign), and the result (Cos: clamped).
struct SinParts {
  float x0, z, px, r;
};

// The sign (-1)^k and the polynomial on the reduced argument; `parts` (if not null) gets the
// temp values.
inline float SinPolynomial(const SinReduced& r, SinParts* parts = nullptr) {
  const float z = r.x0 * r.x0;
  float s = r.k * 0.5f;
  s = TrigIntegral(s, AscendC::RoundMode::CAST_FLOOR);
  s = s * 4.0f;
  const float k2 = r.k * -2.0f;
  s = s + k2;
  s = s + 1.0f;
  float p = z * 2.604926501e-6f;
  for (const float c : {-0.0001980894471f, 0.008333049340f, -0.1666665792f}) {
    p = p + c;
    p = p * z;
  }
  p = p + 1.0f;
  p = p * r.x0;
  if (parts != nullptr) *parts = {r.x0, z, p, p * s};
  return p * s;
}

inline float SinSteps(float x, bool ties_even = false) {
  return SinPolynomial(SinReduce(x, ties_even));
}
// Cos ends with Mins(1) and Maxs(-1) (CosPolynomialApproximation): the polynomial's 1 + 1 ulp at
// x0 = pi/2 becomes 1, and a NaN (from +-inf or NaN) becomes 1 by the vector Mins/Maxs
// convention (2201); the 950's register Mins/Maxs pass the NaN on (`reg`).
inline float CosSteps(float x, bool reg = false, SinParts* parts = nullptr) {
  const float p = SinPolynomial(CosReduce(x), parts);
  if (reg) return RegMaxOf(RegMinOf(p, 1.0f), -1.0f);
  const float r = MaxsF(MinsF(p, 1.0f), -1.0f);
  if (parts != nullptr) parts->r = r;
  return r;
}

// One element of Sin (kSin) or Cos on the running arch, algo the config's (3510 only).
template <typename T, bool kSin, bool kRadian>
T SinCosElement(T x) {
  if (!On3510()) return Narrow<T>(kSin ? SinSteps(Widen(x)) : CosSteps(Widen(x)));
  if constexpr (kRadian) {
    const SinCosPair r = SinCosOf(x);
    return Narrow<T>(kSin ? r.sin : r.cos);
  }
  return Narrow<T>(kSin ? SinSteps(Widen(x), true) : CosSteps(Widen(x), true));
}

// Sin's (kSin) or Cos's element function; with RADIAN_REDUCTION on the 950, Batch runs the
// elements leaving their reductions in sharedTmpBuffer chunk by chunk as the device does
// (TrigScratch3510, chunks of RadianChunk3510).
template <typename T, bool kSin, bool kRadian>
struct SinCosApiOp {
  const AscendC::LocalTensor<uint8_t>* tmp = nullptr;
  const char* api = nullptr;
  SrcLoc loc;

  T operator()(T x) const { return SinCosElement<T, kSin, kRadian>(x); }

  uint64_t Batch(T* out, const T* in, uint64_t n) const {
    if constexpr (kRadian) {
      if (!On3510()) return 0;
      TrigScratch3510 work(*tmp, std::is_same_v<T, float>, n, RadianChunk3510<T>(*tmp));
      for (uint64_t i = 0; i < n; ++i) {
        const TrigReduced t = TrigReduceOf(in[i]);
        if (work.Active() && i >= work.First()) work.Put(i, t);
        const SinCosPair r = SinCosCore(t);
        out[i] = Narrow<T>(kSin ? r.sin : r.cos);
      }
      work.Record(api, loc);
      return n;
    } else {
      return 0;
    }
  }
};

// The scratch Sin and Cos need: 2201's factor times 256 bytes; on 3510 none, or SinCos's for
// RADIAN_REDUCTION.
inline uint64_t SinCosApiTmpMin(bool is_float, bool reuse, bool radian, uint32_t count) {
  if (On3510() && radian) return SinCosTmpMin(count);
  return TmpMinBytes(!is_float ? 8 : (reuse ? 2 : 3));
}

// What Sin (kSin) or Cos leaves in its scratch on 2201/2002 (SinImpl / CosImpl): chunks of the
// scratch's floats / (3 float, 2 float with isReuseSource, 4 half) down to 32; float temps at
// k * chunk: x0 * P(x0^2) (the round tensor's last value), x0 * x0, and without isReuseSource x0;
// half: the float result first (the widened source's tensor), then those three.
template <typename T, bool kSin, bool kReuse>
void LeaveSinCosScratch(const AscendC::LocalTensor<uint8_t>& tmp, const T* in, uint64_t n,
                        SrcLoc loc) {
  const char* api = kSin ? "Sin" : "Cos";
  const auto parts = [in](uint64_t i) {
    SinParts p{};
    if constexpr (kSin) {
      SinPolynomial(SinReduce(Widen(in[i])), &p);
    } else {
      CosSteps(Widen(in[i]), false, &p);
    }
    return p;
  };
  if constexpr (std::is_same_v<T, half>) {
    const uint64_t c = ChunkOf(tmp.GetSize(), 4, 32);
    LeaveChunkScratch<4>(api, loc, tmp, n, c, {0, c, 2 * c, 3 * c}, [&](uint64_t i) {
      const SinParts p = parts(i);
      return std::array<float, 4>{p.r, p.px, p.z, p.x0};
    });
  } else if constexpr (kReuse) {
    const uint64_t c = ChunkOf(tmp.GetSize(), 2, 32);
    LeaveChunkScratch<2>(api, loc, tmp, n, c, {0, c}, [&](uint64_t i) {
      const SinParts p = parts(i);
      return std::array<float, 2>{p.px, p.z};
    });
  } else {
    const uint64_t c = ChunkOf(tmp.GetSize(), 3, 32);
    LeaveChunkScratch<3>(api, loc, tmp, n, c, {0, c, 2 * c}, [&](uint64_t i) {
      const SinParts p = parts(i);
      return std::array<float, 3>{p.px, p.z, p.x0};
    });
  }
}

// isReuseSource with float on 2201: the reduced arguments the device leaves in the source.
template <typename T, bool kSin>
void LeaveReduced(const AscendC::LocalTensor<T>& srcTensor, uint32_t calCount) {
  if (On3510()) return;  // the 950's register code only reads the source
  T* src = srcTensor.HostPtr();
  for (uint32_t i = 0; i < calCount; ++i) {
    src[i] = kSin ? SinReduce(src[i]).x0 : CosReduce(src[i]).x0;
  }
}

}  // namespace lngrad::aicore::math_detail

namespace AscendC {

template <typename T, bool isReuseSource = false, const SinConfig& config = defaultSinConfig>
void Sin(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
         const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount,
         lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  namespace m = lngrad::aicore::math_detail;
  static_assert(m::kHalfOrFloat<T>, "Sin: T must be half or float");
  constexpr bool kFloat = std::is_same_v<T, float>;
  constexpr bool kRadian = config.algo == SinAlgo::RADIAN_REDUCTION;
  const uint64_t tmp_min = m::SinCosApiTmpMin(kFloat, isReuseSource, kRadian, calCount);
  m::UnaryPass<m::PassScratch::kModelled>(
      "Sin", m::Products::kAll, m::Overlap::kNone, dstTensor, srcTensor, &sharedTmpBuffer, tmp_min,
      calCount, loc, m::SinCosApiOp<T, true, kRadian>{&sharedTmpBuffer, "Sin", loc});
  if (!m::On3510()) {
    m::LeaveSinCosScratch<T, true, kFloat && isReuseSource>(sharedTmpBuffer, srcTensor.HostPtr(),
                                                            calCount, loc);
  }
  if constexpr (kFloat && isReuseSource) m::LeaveReduced<T, true>(srcTensor, calCount);
}

LNGRAD_MATH_UNARY_FORWARDS_CONFIG(Sin, SinConfig, defaultSinConfig)

template <typename T, bool isReuseSource = false, const CosConfig& config = defaultCosConfig>
void Cos(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
         const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount,
         lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  namespace m = lngrad::aicore::math_detail;
  static_assert(m::kHalfOrFloat<T>, "Cos: T must be half or float");
  constexpr bool kFloat = std::is_same_v<T, float>;
  constexpr bool kRadian = config.algo == CosAlgo::RADIAN_REDUCTION;
  const uint64_t tmp_min = m::SinCosApiTmpMin(kFloat, isReuseSource, kRadian, calCount);
  m::UnaryPass<m::PassScratch::kModelled>(
      "Cos", m::Products::kAll, m::Overlap::kNone, dstTensor, srcTensor, &sharedTmpBuffer, tmp_min,
      calCount, loc, m::SinCosApiOp<T, false, kRadian>{&sharedTmpBuffer, "Cos", loc});
  if (!m::On3510()) {
    m::LeaveSinCosScratch<T, false, kFloat && isReuseSource>(sharedTmpBuffer, srcTensor.HostPtr(),
                                                             calCount, loc);
  }
  if constexpr (kFloat && isReuseSource) m::LeaveReduced<T, false>(srcTensor, calCount);
}

LNGRAD_MATH_UNARY_FORWARDS_CONFIG(Cos, CosConfig, defaultCosConfig)

}  // namespace AscendC
