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
//
// This file holds the kernels and their table; the building blocks they share (loads, stores,
// column loops, row sums, coefficients) are in kernels_common-inl.h, the correctly rounded half
// path in kernels_half-inl.h.

#if defined(LNGRAD_CORE_KERNELS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef LNGRAD_CORE_KERNELS_INL_H_
#undef LNGRAD_CORE_KERNELS_INL_H_
#else
#define LNGRAD_CORE_KERNELS_INL_H_
#endif

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <hwy/cache_control.h>
#include <hwy/highway.h>

#include "kernels.h"
#include "kernels_common-inl.h"
#include "kernels_half-inl.h"
#include "lane_sums.h"

HWY_BEFORE_NAMESPACE();
namespace lngrad::core {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Pass 1 of GradRows: the row sums and coefficients of a sub-block's rows (zero-initialized:
// CoefficientsBatch reads whole vectors).
struct SubBlockCoefficients {
  float a[kMaxSubRows] = {}, b[kMaxSubRows] = {}, c[kMaxSubRows] = {}, mean[kMaxSubRows] = {};
  float s12[kMaxSubRows] = {}, s1[kMaxSubRows] = {}, s2[kMaxSubRows] = {}, var[kMaxSubRows] = {};

  // Rows [r0, r0 + rows); gamma as WidenedGamma gives it.
  template <class T, class G>
  HWY_INLINE void Compute(const GradArgs<T>& args, const G* gamma, int64_t r0, size_t rows) {
    const size_t h = static_cast<size_t>(args.h);
    const size_t base = static_cast<size_t>(r0) * h;
    for (size_t j = 0; j < rows; ++j) {
      mean[j] = RowMean(args, r0 + static_cast<int64_t>(j));
      var[j] = RowVariance(args, r0 + static_cast<int64_t>(j));
      RowGradSums(args.dy + base + j * h, args.x + base + j * h, gamma, mean[j], h, &s12[j], &s1[j],
                  &s2[j]);
    }
    CoefficientsBatch(s12, s1, s2, var, args.epsilon, args.h, rows, a, b, c);
  }
};

// Pass 2's row coefficients (mean, a, b, c), each broadcast to a whole vector once per sub-block
// (issue 32): the column loops read them from L1 as memory operands instead of broadcasting four
// scalars per row and column group, and need one register (b) for them instead of four.
struct RowVectors {
  static constexpr size_t kPerRow = 4;
  HWY_ALIGN float v[kMaxSubRows * kPerRow * kMaxLanes];

  // The vectors of row j: mean, a, b, c at 0, n, 2n, 3n floats (n = Lanes(DF)), Stride() floats
  // after those of row j - 1.
  static size_t Stride() { return kPerRow * hn::Lanes(DF()); }
  const float* Row(size_t j) const { return v + j * Stride(); }

  HWY_INLINE void Fill(const SubBlockCoefficients& c, size_t rows) {
    const DF d;
    const size_t n = hn::Lanes(d);
    for (size_t j = 0; j < rows; ++j) {
      float* row = v + j * kPerRow * n;
      hn::Store(hn::Set(d, c.mean[j]), d, row);
      hn::Store(hn::Set(d, c.a[j]), d, row + n);
      hn::Store(hn::Set(d, c.b[j]), d, row + 2 * n);
      hn::Store(hn::Set(d, c.c[j]), d, row + 3 * n);
    }
  }
};

// Byte distance from p to q (tensors of one element type) and its use: the pass-2 loop walks one
// pointer and reaches the other tensors at fixed distances (one register each, no extra
// increments).
template <class T>
HWY_INLINE ptrdiff_t ByteDistance(const T* p, const T* q) {
  return static_cast<ptrdiff_t>(reinterpret_cast<uintptr_t>(q) - reinterpret_cast<uintptr_t>(p));
}
template <class T>
HWY_INLINE const T* Offset(const T* p, ptrdiff_t bytes) {
  return reinterpret_cast<const T*>(reinterpret_cast<uintptr_t>(p) + static_cast<uintptr_t>(bytes));
}
template <class T>
HWY_INLINE T* MutableOffset(const T* p, ptrdiff_t bytes) {
  return reinterpret_cast<T*>(reinterpret_cast<uintptr_t>(p) + static_cast<uintptr_t>(bytes));
}

// Pass 2 of GradRows over the kVecs vectors of one row from p (dy; x, pd_x and res_for_gamma
// at the byte distances to_*: one pointer walks the rows, the other tensors need no increments
// of their own): whole vectors, streamed when nt, or one vector of `rem` elements through the
// tail buffers. pd_x is stored, res_for_gamma stored (LayerNormGrad) or added into the
// dgamma/dbeta partials gv/bv (the fused path). kp: the row's vectors in RowVectors; gam(k):
// gamma's vector k.
template <class T, bool kFused>
struct Pass2Row {
  ptrdiff_t to_x, to_pd, to_res;

  template <class Full, class Nt, class Vecs, class Gam>
  HWY_INLINE void operator()(const T* p, size_t rem, Full full, Nt /*nt*/, Vecs /*vecs*/,
                             const float* kp, const Gam& gam, [[maybe_unused]] VF* gv,
                             [[maybe_unused]] VF* bv) const {
    constexpr size_t kVecs = Vecs::value;
    // bfloat16 whole vectors without streaming go in pairs (vectors k - 1 and k, k odd, are
    // consecutive in memory): one pack for both (StoreBf16Pair). Streamed pairs measured
    // slower at 16384 x 4096 (bench/README.md), and the other types gain nothing.
    constexpr bool kPairs = std::is_same_v<T, BFloat16> && HWY_TARGET != HWY_SCALAR &&
                            Full::value && !Nt::value && kVecs % 2 == 0;
    const DF d;
    const size_t n = hn::Lanes(d);  // a constant on fixed-width targets
    auto load = [&](const auto* q) HWY_ATTR { return LoadSome(d, q, rem, full); };
    auto store = [&](VF v, T* q) HWY_ATTR {
      if constexpr (Nt::value) {
        StreamF(d, v, q);
      } else {
        StoreSome(d, v, q, rem, full);
      }
    };
    const VF vm = hn::Load(d, kp), va = hn::Load(d, kp + n), vb = hn::Load(d, kp + 2 * n),
             vc = hn::Load(d, kp + 3 * n);
    // Whole bfloat16 vectors are also loaded in pairs (LoadPairF: one widening for both), unless
    // streamed: there the pairs measured slower (16384 x 4096 backward, AVX2: 44 ms of CPU time
    // against 39; bench/README.md, issue 32).
    constexpr bool kPairLoads =
        std::is_same_v<T, BFloat16> && Full::value && !Nt::value && kVecs % 2 == 0;
    [[maybe_unused]] VF held_pd = hn::Zero(d), held_res = hn::Zero(d);  // k - 1 of a pair
    VF dyk[2], xk[2];  // the data of vectors k and k + 1 (kPairLoads), or of k
    HWY_UNROLL(8)
    for (size_t k = 0; k < kVecs; ++k) {
      const T* q = p + k * n;
      if constexpr (kPairLoads) {
        if (k % 2 == 0) {
          LoadPairF(d, q, dyk[0], dyk[1]);
          LoadPairF(d, Offset(q, to_x), xk[0], xk[1]);
        }
      } else {
        dyk[0] = load(q), xk[0] = load(Offset(q, to_x));
      }
      const VF dyv = dyk[kPairLoads ? k % 2 : 0];
      const VF x2 = hn::Sub(xk[kPairLoads ? k % 2 : 0], vm);
      const VF res = hn::Mul(x2, va);
      if constexpr (kFused) {
        bv[k] = hn::Add(bv[k], dyv);
        gv[k] = hn::MulAdd(dyv, res, gv[k]);
      }
      // res_for_gamma is stored before pd is computed, so that x2 dies in pd's FMA, which then
      // needs no register copy of b or c (GCC evaluates a value used once at its use).
      if constexpr (!kPairs && !kFused) store(res, MutableOffset(q, to_res));
      const VF pd = hn::MulAdd(va, hn::Mul(dyv, gam(k)), hn::MulAdd(vb, x2, vc));
      if constexpr (!kPairs) {
        store(pd, MutableOffset(q, to_pd));
      } else if (k % 2 == 0) {
        held_pd = pd, held_res = res;
      } else {
        StoreBf16Pair(d, held_pd, pd, MutableOffset(q, to_pd) - n);
        if constexpr (!kFused) StoreBf16Pair(d, held_res, res, MutableOffset(q, to_res) - n);
      }
    }
  }
};

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
  SubBlockCoefficients coef;
  RowVectors rv;
  size_t peel = 0;
  const bool stream = StreamPlan(a.stream, a.pd_x, kFused ? nullptr : a.res_for_gamma, h, n, &peel);
  const auto* gamma = WidenedGamma(a.gamma, h);
  for (int64_t r0 = row_begin; r0 < row_end; r0 += static_cast<int64_t>(sub)) {
    const size_t rows = static_cast<size_t>(std::min<int64_t>(row_end - r0, sub));
    const size_t base = static_cast<size_t>(r0) * h;
    coef.Compute(a, gamma, r0, rows);
    const T* dy = a.dy + base;
    const T* x = a.x + base;
    T* pd_x = a.pd_x + base;
    T* res_out = kFused ? nullptr : a.res_for_gamma + base;
    rv.Fill(coef, rows);
    // Pass 2 (Pass2Row over each row of each column group).
    const ptrdiff_t to_x = ByteDistance(dy, x), to_pd = ByteDistance(dy, pd_x);
    const ptrdiff_t to_res = kFused ? 0 : ByteDistance(dy, res_out);
    const Pass2Row<T, kFused> row{to_x, to_pd, to_res};
    if constexpr (kFused) {
      // Column groups outer, the sub-block's rows inner: gamma and the dgamma/dbeta partials of
      // the group stay in registers over the rows.
      ForEachColumnGroup(h, n, peel, stream,
                         [&](size_t i, size_t rem, auto full, auto nt, auto vecs) HWY_ATTR {
                           constexpr size_t kVecs = decltype(vecs)::value;
                           VF gam[kVecs], gv[kVecs], bv[kVecs];
                           for (size_t k = 0; k < kVecs; ++k) {
                             gam[k] = LoadSome(d, gamma + i + k * n, rem, full);
                             gv[k] = hn::Zero(d), bv[k] = hn::Zero(d);
                             if (r0 != row_begin) {
                               gv[k] = LoadSome(d, g + i + k * n, rem, full);
                               bv[k] = LoadSome(d, b + i + k * n, rem, full);
                             }
                           }
                           auto gam_k = [&](size_t k) HWY_ATTR { return gam[k]; };
                           // The coefficients' pointer ends the loop (no row counter).
                           const T* p = dy + i;
                           const float* const kend = rv.Row(rows);
                           for (const float* kp = rv.Row(0); kp != kend; kp += rv.Stride(), p += h)
                             row(p, rem, full, nt, vecs, kp, gam_k, gv, bv);
                           for (size_t k = 0; k < kVecs; ++k) {
                             StoreSome(d, gv[k], g + i + k * n, rem, full);
                             StoreSome(d, bv[k], b + i + k * n, rem, full);
                           }
                         });
    } else {
      // LayerNormGrad has no column sums: row after row, so that its two outputs are written as
      // two sequential streams rather than 2 * rows interleaved ones, which the memory system
      // serves faster (bench/README.md); the row's coefficients stay in registers over its
      // columns, gamma is read from L1 per vector.
      for (size_t j = 0; j < rows; ++j) {
        const T* p = dy + j * h;
        const float* kp = rv.Row(j);
        ForEachColumnGroup(
            h, n, peel, stream, [&](size_t i, size_t rem, auto full, auto nt, auto vecs) HWY_ATTR {
              auto gam_k = [&](size_t k)
                               HWY_ATTR { return LoadSome(d, gamma + i + k * n, rem, full); };
              row(p + i, rem, full, nt, vecs, kp, gam_k, nullptr, nullptr);
            });
      }
    }
  }
  if (stream) hwy::FlushStream();
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
    ForEachColumnChunk(h, n, column);
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

// 16-bit forward: sum(x) (kSquares false) or sum((x - mean)^2) in double.
template <bool kSquares, class T>
HWY_INLINE double RowSumD(const T* x, double mean, size_t h) {
#if HWY_TARGET == HWY_SCALAR
  return LaneRowSum<T, kSquares, double>(x, mean, static_cast<int64_t>(h));
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

// Half and bfloat16 forward: statistics and y in double, each output rounded once.
template <class T>
HWY_INLINE void Forward16(const ForwardArgs<T>& a, int64_t row_begin, int64_t row_end) {
  const DD dd;
  const DH df;
  const size_t n = hn::Lanes(dd);
  const size_t h = static_cast<size_t>(a.h);
  for (int64_t r = row_begin; r < row_end; ++r) {
    const T* x = a.x + r * a.h;
    T* y = a.y + r * a.h;
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
    ForEachColumnChunk(h, n, chunk);
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
    ForEachColumnChunk(h, n, chunk);
  }
}

template <class T>
void Forward(const ForwardArgs<T>& a, int64_t row_begin, int64_t row_end) {
  if constexpr (kIs16Bit<T>) {
    Forward16(a, row_begin, row_end);
  } else {
    ForwardFloat(a, row_begin, row_end);
  }
}

template <class T>
KernelSet<T> MakeSet() {
  return {&Grad<T>, &Backward<T>, &Beta<T>, &Forward<T>};
}

// KernelTable::round_bf16: whole pairs of vectors through Bf16BitsOf2, as GradRows stores its
// column groups, then single and partial vectors through StoreSome.
void RoundToBFloat16(const float* in, size_t n, BFloat16* out) {
  const DF d;
  const size_t lanes = hn::Lanes(d);
  size_t i = 0;
#if HWY_TARGET != HWY_SCALAR
  const hn::Repartition<uint16_t, DF> d16;
  for (; i + 2 * lanes <= n; i += 2 * lanes) {
    hn::StoreU(Bf16BitsOf2(d, hn::LoadU(d, in + i), hn::LoadU(d, in + i + lanes)), d16,
               reinterpret_cast<uint16_t*>(out + i));
  }
#endif
  ForEachColumnChunk(n - i, lanes, [&](size_t j, size_t count, auto full) HWY_ATTR {
    StoreSome(d, LoadSome(d, in + i + j, count, full), out + i + j, count, full);
  });
}

// The dispatched entry point: this target's kernels and its Highway bit.
const KernelTable* GetKernelTable(int64_t* target) {
  static const KernelTable table{MakeSet<float>(), MakeSet<Half>(), MakeSet<BFloat16>(),
                                 &RoundToBFloat16};
  *target = HWY_TARGET;
  return &table;
}

}  // namespace HWY_NAMESPACE
}  // namespace lngrad::core
HWY_AFTER_NAMESPACE();

#endif  // LNGRAD_CORE_KERNELS_INL_H_ toggle
