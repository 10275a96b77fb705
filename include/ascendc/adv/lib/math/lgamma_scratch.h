// lngrad: what Lgamma's float sequence on arch 2201/2002 (lgamma_common_impl.h's
// LgammaCompute<float> and LgammaComputeImpl, lgamma_common_basic_impl.h's LGammaPositive,
// LGammaNegative and helpers) leaves in its scratch (sharedTmpBuffer, or the stack buffer).
//
// Layout (LGammaInitFParams): chunk = scratch floats / 8 (7 with isReuseSource) down to a
// multiple of 32; float tensors tmp1..tmp6 at k * chunk, then the zero scalar tensor (with
// isReuseSource it is the source, not the scratch), then four bit masks of chunk bytes each
// (mask, tmpMask1, tmpMask2, tmpMask3). The count runs in rounds of the chunk then a tail, in
// counter mode: each vector instruction touches the round's elements, except Compare, which
// runs its whole repeats (64 lanes each, DivCeil(len * 4, 256) of them) and so reads up to 63
// lanes past the round (the next tensor's or the source's elements, or what an earlier round
// left there) and writes their bits, and And / Not, which run ConstCeil(len, 16) 16-bit words.
// Those lanes make the bytes depend on every round, so LgammaFloatScratch runs the rounds over
// the scratch's bytes instruction by instruction, its temp tensors being the scratch itself
// (the results it computes there are those of lgamma.h's per-element steps, which write dst).
// A Compare lane of the source past the UB compares false.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "lib/math/math_common.h"
#include "lib/math/math_steps.h"
#include "lib/math/rounding.h"

namespace lngrad::aicore::math_detail {

class LgammaFloatScratch {
 public:
  LgammaFloatScratch(const AscendC::LocalTensor<uint8_t>& tmp, bool reuse)
      : tmp_(tmp),
        bytes_(tmp.View().size_bytes),
        chunk_(bytes_ / 4 / (reuse ? 7 : 8) / 32 * 32),
        reuse_(reuse),
        v200_(detail::rep::RunningArch() == NpuArch::k2002) {}

  // Runs every round of `count` elements of src over the scratch and records its writes.
  void Run(const char* api, SrcLoc loc, const AscendC::LocalTensor<float>& src, uint32_t count) {
    if (chunk_ == 0 || count == 0 || On3510()) return;
    words_.assign(bytes_ / 4 + 1, 0.0f);
    std::memcpy(words_.data(), tmp_.HostPtr(), bytes_);
    zero_.assign(chunk_, 0.0f);
    src_ = src;
    uint64_t hi_t = 0, hi_m = 0;
    for (uint64_t off = 0; off < count; off += chunk_) {
      len_ = std::min<uint64_t>(chunk_, count - off);
      rep_ = (len_ * 4 + 255) / 256;
      off_ = off;
      Round();
      hi_t = std::max(hi_t, len_);
      hi_m = std::max(hi_m, rep_ * 8);
    }
    std::memcpy(tmp_.HostPtr(), words_.data(), bytes_);
    san::Instr rec(Pipe::kV, api, loc);
    if (!rec) return;
    const uint64_t tensors = reuse_ ? 6 : 7;
    for (uint64_t k = 0; k < tensors; ++k) rec.Write(tmp_.HostPtr() + k * chunk_ * 4, hi_t * 4);
    for (uint64_t k = 0; k < 4; ++k) rec.Write(MaskPtr(k), hi_m);
  }

 private:
  enum Mask { kMask, kMask1, kMask2, kMask3 };
  enum Op { kLt, kGe, kNe };
  static constexpr float kInf = std::numeric_limits<float>::infinity();
  static constexpr float kPi = 3.1415927410125732421875f;  // fPi

  float* T(int k) { return words_.data() + (k - 1) * chunk_; }  // tmp1..tmp6 (tmp7: scalar)
  uint64_t MaskByte(uint64_t k) const { return (reuse_ ? 6 : 7) * chunk_ * 4 + k * chunk_; }
  uint8_t* MaskPtr(uint64_t k) { return tmp_.HostPtr() + MaskByte(k); }
  uint8_t* M(Mask k) { return reinterpret_cast<uint8_t*>(words_.data()) + MaskByte(k); }
  float* Scalar() { return reuse_ ? zero_.data() : T(7); }

  template <typename F>
  void Lanes(float* d, F f) {
    for (uint64_t j = 0; j < len_; ++j) d[j] = f(j);
  }
  void Fill(float* d, float v) {
    Lanes(d, [&](uint64_t) { return v; });
  }
  // LGammaCalcMulAdd: d = x * c0 + c1, then (d * x + c_i) for the rest, then d * x.
  void Poly(float* d, const float* x, std::initializer_list<float> c) {
    const float* p = c.begin();
    Lanes(d, [&](uint64_t j) { return x[j] * p[0]; });
    Lanes(d, [&](uint64_t j) { return d[j] + p[1]; });
    for (const float* q = p + 2; q != c.end(); ++q) {
      Lanes(d, [&](uint64_t j) { return d[j] * x[j]; });
      Lanes(d, [&](uint64_t j) { return d[j] + *q; });
    }
    Lanes(d, [&](uint64_t j) { return d[j] * x[j]; });
  }
  float Floor(float v) const {
    return v200_ ? Int32Back(RoundViaInt32(RoundingApi::kFloor, v)) : FloorF(v);
  }
  // Compare over whole repeats; a(k) and b(k) the lanes' operands.
  template <typename A, typename B>
  void Cmp(Mask m, Op op, A a, B b) {
    uint8_t* bits = M(m);
    std::fill(bits, bits + rep_ * 8, uint8_t{0});
    for (uint64_t k = 0; k < rep_ * 64; ++k) {
      const float x = a(k), y = b(k);
      const bool on = op == kLt ? x < y : (op == kGe ? x >= y : x != y);
      if (on) bits[k / 8] = static_cast<uint8_t>(bits[k / 8] | (1u << (k % 8)));
    }
  }
  // LGammaGenLTMask / LGammaGenGEMask: the scalar Duplicate'd into tmp1, then the Compare.
  void CmpScalar(Mask m, Op op, const float* a, float s) {
    Fill(T(1), s);
    const float* t1 = T(1);
    Cmp(
        m, op, [&](uint64_t k) { return a[k]; }, [&](uint64_t k) { return t1[k]; });
  }
  float SrcLane(uint64_t k) const {
    const detail::TensorView w = src_.View();
    const std::byte* p = w.ptr + (off_ + k) * 4;
    if (p < w.ub || p + 4 > w.ub + w.ub_size) return std::numeric_limits<float>::quiet_NaN();
    float v;
    std::memcpy(&v, p, 4);
    return v;
  }
  void Words16(Mask d, Mask a, Mask b, bool is_not) {
    for (uint64_t i = 0; i < (len_ + 15) / 16; ++i) {
      uint16_t x, y;
      std::memcpy(&x, M(a) + 2 * i, 2);
      std::memcpy(&y, M(b) + 2 * i, 2);
      const uint16_t r = static_cast<uint16_t>(is_not ? ~x : (x & y));
      std::memcpy(M(d) + 2 * i, &r, 2);
    }
  }
  // LGammaSelect: tmp1 = bit ? s : the scalar tensor's first element; d = tmp1 + d.
  void Select(float* d, const float* s, Mask m) {
    const float z = Scalar()[0];
    const uint8_t* bits = M(m);
    float* t1 = T(1);
    Lanes(t1, [&](uint64_t j) { return ((bits[j / 8] >> (j % 8)) & 1u) != 0 ? s[j] : z; });
    Lanes(d, [&](uint64_t j) { return t1[j] + d[j]; });
  }
  void Range(float lo, float hi) {
    CmpScalar(kMask, kLt, T(6), hi);
    CmpScalar(kMask1, kGe, T(6), lo);
    Words16(kMask, kMask1, kMask, false);
  }

  void Positive();
  void NegativeReflection();
  void Negative();
  void Round();

  AscendC::LocalTensor<uint8_t> tmp_;
  AscendC::LocalTensor<float> src_;
  uint64_t bytes_, chunk_;
  bool reuse_, v200_;
  std::vector<float> words_, zero_;
  uint64_t len_ = 0, rep_ = 0, off_ = 0;
};

inline void LgammaFloatScratch::Positive() {
  float *a = T(6), *t1 = T(1), *t2 = T(2), *t3 = T(3), *t4 = T(4), *t5 = T(5);
  Fill(t5, 0.0f);
  CmpScalar(kMask, kLt, a, 0.7f);
  Poly(t1, a,
       {0.00358751555905f, -0.00547128543258f, -0.0446271263063f, 0.167317703366f,
        -0.0421359799802f, -0.655867278576f, 0.577215373516f});
  Lanes(t1, [&](uint64_t j) { return t1[j] * a[j]; });
  Lanes(t1, [&](uint64_t j) { return t1[j] + a[j]; });
  Lanes(t1, [&](uint64_t j) { return LnF(t1[j]) * -1.0f; });  // two instructions, one rounding each
  Select(t5, t1, kMask);
  Range(0.7f, 1.5f);
  Lanes(t1, [&](uint64_t j) { return a[j] * -1.0f; });
  Lanes(t1, [&](uint64_t j) { return t1[j] + 1.0f; });
  Poly(t2, t1,
       {0.0458826646209f, 0.103739671409f, 0.122803635895f, 0.127524212003f, 0.143216684461f,
        0.169343575835f, 0.207407936454f, 0.27058750391f, 0.400685429573f, 0.82246696949f,
        0.577215671539f});
  Select(t5, t2, kMask);
  Range(1.5f, 3.0f);
  Lanes(t1, [&](uint64_t j) { return a[j] + -2.0f; });
  Poly(t2, t1,
       {4.95984932058e-05f, -0.000220894842641f, 0.000541314249858f, -0.00120451697148f,
        0.00288425176404f, -0.00738275796175f, 0.0205813199282f, -0.067352488637f, 0.322467029095f,
        0.422784328461f});
  Select(t5, t2, kMask);
  Range(3.0f, 5.8f);
  Lanes(t1, [&](uint64_t j) { return a[j] + -3.0f; });
  Poly(t2, t1, {-748.890319824f, -12349.7421875f, -41061.375f, -48310.6640625f});
  Lanes(t2, [&](uint64_t j) { return t2[j] + -143033.40625f; });
  Poly(t3, t1, {-259.250976562f, -10777.1796875f, -92685.046875f});
  Lanes(t3, [&](uint64_t j) { return t3[j] + -206353.578125f; });
  Lanes(t3, [&](uint64_t j) { return t2[j] / t3[j]; });
  Lanes(t3, [&](uint64_t j) { return t3[j] + t1[j]; });
  Select(t5, t3, kMask);
  Range(5.8f, kInf);
  Lanes(t1, [&](uint64_t j) { return LnF(a[j]); });
  Lanes(t1, [&](uint64_t j) { return t1[j] * 0.5f; });
  Lanes(t2, [&](uint64_t j) { return a[j] + -0.5f; });
  Lanes(t2, [&](uint64_t j) { return t2[j] * t1[j]; });
  Lanes(t3, [&](uint64_t j) { return 1.0f / a[j]; });
  Lanes(t4, [&](uint64_t j) { return t3[j] * t3[j]; });
  Poly(t1, t4, {0.000777830660809f, -0.00277765537612f});
  Lanes(t1, [&](uint64_t j) { return t1[j] + 0.0833332762122f; });
  Lanes(t1, [&](uint64_t j) { return t1[j] * t3[j]; });
  Lanes(t1, [&](uint64_t j) { return t1[j] + 0.91893851757f; });
  Lanes(t1, [&](uint64_t j) { return t1[j] + t2[j]; });
  Lanes(t1, [&](uint64_t j) { return t1[j] + t2[j]; });
  Lanes(t1, [&](uint64_t j) { return t1[j] - a[j]; });
  Select(t5, t1, kMask);
  CmpScalar(kMask, kGe, a, kInf);
  Select(t5, a, kMask);
}

// LGammaCalNegTmp1, 2 and 3: the reflection's value in tmp2, |S| * a in tmp3.
inline void LgammaFloatScratch::NegativeReflection() {
  float *a = T(6), *t1 = T(1), *t2 = T(2), *t3 = T(3), *t5 = T(5);
  Lanes(t2, [&](uint64_t j) { return a[j] + a[j]; });
  Lanes(t2, [&](uint64_t j) { return t2[j] + 0.5f; });
  Lanes(t2, [&](uint64_t j) { return Floor(t2[j]); });
  Lanes(t3, [&](uint64_t j) { return t2[j] * 0.5f; });
  Lanes(t3, [&](uint64_t j) { return Floor(t3[j]); });
  Lanes(t3, [&](uint64_t j) { return t3[j] * 2.0f; });
  Lanes(t3, [&](uint64_t j) { return t2[j] - t3[j]; });
  CmpScalar(kMask, kGe, t3, 0.5f);
  Words16(kMask1, kMask, kMask, true);
  Lanes(t2, [&](uint64_t j) { return t2[j] * -0.5f; });
  Lanes(t2, [&](uint64_t j) { return t2[j] + a[j]; });
  Lanes(t2, [&](uint64_t j) { return t2[j] * kPi; });
  Lanes(t3, [&](uint64_t j) { return t2[j] * t2[j]; });
  Poly(t1, t3,
       {-0.000195746586541645228862762451171875f, 0.0083327032625675201416015625f,
        -0.16666662693023681640625f});
  Lanes(t1, [&](uint64_t j) { return t1[j] * t2[j]; });
  Lanes(t1, [&](uint64_t j) { return t1[j] + t2[j]; });
  Fill(t2, 0.0f);
  Select(t2, t1, kMask1);
  Poly(t1, t3,
       {0.00002427957952022552490234375f, -0.001388786011375486850738525390625f,
        0.0416667275130748748779296875f, -0.4999999701976776123046875f});
  Lanes(t1, [&](uint64_t j) { return t1[j] + 1.0f; });
  Select(t2, t1, kMask);
  Lanes(t1, [&](uint64_t j) { return std::fabs(t2[j]); });
  Lanes(t3, [&](uint64_t j) { return t1[j] * a[j]; });
  Lanes(t1, [&](uint64_t j) { return LnF(t3[j]) * -1.0f; });
  Lanes(t1, [&](uint64_t j) { return t1[j] + 1.1447298526763916015625f; });
  Lanes(t2, [&](uint64_t j) { return t5[j] * -1.0f; });
  Lanes(t2, [&](uint64_t j) { return t1[j] + t2[j]; });
}

inline void LgammaFloatScratch::Negative() {
  constexpr float kTiny = 9.99999968266e-20f;
  float *a = T(6), *t1 = T(1), *t2 = T(2), *t3 = T(3), *t4 = T(4);
  Fill(t4, 0.0f);
  CmpScalar(kMask, kLt, a, kTiny);
  Lanes(t1, [&](uint64_t j) { return LnF(a[j]) * -1.0f; });
  Select(t4, t1, kMask);
  NegativeReflection();
  Lanes(t1, [&](uint64_t j) { return Floor(a[j]); });
  Cmp(
      kMask, kNe, [&](uint64_t k) { return t1[k]; }, [&](uint64_t k) { return a[k]; });
  Fill(t1, kInf);
  Cmp(
      kMask1, kLt, [&](uint64_t k) { return t3[k]; }, [&](uint64_t k) { return t1[k]; });
  Words16(kMask, kMask1, kMask, false);
  CmpScalar(kMask1, kGe, a, kTiny);
  Words16(kMask, kMask1, kMask, false);
  Select(t4, t2, kMask);
  Words16(kMask1, kMask, kMask, true);
  CmpScalar(kMask, kGe, a, kTiny);
  Words16(kMask1, kMask1, kMask, false);
  Fill(t2, kInf);
  Select(t4, t2, kMask1);
}

// LgammaComputeImpl(float) on one round; dst's values are not kept (lgamma.h writes dst).
inline void LgammaFloatScratch::Round() {
  float* t1 = T(1);
  Fill(t1, 0.0f);
  Cmp(
      kMask2, kGe, [&](uint64_t k) { return SrcLane(k); }, [&](uint64_t k) { return t1[k]; });
  Fill(t1, 0.0f);
  Cmp(
      kMask3, kLt, [&](uint64_t k) { return SrcLane(k); }, [&](uint64_t k) { return t1[k]; });
  Lanes(T(6), [&](uint64_t j) { return std::fabs(SrcLane(j)); });
  Fill(Scalar(), 0.0f);
  Positive();
  std::vector<float> dst(len_, 0.0f);
  Select(dst.data(), T(5), kMask2);
  Negative();
  Select(dst.data(), T(4), kMask3);
  Words16(kMask, kMask2, kMask2, true);
  Words16(kMask1, kMask3, kMask3, true);
  Words16(kMask, kMask1, kMask, false);
  Select(dst.data(), T(6), kMask);
}

// Lgamma<half>'s sequence (LgammaCompute<half>, LgammaComputeImpl(half), LgammaComputePosHalf,
// LgammaComputeNegHalf, Lgamma1Compute and SinCompute<float>): chunk = scratch floats / 13 down
// to a multiple of 32 (LGammaInitHParams); float tmp1..tmp5, the zero scalar tensor, the four
// masks (chunk bytes each, one chunk of floats together), then tmp6 of 6 chunks, which the
// positive and negative branches cut again (the negative's own positive branch and Sin at
// tmp6 + 2 chunks). Its Compares run DivCeil(chunk * 4, 256) repeats whatever the round's
// length; they read the scratch only.
class LgammaHalfScratch {
 public:
  explicit LgammaHalfScratch(const AscendC::LocalTensor<uint8_t>& tmp)
      : tmp_(tmp),
        bytes_(tmp.View().size_bytes),
        s_(bytes_ / 4 / 13 / 32 * 32),
        rep_((s_ * 4 + 255) / 256),
        v200_(detail::rep::RunningArch() == NpuArch::k2002) {}

  void Run(const char* api, SrcLoc loc, const AscendC::LocalTensor<half>& src, uint32_t count) {
    if (s_ == 0 || count == 0 || On3510()) return;
    w_.assign(bytes_ / 4 + 1, 0.0f);
    std::memcpy(w_.data(), tmp_.HostPtr(), bytes_);
    uint64_t hi = 0;
    for (uint64_t off = 0; off < count; off += s_) {
      len_ = std::min<uint64_t>(s_, count - off);
      Round(src.HostPtr() + off);
      hi = std::max(hi, len_);
    }
    std::memcpy(tmp_.HostPtr(), w_.data(), bytes_);
    san::Instr rec(Pipe::kV, api, loc);
    if (!rec) return;
    for (uint64_t k = 0; k < 6; ++k) rec.Write(tmp_.HostPtr() + k * s_ * 4, hi * 4);
    for (uint64_t k = 0; k < 4; ++k) rec.Write(tmp_.HostPtr() + 24 * s_ + k * s_, rep_ * 8);
    // tmp6's pieces: the positive branch's four, the negative's own first three and its
    // positive branch's four at 2 chunks on (Sin's three there too).
    for (uint64_t k = 0; k < 6; ++k) rec.Write(tmp_.HostPtr() + (7 + k) * s_ * 4, hi * 4);
  }

 private:
  static constexpr float kPi = 3.1415927410125732421875f;
  float* F(uint64_t chunks) { return w_.data() + chunks * s_; }
  uint8_t* M(int k) { return reinterpret_cast<uint8_t*>(w_.data()) + 24 * s_ + k * s_; }

  template <typename G>
  void Lanes(float* d, G g) {
    for (uint64_t j = 0; j < len_; ++j) d[j] = g(j);
  }
  void Fill(float* d, float v) {
    Lanes(d, [&](uint64_t) { return v; });
  }
  void Ln(float* d, const float* a) {
    Lanes(d, [&](uint64_t j) { return LnF(a[j]); });
  }
  float Integral(float v, AscendC::RoundMode mode) const {
    return v200_ ? Int32Back(FloatToInt32(v, mode)) : RoundToIntegral(v, mode);
  }
  void GeLt(int m, bool ge, const float* a, const float* b) {
    uint8_t* bits = M(m);
    std::fill(bits, bits + rep_ * 8, uint8_t{0});
    for (uint64_t k = 0; k < rep_ * 64; ++k) {
      if (ge ? a[k] >= b[k] : a[k] < b[k]) bits[k / 8] |= static_cast<uint8_t>(1u << (k % 8));
    }
  }
  void Word(int d, int a, int b, bool is_not) {
    for (uint64_t i = 0; i < (len_ + 15) / 16; ++i) {
      uint16_t x, y;
      std::memcpy(&x, M(a) + 2 * i, 2);
      std::memcpy(&y, M(b) + 2 * i, 2);
      const uint16_t r = static_cast<uint16_t>(is_not ? ~x : (x & y));
      std::memcpy(M(d) + 2 * i, &r, 2);
    }
  }
  void Pick(float* d, int m, const float* s, float scalar) {
    const uint8_t* bits = M(m);
    Lanes(d, [&](uint64_t j) { return ((bits[j / 8] >> (j % 8)) & 1u) != 0 ? s[j] : scalar; });
  }
  // LGammaSelectHalf: via = bit ? s : the scalar; d = via + d.
  void Accumulate(float* d, const float* s, int m, float* via) {
    Pick(via, m, s, F(5)[0]);
    Lanes(d, [&](uint64_t j) { return via[j] + d[j]; });
  }
  void Positive(float* d, const float* x, float* t);
  void Sine(float* d, const float* x, float* t);
  void Negative(float* d, const float* x, float* t);
  void Round(const half* src);

  AscendC::LocalTensor<uint8_t> tmp_;
  uint64_t bytes_, s_, rep_;
  bool v200_;
  std::vector<float> w_;
  uint64_t len_ = 0;
};

// Lgamma1Compute then the four logarithms (LgammaComputePosHalf), temps at t, t + s, ...
inline void LgammaHalfScratch::Positive(float* d, const float* x, float* t) {
  float *t1 = t, *t2 = t + s_, *t3 = t + 2 * s_, *t4 = t + 3 * s_;
  Lanes(t1, [&](uint64_t j) { return x[j] + 4.0f; });
  Fill(d, 1.0f);
  Lanes(d, [&](uint64_t j) { return d[j] / t1[j]; });
  Lanes(t2, [&](uint64_t j) { return d[j] * kPi; });
  Lanes(t2, [&](uint64_t j) { return t2[j] * 2.0f; });
  Ln(t2, t2);
  Lanes(t2, [&](uint64_t j) { return t2[j] * 0.5f; });
  Lanes(t3, [&](uint64_t j) { return d[j] * -0.1f; });
  Lanes(t4, [&](uint64_t j) { return t1[j] * 12.0f; });
  Lanes(t4, [&](uint64_t j) { return t4[j] + t3[j]; });
  Fill(d, 1.0f);
  Lanes(t4, [&](uint64_t j) { return d[j] / t4[j]; });
  Lanes(t4, [&](uint64_t j) { return t4[j] + t1[j]; });
  Ln(t4, t4);
  Lanes(t4, [&](uint64_t j) { return t4[j] + -1.0f; });
  Lanes(t4, [&](uint64_t j) { return t4[j] * t1[j]; });
  Lanes(d, [&](uint64_t j) { return t4[j] + t2[j]; });
  Ln(t3, x);
  for (float c = 1.0f; c <= 3.0f; c += 1.0f) {
    Lanes(t2, [&](uint64_t j) { return x[j] + c; });
    Ln(t2, t2);
    Lanes(t3, [&](uint64_t j) { return t3[j] + t2[j]; });
  }
  Lanes(d, [&](uint64_t j) { return d[j] - t3[j]; });
}

// SinCompute<float>(d, x, t): k at t, k * pi_i at t + s, the reduced x at t + 2s.
inline void LgammaHalfScratch::Sine(float* d, const float* x, float* t) {
  float *k = t, *kp = t + s_, *r = t + 2 * s_;
  Lanes(k, [&](uint64_t j) { return x[j] * 0.3183098733425140380859375f; });
  Lanes(k, [&](uint64_t j) { return Integral(k[j], AscendC::RoundMode::CAST_ROUND); });
  Lanes(kp, [&](uint64_t j) { return k[j] * 3.140625f; });
  Lanes(r, [&](uint64_t j) { return x[j] - kp[j]; });
  for (const float p : {0.0009670257568359375f, 6.2771141529083251953125e-7f,
                        1.21644916362129151821136474609375e-10f}) {
    Lanes(kp, [&](uint64_t j) { return k[j] * p; });
    Lanes(r, [&](uint64_t j) { return r[j] - kp[j]; });
  }
  Lanes(kp, [&](uint64_t j) { return r[j] * r[j]; });
  Lanes(d, [&](uint64_t j) { return k[j] * 0.5f; });
  Lanes(d, [&](uint64_t j) { return Integral(d[j], AscendC::RoundMode::CAST_FLOOR); });
  Lanes(d, [&](uint64_t j) { return d[j] * 4.0f; });
  Lanes(k, [&](uint64_t j) { return k[j] * -2.0f; });
  Lanes(d, [&](uint64_t j) { return d[j] + k[j]; });
  Lanes(d, [&](uint64_t j) { return d[j] + 1.0f; });
  Lanes(k, [&](uint64_t j) { return kp[j] * 2.604926501e-6f; });
  Lanes(k, [&](uint64_t j) { return k[j] + -0.0001980894471f; });
  for (const float c : {0.008333049340f, -0.1666665792f, 1.0f}) {
    Lanes(k, [&](uint64_t j) { return k[j] * kp[j]; });
    Lanes(k, [&](uint64_t j) { return k[j] + c; });
  }
  Lanes(k, [&](uint64_t j) { return k[j] * r[j]; });
  Lanes(d, [&](uint64_t j) { return k[j] * d[j]; });
}

// LgammaComputeNegHalf(d, x, t).
inline void LgammaHalfScratch::Negative(float* d, const float* x, float* t) {
  float *t1 = t, *t2 = t + s_, *t3 = t + 2 * s_;
  Lanes(t1, [&](uint64_t j) { return x[j] * -1.0f; });
  Lanes(t1, [&](uint64_t j) { return t1[j] + 1.0f; });
  Positive(d, t1, t3);
  Lanes(d, [&](uint64_t j) { return d[j] * -1.0f; });
  Lanes(t1, [&](uint64_t j) { return Integral(x[j], AscendC::RoundMode::CAST_FLOOR); });
  Lanes(t1, [&](uint64_t j) { return x[j] - t1[j]; });
  Lanes(t1, [&](uint64_t j) { return t1[j] * kPi; });
  Sine(t2, t1, t3);
  Lanes(t2, [&](uint64_t j) { return std::fabs(t2[j]); });
  Fill(t3, kPi);
  Lanes(t2, [&](uint64_t j) { return t3[j] / t2[j]; });
  Ln(t2, t2);
  Lanes(d, [&](uint64_t j) { return d[j] + t2[j]; });
}

inline void LgammaHalfScratch::Round(const half* src) {
  float *t1 = F(0), *t2 = F(1), *t3 = F(2), *t4 = F(3), *t5 = F(4), *t6 = F(7);
  Fill(t1, 0.0f);
  Lanes(t2, [&](uint64_t j) { return static_cast<float>(src[j]); });
  Fill(F(5), 0.0f);
  Positive(t3, t2, t6);
  Fill(t5, 0.0f);
  GeLt(0, true, t2, t5);
  Accumulate(t1, t3, 0, t5);
  Negative(t4, t2, t6);
  Fill(t5, 0.0f);
  GeLt(1, false, t2, t5);
  Accumulate(t1, t4, 1, t5);
  Word(2, 0, 0, true);
  Word(3, 1, 1, true);
  Word(2, 2, 3, false);
  Accumulate(t1, t2, 2, t4);
  Lanes(t2, [&](uint64_t j) { return std::fabs(t2[j]); });
  Fill(t4, 65504.0f);
  GeLt(2, true, t2, t4);
  Word(3, 2, 2, true);
  Fill(F(5), 655040.0f);
  Pick(t1, 3, t1, 655040.0f);
}

}  // namespace lngrad::aicore::math_detail
