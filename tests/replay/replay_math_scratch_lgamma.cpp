// Lgamma's 2201/2002 sequence over its scratch (replay_math_scratch_lgamma.h). Provenance:
// written by helper lg (session 18) from the toolkit's sources at commit 82b89a15f, read whole
// for this file before any comparison with lngrad: impl/adv_api/detail/math/lgamma/
// lgamma_common_impl.h (LgammaCompute for half and float, LgammaComputeImpl for both,
// Lgamma1Compute, LgammaComputePosHalf, LgammaComputeNegHalf, LGammaGenLTMaskHalf,
// LGammaGenGEMaskHalf, LGammaSelectHalf, LGammaSelectINF), lgamma_common_basic_impl.h
// (LGammaCalcMulAdd, LGamma007, LGamma0715, LGamma153, LGamma358, LGamma58, LGammaGenLTMask,
// LGammaGenGEMask, LGammaGenRangeMask, LGammaSelect, LGammaPositive, LGammaCalNegTmp1/2/3,
// LGammaCalMinNeg, LGammaNegative, LGammaInitFParams, LGammaInitHParams), lgamma_common_utils.h
// (the constants, the CALC_PROC factors), lgamma_v220_impl.h and lgamma_v200_impl.h
// (LGammaFloor: Cast float -> float CAST_FLOOR; 2002 Cast float -> int32 CAST_FLOOR then int32
// -> float), and sin/sin_common_impl.h with sin_v220_impl.h / sin_v200_impl.h (SinCompute<float>,
// SinRound, SinKpi, SinSignCompute, SinPolynomialApproximation, SinCast). A separate reading by
// the same helper who then compared lngrad (include/ascendc/adv/lib/math/lgamma.h) with it.
// Each instruction one IEEE binary32 operation per element (replay_math_ops.h: Ln in double
// rounded once); Select<float, uint8_t> with the scalar of SetCmpMask (the scalar tensor's
// first element) where the bit is 0; And / Not over ConstCeil(count, 16) uint16 words.
#include "replay_math_scratch_lgamma.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "replay_math_ops.h"

namespace lngrad_replay {
namespace {

using math_ops::LnF;

constexpr uint32_t kBlk = 32;  // ONE_BLK_SIZE
constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kPiF = 3.1415927410125732421875f;  // fPi and PI as float
constexpr float kMinF = 9.99999968266e-20f;

constexpr float kP007[] = {0.00358751555905f, -0.00547128543258f, -0.0446271263063f,
                           0.167317703366f,   -0.0421359799802f,  -0.655867278576f,
                           0.577215373516f};
constexpr float kP0715[] = {0.0458826646209f, 0.103739671409f, 0.122803635895f, 0.127524212003f,
                            0.143216684461f,  0.169343575835f, 0.207407936454f, 0.27058750391f,
                            0.400685429573f,  0.82246696949f,  0.577215671539f};
constexpr float kP153[] = {4.95984932058e-05f, -0.000220894842641f, 0.000541314249858f,
                           -0.00120451697148f, 0.00288425176404f,   -0.00738275796175f,
                           0.0205813199282f,   -0.067352488637f,    0.322467029095f,
                           0.422784328461f};
constexpr float kP378X1[] = {-748.890319824f, -12349.7421875f, -41061.375f, -48310.6640625f};
constexpr float kP378X2[] = {-259.250976562f, -10777.1796875f, -92685.046875f};
constexpr float kP58[] = {0.000777830660809f, -0.00277765537612f};
constexpr float kOdd[] = {0.00002427957952022552490234375f, -0.001388786011375486850738525390625f,
                          0.0416667275130748748779296875f, -0.4999999701976776123046875f};
constexpr float kEven[] = {-0.000195746586541645228862762451171875f,
                           0.0083327032625675201416015625f, -0.16666662693023681640625f};

// One round's vector machine: the counter `len` and the arch's rounding cast.
struct Vec {
  uint32_t len = 0;
  bool v200 = false;

  template <class F>
  void Each(float* d, F f) const {
    for (uint32_t j = 0; j < len; ++j) d[j] = f(j);
  }
  void Dup(float* d, float v) const {
    Each(d, [&](uint32_t) { return v; });
  }
  void Adds(float* d, const float* a, float s) const {
    Each(d, [&](uint32_t j) { return a[j] + s; });
  }
  void Muls(float* d, const float* a, float s) const {
    Each(d, [&](uint32_t j) { return a[j] * s; });
  }
  void Add(float* d, const float* a, const float* b) const {
    Each(d, [&](uint32_t j) { return a[j] + b[j]; });
  }
  void Sub(float* d, const float* a, const float* b) const {
    Each(d, [&](uint32_t j) { return a[j] - b[j]; });
  }
  void Mul(float* d, const float* a, const float* b) const {
    Each(d, [&](uint32_t j) { return a[j] * b[j]; });
  }
  void Div(float* d, const float* a, const float* b) const {
    Each(d, [&](uint32_t j) { return a[j] / b[j]; });
  }
  void Ln(float* d, const float* a) const {
    Each(d, [&](uint32_t j) { return LnF(a[j]); });
  }
  void Abs(float* d, const float* a) const {
    Each(d, [&](uint32_t j) { return std::fabs(a[j]); });
  }
  void Recip(float* d, const float* a) const {
    Each(d, [&](uint32_t j) { return 1.0f / a[j]; });
  }
  // Cast float -> float in `floor` (CAST_FLOOR) or CAST_ROUND (half away from zero); on 2002
  // through the int32 in the same words (saturating, NaN -> 0), then back to nearest even.
  void Round(float* d, const float* a, bool floor) const {
    Each(d, [&](uint32_t j) {
      const float r = floor ? std::floor(a[j]) : std::round(a[j]);
      if (!v200) return r;
      if (std::isnan(a[j])) return 0.0f;
      const double c = std::clamp(static_cast<double>(r), -2147483648.0, 2147483647.0);
      return static_cast<float>(static_cast<int32_t>(c));
    });
  }
  // LGammaCalcMulAdd: d = x * p0 + p1, then d = d * x + p_i, then d * x.
  void MulAdd(float* d, const float* x, const float* p, uint32_t n) const {
    Muls(d, x, p[0]);
    Adds(d, d, p[1]);
    for (uint32_t i = 2; i < n; ++i) {
      Mul(d, d, x);
      Adds(d, d, p[i]);
    }
    Mul(d, d, x);
  }
  // Select<float, uint8_t>(d, bits, s): the bit ? s : the CmpMask scalar.
  void Select(float* d, const uint8_t* bits, const float* s, float scalar) const {
    Each(d, [&](uint32_t j) { return ((bits[j / 8] >> (j % 8)) & 1u) != 0 ? s[j] : scalar; });
  }
};

enum class Cmp { kLt, kGe, kNe };

// Compare<float, uint8_t>: every lane of `rep` repeats of 64, one bit each, LSB first.
void Compare(uint8_t* bits, const float* a, const float* b, Cmp op, uint32_t rep) {
  for (uint32_t k = 0; k < rep * 8; ++k) bits[k] = 0;
  for (uint32_t k = 0; k < rep * 64; ++k) {
    const bool r = op == Cmp::kLt ? a[k] < b[k] : op == Cmp::kGe ? a[k] >= b[k] : a[k] != b[k];
    if (r) bits[k / 8] = static_cast<uint8_t>(bits[k / 8] | (1u << (k % 8)));
  }
}

uint16_t Word16(const uint8_t* p, uint32_t i) {
  uint16_t w;
  std::memcpy(&w, p + 2 * i, 2);
  return w;
}
void SetWord16(uint8_t* p, uint32_t i, uint16_t w) { std::memcpy(p + 2 * i, &w, 2); }

// And<uint16_t>(d, a, b) / Not<uint16_t>(d, a) over ConstCeil(len, 16) words.
void And16(uint8_t* d, const uint8_t* a, const uint8_t* b, uint32_t len) {
  for (uint32_t i = 0; i < (len + 15) / 16; ++i) {
    SetWord16(d, i, static_cast<uint16_t>(Word16(a, i) & Word16(b, i)));
  }
}
void Not16(uint8_t* d, const uint8_t* a, uint32_t len) {
  for (uint32_t i = 0; i < (len + 15) / 16; ++i) {
    SetWord16(d, i, static_cast<uint16_t>(~Word16(a, i)));
  }
}

// LGammaParams of the float path.
struct FloatRound {
  Vec v;
  float* t[7];  // tmp1..tmp6 at t[1]..t[6]
  float* scalar;
  uint8_t *mask, *m1, *m2, *m3;
  uint32_t rep;  // DivCeil(params.splitSize * 4, 256): the round's length

  float Scalar() const { return scalar[0]; }
  void Lt(uint8_t* bits, const float* a, float s) {
    v.Dup(t[1], s);
    Compare(bits, a, t[1], Cmp::kLt, rep);
  }
  void Ge(uint8_t* bits, const float* a, float s) {
    v.Dup(t[1], s);
    Compare(bits, a, t[1], Cmp::kGe, rep);
  }
  void Range(float lo, float hi) {
    Lt(mask, t[6], hi);
    Ge(m1, t[6], lo);
    And16(mask, m1, mask, v.len);
  }
  void Sel(float* d, const float* s, const uint8_t* bits) {
    v.Select(t[1], bits, s, Scalar());
    v.Add(d, t[1], d);
  }

  void Positive() {
    float* const a = t[6];
    v.Dup(t[5], 0.0f);
    Lt(mask, a, 0.7f);
    v.MulAdd(t[1], a, kP007, 7);  // LGamma007
    v.Mul(t[1], t[1], a);
    v.Add(t[1], t[1], a);
    v.Ln(t[1], t[1]);
    v.Muls(t[1], t[1], -1.0f);
    Sel(t[5], t[1], mask);
    Range(0.7f, 1.5f);
    v.Muls(t[1], a, -1.0f);  // LGamma0715
    v.Adds(t[1], t[1], 1.0f);
    v.MulAdd(t[2], t[1], kP0715, 11);
    Sel(t[5], t[2], mask);
    Range(1.5f, 3.0f);
    v.Adds(t[1], a, -2.0f);  // LGamma153
    v.MulAdd(t[2], t[1], kP153, 10);
    Sel(t[5], t[2], mask);
    Range(3.0f, 5.8f);
    v.Adds(t[1], a, -3.0f);  // LGamma358
    v.MulAdd(t[2], t[1], kP378X1, 4);
    v.Adds(t[2], t[2], -143033.40625f);
    v.MulAdd(t[3], t[1], kP378X2, 3);
    v.Adds(t[3], t[3], -206353.578125f);
    v.Div(t[3], t[2], t[3]);
    v.Add(t[3], t[3], t[1]);
    Sel(t[5], t[3], mask);
    Range(5.8f, kInf);
    v.Ln(t[1], a);  // LGamma58
    v.Muls(t[1], t[1], 0.5f);
    v.Adds(t[2], a, -0.5f);
    v.Mul(t[2], t[2], t[1]);
    v.Recip(t[3], a);
    v.Mul(t[4], t[3], t[3]);
    v.MulAdd(t[1], t[4], kP58, 2);
    v.Adds(t[1], t[1], 0.0833332762122f);
    v.Mul(t[1], t[1], t[3]);
    v.Adds(t[1], t[1], 0.91893851757f);
    v.Add(t[1], t[1], t[2]);
    v.Add(t[1], t[1], t[2]);
    v.Sub(t[1], t[1], a);
    Sel(t[5], t[1], mask);
    Ge(mask, a, kInf);
    Sel(t[5], a, mask);
  }

  void NegTmp() {
    float* const a = t[6];
    v.Add(t[2], a, a);  // LGammaCalNegTmp1
    v.Adds(t[2], t[2], 0.5f);
    v.Round(t[2], t[2], true);
    v.Muls(t[3], t[2], 0.5f);
    v.Round(t[3], t[3], true);
    v.Muls(t[3], t[3], 2.0f);
    v.Sub(t[3], t[2], t[3]);
    Ge(mask, t[3], 0.5f);
    Not16(m1, mask, v.len);
    v.Muls(t[2], t[2], -0.5f);
    v.Add(t[2], t[2], a);
    v.Muls(t[2], t[2], kPiF);
    v.Mul(t[3], t[2], t[2]);  // LGammaCalNegTmp2
    v.MulAdd(t[1], t[3], kEven, 3);
    v.Mul(t[1], t[1], t[2]);
    v.Add(t[1], t[1], t[2]);
    v.Dup(t[2], 0.0f);
    Sel(t[2], t[1], m1);
    v.MulAdd(t[1], t[3], kOdd, 4);
    v.Adds(t[1], t[1], 1.0f);
    Sel(t[2], t[1], mask);
    v.Abs(t[1], t[2]);  // LGammaCalNegTmp3
    v.Mul(t[3], t[1], a);
    v.Ln(t[1], t[3]);
    v.Muls(t[1], t[1], -1.0f);
    v.Adds(t[1], t[1], 1.1447298526763916015625f);
    v.Muls(t[2], t[5], -1.0f);
    v.Add(t[2], t[1], t[2]);
  }

  void Negative() {
    float* const a = t[6];
    v.Dup(t[4], 0.0f);
    Lt(mask, a, kMinF);
    v.Ln(t[1], a);  // LGammaCalMinNeg
    v.Muls(t[1], t[1], -1.0f);
    Sel(t[4], t[1], mask);
    NegTmp();
    v.Round(t[1], a, true);
    Compare(mask, t[1], a, Cmp::kNe, rep);
    v.Dup(t[1], kInf);
    Compare(m1, t[3], t[1], Cmp::kLt, rep);
    And16(mask, m1, mask, v.len);
    Ge(m1, a, kMinF);
    And16(mask, m1, mask, v.len);
    Sel(t[4], t[2], mask);
    Not16(m1, mask, v.len);
    Ge(mask, a, kMinF);
    And16(m1, m1, mask, v.len);
    v.Dup(t[2], kInf);
    Sel(t[4], t[2], m1);
  }

  // LgammaComputeImpl(float) on the round at dst, src.
  void Run(float* dst, const float* src) {
    Ge(m2, src, 0.0f);
    Lt(m3, src, 0.0f);
    v.Abs(t[6], src);
    v.Dup(scalar, 0.0f);
    Positive();
    v.Dup(dst, 0.0f);
    Sel(dst, t[5], m2);
    Negative();
    Sel(dst, t[4], m3);
    Not16(mask, m2, v.len);
    Not16(m1, m3, v.len);
    And16(mask, m1, mask, v.len);
    Sel(dst, t[6], mask);
  }
};

template <class Body>
void Rounds(uint32_t n, uint32_t split, Body body) {
  const uint32_t loops = n / split, tail = n % split;
  for (uint32_t i = 0; i < loops; ++i) body(i * split, split);
  if (tail > 0) body(loops * split, tail);
}

// The scratch as float words (a copy: the bytes past the last whole word kept as they are).
struct Words {
  std::vector<float> w;
  uint8_t* scratch;
  uint32_t bytes;
  Words(uint8_t* s, uint32_t b) : w(b / 4 + 1), scratch(s), bytes(b) {
    std::memcpy(w.data(), s, b);
  }
  ~Words() { std::memcpy(scratch, w.data(), bytes); }
  uint8_t* Bytes(uint32_t word) { return reinterpret_cast<uint8_t*>(w.data() + word); }
};

// Lgamma1Compute (d = lgamma1(x + 4)), then LgammaComputePosHalf: d -= ln x (x+1) (x+2) (x+3);
// tmp tensors at tt, tt + s, ...
void PosHalf(const Vec& v, float* d, const float* x, float* tt, uint32_t s) {
  float *t1 = tt, *t2 = tt + s, *t3 = tt + 2 * s, *t4 = tt + 3 * s;
  v.Adds(t1, x, 4.0f);
  v.Dup(d, 1.0f);
  v.Div(d, d, t1);
  v.Muls(t2, d, kPiF);
  v.Muls(t2, t2, 2.0f);
  v.Ln(t2, t2);
  v.Muls(t2, t2, 0.5f);
  v.Muls(t3, d, -0.1f);
  v.Muls(t4, t1, 12.0f);
  v.Add(t4, t4, t3);
  v.Dup(d, 1.0f);
  v.Div(t4, d, t4);
  v.Add(t4, t4, t1);
  v.Ln(t4, t4);
  v.Adds(t4, t4, -1.0f);
  v.Mul(t4, t4, t1);
  v.Add(d, t4, t2);
  v.Ln(t3, x);
  for (const float c : {1.0f, 2.0f, 3.0f}) {
    v.Adds(t2, x, c);
    v.Ln(t2, t2);
    v.Add(t3, t3, t2);
  }
  v.Sub(d, d, t3);
}

// SinCompute<float>(d, x, tt, s, false): round at tt, kpi at tt + s, inputX at tt + 2s.
void SinFloat(const Vec& v, float* d, const float* x, float* tt, uint32_t s) {
  float *rt = tt, *kpi = tt + s, *in = tt + 2 * s;
  v.Muls(rt, x, 0.3183098733425140380859375f);  // SinRound
  v.Round(rt, rt, false);
  v.Muls(kpi, rt, 3.140625f);  // SinKpi
  v.Sub(in, x, kpi);
  for (const float c : {0.0009670257568359375f, 6.2771141529083251953125e-7f,
                        1.21644916362129151821136474609375e-10f}) {
    v.Muls(kpi, rt, c);
    v.Sub(in, in, kpi);
  }
  v.Mul(kpi, in, in);  // SinSignCompute
  v.Muls(d, rt, 0.5f);
  v.Round(d, d, true);
  v.Muls(d, d, 4.0f);
  v.Muls(rt, rt, -2.0f);
  v.Add(d, d, rt);
  v.Adds(d, d, 1.0f);
  v.Muls(rt, kpi, 2.604926501e-6f);  // SinPolynomialApproximation
  v.Adds(rt, rt, -0.0001980894471f);
  for (const float c : {0.008333049340f, -0.1666665792f, 1.0f}) {
    v.Mul(rt, rt, kpi);
    v.Adds(rt, rt, c);
  }
  v.Mul(rt, rt, in);
  v.Mul(d, rt, d);
}

// LgammaComputeNegHalf(d, x, tt, s).
void NegHalf(const Vec& v, float* d, const float* x, float* tt, uint32_t s) {
  float *t1 = tt, *t2 = tt + s, *t3 = tt + 2 * s, *t7 = tt + 2 * s;
  v.Muls(t1, x, -1.0f);
  v.Adds(t1, t1, 1.0f);
  PosHalf(v, d, t1, t7, s);
  v.Muls(d, d, -1.0f);
  v.Round(t1, x, true);
  v.Sub(t1, x, t1);
  v.Muls(t1, t1, kPiF);
  SinFloat(v, t2, t1, t7, s);
  v.Abs(t2, t2);
  v.Dup(t3, kPiF);
  v.Div(t2, t3, t2);
  v.Ln(t2, t2);
  v.Add(d, d, t2);
}

}  // namespace

bool ReplayLgammaScratch(bool arch2002, bool reuse, float* src, float* dst, uint32_t n,
                         uint8_t* scratch, uint32_t tmpBytes) {
  const uint32_t split = tmpBytes / 4 / (reuse ? 7 : 8) / kBlk * kBlk;
  if (split == 0) return false;
  Words w(scratch, tmpBytes);
  FloatRound r;
  r.v.v200 = arch2002;
  for (int k = 1; k <= 6; ++k) r.t[k] = w.w.data() + (k - 1) * split;
  r.t[0] = nullptr;
  r.scalar = reuse ? src : w.w.data() + 6 * split;
  r.mask = w.Bytes(reuse ? 6 * split : 7 * split);
  r.m1 = r.mask + split;
  r.m2 = r.m1 + split;
  r.m3 = r.m2 + split;
  Rounds(n, split, [&](uint32_t off, uint32_t len) {
    r.v.len = len;
    r.rep = (len * 4 + 255) / 256;
    r.Run(dst + off, src + off);
  });
  return true;
}

bool ReplayLgammaScratch(bool arch2002, const Half* src, Half* dst, uint32_t n, uint8_t* scratch,
                         uint32_t tmpBytes) {
  const uint32_t s = tmpBytes / 4 / 13 / kBlk * kBlk;
  if (s == 0) return false;
  Words w(scratch, tmpBytes);
  float* const base = w.w.data();
  float *t1 = base, *t2 = base + s, *t3 = base + 2 * s, *t4 = base + 3 * s, *t5 = base + 4 * s;
  float* const scalar = base + 5 * s;
  uint8_t* const mask = w.Bytes(6 * s);
  uint8_t *m1 = mask + s, *m2 = m1 + s, *m3 = m2 + s;
  float* const t6 = base + 7 * s;
  const uint32_t rep = (s * 4 + 255) / 256;
  Vec v;
  v.v200 = arch2002;
  const auto sel = [&](float* d, const float* x, const uint8_t* bits, float* tmp) {
    v.Select(tmp, bits, x, scalar[0]);
    v.Add(d, tmp, d);
  };
  Rounds(n, s, [&](uint32_t off, uint32_t len) {
    v.len = len;
    v.Dup(t1, 0.0f);
    v.Each(t2, [&](uint32_t j) { return HalfToFloat(src[off + j]); });
    v.Dup(scalar, 0.0f);
    PosHalf(v, t3, t2, t6, s);
    v.Dup(t5, 0.0f);
    Compare(mask, t2, t5, Cmp::kGe, rep);
    sel(t1, t3, mask, t5);
    NegHalf(v, t4, t2, t6, s);
    v.Dup(t5, 0.0f);
    Compare(m1, t2, t5, Cmp::kLt, rep);
    sel(t1, t4, m1, t5);
    Not16(m2, mask, len);
    Not16(m3, m1, len);
    And16(m2, m2, m3, len);
    sel(t1, t2, m2, t4);
    v.Abs(t2, t2);
    v.Dup(t4, 65504.0f);
    Compare(m2, t2, t4, Cmp::kGe, rep);
    Not16(m3, m2, len);
    v.Dup(scalar, 655040.0f);  // LGammaSelectINF
    v.Select(t1, m3, t1, scalar[0]);
    for (uint32_t j = 0; j < len; ++j) dst[off + j] = FloatToHalf(t1[j]);
  });
  return true;
}

}  // namespace lngrad_replay
