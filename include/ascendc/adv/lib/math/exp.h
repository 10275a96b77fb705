// lngrad: the Ascend C high-level API Exp (the vendor's adv_api/math/exp.h): e^x with a Taylor
// expansion of the fractional part, half and float.
//
// The result is the device's sequence on arch 2201/2002 (exp_common_impl.h), per element in
// float (half widened exactly): i = Cast<FLOOR>(x) (2201: Cast<float, float>; 2002: through
// int32, saturating, a NaN giving 0, so +inf gives +inf there); f = x - i; e = Exp(i) (the
// instruction: double, rounded once); r = f + 0; r = r + 1; p = f + 0; for n
// = 2..taylorExpandLevel: p = f * p, p = p * (1.0f / n) (that quotient rounded to float once), r =
// r + p; r = r * e; half: r rounded to half (CAST_NONE). taylorExpandLevel 0 is the basic Exp
// instruction. isReuseSource with float lets the device keep f in srcTensor: lngrad writes f there
// too, as the device does, at the source's base chunk after chunk (exp_common_impl.h: FloorX =
// src). The scratch (sharedTmpBuffer or the stack buffer) is left as the rounds leave it
// (LeaveExpScratch). Arch 3510 (exp_3510_impl.h, register code): the same chain (r = f + 1: the
// 2201 f + 0 changes no value; the 1 / n from a Div of an Arange), then x = +inf gives +inf and x =
// -inf gives +0 (compared as bit patterns; 2201 gives NaN for both); half: the float result cast
// CAST_RINT with saturation (+-inf to +-65504, NaN to +0); the source is left alone with
// isReuseSource; sharedTmpBuffer's first 256 bytes get the register of 1 / n (StoreExpTable3510).
//
// Checked mode: calCount within every operand, operands 32-byte aligned and dst disjoint from
// src, sharedTmpBuffer at least GetExpMaxMinTmpSize's minimum on 2201/2002 (256 bytes times 4
// for half, 3 for float, 2 for float with isReuseSource; on 3510 the 256 bytes its register of
// 1 / n is stored to) and disjoint from the operands.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "lib/math/math_scratch.h"
#include "lib/math/math_steps.h"

namespace lngrad::aicore::math_detail {

// What one element leaves in Exp's temp tensors: the fractional part (FloorX), the last Taylor
// term (FloorXPow), Exp of the integral part (IntPart) and the float result (Res).
struct ExpParts {
  float f = 0, p = 0, e = 0, r = 0;
};

// The integral part i (GetExpFloorInput): 2201's Cast<float, float> CAST_FLOOR; 2002's floor
// through int32 (the Cast saturates, a NaN gives 0) and back to float (CAST_NONE).
inline float ExpIntPart(float x, bool via_int32) {
  if (!via_int32) return FloorF(x);
  return static_cast<float>(FloatToInt32(x, AscendC::RoundMode::CAST_FLOOR));
}

// e^x by the Taylor sequence above, in float; `parts` (if not null) gets the temp values.
inline float ExpTaylor(float x, uint32_t level, bool via_int32 = false, ExpParts* parts = nullptr) {
  const float i = ExpIntPart(x, via_int32);
  const float f = x - i;
  const float e = ExpF(i);
  float r = f + 0.0f;
  r = r + 1.0f;
  float p = f + 0.0f;  // the Adds(FloorXPow, FloorX, 0) copy: -0 becomes +0
  for (uint32_t n = 2; n <= level; ++n) {
    p = f * p;
    p = p * (1.0f / static_cast<float>(n));
    r = r + p;
  }
  r = r * e;
  if (parts != nullptr) *parts = {f, p, e, r};
  return r;
}

// True where GetExpFloorInput takes the int32 round trip (arch 2002).
inline bool ExpViaInt32() { return detail::rep::RunningArch() == NpuArch::k2002; }

// What Exp<T, level, reuse> leaves in its scratch on 2201/2002 (UpdateExpParams): chunks of
// the scratch's floats / tensors, rounded down to 32 bytes of T; float: FloorX 0 (none with
// reuse: the source is FloorX), FloorXPow, IntPart after it; half: FloorX, FloorXPow, Res,
// IntPart.
template <typename T, bool kReuse>
void LeaveExpScratch(const AscendC::LocalTensor<uint8_t>& tmp, const T* in, uint64_t n,
                     uint32_t level, SrcLoc loc) {
  const bool via = ExpViaInt32();
  const auto parts = [in, level, via](uint64_t i) {
    ExpParts q;
    const float v = Widen(in[i]);  // float: the Adds(x, 0) copy; half: the Cast
    ExpTaylor(std::is_same_v<T, float> ? v + 0.0f : v, level, via, &q);
    return q;
  };
  if constexpr (std::is_same_v<T, half>) {
    const uint64_t one = ChunkOf(tmp.GetSize(), 4, 16);
    LeaveChunkScratch<4>("Exp", loc, tmp, n, one, {0, one, 2 * one, 3 * one}, [&](uint64_t i) {
      const ExpParts q = parts(i);
      return std::array<float, 4>{q.f, q.p, q.r, q.e};
    });
  } else if constexpr (kReuse) {
    const uint64_t one = ChunkOf(tmp.GetSize(), 2, 8);
    LeaveChunkScratch<2>("Exp", loc, tmp, n, one, {0, one}, [&](uint64_t i) {
      const ExpParts q = parts(i);
      return std::array<float, 2>{q.p, q.e};
    });
  } else {
    const uint64_t one = ChunkOf(tmp.GetSize(), 3, 8);
    LeaveChunkScratch<3>("Exp", loc, tmp, n, one, {0, one, 2 * one}, [&](uint64_t i) {
      const ExpParts q = parts(i);
      return std::array<float, 3>{q.f, q.p, q.e};
    });
  }
}

// Exp<T, level> on arch 3510: the chain above with the infinities selected after it.
template <typename T>
T ExpTaylor3510(T x, uint32_t level) {
  const float v = Widen(x);
  float r = ExpTaylor(v, level);
  if (std::isinf(v)) r = v > 0.0f ? v : 0.0f;
  return NarrowSaturated<T>(r);
}

// What the 950's Exp<T, level> leaves in sharedTmpBuffer (exp_3510_impl.h): its register of
// 1 / n, Div(1, Arange(2)), lane i = 1.0f / (i + 2) for i < 64, stored at the scratch's start
// (the part of those 256 bytes the buffer holds).
inline void StoreExpTable3510(const AscendC::LocalTensor<uint8_t>& tmp, SrcLoc loc) {
  const uint64_t bytes = std::min<uint64_t>(256, tmp.GetSize());
  for (uint64_t i = 0; i < bytes / sizeof(float); ++i) {
    const float v = 1.0f / static_cast<float>(i + 2);
    std::memcpy(tmp.HostPtr() + i * sizeof(float), &v, sizeof(float));
  }
  san::Instr rec(Pipe::kV, "Exp", loc);
  if (rec && bytes != 0) rec.Write(tmp.HostPtr(), bytes / sizeof(float) * sizeof(float));
}

}  // namespace lngrad::aicore::math_detail

namespace AscendC {

template <typename T, uint8_t taylorExpandLevel, bool isReuseSource = false>
void Exp(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
         const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount,
         lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  namespace m = lngrad::aicore::math_detail;
  static_assert(m::kHalfOrFloat<T>, "Exp: T must be half or float");
  if constexpr (taylorExpandLevel == 0) {
    Exp<T>(dstLocal, srcLocal, static_cast<int32_t>(calCount), loc);
  } else {
    constexpr bool kFloat = std::is_same_v<T, float>;
    const bool arch3510 = lngrad::aicore::detail::rep::RunningArch() == lngrad::NpuArch::k3510;
    // The 950 stores its register of 1 / n (64 floats) at the scratch's start.
    const uint64_t tmp_min =
        arch3510 ? uint64_t{256} : m::TmpMinBytes(!kFloat ? 4 : (isReuseSource ? 2 : 3));
    m::UnaryPass<m::PassScratch::kModelled>(
        "Exp", m::Products::kAll, m::Overlap::kNone, dstLocal, srcLocal, &sharedTmpBuffer, tmp_min,
        calCount, loc, [arch3510, via = m::ExpViaInt32()](T x) {
          if (arch3510) return m::ExpTaylor3510(x, taylorExpandLevel);
          return m::Narrow<T>(m::ExpTaylor(m::Widen(x), taylorExpandLevel, via));
        });
    if (arch3510) m::StoreExpTable3510(sharedTmpBuffer, loc);
    if (!arch3510) {
      m::LeaveExpScratch<T, kFloat && isReuseSource>(sharedTmpBuffer, srcLocal.HostPtr(), calCount,
                                                     taylorExpandLevel, loc);
    }
    if constexpr (kFloat && isReuseSource) {
      // The fractional parts the device leaves in the reused source: its FloorX tensor is the
      // source at its base (not at the chunk's offset), so each chunk of
      // (sharedTmpBuffer floats / 2, rounded down to 8) writes src[0, chunk length).
      T* src = srcLocal.HostPtr();
      // (The 950's register code leaves the source alone.)
      const uint32_t chunk = arch3510 ? 0 : sharedTmpBuffer.GetSize() / sizeof(float) / 2 / 8 * 8;
      for (uint32_t off = 0; chunk != 0 && off < calCount; off += chunk) {
        for (uint32_t j = 0; j < chunk && off + j < calCount; ++j) {
          const float x = src[off + j] + 0.0f;
          src[j] = x - m::ExpIntPart(x, m::ExpViaInt32());
        }
      }
    }
  }
}

template <typename T, uint8_t taylorExpandLevel, bool isReuseSource = false>
void Exp(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t calCount,
         lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  Exp<T, taylorExpandLevel, isReuseSource>(dstLocal, srcLocal,
                                           lngrad::aicore::math_detail::StackTmp(), calCount, loc);
}

}  // namespace AscendC
