// lngrad: what Power<int32_t>'s sequence on arch 2201/2002 (power_common_impl.h's int32_t
// PowerImpl overloads, power_int_impl.h's CommonPowerI, power_common_utils.h's
// VselPowerTensorTensor, power_v220_impl.h / power_v200_impl.h) leaves in its scratch
// (sharedTmpBuffer, or the stack buffer).
//
// Layout: chunk = bytes / 4 / factor down to a multiple of 32 (factor 6 tensor^tensor, 7 with a
// scalar; one more on 2002); with a scalar, the scalar Duplicate'd over a chunk of int32 first;
// then int32 expUBIterate, oriAbsExp, recordExpNode, tmpTensor1, tmpTensor2 of a chunk each
// (2002: and tmpTensor3, the temp of ShiftRightOneBit and CompareIntZero and ReduceSum's work
// area; 2201 assigns none, and none of them takes one there: its ReduceSum with a count is one
// accumulating vcadd), then negMask and mask of chunk bytes, then tmpScalar.
//
// Each round (the chunk, then the tail) loops until the float sums of its exponents are 0 (the
// squarings, then one product a remainder unit): what it leaves does not depend on how many
// rounds ran, so PowerIntScratch writes each round's last values (p = x^|y| with wrapping
// products, dst before HandleNegativeExpPowerI): expUBIterate 1.0f (its oneTensor), oriAbsExp
// 1.0f / float(p), recordExpNode 0, tmpTensor1 that quotient cast CAST_TRUNC (saturated),
// tmpTensor2 0, tmpTensor3 p + 0x3f800000 (CompareIntZero's Adds); negMask InitBulkPowerI's
// CompareScalar float(y) < 0 and mask HandleNegativeExpPowerI's CompareIntZero (p == 0), each
// over DivCeil(len * 4, 256) whole repeats, whose lanes past the round read: for negMask
// tmpTensor1's and tmpTensor2's words as the round finds them; for mask on 2201 dst's following
// elements as they were before the call (the next round's, or past the count; past the UB:
// unequal), on 2002 tmpTensor3's words and the bytes after it (negMask as this round left it,
// tmpScalar's first word the last ReduceSum's +0.0f); tmpScalar's first word: the UB address of
// mask (the last select's Duplicate), the rest untouched. Exponents whose loops do not end
// (INT_MIN; on 2002 the overshooting halvings, power.h's PowerInt2002Ends) are refused in
// checked mode; unchecked, the scratch is left marked unmodelled (initcheck).
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <vector>

#include "lib/math/math_common.h"

namespace lngrad::aicore::math_detail {

// 2002's ShiftRightOneBit (power_v200_impl.h) on one int32 exponent: e & ~1 through float (to
// nearest), halved, back to int32 CAST_RINT.
inline int32_t PowerHalve2002(int32_t e) {
  const float f = static_cast<float>(static_cast<int32_t>(static_cast<uint32_t>(e) & ~1u));
  return static_cast<int32_t>(std::nearbyint(f * 0.5f));
}

class PowerIntScratch {
 public:
  // scalar: a scalar operand (tensor^scalar or scalar^tensor); dst's words [0, count + 64)
  // within the UB are copied now, before the pass writes dst. active false: does nothing.
  PowerIntScratch(const AscendC::LocalTensor<uint8_t>& tmp, bool scalar,
                  const AscendC::LocalTensor<int32_t>& dst, uint32_t count, bool active)
      : tmp_(tmp), v200_(detail::rep::RunningArch() == NpuArch::k2002), scalar_(scalar) {
    const detail::TensorView tv = tmp.View();
    const uint64_t factor = (v200_ ? 7 : 6) + (scalar ? 1 : 0);
    bytes_ = tv.size_bytes;
    chunk_ = tv.ptr == nullptr ? 0 : bytes_ / 4 / factor / 32 * 32;
    active_ = active && chunk_ != 0 && (count != 0 || scalar);  // scalar: its Duplicate
    if (!active_) return;
    e0_ = scalar ? chunk_ : 0;
    neg0_ = (e0_ + (v200_ ? 6 : 5) * chunk_) * 4;
    mask_addr_ = static_cast<uint32_t>(tv.ptr - tv.ub) + static_cast<uint32_t>(neg0_ + chunk_);
    const detail::TensorView dv = dst.View();
    const uint64_t room = dv.ptr == nullptr || dv.ptr < dv.ub || dv.ptr >= dv.ub + dv.ub_size
                              ? 0
                              : static_cast<uint64_t>(dv.ub + dv.ub_size - dv.ptr) / 4;
    old_dst_.resize(std::min<uint64_t>(uint64_t{count} + 64, room));
    if (!old_dst_.empty()) std::memcpy(old_dst_.data(), dv.ptr, old_dst_.size() * 4);
  }

  bool Active() const { return active_; }

  // Runs the rounds of `count` elements: x(i), y(i) the operands of element i, p(i) its x^|y|
  // (dst before the negative exponents are handled); writes the scratch and records it.
  template <typename X, typename Y, typename P>
  void Run(const char* api, SrcLoc loc, uint32_t count, X x, Y y, P p) {
    if (!active_) return;
    w_.assign(bytes_ / 4 + 64, 0u);
    std::memcpy(w_.data(), tmp_.HostPtr(), bytes_);
    // The scalar forms' Duplicate of the scalar over the stack tensor's chunk.
    if (scalar_) std::fill(w_.begin(), w_.begin() + chunk_, scalar_value_);
    uint64_t hi = 0, hi_m = 0;
    for (uint64_t off = 0; off < count; off += chunk_) {
      const uint64_t len = std::min<uint64_t>(chunk_, count - off);
      Round(off, len, x, y, p);
      hi = std::max(hi, len);
      hi_m = std::max(hi_m, (len * 4 + 255) / 256 * 8);
    }
    if (count != 0) w_[(neg0_ + 2 * chunk_) / 4] = mask_addr_;
    std::memcpy(tmp_.HostPtr(), w_.data(), bytes_);
    san::Instr rec(Pipe::kV, api, loc);
    if (!rec) return;
    std::byte* t = reinterpret_cast<std::byte*>(tmp_.HostPtr());
    if (scalar_) rec.Write(t, chunk_ * 4);
    if (count == 0) return;
    for (uint64_t k = 0; k < (v200_ ? 6u : 5u); ++k) rec.Write(t + (e0_ + k * chunk_) * 4, hi * 4);
    rec.Write(t + neg0_, hi_m);
    rec.Write(t + neg0_ + chunk_, hi_m);
    rec.Write(t + neg0_ + 2 * chunk_, 4);
  }

  // The scalar operand of the scalar forms (before Run).
  void SetScalar(int32_t v) { scalar_value_ = static_cast<uint32_t>(v); }

 private:
  uint32_t* Tensor(int k) { return w_.data() + e0_ + k * chunk_; }  // expUBIterate = 0, ...
  uint8_t* Mask(int k) { return reinterpret_cast<uint8_t*>(w_.data()) + neg0_ + k * chunk_; }
  // CompareScalar over `rep` whole repeats: on(k) lane k's result (every lane read first).
  template <typename F>
  void Cmp(int m, uint64_t rep, F on) {
    std::vector<uint8_t> bits(rep * 8, 0);
    for (uint64_t k = 0; k < rep * 64; ++k) {
      if (on(k)) bits[k / 8] = static_cast<uint8_t>(bits[k / 8] | (1u << (k % 8)));
    }
    std::memcpy(Mask(m), bits.data(), bits.size());
  }

  // x^e with wrapping products.
  static uint32_t Pow(uint32_t x, uint32_t e) {
    uint32_t r = 1;
    for (; e != 0; e >>= 1, x *= x) {
      if (e & 1u) r *= x;
    }
    return r;
  }

  // 2002: mask before HandleNegativeExpPowerI's Compare (which reads it when the chunk is 32
  // or 96: tmpTensor3's lanes past the chunk run over negMask into mask): the last
  // CompareZeroPositive of the remainder loop (or of InitFinePowerI) over recordExpNode (0 in
  // the round) and, past the chunk, tmpTensor1 (that loop's last products x * dst, dst =
  // x^(R + min(rem, rounds - 1)) with R the squarings' power of two, rem = |y| - R, rounds the
  // largest rem; the squarings' last float(0) where no remainder round ran).
  template <typename X, typename Y>
  void LastZeroPositive2002(uint64_t off, uint64_t len, uint64_t rep, X x, Y y) {
    std::vector<uint32_t> big(len), rem(len);
    uint32_t rounds = 0;
    for (uint64_t j = 0; j < len; ++j) {
      const int32_t e = y(off + j);
      const uint32_t a = e < 0 ? 0u - static_cast<uint32_t>(e) : static_cast<uint32_t>(e);
      uint32_t r = a == 0 ? 0 : 1;
      for (int32_t h = PowerHalve2002(static_cast<int32_t>(a)); h != 0; h = PowerHalve2002(h)) {
        r *= 2;
      }
      big[j] = r;
      rem[j] = a - r;
      rounds = std::max(rounds, rem[j]);
    }
    const uint32_t* rec = Tensor(2);
    const uint32_t* t1 = Tensor(3);
    Cmp(1, rep, [&](uint64_t k) {
      if (k < len) return true;  // recordExpNode 0
      uint32_t w = 0;
      if (k < chunk_) {
        w = rec[k];
      } else if (k - chunk_ >= len) {
        w = t1[k - chunk_];
      } else if (rounds != 0) {
        const uint64_t j = k - chunk_;
        const uint32_t xj = static_cast<uint32_t>(x(off + j));
        w = Pow(xj, big[j] + std::min(rem[j], rounds - 1) + 1);
      }
      return std::bit_cast<float>(w) == 0.0f;
    });
  }

  template <typename X, typename Y, typename P>
  void Round(uint64_t off, uint64_t len, X x, Y y, P p) {
    const uint64_t rep = (len * 4 + 255) / 256;
    enum { kE, kO, kR, kT1, kT2, kT3 };
    // InitBulkPowerI: tmpTensor1 = float(y), negMask = its lanes < 0.
    for (uint64_t j = 0; j < len; ++j)
      Tensor(kT1)[j] = std::bit_cast<uint32_t>(static_cast<float>(y(off + j)));
    const uint32_t* t1 = Tensor(kT1);
    Cmp(0, rep, [&](uint64_t k) { return std::bit_cast<float>(t1[k]) < 0.0f; });
    std::vector<uint32_t> pw(len);
    for (uint64_t j = 0; j < len; ++j) pw[j] = static_cast<uint32_t>(p(off + j));
    // HandleNegativeExpPowerI's CompareIntZero on dst (2201) or tmpTensor3 (2002).
    if (v200_) {
      for (uint64_t j = 0; j < len; ++j) Tensor(kT3)[j] = pw[j] + 0x3f800000u;
      w_[(neg0_ + 2 * chunk_) / 4] = 0u;  // tmpScalar: the last ReduceSum's +0.0f
      LastZeroPositive2002(off, len, rep, x, y);
      const uint32_t* t3 = Tensor(kT3);
      Cmp(1, rep, [&](uint64_t k) { return std::bit_cast<float>(t3[k]) == 1.0f; });
    } else {
      Cmp(1, rep, [&](uint64_t k) {
        if (k < len) return pw[k] == 0u;
        return off + k < old_dst_.size() && old_dst_[off + k] == 0u;
      });
    }
    for (uint64_t j = 0; j < len; ++j) {
      const float q = 1.0f / static_cast<float>(static_cast<int32_t>(pw[j]));
      Tensor(kE)[j] = std::bit_cast<uint32_t>(1.0f);
      Tensor(kO)[j] = std::bit_cast<uint32_t>(q);
      Tensor(kR)[j] = 0u;
      Tensor(kT1)[j] = static_cast<uint32_t>(FloatToInt32(q, AscendC::RoundMode::CAST_TRUNC));
      Tensor(kT2)[j] = 0u;
    }
  }

  AscendC::LocalTensor<uint8_t> tmp_;
  bool v200_, scalar_, active_ = false;
  uint64_t bytes_ = 0, chunk_ = 0, e0_ = 0, neg0_ = 0;
  uint32_t mask_addr_ = 0, scalar_value_ = 0;
  std::vector<uint32_t> old_dst_, w_;
};

}  // namespace lngrad::aicore::math_detail
