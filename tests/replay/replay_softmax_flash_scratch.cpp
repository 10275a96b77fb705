// SoftmaxFlashV2's 2201 work buffer (float), replayed one vector instruction at a time over a
// float image of the scratch (see replay_softmax_flash_scratch.h for the files read). Built with
// lngrad_strict_fp: every operation rounds alone.
#include "replay_softmax_flash_scratch.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

namespace lngrad_replay {
namespace {

constexpr uint32_t kRep = 64;   // floats per repeat (FLOAT_REPEAT_SIZE)
constexpr uint32_t kBlk = 8;    // floats per block (FLOAT_NUM_PER_BLK)
constexpr uint32_t kBig = 512;  // SOFTMAX_FLOAT_SPECIAL_BLOCKREDUCE_LEN

// The binary Max / Add (vmax: a > b ? a : b, operand order kept: a tie or a NaN gives b).
struct Op {
  bool max;
  float operator()(float a, float b) const { return max ? (a > b ? a : b) : a + b; }
};

// The lane reduction of WholeReduce{Max,Sum} / BlockReduce{Max,Sum} over n lanes (a power of two
// for sums). Sums: adjacent pairs, level by level. Max: as lngrad documents WholeReduceMax and
// BlockReduceMax (docs/ascendc_kernels.md, reduce_ops.h; the kit does not say), the first NaN
// lane, else the first lane holding the maximum, so +0 and -0 tie to the lower lane (session 24,
// tie: a pair tree of vmax here gave the higher one, unlike replay_softmax.cpp and lngrad).
float LaneReduce(const float* v, uint32_t n, Op op) {
  if (op.max) {
    float best = v[0];
    for (uint32_t l = 1; l < n && !std::isnan(best); ++l) {
      if (std::isnan(v[l]) || v[l] > best) best = v[l];
    }
    return best;
  }
  float lv[kRep];
  std::memcpy(lv, v, n * sizeof(float));
  for (uint32_t w = n; w > 1; w /= 2) {
    for (uint32_t i = 0; i < w / 2; ++i) lv[i] = op(lv[2 * i], lv[2 * i + 1]);
  }
  return lv[0];
}

// WholeReduce{Max,Sum} of the first `mask` lanes of one repeat: the max reads those lanes only,
// the sum's tree takes the lanes past them as +0.
float Whole(const float* v, uint32_t mask, Op op) {
  if (op.max) return LaneReduce(v, mask, op);
  float lanes[kRep];
  for (uint32_t l = 0; l < kRep; ++l) lanes[l] = l < mask ? v[l] : 0.0f;
  return LaneReduce(lanes, kRep, op);
}

// NewReduce{Max,Sum}LastNDImpl<isBroadCast = true>: m rows of src at stride srcK, the first k
// values of each; dst is the statistics ([m, 8] floats, the compact results first), tmp the
// scratch floats it works in.
void NewReduce(float* dst, const float* src, float* tmp, uint32_t m, uint32_t k, uint32_t srcK,
               Op op, uint32_t dk = kBlk) {
  const uint32_t split = k / kRep, tail = k % kRep;
  if (k < kRep) {  // ReducexxxLastNDSplitImpl: one masked repeat per row, dst[r]
    for (uint32_t r = 0; r < m; ++r) dst[r] = Whole(src + r * srcK, k, op);
  } else {
    for (uint32_t r = 0; r < m; ++r) {
      const float* x = src + r * srcK;
      float* acc = tmp + r * kRep;
      if (k >= kBig) {  // BigBlockReduce: 8 BlockReduce repeats, then chunks 8.. as (x op acc)
        for (uint32_t i = 0; i < kRep / kBlk; ++i) {
          for (uint32_t b = 0; b < kBlk; ++b)
            acc[i * kBlk + b] = LaneReduce(x + i * kRep + b * kBlk, kBlk, op);
        }
        for (uint32_t c = kBig / kRep; c < split; ++c) {
          for (uint32_t l = 0; l < kRep; ++l) acc[l] = op(x[c * kRep + l], acc[l]);
        }
      } else if (k >= 2 * kRep) {  // chunk 0 op chunk 1, then NextBlock
        for (uint32_t l = 0; l < kRep; ++l) acc[l] = op(x[l], x[kRep + l]);
        for (uint32_t c = 2; c < split; ++c) {
          for (uint32_t l = 0; l < kRep; ++l) {
            acc[l] = m > split ? op(acc[l], x[c * kRep + l]) : op(x[c * kRep + l], acc[l]);
          }
        }
      } else {  // FirstBlockCopyImpl
        std::memcpy(acc, x, kRep * sizeof(float));
      }
      for (uint32_t l = 0; l < tail; ++l) acc[l] = op(acc[l], x[split * kRep + l]);  // TailxxxImpl
    }
    if (m == 1) {  // WholeReduce, 8 repeats of the same lanes: dst[0..8); dk 16: DataCopy
      const float v = LaneReduce(tmp, kRep, op);
      for (uint32_t j = 0; j < kBlk; ++j) dst[j] = v;
      if (dk == 2 * kBlk) std::memcpy(dst + kBlk, dst, kBlk * sizeof(float));
    } else {  // BlockReduce in place (repeat r: tmp[64r..) -> tmp[8r..)), then into dst[r]
      for (uint32_t r = 0; r < m; ++r) {
        float blocks[kBlk];
        for (uint32_t b = 0; b < kBlk; ++b)
          blocks[b] = LaneReduce(tmp + r * kRep + b * kBlk, kBlk, op);
        std::memcpy(tmp + r * kBlk, blocks, sizeof blocks);
      }
      for (uint32_t r = 0; r < m; ++r) dst[r] = LaneReduce(tmp + r * kBlk, kBlk, op);
    }
  }
  if (m != 1 || k <= kRep) {  // AlignedBroadCastImpl: Brcb into tmp, Copy of m * dk back
    const uint32_t reps = (m + kBlk - 1) / kBlk;
    if (dk == 2 * kBlk && m != 1) {  // two Brcb, block stride 2, repeat stride 16 blocks
      for (uint32_t i = 0; i < reps; ++i) {
        for (uint32_t half = 0; half < 2; ++half) {
          for (uint32_t b = 0; b < kBlk; ++b) {
            for (uint32_t j = 0; j < kBlk; ++j) {
              tmp[(i * 16 + 2 * b) * kBlk + half * kBlk + j] = dst[i * kBlk + b];
            }
          }
        }
      }
    } else {
      for (uint32_t q = 0; q < reps * kBlk; ++q) {
        const float v = dst[q];
        for (uint32_t j = 0; j < kBlk; ++j) tmp[q * kBlk + j] = v;
      }
      if (dk == 2 * kBlk) std::memcpy(tmp + kBlk, tmp, kBlk * sizeof(float));  // m == 1
    }
    std::memcpy(dst, tmp, m * dk * sizeof(float));
  }
}

}  // namespace

namespace {

float Exp1(float x) { return static_cast<float>(std::exp(static_cast<double>(x))); }

struct Split {
  const SmxTiling& t;
  uint32_t oriK;
  const FlashV2ScratchIo& io;
  float* w;
  uint32_t o1, o2, rows, rs;  // offsets, rows, the split's statistics count

  // GenericSubNDImpl (lane c % 8 of the row's statistics at stat, dk per row) and Exp over y.
  void SubExp(float* y, const float* x, const float* stat, uint32_t dk) const {
    for (uint32_t r = 0; r < rows; ++r) {
      for (uint32_t c = 0; c < t.srcK; ++c) {
        y[r * t.srcK + c] = Exp1(x[r * t.srcK + c] - stat[r * dk + c % kBlk]);
      }
    }
  }
  void Cast(float* y) const { std::memcpy(y, io.src + o1, uint64_t{rows} * t.srcK * 4); }

  void FloatData(bool update, std::vector<float>& y) const {
    const float* x = io.src + o1;
    y.assign(uint64_t{rows} * t.srcK, 0.0f);
    if (!update) {  // softmax_flashv2_no_update_impl.h, float
      NewReduce(io.max + o2, x, w, rows, oriK, t.srcK, Op{true});
      SubExp(y.data(), x, io.max + o2, kBlk);
      NewReduce(io.expSum + o2, y.data(), w, rows, oriK, t.srcK, Op{false});
      return;
    }
    float *tmp0 = w, *tmp1 = w + t.reduceSize;  // softmax_flashv2_update_impl.h, float
    const float *inMax = io.inMax + o2, *inSum = io.inExpSum + o2;
    NewReduce(tmp0, x, tmp1, rows, oriK, t.srcK, Op{true});
    for (uint32_t p = 0; p < rs; ++p) tmp0[p] = inMax[p] > tmp0[p] ? inMax[p] : tmp0[p];
    for (uint32_t p = 0; p < rs; ++p) tmp1[p] = inMax[p] - tmp0[p];
    std::vector<float> expMax(rs);
    for (uint32_t p = 0; p < rs; ++p) expMax[p] = Exp1(tmp1[p]);
    SubExp(y.data(), x, tmp0, kBlk);
    std::memcpy(io.max + o2, tmp0, rs * 4);  // DataCopy (2201)
    NewReduce(tmp0, y.data(), tmp1, rows, oriK, t.srcK, Op{false});
    for (uint32_t p = 0; p < rs; ++p) io.expSum[o2 + p] = expMax[p] * inSum[p] + tmp0[p];
  }

  void HalfNoUpdate(bool statHalf) const {
    const uint64_t S = t.splitSize, R = t.reduceSize;
    Cast(w);
    if (statHalf) {  // reduceBuffer at splitSize (16 per row), tmpBuffer2 after it
      NewReduce(w + S, w, w + S + R, rows, oriK, t.srcK, Op{true}, 2 * kBlk);
      SubExp(w, w, w + S, 2 * kBlk);
      NewReduce(w + S, w, w + S + R, rows, oriK, t.srcK, Op{false}, 2 * kBlk);
      return;
    }
    NewReduce(io.max + o2, w, w + S, rows, oriK, t.srcK, Op{true});
    SubExp(w, w, io.max + o2, kBlk);
    NewReduce(io.expSum + o2, w, w + S, rows, oriK, t.srcK, Op{false});
  }

  void HalfUpdate(bool statHalf) const {
    const uint64_t S = t.splitSize, R = t.reduceSize;
    float *tmp1 = w + S, *tmp2 = w + S + R, *tmp3 = w + S + R + uint64_t{t.splitM} * kRep;
    const float *inMax = io.inMax + o2, *inSum = io.inExpSum + o2;
    const uint32_t dk = statHalf ? 2 * kBlk : kBlk;
    for (uint32_t p = 0; p < rs; ++p) tmp1[p] = inMax[p];  // Cast (half) / DataCopy (float)
    Cast(w);
    NewReduce(tmp3, w, tmp2, rows, oriK, t.srcK, Op{true}, dk);
    if (statHalf) {
      for (uint32_t p = 0; p < rs; ++p) tmp3[p] = tmp1[p] > tmp3[p] ? tmp1[p] : tmp3[p];
      for (uint32_t p = 0; p < rs; ++p) tmp1[p] = tmp1[p] - tmp3[p];
      SubExp(w, w, tmp3, dk);
      NewReduce(tmp3, w, tmp2, rows, oriK, t.srcK, Op{false}, dk);
      for (uint32_t p = 0; p < rs; ++p) tmp1[p] = Exp1(tmp1[p]);
      for (uint32_t p = 0; p < rs; ++p) tmp2[p] = inSum[p];
      for (uint32_t p = 0; p < rs; ++p) tmp1[p] = tmp1[p] * tmp2[p];
      for (uint32_t p = 0; p < rs; ++p) tmp2[p] = tmp1[p] + tmp3[p];
      return;
    }
    float* max = io.max + o2;
    for (uint32_t p = 0; p < rs; ++p) max[p] = inMax[p] > tmp3[p] ? inMax[p] : tmp3[p];
    SubExp(w, w, max, kBlk);
    NewReduce(tmp3, w, tmp2, rows, oriK, t.srcK, Op{false});
    for (uint32_t p = 0; p < rs; ++p) tmp1[p] = tmp1[p] - max[p];
    for (uint32_t p = 0; p < rs; ++p) tmp1[p] = Exp1(tmp1[p]);
    for (uint32_t r = 0; r < t.reduceM; ++r) {  // BroadCastLastImpl over tiling.reduceM rows
      for (uint32_t j = 0; j < 2 * kBlk; ++j) w[r * 2 * kBlk + j] = tmp1[r * kBlk + j % kBlk];
    }
    for (uint32_t p = 0; p < rs; ++p) tmp1[p] = tmp1[p] * inSum[p];
    for (uint32_t p = 0; p < rs; ++p) io.expSum[o2 + p] = tmp1[p] + tmp3[p];
  }
};

}  // namespace

bool ReplayFlashV2Scratch(const SmxTiling& t, uint32_t oriK, const FlashV2ScratchKind& kind,
                          const FlashV2ScratchIo& io, uint8_t* scratch, uint32_t bytes) {
  const uint32_t dk = kind.statHalf ? 2 * kBlk : kBlk;
  if (t.reduceK != dk || t.rangeM == 0 || t.splitK != t.srcK) return false;
  // The image, with room past the end for a footprint that leaves the scratch (marked).
  constexpr uint32_t kPastMark = 0x7fbadbadu;
  const uint64_t inside = (bytes + 3) / 4;
  std::vector<float> w(inside + 4 * (uint64_t{t.splitSize} + t.reduceSize + t.splitM * kRep) + 64,
                       FromBits(kPastMark));
  std::memcpy(w.data(), scratch, bytes);
  std::vector<float> y;
  uint32_t offset1 = 0, offset2 = 0, rows = t.splitM, reduceSize = t.reduceSize;
  for (uint32_t i = 0; i <= t.rangeM; ++i) {
    const Split sp{t, oriK, io, w.data(), offset1, offset2, rows, reduceSize};
    if (!kind.half) {
      sp.FloatData(kind.update, y);
    } else if (kind.update) {
      sp.HalfUpdate(kind.statHalf);
    } else {
      sp.HalfNoUpdate(kind.statHalf);
    }
    offset1 += t.splitSize;
    offset2 += t.reduceSize;
    if (i == t.rangeM - 1) {
      if (t.tailM == 0) break;
      offset1 = t.rangeM * t.splitSize;
      offset2 = t.rangeM * t.reduceSize;
      rows = t.tailM;
      reduceSize = t.tailReduceSize;
    }
  }
  if (bytes % 4 != 0) return false;  // a float across the end: not covered
  for (uint64_t i = inside; i < w.size(); ++i) {
    if (Bits(w[i]) != kPastMark) return false;  // the kit wrote past the scratch: not covered
  }
  std::memcpy(scratch, w.data(), bytes);
  return true;
}

}  // namespace lngrad_replay
