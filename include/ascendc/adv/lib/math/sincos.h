// lngrad: the Ascend C high-level API SinCos (the vendor's adv_api/math/sincos.h), half and
// float, Ascend 950 (arch 3510) only: dst0 = sin(src), dst1 = cos(src).
//
// The result is the device's register sequence (sincos_3510_impl.h), per element in float, each
// multiply-add fused (Reg::FusedMulDstAdd / MulAddDst, as the 950's fused multiply-add; the
// other steps one IEEE operation):
//   float: a = fma(a, 0, a) (infinities become NaN); |a| <= pi/4 (and NaN): r = a, q = 0;
//     otherwise Payne-Hanek: the 24-bit significand times 96 bits of 2/pi (a 192-bit table,
//     the window chosen by the exponent) gives a 64-bit fixed-point p; q = p >> 62, rounded to
//     nearest by the next bit; p's signed fraction as two floats (CAST_ROUND casts), r =
//     fma(d_h, C, d_l * C) with C = pi/2 * 2^-62 in float; r and q negated for a < 0.
//   half (widened exactly): Cody-Waite: j = fma(a, 2/pi, 1.5 * 2^23), q = bits(j),
//     r = a - (j - 1.5 * 2^23) * pi/2 in three fused steps (pi/2 split in three floats).
//   Then s = r * r, c = a degree-4 polynomial in s (fused Horner), sin = fma(S(s), fma(r, s, 0),
//     r) with a degree-3 S; q & 2 negates both (0 - x), q & 1 swaps them (sin = c, cos = 0 - sin);
//     half rounds both to nearest even (CAST_RINT).
// sharedTmpBuffer keeps each element's r and q as the device leaves them (TrigScratch3510).
//
// Checked mode: the product (arch 3510), count within every operand, operands 32-byte aligned,
// dst0 and dst1 disjoint from src, sharedTmpBuffer at least GetSinCosMaxMinTmpSize's minimum
// (4 * 2 * count rounded up to 32 elements, + 32 bytes) and disjoint from the operands.
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "lib/math/math_steps.h"

namespace AscendC {

struct SinCosConfig {
  bool isReuseSource;
};
constexpr SinCosConfig DEFAULT_SINCOS_CONFIG = {false};

}  // namespace AscendC

namespace lngrad::aicore::math_detail {

// 2/pi's first 192 bits (the device's one_over_pi_f table).
inline constexpr uint32_t kTwoOverPiBits[6] = {0x28be60db, 0x9391054a, 0x7f09d5f4,
                                               0x7d4d3770, 0x36d8a566, 0x4f10e410};

// The reduced argument r (|r| <= pi/4 about) and the quadrant q.
struct TrigReduced {
  float r;
  int32_t q;
};

// Payne-Hanek for |a| > pi/4 (a finite).
inline TrigReduced TrigReduceSlow(float a) {
  const uint32_t ta = std::bit_cast<uint32_t>(a);
  const uint32_t ia = ((ta & 0x007fffffu) | 0x00800000u) << 8;
  const int32_t e_all = static_cast<int32_t>((ta >> 23) & 0xffu) - 126;
  const uint32_t i = static_cast<uint32_t>(e_all) >> 5;
  const uint32_t e = static_cast<uint32_t>(e_all) & 31u;
  const auto word = [](uint32_t k) { return k < 6 ? kTwoOverPiBits[k] : 0u; };
  uint32_t hi = i > 0 ? word(i - 1) : 0u, mid = word(i), lo = word(i + 1);
  if (e > 0) {
    hi = (hi << e) | (mid >> (32 - e));
    mid = (mid << e) | (lo >> (32 - e));
    lo = (lo << e) | (word(i + 2) >> (32 - e));
  }
  uint64_t p = uint64_t{ia} * lo;
  p = uint64_t{ia} * mid + (p >> 32);
  p = (uint64_t{ia * hi} << 32) + p;
  int32_t q = static_cast<int32_t>(p >> 62);
  p &= 0x3fffffffffffffffull;
  if (p & 0x2000000000000000ull) {
    p -= 0x4000000000000000ull;
    q += 1;
  }
  const int32_t p_high = static_cast<int32_t>(static_cast<uint32_t>(p >> 32));
  const uint32_t p_low = static_cast<uint32_t>(p);
  using AscendC::RoundMode;
  const float dh0 = Int32ToFloat(p_high, RoundMode::CAST_ROUND);
  const float dl0 = Int32ToFloat(static_cast<int32_t>(p_low >> 1), RoundMode::CAST_ROUND) * 2.0f;
  const int32_t back = static_cast<int32_t>(dh0);  // integral and within int32
  const float d_l = Int32ToFloat(p_high - back, RoundMode::CAST_ROUND) * 4294967296.0f + dl0;
  const float d_h = dh0 * 4294967296.0f;
  constexpr float kC = 3.4061215800865545e-19f;
  float r = d_l * kC;
  r = std::fma(d_h, kC, r);
  if (a < 0.0f) return {-r, -q};
  return {r, q};
}

inline TrigReduced TrigReduceFloat(float a) {
  a = std::fma(a, 0.0f, a);
  if (!(std::fabs(a) > 3.1415926535f * 0.25f)) return {a, 0};
  return TrigReduceSlow(a);
}

inline TrigReduced TrigReduceHalf(float a) {
  constexpr float kShift = 12582912.0f;
  a = std::fma(a, 0.0f, a);
  float j = std::fma(a, 0.636619747f, kShift);
  const int32_t q = std::bit_cast<int32_t>(j);
  j = j - kShift;
  float r = std::fma(j, -1.57079601e+00f, a);
  r = std::fma(j, -3.13916473e-07f, r);
  r = std::fma(j, -5.39030253e-15f, r);
  return {r, q};
}

struct SinCosPair {
  float sin, cos;
};

inline SinCosPair SinCosCore(TrigReduced t) {
  const float s = t.r * t.r;
  float c = 2.44677067e-5f;
  for (const float k : {-1.38877297e-3f, 4.16666567e-2f, -5.00000000e-1f, 1.0f}) {
    c = std::fma(c, s, k);
  }
  float p = 2.86567956e-6f;
  for (const float k : {-1.98559923e-4f, 8.33338592e-3f, -1.66666672e-1f}) p = std::fma(p, s, k);
  const float rs = std::fma(t.r, s, 0.0f);
  float sn = std::fma(p, rs, t.r);
  if (t.q & 2) {
    sn = 0.0f - sn;
    c = 0.0f - c;
  }
  if (t.q & 1) return {c, 0.0f - sn};
  return {sn, c};
}

// What the 950's RADIAN_REDUCTION code leaves in sharedTmpBuffer (sincos_3510_impl.h) for n
// elements run in chunks of `chunk` (Sin, Cos: GetSinTmpBufferSize's, RadianChunk3510; SinCos:
// one chunk of n). A chunk of len elements, a = len rounded up to 32: float the six words of
// 2/pi at the start, each element's r at float 8 + j and q at float 8 + a + j (its stores of
// r = a, q = 0 and of Payne-Hanek's p words end there); half Cody-Waite's r at float j and
// q = bits(j) at float a + j. Each full chunk writes the same bytes, so the last full chunk and
// the tail leave them: Put is given the elements from First() on, in order.
class TrigScratch3510 {
 public:
  TrigScratch3510(const AscendC::LocalTensor<uint8_t>& tmp, bool is_float, uint64_t n,
                  uint64_t chunk)
      : tmp_(tmp), float_(is_float), n_(n), chunk_(chunk) {
    if (chunk_ == 0 || n_ == 0) return;  // chunks of 0 (unchecked): the kit divides by 0
    const uint64_t chunks = (n_ + chunk_ - 1) / chunk_;
    first_ = (n_ % chunk_ != 0 && chunks >= 2 ? chunks - 2 : chunks - 1) * chunk_;
    const uint64_t len = std::min(chunk_, n_);
    const uint64_t end = 4 * ((float_ ? 8 : 0) + (len + 31) / 32 * 32 + len);
    if (end > tmp_.View().size_bytes) {
      detail::OnTensorOverrun(tmp_.View(), 0, end / 4, 4, "sharedTmpBuffer (r and q)");
    }
    written_ = end;
    if (float_) std::memcpy(tmp_.HostPtr(), kTwoOverPiBits, sizeof(kTwoOverPiBits));
  }

  bool Active() const { return chunk_ != 0 && n_ != 0; }
  uint64_t First() const { return first_; }

  void Put(uint64_t i, TrigReduced t) {
    const uint64_t start = i / chunk_ * chunk_, j = i - start;
    const uint64_t len = std::min(chunk_, n_ - start), a = (len + 31) / 32 * 32;
    uint8_t* base = tmp_.HostPtr() + (float_ ? 32 : 0);
    std::memcpy(base + 4 * j, &t.r, 4);
    std::memcpy(base + 4 * (a + j), &t.q, 4);
  }

  void Record(const char* api, SrcLoc loc) const {
    san::Instr rec(Pipe::kV, api, loc);
    if (rec && written_ != 0) rec.Write(tmp_.HostPtr(), written_);
  }

 private:
  const AscendC::LocalTensor<uint8_t>& tmp_;
  bool float_;
  uint64_t n_, chunk_, first_ = 0, written_ = 0;
};

// Sin's and Cos's chunk on the 950 (sin_3510_impl.h GetSinTmpBufferSize, cos_3510_impl.h's the
// same): the scratch's bytes / 8, aligned up to 32, in elements of T.
template <typename T>
uint64_t RadianChunk3510(const AscendC::LocalTensor<uint8_t>& tmp) {
  return (uint64_t{tmp.GetSize()} / 8 + 31) / 32 * 32 / sizeof(T);
}

// The reduction of element x on the 950 (float: Payne-Hanek past pi/4; half: Cody-Waite).
template <typename T>
TrigReduced TrigReduceOf(T x) {
  if constexpr (std::is_same_v<T, float>) {
    return TrigReduceFloat(x);
  } else {
    return TrigReduceHalf(Widen(x));
  }
}

template <typename T>
SinCosPair SinCosOf(T x) {
  return SinCosCore(TrigReduceOf(x));
}

// GetSinCosMaxMinTmpSize's minimum for `count` elements.
inline uint64_t SinCosTmpMin(uint32_t count) {
  const uint64_t n = (uint64_t{count} + 31) / 32 * 32;
  return 4 * n * 2 + 32;
}

}  // namespace lngrad::aicore::math_detail

namespace AscendC {

template <const SinCosConfig& config = DEFAULT_SINCOS_CONFIG, typename T>
void SinCos(const LocalTensor<T>& dst0, const LocalTensor<T>& dst1, const LocalTensor<T>& src,
            const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t count,
            lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  namespace m = lngrad::aicore::math_detail;
  static_assert(m::kHalfOrFloat<T>, "SinCos: T must be half or float");
  constexpr const char* kApi = "SinCos";
  const m::Operand d0 = m::Op(dst0, "dst0"), d1 = m::Op(dst1, "dst1"), s = m::Op(src, "src");
  m::CheckElementwise(kApi, count, m::Products::kOnly3510, m::Overlap::kNone, {d0, s});
  m::CheckElementwise(kApi, count, m::Products::kOnly3510, m::Overlap::kNone, {d1, s});
  m::CheckTmpBuffer(kApi, sharedTmpBuffer.View(), m::SinCosTmpMin(count), count, {d0, d1, s});
  lngrad::aicore::detail::RestoreMaskAfterCount(lngrad::aicore::detail::MaskContext(kApi));
  m::Record(kApi, loc, count, {d0, s});
  m::Record(kApi, loc, count, {d1, s});
  const T* in = src.HostPtr();
  T* sin_out = dst0.HostPtr();
  T* cos_out = dst1.HostPtr();
  m::TrigScratch3510 work(sharedTmpBuffer, std::is_same_v<T, float>, count, count);
  for (uint32_t i = 0; i < count; ++i) {
    const m::TrigReduced t = m::TrigReduceOf(in[i]);
    if (work.Active() && i >= work.First()) work.Put(i, t);
    const m::SinCosPair r = m::SinCosCore(t);
    sin_out[i] = m::Narrow<T>(r.sin);
    cos_out[i] = m::Narrow<T>(r.cos);
  }
  work.Record(kApi, loc);
}

template <const SinCosConfig& config = DEFAULT_SINCOS_CONFIG, typename T>
void SinCos(const LocalTensor<T>& dst0, const LocalTensor<T>& dst1, const LocalTensor<T>& src,
            const uint32_t count, lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  SinCos<config, T>(dst0, dst1, src, lngrad::aicore::math_detail::StackTmp(), count, loc);
}

}  // namespace AscendC
