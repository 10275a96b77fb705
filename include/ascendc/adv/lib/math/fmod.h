// lngrad: the Ascend C high-level API Fmod (the vendor's adv_api/math/fmod.h), half and float.
//
// The result is the device's operation sequence on arch 2201/2002 (fmod_common_impl.h), each
// step one IEEE binary32 operation: q = a / b; t = Trunc(q); r = a - t * b (the product rounded
// before the subtraction), half through float (exact) and back to half with round-to-nearest-
// even. It is C's fmod when every step is exact (integer-valued operands below 2^12, for one);
// otherwise the rounding of q and of t * b shows (large quotients differ from C's fmod by far),
// and Fmod(x, 0) = Fmod(x, ±inf) = NaN. That is what the device gives. On 2002 Trunc goes
// through int32 (trunc_v200_impl.h: Cast CAST_TRUNC, saturating, NaN to 0, back CAST_NONE), so
// quotients past +-2^31 give t = +-2^31 (Fmod(5, 0) = 5), NaN gives 0 and -0 gives +0.
// Scratch on 2201/2002 (fmod_common_impl.h): float leaves Trunc's int32 words on 2002 (its
// chunks of bytes / 4 down to 32, at the start), nothing on 2201; half runs chunks of
// bytes / 16 down to 32 (at most src0's size) and leaves the float r, a and b at 0, 1 and 2
// chunks, and on 2002 Trunc's int32 words at 3 chunks (FmodScratch). Arch 3510
// (fmod_3510_impl.h, register code), FmodConfig NORMAL: r = fma(Trunc(a / b), -b, a) (one
// fused multiply-add), then its exception cases: a for b = +-inf, NaN for a and b both infinite,
// a (its signed zero) for a = +-0 and b neither zero nor NaN; half through float and back to
// nearest even without saturation. ITERATION_COMPENSATION (float only, iterationNum N in
// [1, 11]; FmodIterationOf below) runs fmod_3510_impl.h's iterations on r = |a|, b = |b|: for
// i = N down to 2, bt = b * s1_i (* s2_i when i > 5; s1 = 2^24, 2^24, 2^48, 2^72, 2^96, then
// 2^120; s2 = 1 up to i = 6, then 2^24 .. 2^120), k = Truncate CAST_ROUND(r / bt),
// bt = Mins(bt, FLT_MAX), r = fma(-k, bt, r); the last (i = 1): for b <= 1.1754944e-38 both b and r
// scaled by 2^24, k = Truncate CAST_RINT(r / bt), r = fma(-k, bt, r) + signbit(r) * bt; then
// r * (1 - 2 signbit(a)), scaled back by 2^-24 for such b, and NORMAL's exception cases. Each
// fused step is exact, so the result is C's fmod while the exponents of a and b differ by at
// most 24 N, as the page says (tested); off the 950 the config changes nothing.
//
// Checked mode: calCount within every operand, src0 and src1 of one size (the kit asserts it;
// `tensor_bounds`), operands 32-byte aligned and dst disjoint from src0 and src1, sharedTmpBuffer
// at least GetFmodMaxMinTmpSize's minimum on 2201/2002 (256 bytes for float, 2048 for half) and
// disjoint from the operands.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "lib/math/math_common.h"
#include "lib/math/math_scratch.h"
#include "lib/math/math_steps.h"

namespace lngrad::aicore::math_detail {

// fmod_check_common.h (2201/2002) and fmod_3510_impl.h assert that the two sources hold as many
// elements, whatever calCount says.
template <typename T>
void CheckFmodSources(const AscendC::LocalTensor<T>& src0, const AscendC::LocalTensor<T>& src1,
                      SrcLoc loc) {
  if (!CheckedMode() || src0.GetSize() == src1.GetSize()) return;
  RaiseKernelCheck(checks::kTensorBounds,
                   detail::WithLoc("Fmod", loc) + ": src0Tensor holds " +
                       std::to_string(src0.GetSize()) + " elements and src1Tensor " +
                       std::to_string(src1.GetSize()) + "; the two sources must be the same size");
}

// The 950's exception cases (SolveExceptionScenarios), over its result r.
inline float FmodExceptions3510(float r, float a, float b) {
  if (std::isinf(b)) r = a;
  if (std::isinf(a) && std::isinf(b)) r = std::numeric_limits<float>::quiet_NaN();
  if (a == 0.0f && b != 0.0f && !std::isnan(b)) r = a;
  return r;
}

// True where Fmod's Trunc goes through int32 (arch 2002, trunc_v200_impl.h).
inline bool FmodTruncViaInt32() { return detail::rep::RunningArch() == NpuArch::k2002; }

// What one element of the 2201/2002 sequence leaves: the float operands, Trunc's int32 word
// (2002) and the result.
struct FmodParts {
  float a = 0, b = 0, r = 0;
  int32_t t = 0;
};

inline FmodParts FmodSteps(float a, float b, bool via_int32) {
  FmodParts p{a, b, 0.0f, 0};
  const float q = a / b;
  float t = std::trunc(q);
  if (via_int32) {
    p.t = FloatToInt32(q, AscendC::RoundMode::CAST_TRUNC);
    t = static_cast<float>(p.t);
  }
  const float m = t * b;
  p.r = a - m;
  return p;
}

// One element of Fmod on the running arch, in float.
inline float FmodOf(float a, float b) {
  if (!On3510()) return FmodSteps(a, b, FmodTruncViaInt32()).r;
  return FmodExceptions3510(std::fma(std::trunc(a / b), -b, a), a, b);
}

// What Fmod leaves in its scratch on 2201/2002 (the header's comment), after the pass: the
// parts of the elements of the last full chunk and the tail. Nothing on 3510.
template <typename T>
void FmodScratch(const AscendC::LocalTensor<uint8_t>& tmp, const T* a, const T* b, uint64_t n,
                 uint64_t src0_size, SrcLoc loc) {
  if (On3510()) return;
  const bool via = FmodTruncViaInt32();
  const auto parts = [a, b, via](uint64_t i) { return FmodSteps(Widen(a[i]), Widen(b[i]), via); };
  if constexpr (std::is_same_v<T, float>) {
    if (!via) return;
    LeaveChunkScratch<1>("Fmod", loc, tmp, n, ChunkOf(tmp.GetSize(), 1, 32), {0},
                         [&](uint64_t i) { return std::array<float, 1>{WordOf(parts(i).t)}; });
  } else {
    const uint64_t c = std::min<uint64_t>(ChunkOf(tmp.GetSize(), 4, 32), src0_size);
    if (via) {
      LeaveChunkScratch<4>("Fmod", loc, tmp, n, c, {0, c, 2 * c, 3 * c}, [&](uint64_t i) {
        const FmodParts p = parts(i);
        return std::array<float, 4>{p.r, p.a, p.b, WordOf(p.t)};
      });
    } else {
      LeaveChunkScratch<3>("Fmod", loc, tmp, n, c, {0, c, 2 * c}, [&](uint64_t i) {
        const FmodParts p = parts(i);
        return std::array<float, 3>{p.r, p.a, p.b};
      });
    }
  }
}

// The register sign bit as a float: 0 or 1 (ShiftRights 31, And 1, Cast int32 -> float).
inline float SignBitOf(float x) { return std::signbit(x) ? 1.0f : 0.0f; }

// The 950's register Mins against a constant: a NaN stays NaN.
inline float RegMins(float x, float c) { return x > c ? c : x; }

// Iteration i (> 1) of ITERATION_COMPENSATION: r reduced by k * (b scaled by the table's powers).
inline float FmodIterationStep(float r, float b, int i) {
  constexpr int kScale1Exp[11] = {24, 24, 48, 72, 96, 120, 120, 120, 120, 120, 120};
  constexpr int kScale2Exp[11] = {0, 0, 0, 0, 0, 0, 24, 48, 72, 96, 120};
  float bt = b * std::ldexp(1.0f, kScale1Exp[i - 1]);
  if (i > 5) bt = bt * std::ldexp(1.0f, kScale2Exp[i - 1]);
  const float k = std::round(r / bt);  // Truncate CAST_ROUND: ties away from zero
  bt = RegMins(bt, std::numeric_limits<float>::max());
  return std::fma(-k, bt, r);
}

// One element of Fmod with ITERATION_COMPENSATION and `iterations` rounds on arch 3510.
inline float FmodIterationOf(float a, float b_in, uint32_t iterations) {
  constexpr float kSubnormal = 1.1754944e-38f;
  constexpr float kUp = 16777216.0f;               // 2^24
  constexpr float kDown = 5.9604644775390625e-8f;  // 2^-24
  const float b = std::fabs(b_in);
  float r = std::fabs(a);
  for (int i = static_cast<int>(iterations); i > 1; --i) r = FmodIterationStep(r, b, i);
  const bool tiny = b <= kSubnormal;
  const float bt = tiny ? b * kUp : b;
  if (tiny) r = r * kUp;
  const float k = std::nearbyint(r / bt);  // Truncate CAST_RINT: ties to even
  r = std::fma(-k, bt, r);
  r = r + SignBitOf(r) * bt;
  r = r * (SignBitOf(a) * -2.0f + 1.0f);
  if (tiny) r = r * kDown;
  return FmodExceptions3510(r, a, b_in);
}

}  // namespace lngrad::aicore::math_detail

namespace AscendC {

inline constexpr uint32_t FMOD_ITERATION_NUM_MAX = 11;

enum class FmodAlgo {
  NORMAL = 0,
  ITERATION_COMPENSATION = 1,
};

struct FmodConfig {
  FmodAlgo algo = FmodAlgo::NORMAL;
  uint32_t iterationNum = FMOD_ITERATION_NUM_MAX;
};

constexpr FmodConfig DEFAULT_FMOD_CONFIG = {FmodAlgo::NORMAL, FMOD_ITERATION_NUM_MAX};

template <typename T, bool isReuseSource = false, const FmodConfig& config = DEFAULT_FMOD_CONFIG>
void Fmod(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
          const LocalTensor<T>& src1Tensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
          const uint32_t calCount, lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  namespace m = lngrad::aicore::math_detail;
  static_assert(m::kHalfOrFloat<T>, "Fmod: T must be half or float");
  static_assert(config.algo == FmodAlgo::NORMAL || std::is_same_v<T, float>,
                "Fmod: ITERATION_COMPENSATION supports float only");
  m::CheckFmodSources(src0Tensor, src1Tensor, loc);
  const uint64_t tmp_min = m::TmpMinBytes(sizeof(T) == 4 ? 1 : 8);
  static_assert(config.algo == FmodAlgo::NORMAL ||
                    (config.iterationNum >= 1 && config.iterationNum <= FMOD_ITERATION_NUM_MAX),
                "Fmod: iterationNum must be in the range [1, 11]");
  m::BinaryPass<m::PassScratch::kModelled>(
      "Fmod", m::Products::kAll, m::Overlap::kNone, dstTensor, src0Tensor, src1Tensor,
      &sharedTmpBuffer, tmp_min, calCount, loc, [](T a, T b) {
        if constexpr (config.algo == FmodAlgo::ITERATION_COMPENSATION) {
          if (m::On3510()) {
            return m::Narrow<T>(m::FmodIterationOf(m::Widen(a), m::Widen(b), config.iterationNum));
          }
        }
        return m::Narrow<T>(m::FmodOf(m::Widen(a), m::Widen(b)));
      });
  m::FmodScratch(sharedTmpBuffer, src0Tensor.HostPtr(), src1Tensor.HostPtr(), calCount,
                 src0Tensor.GetSize(), loc);
}

template <typename T, bool isReuseSource = false, const FmodConfig& config = DEFAULT_FMOD_CONFIG>
void Fmod(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
          const LocalTensor<T>& src1Tensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
          lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  Fmod<T, isReuseSource, config>(dstTensor, src0Tensor, src1Tensor, sharedTmpBuffer,
                                 src0Tensor.GetSize(), loc);
}

template <typename T, bool isReuseSource = false, const FmodConfig& config = DEFAULT_FMOD_CONFIG>
void Fmod(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
          const LocalTensor<T>& src1Tensor, const uint32_t calCount,
          lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  Fmod<T, isReuseSource, config>(dstTensor, src0Tensor, src1Tensor,
                                 lngrad::aicore::math_detail::StackTmp(), calCount, loc);
}

template <typename T, bool isReuseSource = false, const FmodConfig& config = DEFAULT_FMOD_CONFIG>
void Fmod(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
          const LocalTensor<T>& src1Tensor,
          lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  Fmod<T, isReuseSource, config>(dstTensor, src0Tensor, src1Tensor, src0Tensor.GetSize(), loc);
}

}  // namespace AscendC
