// Sin, Cos and Tan on arch 2201/2002 with their scratch (replay_math_scratch_trig.h).
// Provenance: written by helper mth2 (session 18) from the toolkit's sources at commit 82b89a15f,
// read for this file: sin_common_impl.h (SinImpl, SinCompute for float and half, SinRound,
// SinKpi, SinSignCompute, SinPolynomialApproximation), sin_v220_impl.h and sin_v200_impl.h
// (SinCast), cos_common_impl.h (CosImpl, CosCompute for float and half, CosRound, KPI,
// SignCompute, CosPolynomialApproximation), cos_v220_impl.h and cos_v200_impl.h (CosCast),
// tan_common_impl.h (TanImpl, TanCompute for float and half, TanRound, KPI_0 to KPI_4,
// TanPolynomialApproximation), tan_v220_impl.h and tan_v200_impl.h (TanCast). A separate reading
// by the same helper who then changed lngrad's scratch of these APIs (include/ascendc/adv/lib/
// math/sin.h, tan.h): this replay was written first, before lngrad's change; lngrad's
// per-element steps of these APIs had been read before. Each instruction is one binary32
// operation per element (Mins/Maxs give the scalar for a NaN element, replay_math_ops.h's
// choice); the casts as docs/ascendc_kernels.md §2 and this library's Exp replay take them
// (float -> int32 saturating, NaN -> 0).
#include "replay_math_scratch_trig.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "replay_math_ops.h"

namespace lngrad_replay {
namespace {

using math_ops::Maxs;
using math_ops::Mins;

// A float tensor over raw bytes, `base` floats from `p`.
class Tensor {
 public:
  Tensor(uint8_t* p, uint32_t base) : p_(p + 4 * static_cast<size_t>(base)) {}
  explicit Tensor(float* p) : p_(reinterpret_cast<uint8_t*>(p)) {}
  float Get(uint32_t j) const {
    float v;
    std::memcpy(&v, p_ + 4 * static_cast<size_t>(j), 4);
    return v;
  }
  void Set(uint32_t j, float v) const { std::memcpy(p_ + 4 * static_cast<size_t>(j), &v, 4); }

 private:
  uint8_t* p_;
};

// One instruction over the round's `len` elements: d[j] = f(j).
template <class F>
void Each(const Tensor& d, uint32_t len, F f) {
  for (uint32_t j = 0; j < len; ++j) d.Set(j, f(j));
}

enum class Mode { kRound, kRint, kFloor };

float ToIntegral(float x, Mode m) {
  switch (m) {
    case Mode::kRound:
      return std::round(x);  // CAST_ROUND: ties away from zero
    case Mode::kRint:
      return std::nearbyint(x);  // CAST_RINT: ties to even
    default:
      return std::floor(x);
  }
}

// <api>_v220_impl.h: Cast<float, float>(mode); <api>_v200_impl.h: Cast<int32_t, float>(mode)
// (saturating, NaN -> 0) into the same bytes, then Cast<float, int32_t>(CAST_NONE).
float ApiCast(float x, Mode m, bool arch2002) {
  if (!arch2002) return ToIntegral(x, m);
  if (std::isnan(x)) return 0.0f;
  const double c = std::clamp(static_cast<double>(ToIntegral(x, m)), -2147483648.0, 2147483647.0);
  return static_cast<float>(static_cast<int32_t>(c));
}

// The round loop of SinImpl / CosImpl / TanImpl: body(offset, len) for each full round, then
// the tail.
template <class Body>
void Rounds(uint32_t n, uint32_t chunk, Body body) {
  const uint32_t rounds = n / chunk, tail = n % chunk;
  uint32_t offset = 0;
  for (uint32_t r = 0; r < rounds; ++r, offset += chunk) body(offset, chunk);
  if (tail != 0) body(offset, tail);
}

// Sin and Cos, one round: the four tensors of SinCompute / CosCompute (dst the sign and result,
// x the reduced argument, k the round tensor, kpi the products and then x0 * x0), src the input.
struct SinCosRound {
  bool cos, arch2002;
  Tensor dst, src, x, k, kpi;
  uint32_t len;

  void Sub(float part) const {
    Each(kpi, len, [&](uint32_t j) { return k.Get(j) * part; });
    Each(x, len, [&](uint32_t j) { return x.Get(j) - kpi.Get(j); });
  }
  void Adds(const Tensor& t, float s) const {
    Each(t, len, [&](uint32_t j) { return t.Get(j) + s; });
  }
  void Muls(const Tensor& d, const Tensor& a, float s) const {
    Each(d, len, [&](uint32_t j) { return a.Get(j) * s; });
  }
  void Mul(const Tensor& d, const Tensor& a, const Tensor& b) const {
    Each(d, len, [&](uint32_t j) { return a.Get(j) * b.Get(j); });
  }
  void Cast(const Tensor& t, Mode m) const {
    Each(t, len, [&](uint32_t j) { return ApiCast(t.Get(j), m, arch2002); });
  }

  // SinRound + SinKpi; CosRound + KPI.
  void Reduce() const {
    Muls(k, src, 0.3183098733425140380859375f);
    if (cos) Adds(k, 0.5f);
    Cast(k, cos ? Mode::kRint : Mode::kRound);
    Muls(kpi, k, 3.140625f);
    Each(x, len, [&](uint32_t j) { return src.Get(j) - kpi.Get(j); });
    Sub(0.0009670257568359375f);
    if (cos) Adds(x, 1.57079637050628662109375f);
    Sub(6.2771141529083251953125e-7f);
    Sub(1.21644916362129151821136474609375e-10f);
    if (cos) {
      Sub(-1.0290623200529979163359041220560e-13f);
      Adds(x, -0.00000004371139000189375f);
    }
  }

  // SinSignCompute / SignCompute, then SinPolynomialApproximation / CosPolynomialApproximation.
  void Polynomial() const {
    Mul(kpi, x, x);
    Muls(dst, k, 0.5f);
    Cast(dst, Mode::kFloor);
    Muls(dst, dst, 4.0f);
    Muls(k, k, -2.0f);
    Each(dst, len, [&](uint32_t j) { return dst.Get(j) + k.Get(j); });
    Adds(dst, 1.0f);
    Muls(k, kpi, 2.604926501e-6f);
    Adds(k, -0.0001980894471f);
    Mul(k, k, kpi);
    Adds(k, 0.008333049340f);
    Mul(k, k, kpi);
    Adds(k, -0.1666665792f);
    Mul(k, k, kpi);
    Adds(k, 1.0f);
    Mul(k, k, x);
    Mul(dst, k, dst);
    if (!cos) return;
    Each(dst, len, [&](uint32_t j) { return Mins(dst.Get(j), 1.0f); });
    Each(dst, len, [&](uint32_t j) { return Maxs(dst.Get(j), -1.0f); });
  }
};

// Tan, one round: TanRound(dst, x, k, u, v) then TanPolynomialApproximation(dst, x, k, u, v).
struct TanRound {
  bool arch2002;
  Tensor dst, x, k, u, v;
  uint32_t len;

  void Sub(const Tensor& t) const {
    Each(t, len, [&](uint32_t j) { return t.Get(j) - dst.Get(j); });
  }
  void Adds(const Tensor& d, const Tensor& a, float s) const {
    Each(d, len, [&](uint32_t j) { return a.Get(j) + s; });
  }
  void Muls(const Tensor& d, const Tensor& a, float s) const {
    Each(d, len, [&](uint32_t j) { return a.Get(j) * s; });
  }
  void Mul(const Tensor& d, const Tensor& a, const Tensor& b) const {
    Each(d, len, [&](uint32_t j) { return a.Get(j) * b.Get(j); });
  }

  void Run() const {
    Muls(k, x, 0.3183098733425140380859375f);
    Each(k, len, [&](uint32_t j) { return ApiCast(k.Get(j), Mode::kRint, arch2002); });
    Muls(dst, k, 3.140625f);  // KPI_0
    Sub(x);
    Muls(dst, k, 0.0009670257568359375f);  // KPI_1
    Sub(x);
    Adds(u, x, 1.57079637050628662109375f);
    Adds(v, x, -1.57079637050628662109375f);
    Muls(dst, k, 6.2771141529083251953125e-7f);  // KPI_2
    Sub(x);
    Sub(u);
    Sub(v);
    Adds(u, u, -0.00000004371139000189375f);
    Adds(v, v, 0.00000004371139000189375f);
    for (const float part : {1.21644916362129151821136474609375e-10f,  // KPI_3, KPI_4
                             -1.0291767438275201129727065563201904296875e-13f}) {
      Muls(dst, k, part);
      Sub(x);
      Sub(u);
      Sub(v);
    }
    Mul(k, x, x);  // the polynomial
    Muls(dst, k, 0.0698520831551998762793f);
    Adds(dst, dst, -6.8711573651634203789f);
    Mul(dst, dst, k);
    Adds(dst, dst, 61.20362572811089435388f);
    Mul(dst, dst, x);
    Adds(k, k, -24.8048928861126769186219f);
    Mul(k, k, u);
    Mul(k, k, v);
    Each(dst, len, [&](uint32_t j) { return dst.Get(j) / k.Get(j); });
  }
};

}  // namespace

bool ReplaySinCosScratch(bool cos, bool reuse, bool arch2002, float* src, float* dst, uint32_t n,
                         uint8_t* scratch, uint32_t tmpBytes) {
  const uint32_t chunk = tmpBytes / 4 / (reuse ? 2 : 3) / 32 * 32;
  if (chunk == 0) return false;
  Rounds(n, chunk, [&](uint32_t off, uint32_t len) {
    const Tensor s(src + off);
    const Tensor x = reuse ? s : Tensor(scratch, 2 * chunk);
    const SinCosRound r{cos, arch2002,           Tensor(dst + off),      s,
                        x,   Tensor(scratch, 0), Tensor(scratch, chunk), len};
    r.Reduce();
    r.Polynomial();
  });
  return true;
}

bool ReplaySinCosScratch(bool cos, bool arch2002, const Half* src, Half* dst, uint32_t n,
                         uint8_t* scratch, uint32_t tmpBytes) {
  const uint32_t chunk = tmpBytes / 4 / 4 / 32 * 32;
  if (chunk == 0) return false;
  const Tensor conv(scratch, 0), k(scratch, chunk), kpi(scratch, 2 * chunk), x(scratch, 3 * chunk);
  Rounds(n, chunk, [&](uint32_t off, uint32_t len) {
    Each(conv, len, [&](uint32_t j) { return HalfToFloat(src[off + j]); });
    const SinCosRound r{cos, arch2002, conv, conv, x, k, kpi, len};
    r.Reduce();
    r.Polynomial();
    for (uint32_t j = 0; j < len; ++j) dst[off + j] = FloatToHalf(conv.Get(j));
  });
  return true;
}

bool ReplayTanScratch(bool arch2002, const float* src, float* dst, uint32_t n, uint8_t* scratch,
                      uint32_t tmpBytes) {
  const uint32_t split = tmpBytes / 4 / 4 / 32 * 32;
  if (split == 0) return false;
  Rounds(n, split, [&](uint32_t off, uint32_t len) {
    const uint32_t cal = (len + 31) / 32 * 32;  // the tail's tailCount; a full round's split
    const Tensor t1(scratch, 0), t2(scratch, cal), t3(scratch, 2 * cal), t4(scratch, 3 * cal);
    Each(t4, len, [&](uint32_t j) { return src[off + j] + 0.0f; });
    TanRound{arch2002, Tensor(dst + off), t4, t1, t2, t3, len}.Run();
  });
  return true;
}

bool ReplayTanScratch(bool arch2002, const Half* src, Half* dst, uint32_t n, uint8_t* scratch,
                      uint32_t tmpBytes) {
  const uint32_t split = tmpBytes / 2 / 10 / 32 * 32;
  if (split == 0) return false;
  Rounds(n, split, [&](uint32_t off, uint32_t len) {
    const uint32_t cal = (len + 31) / 32 * 32;  // the tail's tailCount; a full round's split
    const Tensor conv(scratch, 0), t1(scratch, cal), t2(scratch, 2 * cal), t3(scratch, 3 * cal),
        t4(scratch, 4 * cal);
    Each(t1, len, [&](uint32_t j) { return HalfToFloat(src[off + j]); });
    TanRound{arch2002, conv, t1, t2, t3, t4, len}.Run();
    for (uint32_t j = 0; j < len; ++j) dst[off + j] = FloatToHalf(conv.Get(j));
  });
  return true;
}

}  // namespace lngrad_replay
