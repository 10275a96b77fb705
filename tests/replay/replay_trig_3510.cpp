// Sin and Cos on arch 3510 (replay_math.h), re-read from the toolkit's
// impl/adv_api/detail/math/sin/sin_3510_impl.h, cos/cos_3510_impl.h and, for their
// RADIAN_REDUCTION configs, sincos/sincos_3510_impl.h: one lane of the 64-lane register code,
// each register instruction one IEEE binary32 operation (FusedMulDstAdd / MulAddDst one fused
// multiply-add), the integer steps on 32-bit lanes as the registers hold them (Mull's low and
// high words, AddCarryOut's carry). No code shared with lngrad (include/ascendc/adv/lib/math).
// What the RADIAN_REDUCTION code leaves in sharedTmpBuffer (ReplayTrigRadianScratch3510): a
// separate reading of sincos_3510_impl.h (InitializeFloatTempBuffer / InitializeHalfTempBuffer,
// TrigRedFComputePImpl's stores of r = a, i = 0 and of the P words, TrigRedFComputeRIImpl's of
// R and I, TrigRedFPreProcessImpl's) and of the chunk loop of sin_3510_impl.h and
// cos_3510_impl.h (GetSinTmpBufferSize; mirror commit 82b89a15f), by the helper who also changed
// lngrad to match, written before lngrad's scratch code and only then compared with it (the
// helper had read lngrad's sincos.h, which had none).
#include <cmath>
#include <cstdint>
#include <cstring>
#include <initializer_list>

#include "replay_math.h"

namespace lngrad_replay {
namespace {

uint32_t Bits(float v) {
  uint32_t b = 0;
  std::memcpy(&b, &v, 4);
  return b;
}

float F(double v) { return static_cast<float>(v); }

// Cast<float, int32_t> CAST_ROUND: to nearest, ties away from zero.
float I32ToFloatRound(int32_t v) {
  const bool neg = v < 0;
  uint64_t m =
      neg ? uint64_t{0} - static_cast<uint64_t>(static_cast<int64_t>(v)) : static_cast<uint64_t>(v);
  int width = 0;
  while ((m >> width) != 0) ++width;
  if (width > 24) {
    const int drop = width - 24;
    m = ((m + (uint64_t{1} << (drop - 1))) >> drop) << drop;
  }
  const float f = static_cast<float>(m);  // exact: 24 significant bits at most
  return neg ? -f : f;
}

// SinPolynomialApproximation (sin_3510_impl.h): k by Truncate<CAST_RINT>, the four pi parts, the
// sign from k, the Horner chain.
float SinPoly(float src) {
  float round = src * F(0.3183098733425140380859375);
  round = std::nearbyint(round);  // the host's mode: to nearest even
  float kpi = round * F(3.140625);
  float x = src - kpi;
  for (double part : {0.0009670257568359375, 6.2771141529083251953125e-7,
                      1.21644916362129151821136474609375e-10}) {
    kpi = round * F(part);
    x = x - kpi;
  }
  kpi = x * x;
  float dst = round * 0.5f;
  dst = std::floor(dst);
  dst = dst * 4.0f;
  round = round * -2.0f;
  dst = dst + round;
  dst = dst + 1.0f;
  round = kpi * F(2.604926501e-6);
  round = round + F(-0.0001980894471);
  round = round * kpi;
  round = round + F(0.008333049340);
  round = round * kpi;
  round = round + F(-0.1666665792);
  round = round * kpi;
  round = round + 1.0f;
  round = round * x;
  return round * dst;
}

// The register Mins / Maxs: a NaN lane stays NaN.
float Mins(float a, float s) { return std::isnan(a) ? a : (s < a ? s : a); }
float Maxs(float a, float s) { return std::isnan(a) ? a : (s > a ? s : a); }

// CosPolynomialApproximation (cos_3510_impl.h).
float CosPoly(float src) {
  float round = src * F(0.3183098733425140380859375);
  round = round + 0.5f;
  round = std::nearbyint(round);
  float kpi = round * F(3.140625);
  float x = src - kpi;
  kpi = round * F(0.0009670257568359375);
  x = x - kpi;
  x = x + F(1.57079637050628662109375);
  for (double part : {6.2771141529083251953125e-7, 1.21644916362129151821136474609375e-10,
                      -1.0290623200529979163359041220560e-13}) {
    kpi = round * F(part);
    x = x - kpi;
  }
  x = x + F(-0.00000004371139000189375);
  kpi = x * x;
  float dst = round * 0.5f;
  dst = std::floor(dst);
  dst = dst * 4.0f;
  round = round * -2.0f;
  dst = dst + round;
  dst = dst + 1.0f;
  round = kpi * F(2.604926501e-6);
  for (double c : {-0.0001980894471, 0.008333049340, -0.1666665792}) {
    round = round + F(c);
    round = round * kpi;
  }
  round = round + 1.0f;
  round = round * x;
  dst = round * dst;
  return Maxs(Mins(dst, 1.0f), -1.0f);
}

// The lane's reduced argument and quadrant (tmpBufferR, tmpBufferI).
struct Lane {
  float r;
  int32_t i;
};

// Mull: the 64-bit product as (low, high) words.
void Mull(uint32_t a, uint32_t b, uint32_t* lo, uint32_t* hi) {
  const uint64_t p = uint64_t{a} * b;
  *lo = static_cast<uint32_t>(p);
  *hi = static_cast<uint32_t>(p >> 32);
}

// TrigRedSlowpathFComputeP and TrigComputeP: the 64-bit fixed-point product in (high, low).
void SlowP(float a, uint32_t* p_high, uint32_t* p_low) {
  static const uint32_t kTable[8] = {0x28be60db, 0x9391054a, 0x7f09d5f4, 0x7d4d3770,
                                     0x36d8a566, 0x4f10e410, 0,          0};
  const uint32_t ta = Bits(a);
  const uint32_t ia_bits = (ta & 0x007fffffu) + 0x4f000000u;
  float ia_f = 0;
  std::memcpy(&ia_f, &ia_bits, 4);
  const auto ia = static_cast<uint32_t>(static_cast<int64_t>(ia_f));  // reg[0] of the int64 cast
  int32_t e = static_cast<int32_t>(ta) >> 23;
  e = (e & 0xff) - 126;
  const uint32_t i = static_cast<uint32_t>(e) >> 5;
  e = e & 31;
  uint32_t hi = i > 0 ? kTable[i - 1] : 0u;
  uint32_t mid = kTable[i], lo = kTable[i + 1];
  const uint32_t tmp = kTable[i + 2];
  if (e > 0) {
    const auto combine = [e](uint32_t x, uint32_t y) { return (x << e) | (y >> (32 - e)); };
    hi = combine(hi, mid);
    mid = combine(mid, lo);
    lo = combine(lo, tmp);
  }
  uint32_t low = 0, high = 0, t0 = 0, t1 = 0;
  Mull(ia, lo, &low, &high);
  Mull(ia, mid, &t0, &t1);
  const uint32_t sum = t0 + high;
  const uint32_t carry = sum < t0 ? 1u : 0u;
  low = sum;
  high = t1 + carry;
  high = high + ia * hi;
  *p_high = high;
  *p_low = low;
}

// TrigComputeHLQ and TrigRedSlowpathFComputeRI.
Lane SlowRI(float a, uint32_t p_high, uint32_t p_low) {
  int32_t q = static_cast<int32_t>(p_high >> 30);
  p_high = p_high & 0x3fffffffu;
  if ((p_high & 0x20000000u) > 0) {
    p_high = p_high - 0x40000000u;
    q = q + 1;
  }
  const auto ph = static_cast<int32_t>(p_high);
  const float dh1 = I32ToFloatRound(ph);
  float dl1 = I32ToFloatRound(static_cast<int32_t>(p_low >> 1));
  dl1 = dl1 * 2.0f;
  const auto back = static_cast<int32_t>(dh1);  // integral: the CAST_ROUND cast is exact
  float t = I32ToFloatRound(ph - back);
  t = t * 4294967296.0f;
  const float dl = t + dl1;
  const float dh = dh1 * 4294967296.0f;
  const float c = F(3.4061215800865545e-19);
  float r = dl * c;
  r = std::fma(dh, c, r);
  if (a < 0.0f) return {-r, -q};
  return {r, q};
}

// TrigRedFComputePImpl + TrigRedFComputeRIImpl (float): a = a * 0 + a, then the slow path on
// |a| > pi/4 (in float), r = a and i = 0 elsewhere.
Lane ReduceFloat(float a) {
  a = std::fma(a, 0.0f, a);
  if (!(std::fabs(a) > 3.1415926535f * 0.25f)) return {a, 0};
  uint32_t high = 0, low = 0;
  SlowP(a, &high, &low);
  return SlowRI(a, high, low);
}

// TrigRedFPreprocessForHalf: Cody-Waite on the widened half.
Lane ReduceHalf(float a) {
  a = std::fma(a, 0.0f, a);
  float j = std::fma(a, 0.636619747f, 12582912.0f);
  int32_t i = 0;
  std::memcpy(&i, &j, 4);
  j = j + -12582912.0f;
  float r = std::fma(j, -1.57079601e+00f, a);
  r = std::fma(j, -3.13916473e-07f, r);
  r = std::fma(j, -5.39030253e-15f, r);
  return {r, i};
}

// SCFCore: CosfPoly and SinfPoly on s = r * r, then the quadrant's negations and swap.
float Core(Lane in, bool want_cos) {
  const float s = in.r * in.r;
  float c = 2.44677067e-5f;
  c = std::fma(c, s, -1.38877297e-3f);
  c = std::fma(c, s, 4.16666567e-2f);
  c = std::fma(c, s, -5.00000000e-1f);
  c = std::fma(c, s, 1.00000000e+0f);
  float sn = 2.86567956e-6f;
  sn = std::fma(sn, s, -1.98559923e-4f);
  sn = std::fma(sn, s, 8.33338592e-3f);
  sn = std::fma(sn, s, -1.66666672e-1f);
  const float t = std::fma(in.r, s, 0.0f);
  sn = std::fma(sn, t, in.r);
  if ((in.i & 2) > 0) {
    sn = 0.0f - sn;
    c = 0.0f - c;
  }
  if ((in.i & 1) > 0) {
    const float neg = 0.0f - sn;
    sn = c;
    c = neg;
  }
  return want_cos ? c : sn;
}

void Put32(uint8_t* at, uint32_t v) { std::memcpy(at, &v, 4); }

// One SinRadianReductionImpl / CosRadianReductionImpl / SinCosRadianReductionImpl call on
// `len` elements: what it stores in the scratch (the SCFCore passes only read it).
template <class T>
void RadianChunk(const T* src, uint32_t len, uint8_t* scratch) {
  constexpr bool kHalf = sizeof(T) == 2;
  const uint32_t align = (len + 31) / 32 * 32;
  if constexpr (kHalf) {
    // InitializeHalfTempBuffer: R at the start, I after align floats; TrigRedFPreProcessImpl.
    for (uint32_t k = 0; k < len; ++k) {
      const Lane l = ReduceHalf(HalfToFloat(src[k]));
      Put32(scratch + 4 * k, Bits(l.r));
      Put32(scratch + 4 * (align + k), static_cast<uint32_t>(l.i));
    }
  } else {
    // InitializeFloatTempBuffer: the six words of 2/pi, R at byte 32, I after align floats.
    const uint32_t table[6] = {0x28be60db, 0x9391054a, 0x7f09d5f4,
                               0x7d4d3770, 0x36d8a566, 0x4f10e410};
    for (uint32_t w = 0; w < 6; ++w) Put32(scratch + 4 * w, table[w]);
    uint8_t* r_at = scratch + 32;
    uint8_t* i_at = r_at + 4 * align;
    for (uint32_t k = 0; k < len; ++k) {  // TrigRedFComputePImpl
      const float a = std::fma(src[k], 0.0f, src[k]);
      Put32(r_at + 4 * k, Bits(a));
      Put32(i_at + 4 * k, 0);
      if (std::fabs(a) > 3.1415926535f * 0.25f) {
        uint32_t high = 0, low = 0;
        SlowP(a, &high, &low);
        Put32(r_at + 4 * k, high);
        Put32(i_at + 4 * k, low);
      }
    }
    for (uint32_t k = 0; k < len; ++k) {  // TrigRedFComputeRIImpl, from the stored words
      const float a = std::fma(src[k], 0.0f, src[k]);
      if (!(std::fabs(a) > 3.1415926535f * 0.25f)) continue;
      uint32_t high = 0, low = 0;
      std::memcpy(&high, r_at + 4 * k, 4);
      std::memcpy(&low, i_at + 4 * k, 4);
      const Lane l = SlowRI(a, high, low);
      Put32(r_at + 4 * k, Bits(l.r));
      Put32(i_at + 4 * k, static_cast<uint32_t>(l.i));
    }
  }
}

template <class T>
void RadianScratch(const T* src, uint32_t n, uint32_t tmpBytes, bool chunked, uint8_t* scratch) {
  if (!chunked) {
    RadianChunk(src, n, scratch);
    return;
  }
  // GetSinTmpBufferSize / GetCosTmpBufferSize: bytes / (sizeof(float) * 2), aligned up to 32
  // bytes, in elements of T; the loop of SinImpl / CosImpl.
  const uint32_t part = tmpBytes / 8;
  const uint32_t size = (part + 31) / 32 * 32 / static_cast<uint32_t>(sizeof(T));
  if (size == 0) return;
  const uint32_t repeats = (n + size - 1) / size;
  for (uint32_t i = 0; i < repeats; ++i) {
    const uint32_t remain = n - size * i;
    RadianChunk(src + i * size, remain < size ? remain : size, scratch);
  }
}

}  // namespace

void ReplayTrigRadianScratch3510(const float* src, uint32_t n, uint32_t tmpBytes, bool chunked,
                                 uint8_t* scratch) {
  RadianScratch(src, n, tmpBytes, chunked, scratch);
}

void ReplayTrigRadianScratch3510(const Half* src, uint32_t n, uint32_t tmpBytes, bool chunked,
                                 uint8_t* scratch) {
  RadianScratch(src, n, tmpBytes, chunked, scratch);
}

float ReplaySin3510(float x, bool radian, bool half_path) {
  if (!radian) return SinPoly(x);
  return Core(half_path ? ReduceHalf(x) : ReduceFloat(x), false);
}

float ReplayCos3510(float x, bool radian, bool half_path) {
  if (!radian) return CosPoly(x);
  return Core(half_path ? ReduceHalf(x) : ReduceFloat(x), true);
}

}  // namespace lngrad_replay
