// lngrad: Power's floating-point register code on arch 3510 (the vendor's power_3510_impl.h),
// per element in float, each register instruction one IEEE operation, Axpy / MulAddDst /
// FusedMulDstAdd one fused multiply-add, Exp and Ln the instructions of math_steps.h:
//   INTRINSIC (the default): d = Exp(b * Ln(|a|)), then the special cases below;
//   DOUBLE_FLOAT_TECH (CUDA's powf): ln|a| as a float pair (hi, lo) from m = a / 2^e near 1
//     (subnormals scaled by 2^23 first), q = (m - 1) / (m + 1) split in qhi + qlo, a degree-4
//     fused polynomial in qhi^2, e * ln2 split in two floats; then d = Exp(phi) * (1 + plo)
//     with phi = hi * b and plo the product's error plus lo * b (fused); +inf for phi >= 88.72284,
//     +0 below -104; then the special cases.
// Special cases (ProcessSpecialCaseForPowF): 1 where b = 0 or a = 1; NaN (0x7fc00000) where a or
// b is NaN; a = +-0 or +-inf: a's bits with the exponent flipped (0 <-> inf) when b < 0, the sign
// cleared unless b is an odd integer (fma(floor(b / 2), -2, b) == 1); a < 0: NaN unless
// b == Floor(b), negated for an odd b; 1 for a = -1 and b = +-inf.
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "lib/math/math_steps.h"

namespace lngrad::aicore::math_detail {

// ln|a| as hi + lo (GetLogFExtStepOne and GetLogFExtStepTwo), a = |x|; poly: step two's
// polynomial times s, which the device stores to its scratch.
struct PowerLog3510 {
  float hi, lo, poly;
};

inline PowerLog3510 PowerLogExt3510(float a) {
  const bool tiny = a < 1.175494351e-38f;
  const float scaled = tiny ? a * 8388608.0f : a;
  float i = tiny ? -23.0f : 0.0f;
  const uint32_t bits = std::bit_cast<uint32_t>(scaled);
  const uint32_t e = (bits - std::bit_cast<uint32_t>(0.70710678f)) & 0xff800000u;
  float m = std::bit_cast<float>(bits - e);
  i = std::fma(static_cast<float>(static_cast<int32_t>(e)), 1.19209290e-7f, i);  // exact
  const float p = m + 1.0f;
  m = m - 1.0f;
  const float r = 1.0f / p;
  const float qhi = m * r;
  const float t = qhi * -2.0f + m;
  const float qlo = r * std::fma(-m, qhi, t);
  const float s = qhi * qhi;
  float poly = std::fma(s, 0.129394531f, 0.141957462f);
  poly = std::fma(poly, s, 0.200015724f);
  poly = std::fma(poly, s, 0.333333254f);
  poly = poly * s;
  const float qhi2 = qhi + qhi, qlo2 = qlo + qlo;
  const float first_hi = i * 6.93147182e-1f + qhi2;
  const float first_lo = qhi2 - std::fma(i, -6.93147182e-1f, first_hi);
  const float second_lo = std::fma(qhi2, poly, first_lo);
  float sum_lo = std::fma(qlo2 * 3.0f, poly, qlo2);
  sum_lo = std::fma(i, -1.90465421e-9f, sum_lo) + second_lo;
  const float hi = first_hi + sum_lo;
  return {hi, (first_hi - hi) + sum_lo, poly};
}

// GetExpCore: exp((hi + lo) * b).
inline float PowerExpCore3510(PowerLog3510 l, float b) {
  const float phi = l.hi * b;
  float plo = std::fma(l.hi, b, -phi);
  plo = std::fma(l.lo, b, plo);
  float r = ExpF(phi);
  r = std::fma(plo, r, r);
  const float edge = phi >= 0.0f ? std::numeric_limits<float>::infinity() : 0.0f;
  return (phi >= 88.7228390f || phi < -104.0f) ? edge : r;
}

// ProcessSpecialCaseForPowF on the core's result d.
inline float PowerSpecial3510(float d, float a, float b) {
  if (b == 0.0f || a == 1.0f) return 1.0f;
  const float nan = std::bit_cast<float>(0x7fc00000u);
  if (std::isnan(a) || std::isnan(b)) return nan;
  const bool odd = std::fma(FloorF(b * 0.5f), -2.0f, b) == 1.0f;
  if (std::isinf(a) || a == 0.0f) {
    uint32_t r12 = std::bit_cast<uint32_t>(a);
    if (b < 0.0f) r12 ^= 0x7f800000u;
    return std::bit_cast<float>(odd ? r12 : r12 & 0x7fffffffu);
  }
  if (a < 0.0f) d = b != FloorF(b) ? nan : (odd ? -d : d);
  if (std::isinf(b) && a == -1.0f) d = 1.0f;
  return d;
}

// What DOUBLE_FLOAT_TECH leaves in sharedTmpBuffer (power_3510_impl.h): PowImpl runs chunks of
// GetPowTmpBufferSize's elements (the scratch's bytes / 12 aligned up to 32); a chunk of len
// elements, a = len rounded up to 32, leaves three float arrays: at float 0 the exp core's result
// (before the special cases), at a the log's low part, at 2a step two's polynomial. Each full
// chunk writes the same bytes, so the last full chunk and the tail leave them. Element is given
// the elements in order.
class PowerScratch3510 {
 public:
  PowerScratch3510(const AscendC::LocalTensor<uint8_t>& tmp, uint64_t n, bool active)
      : tmp_(tmp), n_(n) {
    if (!active || n == 0) return;
    chunk_ = (uint64_t{tmp.GetSize()} / 12 + 31) / 32 * 32;  // 0: the kit divides by 0
    if (chunk_ == 0) return;
    const uint64_t chunks = (n + chunk_ - 1) / chunk_;
    first_ = (n % chunk_ != 0 && chunks >= 2 ? chunks - 2 : chunks - 1) * chunk_;
  }

  bool Active() const { return chunk_ != 0; }

  // Element i's result (a, b widened), its intermediates stored where they stay.
  float Element(uint64_t i, float a, float b) {
    const PowerLog3510 l = PowerLogExt3510(std::fabs(a));
    const float core = PowerExpCore3510(l, b);
    if (i >= first_) Put(i, core, l);
    return PowerSpecial3510(core, a, b);
  }

  void Record(SrcLoc loc) const {
    san::Instr rec(Pipe::kV, "Power", loc);
    if (rec && written_ != 0) rec.Write(tmp_.HostPtr(), written_);
  }

 private:
  void Put(uint64_t i, float core, const PowerLog3510& l) {
    if (written_ == 0) {
      const uint64_t len = std::min(chunk_, n_), a = (len + 31) / 32 * 32;
      written_ = 4 * (2 * a + len);
      if (written_ > tmp_.View().size_bytes) {
        // Past the kit's minimum (12n bytes, short when n is not a multiple of 32): the device
        // writes past the buffer, and so does lngrad in every mode (the kit's power sample on
        // dav-3510 sizes it so); past the UB's end it is refused.
        const detail::TensorView v = tmp_.View();
        detail::RequireInsideUb(v, v.ptr - v.ub, written_,
                                "Power sharedTmpBuffer (DOUBLE_FLOAT_TECH on the 950 stores three "
                                "float arrays per chunk there, two of them padded to 32 elements)");
      }
    }
    const uint64_t start = i / chunk_ * chunk_, j = i - start;
    const uint64_t a = (std::min(chunk_, n_ - start) + 31) / 32 * 32;
    uint8_t* base = tmp_.HostPtr();
    std::memcpy(base + 4 * j, &core, 4);
    std::memcpy(base + 4 * (a + j), &l.lo, 4);
    std::memcpy(base + 4 * (2 * a + j), &l.poly, 4);
  }

  const AscendC::LocalTensor<uint8_t>& tmp_;
  uint64_t n_, chunk_ = 0, first_ = 0, written_ = 0;
};

// One element of Power on the 950 (a, b widened to float): `double_float` DOUBLE_FLOAT_TECH.
inline float PowerF3510(float a, float b, bool double_float) {
  const float d = double_float ? PowerExpCore3510(PowerLogExt3510(std::fabs(a)), b)
                               : ExpF(b * LnF(std::fabs(a)));
  return PowerSpecial3510(d, a, b);
}

}  // namespace lngrad::aicore::math_detail
