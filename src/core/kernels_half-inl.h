// The correctly rounded half LayerNormGrad / LayerNormBackward (GradArgs::correctly_rounded): row
// sums and coefficients in double (x1, a product of two halves, is exact in float; x2, a
// difference of two halves, is exact in double); pd_x certified in float or evaluated in double,
// then one rounding to half (through a round-to-odd float from double). res_for_gamma and the
// fused dgamma/dbeta terms stay in float, as in the float path (docs/math.md §3). Compiled once
// per Highway target through kernels-inl.h.

// Per-target include guard (Highway's toggle idiom): re-included for every target.
#if defined(LNGRAD_CORE_KERNELS_HALF_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef LNGRAD_CORE_KERNELS_HALF_INL_H_
#undef LNGRAD_CORE_KERNELS_HALF_INL_H_
#else
#define LNGRAD_CORE_KERNELS_HALF_INL_H_
#endif

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include <hwy/highway.h>

#include "kernels.h"
#include "kernels_common-inl.h"
#include "lane_sums.h"

HWY_BEFORE_NAMESPACE();
namespace lngrad::core {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

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
  GradSums(dd, h, terms, nullptr, s12, s1, s2);
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

// The coefficients of a sub-block's rows: in double for the reference evaluation
// (PdXHalfDouble), rounded to float with their magnitudes for the certified one.
struct HalfSubBlock {
  double a[kMaxSubRows], b[kMaxSubRows], c[kMaxSubRows], mean[kMaxSubRows];
  float af[kMaxSubRows], bf[kMaxSubRows], cf[kMaxSubRows], meanf[kMaxSubRows];
  float aa[kMaxSubRows], ba[kMaxSubRows], ca[kMaxSubRows];  // |af|, |bf|, |cf|
};

// Pass 1 of GradRowsHalf: the row sums in double and the coefficients of rows [r0, r0 + rows).
HWY_INLINE void HalfCoefficients(const GradArgs<Half>& a, int64_t r0, size_t rows,
                                 HalfSubBlock* k) {
  const size_t h = static_cast<size_t>(a.h);
  const size_t base = static_cast<size_t>(r0) * h;
  for (size_t j = 0; j < rows; ++j) {
    const int64_t r = r0 + static_cast<int64_t>(j);
    const float mean = RowMean(a, r);
    double s12, s1, s2;
    RowGradSumsD(a.dy + base + j * h, a.x + base + j * h, a.gamma, mean, h, &s12, &s1, &s2);
    const RowCoefficientsD c =
        ComputeRowCoefficientsD(s12, s1, s2, RowVariance(a, r), a.epsilon, a.h);
    k->a[j] = c.a, k->b[j] = c.b, k->c[j] = c.c, k->mean[j] = mean;
    k->af[j] = static_cast<float>(c.a), k->bf[j] = static_cast<float>(c.b);
    k->cf[j] = static_cast<float>(c.c), k->meanf[j] = mean;
    k->aa[j] = std::fabs(k->af[j]), k->ba[j] = std::fabs(k->bf[j]), k->ca[j] = std::fabs(k->cf[j]);
  }
}

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
  HalfSubBlock k;
  const VF factor = hn::Set(df, kCertifyFactor);
  const VF floor = hn::Set(df, std::numeric_limits<float>::min());
  for (int64_t r0 = row_begin; r0 < row_end; r0 += static_cast<int64_t>(sub)) {
    const size_t rows = static_cast<size_t>(std::min<int64_t>(row_end - r0, sub));
    const size_t base = static_cast<size_t>(r0) * h;
    HalfCoefficients(a, r0, rows, &k);
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
      const VF x2 = hn::Sub(LoadSome(df, x + o, cnt, full), hn::Set(df, k.meanf[j]));
      const VF f = hn::MulAdd(hn::Set(df, k.af[j]), x1,
                              hn::MulAdd(hn::Set(df, k.bf[j]), x2, hn::Set(df, k.cf[j])));
      const VF mag =
          hn::MulAdd(hn::Set(df, k.aa[j]), hn::Abs(x1),
                     hn::MulAdd(hn::Set(df, k.ba[j]), hn::Abs(x2), hn::Set(df, k.ca[j])));
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
        PdXHalfDouble(dy + o, x + o, a.gamma + i, cnt, k.a[j], k.b[j], k.c[j], k.mean[j], pd_x + o);
        ++double_vectors;
      }
      const VF res = hn::Mul(x2, hn::Set(df, k.af[j]));
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

}  // namespace HWY_NAMESPACE
}  // namespace lngrad::core
HWY_AFTER_NAMESPACE();

#endif  // LNGRAD_CORE_KERNELS_HALF_INL_H_ toggle
