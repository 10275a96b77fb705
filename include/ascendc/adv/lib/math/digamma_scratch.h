// lngrad: what Digamma's sequences on arch 2201/2002 (digamma_common_impl.h's DigammaCompute and
// both DigammaComputeImpl, digamma_common_basic_impl.h's helpers, the Tan, Sin and Cos
// sequences the half path calls) leave in their scratch (sharedTmpBuffer, or the stack buffer).
//
// Layout (DigammaInitParams): split = scratch floats / K down to a multiple of 32 (K = 7 float,
// 6 float with isReuseSource, 8 half); float tensors result, tmpCal1, tmpCal2, tmpCal3,
// [tmpCal4,] (half: tmpCal4, tmpCal5,) tmpScalar at k * split, then the bit masks mask, mask1,
// mask2 of split bytes each; float isReuseSource's tmpCal4 is srcTensor's base. The count runs in
// rounds of the split, then the tail rounded up to 8 (params.splitSize: the round's length L).
// Each instruction runs L lanes (counter mode) but for And / Not (ConstCeil(L, 16) 16-bit words)
// and Compare, which runs its DivCeil(4 L, 256) whole repeats of 64 lanes: lanes past the round
// read the next tensor (tmpScalar's: the masks, for some splits the very mask being written),
// what an earlier round left, or srcTensor's elements past the round, wherever they lie in the
// UB (dst's partial sums included). So DigammaScratch runs every round, instruction by
// instruction, over a copy of the UB as the call found it (each Compare repeat reads its 64
// lanes before it writes its 8 mask bytes; a lane past the UB reads NaN), then writes back the
// scratch bytes it wrote. The half path's Tan, Sin and Cos take params.result as their temp
// buffer with calSize L, so in the tail their temps sit at L-strides, not at the split's.
// The results in dst come from digamma.h's per-element steps; this runs the same steps.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <vector>

#include "lib/math/math_common.h"
#include "lib/math/math_steps.h"

namespace lngrad::aicore::math_detail {

class DigammaScratch {
 public:
  DigammaScratch(const AscendC::LocalTensor<uint8_t>& tmp, bool half, bool reuse)
      : tmp_(tmp),
        bytes_(tmp.View().size_bytes),
        split_(bytes_ / 4 / (half ? 8 : (reuse ? 6 : 7)) / 32 * 32),
        half_(half),
        reuse_(reuse),
        v200_(detail::rep::RunningArch() == NpuArch::k2002) {}

  // Whether the rounds can be run here: a split (the kit asserts one), every operand in one UB.
  bool Runnable(const detail::TensorView& src, const detail::TensorView& dst) const {
    const detail::TensorView t = tmp_.View();
    return split_ != 0 && t.ub != nullptr && t.ptr != nullptr && src.ub == t.ub && dst.ub == t.ub;
  }

  // Runs the rounds of `dev` elements (the count rounded up to 8) over a copy of the UB taken now
  // (call it before the call's results are written).
  void Run(const detail::TensorView& src, const detail::TensorView& dst, uint64_t dev);

  // Writes the scratch bytes the rounds wrote back into the UB and records them.
  void Store(const char* api, SrcLoc loc) const;

 private:
  using Addr = int64_t;  // a byte offset in the UB
  static constexpr float kPi = 3.141592653589793238f;
  static constexpr float kMinNeg = -8388608.0f;
  enum class Cmp { kLt, kGe, kLe, kGt, kEq };

  float Ld(Addr a) const {
    if (a < 0 || a + 4 > static_cast<Addr>(ub_.size())) {
      return std::numeric_limits<float>::quiet_NaN();
    }
    float v;
    std::memcpy(&v, ub_.data() + a, 4);
    return v;
  }
  void StBytes(Addr a, const void* p, uint64_t n) {
    if (a < 0 || a + static_cast<Addr>(n) > static_cast<Addr>(ub_.size())) return;
    std::memcpy(ub_.data() + a, p, n);
    for (uint64_t i = 0; i < n; ++i) {
      const Addr r = a + static_cast<Addr>(i) - tmp_off_;
      if (r >= 0 && r < static_cast<Addr>(bytes_)) wrote_[r] = 1;
    }
  }
  void St(Addr a, float v) { StBytes(a, &v, 4); }
  template <typename F>
  void Lanes(Addr d, F f) {
    for (uint64_t j = 0; j < len_; ++j)
      St(d + 4 * static_cast<Addr>(j), f(4 * static_cast<Addr>(j)));
  }
  void Dup(Addr d, float v) {
    Lanes(d, [v](Addr) { return v; });
  }
  void Adds(Addr d, Addr a, float s) {
    Lanes(d, [&](Addr o) { return Ld(a + o) + s; });
  }
  void Muls(Addr d, Addr a, float s) {
    Lanes(d, [&](Addr o) { return Ld(a + o) * s; });
  }
  void Add(Addr d, Addr a, Addr b) {
    Lanes(d, [&](Addr o) { return Ld(a + o) + Ld(b + o); });
  }
  void Sub(Addr d, Addr a, Addr b) {
    Lanes(d, [&](Addr o) { return Ld(a + o) - Ld(b + o); });
  }
  void Mul(Addr d, Addr a, Addr b) {
    Lanes(d, [&](Addr o) { return Ld(a + o) * Ld(b + o); });
  }
  void Div(Addr d, Addr a, Addr b) {
    Lanes(d, [&](Addr o) { return Ld(a + o) / Ld(b + o); });
  }
  // DigammaCast, TanCast, SinCast, CosCast: one Cast in the mode on 2201; on 2002 to int32 in d
  // (saturating, NaN -> 0), then back to float in place.
  void Cast(Addr d, Addr a, AscendC::RoundMode mode) {
    Lanes(d, [&](Addr o) {
      const float x = Ld(a + o);
      return v200_ ? static_cast<float>(FloatToInt32(x, mode)) : RoundToIntegral(x, mode);
    });
  }
  void Compare(Addr m, Addr a, Addr b, Cmp op);
  void CmpScalar(Addr m, Addr a, float s, Cmp op) {
    Dup(sc_, s);
    Compare(m, a, sc_, op);
  }
  void Words(Addr d, Addr a, Addr b, bool is_not);
  void Select(Addr d, Addr s, Addr m, Addr via);

  void NegIntMask(Addr m, Addr s);
  void NanMask(Addr m, Addr s);
  void Positive(Addr d, Addr s);
  void PicotPix(Addr d, Addr s);
  void FloatRound(Addr d, Addr s);
  void PositiveHalf(Addr d, Addr s);
  void Tan(Addr d, Addr s, Addr t);
  void SinCosTail(Addr d, Addr x, Addr round, Addr kpi);
  void Reduce(Addr x, Addr round, Addr kpi, std::initializer_list<float> pis);
  void NegativeRange(Addr d, Addr s);
  void Widen(Addr d, Addr src);
  void HalfRound(Addr d, Addr s);

  const AscendC::LocalTensor<uint8_t>& tmp_;
  uint64_t bytes_, split_;
  bool half_, reuse_, v200_;
  std::vector<uint8_t> ub_, wrote_;
  Addr tmp_off_ = 0;
  uint64_t len_ = 0;
  // the tensors of DigammaParams
  Addr res_ = 0, c1_ = 0, c2_ = 0, c3_ = 0, c4_ = 0, c5_ = 0, sc_ = 0, mk_ = 0, mk1_ = 0, mk2_ = 0;
};

inline void DigammaScratch::Compare(Addr m, Addr a, Addr b, Cmp op) {
  const uint64_t repeats = (len_ * 4 + 255) / 256;
  for (uint64_t r = 0; r < repeats; ++r) {
    uint8_t bits[8] = {};
    for (uint64_t k = 0; k < 64; ++k) {
      const Addr o = 4 * static_cast<Addr>(r * 64 + k);
      const float x = Ld(a + o), y = Ld(b + o);
      bool on = false;
      switch (op) {
        case Cmp::kLt:
          on = x < y;
          break;
        case Cmp::kGe:
          on = x >= y;
          break;
        case Cmp::kLe:
          on = x <= y;
          break;
        case Cmp::kGt:
          on = x > y;
          break;
        case Cmp::kEq:
          on = x == y;
          break;
      }
      if (on) bits[k / 8] = static_cast<uint8_t>(bits[k / 8] | (1u << (k % 8)));
    }
    StBytes(m + 8 * static_cast<Addr>(r), bits, 8);
  }
}

// And<uint16_t> (d = a & b) or Not<uint16_t> (d = ~a) over ConstCeil(L, 16) words.
inline void DigammaScratch::Words(Addr d, Addr a, Addr b, bool is_not) {
  for (uint64_t i = 0; i < (len_ + 15) / 16; ++i) {
    uint16_t x, y;
    std::memcpy(&x, ub_.data() + a + 2 * i, 2);
    std::memcpy(&y, ub_.data() + b + 2 * i, 2);
    const uint16_t r = static_cast<uint16_t>(is_not ? ~x : (x & y));
    StBytes(d + 2 * static_cast<Addr>(i), &r, 2);
  }
}

// DigammaSelect: tmpScalar = 0 (SetCmpMask's scalar), via = bit ? s : 0, d = via + d.
inline void DigammaScratch::Select(Addr d, Addr s, Addr m, Addr via) {
  Dup(sc_, 0.0f);
  const float zero = Ld(sc_);
  Lanes(via, [&](Addr o) {
    const uint64_t j = static_cast<uint64_t>(o / 4);
    return ((ub_[m + j / 8] >> (j % 8)) & 1u) != 0 ? Ld(s + o) : zero;
  });
  Add(d, via, d);
}

// DigammaGenNegIntMask(m): x < 0 and x > -2^23 and x == DigammaCast(x, CAST_ROUND).
inline void DigammaScratch::NegIntMask(Addr m, Addr s) {
  CmpScalar(mk1_, s, 0.0f, Cmp::kLt);
  CmpScalar(mk2_, s, kMinNeg, Cmp::kGt);
  Words(mk1_, mk1_, mk2_, false);
  Cast(c1_, s, AscendC::RoundMode::CAST_ROUND);
  Compare(mk2_, s, c1_, Cmp::kEq);
  Words(m, mk1_, mk2_, false);
}

// DigammaGenNanMask(m): !(x < 0) and !(x >= 0).
inline void DigammaScratch::NanMask(Addr m, Addr s) {
  CmpScalar(mk1_, s, 0.0f, Cmp::kLt);
  CmpScalar(mk2_, s, 0.0f, Cmp::kGe);
  Words(mk1_, mk1_, mk1_, true);
  Words(mk2_, mk2_, mk2_, true);
  Words(m, mk1_, mk2_, false);
}

// ---- the float sequence

// DigammaPositive (DigammaPositiveTmp0, DigammaPositiveTmp1, their difference).
inline void DigammaScratch::Positive(Addr d, Addr s) {
  Adds(c1_, s, 10.0f);
  Lanes(d, [&](Addr o) { return LnF(Ld(c1_ + o)); });
  Dup(sc_, 1.0f);
  Div(c1_, sc_, c1_);
  Muls(c2_, c1_, 0.5f);
  Sub(d, d, c2_);
  Mul(c1_, c1_, c1_);
  Dup(c2_, 8.33333333333333333333e-2f);
  for (const float k :
       {2.10927960927960927961e-2f, 7.57575757575757575758e-3f, 4.16666666666666666667e-3f,
        3.96825396825396825397e-3f, 8.33333333333333333333e-3f, 8.33333333333333333333e-2f}) {
    Dup(sc_, k);
    Mul(c2_, c1_, c2_);
    Sub(c2_, sc_, c2_);
  }
  Mul(c2_, c1_, c2_);
  Sub(d, d, c2_);
  Dup(sc_, 1.0f);
  Div(c1_, sc_, s);
  for (int i = 1; i <= 9; ++i) {
    Adds(c2_, s, static_cast<float>(i));
    Div(c2_, sc_, c2_);
    Add(c1_, c1_, c2_);
  }
  Sub(d, d, c1_);
}

// DigammaNegPicotPix: round(2x)'s parity through int32 in tmpCal2 (And with tmpCal3's int32 1s
// over 2L 16-bit words), the tan polynomial, pi * (f30 or -1 / f30).
inline void DigammaScratch::PicotPix(Addr d, Addr s) {
  Add(c1_, s, s);
  Cast(c2_, c1_, AscendC::RoundMode::CAST_ROUND);
  Sub(c1_, c1_, c2_);
  Muls(c1_, c1_, 1.5707963267948966f);
  for (uint64_t j = 0; j < len_; ++j) {
    const int32_t r = FloatToInt32(Ld(c2_ + 4 * j), AscendC::RoundMode::CAST_ROUND);
    const int32_t one = 1, low = r & one;
    StBytes(c3_ + 4 * j, &one, 4);
    StBytes(c2_ + 4 * j, &low, 4);
  }
  Lanes(c2_, [&](Addr o) {
    int32_t v;
    std::memcpy(&v, ub_.data() + c2_ + o, 4);
    return static_cast<float>(v);
  });
  CmpScalar(mk1_, c2_, 0.5f, Cmp::kLt);
  CmpScalar(mk2_, c2_, 0.5f, Cmp::kGe);
  Mul(c2_, c1_, c1_);
  Dup(d, 0.0093383789065f);
  for (const float k :
       {0.00326538085938f, 0.0242919921875f, 0.053466796875f, 0.133377909660f, 0.333332300186f}) {
    Mul(d, d, c2_);
    Adds(d, d, k);
  }
  Mul(d, d, c2_);
  Mul(d, d, c1_);
  Add(c1_, d, c1_);
  Dup(d, 0.0f);
  Select(d, c1_, mk2_, c3_);
  Dup(sc_, -1.0f);
  Div(c1_, sc_, c1_);
  Select(d, c1_, mk1_, c3_);
  Muls(d, d, kPi);
}

// DigammaComputeImpl(float) on one round: d the round's dst, s its source.
inline void DigammaScratch::FloatRound(Addr d, Addr s) {
  Dup(d, 0.0f);
  Dup(res_, std::numeric_limits<float>::quiet_NaN());
  CmpScalar(mk_, s, kMinNeg, Cmp::kLe);
  Select(d, res_, mk_, c3_);
  NegIntMask(mk1_, s);
  Select(d, res_, mk1_, c3_);
  NanMask(mk_, s);
  Select(d, s, mk_, c3_);
  CmpScalar(mk_, s, 0.0f, Cmp::kGe);
  Positive(res_, s);
  Select(d, res_, mk_, c3_);
  CmpScalar(mk_, s, 0.0f, Cmp::kLt);
  Muls(c3_, s, -1.0f);  // DigammaNegative: P(1 - x) + the reflection term
  Adds(c3_, c3_, 1.0f);
  Positive(res_, c3_);
  PicotPix(c4_, s);
  Add(res_, res_, c4_);
  Select(d, res_, mk_, c3_);
}

// ---- the half sequence

// DigammaPositiveHalf.
inline void DigammaScratch::PositiveHalf(Addr d, Addr s) {
  Adds(c1_, s, 3.0f);
  Lanes(d, [&](Addr o) { return LnF(Ld(c1_ + o)); });
  Dup(sc_, 1.0f);
  Div(c1_, sc_, c1_);
  Muls(sc_, c1_, 0.5f);
  Sub(d, d, sc_);
  Mul(c1_, c1_, c1_);
  Muls(sc_, c1_, 0.0833333333333333f);
  Sub(d, d, sc_);
  Mul(c2_, c1_, c1_);
  Muls(sc_, c2_, 0.0083333333333333f);
  Sub(d, d, sc_);
  Mul(c2_, c2_, c1_);
  Muls(sc_, c2_, 0.003968253968254f);
  Sub(d, d, sc_);
  Dup(sc_, 1.0f);
  Div(c1_, sc_, s);
  for (const float c : {1.0f, 2.0f}) {
    Adds(c2_, s, c);
    Div(c2_, sc_, c2_);
    Add(c1_, c1_, c2_);
  }
  Sub(d, d, c1_);
}

// TanCompute<float>(d, s, t, L): round at t, down1 / down2 at t + L / t + 2L, x at t + 3L.
inline void DigammaScratch::Tan(Addr d, Addr s, Addr t) {
  const Addr l4 = 4 * static_cast<Addr>(len_);
  const Addr k = t, up = t + l4, down = t + 2 * l4, x = t + 3 * l4;
  Adds(x, s, 0.0f);
  Muls(k, x, 0.3183098733425140380859375f);
  Cast(k, k, AscendC::RoundMode::CAST_RINT);
  Muls(d, k, 3.140625f);
  Sub(x, x, d);
  Muls(d, k, 0.0009670257568359375f);
  Sub(x, x, d);
  Adds(up, x, 1.57079637050628662109375f);
  Adds(down, x, -1.57079637050628662109375f);
  bool first = true;
  for (const float p : {6.2771141529083251953125e-7f, 1.21644916362129151821136474609375e-10f,
                        -1.0291767438275201129727065563201904296875e-13f}) {
    Muls(d, k, p);
    Sub(x, x, d);
    Sub(up, up, d);
    Sub(down, down, d);
    if (first) {
      Adds(up, up, -0.00000004371139000189375f);
      Adds(down, down, 0.00000004371139000189375f);
      first = false;
    }
  }
  Mul(k, x, x);
  Muls(d, k, 0.0698520831551998762793f);
  Adds(d, d, -6.8711573651634203789f);
  Mul(d, d, k);
  Adds(d, d, 61.20362572811089435388f);
  Mul(d, d, x);
  Adds(k, k, -24.8048928861126769186219f);
  Mul(k, k, up);
  Mul(k, k, down);
  Div(d, d, k);
}

// x -= round * pi_i for each part of pi (SinKpi, and the cos KPI's first two).
inline void DigammaScratch::Reduce(Addr x, Addr round, Addr kpi, std::initializer_list<float> pis) {
  for (const float p : pis) {
    Muls(kpi, round, p);
    Sub(x, x, kpi);
  }
}

// SinSignCompute / SignCompute and the polynomial of SinPolynomialApproximation /
// CosPolynomialApproximation (before Cos's clamp).
inline void DigammaScratch::SinCosTail(Addr d, Addr x, Addr round, Addr kpi) {
  Mul(kpi, x, x);
  Muls(d, round, 0.5f);
  Cast(d, d, AscendC::RoundMode::CAST_FLOOR);
  Muls(d, d, 4.0f);
  Muls(round, round, -2.0f);
  Add(d, d, round);
  Adds(d, d, 1.0f);
  Muls(round, kpi, 2.604926501e-6f);
  Adds(round, round, -0.0001980894471f);
  for (const float c : {0.008333049340f, -0.1666665792f, 1.0f}) {
    Mul(round, round, kpi);
    Adds(round, round, c);
  }
  Mul(round, round, x);
  Mul(d, round, d);
}

// DigammaNegativeRange: CosCompute and SinCompute (isReuseSource: reduced in their source) with
// round at result, kpi at result + L.
inline void DigammaScratch::NegativeRange(Addr d, Addr s) {
  const Addr round = res_, kpi = res_ + 4 * static_cast<Addr>(len_);
  Cast(sc_, s, AscendC::RoundMode::CAST_FLOOR);
  Sub(sc_, s, sc_);
  Muls(sc_, sc_, kPi);
  Muls(round, sc_, 0.3183098733425140380859375f);  // CosCompute(tmpCal3, tmpScalar)
  Adds(round, round, 0.5f);
  Cast(round, round, AscendC::RoundMode::CAST_RINT);
  Reduce(sc_, round, kpi, {3.140625f, 0.0009670257568359375f});
  Adds(sc_, sc_, 1.57079637050628662109375f);
  Reduce(sc_, round, kpi,
         {6.2771141529083251953125e-7f, 1.21644916362129151821136474609375e-10f,
          -1.0290623200529979163359041220560e-13f});
  Adds(sc_, sc_, -0.00000004371139000189375f);
  SinCosTail(c3_, sc_, round, kpi);
  Lanes(c3_, [&](Addr o) { return MinsF(Ld(c3_ + o), 1.0f); });
  Lanes(c3_, [&](Addr o) { return MaxsF(Ld(c3_ + o), -1.0f); });
  Muls(s, s, -kPi);
  Muls(round, s, 0.3183098733425140380859375f);  // SinCompute(tmpScalar, tmpCal5)
  Cast(round, round, AscendC::RoundMode::CAST_ROUND);
  Reduce(s, round, kpi,
         {3.140625f, 0.0009670257568359375f, 6.2771141529083251953125e-7f,
          1.21644916362129151821136474609375e-10f});
  SinCosTail(sc_, s, round, kpi);
  Muls(c3_, c3_, kPi);
  Div(c3_, c3_, sc_);
  Sub(d, c2_, c3_);
}

// Cast<float, half>(d, src) over the round.
inline void DigammaScratch::Widen(Addr d, Addr src) {
  Lanes(d, [&](Addr o) {
    half h;
    std::memcpy(&h, ub_.data() + src + o / 2, 2);
    return math_detail::Widen(h);
  });
}

// DigammaComputeImpl(half) on one round: d the round's dst (half), s its source (half).
inline void DigammaScratch::HalfRound(Addr d, Addr s) {
  Widen(c5_, s);
  Cast(c4_, c5_, AscendC::RoundMode::CAST_FLOOR);
  Sub(c4_, c5_, c4_);
  Muls(c4_, c4_, kPi);
  Tan(sc_, c4_, res_);
  Dup(c1_, kPi);
  Div(c3_, c1_, sc_);
  Dup(c4_, 0.0f);
  Dup(res_, std::numeric_limits<float>::quiet_NaN());
  CmpScalar(mk_, c5_, kMinNeg, Cmp::kLe);
  Select(c4_, res_, mk_, c1_);
  NegIntMask(mk1_, c5_);
  Select(c4_, res_, mk1_, c1_);
  NanMask(mk_, c5_);
  Select(c4_, c5_, mk_, c1_);
  CmpScalar(mk_, c5_, 0.0f, Cmp::kGe);
  PositiveHalf(res_, c5_);
  Select(c4_, res_, mk_, c1_);
  CmpScalar(mk_, c5_, -0.0001f, Cmp::kLt);
  Dup(sc_, 1.0f);  // DigammaNegativeHalf: P_h(1 - x), kept + 0 in tmpCal2, minus pi / tan
  Sub(c5_, sc_, c5_);
  PositiveHalf(res_, c5_);
  Adds(c2_, res_, 0.0f);
  Sub(res_, res_, c3_);
  Select(c4_, res_, mk_, c1_);
  Widen(c5_, s);
  CmpScalar(mk1_, c5_, 0.0f, Cmp::kLt);  // DigammaGenRangeMask(-0.0001, 0)
  CmpScalar(mk2_, c5_, -0.0001f, Cmp::kGe);
  Words(mk_, mk1_, mk2_, false);
  NegativeRange(res_, c5_);
  Select(c4_, res_, mk_, c1_);
  for (uint64_t j = 0; j < len_; ++j) {
    const half h = Narrow<half>(Ld(c4_ + 4 * static_cast<Addr>(j)));
    StBytes(d + 2 * static_cast<Addr>(j), &h, 2);
  }
}

inline void DigammaScratch::Run(const detail::TensorView& src, const detail::TensorView& dst,
                                uint64_t dev) {
  const detail::TensorView t = tmp_.View();
  ub_.assign(reinterpret_cast<const uint8_t*>(t.ub),
             reinterpret_cast<const uint8_t*>(t.ub) + t.ub_size);
  wrote_.assign(bytes_, 0);
  tmp_off_ = t.ptr - t.ub;
  const Addr s4 = 4 * static_cast<Addr>(split_), src0 = src.ptr - src.ub, dst0 = dst.ptr - dst.ub;
  res_ = tmp_off_;
  c1_ = res_ + s4;
  c2_ = c1_ + s4;
  c3_ = c2_ + s4;
  c4_ = half_ || !reuse_ ? c3_ + s4 : src0;
  c5_ = half_ ? c4_ + s4 : 0;
  sc_ = tmp_off_ + (half_ ? 6 : (reuse_ ? 4 : 5)) * s4;
  mk_ = sc_ + s4;
  mk1_ = mk_ + static_cast<Addr>(split_);
  mk2_ = mk1_ + static_cast<Addr>(split_);
  const Addr elem = half_ ? 2 : 4;
  for (uint64_t off = 0; off < dev; off += split_) {
    len_ = std::min(split_, dev - off);  // the tail: dev is the count rounded up to 8
    const Addr o = elem * static_cast<Addr>(off);
    if (half_) {
      HalfRound(dst0 + o, src0 + o);
    } else {
      FloatRound(dst0 + o, src0 + o);
    }
  }
}

inline void DigammaScratch::Store(const char* api, SrcLoc loc) const {
  uint8_t* p = tmp_.HostPtr();
  for (uint64_t i = 0; i < bytes_; ++i) {
    if (wrote_[i] != 0) p[i] = ub_[tmp_off_ + i];
  }
  san::Instr rec(Pipe::kV, api, loc);
  if (!rec) return;
  for (uint64_t i = 0; i < bytes_;) {
    if (wrote_[i] == 0) {
      ++i;
      continue;
    }
    uint64_t e = i;
    while (e < bytes_ && wrote_[e] != 0) ++e;
    rec.Write(p + i, e - i);
    i = e;
  }
}

}  // namespace lngrad::aicore::math_detail
