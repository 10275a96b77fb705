// lngrad: the Ascend C high-level API Digamma (the vendor's adv_api/math/digamma.h), half and
// float, psi(x) = d/dx ln|Gamma(x)|.
//
// The result is the device's sequence on arch 2201 (digamma_common_impl.h), per element in float,
// each step one instruction (math_steps.h). Each case is computed for every element and added,
// where its Compare mask holds, to a sum that starts at +0 (Select against 0, then Add): NaN for
// x <= -2^23, for the negative integers above it and for NaN x (the input itself), then
// P(x) for x >= 0 and N(x) for x < 0.
//   float: P(x) = ln(w) - 0.5 / w - z * c - sum_{i=0..9} 1 / (x + i), w = x + 10, z = (1 / w)^2,
//     c the Horner chain c = 1/12, then c = k_i - z * c for six constants; N(x) = P(1 - x) + pc,
//     pc = pi * (tan(t) or -1 / tan(t)) by the parity of round(2x), t = (2x - round(2x)) * pi/2
//     and tan a degree-13 odd polynomial. isReuseSource lets the device keep pc in srcTensor:
//     lngrad writes it there too.
//   half (widened exactly, the sum rounded to half): P_h(x) = ln(w) - 0.5 / w - (1/w)^2 / 12 -
//     (1/w)^4 / 120 - (1/w)^6 / 252 - 1/x - 1/(x+1) - 1/(x+2), w = x + 3; for x < -0.0001
//     P_h(1 - x) - pi / Tan(pi * (x - floor x)); for -0.0001 <= x < 0
//     P_h(1 - x) - pi * Cos(pi * (x - floor x)) / Sin(-pi * x) (the Tan, Sin and Cos sequences
//     of tan.h and sin.h; Cos clamped to [-1, 1] as the device's CosCompute does).
// Arch 3510 (digamma_3510_impl.h) runs the float sequence in registers (round(2x) and the
// integer test through int32 casts, the same values) for float and for half (widened, the
// result rounded to half, CAST_NONE); its srcTensor is untouched with isReuseSource. Its half
// path leaves the widened src at sharedTmpBuffer's float [0, n) and the float results at float
// [n rounded up to 16, + n) (DigammaOp::Batch).
// Past calCount: on 2201/2002 the device's last chunk runs calCount rounded up to 8 elements, so
// up to 7 elements of dst past calCount get the value the sequence gives for the src elements
// there (and, float isReuseSource, those src elements the reflection term); lngrad writes them
// too. A dst or src too short for them is the device's overrun (tensor_bounds, checked mode).
// 3510 runs calCount elements exactly.
// Scratch on 2201/2002: float and half leave their temps, masks and (half) the Tan, Sin and Cos
// temps as the kit's rounds do, the Compare lanes past a round included (DigammaScratch,
// digamma_scratch.h, run over a copy of the UB), both overloads.
//
// Checked mode: calCount within every operand, operands 32-byte aligned and dst disjoint from
// src, sharedTmpBuffer at least GetDigammaMaxMinTmpSize's minimum (2201: 256 bytes times 7 for
// float, 6 with isReuseSource, 16 for half; 3510: none for float, 4 * max(2 * calCount, 256) for
// half) and disjoint from the operands.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "lib/math/digamma_scratch.h"
#include "lib/math/math_scratch.h"
#include "lib/math/math_steps.h"
#include "lib/math/sin.h"
#include "lib/math/tan.h"

namespace lngrad::aicore::math_detail {

// The device's "Select where mask, else 0, then Add to the sum" step the case APIs build their
// result from (Digamma, Lgamma).
struct MaskedSum {
  float sum = 0.0f;
  void Add(bool mask, float v) { sum = (mask ? v : 0.0f) + sum; }
};

inline constexpr float kDigammaPi = 3.14159265358979323846f;

// 1 / x as the device's Div of a Duplicate 1.0 by x.
inline float RecipF(float x) { return 1.0f / x; }

// P(x) of the float sequence.
inline float DigammaPositiveF(float x) {
  float w = x + 10.0f;
  float t0 = LnF(w);
  float iw = RecipF(w);
  t0 = t0 - iw * 0.5f;
  const float z = iw * iw;
  float c = 8.33333333333333333333e-2f;
  for (const float k :
       {2.10927960927960927961e-2f, 7.57575757575757575758e-3f, 4.16666666666666666667e-3f,
        3.96825396825396825397e-3f, 8.33333333333333333333e-3f, 8.33333333333333333333e-2f}) {
    c = z * c;
    c = k - c;
  }
  c = z * c;
  t0 = t0 - c;
  float t1 = RecipF(x);
  for (int i = 1; i <= 9; ++i) t1 = t1 + RecipF(x + static_cast<float>(i));
  return t0 - t1;
}

// DigammaCast (digamma_v220_impl.h / digamma_v200_impl.h): 2201 one Cast<float, float> in the
// mode; 2002 through int32 (saturating, NaN -> 0) and back (CAST_NONE).
inline float DigammaCastStep(float x, AscendC::RoundMode mode, bool v200) {
  if (!v200) return RoundToIntegral(x, mode);
  return static_cast<float>(FloatToInt32(x, mode));
}

// The reflection term pi * cot(pi x) of the float sequence, by the parity of round(2x): the
// low bit of Cast<int32_t>(CAST_ROUND), which saturates (2x >= 2^31 gives 2^31 - 1: odd; a NaN
// gives 0: even). On 2002 round(2x) itself goes through int32 (DigammaCastStep).
struct DigammaPicotSteps {
  float f17 = 0.0f, f30 = 0.0f, term = 0.0f;
  bool odd = false;
};

inline DigammaPicotSteps DigammaPicotOf(float x, bool v200) {
  DigammaPicotSteps s;
  const float f7 = x + x;
  const float f8 = DigammaCastStep(f7, AscendC::RoundMode::CAST_ROUND, v200);
  const float f36 = (f7 - f8) * 1.5707963267948966f;
  s.odd = (FloatToInt32(f8, AscendC::RoundMode::CAST_ROUND) & 1) != 0;
  s.f17 = f36 * f36;
  float p = 0.0093383789065f;
  for (const float c :
       {0.00326538085938f, 0.0242919921875f, 0.053466796875f, 0.133377909660f, 0.333332300186f}) {
    p = p * s.f17;
    p = p + c;
  }
  p = p * s.f17;
  p = p * f36;
  s.f30 = p + f36;
  MaskedSum r;
  r.Add(s.odd, s.f30);
  r.Add(!s.odd, -1.0f / s.f30);
  s.term = r.sum * kDigammaPi;
  return s;
}

inline float DigammaPicot(float x, bool v200 = false) { return DigammaPicotOf(x, v200).term; }

inline float DigammaNegativeF(float x, bool v200 = false) {
  float y = x * -1.0f;
  y = y + 1.0f;
  return DigammaPositiveF(y) + DigammaPicot(x, v200);
}

// The cases every form shares: NaN for x <= -2^23, the negative integers and NaN x (2201 adds
// x itself, 3510's register code its NaN constant 0x7fc00000: the payload differs).
inline void DigammaSpecials(float x, MaskedSum& r, bool arch3510 = false, bool v200 = false) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  r.Add(x <= -8388608.0f, nan);
  r.Add(
      x < 0.0f && x > -8388608.0f && x == DigammaCastStep(x, AscendC::RoundMode::CAST_ROUND, v200),
      nan);
  r.Add(!(x < 0.0f) && !(x >= 0.0f), arch3510 ? nan : x);
}

inline float DigammaF(float x, bool arch3510 = false, bool v200 = false) {
  MaskedSum r;
  DigammaSpecials(x, r, arch3510, v200);
  r.Add(x >= 0.0f, DigammaPositiveF(x));
  r.Add(x < 0.0f, DigammaNegativeF(x, v200));
  return r.sum;
}

// P_h(x) of the half sequence.
inline float DigammaPositiveH(float x) {
  const float w = x + 3.0f;
  float t0 = LnF(w);
  float iw = RecipF(w);
  t0 = t0 - iw * 0.5f;
  iw = iw * iw;
  t0 = t0 - iw * 0.0833333333333333f;
  float p = iw * iw;
  t0 = t0 - p * 0.0083333333333333f;
  p = p * iw;
  t0 = t0 - p * 0.003968253968254f;
  float t1 = RecipF(x);
  for (const float c : {1.0f, 2.0f}) t1 = t1 + RecipF(x + c);
  return t0 - t1;
}

inline float DigammaH(float x, bool v200 = false) {
  const float frac = (x - DigammaCastStep(x, AscendC::RoundMode::CAST_FLOOR, v200)) * kDigammaPi;
  const float pi_over_tan = kDigammaPi / TanOf<float>(frac);
  const float pos_reflected = DigammaPositiveH(1.0f - x) + 0.0f;
  MaskedSum r;
  DigammaSpecials(x, r, false, v200);
  r.Add(x >= 0.0f, DigammaPositiveH(x));
  r.Add(x < -0.0001f, pos_reflected - pi_over_tan);
  const float cos_t = CosSteps(frac);  // CosCompute, clamped to [-1, 1] by sin.h's Cos
  const float near0 = pos_reflected - cos_t * kDigammaPi / SinSteps(x * -kDigammaPi);
  r.Add(x >= -0.0001f && x < 0.0f, near0);
  return r.sum;
}

// Arch 3510 (digamma_3510_impl.h) runs the float sequence for half too (widened, the result
// rounded to half).
// `v200`: arch 2002's DigammaCast (digamma_v200_impl.h, through int32).
template <typename T>
T DigammaOf(T x, bool arch3510, bool v200 = false) {
  if constexpr (std::is_same_v<T, float>) {
    return DigammaF(x, arch3510, v200);
  } else {
    return Narrow<T>(arch3510 ? DigammaF(Widen(x), true) : DigammaH(Widen(x), v200));
  }
}

// Digamma's element function. On arch 3510 a half call runs through sharedTmpBuffer
// (digamma_3510_impl.h): Batch leaves there what the device does, src widened to float at
// work[0, n) and the float results at work[n rounded up to 16, + n), rounding them to half in
// dst (`work` null: no scratch to fill).
template <typename T>
struct DigammaOp {
  bool arch3510 = false;
  const AscendC::LocalTensor<uint8_t>* work = nullptr;
  bool v200 = false;

  T operator()(T x) const { return DigammaOf<T>(x, arch3510, v200); }

  uint64_t Batch(T* out, const T* in, uint64_t n) const {
    if constexpr (std::is_same_v<T, half>) {
      if (!arch3510 || work == nullptr) return 0;
      const uint64_t align = (n + 15) / 16 * 16;
      const detail::TensorView w = work->View();
      if ((align + n) * sizeof(float) > w.size_bytes) {
        // Past the kit's minimum for this count: the device writes past the buffer, and so does
        // lngrad in every mode (docs/ascendc_kernels.md: its own samples size it so); past the
        // UB's end it is refused.
        detail::RequireInsideUb(w, w.ptr - w.ub, (align + n) * sizeof(float),
                                "Digamma sharedTmpBuffer (the 950's half path stores the widened "
                                "source and the float results there: 4 * (n rounded up to 16 + n) "
                                "bytes)");
      }
      uint8_t* p = work->HostPtr();
      for (uint64_t i = 0; i < n; ++i) {
        const float x = Widen(in[i]), r = DigammaF(x, true);
        std::memcpy(p + i * sizeof(float), &x, sizeof(float));
        std::memcpy(p + (align + i) * sizeof(float), &r, sizeof(float));
        out[i] = Narrow<T>(r);
      }
      return n;
    } else {
      return 0;
    }
  }
};

// The scratch minimum of GetDigammaMaxMinTmpSize for `count` elements on the running arch.
template <typename T, bool isReuseSource>
uint64_t DigammaTmpMin(uint32_t count) {
  constexpr bool kFloat = std::is_same_v<T, float>;
  if (detail::rep::RunningArch() == NpuArch::k3510) {
    return kFloat ? 0 : 4 * std::max<uint64_t>(uint64_t{count} * 2, 256);
  }
  return TmpMinBytes(!kFloat ? 16 : (isReuseSource ? 6 : 7));
}

}  // namespace lngrad::aicore::math_detail

namespace lngrad::aicore::math_detail {

// The elements the device's Digamma runs on 2201/2002: the tail chunk's count is rounded up to
// 8 (digamma_common_impl.h, DigammaCompute) and every chunk before it holds a multiple of 32, so
// calCount rounded up to 8; 3510's register loop masks to calCount.
inline uint64_t DigammaDeviceCount(uint32_t count) {
  if (detail::rep::RunningArch() == NpuArch::k3510) return count;
  return (uint64_t{count} + 7) / 8 * 8;
}

// The elements [count, dev) a device runs past calCount: read from src and written to dst
// (of(src[i]), what the device computes there). A tensor too short for them is the device's
// overrun: tensor_bounds in checked mode; unchecked, the access goes on inside the UB as there.
template <typename T, typename Of>
void RunPastCount(const char* api, const AscendC::LocalTensor<T>& dst,
                  const AscendC::LocalTensor<T>& src, uint64_t count, uint64_t dev, SrcLoc loc,
                  Of of) {
  const std::string where = std::string(api) + " (the tail chunk rounded up to 8 elements) ";
  for (const Operand& op : {Op(dst, "dstTensor"), Op(src, "srcTensor")}) {
    if (dev * sizeof(T) > op.view.size_bytes) {
      detail::OnTensorOverrun(op.view, 0, dev, sizeof(T), (where + op.name).c_str());
    }
  }
  san::Instr in(Pipe::kV, api, loc);
  if (in) {
    in.Read(src.View().ptr + count * sizeof(T), (dev - count) * sizeof(T));
    in.Write(dst.View().ptr + count * sizeof(T), (dev - count) * sizeof(T));
  }
  T* out = dst.HostPtr();
  const T* s = src.HostPtr();
  for (uint64_t i = count; i < dev; ++i) out[i] = of(s[i]);
}

// Digamma's and Lgamma's full form: dst[i] = of(src[i]) for i < dev (the elements the device
// runs: count, or more, RunPastCount) with the scratch minimum `tmp_min`; then, for float with
// isReuseSource, what the device leaves in src: its rounds of `reuse_round` elements (the last
// one shorter) each write reused(x) of their elements at src's BASE, src[j] for the round's
// element j (Digamma's tmpCal4 is srcTensor itself, not srcTensor[offset]), later rounds
// overwriting earlier ones; reuse_round 0: one round, src[i] = reused(src[i]) in place.
template <typename T, bool isReuseSource, PassScratch kScratch = PassScratch::kUnmodelled,
          typename Of, typename Reused>
void GammaPass(const char* api, const AscendC::LocalTensor<T>& dst,
               const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<uint8_t>& tmp,
               uint64_t tmp_min, uint32_t count, uint64_t dev, SrcLoc loc, Of of, Reused reused,
               uint64_t reuse_round = 0) {
  static_assert(kHalfOrFloat<T>, "Digamma, Lgamma: T must be half or float");
  UnaryPass<kScratch>(api, Products::kAll, Overlap::kNone, dst, src, &tmp, tmp_min, count, loc, of);
  if (dev > count) RunPastCount(api, dst, src, count, dev, loc, of);
  if constexpr (std::is_same_v<T, float> && isReuseSource) {
    T* s = src.HostPtr();
    const uint64_t round = reuse_round != 0 ? reuse_round : dev;
    for (uint64_t off = 0; off < dev; off += round) {
      const uint64_t len = std::min(round, dev - off);
      for (uint64_t j = 0; j < len; ++j) s[j] = reused(s[off + j]);
    }
  }
}

}  // namespace lngrad::aicore::math_detail

namespace AscendC {

template <typename T, bool isReuseSource = false>
void Digamma(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
             const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount,
             lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  namespace m = lngrad::aicore::math_detail;
  const bool arch3510 = lngrad::aicore::detail::rep::RunningArch() == lngrad::NpuArch::k3510;
  // Float isReuseSource on 2201: the reflection term is left in the source (3510 keeps it in
  // registers).
  // 2201/2002 with isReuseSource run rounds of (scratch bytes / 4 / 6) floats rounded down to
  // 32 (DigammaCompute's splitSize).
  const bool through_tmp = arch3510 && std::is_same_v<T, half>;
  const bool v200 = lngrad::aicore::detail::rep::RunningArch() == lngrad::NpuArch::k2002;
  const uint64_t round = arch3510 ? 0 : sharedTmpBuffer.View().size_bytes / 4 / 6 / 32 * 32;
  // 2201/2002: the scratch as the rounds leave it (DigammaScratch, digamma_scratch.h), run over
  // a copy of the UB as the call finds it, stored after the pass.
  constexpr bool kFloat = std::is_same_v<T, float>;
  const uint64_t dev = m::DigammaDeviceCount(calCount);
  m::DigammaScratch scratch(sharedTmpBuffer, !kFloat, isReuseSource);
  const bool model = !arch3510 && dev != 0 && sharedTmpBuffer.HostPtr() != nullptr &&
                     scratch.Runnable(srcTensor.View(), dstTensor.View());
  if (model) scratch.Run(srcTensor.View(), dstTensor.View(), dev);
  m::GammaPass<T, isReuseSource, m::PassScratch::kModelled>(
      "Digamma", dstTensor, srcTensor, sharedTmpBuffer,
      m::DigammaTmpMin<T, isReuseSource>(calCount), calCount, dev, loc,
      m::DigammaOp<T>{arch3510, through_tmp ? &sharedTmpBuffer : nullptr, v200},
      [arch3510, v200](T x) { return arch3510 ? x : T(m::DigammaPicot(x, v200)); }, round);
  if (model) {
    scratch.Store("Digamma", loc);
  } else if (!arch3510 && dev != 0) {
    // unchecked: a split of 0 (the kit asserts), or no UB behind the operands
    m::LeaveScratch("Digamma", loc, sharedTmpBuffer.View());
  }
  if (through_tmp && calCount != 0) {
    lngrad::aicore::san::Instr rec(lngrad::aicore::Pipe::kV, "Digamma", loc);
    const uint64_t align = (uint64_t{calCount} + 15) / 16 * 16;
    if (rec) {
      rec.Write(sharedTmpBuffer.HostPtr(), uint64_t{calCount} * sizeof(float));
      rec.Write(sharedTmpBuffer.HostPtr() + align * sizeof(float), uint64_t{calCount} * 4);
    }
  }
}

LNGRAD_MATH_UNARY_STACK_OVERLOAD(Digamma)

}  // namespace AscendC
