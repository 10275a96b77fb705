// lngrad: the Ascend C high-level API Tan (the vendor's adv_api/math/tan.h), half and float.
//
// The result is the device's sequence on arch 2201 (tan_common_impl.h), per element in float
// (float: x + 0 first, so -0 gives +0; half widened exactly, the result rounded to half,
// CAST_NONE), each step one instruction (math_steps.h): k = Cast<RINT>(x * 0.31830987...);
// x0 = x - k * pi0 - k * pi1; u = x0 + pi/2, v = x0 - pi/2 (pi/2 in float); then each of x0, u,
// v minus k * pi2 (u, v also + -4.371139e-8 and + 4.371139e-8), minus k * pi3, minus k * pi4;
// z = x0 * x0; p = ((z * R0 + R1) * z + R2) * x0; q = (z + R3) * u * v; r = p / q. On 2002
// (tan_v200_impl.h) k's Cast goes through int32 (TrigIntegral: |x| past about 6.7e9 and +-inf
// take k = +-2^31, NaN k = 0). The scratch on 2201/2002 is left as the kit's rounds leave it
// (LeaveTanScratch: q, u, v, x0; half the float result first), both overloads. Arch 3510
// (tan_3510_impl.h, register code): the same steps (without the x + 0, which changes no result:
// x - k * pi0 is +0 for x = -0 either way); half widened and cast back CAST_RINT with
// saturation (an infinite result to +-65504, NaN to +0).
//
// Checked mode: calCount within every operand, operands 32-byte aligned and dst disjoint from
// src, sharedTmpBuffer at least GetTanMaxMinTmpSize's minimum on 2201/2002 (256 bytes times 4
// for float, 10 for half) and disjoint from the operands.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "lib/math/math_scratch.h"
#include "lib/math/math_steps.h"

namespace lngrad::aicore::math_detail {

// What one element leaves in the temp tensors on 2201/2002: the reduced argument x0, u = x0 +
// pi/2 and v = x0 - pi/2 (reduced), the denominator q and the result p / q.
struct TanParts {
  float x0, u, v, q, r;
};

inline float TanSteps(float x, TanParts* out = nullptr) {
  float k = x * 0.3183098733425140380859375f;
  k = TrigIntegral(k, AscendC::RoundMode::CAST_RINT);
  const float kp0 = k * 3.140625f;
  float x0 = x - kp0;
  const float kp1 = k * 0.0009670257568359375f;
  x0 = x0 - kp1;
  float u = x0 + 1.57079637050628662109375f;
  float v = x0 + -1.57079637050628662109375f;
  const float parts[3] = {6.2771141529083251953125e-7f, 1.21644916362129151821136474609375e-10f,
                          -1.0291767438275201129727065563201904296875e-13f};
  for (int i = 0; i < 3; ++i) {
    const float t = k * parts[i];
    x0 = x0 - t;
    u = u - t;
    v = v - t;
    if (i == 0) {
      u = u + -0.00000004371139000189375f;
      v = v + 0.00000004371139000189375f;
    }
  }
  const float z = x0 * x0;
  float p = z * 0.0698520831551998762793f;
  p = p + -6.8711573651634203789f;
  p = p * z;
  p = p + 61.20362572811089435388f;
  p = p * x0;
  float q = z + -24.8048928861126769186219f;
  q = q * u;
  q = q * v;
  if (out != nullptr) *out = {x0, u, v, q, p / q};
  return p / q;
}

template <typename T>
T TanOf(T x) {
  if constexpr (std::is_same_v<T, float>) {
    return TanSteps(x + 0.0f);
  } else {
    const float r = TanSteps(Widen(x));
    return On3510() ? NarrowSaturated<T>(r) : Narrow<T>(r);
  }
}

// What Tan leaves in its scratch on 2201/2002 (TanImpl): splitCount = the scratch's bytes /
// sizeof(T) / (4 float, 10 half) down to 32; a round of len elements places its float temps at
// k * (len rounded up to 32) (the tail's tailCount; a full round's splitCount): float q, u, v,
// x0 (of x + 0); half the float result, x0, q, u, v.
template <typename T>
void LeaveTanScratch(const AscendC::LocalTensor<uint8_t>& tmp, const T* in, uint64_t n,
                     SrcLoc loc) {
  constexpr bool kHalf = std::is_same_v<T, half>;
  constexpr size_t kTemps = kHalf ? 5 : 4;
  const uint64_t split = ChunkOf(tmp.GetSize(), kTemps, 32);
  const auto off = [](uint64_t len) {
    const uint64_t c = (len + 31) / 32 * 32;
    std::array<uint64_t, kTemps> o{};
    for (size_t k = 0; k < kTemps; ++k) o[k] = k * c;
    return o;
  };
  MakeChunkScratch<float, kTemps>(tmp, n, split, off).Write("Tan", loc, [in](uint64_t i) {
    TanParts t{};
    if constexpr (kHalf) {
      TanSteps(Widen(in[i]), &t);
      return std::array<float, kTemps>{t.r, t.x0, t.q, t.u, t.v};
    } else {
      TanSteps(in[i] + 0.0f, &t);
      return std::array<float, kTemps>{t.q, t.u, t.v, t.x0};
    }
  });
}

}  // namespace lngrad::aicore::math_detail

namespace AscendC {

LNGRAD_MATH_UNARY_API_MODELLED(Tan, 4, 10, TanOf, LeaveTanScratch)

}  // namespace AscendC
