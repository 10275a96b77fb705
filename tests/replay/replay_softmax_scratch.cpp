// The 2201 float SoftMax replayed instruction by instruction over host memory, work buffer
// included (see replay_softmax_scratch.h for the files read).
#include "replay_softmax_scratch.h"

#include <cmath>
#include <cstring>

namespace lngrad_replay {
namespace {

constexpr uint32_t kRep = 64;   // floats per repeat
constexpr uint32_t kBlk = 8;    // floats per 32-byte block
constexpr uint32_t kBig = 512;  // SOFTMAX_FLOAT_SPECIAL_BLOCKREDUCE_LEN

using BinOp = float (*)(float, float);
float AddOp(float a, float b) { return a + b; }
float MaxOp(float a, float b) { return a > b ? a : b; }
float ExpOf(float x) { return static_cast<float>(std::exp(static_cast<double>(x))); }
float LnOf(float x) { return static_cast<float>(std::log(static_cast<double>(x))); }
constexpr float kLog10E = 0.4342944819f;  // SCALAR_NATURE_LOG_10

// The max reductions (BlockReduceMax, WholeReduceMax) by the lane rule lngrad documents for them
// (docs/ascendc_compat.md, "Max and min"; the NaN part is its choice): a NaN lane wins (the
// first), otherwise the largest value, the lowest lane among equal ones (+0 and -0 equal).
float LaneRuleMax(const float* v, uint32_t n) {
  for (uint32_t l = 0; l < n; ++l) {
    if (std::isnan(v[l])) return v[l];
  }
  uint32_t at = 0;
  for (uint32_t l = 1; l < n; ++l) at = v[l] > v[at] ? l : at;
  return v[at];
}

// BlockReduce over one block: adjacent pairs, then pairs of those (Max: the lane rule).
float BlockOf(const float* v, BinOp op) {
  if (op == MaxOp) return LaneRuleMax(v, kBlk);
  const float a0 = op(v[0], v[1]), a1 = op(v[2], v[3]), a2 = op(v[4], v[5]), a3 = op(v[6], v[7]);
  return op(op(a0, a1), op(a2, a3));
}

// WholeReduce of the first n lanes of one repeat (the masked lanes take `none`), the
// adjacent-pair tree over 64 lanes (Max: the lane rule over the n lanes).
float WholeOf(const float* v, uint32_t n, BinOp op, float none) {
  if (op == MaxOp) return LaneRuleMax(v, n);
  float lv[kRep];
  for (uint32_t l = 0; l < kRep; ++l) lv[l] = l < n ? v[l] : none;
  for (uint32_t w = kRep; w > 1; w /= 2) {
    for (uint32_t i = 0; i < w / 2; ++i) lv[i] = op(lv[2 * i], lv[2 * i + 1]);
  }
  return lv[0];
}

struct Rows {
  uint32_t m, oriK, srcK;
};

// The accumulator rows tmp[64 i .. 64 i + 64) of the first oriK / 64 * 64 columns:
// BigBlockReduce* (>= 512), Max/Add of chunks 0 and 1 and NextBlock* ([128, 512)),
// FirstBlockCopyImpl ([64, 128)).
void Accumulate(float* tmp, const float* src, const Rows& p, BinOp op) {
  const uint32_t split = p.oriK / kRep;
  if (p.oriK >= kBig) {
    for (uint32_t i = 0; i < p.m; ++i) {
      for (uint32_t r = 0; r < kBlk; ++r) {  // 8 repeats, 8 blocks each
        for (uint32_t b = 0; b < kBlk; ++b) {
          tmp[kRep * i + r * kBlk + b] = BlockOf(src + i * p.srcK + r * kRep + b * kBlk, op);
        }
      }
    }
    // BigBlockReduce*'s remainRepeat is a uint8_t: split - 8 mod 256 chunks after the first 8.
    const uint32_t last = kBig / kRep + static_cast<uint8_t>(split - kBig / kRep);
    for (uint32_t j = 0; j < p.m; ++j) {
      for (uint32_t c = kBig / kRep; c < last; ++c) {  // dst = op(src chunk, dst)
        for (uint32_t l = 0; l < kRep; ++l) {
          tmp[j * kRep + l] =
              op(src[kBig + j * p.srcK + (c - kBig / kRep) * kRep + l], tmp[j * kRep + l]);
        }
      }
    }
  } else if (p.oriK >= 2 * kRep) {
    // The first Max/Add and NextBlock*'s repeats over the rows take (uint8_t)m repeats and the
    // uint8_t repeat stride (uint8_t)(srcK / 8) blocks: repeat i reads at i * step (the rows
    // from m mod 256 on keep what tmp held).
    const uint32_t reps = static_cast<uint8_t>(p.m);
    const uint32_t step = static_cast<uint8_t>(p.srcK / kBlk) * kBlk;
    for (uint32_t i = 0; i < reps; ++i) {
      for (uint32_t l = 0; l < kRep; ++l) {
        tmp[i * kRep + l] = op(src[i * step + l], src[i * step + kRep + l]);
      }
    }
    if (reps > split) {  // repeats over the rows, chunk by chunk: dst = op(dst, src)
      for (uint32_t c = 2; c < split; ++c) {
        for (uint32_t i = 0; i < reps; ++i) {
          for (uint32_t l = 0; l < kRep; ++l) {
            tmp[i * kRep + l] = op(tmp[i * kRep + l], src[i * step + c * kRep + l]);
          }
        }
      }
    } else {  // row by row (the first (uint8_t)m), repeats over the chunks: dst = op(src, dst)
      for (uint32_t j = 0; j < reps; ++j) {
        for (uint32_t c = 2; c < split; ++c) {
          for (uint32_t l = 0; l < kRep; ++l) {
            tmp[j * kRep + l] =
                op(src[2 * kRep + j * p.srcK + (c - 2) * kRep + l], tmp[j * kRep + l]);
          }
        }
      }
    }
  } else {
    for (uint32_t i = 0; i < p.m; ++i) std::memcpy(tmp + i * kRep, src + i * p.srcK, kRep * 4);
  }
}

// NewReduce{Max,Sum}LastNDImpl<true>, dstK 8 or 16 floats a row: dst gets [m, dstK], tmp keeps
// what the reduction and the broadcast leave.
void NewReduce(float* dst, const float* src, float* tmp, const Rows& p, uint32_t dstK, BinOp op,
               float none) {
  const uint32_t split = p.oriK / kRep, tail = p.oriK % kRep;
  if (p.oriK < kRep) {  // ReduceMaxLastNDSplitImpl: one WholeReduce per row, dst[r]
    for (uint32_t r = 0; r < p.m; ++r) dst[r] = WholeOf(src + r * p.srcK, p.oriK, op, none);
  } else {
    Accumulate(tmp, src, p, op);
    for (uint32_t i = 0; i < p.m && tail != 0; ++i) {  // TailMaxImpl / TailAddImpl
      for (uint32_t l = 0; l < tail; ++l) {
        tmp[i * kRep + l] = op(tmp[i * kRep + l], src[split * kRep + i * p.srcK + l]);
      }
    }
    if (p.m == 1) {  // WholeReduce, 8 repeats of the same 64 lanes, dst[0..8)
      const float v = WholeOf(tmp, kRep, op, none);
      for (uint32_t j = 0; j < kBlk; ++j) dst[j] = v;
      if (dstK == 2 * kBlk) std::memcpy(dst + kBlk, dst, kBlk * 4);  // DataCopy of one block
    } else {
      for (uint32_t r = 0; r < p.m; ++r) {  // BlockReduce in place, repeat by repeat
        float b[kBlk];
        for (uint32_t j = 0; j < kBlk; ++j) b[j] = BlockOf(tmp + r * kRep + j * kBlk, op);
        std::memcpy(tmp + r * kBlk, b, sizeof b);
      }
      for (uint32_t r = 0; r < p.m; ++r) dst[r] = BlockOf(tmp + r * kBlk, op);
    }
  }
  if (p.m == 1 && p.oriK > kRep) return;
  // AlignedBroadCastImpl: Brcb of ceil(m / 8) repeats of 8 floats, then a copy of m * dstK.
  const uint32_t reps = (p.m + kBlk - 1) / kBlk;
  if (dstK == kBlk || p.m == 1) {  // block stride 1, repeat stride 8 blocks
    for (uint32_t i = 0; i < reps * kBlk; ++i) {
      for (uint32_t l = 0; l < kBlk; ++l) tmp[i * kBlk + l] = dst[i];
    }
    if (dstK != kBlk) std::memcpy(tmp + kBlk, tmp, kBlk * 4);  // one row: DataCopy of a block
  } else {  // dstK 16: block stride 2, repeat stride 16 blocks, at tmp and at tmp[8]
    for (uint32_t half = 0; half < 2; ++half) {
      for (uint32_t i = 0; i < reps; ++i) {
        for (uint32_t j = 0; j < kBlk; ++j) {
          for (uint32_t l = 0; l < kBlk; ++l) {
            tmp[half * kBlk + i * 16 * kBlk + j * 2 * kBlk + l] = dst[i * kBlk + j];
          }
        }
      }
    }
  }
  // Copy (counter mode) of m * dstK floats: with dstK 16 over a block of 8 floats a row (the
  // config's reductions on a tiling of reduceK 8) dst runs into tmp, its source, 8 splitM floats
  // on; the repeats read each float before they overwrite it (**[inference]**): a forward move.
  std::memmove(dst, tmp, uint64_t{p.m} * dstK * 4);
}

// GenericSubNDImpl / GenericDivNDImpl: column c of row r with lane c % 8 of the row's block.
void RowOp(float* dst, const float* a, const float* st, uint32_t m, const SmxTiling& t, BinOp op) {
  for (uint32_t r = 0; r < m; ++r) {
    for (uint32_t c = 0; c < t.srcK; ++c) {
      dst[r * t.srcK + c] = op(a[r * t.srcK + c], st[r * t.reduceK + c % kBlk]);
    }
  }
}
float SubOp(float a, float b) { return a - b; }
float DivOp(float a, float b) { return a / b; }

void OneSplit(const SmxTiling& t, const Rows& p, uint32_t o1, uint32_t o2, uint32_t n,
              const SmxFloatWork& io) {
  const bool stats = io.sum != nullptr;
  float* maxAt = stats ? io.max + o2 : io.work;
  float* sumAt = stats ? io.sum + o2 : io.work;
  float* tmp = stats ? io.work : io.work + t.reduceSize;
  float* src = io.src + o1;
  float* dst = io.dst + o1;
  NewReduce(maxAt, src, tmp, p, kBlk, MaxOp, -INFINITY);
  RowOp(dst, src, maxAt, p.m, t, SubOp);
  float* e = io.reuse && !stats ? src : dst;
  for (uint32_t j = 0; j < n; ++j) e[j] = ExpOf(dst[j]);
  NewReduce(sumAt, e, tmp, p, kBlk, AddOp, 0.0f);
  RowOp(dst, e, sumAt, p.m, t, DivOp);
  for (uint32_t j = 0; io.log && j < n; ++j) dst[j] = LnOf(dst[j]) * kLog10E;  // GenericLogNDImpl
}

// One split of half data: the float copy x at work[0], then as SingleSoftMaxImpl<half> /
// SoftMaxGenericNDImpl (half, half) / (half, float) place their statistics and accumulators.
void OneHalfSplit(const SmxTiling& t, const Rows& p, uint32_t o1, uint32_t o2, uint32_t n,
                  uint32_t reduceSize, const SmxHalfWork& io) {
  float* x = io.work;
  const bool floatStats = io.maxF != nullptr;
  float* maxAt = floatStats ? io.maxF + o2 : io.work + t.splitSize;
  float* sumAt = floatStats ? io.sumF + o2 : io.work + t.splitSize;
  float* tmp = floatStats ? io.work + t.splitSize : io.work + t.splitSize + t.reduceSize;
  for (uint32_t j = 0; j < n; ++j) x[j] = HalfToFloat(io.src[o1 + j]);  // CAST_NONE, exact
  const uint32_t dstK = io.redDstK != 0 ? io.redDstK : t.reduceK;
  NewReduce(maxAt, x, tmp, p, dstK, MaxOp, -INFINITY);
  if (io.maxH != nullptr) {
    for (uint32_t j = 0; j < reduceSize; ++j) io.maxH[o2 + j] = FloatToHalfRoundAway(maxAt[j]);
  }
  RowOp(x, x, maxAt, p.m, t, SubOp);
  for (uint32_t j = 0; j < n; ++j) x[j] = ExpOf(x[j]);
  NewReduce(sumAt, x, tmp, p, dstK, AddOp, 0.0f);
  if (io.sumH != nullptr) {
    for (uint32_t j = 0; j < reduceSize; ++j) io.sumH[o2 + j] = FloatToHalfRoundAway(sumAt[j]);
  }
  RowOp(x, x, sumAt, p.m, t, DivOp);
  for (uint32_t j = 0; io.log && j < n; ++j) x[j] = LnOf(x[j]) * kLog10E;  // GenericLogNDImpl
  for (uint32_t j = 0; j < n; ++j) io.dst[o1 + j] = FloatToHalfRoundAway(x[j]);
}

}  // namespace

void ReplaySoftMaxHalfWork(const SmxTiling& t, uint32_t oriK, const SmxHalfWork& io) {
  Rows p{t.splitM, oriK, t.splitK};
  uint32_t o1 = 0, o2 = 0, n = t.splitSize, rs = t.reduceSize;
  for (uint32_t i = 0; i <= t.rangeM; ++i) {
    OneHalfSplit(t, p, o1, o2, n, rs, io);
    o1 += t.splitSize;
    o2 += t.reduceSize;
    if (i == t.rangeM - 1) {
      if (t.tailM == 0) break;
      o1 = t.rangeM * t.splitSize;
      o2 = t.rangeM * t.reduceSize;
      n = t.tailSplitSize;
      rs = t.tailReduceSize;
      p.m = t.tailM;
    }
  }
}

void ReplayNewReduce2201(float* dst, const float* src, float* tmp, uint32_t m, uint32_t oriK,
                         uint32_t srcK, uint32_t dstK, bool max) {
  NewReduce(dst, src, tmp, Rows{m, oriK, srcK}, dstK, max ? MaxOp : AddOp, max ? -INFINITY : 0.0f);
}

void ReplaySoftMaxFloatWork(const SmxTiling& t, uint32_t oriK, const SmxFloatWork& io) {
  Rows p{t.splitM, oriK, t.splitK};
  uint32_t o1 = 0, o2 = 0, n = t.splitSize;
  for (uint32_t i = 0; i <= t.rangeM; ++i) {  // SoftMaxNDExtImpl's / SoftMaxNDImpl's loop
    OneSplit(t, p, o1, o2, n, io);
    o1 += t.splitSize;
    o2 += t.reduceSize;
    if (i == t.rangeM - 1) {
      if (t.tailM == 0) break;
      o1 = t.rangeM * t.splitSize;
      o2 = t.rangeM * t.reduceSize;
      n = t.tailSplitSize;
      p.m = t.tailM;
    }
  }
}

}  // namespace lngrad_replay
