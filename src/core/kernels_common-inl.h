// The building blocks of the native SIMD kernels (kernels-inl.h, kernels_half-inl.h): vector
// types, loads and stores of float and half data (the half codec, tails through zero-filled
// buffers, non-temporal stores), the column loops, the row sums, the sub-block scheme and the
// per-row coefficients. Compiled once per Highway target through kernels-inl.h.

// Per-target include guard (Highway's toggle idiom): re-included for every target.
#if defined(LNGRAD_CORE_KERNELS_COMMON_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef LNGRAD_CORE_KERNELS_COMMON_INL_H_
#undef LNGRAD_CORE_KERNELS_COMMON_INL_H_
#else
#define LNGRAD_CORE_KERNELS_COMMON_INL_H_
#endif

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <type_traits>
#include <vector>

#include <hwy/highway.h>

#include "kernels.h"
#include "lane_sums.h"

HWY_BEFORE_NAMESPACE();
namespace lngrad::core {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using DF = hn::ScalableTag<float>;
using VF = hn::Vec<DF>;
using DD = hn::ScalableTag<double>;
using VD = hn::Vec<DD>;
using DH = hn::Rebind<float, DD>;  // float lanes matching the double lanes
using VH = hn::Vec<DH>;

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

template <class D>
HWY_INLINE hn::VFromD<D> LoadF(D d, const float* p) {
  return hn::LoadU(d, p);
}

template <class D>
HWY_INLINE hn::VFromD<D> LoadF(D d, const Half* p) {
  if constexpr (kHardwareF16) {
    const hn::Rebind<hwy::float16_t, D> dh;
    return hn::PromoteTo(d, hn::LoadU(dh, reinterpret_cast<const hwy::float16_t*>(p)));
  } else {
    const hn::Rebind<uint16_t, D> d16;
    const hn::RebindToUnsigned<D> du;
    const hn::RebindToSigned<D> di;
    const auto bits = hn::PromoteTo(du, hn::LoadU(d16, reinterpret_cast<const uint16_t*>(p)));
    const auto sign = hn::ShiftLeft<16>(hn::And(bits, hn::Set(du, 0x8000u)));
    const auto exp = hn::And(bits, hn::Set(du, 0x7C00u));
    const auto mant = hn::And(bits, hn::Set(du, 0x03FFu));
    // Normal: rebias the exponent by 127 - 15 = 112.
    const auto normal =
        hn::Add(hn::ShiftLeft<13>(hn::And(bits, hn::Set(du, 0x7FFFu))), hn::Set(du, 112u << 23));
    const auto inf_nan = hn::Or(hn::Set(du, 0x7F800000u), hn::ShiftLeft<13>(mant));
    // Subnormal: mant * 2^-24 is exact in float (and does not rely on float denormals).
    const auto subnormal = hn::BitCast(
        du, hn::Mul(hn::ConvertTo(d, hn::BitCast(di, mant)), hn::Set(d, 1.0f / 16777216.0f)));
    auto r = hn::IfThenElse(hn::Eq(exp, hn::Set(du, 0x7C00u)), inf_nan, normal);
    r = hn::IfThenElse(hn::Eq(exp, hn::Zero(du)), subnormal, r);
    return hn::BitCast(d, hn::Or(r, sign));
  }
}

// bfloat16: the 16 bits are the top of the float (exact).
template <class D>
HWY_INLINE hn::VFromD<D> LoadF(D d, const BFloat16* p) {
  const hn::Rebind<uint16_t, D> d16;
  const hn::RebindToUnsigned<D> du;
  const auto bits = hn::PromoteTo(du, hn::LoadU(d16, reinterpret_cast<const uint16_t*>(p)));
  return hn::BitCast(d, hn::ShiftLeft<16>(bits));
}

template <class D>
HWY_INLINE void StoreF(D d, hn::VFromD<D> v, float* p) {
  hn::StoreU(v, d, p);
}

// The half encodings (RNE) of the float lanes of v, as 16-bit lanes.
template <class D>
HWY_INLINE hn::Vec<hn::Rebind<uint16_t, D>> HalfBitsOf(D d, hn::VFromD<D> v) {
  const hn::Rebind<uint16_t, D> d16;
  if constexpr (kHardwareF16) {
    const hn::Rebind<hwy::float16_t, D> dh;
    return hn::BitCast(d16, hn::DemoteTo(dh, v));
  } else {
    const hn::RebindToUnsigned<D> du;
    const hn::RebindToSigned<D> di;
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
    auto r = hn::IfThenElse(hn::RebindMask(du, hn::Lt(abs_i, hn::Set(di, 0x38800000))), subnormal,
                            normal);
    // >= 65520 (which rounds up past 65504) and +-inf -> inf.
    r = hn::IfThenElse(hn::RebindMask(du, hn::Gt(abs_i, hn::Set(di, 0x477FEFFF))),
                       hn::Set(du, 0x7C00u), r);
    // NaN stays NaN: quiet bit set, top payload bits kept.
    r = hn::IfThenElse(
        hn::RebindMask(du, hn::Gt(abs_i, hn::Set(di, 0x7F800000))),
        hn::Or(hn::Set(du, 0x7E00u), hn::And(hn::ShiftRight<13>(abs), hn::Set(du, 0x3FFu))), r);
    r = hn::Or(r, sign);
    return hn::DemoteTo(d16, hn::BitCast(di, r));  // r <= 0xFFFF: no saturation
  }
}

template <class D>
HWY_INLINE void StoreF(D d, hn::VFromD<D> v, Half* p) {
  const hn::Rebind<uint16_t, D> d16;
  hn::StoreU(HalfBitsOf(d, v), d16, reinterpret_cast<uint16_t*>(p));
}

// The bfloat16 encodings (RNE, as FloatToBFloat16Bits) of the float lanes of v, as 16-bit lanes:
// half an ulp added (minus one unless the kept lsb is odd), 16 bits dropped; NaN stays NaN.
template <class D>
HWY_INLINE hn::Vec<hn::Rebind<uint16_t, D>> Bf16BitsOf(D /*d*/, hn::VFromD<D> v) {
  const hn::Rebind<uint16_t, D> d16;
  const hn::RebindToUnsigned<D> du;
  const hn::RebindToSigned<D> di;
  const auto bits = hn::BitCast(du, v);
  const auto lsb = hn::And(hn::ShiftRight<16>(bits), hn::Set(du, 1u));
  const auto rounded = hn::ShiftRight<16>(hn::Add(bits, hn::Add(hn::Set(du, 0x7FFFu), lsb)));
  const auto abs_i = hn::BitCast(di, hn::And(bits, hn::Set(du, 0x7FFFFFFFu)));
  const auto nan = hn::Or(hn::ShiftRight<16>(bits), hn::Set(du, 0x0040u));
  const auto r =
      hn::IfThenElse(hn::RebindMask(du, hn::Gt(abs_i, hn::Set(di, 0x7F800000))), nan, rounded);
  return hn::DemoteTo(d16, hn::BitCast(di, r));  // r <= 0xFFFF: no saturation
}

template <class D>
HWY_INLINE void StoreF(D d, hn::VFromD<D> v, BFloat16* p) {
  const hn::Rebind<uint16_t, D> d16;
  hn::StoreU(Bf16BitsOf(d, v), d16, reinterpret_cast<uint16_t*>(p));
}

#if HWY_TARGET != HWY_SCALAR
// The bfloat16 encodings of two vectors of consecutive elements (a first) as one vector of
// 16-bit lanes, the same bits as Bf16BitsOf: the rounding bias is added in 32 bits (NaN: the
// quiet bit set instead) and the upper halves are taken in order, one pack for both vectors
// instead of a shift and a pack each (issue 32: 9 fewer instructions per 16 elements on AVX2).
template <class D>
HWY_INLINE hn::Vec<hn::Repartition<uint16_t, D>> Bf16BitsOf2(D d, hn::VFromD<D> a,
                                                             hn::VFromD<D> b) {
  const hn::RebindToUnsigned<D> du;
  const hn::Repartition<uint16_t, D> d16;
  auto biased = [&](hn::VFromD<D> v) HWY_ATTR {
    const auto bits = hn::BitCast(du, v);
    const auto lsb = hn::And(hn::ShiftRight<16>(bits), hn::Set(du, 1u));
    const auto rounded = hn::Add(bits, hn::Add(lsb, hn::Set(du, 0x7FFFu)));
    const auto quiet = hn::Or(bits, hn::Set(du, 0x00400000u));
    return hn::BitCast(d16, hn::IfThenElse(hn::RebindMask(du, hn::IsNaN(v)), quiet, rounded));
  };
  (void)d;
  return hn::ConcatOdd(d16, biased(b), biased(a));
}

#endif

// Two whole vectors of consecutive elements: bfloat16 rounded with one pack (Bf16BitsOf2), any
// other type (the callers' branches for it are discarded) or target one vector at a time.
template <class D, class T>
HWY_INLINE void StoreBf16Pair(D d, hn::VFromD<D> a, hn::VFromD<D> b, T* p) {
#if HWY_TARGET != HWY_SCALAR
  if constexpr (std::is_same_v<T, BFloat16>) {
    const hn::Repartition<uint16_t, D> d16;
    hn::StoreU(Bf16BitsOf2(d, a, b), d16, reinterpret_cast<uint16_t*>(p));
    return;
  }
#endif
  StoreF(d, a, p);
  StoreF(d, b, p + hn::Lanes(d));
}

// Two whole vectors of consecutive elements from p: a = [0, n), b = [n, 2n). bfloat16 on AVX2 and
// AVX-512: one load of the 2n values, a quadword permute that puts the quarters each 128-bit
// block needs side by side, and two unpacks with zero (the bits go to the top of each float):
// three instructions for two vectors instead of a widening load and a shift each (issue 32).
// Other types and targets: LoadF twice.
template <class T>
HWY_INLINE void LoadPairF(hn::ScalableTag<float> d, const T* p, hn::Vec<hn::ScalableTag<float>>& a,
                          hn::Vec<hn::ScalableTag<float>>& b) {
#if HWY_TARGET == HWY_AVX2
  if constexpr (std::is_same_v<T, BFloat16>) {
    const __m256i v =
        _mm256_permute4x64_epi64(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)), 0xD8);
    const __m256i zero = _mm256_setzero_si256();
    a = hn::Vec<hn::ScalableTag<float>>{_mm256_castsi256_ps(_mm256_unpacklo_epi16(zero, v))};
    b = hn::Vec<hn::ScalableTag<float>>{_mm256_castsi256_ps(_mm256_unpackhi_epi16(zero, v))};
    return;
  }
#elif HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
  if constexpr (std::is_same_v<T, BFloat16>) {
    const __m512i order = _mm512_setr_epi64(0, 4, 1, 5, 2, 6, 3, 7);
    const __m512i v = _mm512_permutexvar_epi64(order, _mm512_loadu_si512(p));
    const __m512i zero = _mm512_setzero_si512();
    a = hn::Vec<hn::ScalableTag<float>>{_mm512_castsi512_ps(_mm512_unpacklo_epi16(zero, v))};
    b = hn::Vec<hn::ScalableTag<float>>{_mm512_castsi512_ps(_mm512_unpackhi_epi16(zero, v))};
    return;
  }
#endif
  a = LoadF(d, p);
  b = LoadF(d, p + hn::Lanes(d));
}

// Vector RoundToOddFloat (kernels.h): RNE to float, then, where that was inexact and gave an
// even float, one step toward v (the odd neighbour). The rounding error v - f is exact in double
// and keeps its sign (and non-zeroness) when demoted for |v| >= 2^-100, far below any value
// whose half rounding it could change.
HWY_INLINE VH RoundToOdd(DH df, DD dd, VD v) {
  const hn::RebindToUnsigned<DH> du;
  const VH f = hn::DemoteTo(df, v);
  const VH e = hn::DemoteTo(df, hn::Sub(v, hn::PromoteTo(dd, f)));
  const auto fb = hn::BitCast(du, f);
  const auto one = hn::Set(du, 1u);
  const auto odd = hn::RebindMask(df, hn::Eq(hn::And(fb, one), one));
  const auto fix = hn::AndNot(odd, hn::Ne(e, hn::Zero(df)));
  // +1 (away from zero) when e has the sign of f, else -1 (toward zero).
  const auto step =
      hn::Sub(one, hn::ShiftLeft<1>(hn::ShiftRight<31>(hn::Xor(fb, hn::BitCast(du, e)))));
  return hn::BitCast(df, hn::Add(fb, hn::IfThenElseZero(hn::RebindMask(du, fix), step)));
}
// Per-row scalars (mean, variance) are converted one at a time.
HWY_INLINE float ScalarToF(float v) { return v; }
HWY_INLINE float ScalarToF(Half v) { return HalfBitsToFloat(v.bits); }
HWY_INLINE void ScalarPut(float* p, float v) { *p = v; }
HWY_INLINE void ScalarPut(Half* p, float v) { p->bits = FloatToHalfBits(v); }
HWY_INLINE float ScalarToF(BFloat16 v) { return BFloat16BitsToFloat(v.bits); }
HWY_INLINE void ScalarPut(BFloat16* p, float v) { p->bits = FloatToBFloat16Bits(v); }

// Partial vectors at the end of a row go through a zero-filled buffer: no load or store ever
// touches memory past the row, on any target.
template <class D, class T>
HWY_INLINE hn::VFromD<D> LoadTail(D d, const T* p, size_t n) {
  T buf[kMaxLanes] = {};
  std::memcpy(buf, p, n * sizeof(T));
  return LoadF(d, buf);
}

template <class D, class T>
HWY_INLINE void StoreTail(D d, hn::VFromD<D> v, T* p, size_t n) {
  T buf[kMaxLanes];
  StoreF(d, v, buf);
  std::memcpy(p, buf, n * sizeof(T));
}

// A whole vector (Full = std::true_type) or, through the tail buffers, the first `count`
// elements (Full = std::false_type): one body serves both kinds of chunk.
template <class D, class T, class Full>
HWY_INLINE hn::VFromD<D> LoadSome(D d, const T* p, size_t count, Full) {
  if constexpr (Full::value) {
    return LoadF(d, p);
  } else {
    return LoadTail(d, p, count);
  }
}

template <class D, class T, class Full>
HWY_INLINE void StoreSome(D d, hn::VFromD<D> v, T* p, size_t count, Full) {
  if constexpr (Full::value) {
    StoreF(d, v, p);
  } else {
    StoreTail(d, v, p, count);
  }
}

// Whole vectors per call of the pass-2 body in ForEachColumnGroup: each row's coefficients are
// broadcast once per group instead of once per vector, and the group's dgamma/dbeta partials
// still fit in registers (bench/README.md, "What the measurements decided").
constexpr size_t kColumnGroup = 4;

// Calls columns(i, count, full, streamed, vecs) over the columns [0, h): when streaming
// (non-temporal stores), an unaligned peel of `peel` columns first so that the whole vectors
// start aligned; then whole vectors of n lanes, kColumnGroup at a time where possible; a
// partial vector of `count` columns closes the row. vecs is a std::integral_constant<size_t, V>
// (V = kColumnGroup or 1 whole vectors from column i; 1 for the peel and the partial vector);
// full and streamed are std::true_type / std::false_type, so the body is compiled once per
// combination.
template <class Columns>
HWY_INLINE void ForEachColumnGroup(size_t h, size_t n, size_t peel, bool stream,
                                   const Columns& columns) {
  using One = std::integral_constant<size_t, 1>;
  using Group = std::integral_constant<size_t, kColumnGroup>;
  const size_t span = kColumnGroup * n;
  size_t i = 0;
  if (stream) {
    if (peel != 0) columns(0, peel, std::false_type(), std::false_type(), One());
    for (i = peel; i + span <= h; i += span)
      columns(i, n, std::true_type(), std::true_type(), Group());
    for (; i + n <= h; i += n) columns(i, n, std::true_type(), std::true_type(), One());
  } else {
    for (; i + span <= h; i += span) columns(i, n, std::true_type(), std::false_type(), Group());
    for (; i + n <= h; i += n) columns(i, n, std::true_type(), std::false_type(), One());
  }
  if (i < h) columns(i, h - i, std::false_type(), std::false_type(), One());
}

// The chunks of ForEachColumnGroup without streaming, one vector at a time: column(i, count,
// full) in column order.
template <class Column>
HWY_INLINE void ForEachColumnChunk(size_t h, size_t n, const Column& column) {
  ForEachColumnGroup(h, n, 0, false,
                     [&](size_t i, size_t count, auto full, auto, auto vecs) HWY_ATTR {
                       for (size_t k = 0; k < decltype(vecs)::value; ++k) {
                         column(i + k * n, count, full);
                       }
                     });
}

// The four partial-sum vectors added pairwise, then across the lanes.
template <class D>
HWY_INLINE hn::TFromD<D> SumVectors(D d, hn::VFromD<D> a0, hn::VFromD<D> a1, hn::VFromD<D> a2,
                                    hn::VFromD<D> a3) {
  return hn::GetLane(hn::SumOfLanes(d, hn::Add(hn::Add(a0, a1), hn::Add(a2, a3))));
}

// s12 = sum(x1*x2), s1 = sum(x1), s2 = sum(x2) over a row of h elements, four vectors of D per
// sum. terms(i, count, full, x1, x2) sets x1 = dy*gamma and x2 = x - mean for the chunk at
// offset i (full and count as for LoadSome); pair(i, x1, x2, y1, y2), unless it is nullptr, sets
// the same values for the two whole vectors at i (x1, x2) and i + n (y1, y2), for data that loads
// two vectors at a time (LoadPairF; elsewhere the four-vector steps interleave one vector's terms
// and updates, which needs fewer registers). The lanes of the last, partial chunk past the row
// are cleared here.
template <class D, class Terms, class Pair>
HWY_INLINE void GradSums(D d, size_t h, const Terms& terms, const Pair& pair, hn::TFromD<D>* s12,
                         hn::TFromD<D>* s1, hn::TFromD<D>* s2) {
  using V = hn::VFromD<D>;
  const size_t n = hn::Lanes(d);
  const std::true_type full;
  V p0 = hn::Zero(d), p1 = hn::Zero(d), p2 = hn::Zero(d), p3 = hn::Zero(d);  // x1*x2
  V u0 = hn::Zero(d), u1 = hn::Zero(d), u2 = hn::Zero(d), u3 = hn::Zero(d);  // x1
  V w0 = hn::Zero(d), w1 = hn::Zero(d), w2 = hn::Zero(d), w3 = hn::Zero(d);  // x2
  V x1, x2;
  size_t i = 0;
  for (; i + 4 * n <= h; i += 4 * n) {
    if constexpr (std::is_same_v<Pair, std::nullptr_t>) {
      terms(i, n, full, x1, x2);
      p0 = hn::MulAdd(x1, x2, p0), u0 = hn::Add(u0, x1), w0 = hn::Add(w0, x2);
      terms(i + n, n, full, x1, x2);
      p1 = hn::MulAdd(x1, x2, p1), u1 = hn::Add(u1, x1), w1 = hn::Add(w1, x2);
      terms(i + 2 * n, n, full, x1, x2);
      p2 = hn::MulAdd(x1, x2, p2), u2 = hn::Add(u2, x1), w2 = hn::Add(w2, x2);
      terms(i + 3 * n, n, full, x1, x2);
      p3 = hn::MulAdd(x1, x2, p3), u3 = hn::Add(u3, x1), w3 = hn::Add(w3, x2);
    } else {
      V y1, y2;
      pair(i, x1, x2, y1, y2);
      p0 = hn::MulAdd(x1, x2, p0), u0 = hn::Add(u0, x1), w0 = hn::Add(w0, x2);
      p1 = hn::MulAdd(y1, y2, p1), u1 = hn::Add(u1, y1), w1 = hn::Add(w1, y2);
      pair(i + 2 * n, x1, x2, y1, y2);
      p2 = hn::MulAdd(x1, x2, p2), u2 = hn::Add(u2, x1), w2 = hn::Add(w2, x2);
      p3 = hn::MulAdd(y1, y2, p3), u3 = hn::Add(u3, y1), w3 = hn::Add(w3, y2);
    }
  }
  for (; i + n <= h; i += n) {
    terms(i, n, full, x1, x2);
    p0 = hn::MulAdd(x1, x2, p0), u0 = hn::Add(u0, x1), w0 = hn::Add(w0, x2);
  }
  if (i < h) {
    const size_t rem = h - i;
    terms(i, rem, std::false_type(), x1, x2);
    const auto m = hn::FirstN(d, rem);
    x1 = hn::IfThenElseZero(m, x1);
    x2 = hn::IfThenElseZero(m, x2);
    p1 = hn::MulAdd(x1, x2, p1), u1 = hn::Add(u1, x1), w1 = hn::Add(w1, x2);
  }
  *s12 = SumVectors(d, p0, p1, p2, p3);
  *s1 = SumVectors(d, u0, u1, u2, u3);
  *s2 = SumVectors(d, w0, w1, w2, w3);
}

// Sums of one row for the coefficients: s12 = sum(x1*x2), s1 = sum(x1), s2 = sum(x2). gamma is
// of the data's type or, for 16-bit data, already widened to float (WidenedGamma).
template <class T, class G>
HWY_INLINE void RowGradSums(const T* dy, const T* x, const G* gamma, float mean, size_t h,
                            float* s12, float* s1, float* s2) {
#if HWY_TARGET == HWY_SCALAR
  static_assert(std::is_same_v<T, G>, "the one-lane target reads gamma as the data's type");
  // One-lane vectors: four of them would give only 4 partial sums.
  LaneGradSums(dy, x, gamma, mean, static_cast<int64_t>(h), s12, s1, s2);
#else
  const DF d;
  const VF vmean = hn::Set(d, mean);
  auto terms = [&](size_t i, size_t count, auto full, VF& x1, VF& x2) HWY_ATTR {
    x1 = hn::Mul(LoadSome(d, dy + i, count, full), LoadSome(d, gamma + i, count, full));
    x2 = hn::Sub(LoadSome(d, x + i, count, full), vmean);
  };
  auto pair = [&](size_t i, VF& x1, VF& x2, VF& y1, VF& y2) HWY_ATTR {
    VF dy0, dy1, x0, x1v;
    LoadPairF(d, dy + i, dy0, dy1);  // bfloat16: one widening for both vectors
    LoadPairF(d, x + i, x0, x1v);
    x1 = hn::Mul(dy0, LoadF(d, gamma + i));
    y1 = hn::Mul(dy1, LoadF(d, gamma + i + hn::Lanes(d)));
    x2 = hn::Sub(x0, vmean);
    y2 = hn::Sub(x1v, vmean);
  };
  if constexpr (std::is_same_v<T, BFloat16>) {
    GradSums(d, h, terms, pair, s12, s1, s2);
  } else {
    GradSums(d, h, terms, nullptr, s12, s1, s2);
  }
#endif
}

// gamma as the kernels' passes read it: 16-bit gamma widened to float once per call (exact; pass
// 1 reads it once per row, and a float operand needs no conversion there: issue 32), float gamma
// as it is. The one-lane target reads the data's type.
template <class T>
HWY_INLINE auto WidenedGamma(const T* gamma, size_t h) {
#if HWY_TARGET == HWY_SCALAR
  (void)h;
  return gamma;
#else
  if constexpr (std::is_same_v<T, float>) {
    (void)h;
    return gamma;
  } else {
    thread_local std::vector<float> widened;
    if (widened.size() < h) widened.resize(h);
    const DF d;
    ForEachColumnChunk(h, hn::Lanes(d), [&](size_t i, size_t count, auto full) HWY_ATTR {
      StoreSome(d, LoadSome(d, gamma + i, count, full), widened.data() + i, count, full);
    });
    return static_cast<const float*>(widened.data());
  }
#endif
}

// Rows are processed in sub-blocks of about kSubBlockElements elements: pass 1 computes the row
// sums of every row of the sub-block, pass 2 walks the columns once and, for each column vector,
// the sub-block's rows, while dy and x are still in L1/L2. The dgamma/dbeta partials of a column
// vector stay in registers across the sub-block's rows and are added row after row, exactly the
// order of Beta (so the fused sums stay bitwise those of LayerNormGradBeta).
// The two passes alternate on purpose: overlapping them (the next sub-block's row sums between
// column segments of this pass 2, or a prefetch of it) mixes memory reads into the non-temporal
// store stream, which costs more than the overlap gains. Other sub-block sizes and software
// prefetch in pass 1 gained nothing (bench/README.md, "What the measurements decided").
constexpr size_t kSubBlockElements = 8192;
constexpr size_t kMaxSubRows = 32;

// Rows longer than kSubBlockElements still go two per sub-block while two rows of dy and x fit
// in L2 (2 * kPairMaxElements * 8 bytes = 256 KiB): the dgamma/dbeta partials of a column
// vector are then loaded and stored once per two rows instead of once per row (bench/README.md,
// "Long rows").
constexpr size_t kPairMaxElements = 16384;

HWY_INLINE size_t SubRows(size_t h) {
  const size_t min_rows = h <= kPairMaxElements ? 2 : 1;
  return std::clamp<size_t>(kSubBlockElements / h, min_rows, kMaxSubRows);
}

// Non-temporal stores need vector-aligned addresses. With h*sizeof(T) a multiple of the vector
// size every row has the same misalignment, so one peel length (a partial first vector, stored
// normally) serves all rows. Returns false when streaming is off or not possible.
template <class T>
HWY_INLINE bool StreamPlan(bool wanted, const T* out1, const T* out2, size_t h, size_t lanes,
                           size_t* peel) {
  *peel = 0;
  if (!wanted || HWY_TARGET == HWY_SCALAR) return false;
  const size_t vbytes = lanes * sizeof(T);
  // Highway's Stream writes a whole 16-byte register, at a 16-byte aligned address, even for a
  // narrower vector: the 8-byte 16-bit vectors of the 128-bit targets (SSE4, SSSE3) would fault
  // or write past the row, so those keep ordinary stores.
  if (vbytes < 16) return false;
  const uintptr_t a1 = reinterpret_cast<uintptr_t>(out1);
  if (a1 % sizeof(T) != 0 || (h * sizeof(T)) % vbytes != 0) return false;
  if (out2 != nullptr && reinterpret_cast<uintptr_t>(out2) % vbytes != a1 % vbytes) return false;
  const size_t mis = a1 % vbytes;
  *peel = mis == 0 ? 0 : (vbytes - mis) / sizeof(T);
  return *peel + lanes <= h;
}

HWY_INLINE void StreamF(DF d, VF v, float* p) { hn::Stream(v, d, p); }
HWY_INLINE void StreamF(DF d, VF v, Half* p) {
  const hn::Rebind<uint16_t, DF> d16;
  hn::Stream(HalfBitsOf(d, v), d16, reinterpret_cast<uint16_t*>(p));
}
HWY_INLINE void StreamF(DF d, VF v, BFloat16* p) {
  const hn::Rebind<uint16_t, DF> d16;
  hn::Stream(Bf16BitsOf(d, v), d16, reinterpret_cast<uint16_t*>(p));
}

// ComputeRowCoefficients for `rows` rows at once (arrays of kMaxSubRows, entries past `rows`
// initialized but ignored). On x86 SIMD targets in double vectors: the same IEEE operations in
// the same order (sqrt, division and the conversion to float are correctly rounded in vector
// form too), so the coefficients are bitwise those of the scalar function; elsewhere (Highway's
// emulated targets saturate in DemoteTo) one row at a time.
HWY_INLINE void CoefficientsBatch(const float* s12, const float* s1, const float* s2,
                                  const float* var, float epsilon, int64_t n, size_t rows,
                                  float* ka, float* kb, float* kc) {
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_SSSE3
  const DD dd;
  const DH df;
  const size_t lanes = hn::Lanes(dd);
  const double inv_n_s = 1.0 / static_cast<double>(n);
  const VD inv_n = hn::Set(dd, inv_n_s);
  const VD eps = hn::Set(dd, static_cast<double>(epsilon));
  const VD one = hn::Set(dd, 1.0), m_half = hn::Set(dd, -0.5), m_two = hn::Set(dd, -2.0),
           two = hn::Set(dd, 2.0);
  for (size_t j = 0; j < rows; j += lanes) {
    const VD rstd = hn::Div(one, hn::Sqrt(hn::Add(hn::PromoteTo(dd, hn::LoadU(df, var + j)), eps)));
    const VD pd_var = hn::Mul(hn::Mul(m_half, hn::PromoteTo(dd, hn::LoadU(df, s12 + j))),
                              hn::Mul(hn::Mul(rstd, rstd), rstd));
    const VD pd_mean = hn::Add(
        hn::Mul(hn::Neg(rstd), hn::PromoteTo(dd, hn::LoadU(df, s1 + j))),
        hn::Mul(hn::Mul(pd_var, inv_n), hn::Mul(m_two, hn::PromoteTo(dd, hn::LoadU(df, s2 + j)))));
    hn::StoreU(hn::DemoteTo(df, rstd), df, ka + j);
    hn::StoreU(hn::DemoteTo(df, hn::Mul(hn::Mul(pd_var, two), inv_n)), df, kb + j);
    hn::StoreU(hn::DemoteTo(df, hn::Mul(pd_mean, inv_n)), df, kc + j);
  }
#else
  for (size_t j = 0; j < rows; ++j) {
    const RowCoefficients k = ComputeRowCoefficients(s12[j], s1[j], s2[j], var[j], epsilon, n);
    ka[j] = k.a, kb[j] = k.b, kc[j] = k.c;
  }
#endif
}

}  // namespace HWY_NAMESPACE
}  // namespace lngrad::core
HWY_AFTER_NAMESPACE();

#endif  // LNGRAD_CORE_KERNELS_COMMON_INL_H_ toggle
