// Row kernels of the high-level APIs with Highway (compiled once per target by foreach_target,
// chosen at run time): LayerNormGrad's fused vector-path rows and LayerNorm's 64-lane fold,
// built on the instruction set's loops, reduction trees and half codec (instructions-inl.h),
// with the same float operations in the same order as the APIs' step-by-step path.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "row_kernels.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include <cmath>

#include "lngrad_aicore/instructions-inl.h"
#include "row_kernels.h"

HWY_BEFORE_NAMESPACE();
namespace lngrad::adv::detail {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
// The instruction set's per-target loops and trees.
using aicore::HWY_NAMESPACE::CastFloatToHalfLanes;
using aicore::HWY_NAMESPACE::CastHalfToFloatLanes;
using aicore::HWY_NAMESPACE::kTreeLanes;
using aicore::HWY_NAMESPACE::ReduceRowLanes;
#if HWY_TARGET != HWY_SCALAR
using aicore::HWY_NAMESPACE::Contiguous;
using aicore::HWY_NAMESPACE::DF;
using aicore::HWY_NAMESPACE::Fold;
using aicore::HWY_NAMESPACE::PairLevel;
using aicore::HWY_NAMESPACE::VF;
#endif
#ifdef LNGRAD_HALF_F16C
using aicore::HWY_NAMESPACE::LoadHalfAsFloat;
using aicore::HWY_NAMESPACE::StoreFloatAsHalf;
#endif

template <class T>
HWY_INLINE void GradRow1Lanes(const GradRowPass1& a, size_t i, const T& ops) {
  const auto x1 = ops.Mul(ops.Load(a.dy + i), ops.Load(a.gamma + i));
  const auto x2 = ops.Sub(ops.Load(a.x + i), ops.Set(a.mean));
  const auto b = ops.Mul(x1, ops.Mul(x2, ops.Set(a.rstd3)));
  const auto x3 = ops.Mul(x1, ops.Set(a.rstd));
  ops.Store(x2, a.x2 + i);
  ops.Store(ops.Mul(x2, ops.Set(a.rstd)), a.res + i);
  ops.Store(x3, a.x3 + i);
  ops.Store(ops.Mul(b, ops.Set(a.k_half)), a.p1 + i);
  ops.Store(ops.Mul(x3, ops.Set(a.k_neg1)), a.p2 + i);
  ops.Store(ops.Mul(x2, ops.Set(a.k_neg2)), a.p3 + i);
}

template <class T>
HWY_INLINE void GradRow2Lanes(const GradRowPass2& a, size_t i, const T& ops) {
  const auto x1 = ops.Add(ops.Mul(ops.Set(a.pd_var), ops.Load(a.x2 + i)), ops.Set(a.pd_mean));
  ops.Store(x1, a.x1 + i);
  ops.Store(ops.Add(x1, ops.Load(a.x3 + i)), a.pd_x + i);
  ops.Store(ops.Set(a.pd_mean), a.bsh + i);
}

// The same lane code on Highway vectors and on single floats (the columns after the last
// full vector): one IEEE operation per step either way.
struct VecLanes {
  hn::ScalableTag<float> d;
  HWY_INLINE auto Load(const float* p) const { return hn::LoadU(d, p); }
  HWY_INLINE void Store(decltype(hn::Zero(d)) v, float* p) const { hn::StoreU(v, d, p); }
  HWY_INLINE auto Set(float v) const { return hn::Set(d, v); }
  template <class V>
  HWY_INLINE V Add(V a, V b) const {
    return hn::Add(a, b);
  }
  template <class V>
  HWY_INLINE V Sub(V a, V b) const {
    return hn::Sub(a, b);
  }
  template <class V>
  HWY_INLINE V Mul(V a, V b) const {
    return hn::Mul(a, b);
  }
};
struct OneLane {
  HWY_INLINE float Load(const float* p) const { return *p; }
  HWY_INLINE void Store(float v, float* p) const { *p = v; }
  HWY_INLINE float Set(float v) const { return v; }
  HWY_INLINE float Add(float a, float b) const { return a + b; }
  HWY_INLINE float Sub(float a, float b) const { return a - b; }
  HWY_INLINE float Mul(float a, float b) const { return a * b; }
};

// The row of `pass` in whole vectors, then lane by lane: row_lanes(a, i, VecLanes or OneLane).
template <class Pass, class RowLanes>
HWY_INLINE void ForRowLanes(const Pass& pass, const RowLanes& row_lanes) {
  const Pass a = pass;  // in registers (GradRow1TreesImpl says why)
  const VecLanes v;
  const size_t lanes = hn::Lanes(v.d);
  size_t i = 0;
  for (; i + lanes <= a.h; i += lanes) row_lanes(a, i, v);
  for (; i < a.h; ++i) row_lanes(a, i, OneLane());
}

void GradRow1Row(const GradRowPass1& pass) {
  ForRowLanes(pass, [](const GradRowPass1& a, size_t i, const auto& ops)
                        HWY_ATTR { GradRow1Lanes(a, i, ops); });
}

void GradRow2Row(const GradRowPass2& pass) {
  ForRowLanes(pass, [](const GradRowPass2& a, size_t i, const auto& ops)
                        HWY_ATTR { GradRow2Lanes(a, i, ops); });
}

// Fixed-width targets only (Lanes(d) == HWY_LANES(float), a power of two <= 64): the tree
// shapes below are compile-time. Scalable and one-lane targets store the rows and reduce them.
#if HWY_TARGET != HWY_SCALAR && !HWY_HAVE_SCALABLE
#define LNGRAD_ADV_ROW_TREES 1
constexpr size_t kPerTree = kTreeLanes / HWY_LANES(float);  // vectors per 64-lane repeat
static_assert(kPerTree >= 1 && kTreeLanes % HWY_LANES(float) == 0);

// GradRowPass1 with the three product rows reduced in registers (docs/math.md §8.3): the
// products of one vector of the row are the leaves of the first-pass trees; Fold's depth-first
// levels over a group of 64 vectors (N whole repeats, N = lanes) leave lane t = repeat t's
// tree sum, the same additions in the same order as TreeSumsLanes / ScalarTree64 over the
// stored row. Only x2, res and x3 are stored per element.
struct Prod3 {
  VF p1, p2, p3;
};

HWY_INLINE Prod3 PairLevel3(DF d, const Prod3& lo, const Prod3& hi) {
  return Prod3{PairLevel(d, lo.p1, hi.p1), PairLevel(d, lo.p2, hi.p2), PairLevel(d, lo.p3, hi.p3)};
}

// Where a row's dy and x come from: float rows, or (F16C targets) half rows widened in
// registers with the row casts' instructions, x's float row stored where the cast puts it
// (tmpTensor1) and res_for_gamma narrowed next to its float store.
struct FloatIn {
  static constexpr bool kHalf = false;
  const float* dy;
  const float* x;
  HWY_INLINE VF Dy(DF d, size_t i) const { return hn::LoadU(d, dy + i); }
  HWY_INLINE VF X(DF d, size_t i) const { return hn::LoadU(d, x + i); }
  HWY_INLINE void Res(VF, size_t) const {}
};
#ifdef LNGRAD_HALF_F16C
struct HalfIn {
  static constexpr bool kHalf = true;
  const Half* dy;
  const Half* x;
  float* x_f;
  Half* res_h;
  HWY_INLINE VF Dy(DF, size_t i) const { return LoadHalfAsFloat(dy + i); }
  HWY_INLINE VF X(DF d, size_t i) const {
    const VF v = LoadHalfAsFloat(x + i);
    hn::StoreU(v, d, x_f + i);
    return v;
  }
  HWY_INLINE void Res(VF v, size_t i) const { StoreFloatAsHalf(v, res_h + i); }
};
#endif

// GradRow1Lanes for one vector at column i, the products returned instead of stored.
template <class In>
HWY_INLINE Prod3 Row1Vector(DF d, const GradRowPass1& a, const In& in, size_t i) {
  const VF x1 = hn::Mul(in.Dy(d, i), hn::LoadU(d, a.gamma + i));
  const VF x2 = hn::Sub(in.X(d, i), hn::Set(d, a.mean));
  const VF b = hn::Mul(x1, hn::Mul(x2, hn::Set(d, a.rstd3)));
  const VF x3 = hn::Mul(x1, hn::Set(d, a.rstd));
  const VF res = hn::Mul(x2, hn::Set(d, a.rstd));
  hn::StoreU(x2, d, a.x2 + i);
  hn::StoreU(res, d, a.res + i);
  in.Res(res, i);
  hn::StoreU(x3, d, a.x3 + i);
  return Prod3{hn::Mul(b, hn::Set(d, a.k_half)), hn::Mul(x3, hn::Set(d, a.k_neg1)),
               hn::Mul(x2, hn::Set(d, a.k_neg2))};
}

// The levels over the K vectors starting at column i, depth first.
template <size_t K, class In>
HWY_INLINE Prod3 FoldRow1(DF d, const GradRowPass1& a, const In& in, size_t i) {
  if constexpr (K == 1) {
    return Row1Vector(d, a, in, i);
  } else {
    const Prod3 lo = FoldRow1<K / 2>(d, a, in, i);
    const Prod3 hi = FoldRow1<K / 2>(d, a, in, i + K / 2 * hn::Lanes(d));
    return PairLevel3(d, lo, hi);
  }
}

// One tree's vector after the levels within its 64 lanes (one vector per 64 lanes) reduced
// to its sum by pairing the vector with itself (Group's remaining levels).
HWY_INLINE float FinishTree(DF d, VF v) {
  for (size_t w = hn::Lanes(d); w > 1; w /= 2) v = PairLevel(d, v, v);
  return hn::GetLane(v);
}

#if HWY_TARGET <= HWY_AVX3
#define LNGRAD_ADV_BLOCK_TREES 1
// AVX-512 (16 lanes, four 128-bit blocks): the same tree levels with shuffles inside the blocks
// (vshufps) and of whole blocks (vshuff32x4) instead of ConcatEven/ConcatOdd's two-source
// permutes. Every level adds the same two operands, the lower-column one on the left; only the
// lanes that hold the partial sums differ, until a final transpose. Fewer and cheaper shuffle
// uops, and no index registers to keep (bench/README: 4-11 % off the Ascend C path).
//
// Adjacent lanes of each block: block b of the result is lo's pair sums 2b, 2b+1 then hi's.
HWY_INLINE VF PairInBlocks(VF lo, VF hi) {
  return hn::Add(VF{_mm512_shuffle_ps(lo.raw, hi.raw, _MM_SHUFFLE(2, 0, 2, 0))},
                 VF{_mm512_shuffle_ps(lo.raw, hi.raw, _MM_SHUFFLE(3, 1, 3, 1))});
}
// Adjacent blocks: the result's blocks are lo's blocks 0+1, 2+3, then hi's.
HWY_INLINE VF PairBlocks(VF lo, VF hi) {
  return hn::Add(VF{_mm512_shuffle_f32x4(lo.raw, hi.raw, _MM_SHUFFLE(2, 0, 2, 0))},
                 VF{_mm512_shuffle_f32x4(lo.raw, hi.raw, _MM_SHUFFLE(3, 1, 3, 1))});
}
HWY_INLINE Prod3 PairInBlocks3(const Prod3& lo, const Prod3& hi) {
  return Prod3{PairInBlocks(lo.p1, hi.p1), PairInBlocks(lo.p2, hi.p2), PairInBlocks(lo.p3, hi.p3)};
}
HWY_INLINE Prod3 PairBlocks3(const Prod3& lo, const Prod3& hi) {
  return Prod3{PairBlocks(lo.p1, hi.p1), PairBlocks(lo.p2, hi.p2), PairBlocks(lo.p3, hi.p3)};
}

// Vectors v .. v+3 from column i: block b, lane k = vector v+k's sum of lanes 4b .. 4b+3
// (tree levels 1 and 2).
template <class In>
HWY_INLINE Prod3 QuadSums(DF d, const GradRowPass1& a, const In& in, size_t i) {
  constexpr size_t n = HWY_LANES(float);
  const Prod3 lo = PairInBlocks3(Row1Vector(d, a, in, i), Row1Vector(d, a, in, i + n));
  const Prod3 hi = PairInBlocks3(Row1Vector(d, a, in, i + 2 * n), Row1Vector(d, a, in, i + 3 * n));
  return PairInBlocks3(lo, hi);
}

// Sixteen vectors from column i: lane k = vector k's sum over its 16 lanes (levels 1 to 4).
// Level 3 turns the quad sums of vectors 0..3 and 4..7 into their sums over lanes 0-7 (blocks
// 0 and 2) and 8-15 (blocks 1 and 3); level 4 adds those halves.
template <class In>
HWY_INLINE Prod3 VectorSums(DF d, const GradRowPass1& a, const In& in, size_t i) {
  constexpr size_t n = HWY_LANES(float);
  const Prod3 lo = PairBlocks3(QuadSums(d, a, in, i), QuadSums(d, a, in, i + 4 * n));
  const Prod3 hi = PairBlocks3(QuadSums(d, a, in, i + 8 * n), QuadSums(d, a, in, i + 12 * n));
  return PairBlocks3(lo, hi);
}

// Four vectors' sums per 64-lane repeat (levels 5 and 6) over two rounds of in-block pairs:
// from the per-vector sums of repeats 4q .. 4q+3 in s[q], block b, lane q = repeat 4q + b.
HWY_INLINE VF RepeatLevels(VF s0, VF s1, VF s2, VF s3) {
  return PairInBlocks(PairInBlocks(s0, s1), PairInBlocks(s2, s3));
}
// Lane 4b + q -> lane 4q + b: the repeats in column order.
HWY_INLINE VF RepeatOrder(DF d, VF v) {
  alignas(64) static constexpr int32_t kTranspose[16] = {0, 4, 8,  12, 1, 5, 9,  13,
                                                         2, 6, 10, 14, 3, 7, 11, 15};
  return hn::TableLookupLanes(v, hn::SetTableIndices(d, kTranspose));
}
#endif  // HWY_TARGET <= HWY_AVX3

// h > 64. s1/s2/s3 receive the first pass's sums of p1/p2/p3: h/64 full repeats, then the
// tail repeat (h % 64 lanes, the masked lanes +0) when there is one.
// Half (HalfIn): a.x is the float x row (tmpTensor1), a.dy is not read.
template <class In>
void GradRow1TreesImpl(const GradRowPass1& pass, const In& row_in, float* s1, float* s2,
                       float* s3) {
  // Local copies (kept in registers): Highway's vector stores may alias any memory, so fields
  // read through the references were reloaded, and the scalars broadcast again, after every
  // store (the AVX-512 half kernel had 19 % more instructions).
  const GradRowPass1 a = pass;
  const In in = row_in;
  const DF d;
  const size_t n = hn::Lanes(d);
  const size_t h = a.h;
  const size_t repeats = h / kTreeLanes;
  size_t j = 0;
  // Groups of N repeats: 64 vectors, one tree per lane. (Fold<64> inlined whole: splitting it
  // at the repeats with the repeat vectors staged in memory gives smaller code, but measured
  // slower for float, bench_adv 8x1024 about +10 %.)
  for (; j + n <= repeats; j += n) {
#ifdef LNGRAD_ADV_BLOCK_TREES
    const size_t c = j * kTreeLanes;
    const Prod3 q0 = VectorSums(d, a, in, c);
    const Prod3 q1 = VectorSums(d, a, in, c + kTreeLanes * 4);
    const Prod3 q2 = VectorSums(d, a, in, c + kTreeLanes * 8);
    const Prod3 q3 = VectorSums(d, a, in, c + kTreeLanes * 12);
    const Prod3 v{RepeatOrder(d, RepeatLevels(q0.p1, q1.p1, q2.p1, q3.p1)),
                  RepeatOrder(d, RepeatLevels(q0.p2, q1.p2, q2.p2, q3.p2)),
                  RepeatOrder(d, RepeatLevels(q0.p3, q1.p3, q2.p3, q3.p3))};
#else
    const Prod3 v = FoldRow1<kTreeLanes>(d, a, in, j * kTreeLanes);
#endif
    hn::StoreU(v.p1, d, s1 + j);
    hn::StoreU(v.p2, d, s2 + j);
    hn::StoreU(v.p3, d, s3 + j);
  }
#ifdef LNGRAD_ADV_BLOCK_TREES
  // Four repeats at a time: lane 4b = repeat b's sum after two more in-block levels.
  for (; j + 4 <= repeats; j += 4) {
    const Prod3 q = VectorSums(d, a, in, j * kTreeLanes);
    HWY_ALIGN float lanes[3][HWY_LANES(float)];
    hn::Store(RepeatLevels(q.p1, q.p1, q.p1, q.p1), d, lanes[0]);
    hn::Store(RepeatLevels(q.p2, q.p2, q.p2, q.p2), d, lanes[1]);
    hn::Store(RepeatLevels(q.p3, q.p3, q.p3, q.p3), d, lanes[2]);
    for (size_t b = 0; b < 4; ++b) {
      s1[j + b] = lanes[0][4 * b];
      s2[j + b] = lanes[1][4 * b];
      s3[j + b] = lanes[2][4 * b];
    }
  }
#endif
  // Remaining repeats one at a time: 64 / N vectors, then the levels within the vector.
  for (; j < repeats; ++j) {
    const Prod3 v = FoldRow1<kPerTree>(d, a, in, j * kTreeLanes);
    s1[j] = FinishTree(d, v.p1);
    s2[j] = FinishTree(d, v.p2);
    s3[j] = FinishTree(d, v.p3);
  }
  const size_t tail = h % kTreeLanes;
  if (tail == 0) return;
  // The tail repeat: its products staged in 64 lanes of +0 (the masked lanes), then the tree.
  HWY_ALIGN float stage[3][kTreeLanes] = {};
  const size_t at = repeats * kTreeLanes;
  GradRowPass1 t = a;
  t.p1 = stage[0];
  t.p2 = stage[1];
  t.p3 = stage[2];
  // GradRow1Lanes indexes every row with the same column: shift the rows to the tail.
  HWY_ALIGN float dy_stage[kTreeLanes];
  if constexpr (In::kHalf) {
    // The tail's casts element by element (the same bits as the vector casts).
    for (size_t k = 0; k < tail; ++k) {
      dy_stage[k] = HalfBitsToFloat(in.dy[at + k].bits);
      in.x_f[at + k] = HalfBitsToFloat(in.x[at + k].bits);
    }
    t.dy = dy_stage;
  } else {
    t.dy += at;
  }
  t.x += at;
  t.gamma += at;
  t.x2 += at;
  t.res += at;
  t.x3 += at;
  size_t i = 0;
  for (; i + n <= tail; i += n) GradRow1Lanes(t, i, VecLanes());
  for (; i < tail; ++i) GradRow1Lanes(t, i, OneLane());
  if constexpr (In::kHalf) {
    for (size_t k = 0; k < tail; ++k) in.res_h[at + k] = Half::FromBits(FloatToHalfBits(t.res[k]));
  }
  float* out[3] = {s1 + repeats, s2 + repeats, s3 + repeats};
  for (size_t k = 0; k < 3; ++k) {
    const Contiguous load{d, stage[k], n};
    *out[k] = FinishTree(d, Fold<kPerTree>(d, load, 0));
  }
}
#endif  // LNGRAD_ADV_ROW_TREES

#if defined(LNGRAD_ADV_ROW_TREES) && defined(LNGRAD_HALF_F16C)
#define LNGRAD_ADV_FUSED_CASTS 1
// GradRow2Row with pd_x also narrowed to half from the register (the row cast's instructions).
void GradRow2RowHalf(const GradRowPass2& pass, Half* pd_x_h) {
  const GradRowPass2 a = pass;  // in registers (GradRow1TreesImpl says why)
  const DF d;
  const size_t n = hn::Lanes(d);
  const VF pd_var = hn::Set(d, a.pd_var);
  const VF pd_mean = hn::Set(d, a.pd_mean);
  size_t i = 0;
  for (; i + n <= a.h; i += n) {
    const VF x1 = hn::Add(hn::Mul(pd_var, hn::LoadU(d, a.x2 + i)), pd_mean);
    const VF pd_x = hn::Add(x1, hn::LoadU(d, a.x3 + i));
    hn::StoreU(x1, d, a.x1 + i);
    hn::StoreU(pd_x, d, a.pd_x + i);
    StoreFloatAsHalf(pd_x, pd_x_h + i);
    hn::StoreU(pd_mean, d, a.bsh + i);
  }
  for (; i < a.h; ++i) {
    GradRow2Lanes(a, i, OneLane());
    pd_x_h[i] = Half::FromBits(FloatToHalfBits(a.pd_x[i]));
  }
}
#endif

// LayerNormReduceSumImpl's fold (layernorm.cpp, FoldReduce): row[l] = row[k*64 + l] + row[l]
// for k = 1 .. h/64 - 1, then row[l] = row[h - tail + l] + row[l] for l < tail, one lane
// after the other instead of one 64-lane Add per k: each lane sees the same additions in the
// same order, and no Add reads what another writes (only row[0..64) is written; h > 64).
void FoldRowsSimd(float* src, size_t rows, size_t h) {
  const hn::ScalableTag<float> d;
  const size_t n = hn::Lanes(d);
  const size_t adds = h / kTreeLanes - 1;
  const size_t tail = h % kTreeLanes;
  for (size_t r = 0; r < rows; ++r) {
    float* row = src + r * h;
    for (size_t l0 = 0; l0 < kTreeLanes; l0 += n) {
      auto acc = hn::LoadU(d, row + l0);
      for (size_t k = 1; k <= adds; ++k)
        acc = hn::Add(hn::LoadU(d, row + k * kTreeLanes + l0), acc);
      if (l0 + n <= tail) acc = hn::Add(hn::LoadU(d, row + (h - tail) + l0), acc);
      hn::StoreU(acc, d, row + l0);
    }
    for (size_t l = tail / n * n; l < tail; ++l) row[l] = row[h - tail + l] + row[l];
  }
}

// The row loop of the fused vector-path LayerNormGrad (layernormgrad.cpp, RowFusedChunk).
void FusedGradRowsSimd(const FusedGradArgs& c) {
  const uint32_t h = c.h;
  const size_t part = h / kTreeLanes + 2;
  float* p1 = c.priv;
  float* p2 = p1 + h;
  float* p3 = p2 + h;
  float* t_part = p3 + h;
  float* dy_f = t_part + part;
  const bool half = c.dy_h != nullptr;
  // Half rows converted inside the row kernels instead of by row casts (same instructions).
#ifdef LNGRAD_ADV_FUSED_CASTS
  const bool fused_casts = half && h > kTreeLanes;
#else
  const bool fused_casts = false;
#endif
  for (uint32_t r = 0; r < c.rows; ++r) {
    const uint64_t at = uint64_t{r} * h;
    const float v = half ? HalfBitsToFloat(c.var_h[r].bits) : c.var[r];
    const float mean = half ? HalfBitsToFloat(c.mean_h[r].bits) : c.mean[r];
    // ComputePdVar's and ComputePdMean's per-row sequences.
    float v1 = v + c.eps;
    const float v2 = v1 * v1;
    float v3 = v2 * v1;
    v3 = std::sqrt(v3);
    const float rstd3 = 1.0f / v3;
    v1 = v + c.eps;
    v1 = std::sqrt(v1);
    const float rstd = 1.0f / v1;
    const float* dy_row = nullptr;
    const float* x_row;
    if (half && fused_casts) {
      x_row = c.tmp1 + at;  // written by GradRow1TreesImpl (HalfIn)
    } else if (half) {
      CastHalfToFloatLanes(dy_f, c.dy_h + at, h);
      CastHalfToFloatLanes(c.tmp1 + at, c.x_h + at, h);
      dy_row = dy_f;
      x_row = c.tmp1 + at;
    } else {
      dy_row = c.dy + at;
      x_row = c.x + at;
    }
    const GradRowPass1 pass1{dy_row,    x_row,      c.gamma,   mean,    rstd3, rstd,
                             c.x2 + at, c.res + at, c.x3 + at, p1,      p2,    p3,
                             h,         c.k_half,   c.k_neg1,  c.k_neg2};
    float t_sum = 0.0f;
#ifdef LNGRAD_ADV_ROW_TREES
    if (h > kTreeLanes) {
      // The first pass in registers; its sums land in the partial slots ReduceRow's first
      // pass writes, and the later passes (from those slots, ceil(h/64) values) are ReduceRow's.
#ifdef LNGRAD_ADV_FUSED_CASTS
      if (half) {
        GradRow1TreesImpl(pass1, HalfIn{c.dy_h + at, c.x_h + at, c.tmp1 + at, c.res_h + at},
                          c.pd_var + at, c.pd_mean + at, t_part);
      } else
#endif
      {
        GradRow1TreesImpl(pass1, FloatIn{dy_row, x_row}, c.pd_var + at, c.pd_mean + at, t_part);
      }
      const uint32_t first = (h + kTreeLanes - 1) / kTreeLanes;
      ReduceRowLanes(c.pd_var + at, first, c.pd_var + at, c.pd_var + r);
      ReduceRowLanes(c.pd_mean + at, first, c.pd_mean + at, c.pd_mean + r);
      ReduceRowLanes(t_part, first, t_part, &t_sum);
    } else
#endif
    {
      GradRow1Row(pass1);
      ReduceRowLanes(p1, h, c.pd_var + at, c.pd_var + r);
      ReduceRowLanes(p2, h, c.pd_mean + at, c.pd_mean + r);
      ReduceRowLanes(p3, h, t_part, &t_sum);
    }
    const float pv = c.pd_var[r];
    t_sum = t_sum * c.one_over_n;
    t_sum = pv * t_sum;
    float pm = c.pd_mean[r] + t_sum;
    const float pv2 = pv * c.two_over_n;
    pm = pm * c.one_over_n;
    c.pd_var[r] = pv2;
    c.pd_mean[r] = pm;
    const GradRowPass2 pass2{c.x2 + at, c.x3 + at, pv2, pm, c.x1 + at, c.pd_x + at, c.bsh + at, h};
#ifdef LNGRAD_ADV_FUSED_CASTS
    if (fused_casts) {
      GradRow2RowHalf(pass2, c.pd_x_h + at);
      continue;
    }
#endif
    GradRow2Row(pass2);
    if (half) {
      CastFloatToHalfLanes(c.pd_x_h + at, c.pd_x + at, h);
      CastFloatToHalfLanes(c.res_h + at, c.res + at, h);
    }
  }
}

#undef LNGRAD_ADV_ROW_TREES
#undef LNGRAD_ADV_BLOCK_TREES
#undef LNGRAD_ADV_FUSED_CASTS
#undef LNGRAD_HALF_F16C

}  // namespace HWY_NAMESPACE
}  // namespace lngrad::adv::detail
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace lngrad::adv::detail {

HWY_EXPORT(FusedGradRowsSimd);
HWY_EXPORT(FoldRowsSimd);

void FoldRows(float* src, size_t rows, size_t h) {
  HWY_DYNAMIC_DISPATCH(FoldRowsSimd)(src, rows, h);
}

void FusedGradRows(const FusedGradArgs& c) { HWY_DYNAMIC_DISPATCH(FusedGradRowsSimd)(c); }

}  // namespace lngrad::adv::detail
#endif  // HWY_ONCE
