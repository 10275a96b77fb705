// LayerNormGradBeta on the simulated device (spec §3.3): the chunked vector path (arch
// 2002/2201) and the register path (arch 3510).
#include <algorithm>
#include <string>
#include <type_traits>

#include "operands.h"

namespace lngrad::adv {
namespace {

using detail::kRepeatLanes;
using detail::Ops;

constexpr const char* kApi = "LayerNormGradBeta";

struct Chunk {
  uint64_t offset;
  uint32_t bsh;  // bshCurLength
  uint32_t bs;   // bsCurLength
  bool clear;    // first chunk: the accumulators start as row0 + 0
};

// Chunk 0 always runs (ComputeProcess<true>), then chunks 1..loopRound-1, then the tail.
template <class F>
void ForEachChunk(const LayerNormGradBetaTiling& t, F f) {
  f(Chunk{0, t.bshCurLength, t.bsCurLength, true});
  uint64_t offset = t.oneCalSize;
  for (uint32_t k = 1; k < t.loopRound; ++k) {
    f(Chunk{offset, t.bshCurLength, t.bsCurLength, false});
    offset += t.oneCalSize;
  }
  if (t.inputTailSize > 0) f(Chunk{t.inputTailPos, t.inputTailSize, t.bsTailSize, false});
}

// Chunks that bound the extents: the first, the last full one, the tail.
template <class F>
void ForBoundingChunks(const LayerNormGradBetaTiling& t, F f) {
  f(Chunk{0, t.bshCurLength, t.bsCurLength, true});
  if (t.loopRound > 1) {
    f(Chunk{uint64_t{t.loopRound - 1} * t.oneCalSize, t.bshCurLength, t.bsCurLength, false});
  }
  if (t.inputTailSize > 0) f(Chunk{t.inputTailPos, t.inputTailSize, t.bsTailSize, false});
}

// ReduceSumFirstN: dst[c] accumulates src rows in order, acc = row_r + acc; with `clear` the
// first row enters as row_0 + 0 (so -0 becomes +0, as on the device).
void ReduceSumFirstN(const Ops& ops, float* dst, const float* src, uint32_t bs, uint32_t h,
                     bool clear) {
  uint32_t start = 0;
  if (clear) {
    ops.Adds(dst, src, 0.0f, h);
    start = 1;
  }
  for (uint64_t r = start; r < bs; ++r) ops.Add(dst, src + r * h, dst, h);
}

// Rows a ReduceSumFirstN call reads (the clearing Adds reads row 0 even when bs == 0).
uint64_t RowsRead(const Chunk& c) { return std::max<uint64_t>(c.bs, c.clear ? 1 : 0); }

void VectorFootprint(const LayerNormGradBetaTiling& t, bool is_half, bool reuse,
                     LayerNormGradBetaFootprint* f) {
  const uint64_t h = t.originalHLength;
  auto upd = [](uint64_t& v, uint64_t e) { v = std::max(v, e); };
  f->outputPdGamma = f->outputPdBeta = h;
  ForBoundingChunks(t, [&](const Chunk& c) {
    const uint64_t read_rows = RowsRead(c) * h;
    const uint64_t tmp_ext = std::max<uint64_t>(c.bsh, read_rows);
    if (is_half) {
      upd(f->inputDy, c.offset + c.bsh);
      upd(f->resForGamma, c.offset + c.bsh);
      upd(f->scratch, uint64_t{t.gammaTempTensorPos} + h);
      upd(f->scratch, uint64_t{t.betaTempTensorPos} + h);
      upd(f->scratch, uint64_t{t.inputDyTmpTensorPos} + tmp_ext);
      upd(f->scratch, uint64_t{t.resForGammaTmpTensorPos} + tmp_ext);
    } else {
      upd(f->inputDy, c.offset + tmp_ext);
      upd(f->resForGamma, c.offset + c.bsh);
      // With reuse the product buffer is resForGamma's base, not the chunk's offset.
      if (reuse) {
        upd(f->resForGamma, tmp_ext);
      } else {
        upd(f->scratch, uint64_t{t.resForGammaTmpTensorPos} + tmp_ext);
      }
    }
  });
}

void VectorFloat(const Ops& ops, const LayerNormGradBetaTiling& t,
                 const LayerNormGradBetaOperands<float>& o, bool reuse) {
  const uint32_t h = t.originalHLength;
  ForEachChunk(t, [&](const Chunk& c) {
    const float* dy = o.inputDy.data + c.offset;
    float* res = o.resForGamma.data + c.offset;
    // isReuseSource: the device's product buffer is resForGamma itself, at its base for every
    // chunk, so resForGamma[0, bshCurLength) ends with the last chunks' products and the rest
    // keeps its input.
    float* tmp = reuse ? o.resForGamma.data : o.scratch.data + t.resForGammaTmpTensorPos;
    ops.Mul(tmp, dy, res, c.bsh);
    ReduceSumFirstN(ops, o.outputPdGamma.data, tmp, c.bs, h, c.clear);
    ReduceSumFirstN(ops, o.outputPdBeta.data, dy, c.bs, h, c.clear);
  });
}

void VectorHalf(const Ops& ops, const LayerNormGradBetaTiling& t,
                const LayerNormGradBetaOperands<Half>& o) {
  const uint32_t h = t.originalHLength;
  float* s = o.scratch.data;
  float* gamma_acc = s + t.gammaTempTensorPos;
  float* beta_acc = s + t.betaTempTensorPos;
  float* dy_tmp = s + t.inputDyTmpTensorPos;
  float* res_tmp = s + t.resForGammaTmpTensorPos;
  ForEachChunk(t, [&](const Chunk& c) {
    ops.CastHalfToFloat(dy_tmp, o.inputDy.data + c.offset, c.bsh);
    ops.CastHalfToFloat(res_tmp, o.resForGamma.data + c.offset, c.bsh);
    ops.Mul(res_tmp, dy_tmp, res_tmp, c.bsh);
    ReduceSumFirstN(ops, gamma_acc, res_tmp, c.bs, h, c.clear);
    ReduceSumFirstN(ops, beta_acc, dy_tmp, c.bs, h, c.clear);
    // The outputs are refreshed after every chunk; the last chunk's values remain.
    ops.CastFloatToHalf(o.outputPdGamma.data, gamma_acc, h);
    ops.CastFloatToHalf(o.outputPdBeta.data, beta_acc, h);
  });
}

// Register path: per 64-column chunk, g = g + dy*res and b = b + dy over all rows from 0.
template <typename T>
void RegBase(const Ops& ops, const LayerNormGradBetaTiling& t,
             const LayerNormGradBetaOperands<T>& o) {
  const uint32_t h = t.hLength;
  const uint64_t rows = uint64_t{t.bLength} * t.sLength;
  float dy[kRepeatLanes], res[kRepeatLanes], prod[kRepeatLanes];
  float g[kRepeatLanes], b[kRepeatLanes];
  for (uint32_t off = 0; off < h; off += kRepeatLanes) {
    const uint32_t n = std::min(kRepeatLanes, h - off);
    std::fill(g, g + n, 0.0f);
    std::fill(b, b + n, 0.0f);
    for (uint64_t j = 0; j < rows; ++j) {
      const uint64_t at = j * h + off;
      if constexpr (std::is_same_v<T, float>) {
        std::copy(o.inputDy.data + at, o.inputDy.data + at + n, dy);
        std::copy(o.resForGamma.data + at, o.resForGamma.data + at + n, res);
      } else {
        ops.CastHalfToFloat(dy, o.inputDy.data + at, n);
        ops.CastHalfToFloat(res, o.resForGamma.data + at, n);
      }
      ops.Mul(prod, dy, res, n);
      ops.Add(g, g, prod, n);
      ops.Add(b, b, dy, n);
    }
    if constexpr (std::is_same_v<T, float>) {
      std::copy(g, g + n, o.outputPdGamma.data + off);
      std::copy(b, b + n, o.outputPdBeta.data + off);
    } else {
      for (uint32_t l = 0; l < n; ++l) {
        o.outputPdGamma.data[off + l] = detail::FloatToHalfSaturate(g[l]);
        o.outputPdBeta.data[off + l] = detail::FloatToHalfSaturate(b[l]);
      }
    }
  }
}

template <typename T>
Status Run(Algorithm algorithm, const LayerNormGradBetaTiling& t,
           const LayerNormGradBetaFootprint& f, const LayerNormGradBetaOperands<T>& o, bool reuse,
           Impl impl) {
  constexpr bool kHalf = std::is_same_v<T, Half>;
  LNGRAD_RETURN_IF_ERROR(
      detail::CheckCapacities(kApi, {detail::Use("outputPdGamma", o.outputPdGamma, f.outputPdGamma),
                                     detail::Use("outputPdBeta", o.outputPdBeta, f.outputPdBeta),
                                     detail::Use("resForGamma", o.resForGamma, f.resForGamma),
                                     detail::Use("inputDy", o.inputDy, f.inputDy),
                                     detail::Use("sharedTmpBuffer", o.scratch, f.scratch)}));
  const Ops ops = detail::MakeOps(impl);
  if (algorithm == Algorithm::kRegBase) {
    RegBase(ops, t, o);
  } else if constexpr (kHalf) {
    VectorHalf(ops, t, o);
  } else {
    VectorFloat(ops, t, o, reuse);
  }
  return Status::Ok();
}

// The overloads without a footprint: LayerNormGradBetaFootprintFor, then what the overloads
// with one run.
template <typename T>
Status WithFootprint(Algorithm algorithm, const LayerNormGradBetaTiling& t,
                     const LayerNormGradBetaOperands<T>& o, bool reuse, Impl impl) {
  LayerNormGradBetaFootprint f;
  LNGRAD_RETURN_IF_ERROR(
      LayerNormGradBetaFootprintFor(algorithm, t, std::is_same_v<T, Half>, reuse, &f));
  return Run(algorithm, t, f, o, reuse, impl);
}

}  // namespace

Status LayerNormGradBetaFootprintFor(Algorithm algorithm, const LayerNormGradBetaTiling& tiling,
                                     bool isHalf, bool isReuseSource,
                                     LayerNormGradBetaFootprint* out) {
  LayerNormGradBetaFootprint f;
  if (algorithm == Algorithm::kRegBase) {
    const uint32_t align = isHalf ? 16u : 8u;
    if (tiling.hLength % align != 0) {
      return Status::InvalidArgument(
          std::string(kApi) + ": tiling.hLength = " + std::to_string(tiling.hLength) +
          " is not 32-byte aligned for T (hLength * sizeof(T) must be a multiple of 32)");
    }
    const uint64_t bsh = uint64_t{tiling.bLength} * tiling.sLength * tiling.hLength;
    f.outputPdGamma = f.outputPdBeta = tiling.hLength;
    f.inputDy = f.resForGamma = bsh;
  } else {
    if (tiling.originalHLength == 0) {
      return Status::InvalidArgument(std::string(kApi) + ": tiling.originalHLength is 0");
    }
    VectorFootprint(tiling, isHalf, isReuseSource && !isHalf, &f);
  }
  *out = f;
  return Status::Ok();
}

Status LayerNormGradBeta(Algorithm algorithm, const LayerNormGradBetaTiling& tiling,
                         const LayerNormGradBetaFootprint& footprint,
                         const LayerNormGradBetaOperands<float>& operands, bool isReuseSource,
                         Impl impl) {
  return Run(algorithm, tiling, footprint, operands, isReuseSource, impl);
}

Status LayerNormGradBeta(Algorithm algorithm, const LayerNormGradBetaTiling& tiling,
                         const LayerNormGradBetaFootprint& footprint,
                         const LayerNormGradBetaOperands<Half>& operands, bool /*isReuseSource*/,
                         Impl impl) {
  // isReuseSource has no effect for half (§3.3: the half path casts into its own scratch).
  return Run(algorithm, tiling, footprint, operands, false, impl);
}

Status LayerNormGradBeta(Algorithm algorithm, const LayerNormGradBetaTiling& tiling,
                         const LayerNormGradBetaOperands<float>& operands, bool isReuseSource,
                         Impl impl) {
  return WithFootprint(algorithm, tiling, operands, isReuseSource, impl);
}

Status LayerNormGradBeta(Algorithm algorithm, const LayerNormGradBetaTiling& tiling,
                         const LayerNormGradBetaOperands<Half>& operands, bool /*isReuseSource*/,
                         Impl impl) {
  return WithFootprint(algorithm, tiling, operands, false, impl);
}

}  // namespace lngrad::adv
