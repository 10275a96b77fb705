// lngrad: the Ascend C high-level API Tanh (the vendor's adv_api/math/tanh.h), half and float.
//
// The result is the device's sequence on arch 2201 (tanh_common_impl.h), per element in float
// (half widened exactly, the result rounded to half, CAST_NONE), each step one instruction
// (math_steps.h): c = Maxs(Mins(x, 8.8), -8.8) (a NaN becomes 8.8, so Tanh(NaN) = 1, the
// device's Mins convention); c = c * 2; e = Exp(c) (double, rounded once); r = (e + -1) / (e +
// 1). The scratch on 2201/2002 (sharedTmpBuffer or the stack buffer) is left as the kit's rounds
// leave it (math_scratch.h): e + 1 in the clip tensor, and for half the float quotient in the
// conversion tensor before it. Arch 3510 (tanh_3510_impl.h, the register code, half widened and
// rounded back CAST_RINT) by config.algo: INTRINSIC (the default) the same sequence with the
// register Mins/Maxs, which pass a NaN on (Tanh(NaN) = NaN there); SUBSECTION_COMPENSATION: for |x|
// < 0.55 the odd polynomial p = ((((x^2 * c0 + c1) fused* x^2 + c2) fused* x^2 + c3) * x^2) fused*
// x + x (c0..c3 = 0.0157296831, -0.0523029624, 0.133152977, -0.333327681; "fused*" one fused
// multiply-add), else (e - 1) / (e + 1) with e = Exp(2 * Mins(x, 20)). The config is the
// 950's (off it the 2201 sequence runs whatever it says, as the device has no such parameter).
//
// Checked mode: calCount within every operand, operands 32-byte aligned and dst disjoint from
// src, sharedTmpBuffer at least GetTanhMaxMinTmpSize's minimum on 2201/2002 (256 bytes for
// float, 1024 for half) and disjoint from the operands.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "lib/math/math_scratch.h"
#include "lib/math/math_steps.h"

namespace AscendC {

enum class TanhAlgo {
  INTRINSIC = 0,
  SUBSECTION_COMPENSATION,
};

struct TanhConfig {
  TanhAlgo algo = TanhAlgo::INTRINSIC;
};

constexpr TanhConfig DEFAULT_TANH_CONFIG = {TanhAlgo::INTRINSIC};

}  // namespace AscendC

namespace lngrad::aicore::math_detail {

// Tanh on 3510 (TanhIntrinsicImpl / TanhCompensationImpl).
inline float TanhSteps3510(float x, AscendC::TanhAlgo algo) {
  if (algo == AscendC::TanhAlgo::INTRINSIC) {
    const float e = ExpF(RegMaxOf(RegMinOf(x, 8.8f), -8.8f) * 2.0f);
    return (e + -1.0f) / (e + 1.0f);
  }
  const float sq = x * x;
  float p = sq * 0.0157296831f + -0.0523029624f;
  p = std::fma(p, sq, 0.133152977f);
  p = std::fma(p, sq, -0.333327681f);
  p = std::fma(p * sq, x, x);
  const float e = ExpF(RegMinOf(x, 20.0f) * 2.0f);
  const float mid = (e + -1.0f) / (e + 1.0f);
  return std::fabs(x) < 0.55f ? p : mid;
}

// den (if not null) gets e + 1, what the sequence leaves in its clip tensor.
inline float TanhSteps(float x, float* den_out = nullptr) {
  float c = MaxsF(MinsF(x, 8.8f), -8.8f);
  c = c * 2.0f;
  const float e = ExpF(c);
  const float num = e + -1.0f;
  const float den = e + 1.0f;
  if (den_out != nullptr) *den_out = den;
  return num / den;
}

}  // namespace lngrad::aicore::math_detail

namespace AscendC {

template <typename T, bool isReuseSource = false, const TanhConfig& config = DEFAULT_TANH_CONFIG>
void Tanh(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
          const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount,
          lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  namespace m = lngrad::aicore::math_detail;
  static_assert(m::kHalfOrFloat<T>, "Tanh: T must be half or float");
  const uint64_t tmp_min = m::TmpMinBytes(std::is_same_v<T, float> ? 1 : 4);
  const bool on3510 = lngrad::aicore::detail::rep::RunningArch() == lngrad::NpuArch::k3510;
  m::UnaryPass<m::PassScratch::kModelled>(
      "Tanh", m::Products::kAll, m::Overlap::kNone, dstTensor, srcTensor, &sharedTmpBuffer, tmp_min,
      calCount, loc, [on3510](T x) {
        const float v = m::Widen(x);
        return m::Narrow<T>(on3510 ? m::TanhSteps3510(v, config.algo) : m::TanhSteps(v));
      });
  // The scratch (TanhFormulasTmpCalc): chunks of bytes / 4 / procedures floats, rounded down to
  // 32; half: the widened source, then the quotient, at 0; float and half: e + 1 in the clip
  // tensor (at 0, half at the chunk).
  constexpr bool kHalf = std::is_same_v<T, half>;
  const uint64_t chunk = m::ChunkOf(sharedTmpBuffer.GetSize(), kHalf ? 2 : 1, 32);
  const T* in = srcTensor.HostPtr();
  const auto vals = [in](uint64_t i) {
    float den = 0;
    const float r = m::TanhSteps(m::Widen(in[i]), &den);
    return std::is_same_v<T, half> ? std::array<float, 2>{r, den} : std::array<float, 2>{den, 0};
  };
  if constexpr (kHalf) {
    m::LeaveChunkScratch<2>("Tanh", loc, sharedTmpBuffer, calCount, chunk, {0, chunk}, vals);
  } else {
    const auto one = [&vals](uint64_t i) { return std::array<float, 1>{vals(i)[0]}; };
    m::LeaveChunkScratch<1>("Tanh", loc, sharedTmpBuffer, calCount, chunk, {0}, one);
  }
}

LNGRAD_MATH_UNARY_FORWARDS_CONFIG(Tanh, TanhConfig, DEFAULT_TANH_CONFIG)

}  // namespace AscendC
