// LayerNorm forward, [B,S,H] family with mean and variance outputs (spec §4), on the simulated
// device: the chunked vector path (arch 2002/2201) and the row-wise register path (arch 3510).
// The operation order was read from the public implementation and is written down, with the
// inferred parts marked, in docs/ascendc_kernels.md.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "operands.h"

namespace lngrad::adv {
namespace {

using detail::kRepeatLanes;
using detail::Ops;

constexpr const char* kApi = "LayerNorm";

struct Chunk {
  uint64_t in_off;  // element offset in [B,S,H]
  uint64_t mv_off;  // row offset in the mean/variance buffers
  uint32_t bsh;     // bshCurLength
  uint32_t bs;      // bsCurLength
};

// Extent of a working tensor in one chunk: element-wise steps cover bsh elements, row steps bs
// rows of H, and the broadcast always writes row 0.
uint64_t WorkExtent(const Chunk& c, uint64_t h) {
  return std::max({uint64_t{c.bsh}, std::max<uint64_t>(c.bs, 1) * h, uint64_t{8}});
}

template <class F>
void ForBoundingChunks(const LayerNormTiling& t, F f) {
  detail::ForBoundingRoundAndTail<Chunk>(t, &LayerNormTiling::bshCurLength,
                                         &LayerNormTiling::bsCurLength, f);
}

void VectorFootprint(const LayerNormTiling& t, bool is_half, bool reuse, LayerNormFootprint* f) {
  const uint64_t h = t.hLength;
  const bool float_reuse = reuse && !is_half;
  auto upd = [](uint64_t& v, uint64_t e) { v = std::max(v, e); };
  ForBoundingChunks(t, [&](const Chunk& c) {
    const uint64_t work = WorkExtent(c, h);
    f->gamma = f->beta = h;
    upd(f->inputX, c.in_off + c.bsh);
    upd(f->output, c.in_off + (is_half ? uint64_t{c.bsh} : uint64_t{c.bs} * h));
    if (float_reuse) {
      upd(f->inputX, work);  // tempTensorA is the start of inputX
      upd(f->scratch, uint64_t{t.firstTmpStartPos} + work);
      upd(f->scratch, uint64_t{t.secondTmpStartPos} + work);
    } else {
      upd(f->scratch, uint64_t{t.firstTmpStartPos} + work);
      upd(f->scratch, uint64_t{t.secondTmpStartPos} + work);
      upd(f->scratch, uint64_t{t.thirdTmpStartPos} + work);
    }
    if (is_half) {
      upd(f->scratch, uint64_t{t.meanTmpTensorPos} + c.mv_off + c.bs);
      upd(f->scratch, uint64_t{t.varianceTmpTensorPos} + c.mv_off + c.bs);
    } else {
      upd(f->outputMean, c.mv_off + c.bs);
      upd(f->outputVariance, c.mv_off + c.bs);
    }
  });
  if (is_half) {
    upd(f->outputMean, t.meanVarSize);
    upd(f->outputVariance, t.meanVarSize);
    upd(f->scratch, uint64_t{t.meanTmpTensorPos} + t.meanVarSize);
    upd(f->scratch, uint64_t{t.varianceTmpTensorPos} + t.meanVarSize);
  }
}

// LayerNormReduceSumImpl: fold each row onto its first 64 lanes (acc = chunk + acc, then the
// partial tail chunk), then one WholeReduceSum tree per row over min(H, 64) lanes, written to
// mv[r] and to dst[r*H].
void FoldReduce(const Ops& ops, float* mv, float* dst, float* src, uint32_t bs, uint32_t h) {
  if (h > kRepeatLanes) {
    if (ops.simd) {
      detail::FoldRows(src, bs, h);
    } else {
      const uint32_t add_repeats = h / kRepeatLanes - 1;
      const uint32_t tail = h % kRepeatLanes;
      for (uint64_t r = 0; r < bs; ++r) {
        float* row = src + r * h;
        for (uint32_t k = 1; k <= add_repeats; ++k)
          ops.Add(row, row + k * kRepeatLanes, row, kRepeatLanes);
        if (tail > 0) ops.Add(row, row + (h - tail), row, tail);
      }
    }
  }
  const uint32_t lanes = std::min(h, kRepeatLanes);
  if (bs == 0) return;
  // The trees read src only; when neither mv nor dst reaches into the rows they read, every
  // row's sum can be computed once (several trees at a time) and written to both, in the same
  // order (all of mv, then dst).
  const auto lo = reinterpret_cast<uintptr_t>(src);
  const uintptr_t hi = reinterpret_cast<uintptr_t>(src + (uint64_t{bs} - 1) * h + lanes);
  auto outside = [&](const float* p, uint64_t n) {
    const auto a = reinterpret_cast<uintptr_t>(p);
    return a + n * sizeof(float) <= lo || a >= hi;
  };
  if (ops.simd && outside(mv, bs) && outside(dst, (uint64_t{bs} - 1) * h + 1)) {
    std::vector<float> sums(bs);
    detail::TreeSums(true, src, h, lanes, bs, sums.data());
    for (uint64_t r = 0; r < bs; ++r) mv[r] = sums[r];
    for (uint64_t r = 0; r < bs; ++r) dst[r * h] = sums[r];
    return;
  }
  for (uint64_t r = 0; r < bs; ++r) mv[r] = ops.Tree(src + r * h, lanes);
  for (uint64_t r = 0; r < bs; ++r) dst[r * h] = ops.Tree(src + r * h, lanes);
}

// BroadcastLastDim via SetCmpMask/Select: row r of dst gets src[r*H]; as a side effect the
// first H int16 of src (H/2 floats) are zeroed to build the all-zero select mask.
void BroadcastFromRowStarts(const Ops& ops, float* dst, float* src, uint32_t bs, uint32_t h) {
  const float first = src[0];
  std::memset(src, 0, uint64_t{h} * sizeof(uint16_t));
  ops.Fill(dst, first, h);
  for (uint64_t r = 1; r < bs; ++r) ops.Fill(dst + r * h, src[r * h], h);
}

struct Temps {
  float* a;
  float* b;
  float* c;
};

// Mean, variance and the normalised y (into temps.c) of one chunk; x is float here.
void MeanVarianceNormalise(const Ops& ops, const LayerNormTiling& t, const Temps& w, const float* x,
                           float* mean, float* variance, float epsilon, uint32_t bsh, uint32_t bs) {
  const uint32_t h = t.hLength;
  // GetLayerNormOutputMean.
  ops.Muls(w.c, x, t.lastDimValueBack, bsh);
  FoldReduce(ops, mean, w.b, w.c, bs, h);
  // GetLayerNormOutputVariance.
  BroadcastFromRowStarts(ops, w.c, w.b, bs, h);
  ops.Sub(w.b, x, w.c, bsh);
  ops.Mul(w.c, w.b, w.b, bsh);
  ops.Muls(w.a, w.c, t.lastDimValueBack, bsh);
  FoldReduce(ops, variance, w.c, w.a, bs, h);
  // GetLayerNormOutputPre: y = (1 / sqrt(var + eps)) * (x - mean).
  BroadcastFromRowStarts(ops, w.a, w.c, bs, h);
  ops.Adds(w.c, w.a, epsilon, bsh);
  ops.Sqrt(w.a, w.c, bsh);
  ops.Fill(w.c, 1.0f, 8);
  ops.Recip(w.a, w.a, bsh);
  ops.Mul(w.c, w.a, w.b, bsh);
}

// The device stores the tail lengths into the (non-const) tiling and leaves them there.
template <class F>
void ForEachChunk(LayerNormTiling& t, F f) {
  detail::ForEachRoundAndTail<Chunk>(t, &LayerNormTiling::bshCurLength,
                                     &LayerNormTiling::bsCurLength, f);
}

void VectorFloat(const Ops& ops, LayerNormTiling& t, const LayerNormOperands<float>& o,
                 float epsilon, bool reuse) {
  float* s = o.scratch.data;
  const Temps w =
      reuse ? Temps{o.inputX.data, s + t.firstTmpStartPos, s + t.secondTmpStartPos}
            : Temps{s + t.firstTmpStartPos, s + t.secondTmpStartPos, s + t.thirdTmpStartPos};
  const uint32_t h = t.hLength;
  ForEachChunk(t, [&](const Chunk& c) {
    MeanVarianceNormalise(ops, t, w, o.inputX.data + c.in_off, o.outputMean.data + c.mv_off,
                          o.outputVariance.data + c.mv_off, epsilon, c.bsh, c.bs);
    // GetLayerNormOutput<float>: out = (y * gamma) + beta, row by row.
    for (uint64_t r = 0; r < c.bs; ++r) ops.Mul(w.a + r * h, w.c + r * h, o.gamma.data, h);
    for (uint64_t r = 0; r < c.bs; ++r) {
      ops.Add(o.output.data + c.in_off + r * h, w.a + r * h, o.beta.data, h);
    }
  });
}

void VectorHalf(const Ops& ops, LayerNormTiling& t, const LayerNormOperands<Half>& o,
                float epsilon) {
  float* s = o.scratch.data;
  const Temps w{s + t.firstTmpStartPos, s + t.secondTmpStartPos, s + t.thirdTmpStartPos};
  float* mean_tmp = s + t.meanTmpTensorPos;
  float* var_tmp = s + t.varianceTmpTensorPos;
  const uint32_t h = t.hLength;
  ForEachChunk(t, [&](const Chunk& c) {
    ops.CastHalfToFloat(w.a, o.inputX.data + c.in_off, c.bsh);
    MeanVarianceNormalise(ops, t, w, w.a, mean_tmp + c.mv_off, var_tmp + c.mv_off, epsilon, c.bsh,
                          c.bs);
    // GetLayerNormOutput<half>.
    ops.CastHalfToFloat(w.a, o.gamma.data, h);
    for (uint64_t r = 0; r < c.bs; ++r) ops.Mul(w.b + r * h, w.c + r * h, w.a, h);
    ops.CastHalfToFloat(w.c, o.beta.data, h);
    for (uint64_t r = 0; r < c.bs; ++r) ops.Add(w.a + r * h, w.b + r * h, w.c, h);
    ops.CastFloatToHalf(o.output.data + c.in_off, w.a, c.bsh);
  });
  ops.CastFloatToHalf(o.outputMean.data, mean_tmp, t.meanVarSize);
  ops.CastFloatToHalf(o.outputVariance.data, var_tmp, t.meanVarSize);
}

// ------------------------------------------------------------------------------------------
// Register path (3510).

using detail::LoadLanes;

template <typename T>
T StoreValue(float v) {
  if constexpr (std::is_same_v<T, float>) {
    return v;
  } else {
    return Half::FromBits(FloatToHalfBits(v));
  }
}

// Lane sums over the row of f(chunk) where each full 64-lane chunk and then the tail chunk
// (inactive lanes zeroed) are added in order; the first full chunk starts the sum.
template <typename T, class F>
float RowLaneSum(const Ops& ops, const T* row, uint32_t h, F per_chunk) {
  float sum[kRepeatLanes];
  float tmp[kRepeatLanes];
  const uint32_t full = h / kRepeatLanes;
  const uint32_t tail = h % kRepeatLanes;
  std::fill(sum, sum + kRepeatLanes, 0.0f);
  if (full > 0) {
    LoadLanes(ops, sum, row, kRepeatLanes);
    per_chunk(sum, kRepeatLanes);
    for (uint32_t i = 1; i < full; ++i) {
      LoadLanes(ops, tmp, row + i * kRepeatLanes, kRepeatLanes);
      per_chunk(tmp, kRepeatLanes);
      ops.Add(sum, sum, tmp, kRepeatLanes);
    }
  }
  if (tail > 0) {
    std::fill(tmp, tmp + kRepeatLanes, 0.0f);
    LoadLanes(ops, tmp, row + full * kRepeatLanes, tail);
    per_chunk(tmp, tail);
    ops.Add(sum, sum, tmp, kRepeatLanes);
  }
  return ops.Tree(sum, kRepeatLanes);
}

template <typename T>
void RegBase(const Ops& ops, const LayerNormTiling& t, const LayerNormOperands<T>& o,
             float epsilon) {
  const uint32_t h = t.hLength;
  const uint64_t rows = uint64_t{t.bLength} * t.sLength;
  const float h_dim = static_cast<float>(h);
  float r[kRepeatLanes], g[kRepeatLanes], b[kRepeatLanes];
  for (uint64_t j = 0; j < rows; ++j) {
    const T* x = o.inputX.data + j * h;
    const float mean =
        RowLaneSum(ops, x, h, [&](float* v, uint32_t n) { ops.Divs(v, v, h_dim, n); });
    o.outputMean.data[j] = StoreValue<T>(mean);
    const float variance = RowLaneSum(ops, x, h, [&](float* v, uint32_t n) {
      ops.Subs(v, v, mean, n);
      ops.Mul(v, v, v, n);
      ops.Divs(v, v, h_dim, n);
    });
    o.outputVariance.data[j] = StoreValue<T>(variance);
    float sd = variance + epsilon;
    sd = std::sqrt(sd);
    T* out = o.output.data + j * h;
    for (uint32_t off = 0; off < h; off += kRepeatLanes) {
      const uint32_t n = std::min(kRepeatLanes, h - off);
      LoadLanes(ops, r, x + off, n);
      ops.Subs(r, r, mean, n);
      ops.Divs(r, r, sd, n);
      LoadLanes(ops, g, o.gamma.data + off, n);
      ops.Mul(r, r, g, n);
      LoadLanes(ops, b, o.beta.data + off, n);
      ops.Add(r, r, b, n);
      for (uint32_t l = 0; l < n; ++l) out[off + l] = StoreValue<T>(r[l]);
    }
  }
}

template <typename T>
Status Run(Algorithm algorithm, LayerNormTiling& t, const LayerNormFootprint& f,
           const LayerNormOperands<T>& o, float epsilon, bool reuse, Impl impl) {
  constexpr bool kHalf = std::is_same_v<T, Half>;
  LNGRAD_RETURN_IF_ERROR(detail::CheckCapacities(
      kApi,
      {detail::Use("output", o.output, f.output),
       detail::Use("outputMean", o.outputMean, f.outputMean),
       detail::Use("outputVariance", o.outputVariance, f.outputVariance),
       detail::Use("inputX", o.inputX, f.inputX), detail::Use("gamma", o.gamma, f.gamma),
       detail::Use("beta", o.beta, f.beta), detail::Use("sharedTmpBuffer", o.scratch, f.scratch)}));
  const Ops ops = detail::MakeOps(impl);
  if (algorithm == Algorithm::kRegBase) {
    RegBase(ops, t, o, epsilon);
  } else if constexpr (kHalf) {
    VectorHalf(ops, t, o, epsilon);
  } else {
    VectorFloat(ops, t, o, epsilon, reuse);
  }
  return Status::Ok();
}

// The overloads without a footprint: LayerNormFootprintFor, then what the overloads with one
// run.
template <typename T>
Status WithFootprint(Algorithm algorithm, LayerNormTiling& t, const LayerNormOperands<T>& o,
                     float epsilon, bool reuse, Impl impl) {
  LayerNormFootprint f;
  LNGRAD_RETURN_IF_ERROR(LayerNormFootprintFor(algorithm, t, std::is_same_v<T, Half>, reuse, &f));
  return Run(algorithm, t, f, o, epsilon, reuse, impl);
}

}  // namespace

namespace detail {
// The row reduction for the [A, R] LayerNorm (normalize.cpp), which shares it.
void LayerNormFoldReduce(const Ops& ops, float* mv, float* dst, float* src, uint32_t bs,
                         uint32_t h) {
  FoldReduce(ops, mv, dst, src, bs, h);
}
}  // namespace detail

Status LayerNormFootprintFor(Algorithm algorithm, const LayerNormTiling& tiling, bool isHalf,
                             bool isReuseSource, LayerNormFootprint* out) {
  const uint32_t align = isHalf ? 16u : 8u;
  if (tiling.hLength == 0 || tiling.hLength % align != 0) {
    return Status::InvalidArgument(std::string(kApi) +
                                   ": tiling.hLength = " + std::to_string(tiling.hLength) +
                                   " must be non-zero and 32-byte aligned for T");
  }
  LayerNormFootprint f;
  if (algorithm == Algorithm::kRegBase) {
    const uint64_t rows = uint64_t{tiling.bLength} * tiling.sLength;
    f.output = f.inputX = rows * tiling.hLength;
    f.outputMean = f.outputVariance = rows;
    f.gamma = f.beta = rows > 0 ? tiling.hLength : 0;
  } else {
    VectorFootprint(tiling, isHalf, isReuseSource, &f);
  }
  *out = f;
  return Status::Ok();
}

Status LayerNorm(Algorithm algorithm, LayerNormTiling& tiling, const LayerNormFootprint& footprint,
                 const LayerNormOperands<float>& operands, float epsilon, bool isReuseSource,
                 Impl impl) {
  return Run(algorithm, tiling, footprint, operands, epsilon, isReuseSource, impl);
}

Status LayerNorm(Algorithm algorithm, LayerNormTiling& tiling, const LayerNormFootprint& footprint,
                 const LayerNormOperands<Half>& operands, Half epsilon, bool /*isReuseSource*/,
                 Impl impl) {
  // isReuseSource has no effect for half (the half path always uses its own float scratch).
  return Run(algorithm, tiling, footprint, operands, epsilon.ToFloat(), false, impl);
}

Status LayerNorm(Algorithm algorithm, LayerNormTiling& tiling,
                 const LayerNormOperands<float>& operands, float epsilon, bool isReuseSource,
                 Impl impl) {
  return WithFootprint(algorithm, tiling, operands, epsilon, isReuseSource, impl);
}

Status LayerNorm(Algorithm algorithm, LayerNormTiling& tiling,
                 const LayerNormOperands<Half>& operands, Half epsilon, bool /*isReuseSource*/,
                 Impl impl) {
  return WithFootprint(algorithm, tiling, operands, epsilon.ToFloat(), false, impl);
}

}  // namespace lngrad::adv
