// The SIMD versions of the vector instructions (lngrad_aicore/instructions.h), written once with
// Google Highway and compiled per target: included once per target by instructions.cpp (the
// exported instructions) and by src/adv/row_kernels.cpp (row kernels built on the same loops,
// trees and half codec). Everything here is inline: both translation units instantiate it.
//
// The reduction tree (spec §1.8), and why the SIMD trees give the scalar tree's bits: view
// `count` trees of L lanes laid out back to back as one stream s. One level of the tree replaces
// s by s'[m] = s[2m] + s[2m+1]; pairs never straddle two trees because every tree occupies an
// aligned run of L (then L/2, ...) slots. For two consecutive vectors lo, hi of the stream,
// ConcatEven(hi, lo) + ConcatOdd(hi, lo) is exactly that level applied to their 2N floats
// (left + right in every lane). Applying it to consecutive pairs, depth first (the levels are
// pure functions, so the evaluation order of independent sums does not matter), leaves one
// vector; the remaining levels pair that vector with itself, which keeps the level's results in
// the lower half. Lanes masked off in the 64-lane tree are +0: a tree over n < 64 lanes equals
// the tree over L = bit_ceil(n) lanes (zeros in n..L) followed by levels that add a subtree of
// +0s, i.e. (t + 0) + 0 ... = t + 0.

// Per-target include guard (Highway's toggle idiom): re-included for every target.
#if defined(LNGRAD_AICORE_INSTRUCTIONS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef LNGRAD_AICORE_INSTRUCTIONS_INL_H_
#undef LNGRAD_AICORE_INSTRUCTIONS_INL_H_
#else
#define LNGRAD_AICORE_INSTRUCTIONS_INL_H_
#endif

#include <bit>
#include <cmath>
#include <cstring>

#include "half_lanes-inl.h"
#include "hwy/highway.h"
#include "lngrad/half.h"
#include "lngrad_aicore/instructions.h"

HWY_BEFORE_NAMESPACE();
namespace lngrad::aicore {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// ---------------------------------------------------------------------------------------------
// Element-wise instructions. The scalar tail after the last full vector performs the same single
// operation per element, so it cannot change the bits.

template <class F, class G>
inline void BinaryLoop(float* dst, const float* a, const float* b, size_t n, F vec_op,
                       G scalar_op) {
  const hn::ScalableTag<float> d;
  const size_t lanes = hn::Lanes(d);
  size_t i = 0;
  for (; i + lanes <= n; i += lanes) {
    hn::StoreU(vec_op(hn::LoadU(d, a + i), hn::LoadU(d, b + i)), d, dst + i);
  }
  for (; i < n; ++i) dst[i] = scalar_op(a[i], b[i]);
}

// Half operands: widened exactly, one float operation, rounded once (RNE) to half.
template <class F, class G>
inline void BinaryLoop(Half* dst, const Half* a, const Half* b, size_t n, [[maybe_unused]] F vec_op,
                       G scalar_op) {
  size_t i = 0;
#ifdef LNGRAD_HALF_F16C
  const hn::ScalableTag<float> d;
  const size_t lanes = hn::Lanes(d);
  for (; i + lanes <= n; i += lanes) {
    StoreFloatAsHalf(vec_op(LoadHalfAsFloat(a + i), LoadHalfAsFloat(b + i)), dst + i);
  }
#endif
  for (; i < n; ++i) {
    dst[i] = Half::FromBits(
        FloatToHalfBits(scalar_op(HalfBitsToFloat(a[i].bits), HalfBitsToFloat(b[i].bits))));
  }
}

// Calls run(vec_op, scalar_op) with the lane and the scalar form of binary operation op
// (BinaryOp's order, which ScalarOp's follows).
template <class Run>
inline void WithBinaryOp(BinaryOp op, Run run) {
  switch (op) {
    case BinaryOp::kAdd:
      return run([](auto x, auto y) HWY_ATTR { return hn::Add(x, y); },
                 [](float x, float y) { return x + y; });
    case BinaryOp::kSub:
      return run([](auto x, auto y) HWY_ATTR { return hn::Sub(x, y); },
                 [](float x, float y) { return x - y; });
    case BinaryOp::kMul:
      return run([](auto x, auto y) HWY_ATTR { return hn::Mul(x, y); },
                 [](float x, float y) { return x * y; });
    case BinaryOp::kDiv:
      return run([](auto x, auto y) HWY_ATTR { return hn::Div(x, y); },
                 [](float x, float y) { return x / y; });
    case BinaryOp::kMax:
      return run([](auto x, auto y) HWY_ATTR { return hn::IfThenElse(hn::Gt(x, y), x, y); },
                 [](float x, float y) { return x > y ? x : y; });
    case BinaryOp::kMin:
      return run([](auto x, auto y) HWY_ATTR { return hn::IfThenElse(hn::Lt(x, y), x, y); },
                 [](float x, float y) { return x < y ? x : y; });
  }
}

// T = float or Half: dst = a op b per element.
template <typename T>
inline void BinaryLanes(BinaryOp op, T* dst, const T* a, const T* b, size_t n) {
  WithBinaryOp(op, [&](auto vec_op, auto scalar_op)
                       HWY_ATTR { BinaryLoop(dst, a, b, n, vec_op, scalar_op); });
}

template <class F, class G>
inline void ScalarLoop(float* dst, const float* a, float s, size_t n, F vec_op, G scalar_op) {
  const hn::ScalableTag<float> d;
  const size_t lanes = hn::Lanes(d);
  const auto vs = hn::Set(d, s);
  size_t i = 0;
  for (; i + lanes <= n; i += lanes) hn::StoreU(vec_op(hn::LoadU(d, a + i), vs), d, dst + i);
  for (; i < n; ++i) dst[i] = scalar_op(a[i], s);
}

template <class F, class G>
inline void ScalarLoop(Half* dst, const Half* a, float s, size_t n, [[maybe_unused]] F vec_op,
                       G scalar_op) {
  size_t i = 0;
#ifdef LNGRAD_HALF_F16C
  const hn::ScalableTag<float> d;
  const size_t lanes = hn::Lanes(d);
  const auto vs = hn::Set(d, s);
  for (; i + lanes <= n; i += lanes) StoreFloatAsHalf(vec_op(LoadHalfAsFloat(a + i), vs), dst + i);
#endif
  for (; i < n; ++i) {
    dst[i] = Half::FromBits(FloatToHalfBits(scalar_op(HalfBitsToFloat(a[i].bits), s)));
  }
}

static_assert(static_cast<int>(ScalarOp::kAdds) == static_cast<int>(BinaryOp::kAdd) &&
              static_cast<int>(ScalarOp::kSubs) == static_cast<int>(BinaryOp::kSub) &&
              static_cast<int>(ScalarOp::kMuls) == static_cast<int>(BinaryOp::kMul) &&
              static_cast<int>(ScalarOp::kDivs) == static_cast<int>(BinaryOp::kDiv) &&
              static_cast<int>(ScalarOp::kMaxs) == static_cast<int>(BinaryOp::kMax) &&
              static_cast<int>(ScalarOp::kMins) == static_cast<int>(BinaryOp::kMin));
template <typename T>
inline void ScalarLanes(ScalarOp op, T* dst, const T* a, float s, size_t n) {
  WithBinaryOp(static_cast<BinaryOp>(op), [&](auto vec_op, auto scalar_op) HWY_ATTR {
    ScalarLoop(dst, a, s, n, vec_op, scalar_op);
  });
}

template <class F, class G>
inline void UnaryLoop(float* dst, const float* a, size_t n, F vec_op, G scalar_op) {
  const hn::ScalableTag<float> d;
  const size_t lanes = hn::Lanes(d);
  size_t i = 0;
  for (; i + lanes <= n; i += lanes) hn::StoreU(vec_op(hn::LoadU(d, a + i)), d, dst + i);
  for (; i < n; ++i) dst[i] = scalar_op(a[i]);
}

template <class F, class G>
inline void UnaryLoop(Half* dst, const Half* a, size_t n, [[maybe_unused]] F vec_op, G scalar_op) {
  size_t i = 0;
#ifdef LNGRAD_HALF_F16C
  const hn::ScalableTag<float> d;
  const size_t lanes = hn::Lanes(d);
  for (; i + lanes <= n; i += lanes) StoreFloatAsHalf(vec_op(LoadHalfAsFloat(a + i)), dst + i);
#endif
  for (; i < n; ++i)
    dst[i] = Half::FromBits(FloatToHalfBits(scalar_op(HalfBitsToFloat(a[i].bits))));
}

// The ops with a SIMD version (SimdUnary); instructions.cpp runs the others as scalar loops.
template <typename T>
inline void UnaryLanes(UnaryOp op, T* dst, const T* a, size_t n) {
  switch (op) {
    case UnaryOp::kSqrt:
      UnaryLoop(
          dst, a, n, [](auto x) HWY_ATTR { return hn::Sqrt(x); },
          [](float x) { return __builtin_sqrtf(x); });
      break;
    case UnaryOp::kAbs:
      UnaryLoop(
          dst, a, n, [](auto x) HWY_ATTR { return hn::Abs(x); },
          [](float x) { return __builtin_fabsf(x); });
      break;
    case UnaryOp::kRelu:
      UnaryLoop(
          dst, a, n,
          [](auto x) HWY_ATTR {
            const auto zero = hn::Zero(hn::DFromV<decltype(x)>());
            return hn::IfThenElse(hn::Gt(x, zero), x, zero);
          },
          [](float x) { return x > 0.0f ? x : 0.0f; });
      break;
    default:
      UnaryLoop(
          dst, a, n,
          [](auto x) HWY_ATTR { return hn::Div(hn::Set(hn::DFromV<decltype(x)>(), 1.0f), x); },
          [](float x) { return 1.0f / x; });
      break;
  }
}

// ---------------------------------------------------------------------------------------------
// Fills, broadcasts and casts.

inline void FillLanes(float* dst, float value, size_t n) {
  const hn::ScalableTag<float> d;
  const size_t lanes = hn::Lanes(d);
  const auto v = hn::Set(d, value);
  size_t i = 0;
  for (; i + lanes <= n; i += lanes) hn::StoreU(v, d, dst + i);
  for (; i < n; ++i) dst[i] = value;
}

inline void FillLanes(Half* dst, Half value, size_t n) {
  const hn::ScalableTag<uint16_t> d;
  const size_t lanes = hn::Lanes(d);
  const auto v = hn::Set(d, value.bits);
  auto* out = reinterpret_cast<uint16_t*>(dst);
  size_t i = 0;
  for (; i + lanes <= n; i += lanes) hn::StoreU(v, d, out + i);
  for (; i < n; ++i) dst[i] = value;
}

inline void BroadcastRowsLanes(float* dst, const float* src, size_t rows, size_t h) {
  for (size_t r = 0; r < rows; ++r) FillLanes(dst + r * h, src[r], h);
}

// F16C conversions (half_lanes-inl.h); targets without F16C keep the scalar loop.
inline void CastHalfToFloatLanes(float* dst, const Half* src, size_t n) {
  size_t i = 0;
#ifdef LNGRAD_HALF_F16C
  const hn::ScalableTag<float> df;
  const size_t lanes = hn::Lanes(df);
  for (; i + lanes <= n; i += lanes) hn::StoreU(LoadHalfAsFloat(src + i), df, dst + i);
#endif
  for (; i < n; ++i) dst[i] = HalfBitsToFloat(src[i].bits);
}

inline void CastFloatToHalfLanes(Half* dst, const float* src, size_t n) {
  size_t i = 0;
#ifdef LNGRAD_HALF_F16C
  const hn::ScalableTag<float> df;
  const size_t lanes = hn::Lanes(df);
  for (; i + lanes <= n; i += lanes) StoreFloatAsHalf(hn::LoadU(df, src + i), dst + i);
#endif
  for (; i < n; ++i) dst[i] = Half::FromBits(FloatToHalfBits(src[i]));
}

// ---------------------------------------------------------------------------------------------
// The reduction tree of WholeReduceSum (spec §1.8), several trees at a time.

constexpr size_t kTreeLanes = kRepeatLanes;

#if HWY_TARGET == HWY_SCALAR
// One lane: nothing to pair within a vector; the scalar tree is this target's version.
inline void TreeSumsLanes(const float* src, size_t stride, uint32_t lanes, size_t count,
                          float* out) {
  for (size_t t = 0; t < count; ++t) out[t] = ScalarTree64(src + t * stride, lanes);
}
#else
using DF = hn::ScalableTag<float>;
using VF = decltype(hn::Zero(DF()));

// One tree level over the 2N floats of lo followed by hi.
HWY_INLINE VF PairLevel(DF d, VF lo, VF hi) {
  return hn::Add(hn::ConcatEven(d, hi, lo), hn::ConcatOdd(d, hi, lo));
}

// The levels over vectors first .. first+K-1 of the stream, depth first: one vector.
template <size_t K, class Load>
HWY_INLINE VF Fold(DF d, const Load& load, size_t first) {
  if constexpr (K == 1) {
    return load(first);
  } else {
    const VF lo = Fold<K / 2>(d, load, first);
    const VF hi = Fold<K / 2>(d, load, first + K / 2);
    return PairLevel(d, lo, hi);
  }
}

// Fold<k> for a run-time k: the powers of two from K up to 32, anything else 64.
template <size_t K = 1, class Load>
HWY_INLINE VF FoldAny(DF d, size_t k, const Load& load) {
  if constexpr (K == 64) {
    return Fold<64>(d, load, 0);
  } else {
    if (k == K) return Fold<K>(d, load, 0);
    return FoldAny<K * 2>(d, k, load);
  }
}

// Vector i of a stream of trees of at least N lanes, tree t at src + t * stride.
struct StridedTrees {
  DF d;
  const float* src;
  size_t stride;
  unsigned per_tree_shift;
  size_t per_tree_mask;
  unsigned lanes_shift;
  HWY_INLINE VF operator()(size_t i) const {
    return hn::LoadU(d,
                     src + (i >> per_tree_shift) * stride + ((i & per_tree_mask) << lanes_shift));
  }
};

// Vector i of a contiguous stream.
struct Contiguous {
  DF d;
  const float* src;
  size_t n;
  HWY_INLINE VF operator()(size_t i) const { return hn::LoadU(d, src + i * n); }
};

// g trees (g a power of two, g <= N) of l lanes (a power of two <= 64), tree t starting at
// src + t * stride; requires l >= N or stride == l, and at least N readable floats from src
// when g * l < N (the staging buffer). All inputs are loaded before out[0..g) is written.
HWY_INLINE void Group(DF d, const float* src, size_t stride, size_t l, size_t g, float* out) {
  const size_t n = hn::Lanes(d);
  const size_t k = g * l < n ? 1 : g * l / n;  // vectors in the (zero-padded) stream
  VF v;
  if (l >= n) {
    // Tree t's vectors are contiguous; l / n and n are powers of two.
    const StridedTrees load{d,         src,
                            stride,    static_cast<unsigned>(std::countr_zero(l / n)),
                            l / n - 1, static_cast<unsigned>(std::countr_zero(n))};
    v = FoldAny(d, k, load);
  } else {
    const Contiguous load{d, src, n};
    v = FoldAny(d, k, load);
  }
  // Levels left: log2(l) in all, log2(k) done by the fold.
  const int levels = std::countr_zero(l) - std::countr_zero(k);
  for (int i = 0; i < levels; ++i) v = PairLevel(d, v, v);
  if (l < kTreeLanes) v = hn::Add(v, hn::Zero(d));
  if (g == n) {
    hn::StoreU(v, d, out);
  } else if (g == 1) {
    *out = hn::GetLane(v);
  } else {
    HWY_ALIGN float lanes[HWY_LANES(float)];
    hn::Store(v, d, lanes);
    for (size_t t = 0; t < g; ++t) out[t] = lanes[t];
  }
}

// g trees staged into a zero-padded buffer of l-lane slots (at least N floats).
HWY_INLINE void StagedGroup(DF d, const float* src, size_t stride, uint32_t lanes, size_t l,
                            size_t g, float* out) {
  HWY_ALIGN float stage[HWY_LANES(float) * kTreeLanes];
  const size_t n = hn::Lanes(d);
  const size_t used = g * l < n ? n : g * l;
  std::memset(stage, 0, used * sizeof(float));
  for (size_t t = 0; t < g; ++t)
    std::memcpy(stage + t * l, src + t * stride, lanes * sizeof(float));
  Group(d, stage, l, l, g, out);
}

inline void TreeSumsLanes(const float* src, size_t stride, uint32_t lanes, size_t count,
                          float* out) {
  const DF d;
  const size_t n = hn::Lanes(d);
  if (lanes > kTreeLanes) lanes = kTreeLanes;
  if (lanes == 0) {
    for (size_t t = 0; t < count; ++t) out[t] = 0.0f;
    return;
  }
  const size_t l = std::bit_ceil(lanes);
  const bool direct = lanes == l && (l >= n || stride == l);
  const auto group = [&](size_t first, size_t g) HWY_ATTR {
    const float* s = src + first * stride;
    if (direct && g * l >= n) {
      Group(d, s, stride, l, g, out + first);
    } else {
      StagedGroup(d, s, stride, lanes, l, g, out + first);
    }
  };
  size_t t = 0;
  for (; t + n <= count; t += n) group(t, n);
  for (size_t g = n / 2; g >= 1; g /= 2) {
    if ((count - t) & g) {
      group(t, g);
      t += g;
    }
  }
}
#endif  // HWY_TARGET == HWY_SCALAR

// The passes of one row: the first reads `row`, the later ones read `partials` and write it
// too (a group's sums land at or before the first slot it read, and no later group reads below
// its own first slot); the last pass writes *final_sum. The slots are ScalarReduceSumRows'.
inline void ReduceRowLanes(const float* row, uint32_t h, float* partials, float* final_sum) {
  const float* pass_src = row;
  uint32_t total = h;
  while (total > 1) {
    const uint32_t repeats = total / kTreeLanes;
    const uint32_t tail = total % kTreeLanes;
    if (repeats > 0) {
      TreeSumsLanes(pass_src, kTreeLanes, kTreeLanes, repeats,
                    total == kTreeLanes ? final_sum : partials);
    }
    if (tail > 0) {
      TreeSumsLanes(pass_src + uint64_t{repeats} * kTreeLanes, kTreeLanes, tail, 1,
                    total < kTreeLanes ? final_sum : partials + repeats);
    }
    total = (total + kTreeLanes - 1) / kTreeLanes;
    pass_src = partials;
  }
}

// ReduceSumImpl (spec §1.8) with the trees above, row by row.
inline void ReduceSumRowsLanes(float* dst, const float* src, uint32_t cal, uint32_t h) {
#if HWY_TARGET == HWY_SCALAR
  ScalarReduceSumRows(dst, src, cal, h);
#else
  const uint32_t count = cal / h;
  if (count == 0 || h <= 1) return;
  if (h < kTreeLanes) {
    // One tree per row, result in dst[i]: the rows are independent and dst does not overlap
    // src, so all rows go at once.
    TreeSumsLanes(src, h, h, count, dst);
    return;
  }
  for (uint32_t i = 0; i < count; ++i) {
    const uint64_t base = uint64_t{i} * h;
    ReduceRowLanes(src + base, h, dst + base, dst + i);
  }
#endif
}

}  // namespace HWY_NAMESPACE
}  // namespace lngrad::aicore
HWY_AFTER_NAMESPACE();

#endif  // per-target include guard
