// SIMD kernels, written once and compiled for every Highway target by kernels_simd.cpp
// (foreach_target.h re-includes this file per target; the toggle guard below allows that).
//
// Scheme (see docs/math.md §2): rows go in sub-blocks of about 8K elements. Pass 1 accumulates,
// per row, sum(x1*x2), sum(x1), sum(x2) in four vectors per sum (>= 16 lanes; the one-lane
// SCALAR target uses lane_sums.h) and adds the partial sums pairwise; the per-row coefficients
// follow (ComputeRowCoefficients, in double, vectorized over the sub-block's rows on x86).
// Pass 2 walks the sub-block column vector by column vector, rows inside, while dy and x are
// still in L1/L2 (memory sees one pass), writes pd_x = a*x1 + (b*x2 + c) with two FMAs where
// the target has FMA (non-temporal stores on large problems), and keeps the fused dgamma/dbeta
// partials of the column vector in registers. Half data, fast evaluation (the default): the same
// kernel, loads widening to float exactly and each output rounded once to half. Half data,
// correctly rounded: sums in double, pd_x in float where an error bound certifies the half
// rounding, else in double; rounded once to half (GradRowsHalf).

#if defined(LNGRAD_CORE_KERNELS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef LNGRAD_CORE_KERNELS_INL_H_
#undef LNGRAD_CORE_KERNELS_INL_H_
#else
#define LNGRAD_CORE_KERNELS_INL_H_
#endif

#include <algorithm>
#include <cstring>
#include <limits>
#include <type_traits>

#include <hwy/cache_control.h>
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

// Per-row scalars (mean, variance) are converted one at a time.
HWY_INLINE float ScalarToF(float v) { return v; }
HWY_INLINE float ScalarToF(Half v) { return HalfBitsToFloat(v.bits); }
HWY_INLINE void ScalarPut(float* p, float v) { *p = v; }
HWY_INLINE void ScalarPut(Half* p, float v) { p->bits = FloatToHalfBits(v); }

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
// offset i (full and count as for LoadSome); the lanes of the last, partial chunk past the row
// are cleared here.
template <class D, class Terms>
HWY_INLINE void GradSums(D d, size_t h, const Terms& terms, hn::TFromD<D>* s12, hn::TFromD<D>* s1,
                         hn::TFromD<D>* s2) {
  using V = hn::VFromD<D>;
  const size_t n = hn::Lanes(d);
  const std::true_type full;
  V p0 = hn::Zero(d), p1 = hn::Zero(d), p2 = hn::Zero(d), p3 = hn::Zero(d);  // x1*x2
  V u0 = hn::Zero(d), u1 = hn::Zero(d), u2 = hn::Zero(d), u3 = hn::Zero(d);  // x1
  V w0 = hn::Zero(d), w1 = hn::Zero(d), w2 = hn::Zero(d), w3 = hn::Zero(d);  // x2
  V x1, x2;
  size_t i = 0;
  for (; i + 4 * n <= h; i += 4 * n) {
    terms(i, n, full, x1, x2);
    p0 = hn::MulAdd(x1, x2, p0), u0 = hn::Add(u0, x1), w0 = hn::Add(w0, x2);
    terms(i + n, n, full, x1, x2);
    p1 = hn::MulAdd(x1, x2, p1), u1 = hn::Add(u1, x1), w1 = hn::Add(w1, x2);
    terms(i + 2 * n, n, full, x1, x2);
    p2 = hn::MulAdd(x1, x2, p2), u2 = hn::Add(u2, x1), w2 = hn::Add(w2, x2);
    terms(i + 3 * n, n, full, x1, x2);
    p3 = hn::MulAdd(x1, x2, p3), u3 = hn::Add(u3, x1), w3 = hn::Add(w3, x2);
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

// Sums of one row for the coefficients: s12 = sum(x1*x2), s1 = sum(x1), s2 = sum(x2).
template <class T>
HWY_INLINE void RowGradSums(const T* dy, const T* x, const T* gamma, float mean, size_t h,
                            float* s12, float* s1, float* s2) {
#if HWY_TARGET == HWY_SCALAR
  // One-lane vectors: four of them would give only 4 partial sums.
  LaneGradSums(dy, x, gamma, mean, static_cast<int64_t>(h), s12, s1, s2);
#else
  const DF d;
  const VF vmean = hn::Set(d, mean);
  auto terms = [&](size_t i, size_t count, auto full, VF& x1, VF& x2) HWY_ATTR {
    x1 = hn::Mul(LoadSome(d, dy + i, count, full), LoadSome(d, gamma + i, count, full));
    x2 = hn::Sub(LoadSome(d, x + i, count, full), vmean);
  };
  GradSums(d, h, terms, s12, s1, s2);
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

// kFused: write dx, accumulate g += dy*res and b += dy (res kept in float); otherwise write
// pd_x and res_for_gamma. Float data, and half data in the fast evaluation: loads widen half to
// float exactly, every operation is the float one, each half output is rounded once from the
// float value (the correctly rounded half evaluation: GradRowsHalf).
template <class T, bool kFused>
HWY_INLINE void GradRows(const GradArgs<T>& a, int64_t row_begin, int64_t row_end, float* g,
                         float* b) {
  const DF d;
  const size_t n = hn::Lanes(d);
  const size_t h = static_cast<size_t>(a.h);
  // The block's partials start from zero: the first sub-block starts its column sums from zero
  // registers and stores every column, so g and b need no clearing pass.
  const size_t sub = SubRows(h);
  // Per-row sums and coefficients of one sub-block (zero-initialized: CoefficientsBatch reads
  // whole vectors).
  float ka[kMaxSubRows] = {}, kb[kMaxSubRows] = {}, kc[kMaxSubRows] = {}, km[kMaxSubRows] = {};
  float s12[kMaxSubRows] = {}, s1[kMaxSubRows] = {}, s2[kMaxSubRows] = {}, kv[kMaxSubRows] = {};
  size_t peel = 0;
  const bool stream = StreamPlan(a.stream, a.pd_x, kFused ? nullptr : a.res_for_gamma, h, n, &peel);
  for (int64_t r0 = row_begin; r0 < row_end; r0 += static_cast<int64_t>(sub)) {
    const size_t rows = static_cast<size_t>(std::min<int64_t>(row_end - r0, sub));
    const size_t base = static_cast<size_t>(r0) * h;
    for (size_t j = 0; j < rows; ++j) {
      km[j] = RowMean(a, r0 + static_cast<int64_t>(j));
      kv[j] = RowVariance(a, r0 + static_cast<int64_t>(j));
      RowGradSums(a.dy + base + j * h, a.x + base + j * h, a.gamma, km[j], h, &s12[j], &s1[j],
                  &s2[j]);
    }
    CoefficientsBatch(s12, s1, s2, kv, a.epsilon, a.h, rows, ka, kb, kc);
    const T* dy = a.dy + base;
    const T* x = a.x + base;
    T* pd_x = a.pd_x + base;
    T* res_out = kFused ? nullptr : a.res_for_gamma + base;
    // Pass 2 covers rows [j_begin, j_end) of the sub-block: all of them at once for the fused
    // path (the dgamma/dbeta partials of a column stay in registers over the rows), one row at a
    // time for LayerNormGrad, which has no column sums: its two outputs are then written as two
    // sequential streams rather than 2 * rows interleaved ones, which the memory system serves
    // faster (bench/README.md).
    size_t j_begin = 0, j_end = rows;
    // kVecs column vectors from offset i over rows [j_begin, j_end). full: whole vectors
    // (streamed when nt); otherwise one vector of `rem` elements through the tail buffers. Each
    // row's coefficients are broadcast once per call, and the dgamma/dbeta partials of the
    // columns stay in registers over the rows.
    auto columns = [&](size_t i, size_t rem, auto full, auto nt, auto vecs) HWY_ATTR {
      constexpr size_t kVecs = decltype(vecs)::value;
      auto load = [&](const auto* p) HWY_ATTR { return LoadSome(d, p, rem, full); };
      auto store = [&](VF v, T* p) HWY_ATTR {
        if constexpr (decltype(nt)::value) {
          StreamF(d, v, p);
        } else {
          StoreSome(d, v, p, rem, full);
        }
      };
      VF gam[kVecs], gv[kVecs], bv[kVecs];
      for (size_t k = 0; k < kVecs; ++k) {
        gam[k] = load(a.gamma + i + k * n);
        gv[k] = hn::Zero(d), bv[k] = hn::Zero(d);
        if constexpr (kFused) {
          if (r0 != row_begin) gv[k] = load(g + i + k * n), bv[k] = load(b + i + k * n);
        }
      }
      for (size_t j = j_begin; j < j_end; ++j) {
        const VF vm = hn::Set(d, km[j]), va = hn::Set(d, ka[j]), vb = hn::Set(d, kb[j]),
                 vc = hn::Set(d, kc[j]);
        for (size_t k = 0; k < kVecs; ++k) {
          const size_t o = j * h + i + k * n;
          const VF dyv = load(dy + o);
          const VF x1 = hn::Mul(dyv, gam[k]);
          const VF x2 = hn::Sub(load(x + o), vm);
          store(hn::MulAdd(va, x1, hn::MulAdd(vb, x2, vc)), pd_x + o);
          const VF res = hn::Mul(x2, va);
          if constexpr (kFused) {
            gv[k] = hn::MulAdd(dyv, res, gv[k]);
            bv[k] = hn::Add(bv[k], dyv);
          } else {
            store(res, res_out + o);
          }
        }
      }
      if constexpr (kFused) {
        for (size_t k = 0; k < kVecs; ++k) {
          StoreSome(d, gv[k], g + i + k * n, rem, full);
          StoreSome(d, bv[k], b + i + k * n, rem, full);
        }
      }
    };
    if constexpr (kFused) {
      ForEachColumnGroup(h, n, peel, stream, columns);
    } else {
      for (j_begin = 0; j_begin < rows; ++j_begin) {
        j_end = j_begin + 1;
        ForEachColumnGroup(h, n, peel, stream, columns);
      }
    }
  }
  if (stream) hwy::FlushStream();
}

// ---------------------------------------------------------------------------------------------
// Half LayerNormGrad / LayerNormBackward: row sums and coefficients in double (x1, a product of
// two halves, is exact in float; x2, a difference of two halves, is exact in double); pd_x
// certified in float or evaluated in double, then one rounding to half (through a round-to-odd
// float from double). res_for_gamma and the fused dgamma/dbeta terms stay in float, as in the
// float path (docs/math.md §3).

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

HWY_INLINE void RowGradSumsD(const Half* dy, const Half* x, const Half* gamma, float mean, size_t h,
                             double* s12, double* s1, double* s2) {
#if HWY_TARGET == HWY_SCALAR
  LaneGradSums<Half, double>(dy, x, gamma, mean, static_cast<int64_t>(h), s12, s1, s2);
#else
  const DD dd;
  const DH df;
  const VD vmean = hn::Set(dd, static_cast<double>(mean));
  auto terms = [&](size_t i, size_t count, auto full, VD& x1, VD& x2) HWY_ATTR {
    x1 = hn::PromoteTo(
        dd, hn::Mul(LoadSome(df, dy + i, count, full), LoadSome(df, gamma + i, count, full)));
    x2 = hn::Sub(hn::PromoteTo(dd, LoadSome(df, x + i, count, full)), vmean);
  };
  GradSums(dd, h, terms, s12, s1, s2);
#endif
}

// pd_x of `count` (<= Lanes(DF)) elements in double: x1 (exact in float) and x2 (exact in
// double) widened, two double FMAs, one rounding to half through a round-to-odd float. The
// reference evaluation of the half path, and its fallback where the float evaluation below
// cannot certify the rounding (rare: out of the hot loop).
HWY_NOINLINE void PdXHalfDouble(const Half* dy, const Half* x, const Half* gamma, size_t count,
                                double ka, double kb, double kc, double km, Half* out) {
  const DD dd;
  const DH df;
  const size_t n = hn::Lanes(dd);
  for (size_t i = 0; i < count; i += n) {
    const size_t rem = std::min(n, count - i);
    const bool full = rem == n;
    const VH dyv = full ? LoadF(df, dy + i) : LoadTail(df, dy + i, rem);
    const VH gv = full ? LoadF(df, gamma + i) : LoadTail(df, gamma + i, rem);
    const VH xv = full ? LoadF(df, x + i) : LoadTail(df, x + i, rem);
    const VD x1 = hn::PromoteTo(dd, hn::Mul(dyv, gv));
    const VD x2 = hn::Sub(hn::PromoteTo(dd, xv), hn::Set(dd, km));
    const VD pd = hn::MulAdd(hn::Set(dd, ka), x1, hn::MulAdd(hn::Set(dd, kb), x2, hn::Set(dd, kc)));
    if (full) {
      StoreF(df, RoundToOdd(df, dd, pd), out + i);
    } else {
      StoreTail(df, RoundToOdd(df, dd, pd), out + i, rem);
    }
  }
}

// Half pd_x in float, certified (docs/math.md §3): f = fl(af*x1 + fl(bf*x2f + cf)) with the
// coefficients rounded to float and x2f = fl(x - mean) is within 4.01u*M of the value P that the
// double coefficients give, M = |a*x1| + |b*x2| + |c|, and the double evaluation is within
// 2^-52*M of P. With e = fl(8u*Mf + FLT_MIN) (Mf: M evaluated in float) the rounded bounds
// lo = fl(f - e) and hi = fl(f + e) still enclose both, so where lo and hi round to the same
// half (and it is not NaN), rounding is monotonic and that half is exactly the one the double
// evaluation produces. Elsewhere (pd_x close to a half rounding boundary, cancellation,
// non-finite values) the double evaluation runs.
constexpr float kCertifyFactor = 8.0f * 0x1p-24f;

// Test hook (kernels.h): the certified float evaluation is used unless this is false.
inline bool HalfCertifiedOn() { return HalfCertifiedEvaluation().load(std::memory_order_relaxed); }

// Same sub-block scheme as GradRows; pd_x certified in float with the double fallback.
// Pass 2 of LayerNormGrad walks row by row, so that its two outputs are written sequentially;
// the fused path walks the columns, the rows inside, with the dgamma/dbeta partials in
// registers. Half outputs use ordinary stores: non-temporal ones were slower in every layout
// tried (bench/README.md, "Non-temporal stores for half outputs").
template <bool kFused>
HWY_INLINE void GradRowsHalf(const GradArgs<Half>& a, int64_t row_begin, int64_t row_end, float* g,
                             float* b) {
  const DF df;
  const hn::Rebind<uint16_t, DF> d16;
  const hn::Rebind<int16_t, DF> di16;
  using V16 = hn::Vec<decltype(d16)>;
  const size_t n = hn::Lanes(df);
  const size_t h = static_cast<size_t>(a.h);
  const bool certified = HalfCertifiedOn();
  uint64_t double_vectors = 0;  // added to HalfDoubleEvaluations once, at the end
  // The block's partials start from zero: the first sub-block starts its column sums from zero
  // registers and stores every column, so g and b need no clearing pass.
  const size_t sub = SubRows(h);
  double ka[kMaxSubRows], kb[kMaxSubRows], kc[kMaxSubRows], km[kMaxSubRows];
  float kaf[kMaxSubRows], kbf[kMaxSubRows], kcf[kMaxSubRows], kmf[kMaxSubRows];
  float kaa[kMaxSubRows], kba[kMaxSubRows], kca[kMaxSubRows];
  const VF factor = hn::Set(df, kCertifyFactor);
  const VF floor = hn::Set(df, std::numeric_limits<float>::min());
  for (int64_t r0 = row_begin; r0 < row_end; r0 += static_cast<int64_t>(sub)) {
    const size_t rows = static_cast<size_t>(std::min<int64_t>(row_end - r0, sub));
    const size_t base = static_cast<size_t>(r0) * h;
    for (size_t j = 0; j < rows; ++j) {
      const int64_t r = r0 + static_cast<int64_t>(j);
      const float mean = RowMean(a, r);
      double s12, s1, s2;
      RowGradSumsD(a.dy + base + j * h, a.x + base + j * h, a.gamma, mean, h, &s12, &s1, &s2);
      const RowCoefficientsD k =
          ComputeRowCoefficientsD(s12, s1, s2, RowVariance(a, r), a.epsilon, a.h);
      ka[j] = k.a, kb[j] = k.b, kc[j] = k.c, km[j] = mean;
      kaf[j] = static_cast<float>(k.a), kbf[j] = static_cast<float>(k.b);
      kcf[j] = static_cast<float>(k.c), kmf[j] = mean;
      kaa[j] = std::fabs(kaf[j]), kba[j] = std::fabs(kbf[j]), kca[j] = std::fabs(kcf[j]);
    }
    const Half* dy = a.dy + base;
    const Half* x = a.x + base;
    Half* pd_x = a.pd_x + base;
    Half* res_out = kFused ? nullptr : a.res_for_gamma + base;
    // Row j, columns [i, i + cnt) (cnt <= n; full: cnt == n): pd_x, and res_for_gamma or the
    // dgamma/dbeta update of gv/bv.
    auto vec = [&](size_t j, size_t i, size_t cnt, VF gam, VF& gv, VF& bv, auto full) HWY_ATTR {
      auto store16 = [&](V16 v, Half* p) HWY_ATTR {
        if constexpr (decltype(full)::value) {
          hn::StoreU(v, d16, reinterpret_cast<uint16_t*>(p));
        } else {
          uint16_t buf[kMaxLanes];
          hn::StoreU(v, d16, buf);
          std::memcpy(p, buf, cnt * sizeof(uint16_t));
        }
      };
      const size_t o = j * h + i;
      const VF dyv = LoadSome(df, dy + o, cnt, full);
      const VF x1 = hn::Mul(dyv, gam);  // exact
      const VF x2 = hn::Sub(LoadSome(df, x + o, cnt, full), hn::Set(df, kmf[j]));
      const VF f = hn::MulAdd(hn::Set(df, kaf[j]), x1,
                              hn::MulAdd(hn::Set(df, kbf[j]), x2, hn::Set(df, kcf[j])));
      const VF mag = hn::MulAdd(hn::Set(df, kaa[j]), hn::Abs(x1),
                                hn::MulAdd(hn::Set(df, kba[j]), hn::Abs(x2), hn::Set(df, kca[j])));
      const VF e = hn::MulAdd(mag, factor, floor);
      const V16 lo = HalfBitsOf(df, hn::Sub(f, e));
      const V16 hi = HalfBitsOf(df, hn::Add(f, e));
      // Same half at both ends, and not NaN (|bits| <= 0x7C00).
      const auto not_nan =
          hn::Lt(hn::BitCast(di16, hn::And(lo, hn::Set(d16, 0x7FFF))), hn::Set(di16, 0x7C01));
      if (HWY_LIKELY(certified &&
                     hn::AllTrue(d16, hn::And(hn::Eq(lo, hi), hn::RebindMask(d16, not_nan))))) {
        store16(lo, pd_x + o);
      } else {
        PdXHalfDouble(dy + o, x + o, a.gamma + i, cnt, ka[j], kb[j], kc[j], km[j], pd_x + o);
        ++double_vectors;
      }
      const VF res = hn::Mul(x2, hn::Set(df, kaf[j]));
      if constexpr (kFused) {
        gv = hn::MulAdd(dyv, res, gv);
        bv = hn::Add(bv, dyv);
      } else {
        store16(HalfBitsOf(df, res), res_out + o);
      }
    };
    if constexpr (!kFused) {
      for (size_t j = 0; j < rows; ++j) {
        ForEachColumnChunk(h, n, [&](size_t i, size_t cnt, auto full) HWY_ATTR {
          VF unused = hn::Zero(df);
          vec(j, i, cnt, LoadSome(df, a.gamma + i, cnt, full), unused, unused, full);
        });
      }
    } else {
      ForEachColumnChunk(h, n, [&](size_t i, size_t cnt, auto full) HWY_ATTR {
        const VF gam = LoadSome(df, a.gamma + i, cnt, full);
        VF gv = hn::Zero(df), bv = hn::Zero(df);
        if (r0 != row_begin) {
          gv = LoadSome(df, g + i, cnt, full);
          bv = LoadSome(df, b + i, cnt, full);
        }
        for (size_t j = 0; j < rows; ++j) vec(j, i, cnt, gam, gv, bv, full);
        StoreSome(df, gv, g + i, cnt, full);
        StoreSome(df, bv, b + i, cnt, full);
      });
    }
  }
  if (double_vectors != 0) {
    HalfDoubleEvaluations().fetch_add(double_vectors, std::memory_order_relaxed);
  }
}

template <class T>
void Grad(const GradArgs<T>& a, int64_t row_begin, int64_t row_end) {
  if constexpr (std::is_same_v<T, Half>) {
    if (a.correctly_rounded) return GradRowsHalf<false>(a, row_begin, row_end, nullptr, nullptr);
  }
  GradRows<T, false>(a, row_begin, row_end, nullptr, nullptr);
}

template <class T>
void Backward(const GradArgs<T>& a, int64_t row_begin, int64_t row_end, float* g, float* b) {
  if constexpr (std::is_same_v<T, Half>) {
    if (a.correctly_rounded) return GradRowsHalf<true>(a, row_begin, row_end, g, b);
  }
  GradRows<T, true>(a, row_begin, row_end, g, b);
}

// Column vector outer, rows inner (sub-blocks of kBetaSubRows rows): the partials stay in
// registers, and each is still summed row after row from zero (the documented order). Few rows
// per sub-block: each row is a separate memory stream for the hardware prefetcher.
constexpr size_t kBetaSubRows = 4;

template <class T>
void Beta(const BetaArgs<T>& a, int64_t row_begin, int64_t row_end, float* g, float* b) {
  const DF d;
  const size_t n = hn::Lanes(d);
  const size_t h = static_cast<size_t>(a.h);
  // Partials start from zero registers in the first sub-block (which stores every column).
  for (int64_t r0 = row_begin; r0 < row_end; r0 += static_cast<int64_t>(kBetaSubRows)) {
    const bool first = r0 == row_begin;
    const size_t rows = static_cast<size_t>(std::min<int64_t>(row_end - r0, kBetaSubRows));
    const T* dy = a.dy + static_cast<size_t>(r0) * h;
    const T* res = a.res_for_gamma + static_cast<size_t>(r0) * h;
    // Columns [i, i + count) over the sub-block's rows (full as for LoadSome).
    auto column = [&](size_t i, size_t count, auto full) HWY_ATTR {
      VF gv = first ? hn::Zero(d) : LoadSome(d, g + i, count, full);
      VF bv = first ? hn::Zero(d) : LoadSome(d, b + i, count, full);
      for (size_t j = 0; j < rows; ++j) {
        const VF dyv = LoadSome(d, dy + j * h + i, count, full);
        gv = hn::MulAdd(dyv, LoadSome(d, res + j * h + i, count, full), gv);
        bv = hn::Add(bv, dyv);
      }
      StoreSome(d, gv, g + i, count, full);
      StoreSome(d, bv, b + i, count, full);
    };
    size_t i = 0;
    for (; i + n <= h; i += n) column(i, n, std::true_type());
    if (i < h) column(i, h - i, std::false_type());
  }
}

// The skeleton of the row sums below, four accumulators of D: add(acc, i) adds the whole vector
// at offset i, tail(acc, i, count) the last `count` (< Lanes(d)) elements.
template <class D, class Add, class Tail>
HWY_INLINE hn::TFromD<D> SumRow(D d, size_t h, const Add& add, const Tail& tail) {
  const size_t n = hn::Lanes(d);
  hn::VFromD<D> a0 = hn::Zero(d), a1 = hn::Zero(d), a2 = hn::Zero(d), a3 = hn::Zero(d);
  size_t i = 0;
  for (; i + 4 * n <= h; i += 4 * n) {
    a0 = add(a0, i);
    a1 = add(a1, i + n);
    a2 = add(a2, i + 2 * n);
    a3 = add(a3, i + 3 * n);
  }
  for (; i + n <= h; i += n) a0 = add(a0, i);
  if (i < h) a1 = tail(a1, i, h - i);
  return SumVectors(d, a0, a1, a2, a3);
}

// acc + v (kSquares false) or acc + (v - mean)^2 with one rounding of the square and the sum.
template <bool kSquares, class V>
HWY_INLINE V AddTerm(V acc, V v, V vmean) {
  if constexpr (kSquares) {
    const V t = hn::Sub(v, vmean);
    return hn::MulAdd(t, t, acc);
  } else {
    return hn::Add(acc, v);
  }
}

// Float forward: sum(x) (kSquares false) or sum((x - mean)^2) (kSquares true) over one row.
template <bool kSquares>
HWY_INLINE float RowSum(const float* x, float mean, size_t h) {
#if HWY_TARGET == HWY_SCALAR
  return LaneRowSum<float, kSquares>(x, mean, static_cast<int64_t>(h));
#else
  const DF d;
  const VF vmean = hn::Set(d, mean);
  auto add = [&](VF acc, size_t i) HWY_ATTR {
    const VF v = LoadF(d, x + i);
    return AddTerm<kSquares>(acc, v, vmean);
  };
  auto tail = [&](VF acc, size_t i, size_t rem) HWY_ATTR {
    // Lanes past the row: x = mean there, so both kinds of term are zero.
    const VF v =
        hn::IfThenElse(hn::FirstN(d, rem), LoadTail(d, x + i, rem), kSquares ? vmean : hn::Zero(d));
    return AddTerm<kSquares>(acc, v, vmean);
  };
  return SumRow(d, h, add, tail);
#endif
}

// Half forward: sum(x) (kSquares false) or sum((x - mean)^2) in double.
template <bool kSquares>
HWY_INLINE double RowSumD(const Half* x, double mean, size_t h) {
#if HWY_TARGET == HWY_SCALAR
  return LaneRowSum<Half, kSquares, double>(x, mean, static_cast<int64_t>(h));
#else
  const DD dd;
  const DH df;
  const VD vmean = hn::Set(dd, mean);
  auto add = [&](VD acc, size_t i) HWY_ATTR {
    return AddTerm<kSquares>(acc, hn::PromoteTo(dd, LoadF(df, x + i)), vmean);
  };
  auto tail = [&](VD acc, size_t i, size_t rem) HWY_ATTR {
    // Lanes past the row contribute zero.
    const VD t =
        AddTerm<kSquares>(hn::Zero(dd), hn::PromoteTo(dd, LoadTail(df, x + i, rem)), vmean);
    return hn::Add(acc, hn::IfThenElseZero(hn::FirstN(dd, rem), t));
  };
  return SumRow(dd, h, add, tail);
#endif
}

HWY_INLINE void ForwardHalf(const ForwardArgs<Half>& a, int64_t row_begin, int64_t row_end) {
  const DD dd;
  const DH df;
  const size_t n = hn::Lanes(dd);
  const size_t h = static_cast<size_t>(a.h);
  for (int64_t r = row_begin; r < row_end; ++r) {
    const Half* x = a.x + r * a.h;
    Half* y = a.y + r * a.h;
    const double mean = RowSumD<false>(x, 0.0, h) / static_cast<double>(a.h);
    const double variance = RowSumD<true>(x, mean, h) / static_cast<double>(a.h);
    const double rstd = 1.0 / std::sqrt(variance + a.epsilon);
    PutRowStatistics(a, r, mean, variance);
    const VD vmean = hn::Set(dd, mean);
    const VD vrstd = hn::Set(dd, rstd);
    auto chunk = [&](size_t i, size_t count, auto full) HWY_ATTR {
      const VD t =
          hn::Mul(hn::Sub(hn::PromoteTo(dd, LoadSome(df, x + i, count, full)), vmean), vrstd);
      const VD gv = hn::PromoteTo(dd, LoadSome(df, a.gamma + i, count, full));
      const VD bv = hn::PromoteTo(dd, LoadSome(df, a.beta + i, count, full));
      StoreSome(df, RoundToOdd(df, dd, hn::MulAdd(t, gv, bv)), y + i, count, full);
    };
    size_t i = 0;
    for (; i + n <= h; i += n) chunk(i, n, std::true_type());
    if (i < h) chunk(i, h - i, std::false_type());
  }
}

HWY_INLINE void ForwardFloat(const ForwardArgs<float>& a, int64_t row_begin, int64_t row_end) {
  const DF d;
  const size_t n = hn::Lanes(d);
  const size_t h = static_cast<size_t>(a.h);
  for (int64_t r = row_begin; r < row_end; ++r) {
    const float* x = a.x + r * a.h;
    float* y = a.y + r * a.h;
    const float mean = DivideByN(RowSum<false>(x, 0.0f, h), a.h);
    const float variance = DivideByN(RowSum<true>(x, mean, h), a.h);
    const VF vmean = hn::Set(d, mean);
    const VF vrstd = hn::Set(d, RstdFromVariance(variance, a.epsilon));
    ScalarPut(a.mean + r, mean);
    ScalarPut(a.variance + r, variance);
    auto chunk = [&](size_t i, size_t count, auto full) HWY_ATTR {
      const VF t = hn::Mul(hn::Sub(LoadSome(d, x + i, count, full), vmean), vrstd);
      StoreSome(d,
                hn::MulAdd(t, LoadSome(d, a.gamma + i, count, full),
                           LoadSome(d, a.beta + i, count, full)),
                y + i, count, full);
    };
    size_t i = 0;
    for (; i + n <= h; i += n) chunk(i, n, std::true_type());
    if (i < h) chunk(i, h - i, std::false_type());
  }
}

template <class T>
void Forward(const ForwardArgs<T>& a, int64_t row_begin, int64_t row_end) {
  if constexpr (std::is_same_v<T, Half>) {
    ForwardHalf(a, row_begin, row_end);
  } else {
    ForwardFloat(a, row_begin, row_end);
  }
}

template <class T>
KernelSet<T> MakeSet() {
  return {&Grad<T>, &Backward<T>, &Beta<T>, &Forward<T>};
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
