// SoftmaxFlashV3's 2201 work buffer, replayed one vector instruction at a time over a float image
// of the scratch (see replay_softmax_flashv3_scratch.h for the files read). Built with
// lngrad_strict_fp: every operation rounds alone.
#include "replay_softmax_flashv3_scratch.h"

#include <cmath>
#include <cstring>
#include <vector>

namespace lngrad_replay {
namespace {

constexpr uint32_t kRep = 64;   // FLOAT_REPEAT_SIZE
constexpr uint32_t kBlk = 8;    // FLOAT_NUM_PER_BLK
constexpr uint32_t kBig = 512;  // SOFTMAX_FLOAT_SPECIAL_BLOCKREDUCE_LEN

float Add2(float a, float b) { return a + b; }
float Max2(float a, float b) { return a > b ? a : b; }
float ExpF(float x) { return static_cast<float>(std::exp(static_cast<double>(x))); }

// Adjacent pairs, level by level, over n (a power of two, at most 64) values.
template <class Op>
float Pairs(const float* v, uint32_t n, Op op) {
  float lv[kRep];
  std::memcpy(lv, v, n * sizeof(float));
  for (uint32_t w = n; w > 1; w /= 2) {
    for (uint32_t i = 0; i < w / 2; ++i) lv[i] = op(lv[2 * i], lv[2 * i + 1]);
  }
  return lv[0];
}

// The lane reduction of WholeReduce{Max,Sum} / BlockReduce{Max,Sum} over n lanes. Sums: Pairs.
// Max: as lngrad documents WholeReduceMax / BlockReduceMax (docs/ascendc_kernels.md,
// reduce_ops.h; the kit does not say), the first NaN lane, else the first lane holding the
// maximum, so +0 and -0 tie to the lower lane (session 24, tie2: Pairs of Max2 before, which gave
// the higher one).
float Lanes(const float* v, uint32_t n, float (*op)(float, float)) {
  if (op != Max2) return Pairs(v, n, op);
  float best = v[0];
  for (uint32_t l = 1; l < n && !std::isnan(best); ++l) {
    if (std::isnan(v[l]) || v[l] > best) best = v[l];
  }
  return best;
}

class Image {
 public:
  Image(uint8_t* p, uint32_t bytes) : p_(p), n_(bytes / 4), w_(n_) {
    std::memcpy(w_.data(), p, uint64_t{n_} * 4);
  }
  float& operator[](uint64_t i) {
    if (i < n_) return w_[i];
    ok_ = false;
    sink_ = 0.0f;
    return sink_;
  }
  bool Ok() const { return ok_; }
  void Store() const { std::memcpy(p_, w_.data(), uint64_t{n_} * 4); }

 private:
  uint8_t* p_;
  uint64_t n_;
  std::vector<float> w_;
  bool ok_ = true;
  float sink_ = 0.0f;
};

struct Run {
  const SmxTiling& t;
  const FlashV3ScratchArgs& a;
  const FlashV3ScratchIo& io;
  Image& w;
  uint64_t S, R, A, tb1, maxTmp, shiftCurr, shiftPrev, tb2;

  // NewReduce{Max,Sum}LastNDImpl, k >= 512, over m rows of the image at 0 (stride srcK), tmp at
  // tb1; dst(q) the statistics' float q.
  template <class Dst>
  void NewReduce(uint32_t m, float (*op)(float, float), Dst dst) {
    const uint32_t k = a.oriK;
    for (uint32_t r = 0; r < m; ++r) {
      const uint64_t x = uint64_t{r} * t.srcK, acc = tb1 + uint64_t{r} * kRep;
      for (uint32_t i = 0; i < kBig / kRep; ++i) {  // BigBlockReduce's BlockReduce repeats
        for (uint32_t b = 0; b < kBlk; ++b) {
          float v[kBlk];
          for (uint32_t e = 0; e < kBlk; ++e) v[e] = w[x + i * kRep + b * kBlk + e];
          w[acc + i * kBlk + b] = Lanes(v, kBlk, op);
        }
      }
      for (uint32_t c = kBig / kRep; c < k / kRep; ++c) {
        for (uint32_t l = 0; l < kRep; ++l) w[acc + l] = op(w[x + c * kRep + l], w[acc + l]);
      }
    }
    if (m == 1) {  // WholeReduce, eight repeats over the same lanes; no broadcast (k > 64)
      float v[kRep];
      for (uint32_t l = 0; l < kRep; ++l) v[l] = w[tb1 + l];
      const float s = Lanes(v, kRep, op);
      for (uint32_t j = 0; j < kBlk; ++j) dst(j) = s;
      return;
    }
    for (uint32_t r = 0; r < m; ++r) {  // BlockReduce in place: repeat r -> tmp[8r..8r+8)
      float v[kBlk];
      for (uint32_t b = 0; b < kBlk; ++b) {
        float e[kBlk];
        for (uint32_t i = 0; i < kBlk; ++i) e[i] = w[tb1 + uint64_t{r} * kRep + b * kBlk + i];
        v[b] = Lanes(e, kBlk, op);
      }
      for (uint32_t b = 0; b < kBlk; ++b) w[tb1 + uint64_t{r} * kBlk + b] = v[b];
    }
    for (uint32_t r = 0; r < m; ++r) {
      float v[kBlk];
      for (uint32_t b = 0; b < kBlk; ++b) v[b] = w[tb1 + uint64_t{r} * kBlk + b];
      dst(r) = Lanes(v, kBlk, op);
    }
    const uint32_t reps = (m + kBlk - 1) / kBlk;  // AlignedBroadCastImpl: Brcb, Copy back
    for (uint32_t q = 0; q < reps * kBlk; ++q) {
      const float v = dst(q);
      for (uint32_t j = 0; j < kBlk; ++j) w[tb1 + uint64_t{q} * kBlk + j] = v;
    }
    for (uint32_t q = 0; q < m * kBlk; ++q) dst(q) = w[tb1 + q];
  }

  // SoftmaxFlashV3ReduceSumImpl and the rest of ModifyInputImpl on m rows (rs = m * 8).
  void ModifyInput(uint32_t m) {
    const uint32_t baseK = a.oriK / a.splitMeanCnt;
    for (uint32_t r = 0; r < m; ++r) {  // BlockReduceSum, 8 repeats; the Add of chunks 8..
      const uint64_t x = uint64_t{r} * t.srcK, acc = tb1 + uint64_t{r} * kRep;
      for (uint32_t i = 0; i < kBlk; ++i) {
        for (uint32_t b = 0; b < kBlk; ++b) {
          float v[kBlk];
          for (uint32_t e = 0; e < kBlk; ++e) v[e] = w[x + i * kRep + b * kBlk + e];
          w[acc + i * kBlk + b] = Pairs(v, kBlk, Add2);
        }
      }
      for (uint32_t c = kBlk; c < a.oriK / kRep; ++c) {
        for (uint32_t l = 0; l < kRep; ++l) w[acc + l] = w[x + c * kRep + l] + w[acc + l];
      }
    }
    const uint64_t local = maxTmp, global = maxTmp + R, n = uint64_t{m} * kRep;
    // Counter mode, m * 64 elements: BlockReduceSum, Muls, BlockReduceSum, repeat by repeat.
    auto blockReduce = [&](uint64_t dst, uint64_t src) {
      for (uint64_t rep = 0; rep < n / kRep; ++rep) {
        float v[kBlk];
        for (uint32_t b = 0; b < kBlk; ++b) {
          float e[kBlk];
          for (uint32_t i = 0; i < kBlk; ++i) e[i] = w[src + rep * kRep + b * kBlk + i];
          v[b] = Pairs(e, kBlk, Add2);
        }
        for (uint32_t b = 0; b < kBlk; ++b) w[dst + rep * kBlk + b] = v[b];
      }
    };
    blockReduce(local, tb1);
    if (baseK != 0) {
      const float inv = 1.0f / static_cast<float>(baseK);
      for (uint64_t q = 0; q < n; ++q) w[local + q] = w[local + q] * inv;
    }
    blockReduce(global, local);
    const uint32_t reps = (m + kBlk - 1) / kBlk;  // Brcb(tmpBuffer1, rowMeanGlobalTmp)
    for (uint64_t q = 0; q < uint64_t{reps} * kBlk; ++q) {
      const float v = w[global + q];
      for (uint32_t j = 0; j < kBlk; ++j) w[tb1 + q * kBlk + j] = v;
    }
    const uint64_t rs = uint64_t{m} * kBlk;
    for (uint64_t q = 0; q < rs; ++q) w[global + q] = w[tb1 + q];                // Copy, m * dstK
    for (uint64_t q = 0; q < rs; ++q) w[S + q] = w[global + q] * (1.0f / kBlk);  // meanTmp
    const float sc = a.alpha / (1.0f - a.alpha);
    for (uint64_t q = 0; q < rs; ++q) w[global + q] = w[S + q] - w[local + q];
    for (uint64_t q = 0; q < rs; ++q) w[global + q] = w[global + q] * sc;
    for (uint32_t r = 0; r < m; ++r) {
      for (uint32_t j = 0; j < kBlk; ++j) {  // Brcb of the row's splitMeanCnt shifts
        const float v = w[global + uint64_t{r} * a.splitMeanCnt + j];
        for (uint32_t l = 0; l < kBlk; ++l) w[tb1 + j * kBlk + l] = v;
      }
      for (uint32_t j = 0; j < a.splitMeanCnt; ++j) {  // Copy, baseK per repeat, src block j
        for (uint32_t c = 0; c < baseK; ++c) w[tb2 + j * baseK + c] = w[tb1 + j * kBlk + c % kBlk];
      }
      for (uint32_t c = 0; c < t.splitK; ++c) {
        w[uint64_t{r} * t.srcK + c] = w[uint64_t{r} * t.srcK + c] - w[tb2 + c];
      }
    }
  }

  void Split(uint32_t r0, uint32_t m) {
    const uint64_t o1 = uint64_t{r0} * t.srcK, o2 = uint64_t{r0} * kBlk, rs = uint64_t{m} * kBlk;
    const uint64_t n = uint64_t{m} * t.srcK;
    const float sc = a.alpha / (1.0f - a.alpha);
    for (uint64_t i = 0; i < n; ++i) w[i] = io.src[o1 + i];  // Cast, CAST_NONE
    ModifyInput(m);
    float* mean = io.mean + o2;
    float* max = io.max + o2;
    float* expSum = io.expSum + o2;
    if (!a.update) {  // Copy(meanTensor, meanTmp, reduceSize, 1): Normal mode, one repeat, so
      // at most 64 floats (the mask's whole repeat; the debug build's CheckMaskValue asserts)
      for (uint64_t q = 0; q < rs && q < kRep; ++q) mean[q] = w[S + q];
    } else {  // SoftmaxFlashV3UpdateMeanImpl
      for (uint64_t q = 0; q < rs; ++q)
        mean[q] = io.inMean[o2 + q] * (static_cast<float>(a.loopCnt) - 1.0f);
      for (uint64_t q = 0; q < rs; ++q) mean[q] = mean[q] + w[S + q];
      for (uint64_t q = 0; q < rs; ++q)
        mean[q] = mean[q] * static_cast<float>(1.0f / static_cast<float>(a.loopCnt));
    }
    NewReduce(m, Max2, [&](uint64_t q) -> float& { return w[maxTmp + q]; });
    for (uint64_t q = 0; q < rs; ++q) w[shiftCurr + q] = w[S + q] - mean[q];  // ModifyMaxImpl
    for (uint64_t q = 0; q < rs; ++q) w[shiftCurr + q] = w[shiftCurr + q] * sc;
    for (uint64_t q = 0; q < rs; ++q) max[q] = w[maxTmp + q] + w[shiftCurr + q];
    if (a.update) {
      for (uint64_t q = 0; q < rs; ++q) w[shiftPrev + q] = io.inMean[o2 + q] - mean[q];
      for (uint64_t q = 0; q < rs; ++q) w[shiftPrev + q] = w[shiftPrev + q] * sc;
      for (uint64_t q = 0; q < rs; ++q) w[maxTmp + q] = io.inMax[o2 + q] + w[shiftPrev + q];
      for (uint64_t q = 0; q < rs; ++q) max[q] = Max2(max[q], w[maxTmp + q]);
      for (uint64_t q = 0; q < rs; ++q) w[maxTmp + q] = io.inMax[o2 + q] - max[q];
      for (uint64_t q = 0; q < rs; ++q) w[maxTmp + q] = w[shiftPrev + q] + w[maxTmp + q];
      for (uint64_t q = 0; q < rs; ++q) w[maxTmp + q] = ExpF(w[maxTmp + q]);
      for (uint64_t q = 0; q < rs; ++q) expSum[q] = w[maxTmp + q] * io.inExpSum[o2 + q];
    }
    for (uint64_t q = 0; q < rs; ++q) w[shiftCurr + q] = max[q] - w[shiftCurr + q];
    for (uint32_t r = 0; r < m; ++r) {  // GenericSubNDImpl (lane c % 8), Exp, the Cast's floats
      for (uint32_t c = 0; c < t.srcK; ++c) {
        const uint64_t at = uint64_t{r} * t.srcK + c;
        w[at] = w[at] - w[shiftCurr + uint64_t{r} * kBlk + c % kBlk];
      }
    }
    for (uint64_t i = 0; i < n; ++i) w[i] = ExpF(w[i]);
    for (uint64_t i = 0; i < n; ++i) io.dst[o1 + i] = w[i];
    if (!a.update) {
      NewReduce(m, Add2, [&](uint64_t q) -> float& { return expSum[q]; });
      return;
    }
    NewReduce(m, Add2, [&](uint64_t q) -> float& { return w[S + q]; });
    for (uint64_t q = 0; q < rs; ++q) expSum[q] = expSum[q] + w[S + q];
    for (uint64_t r = 0; r < t.reduceM; ++r) {  // BroadCastLastImpl(tmpBuffer0, maxTmp)
      for (uint32_t j = 0; j < 2 * kBlk; ++j) w[r * 2 * kBlk + j] = w[maxTmp + r * kBlk + j % kBlk];
    }
    for (uint64_t p = 0; p < rs * 2; ++p) io.expMax[o2 * 2 + p] = w[p];  // the Cast's floats
  }
};

}  // namespace

bool ReplayFlashV3Scratch(const SmxTiling& t, const FlashV3ScratchArgs& a,
                          const FlashV3ScratchIo& io, uint8_t* scratch, uint32_t bytes) {
  if (t.reduceK != kBlk || t.srcK != a.oriK || t.splitK != t.srcK || a.oriK < kBig ||
      a.oriK % kRep != 0 || a.splitMeanCnt != kBlk || t.splitM == 0) {
    return false;
  }
  Image w(scratch, bytes);
  const uint64_t S = t.splitSize, R = t.reduceSize, A = uint64_t{t.splitM} * kRep;
  Run run{t,
          a,
          io,
          w,
          S,
          R,
          A,
          S + R,
          S + A + R,
          S + A + 2 * R,
          S + A + 3 * R,
          S + A + (a.update ? 4 : 3) * R};
  for (uint32_t i = 0; i < t.rangeM && w.Ok(); ++i) run.Split(i * t.splitM, t.splitM);
  if (t.tailM != 0 && w.Ok()) run.Split(t.rangeM * t.splitM, t.tailM);
  if (!w.Ok()) return false;
  w.Store();
  return true;
}

}  // namespace lngrad_replay
