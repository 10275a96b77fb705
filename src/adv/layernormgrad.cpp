// LayerNormGrad on the simulated device: the vector path of arch 2002/2201 (spec §1.5-§1.10)
// and the register path of arch 3510 (spec §1.13). Every step below is one device instruction;
// the comments give the spec step it reproduces.
#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <string>
#include <type_traits>
#include <initializer_list>
#include <vector>

#include "operands.h"

namespace lngrad::adv {
namespace {

using detail::kRepeatLanes;
using detail::LoadLanes;
using detail::Ops;

constexpr const char* kApi = "LayerNormGrad";

// One chunk of the row loop (§1.6): element offset, row offset, elements and rows.
struct Chunk {
  uint64_t off0;
  uint64_t off1;
  uint32_t cal;
  uint32_t rows;
};

// The chunks whose extents bound all others: the last full chunk and the tail. Full chunks
// share their sizes, so the last one reaches furthest.
template <class F>
void ForBoundingChunks(const LayerNormGradTiling& t, F f) {
  if (t.loopNum > 0) {
    const uint64_t k = t.loopNum - 1;
    f(Chunk{k * t.oneCalSize, k * t.nohCalSize, t.oneCalSize, t.nohCalSize});
  }
  if (t.tailSize != 0) {
    f(Chunk{uint64_t{t.loopNum} * t.oneCalSize, uint64_t{t.loopNum} * t.nohCalSize, t.tailSize,
            t.nohTailSize});
  }
}

bool IsAligned32(uint32_t h, bool is_half) { return h % (is_half ? 16u : 8u) == 0; }

Status CheckShape(const LayerNormGradTiling& t, bool is_half) {
  if (t.hLength == 0) {
    return Status::InvalidArgument(std::string(kApi) +
                                   ": tiling.hLength is 0 (error shape for layernormgrad)");
  }
  if (!IsAligned32(t.hLength, is_half)) {
    return Status::InvalidArgument(
        std::string(kApi) + ": tiling.hLength = " + std::to_string(t.hLength) +
        " is not 32-byte aligned for T (must be a multiple of " + (is_half ? "16" : "8") + ")");
  }
  return Status::Ok();
}

// ------------------------------------------------------------------------------------------
// Vector path (2002/2201).

void VectorFootprint(const LayerNormGradTiling& t, bool is_half, bool reuse,
                     LayerNormGradFootprint* f) {
  const uint64_t h = t.hLength;
  const bool float_reuse = reuse && !is_half;
  auto upd = [](uint64_t& v, uint64_t e) { v = std::max(v, e); };
  ForBoundingChunks(t, [&](const Chunk& c) {
    const uint64_t cal = c.cal;
    const uint64_t rows = c.rows;
    const uint64_t rows_h = rows * h;
    const uint64_t red = detail::ReduceSumRowsExtent(cal, h);
    const uint64_t x1_ext = std::max(rows_h, cal);
    if (rows > 0) upd(f->inputGamma, h);
    upd(f->inputVariance, c.off1 + rows);
    upd(f->inputMean, c.off1 + rows);
    upd(f->resForGamma, c.off0 + cal);
    upd(f->inputX, c.off0 + cal);
    auto scratch = [&](uint32_t pos, uint64_t ext) {
      if (ext > 0) upd(f->scratch, uint64_t{pos} + ext);
    };
    scratch(t.tmpTensorBSHPos, std::max({cal, rows_h, rows, uint64_t{8}}));
    scratch(t.pdVarTensorPos, std::max(rows, red));
    scratch(t.pdMeanTensorPos, std::max(rows, red));
    scratch(t.x3TensorPos, cal);
    if (is_half) {
      upd(f->inputDy, c.off0 + cal);
      upd(f->outputPdX, c.off0 + cal);
      scratch(t.x1TensorPos, x1_ext);
      scratch(t.x2TensorPos, cal);
      scratch(t.tmpTensorPos, std::max({rows, red, cal}));
      scratch(t.tmpTensor1Pos, std::max({cal, rows_h, rows}));
      scratch(t.tmpTensor2Pos, std::max({h, rows, cal}));
    } else {
      upd(f->inputDy, c.off0 + (float_reuse ? x1_ext : rows_h));
      upd(f->outputPdX, c.off0 + std::max({cal, rows, red}));
      if (!float_reuse) {
        scratch(t.x1TensorPos, x1_ext);
        scratch(t.x2TensorPos, cal);
      }
    }
  });
}

// Float views of one chunk's working tensors (§1.5).
struct ChunkTensors {
  float* bsh;
  float* pd_var;
  float* pd_mean;
  float* x1;
  float* x2;
  float* x3;
  float* tmp;
};

// Step 1 – ComputePdX1: x1 = dy * gamma, row by row.
void ComputePdX1(const Ops& ops, const ChunkTensors& w, const float* dy, const float* gamma,
                 uint32_t rows, uint32_t h) {
  for (uint64_t r = 0; r < rows; ++r) ops.Mul(w.x1 + r * h, dy + r * h, gamma, h);
}

// Step 2 – ComputePdX2: x2 = x - bcast(mean).
void ComputePdX2(const Ops& ops, const ChunkTensors& w, const float* x, const float* mean,
                 uint32_t cal, uint32_t rows, uint32_t h) {
  ops.BroadcastRows(w.bsh, mean, rows, h);
  ops.Sub(w.x2, x, w.bsh, cal);
}

// DoOneDiv: one 32-byte block of 1.0 in `ones`, then dst = 1.0 / src over `rows` elements.
void DoOneDiv(const Ops& ops, float* dst, float* ones, const float* src, uint32_t rows) {
  ops.Fill(ones, 1.0f, 8);
  ops.Recip(dst, src, rows);
}

// Step 3 – ComputePdVar: pd_var = sum_H(((x2 * v^-1.5) * x1) * -0.5), v^-1.5 = 1/sqrt((v*v)*v).
void ComputePdVar(const Ops& ops, const ChunkTensors& w, const float* variance, float epsilon,
                  uint32_t cal, uint32_t rows, uint32_t h) {
  ops.Adds(w.tmp, variance, epsilon, rows);
  ops.Mul(w.bsh, w.tmp, w.tmp, rows);
  ops.Mul(w.tmp, w.bsh, w.tmp, rows);
  ops.Sqrt(w.tmp, w.tmp, rows);
  DoOneDiv(ops, w.tmp, w.bsh, w.tmp, rows);
  ops.BroadcastRows(w.bsh, w.tmp, rows, h);
  ops.Mul(w.bsh, w.x2, w.bsh, cal);
  ops.Mul(w.bsh, w.x1, w.bsh, cal);
  ops.Muls(w.bsh, w.bsh, -0.5f, cal);
  ops.ReduceSumRows(w.pd_var, w.bsh, cal, h);
}

// Step 4 – ComputePdMean, including res_for_gamma = x2 * rstd.
void ComputePdMean(const Ops& ops, const ChunkTensors& w, const float* variance,
                   float* res_for_gamma, float epsilon, float one_over_n, uint32_t cal,
                   uint32_t rows, uint32_t h) {
  ops.Adds(w.tmp, variance, epsilon, rows);
  ops.Sqrt(w.tmp, w.tmp, rows);
  DoOneDiv(ops, w.tmp, w.bsh, w.tmp, rows);
  ops.BroadcastRows(w.bsh, w.tmp, rows, h);
  ops.Mul(res_for_gamma, w.x2, w.bsh, cal);
  ops.Mul(w.x3, w.x1, w.bsh, cal);
  ops.Muls(w.bsh, w.x3, -1.0f, cal);
  ops.ReduceSumRows(w.pd_mean, w.bsh, cal, h);
  ops.Muls(w.bsh, w.x2, -2.0f, cal);
  ops.ReduceSumRows(w.tmp, w.bsh, cal, h);
  ops.Muls(w.tmp, w.tmp, one_over_n, rows);
  ops.Mul(w.tmp, w.pd_var, w.tmp, rows);
  ops.Add(w.pd_mean, w.pd_mean, w.tmp, rows);
}

// Step 5 – ComputePdX: pd_x = (((pd_var*2/N) * x2) + pd_mean/N) + x3.
void ComputePdX(const Ops& ops, const ChunkTensors& w, float* output_pd_x, float one_over_n,
                float two_over_n, uint32_t cal, uint32_t rows, uint32_t h) {
  ops.Muls(w.pd_var, w.pd_var, two_over_n, rows);
  ops.BroadcastRows(w.bsh, w.pd_var, rows, h);
  ops.Mul(w.x1, w.bsh, w.x2, cal);
  ops.Muls(w.pd_mean, w.pd_mean, one_over_n, rows);
  ops.BroadcastRows(w.bsh, w.pd_mean, rows, h);
  ops.Add(w.x1, w.x1, w.bsh, cal);
  ops.Add(output_pd_x, w.x1, w.x3, cal);
}

ChunkTensors StackTensors(const LayerNormGradTiling& t, float* s) {
  return ChunkTensors{s + t.tmpTensorBSHPos, s + t.pdVarTensorPos, s + t.pdMeanTensorPos,
                      s + t.x1TensorPos,     s + t.x2TensorPos,    s + t.x3TensorPos,
                      s + t.tmpTensorPos};
}

template <class F>
void ForEachChunk(const LayerNormGradTiling& t, F f) {
  const auto [off0, off1] = detail::ForFullChunks<Chunk>(t.loopNum, t.oneCalSize, t.nohCalSize,
                                                         t.oneCalSize, t.nohCalSize, f);
  if (t.tailSize != 0) f(Chunk{off0, off1, t.tailSize, t.nohTailSize});
}

// ------------------------------------------------------------------------------------------
// Row-fused vector path (SIMD only, Impl::kSimd): the same operations per element as the steps
// above, but one row at a time through all steps, so a chunk is read from memory about twice
// instead of ~20 times. It leaves every buffer with the step-by-step path's final contents:
//  - each element of X1/X2/X3, res_for_gamma, pd_x and the product rows gets the same
//    operations in the same order (GradRowPass1/GradRowPass2, row_kernels.h), each row's sums come
//    from the same trees (ReduceRow) into the same pd_var/pd_mean slots;
//  - what the steps write and later overwrite within the chunk is skipped: bsh holds
//    broadcast(pd_mean/N) over [0, cal) at the end of the steps (its per-row temporaries, the
//    1.0 block and the products lie below cal), pd_x covers the per-row values and the partial
//    sums in the outputPdX chunk (float) or the tmpTensor (half), X1 ends as the pd_x term;
//    for half, tmpTensor1 ends as [variance (rows) | x (from row `rows` on)] and tmpTensor2 as
//    the float res_for_gamma;
//  - the slots pd_var[r] / pd_mean[r] receive their scaled values right after row r's trees:
//    a later row's partial sums start at its own base r'*H > r, so they never reach slot r,
//    and an earlier row's partial sums that land on slot r are overwritten by row r, as in the
//    steps (rows in increasing order in both).
// It runs only where this reasoning holds: cal == rows*H, rows >= 1, and no buffer the chunk
// writes overlaps any other buffer it touches (the steps define the result for overlapping
// operands; a chunk that fails the check runs the steps).

struct ByteRange {
  const void* p;
  uint64_t bytes;
  bool written;
};

bool WrittenRangesAreDisjoint(std::initializer_list<ByteRange> ranges) {
  for (auto a = ranges.begin(); a != ranges.end(); ++a) {
    for (auto b = a + 1; b != ranges.end(); ++b) {
      if (!a->written && !b->written) continue;
      if (a->bytes == 0 || b->bytes == 0) continue;
      const auto pa = reinterpret_cast<uintptr_t>(a->p);
      const auto pb = reinterpret_cast<uintptr_t>(b->p);
      if (pa < pb + b->bytes && pb < pa + a->bytes) return false;
    }
  }
  return true;
}

template <typename T>
ByteRange Span(const T* p, uint64_t n, bool written) {
  return ByteRange{p, n * sizeof(T), written};
}

// Rows shorter than this run faster step by step: the steps batch the short trees across rows,
// the fused loop pays its per-row sequence (two square roots, three trees) row by row
// (bench/README.md, "Row fusion threshold").
constexpr uint32_t kFuseMinH = 128;

// One chunk, fused; false (nothing written) when the chunk does not qualify.
template <typename T>
bool RowFusedChunk(const LayerNormGradTiling& t, const LayerNormGradOperands<T>& o, float epsilon,
                   bool reuse, const Chunk& c, std::vector<float>& priv) {
  constexpr bool kHalf = std::is_same_v<T, Half>;
  const uint32_t h = t.hLength;
  const uint32_t rows = c.rows;
  const uint64_t cal = c.cal;
  if (rows == 0 || cal != uint64_t{rows} * h || h < kFuseMinH) return false;
  const float one_over_n = std::bit_cast<float>(t.lastDimValueBack);
  const float two_over_n = std::bit_cast<float>(t.lastDimValueBackMulTwo);
  float* s = o.scratch.data;
  const ChunkTensors w = StackTensors(t, s);
  const T* dy = o.inputDy.data + c.off0;
  const T* x = o.inputX.data + c.off0;
  const T* mean = o.inputMean.data + c.off1;
  const T* var = o.inputVariance.data + c.off1;
  const uint64_t slots = std::max<uint64_t>(rows, detail::ReduceSumRowsExtent(cal, h));
  float* x1;
  float* x2;
  float* pd_x;  // float pd_x
  float* res;   // float res_for_gamma
  float* tmp1 = s + t.tmpTensor1Pos;
  bool ok;
  if constexpr (kHalf) {
    x1 = w.x1;
    x2 = w.x2;
    pd_x = w.tmp;
    res = s + t.tmpTensor2Pos;
    ok = WrittenRangesAreDisjoint(
        {Span(w.bsh, cal, true), Span(w.pd_var, slots, true), Span(w.pd_mean, slots, true),
         Span(x1, cal, true), Span(x2, cal, true), Span(w.x3, cal, true), Span(pd_x, cal, true),
         Span(res, cal, true), Span(tmp1, cal, true), Span(o.outputPdX.data + c.off0, cal, true),
         Span(o.resForGamma.data + c.off0, cal, true), Span(dy, cal, false), Span(x, cal, false),
         Span(o.inputGamma.data, h, false), Span(mean, rows, false), Span(var, rows, false)});
  } else {
    x1 = reuse ? o.inputDy.data + c.off0 : w.x1;
    x2 = reuse ? o.inputX.data + c.off0 : w.x2;
    pd_x = o.outputPdX.data + c.off0;
    res = o.resForGamma.data + c.off0;
    ok = WrittenRangesAreDisjoint(
        {Span(w.bsh, cal, true), Span(w.pd_var, slots, true), Span(w.pd_mean, slots, true),
         Span(x1, cal, true), Span(x2, cal, true), Span(w.x3, cal, true), Span(pd_x, cal, true),
         Span(res, cal, true), Span(dy, reuse ? 0 : cal, false), Span(x, reuse ? 0 : cal, false),
         Span(o.inputGamma.data, h, false), Span(mean, rows, false), Span(var, rows, false)});
  }
  if (!ok) return false;

  // Private rows: the three product rows (stored only where the first-pass trees are not
  // computed in registers, docs/math.md §8), the third tree's partial sums, for half the float
  // dy row (targets without F16C) and gamma.
  const size_t part = h / kRepeatLanes + 2;
  priv.resize(size_t{5} * h + part);
  float* gamma_f = priv.data() + size_t{4} * h + part;
  // The steps' Muls scalars, read at run time (see GradRowPass1).
  static volatile const float kMulScalars[3] = {-0.5f, -1.0f, -2.0f};
  detail::FusedGradArgs f;
  f.rows = rows;
  f.h = h;
  f.eps = epsilon;
  f.one_over_n = one_over_n;
  f.two_over_n = two_over_n;
  f.k_half = kMulScalars[0];
  f.k_neg1 = kMulScalars[1];
  f.k_neg2 = kMulScalars[2];
  if constexpr (kHalf) {
    detail::CastHalfToFloat(gamma_f, o.inputGamma.data, h);
    f.gamma = gamma_f;
    f.dy_h = dy;
    f.x_h = x;
    f.mean_h = mean;
    f.var_h = var;
    f.tmp1 = tmp1;
    f.pd_x_h = o.outputPdX.data + c.off0;
    f.res_h = o.resForGamma.data + c.off0;
  } else {
    f.gamma = o.inputGamma.data;
    f.dy = dy;
    f.x = x;
    f.mean = mean;
    f.var = var;
  }
  f.x1 = x1;
  f.x2 = x2;
  f.x3 = w.x3;
  f.res = res;
  f.pd_x = pd_x;
  f.bsh = w.bsh;
  f.pd_var = w.pd_var;
  f.pd_mean = w.pd_mean;
  f.priv = priv.data();
  detail::FusedGradRows(f);
  if constexpr (kHalf) detail::CastHalfToFloat(tmp1, var, rows);
  return true;
}

void VectorFloat(const Ops& ops, const LayerNormGradTiling& t,
                 const LayerNormGradOperands<float>& o, float epsilon, bool reuse) {
  const float one_over_n = std::bit_cast<float>(t.lastDimValueBack);
  const float two_over_n = std::bit_cast<float>(t.lastDimValueBackMulTwo);
  const uint32_t h = t.hLength;
  // Kept per thread: the fused rows write these private rows before reading them, and a
  // fresh vector per call cost a zero-filled allocation per tile.
  thread_local std::vector<float> priv;
  ForEachChunk(t, [&](const Chunk& c) {
    if (ops.fuse && RowFusedChunk(t, o, epsilon, reuse, c, priv)) return;
    float* dy = o.inputDy.data + c.off0;
    float* x = o.inputX.data + c.off0;
    ChunkTensors w = StackTensors(t, o.scratch.data);
    // GetTmpTensor: the outputPdX chunk is the per-row scratch; with reuse x1/x2 live in the
    // inputs themselves.
    w.tmp = o.outputPdX.data + c.off0;
    if (reuse) {
      w.x1 = dy;
      w.x2 = x;
    }
    const float* variance = o.inputVariance.data + c.off1;
    ComputePdX1(ops, w, dy, o.inputGamma.data, c.rows, h);
    ComputePdX2(ops, w, x, o.inputMean.data + c.off1, c.cal, c.rows, h);
    ComputePdVar(ops, w, variance, epsilon, c.cal, c.rows, h);
    ComputePdMean(ops, w, variance, o.resForGamma.data + c.off0, epsilon, one_over_n, c.cal, c.rows,
                  h);
    ComputePdX(ops, w, o.outputPdX.data + c.off0, one_over_n, two_over_n, c.cal, c.rows, h);
  });
}

void VectorHalf(const Ops& ops, const LayerNormGradTiling& t, const LayerNormGradOperands<Half>& o,
                float epsilon) {
  const float one_over_n = std::bit_cast<float>(t.lastDimValueBack);
  const float two_over_n = std::bit_cast<float>(t.lastDimValueBackMulTwo);
  const uint32_t h = t.hLength;
  float* s = o.scratch.data;
  float* tmp1 = s + t.tmpTensor1Pos;
  float* tmp2 = s + t.tmpTensor2Pos;
  // Kept per thread: the fused rows write these private rows before reading them, and a
  // fresh vector per call cost a zero-filled allocation per tile.
  thread_local std::vector<float> priv;
  ForEachChunk(t, [&](const Chunk& c) {
    if (ops.fuse && RowFusedChunk(t, o, epsilon, false, c, priv)) return;
    const ChunkTensors w = StackTensors(t, s);
    ops.CastHalfToFloat(tmp1, o.inputDy.data + c.off0, c.cal);
    ops.CastHalfToFloat(tmp2, o.inputGamma.data, h);
    ComputePdX1(ops, w, tmp1, tmp2, c.rows, h);
    ops.CastHalfToFloat(tmp1, o.inputX.data + c.off0, c.cal);
    ops.CastHalfToFloat(tmp2, o.inputMean.data + c.off1, c.rows);
    ComputePdX2(ops, w, tmp1, tmp2, c.cal, c.rows, h);
    ops.CastHalfToFloat(tmp1, o.inputVariance.data + c.off1, c.rows);
    ComputePdVar(ops, w, tmp1, epsilon, c.cal, c.rows, h);
    // tmp2 receives the float res_for_gamma; the float pd_x goes to the stack tmpTensor.
    ComputePdMean(ops, w, tmp1, tmp2, epsilon, one_over_n, c.cal, c.rows, h);
    ComputePdX(ops, w, w.tmp, one_over_n, two_over_n, c.cal, c.rows, h);
    ops.CastFloatToHalf(o.outputPdX.data + c.off0, w.tmp, c.cal);
    ops.CastFloatToHalf(o.resForGamma.data + c.off0, tmp2, c.cal);
  });
}

// ------------------------------------------------------------------------------------------
// Register path (3510): one row at a time, 64-lane chunks, lane-wise accumulation and a final
// in-register tree (docs/ascendc_kernels.md).

void RegBaseFootprint(const LayerNormGradTiling& t, bool is_half, bool reuse,
                      LayerNormGradFootprint* f) {
  const uint64_t rows = uint64_t{t.bLength} * t.sLength;
  const uint64_t h = t.hLength;
  const uint64_t bsh = rows * h;
  f->outputPdX = f->resForGamma = f->inputDy = f->inputX = bsh;
  f->inputVariance = f->inputMean = rows;
  f->inputGamma = rows > 0 ? h : 0;
  f->scratch = 0;
  if (rows > 0 && !(reuse && !is_half)) f->scratch = detail::Ceil8(h) + h;
}

template <typename T>
inline float LoadLane(const T* p, uint64_t i) {
  if constexpr (std::is_same_v<T, float>) {
    return p[i];
  } else {
    return HalfBitsToFloat(p[i].bits);
  }
}

template <typename T>
inline void StoreLanes(const Ops& ops, T* dst, const float* src, uint32_t n) {
  if constexpr (std::is_same_v<T, float>) {
    std::copy(src, src + n, dst);
  } else {
    ops.CastFloatToHalf(dst, src, n);
  }
}

// x1Tmp / x2Tmp are scratch rows, or the first row of inputDy / inputX for float + reuse (the
// device does not offset them by the row, so every row reuses the first one).
template <typename T>
void RegBase(const Ops& ops, const LayerNormGradTiling& t, const LayerNormGradOperands<T>& o,
             float epsilon, float* x1_tmp, float* x2_tmp) {
  const float one_over_h = std::bit_cast<float>(t.lastDimValueBack);
  const float two_over_h = std::bit_cast<float>(t.lastDimValueBackMulTwo);
  const uint32_t h = t.hLength;
  const uint64_t rows = uint64_t{t.bLength} * t.sLength;
  const uint32_t chunks = static_cast<uint32_t>(detail::CeilDiv(h, kRepeatLanes));
  const uint32_t reduce_lanes = std::min(h, kRepeatLanes);

  float dy[kRepeatLanes], x[kRepeatLanes], gamma[kRepeatLanes];
  float x1[kRepeatLanes], x2[kRepeatLanes], b[kRepeatLanes], res[kRepeatLanes];
  float pd_var[kRepeatLanes], pd_mean[kRepeatLanes], res2[kRepeatLanes];

  for (uint64_t j = 0; j < rows; ++j) {
    std::fill(pd_var, pd_var + kRepeatLanes, 0.0f);
    std::fill(pd_mean, pd_mean + kRepeatLanes, 0.0f);
    std::fill(res2, res2 + kRepeatLanes, 0.0f);
    const float variance = LoadLane(o.inputVariance.data, j);
    const float mean = LoadLane(o.inputMean.data, j);
    const uint64_t base = j * h;

    // Lane-0 scalar sequences, recomputed per chunk on the device (same value every time).
    float v = variance + epsilon;
    const float v2 = v * v;
    v = v2 * v;
    v = std::sqrt(v);
    const float rstd3 = 1.0f / v;
    float r = variance + epsilon;
    r = std::sqrt(r);
    const float rstd = 1.0f / r;

    // ComputePdVarLoop.
    for (uint32_t i = 0; i < chunks; ++i) {
      const uint32_t off = i * kRepeatLanes;
      const uint32_t n = std::min(kRepeatLanes, h - off);
      LoadLanes(ops, gamma, o.inputGamma.data + off, n);
      LoadLanes(ops, dy, o.inputDy.data + base + off, n);
      LoadLanes(ops, x, o.inputX.data + base + off, n);
      ops.Mul(x1, dy, gamma, n);
      ops.Subs(x2, x, mean, n);
      ops.Muls(b, x2, rstd3, n);
      ops.Mul(b, x1, b, n);
      ops.Muls(b, b, -0.5f, n);
      ops.Add(pd_var, pd_var, b, n);
      std::copy(x1, x1 + n, x1_tmp + off);
      std::copy(x2, x2 + n, x2_tmp + off);
    }
    float pd_var_s = ops.Tree(pd_var, reduce_lanes);

    // ComputePdMeanLoop.
    for (uint32_t i = 0; i < chunks; ++i) {
      const uint32_t off = i * kRepeatLanes;
      const uint32_t n = std::min(kRepeatLanes, h - off);
      std::copy(x1_tmp + off, x1_tmp + off + n, x1);
      std::copy(x2_tmp + off, x2_tmp + off + n, x2);
      ops.Muls(res, x2, rstd, n);
      ops.Muls(x1, x1, rstd, n);
      std::copy(x1, x1 + n, x1_tmp + off);
      ops.Muls(b, x1, -1.0f, n);
      ops.Add(pd_mean, pd_mean, b, n);
      ops.Muls(b, x2, -2.0f, n);
      ops.Add(res2, res2, b, n);
      StoreLanes(ops, o.resForGamma.data + base + off, res, n);
    }
    float pd_mean_s = ops.Tree(pd_mean, reduce_lanes);
    float res2_s = ops.Tree(res2, reduce_lanes);
    res2_s = res2_s * one_over_h;
    res2_s = pd_var_s * res2_s;
    pd_mean_s = pd_mean_s + res2_s;

    // ComputePdXLoop.
    pd_var_s = pd_var_s * two_over_h;
    pd_mean_s = pd_mean_s * one_over_h;
    for (uint32_t i = 0; i < chunks; ++i) {
      const uint32_t off = i * kRepeatLanes;
      const uint32_t n = std::min(kRepeatLanes, h - off);
      std::copy(x1_tmp + off, x1_tmp + off + n, x1);
      std::copy(x2_tmp + off, x2_tmp + off + n, x2);
      // Duplicate(pd_var) * x2, then + Duplicate(pd_mean), then + x1.
      for (uint32_t l = 0; l < n; ++l) b[l] = pd_var_s;
      ops.Mul(x2, b, x2, n);
      ops.Adds(x2, x2, pd_mean_s, n);
      ops.Add(res, x2, x1, n);
      StoreLanes(ops, o.outputPdX.data + base + off, res, n);
    }
  }
}

// ------------------------------------------------------------------------------------------

template <typename T>
Status Run(Algorithm algorithm, const LayerNormGradTiling& t, const LayerNormGradFootprint& f,
           const LayerNormGradOperands<T>& o, float epsilon, bool reuse, Impl impl) {
  constexpr bool kHalf = std::is_same_v<T, Half>;
  LNGRAD_RETURN_IF_ERROR(detail::CheckCapacities(
      kApi,
      {detail::Use("outputPdX", o.outputPdX, f.outputPdX),
       detail::Use("resForGamma", o.resForGamma, f.resForGamma),
       detail::Use("inputDy", o.inputDy, f.inputDy), detail::Use("inputX", o.inputX, f.inputX),
       detail::Use("inputVariance", o.inputVariance, f.inputVariance),
       detail::Use("inputMean", o.inputMean, f.inputMean),
       detail::Use("inputGamma", o.inputGamma, f.inputGamma),
       detail::Use("sharedTmpBuffer", o.scratch, f.scratch)}));
  const Ops ops = detail::MakeOps(impl);
  if (algorithm == Algorithm::kRegBase) {
    float* x1_tmp;
    float* x2_tmp;
    if constexpr (kHalf) {
      x1_tmp = o.scratch.data;
      x2_tmp = o.scratch.data + detail::Ceil8(t.hLength);
    } else {
      x1_tmp = reuse ? o.inputDy.data : o.scratch.data;
      x2_tmp = reuse ? o.inputX.data : o.scratch.data + detail::Ceil8(t.hLength);
    }
    if (uint64_t{t.bLength} * t.sLength == 0) return Status::Ok();
    RegBase(ops, t, o, epsilon, x1_tmp, x2_tmp);
    return Status::Ok();
  }
  if constexpr (kHalf) {
    VectorHalf(ops, t, o, epsilon);
  } else {
    VectorFloat(ops, t, o, epsilon, reuse);
  }
  return Status::Ok();
}

// The overloads without a footprint: LayerNormGradFootprintFor, then what the overloads with
// one run.
template <typename T>
Status WithFootprint(Algorithm algorithm, const LayerNormGradTiling& t,
                     const LayerNormGradOperands<T>& o, float epsilon, bool reuse, Impl impl) {
  LayerNormGradFootprint f;
  LNGRAD_RETURN_IF_ERROR(
      LayerNormGradFootprintFor(algorithm, t, std::is_same_v<T, Half>, reuse, &f));
  return Run(algorithm, t, f, o, epsilon, reuse, impl);
}

}  // namespace

Status LayerNormGradFootprintFor(Algorithm algorithm, const LayerNormGradTiling& tiling,
                                 bool isHalf, bool isReuseSource, LayerNormGradFootprint* out) {
  LNGRAD_RETURN_IF_ERROR(CheckShape(tiling, isHalf));
  LayerNormGradFootprint f;
  if (algorithm == Algorithm::kRegBase) {
    RegBaseFootprint(tiling, isHalf, isReuseSource, &f);
  } else {
    VectorFootprint(tiling, isHalf, isReuseSource, &f);
  }
  *out = f;
  return Status::Ok();
}

Status LayerNormGrad(Algorithm algorithm, const LayerNormGradTiling& tiling,
                     const LayerNormGradFootprint& footprint,
                     const LayerNormGradOperands<float>& operands, float epsilon,
                     bool isReuseSource, Impl impl) {
  return Run(algorithm, tiling, footprint, operands, epsilon, isReuseSource, impl);
}

Status LayerNormGrad(Algorithm algorithm, const LayerNormGradTiling& tiling,
                     const LayerNormGradFootprint& footprint,
                     const LayerNormGradOperands<Half>& operands, Half epsilon, bool isReuseSource,
                     Impl impl) {
  // §1.10: the half epsilon is widened exactly; isReuseSource has no effect for half.
  return Run(algorithm, tiling, footprint, operands, epsilon.ToFloat(), isReuseSource, impl);
}

Status LayerNormGrad(Algorithm algorithm, const LayerNormGradTiling& tiling,
                     const LayerNormGradOperands<float>& operands, float epsilon,
                     bool isReuseSource, Impl impl) {
  return WithFootprint(algorithm, tiling, operands, epsilon, isReuseSource, impl);
}

Status LayerNormGrad(Algorithm algorithm, const LayerNormGradTiling& tiling,
                     const LayerNormGradOperands<Half>& operands, Half epsilon, bool isReuseSource,
                     Impl impl) {
  return WithFootprint(algorithm, tiling, operands, epsilon.ToFloat(), isReuseSource, impl);
}

}  // namespace lngrad::adv
