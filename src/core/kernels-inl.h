// SIMD kernels, written once and compiled for every Highway target by kernels_simd.cpp
// (foreach_target.h re-includes this file per target; the toggle guard below allows that).
//
// Scheme per row (see docs/math.md): pass 1 accumulates sum(x1*x2), sum(x1), sum(x2) in four
// vectors per sum (>= 16 lanes; the one-lane SCALAR target uses lane_sums.h) and adds the
// partial sums pairwise; per-row coefficients come from
// ComputeRowCoefficients (double); pass 2 writes pd_x = a*x1 + (b*x2 + c) with two FMAs where the
// target has FMA. Pass 2 re-reads the row while it is still in L1/L2, so memory sees one pass.
// Half data are widened to float on load and rounded once (RNE) on store.

#if defined(LNGRAD_CORE_KERNELS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef LNGRAD_CORE_KERNELS_INL_H_
#undef LNGRAD_CORE_KERNELS_INL_H_
#else
#define LNGRAD_CORE_KERNELS_INL_H_
#endif

#include <cstring>
#include <type_traits>

#include <hwy/highway.h>

#include "core/kernels.h"
#include "core/lane_sums.h"

HWY_BEFORE_NAMESPACE();
namespace lngrad::core {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using DF = hn::ScalableTag<float>;
using VF = hn::Vec<DF>;

// Largest number of float lanes of any target: sizes the tail buffers.
constexpr size_t kMaxLanes = HWY_MAX_BYTES / sizeof(float);

// Targets whose float16 conversions are the F16C instructions (exact, RNE). Highway 1.0.3's
// software fallback for the other targets truncates and maps inf/NaN to finite values, so those
// targets use the integer conversions below, which follow FloatToHalfBits/HalfBitsToFloat.
constexpr bool kHardwareF16 =
#if HWY_ARCH_X86 && !defined(HWY_DISABLE_F16C)
    HWY_TARGET <= HWY_AVX2;
#else
    false;
#endif

HWY_INLINE VF LoadF(DF d, const float* p) { return hn::LoadU(d, p); }

HWY_INLINE VF LoadF(DF d, const Half* p) {
  if constexpr (kHardwareF16) {
    const hn::Rebind<hwy::float16_t, DF> dh;
    return hn::PromoteTo(d, hn::LoadU(dh, reinterpret_cast<const hwy::float16_t*>(p)));
  } else {
    const hn::Rebind<uint16_t, DF> d16;
    const hn::RebindToUnsigned<DF> du;
    const hn::RebindToSigned<DF> di;
    const auto bits = hn::PromoteTo(du, hn::LoadU(d16, reinterpret_cast<const uint16_t*>(p)));
    const auto sign = hn::ShiftLeft<16>(hn::And(bits, hn::Set(du, 0x8000u)));
    const auto exp = hn::And(bits, hn::Set(du, 0x7C00u));
    const auto mant = hn::And(bits, hn::Set(du, 0x03FFu));
    // Normal: rebias the exponent by 127 - 15 = 112.
    const auto normal = hn::Add(hn::ShiftLeft<13>(hn::And(bits, hn::Set(du, 0x7FFFu))),
                                hn::Set(du, 112u << 23));
    const auto inf_nan = hn::Or(hn::Set(du, 0x7F800000u), hn::ShiftLeft<13>(mant));
    // Subnormal: mant * 2^-24 is exact in float (and does not rely on float denormals).
    const auto subnormal = hn::BitCast(
        du, hn::Mul(hn::ConvertTo(d, hn::BitCast(di, mant)), hn::Set(d, 1.0f / 16777216.0f)));
    auto r = hn::IfThenElse(hn::Eq(exp, hn::Set(du, 0x7C00u)), inf_nan, normal);
    r = hn::IfThenElse(hn::Eq(exp, hn::Zero(du)), subnormal, r);
    return hn::BitCast(d, hn::Or(r, sign));
  }
}

HWY_INLINE void StoreF(DF d, VF v, float* p) { hn::StoreU(v, d, p); }

HWY_INLINE void StoreF(DF d, VF v, Half* p) {
  if constexpr (kHardwareF16) {
    const hn::Rebind<hwy::float16_t, DF> dh;
    hn::StoreU(hn::DemoteTo(dh, v), dh, reinterpret_cast<hwy::float16_t*>(p));
  } else {
    const hn::Rebind<uint16_t, DF> d16;
    const hn::RebindToUnsigned<DF> du;
    const hn::RebindToSigned<DF> di;
    const auto bits = hn::BitCast(du, v);
    const auto abs = hn::And(bits, hn::Set(du, 0x7FFFFFFFu));
    const auto abs_i = hn::BitCast(di, abs);  // < 2^31, so signed compares are exact
    const auto sign = hn::And(hn::ShiftRight<16>(bits), hn::Set(du, 0x8000u));
    // Normal range: add half an ulp (minus one unless the kept lsb is odd: ties to even),
    // rebias, drop 13 bits. A carry into the exponent is the correct rounding.
    const auto lsb = hn::And(hn::ShiftRight<13>(abs), hn::Set(du, 1u));
    const auto normal = hn::ShiftRight<13>(
        hn::Sub(hn::Add(abs, hn::Add(hn::Set(du, 0xFFFu), lsb)), hn::Set(du, 0x38000000u)));
    // Below 2^-14: adding 0.5f leaves the value in [0.5, 1), where the float ulp is 2^-24,
    // the half subnormal ulp, so the float addition performs the RNE rounding; the result's
    // low bits are the half encoding (1024 = smallest normal, also correct).
    const auto subnormal = hn::Sub(hn::BitCast(du, hn::Add(hn::BitCast(d, abs), hn::Set(d, 0.5f))),
                                   hn::Set(du, 0x3F000000u));
    auto r = hn::IfThenElse(hn::RebindMask(du, hn::Lt(abs_i, hn::Set(di, 0x38800000))),
                            subnormal, normal);
    // >= 65520 (which rounds up past 65504) and +-inf -> inf.
    r = hn::IfThenElse(hn::RebindMask(du, hn::Gt(abs_i, hn::Set(di, 0x477FEFFF))),
                       hn::Set(du, 0x7C00u), r);
    // NaN stays NaN: quiet bit set, top payload bits kept.
    r = hn::IfThenElse(hn::RebindMask(du, hn::Gt(abs_i, hn::Set(di, 0x7F800000))),
                       hn::Or(hn::Set(du, 0x7E00u), hn::And(hn::ShiftRight<13>(abs),
                                                             hn::Set(du, 0x3FFu))),
                       r);
    r = hn::Or(r, sign);
    hn::StoreU(hn::DemoteTo(d16, hn::BitCast(di, r)), d16, reinterpret_cast<uint16_t*>(p));
  }
}

// Per-row scalars (mean, variance) are converted one at a time.
HWY_INLINE float ScalarToF(float v) { return v; }
HWY_INLINE float ScalarToF(Half v) { return HalfBitsToFloat(v.bits); }
HWY_INLINE void ScalarPut(float* p, float v) { *p = v; }
HWY_INLINE void ScalarPut(Half* p, float v) { p->bits = FloatToHalfBits(v); }

// Partial vectors at the end of a row go through a zero-filled buffer: no load or store ever
// touches memory past the row, on any target.
template <class T>
HWY_INLINE VF LoadTail(DF d, const T* p, size_t n) {
  T buf[kMaxLanes] = {};
  std::memcpy(buf, p, n * sizeof(T));
  return LoadF(d, buf);
}

template <class T>
HWY_INLINE void StoreTail(DF d, VF v, T* p, size_t n) {
  T buf[kMaxLanes];
  StoreF(d, v, buf);
  std::memcpy(p, buf, n * sizeof(T));
}

HWY_INLINE float SumVectors(DF d, VF a0, VF a1, VF a2, VF a3) {
  return hn::GetLane(hn::SumOfLanes(d, hn::Add(hn::Add(a0, a1), hn::Add(a2, a3))));
}

// x1 = dy*gamma and x2 = x - mean for the vector at offset i.
template <class T>
HWY_INLINE void GradTerms(DF d, const T* dy, const T* x, const T* gamma, VF vmean, size_t i,
                          VF& x1, VF& x2) {
  x1 = hn::Mul(LoadF(d, dy + i), LoadF(d, gamma + i));
  x2 = hn::Sub(LoadF(d, x + i), vmean);
}

template <class T>
HWY_INLINE void RowGradSums(const T* dy, const T* x, const T* gamma, float mean, size_t h,
                            float* s12, float* s1, float* s2) {
#if HWY_TARGET == HWY_SCALAR
  // One-lane vectors: four of them would give only 4 partial sums.
  LaneGradSums(dy, x, gamma, mean, static_cast<int64_t>(h), s12, s1, s2);
#else
  const DF d;
  const size_t n = hn::Lanes(d);
  const VF vmean = hn::Set(d, mean);
  VF p0 = hn::Zero(d), p1 = hn::Zero(d), p2 = hn::Zero(d), p3 = hn::Zero(d);  // x1*x2
  VF u0 = hn::Zero(d), u1 = hn::Zero(d), u2 = hn::Zero(d), u3 = hn::Zero(d);  // x1
  VF w0 = hn::Zero(d), w1 = hn::Zero(d), w2 = hn::Zero(d), w3 = hn::Zero(d);  // x2
  VF x1, x2;
  size_t i = 0;
  for (; i + 4 * n <= h; i += 4 * n) {
    GradTerms(d, dy, x, gamma, vmean, i, x1, x2);
    p0 = hn::MulAdd(x1, x2, p0), u0 = hn::Add(u0, x1), w0 = hn::Add(w0, x2);
    GradTerms(d, dy, x, gamma, vmean, i + n, x1, x2);
    p1 = hn::MulAdd(x1, x2, p1), u1 = hn::Add(u1, x1), w1 = hn::Add(w1, x2);
    GradTerms(d, dy, x, gamma, vmean, i + 2 * n, x1, x2);
    p2 = hn::MulAdd(x1, x2, p2), u2 = hn::Add(u2, x1), w2 = hn::Add(w2, x2);
    GradTerms(d, dy, x, gamma, vmean, i + 3 * n, x1, x2);
    p3 = hn::MulAdd(x1, x2, p3), u3 = hn::Add(u3, x1), w3 = hn::Add(w3, x2);
  }
  for (; i + n <= h; i += n) {
    GradTerms(d, dy, x, gamma, vmean, i, x1, x2);
    p0 = hn::MulAdd(x1, x2, p0), u0 = hn::Add(u0, x1), w0 = hn::Add(w0, x2);
  }
  if (i < h) {
    const size_t rem = h - i;
    const auto m = hn::FirstN(d, rem);
    x1 = hn::IfThenElseZero(m, hn::Mul(LoadTail(d, dy + i, rem), LoadTail(d, gamma + i, rem)));
    x2 = hn::IfThenElseZero(m, hn::Sub(LoadTail(d, x + i, rem), vmean));
    p1 = hn::MulAdd(x1, x2, p1), u1 = hn::Add(u1, x1), w1 = hn::Add(w1, x2);
  }
  *s12 = SumVectors(d, p0, p1, p2, p3);
  *s1 = SumVectors(d, u0, u1, u2, u3);
  *s2 = SumVectors(d, w0, w1, w2, w3);
#endif
}

// kFused: write dx, accumulate g += dy*res and b += dy (res kept in float); otherwise write
// pd_x and res_for_gamma.
template <class T, bool kFused>
HWY_INLINE void GradRows(const GradArgs<T>& a, int64_t row_begin, int64_t row_end, float* g,
                         float* b) {
  const DF d;
  const size_t n = hn::Lanes(d);
  const size_t h = static_cast<size_t>(a.h);
  if constexpr (kFused) {
    std::memset(g, 0, h * sizeof(float));
    std::memset(b, 0, h * sizeof(float));
  }
  for (int64_t r = row_begin; r < row_end; ++r) {
    const T* dy = a.dy + r * a.h;
    const T* x = a.x + r * a.h;
    T* pd_x = a.pd_x + r * a.h;
    T* res_out = kFused ? nullptr : a.res_for_gamma + r * a.h;
    const float mean = ScalarToF(a.mean[r]);
    const float variance = ScalarToF(a.variance[r]);
    float s12, s1, s2;
    RowGradSums(dy, x, a.gamma, mean, h, &s12, &s1, &s2);
    const RowCoefficients k = ComputeRowCoefficients(s12, s1, s2, variance, a.epsilon, a.h);
    const VF va = hn::Set(d, k.a), vb = hn::Set(d, k.b), vc = hn::Set(d, k.c);
    const VF vmean = hn::Set(d, mean);
    // One output vector at offset i; kFull is false only for the last, partial vector of
    // `rem` elements, which goes through the tail buffers.
    auto step = [&](size_t i, size_t rem, auto full) HWY_ATTR {
      constexpr bool kFull = decltype(full)::value;
      auto load = [&](const auto* p) HWY_ATTR {
        if constexpr (kFull) {
          return LoadF(d, p);
        } else {
          return LoadTail(d, p, rem);
        }
      };
      auto store = [&](VF v, auto* p) HWY_ATTR {
        if constexpr (kFull) {
          StoreF(d, v, p);
        } else {
          StoreTail(d, v, p, rem);
        }
      };
      const VF dyv = load(dy + i);
      const VF x1 = hn::Mul(dyv, load(a.gamma + i));
      const VF x2 = hn::Sub(load(x + i), vmean);
      store(hn::MulAdd(va, x1, hn::MulAdd(vb, x2, vc)), pd_x + i);
      const VF res = hn::Mul(x2, va);
      if constexpr (kFused) {
        store(hn::MulAdd(dyv, res, load(g + i)), g + i);
        store(hn::Add(load(b + i), dyv), b + i);
      } else {
        store(res, res_out + i);
      }
    };
    size_t i = 0;
    for (; i + n <= h; i += n) step(i, n, std::true_type());
    if (i < h) step(i, h - i, std::false_type());
  }
}

template <class T>
void Grad(const GradArgs<T>& a, int64_t row_begin, int64_t row_end) {
  GradRows<T, false>(a, row_begin, row_end, nullptr, nullptr);
}

template <class T>
void Backward(const GradArgs<T>& a, int64_t row_begin, int64_t row_end, float* g, float* b) {
  GradRows<T, true>(a, row_begin, row_end, g, b);
}

template <class T>
void Beta(const BetaArgs<T>& a, int64_t row_begin, int64_t row_end, float* g, float* b) {
  const DF d;
  const size_t n = hn::Lanes(d);
  const size_t h = static_cast<size_t>(a.h);
  std::memset(g, 0, h * sizeof(float));
  std::memset(b, 0, h * sizeof(float));
  for (int64_t r = row_begin; r < row_end; ++r) {
    const T* dy = a.dy + r * a.h;
    const T* res = a.res_for_gamma + r * a.h;
    size_t i = 0;
    for (; i + n <= h; i += n) {
      const VF dyv = LoadF(d, dy + i);
      hn::StoreU(hn::MulAdd(dyv, LoadF(d, res + i), hn::LoadU(d, g + i)), d, g + i);
      hn::StoreU(hn::Add(hn::LoadU(d, b + i), dyv), d, b + i);
    }
    if (i < h) {
      const size_t rem = h - i;
      const VF dyv = LoadTail(d, dy + i, rem);
      StoreTail(d, hn::MulAdd(dyv, LoadTail(d, res + i, rem), LoadTail(d, g + i, rem)), g + i,
                rem);
      StoreTail(d, hn::Add(LoadTail(d, b + i, rem), dyv), b + i, rem);
    }
  }
}

// sum(x) (kSquares false) or sum((x - mean)^2) (kSquares true) over one row.
template <class T, bool kSquares>
HWY_INLINE float RowSum(const T* x, float mean, size_t h) {
#if HWY_TARGET == HWY_SCALAR
  return LaneRowSum<T, kSquares>(x, mean, static_cast<int64_t>(h));
#else
  const DF d;
  const size_t n = hn::Lanes(d);
  const VF vmean = hn::Set(d, mean);
  VF a0 = hn::Zero(d), a1 = hn::Zero(d), a2 = hn::Zero(d), a3 = hn::Zero(d);
  auto add = [&](VF acc, VF v) HWY_ATTR {
    if constexpr (kSquares) {
      const VF t = hn::Sub(v, vmean);
      return hn::MulAdd(t, t, acc);
    } else {
      return hn::Add(acc, v);
    }
  };
  size_t i = 0;
  for (; i + 4 * n <= h; i += 4 * n) {
    a0 = add(a0, LoadF(d, x + i));
    a1 = add(a1, LoadF(d, x + i + n));
    a2 = add(a2, LoadF(d, x + i + 2 * n));
    a3 = add(a3, LoadF(d, x + i + 3 * n));
  }
  for (; i + n <= h; i += n) a0 = add(a0, LoadF(d, x + i));
  if (i < h) {
    const size_t rem = h - i;
    // Lanes past the row: x = mean there, so both kinds of term are zero.
    const VF v = hn::IfThenElse(hn::FirstN(d, rem), LoadTail(d, x + i, rem),
                                kSquares ? vmean : hn::Zero(d));
    a1 = add(a1, v);
  }
  return SumVectors(d, a0, a1, a2, a3);
#endif
}

template <class T>
void Forward(const ForwardArgs<T>& a, int64_t row_begin, int64_t row_end) {
  const DF d;
  const size_t n = hn::Lanes(d);
  const size_t h = static_cast<size_t>(a.h);
  for (int64_t r = row_begin; r < row_end; ++r) {
    const T* x = a.x + r * a.h;
    T* y = a.y + r * a.h;
    const float mean = DivideByN(RowSum<T, false>(x, 0.0f, h), a.h);
    const float variance = DivideByN(RowSum<T, true>(x, mean, h), a.h);
    const VF vmean = hn::Set(d, mean);
    const VF vrstd = hn::Set(d, RstdFromVariance(variance, a.epsilon));
    ScalarPut(a.mean + r, mean);
    ScalarPut(a.variance + r, variance);
    size_t i = 0;
    for (; i + n <= h; i += n) {
      const VF t = hn::Mul(hn::Sub(LoadF(d, x + i), vmean), vrstd);
      StoreF(d, hn::MulAdd(t, LoadF(d, a.gamma + i), LoadF(d, a.beta + i)), y + i);
    }
    if (i < h) {
      const size_t rem = h - i;
      const VF t = hn::Mul(hn::Sub(LoadTail(d, x + i, rem), vmean), vrstd);
      StoreTail(d, hn::MulAdd(t, LoadTail(d, a.gamma + i, rem), LoadTail(d, a.beta + i, rem)),
                y + i, rem);
    }
  }
}

template <class T>
KernelSet<T> MakeSet() {
  KernelSet<T> s;
  s.grad = &Grad<T>;
  s.backward = &Backward<T>;
  s.beta = &Beta<T>;
  s.forward = &Forward<T>;
  return s;
}

// The dispatched entry point: this target's kernels and its Highway bit.
const KernelTable* GetKernelTable(int64_t* target) {
  static const KernelTable table{MakeSet<float>(), MakeSet<Half>()};
  *target = HWY_TARGET;
  return &table;
}

}  // namespace HWY_NAMESPACE
}  // namespace lngrad::core
HWY_AFTER_NAMESPACE();

#endif  // LNGRAD_CORE_KERNELS_INL_H_ toggle
