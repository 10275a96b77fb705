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

struct Op {
  bool max;
  float operator()(float a, float b) const { return max ? (a > b ? a : b) : a + b; }
  float Neutral() const { return max ? -INFINITY : 0.0f; }
};

// Adjacent pairs, level by level, over n (a power of two) values.
float PairTree(const float* v, uint32_t n, Op op) {
  float lv[kRep];
  std::memcpy(lv, v, n * sizeof(float));
  for (uint32_t w = n; w > 1; w /= 2) {
    for (uint32_t i = 0; i < w / 2; ++i) lv[i] = op(lv[2 * i], lv[2 * i + 1]);
  }
  return lv[0];
}

// WholeReduce{Max,Sum} of the first `mask` lanes of one repeat (lanes past it are the neutral
// value of the pair tree).
float Whole(const float* v, uint32_t mask, Op op) {
  float lanes[kRep];
  for (uint32_t l = 0; l < kRep; ++l) lanes[l] = l < mask ? v[l] : op.Neutral();
  return PairTree(lanes, kRep, op);
}

// NewReduce{Max,Sum}LastNDImpl<isBroadCast = true>: m rows of src at stride srcK, the first k
// values of each; dst is the statistics ([m, 8] floats, the compact results first), tmp the
// scratch floats it works in.
void NewReduce(float* dst, const float* src, float* tmp, uint32_t m, uint32_t k, uint32_t srcK,
               Op op) {
  const uint32_t split = k / kRep, tail = k % kRep;
  if (k < kRep) {  // ReducexxxLastNDSplitImpl: one masked repeat per row, dst[r]
    for (uint32_t r = 0; r < m; ++r) dst[r] = Whole(src + r * srcK, k, op);
  } else {
    for (uint32_t r = 0; r < m; ++r) {
      const float* x = src + r * srcK;
      float* acc = tmp + r * kRep;
      if (k >= kBig) {  // BigBlockReduce: 8 BlockReduce repeats, then chunks 8.. as (x op acc)
        for (uint32_t i = 0; i < kRep / kBlk; ++i) {
          for (uint32_t b = 0; b < kBlk; ++b) acc[i * kBlk + b] = PairTree(x + i * kRep + b * kBlk, kBlk, op);
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
    if (m == 1) {  // WholeReduce, 8 repeats of the same lanes: dst[0..8)
      const float v = PairTree(tmp, kRep, op);
      for (uint32_t j = 0; j < kBlk; ++j) dst[j] = v;
    } else {  // BlockReduce in place (repeat r: tmp[64r..) -> tmp[8r..)), then into dst[r]
      for (uint32_t r = 0; r < m; ++r) {
        float blocks[kBlk];
        for (uint32_t b = 0; b < kBlk; ++b) blocks[b] = PairTree(tmp + r * kRep + b * kBlk, kBlk, op);
        std::memcpy(tmp + r * kBlk, blocks, sizeof blocks);
      }
      for (uint32_t r = 0; r < m; ++r) dst[r] = PairTree(tmp + r * kBlk, kBlk, op);
    }
  }
  if (m != 1 || k <= kRep) {  // AlignedBroadCastImpl: Brcb into tmp, Copy of m * 8 back
    const uint32_t reps = (m + kBlk - 1) / kBlk;
    for (uint32_t q = 0; q < reps * kBlk; ++q) {
      const float v = dst[q];
      for (uint32_t j = 0; j < kBlk; ++j) tmp[q * kBlk + j] = v;
    }
    std::memcpy(dst, tmp, m * kBlk * sizeof(float));
  }
}

}  // namespace

bool ReplayFlashV2FloatScratch(const SmxTiling& t, uint32_t oriK, bool isUpdate,
                               const FlashV2ScratchIo& io, uint8_t* scratch, uint32_t bytes) {
  if (t.reduceK != kBlk || t.rangeM == 0 || t.splitK != t.srcK) return false;
  // tmpBuffer0 at 0; the update's tmpBuffer1 at tiling.reduceSize (splitM * 64 floats).
  const uint64_t need = (isUpdate ? uint64_t{t.reduceSize} : 0) + uint64_t{t.splitM} * kRep;
  if (need * 4 > bytes) return false;
  std::vector<float> w(bytes / 4 + 1);
  std::memcpy(w.data(), scratch, bytes);
  std::vector<float> y;
  uint32_t offset1 = 0, offset2 = 0, rows = t.splitM, reduceSize = t.reduceSize;
  for (uint32_t i = 0; i <= t.rangeM; ++i) {
    const float* x = io.src + offset1;
    float* sum = io.expSum + offset2;
    float* max = io.max + offset2;
    y.assign(uint64_t{rows} * t.srcK, 0.0f);
    if (!isUpdate) {
      float* tmp0 = w.data();
      NewReduce(max, x, tmp0, rows, oriK, t.srcK, Op{true});
      for (uint32_t r = 0; r < rows; ++r) {  // GenericSubNDImpl (lane c % 8), Exp
        for (uint32_t c = 0; c < t.srcK; ++c) {
          y[r * t.srcK + c] = static_cast<float>(
              std::exp(static_cast<double>(x[r * t.srcK + c] - max[r * kBlk + c % kBlk])));
        }
      }
      NewReduce(sum, y.data(), tmp0, rows, oriK, t.srcK, Op{false});
    } else {
      float* tmp0 = w.data();
      float* tmp1 = w.data() + t.reduceSize;
      const float* inMax = io.inMax + offset2;
      const float* inSum = io.inExpSum + offset2;
      NewReduce(tmp0, x, tmp1, rows, oriK, t.srcK, Op{true});
      for (uint32_t p = 0; p < reduceSize; ++p) tmp0[p] = inMax[p] > tmp0[p] ? inMax[p] : tmp0[p];
      for (uint32_t p = 0; p < reduceSize; ++p) tmp1[p] = inMax[p] - tmp0[p];
      std::vector<float> expMax(reduceSize);
      for (uint32_t p = 0; p < reduceSize; ++p) {
        expMax[p] = static_cast<float>(std::exp(static_cast<double>(tmp1[p])));
      }
      for (uint32_t r = 0; r < rows; ++r) {
        for (uint32_t c = 0; c < t.srcK; ++c) {
          y[r * t.srcK + c] = static_cast<float>(
              std::exp(static_cast<double>(x[r * t.srcK + c] - tmp0[r * kBlk + c % kBlk])));
        }
      }
      std::memcpy(max, tmp0, reduceSize * sizeof(float));  // DataCopy (2201)
      NewReduce(tmp0, y.data(), tmp1, rows, oriK, t.srcK, Op{false});
      for (uint32_t p = 0; p < reduceSize; ++p) {
        const float prod = expMax[p] * inSum[p];
        sum[p] = prod + tmp0[p];
      }
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
  std::memcpy(scratch, w.data(), bytes);
  return true;
}

}  // namespace lngrad_replay
