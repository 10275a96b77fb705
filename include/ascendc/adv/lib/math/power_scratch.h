// lngrad: what Power<float>'s sequence on arch 2201/2002 (power_common_impl.h's float PowerImpl,
// power_float_impl.h's CommonPowerF, power_v220_impl.h / power_v200_impl.h) leaves in its
// scratch (sharedTmpBuffer, or the stack buffer).
//
// Layout: 256 bytes of tmpScalar at the base (words 0..7 = 1.0f, 8..15 = NaN 0x7fc00000, the
// Selects' scalars); chunk = (bytes - 256) / 4 / factor down to a multiple of 32 (factor 4
// tensor^tensor, 5 with a scalar; one more on 2002); with a scalar, the scalar Duplicate'd over
// a chunk of floats next; then float tmp1, tmp2, tmp3 (2002: and tmp4) of a chunk each, then
// four bit masks of chunk bytes (tmpMask1..3, finiteIntegerYMask). Each round (the chunk, then
// the tail) writes the temp tensors over its elements (counter mode), except CompareScalar,
// which compares every lane of its DivCeil(len * 4, 256) repeats: lanes past the round read the
// next tensor, what an earlier round left, or the user's source past the count, so the bytes
// depend on every round; PowerFloatScratch runs the rounds over the scratch's bytes, instruction
// by instruction (dst's values come from power.h's per-element PowerF, which does not depend on
// the scratch). A lane of the source past the UB reads as NaN.
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "lib/math/math_common.h"
#include "lib/math/math_steps.h"
#include "lib/math/rounding.h"

namespace lngrad::aicore::math_detail {

class PowerFloatScratch {
 public:
  // scalar_exp / scalar_base: which operand is a scalar (at most one); half: Power<half>, whose
  // rounds widen into float stackSrc0, stackSrc1 and stackDst after tmpScalar (factor 7, 2002:
  // 8, whatever the form) and run the float sequence on them.
  PowerFloatScratch(const AscendC::LocalTensor<uint8_t>& tmp, bool scalar_base, bool scalar_exp,
                    bool half = false)
      : tmp_(tmp),
        bytes_(tmp.View().size_bytes),
        v200_(detail::rep::RunningArch() == NpuArch::k2002),
        scalar_base_(scalar_base),
        scalar_exp_(scalar_exp),
        half_(half) {
    const bool scalar = scalar_base || scalar_exp;
    const uint64_t factor = half ? (v200_ ? 8 : 7) : (v200_ ? 5 : 4) + (scalar ? 1 : 0);
    chunk_ = bytes_ < 256 ? 0 : (bytes_ - 256) / 4 / factor / 32 * 32;
    t1_ = 64 + (half ? 3 * chunk_ : scalar ? chunk_ : 0);
    mask0_ = (t1_ + (v200_ ? 4 : 3) * chunk_) * 4;
  }

  // Power<half>: Run's rounds over the widened operands; result(x, y) the float result the
  // device leaves in stackDst.
  template <typename H, typename R>
  void RunHalf(const char* api, SrcLoc loc, const AscendC::LocalTensor<H>* base,
               const AscendC::LocalTensor<H>* exp, H scalar, uint32_t count, R result) {
    if (chunk_ == 0 || On3510()) return;
    Load();
    const uint64_t s0 = 64, s1 = 64 + chunk_, sd = 64 + 2 * chunk_;
    if (scalar_exp_) std::fill(w_.begin() + s1, w_.begin() + s1 + chunk_, Bits(Widen(scalar)));
    if (scalar_base_) std::fill(w_.begin() + s0, w_.begin() + s0 + chunk_, Bits(Widen(scalar)));
    uint64_t hi = 0, hi_m = 0;
    for (uint64_t off = 0; off < count; off += chunk_) {
      len_ = std::min<uint64_t>(chunk_, count - off);
      rep_ = (len_ * 4 + 255) / 256;
      off_ = off;
      for (uint64_t j = 0; j < len_ && base != nullptr; ++j) {
        w_[s0 + j] = Bits(Widen(base->HostPtr()[off + j]));
      }
      for (uint64_t j = 0; j < len_ && exp != nullptr; ++j) {
        w_[s1 + j] = Bits(Widen(exp->HostPtr()[off + j]));
      }
      Round();
      for (uint64_t j = 0; j < len_; ++j) w_[sd + j] = Bits(result(X(j), Y(j)));
      hi = std::max(hi, len_);
      hi_m = std::max(hi_m, rep_ * 8);
    }
    Store(api, loc, hi, hi_m);
  }

  // Runs every round of `count` elements over the scratch and records its writes. base / exp:
  // the tensors (null where that operand is the scalar `scalar`).
  void Run(const char* api, SrcLoc loc, const AscendC::LocalTensor<float>* base,
           const AscendC::LocalTensor<float>* exp, float scalar, uint32_t count) {
    if (chunk_ == 0 || On3510()) return;
    Load();
    const bool scalar_form = scalar_base_ || scalar_exp_;
    if (scalar_form) std::fill(w_.begin() + 64, w_.begin() + 64 + chunk_, Bits(scalar));
    base_ = base;
    exp_ = exp;
    uint64_t hi = 0, hi_m = 0;
    for (uint64_t off = 0; off < count; off += chunk_) {
      len_ = std::min<uint64_t>(chunk_, count - off);
      rep_ = (len_ * 4 + 255) / 256;
      off_ = off;
      Round();
      hi = std::max(hi, len_);
      hi_m = std::max(hi_m, rep_ * 8);
    }
    Store(api, loc, hi, hi_m);
  }

 private:
  // The scratch's words, tmpScalar written (InitTmpScalar: 8 x 1.0f, 8 x NaN).
  void Load() {
    w_.assign(bytes_ / 4 + 1, 0u);
    std::memcpy(w_.data(), tmp_.HostPtr(), bytes_);
    for (uint64_t k = 0; k < 8; ++k) w_[k] = 0x3f800000u;
    for (uint64_t k = 8; k < 16; ++k) w_[k] = 0x7fc00000u;
  }
  // Writes the words back and records the stores (hi: the longest round; hi_m: its mask bytes).
  void Store(const char* api, SrcLoc loc, uint64_t hi, uint64_t hi_m) {
    std::memcpy(tmp_.HostPtr(), w_.data(), bytes_);
    san::Instr rec(Pipe::kV, api, loc);
    if (!rec) return;
    rec.Write(tmp_.HostPtr(), 64);
    if (half_) {
      rec.Write(tmp_.HostPtr() + 256, scalar_base_ ? chunk_ * 4 : hi * 4);
      rec.Write(tmp_.HostPtr() + 256 + chunk_ * 4, scalar_exp_ ? chunk_ * 4 : hi * 4);
      rec.Write(tmp_.HostPtr() + 256 + chunk_ * 8, hi * 4);
    } else if (scalar_base_ || scalar_exp_) {
      rec.Write(tmp_.HostPtr() + 256, chunk_ * 4);
    }
    for (uint64_t k = 0; k < (v200_ ? 4u : 3u); ++k) {
      rec.Write(tmp_.HostPtr() + (t1_ + k * chunk_) * 4, hi * 4);
    }
    for (uint64_t k = 0; k < 4; ++k) rec.Write(tmp_.HostPtr() + mask0_ + k * chunk_, hi_m);
  }
  enum Mask { kM1, kM2, kM3, kFiy };

  static uint32_t Bits(float v) { return std::bit_cast<uint32_t>(v); }
  static float Float(uint32_t b) { return std::bit_cast<float>(b); }
  uint32_t* T(int k) { return w_.data() + t1_ + (k - 1) * chunk_; }  // tmp1..tmp4
  uint8_t* M(Mask m) { return reinterpret_cast<uint8_t*>(w_.data()) + mask0_ + m * chunk_; }

  // Lane k of the round of a tensor operand (the UB's bytes past its end: NaN).
  float Lane(const AscendC::LocalTensor<float>& t, uint64_t k) const {
    const detail::TensorView v = t.View();
    const std::byte* p = v.ptr + (off_ + k) * 4;
    if (p < v.ub || p + 4 > v.ub + v.ub_size) return std::numeric_limits<float>::quiet_NaN();
    float f;
    std::memcpy(&f, p, 4);
    return f;
  }
  // The operands' lane k: half's stackSrc0 / stackSrc1, float's scalar tensor or the source.
  float X(uint64_t k) const {
    if (half_) return Float(w_[64 + k]);
    return scalar_base_ ? Float(w_[64 + k]) : Lane(*base_, k);
  }
  float Y(uint64_t k) const {
    if (half_) return Float(w_[64 + chunk_ + k]);
    return scalar_exp_ ? Float(w_[64 + k]) : Lane(*exp_, k);
  }
  float Rnd(float v, RoundingApi mode) const {
    if (v200_) return Int32Back(RoundViaInt32(mode, v));
    return mode == RoundingApi::kFloor ? FloorF(v) : RintF(v);
  }
  template <typename F>
  void Lanes(int k, F f) {
    uint32_t* d = T(k);
    for (uint64_t j = 0; j < len_; ++j) d[j] = f(j);
  }
  template <typename F>
  void LanesF(int k, F f) {
    Lanes(k, [&](uint64_t j) { return Bits(f(j)); });
  }
  // CompareScalar over whole repeats: on(k) the lane's result.
  template <typename F>
  void Cmp(Mask m, F on) {
    uint8_t* bits = M(m);
    std::fill(bits, bits + rep_ * 8, uint8_t{0});
    for (uint64_t k = 0; k < rep_ * 64; ++k) {
      if (on(k)) bits[k / 8] = static_cast<uint8_t>(bits[k / 8] | (1u << (k % 8)));
    }
  }
  template <typename F>
  void CmpT(Mask m, int t, F pred) {
    const uint32_t* a = T(t);
    Cmp(m, [&](uint64_t k) { return pred(Float(a[k])); });
  }
  void Words(Mask d, Mask a, Mask b, bool is_or) {
    for (uint64_t i = 0; i < (len_ + 15) / 16; ++i) {
      uint16_t x, y;
      std::memcpy(&x, M(a) + 2 * i, 2);
      std::memcpy(&y, M(b) + 2 * i, 2);
      const uint16_t r = static_cast<uint16_t>(is_or ? (x | y) : (x & y));
      std::memcpy(M(d) + 2 * i, &r, 2);
    }
  }
  bool Bit(Mask m, uint64_t j) { return ((M(m)[j / 8] >> (j % 8)) & 1u) != 0; }

  void Round();

  AscendC::LocalTensor<uint8_t> tmp_;
  const AscendC::LocalTensor<float>* base_ = nullptr;
  const AscendC::LocalTensor<float>* exp_ = nullptr;
  uint64_t bytes_, chunk_ = 0, t1_ = 0, mask0_ = 0;
  bool v200_, scalar_base_, scalar_exp_, half_;
  std::vector<uint32_t> w_;
  uint64_t len_ = 0, rep_ = 0, off_ = 0;
};

inline void PowerFloatScratch::Round() {
  constexpr float kInf = std::numeric_limits<float>::infinity();
  constexpr auto kRint = RoundingApi::kRint;
  const auto f = [this](int k, uint64_t j) { return Float(T(k)[j]); };
  // DetermineSign: tmp1 = +1 / -1 by |y|'s parity.
  LanesF(1, [&](uint64_t j) { return std::fabs(Y(j)); });
  LanesF(1, [&](uint64_t j) { return Rnd(f(1, j), kRint); });
  LanesF(2, [&](uint64_t j) { return f(1, j) * 0.5f; });
  LanesF(2, [&](uint64_t j) { return Rnd(f(2, j), RoundingApi::kFloor); });
  LanesF(2, [&](uint64_t j) { return f(2, j) * 2.0f; });
  LanesF(1, [&](uint64_t j) { return f(1, j) - f(2, j); });
  LanesF(1, [&](uint64_t j) { return f(1, j) * -2.0f; });
  LanesF(1, [&](uint64_t j) { return f(1, j) + 1.0f; });
  LanesF(1, [&](uint64_t j) { return Rnd(f(1, j), kRint); });
  // GenMaskForSign: x's sign bit (GrepSignBit), |y| integral.
  if (v200_) {
    Lanes(2, [](uint64_t) { return 0x80000000u; });
    Lanes(4, [](uint64_t) { return 0x3f800000u; });
    Lanes(2, [&](uint64_t j) { return Bits(X(j)) & T(2)[j]; });
    Lanes(2, [&](uint64_t j) { return T(4)[j] | T(2)[j]; });
    CmpT(kM1, 2, [](float v) { return v < 0.0f; });
  } else {
    Lanes(2, [&](uint64_t j) { return Bits(X(j)) >> 31; });
    const uint32_t* t2 = T(2);
    Cmp(kM1, [&](uint64_t k) { return t2[k] == 1u; });
  }
  LanesF(2, [&](uint64_t j) { return std::fabs(Y(j)); });
  LanesF(3, [&](uint64_t j) { return Rnd(f(2, j), kRint); });
  LanesF(3, [&](uint64_t j) { return f(2, j) - f(3, j); });
  LanesF(3, [&](uint64_t j) { return std::fabs(f(3, j)); });
  CmpT(kFiy, 3, [](float v) { return v < 0.00000001f; });
  Words(kM1, kFiy, kM1, false);
  // The sign Select into tmp2 (its scalar: tmpScalar's 1.0f).
  Lanes(2, [&](uint64_t j) { return Bit(kM1, j) ? T(1)[j] : w_[0]; });
  // GenMaskForOne.
  LanesF(1, [&](uint64_t j) { return std::fabs(Y(j)); });
  CmpT(kM1, 1, [](float v) { return v != 0.0f; });
  Cmp(kM2, [&](uint64_t k) { return X(k) != 1.0f; });
  Words(kM1, kM2, kM1, false);
  Cmp(kM2, [&](uint64_t k) { return X(k) != -1.0f; });
  CmpT(kM3, 1, [](float v) { return v != kInf; });
  Words(kM2, kM3, kM2, true);
  Words(kM1, kM2, kM1, false);
  // GenMaskForNan.
  LanesF(1, [&](uint64_t j) { return std::fabs(Y(j)); });
  CmpT(kM1, 1, [](float v) { return v == kInf; });
  Words(kM1, kFiy, kM1, true);
  Cmp(kM2, [&](uint64_t k) { return X(k) >= 0.0f; });
  Cmp(kM3, [&](uint64_t k) { return X(k) == -kInf; });
  Words(kM2, kM3, kM2, true);
  Words(kM1, kM2, kM1, true);
}

}  // namespace lngrad::aicore::math_detail
