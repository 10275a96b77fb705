// SoftmaxFlashV2's SOFTMAX_OUTPUT_WITHOUT_BRC generic path on 2201 replayed instruction by
// instruction over host memory (see replay_softmax_flashv2_m1.h for the files read).
#include "replay_softmax_flashv2_m1.h"

#include <cmath>
#include <type_traits>

namespace lngrad_replay {
namespace {

constexpr uint32_t kRep = 64;      // floats per repeat
constexpr uint32_t kBlk = 8;       // floats per 32-byte block
constexpr uint32_t kMaxRep = 255;  // MAX_REPEAT_TIMES

enum class Op { kMax, kAdd, kSub, kMul };
float Apply(Op op, float a, float b) {
  switch (op) {
    case Op::kMax:
      return a > b ? a : b;
    case Op::kAdd:
      return a + b;
    case Op::kSub:
      return a - b;
    case Op::kMul:
      return a * b;
  }
  return 0.0f;
}
float Exp(float x) { return static_cast<float>(std::exp(static_cast<double>(x))); }

// The lane rule of the max reductions (first NaN, else the first lane of the largest value).
float MaxLanes(const float* v, uint32_t n) {
  for (uint32_t l = 0; l < n; ++l) {
    if (std::isnan(v[l])) return v[l];
  }
  float best = v[0];
  for (uint32_t l = 1; l < n; ++l) best = v[l] > best ? v[l] : best;
  return best;
}
// The sum reductions: the adjacent-pair tree over a block (8) or a repeat (64; masked lanes 0).
float PairTree(const float* v, uint32_t n, uint32_t width) {
  float lv[kRep];
  for (uint32_t l = 0; l < width; ++l) lv[l] = l < n ? v[l] : 0.0f;
  for (uint32_t w = width; w > 1; w /= 2) {
    for (uint32_t i = 0; i < w / 2; ++i) lv[i] = lv[2 * i] + lv[2 * i + 1];
  }
  return lv[0];
}
float Reduce(bool sum, const float* v, uint32_t n, uint32_t width) {
  return sum ? PairTree(v, n, width) : MaxLanes(v, n);
}

// Strides in blocks: {dst block, src0 block, src1 block, dst repeat, src0 repeat, src1 repeat}.
struct St {
  uint32_t db, ab, bb, dr, ar, br;
};
constexpr St kDefault{1, 1, 1, 8, 8, 8};

// A binary instruction over `repeats` repeats of `lanes` leading elements each (the last one
// `lastLanes`: Counter mode), each element read and written in turn.
void Binary(Op op, float* d, const float* a, const float* b, uint32_t repeats, uint32_t lanes,
            uint32_t lastLanes, St s) {
  for (uint32_t r = 0; r < repeats; ++r) {
    const uint32_t n = r + 1 == repeats ? lastLanes : lanes;
    for (uint32_t e = 0; e < n; ++e) {
      const uint32_t blk = e / kBlk, l = e % kBlk;
      const float x = a[(r * s.ar + blk * s.ab) * kBlk + l];
      const float y = b[(r * s.br + blk * s.bb) * kBlk + l];
      d[(r * s.dr + blk * s.db) * kBlk + l] = Apply(op, x, y);
    }
  }
}
// Counter mode over `count` elements.
void BinaryCount(Op op, float* d, const float* a, const float* b, uint64_t count, St s) {
  if (count == 0) return;
  const uint32_t reps = static_cast<uint32_t>((count + kRep - 1) / kRep);
  const uint32_t last = static_cast<uint32_t>(count - uint64_t{reps - 1} * kRep);
  Binary(op, d, a, b, reps, kRep, last, s);
}
// Copy (Normal mode, full mask): repeat strides in blocks.
void CopyRepeats(float* d, const float* a, uint32_t repeats, uint32_t dr, uint32_t ar) {
  for (uint32_t r = 0; r < repeats; ++r) {
    for (uint32_t e = 0; e < kRep; ++e) d[r * dr * kBlk + e] = a[r * ar * kBlk + e];
  }
}

// BlockReduce{Max,Sum} (dst repeat stride 1: 8 results a repeat at d + 8 r; src block stride 1),
// Counter mode over `count` elements or Normal mode (count = repeats * 64).
void BlockReduce(bool sum, float* d, const float* a, uint64_t count, uint32_t ar) {
  const uint32_t reps = static_cast<uint32_t>((count + kRep - 1) / kRep);
  for (uint32_t r = 0; r < reps; ++r) {
    const uint32_t n = static_cast<uint32_t>(std::min<uint64_t>(kRep, count - uint64_t{r} * kRep));
    float v[kRep] = {};
    for (uint32_t e = 0; e < n; ++e) v[e] = a[r * ar * kBlk + e];
    float out[kBlk];
    const uint32_t blocks = (n + kBlk - 1) / kBlk;
    for (uint32_t b = 0; b < blocks; ++b) {
      const uint32_t in = std::min(kBlk, n - b * kBlk);
      out[b] = Reduce(sum, v + b * kBlk, in, kBlk);
    }
    for (uint32_t b = 0; b < blocks; ++b) d[r * kBlk + b] = out[b];
  }
}

// WholeReduce{Max,Sum} (ORDER_ONLY_VALUE): repeat r's first `mask` lanes into d[r * dr].
void WholeReduce(bool sum, float* d, const float* a, uint32_t mask, uint32_t repeats, uint32_t dr,
                 uint32_t ar) {
  for (uint32_t r = 0; r < repeats; ++r) {
    float v[kRep] = {};
    for (uint32_t e = 0; e < mask; ++e) v[e] = a[r * ar * kBlk + e];
    d[r * dr] = Reduce(sum, v, mask, kRep);
  }
}

struct Param {  // ReduceLastND: srcM = originalSrcM = m, srcK, originalSrcK = oriK, dstK
  uint32_t m, k, oriK, dstK;
};

// NewReduce{Max,Sum}LastNDImpl<false>, the operands the kit narrows to uint8_t as they wrap
// (session 25): the [128, 512) branch's first Max/Add repeats (uint8_t)m rows at a repeat stride
// of (uint8_t)(srcK / 8) blocks, NextBlock{Max,Add}Impl takes that count and stride (and compares
// the count with the chunks), BigBlockReduce{Max,Sum}'s remainRepeat is (uint8_t)(chunks - 8).
void NewReduceNoBrc(bool sum, float* dst, const float* src, float* tmp, const Param& p) {
  const uint32_t split = p.oriK / kRep, tail = p.oriK % kRep, rs = p.k / kBlk;
  const Op op = sum ? Op::kAdd : Op::kMax;
  if (p.oriK < kRep) {  // Reduce{Max,Sum}LastNDSplitImpl, 255 rows a call
    for (uint32_t i = 0; i * kMaxRep < p.m; ++i) {
      const uint32_t reps = std::min(kMaxRep, p.m - i * kMaxRep);
      WholeReduce(sum, dst + i * kMaxRep, src + uint64_t{i} * kMaxRep * p.k, p.oriK, reps, 1, rs);
    }
    return;
  }
  const uint32_t m8 = static_cast<uint8_t>(p.m), rs8 = static_cast<uint8_t>(rs);
  if (p.oriK >= 512) {  // BigBlockReduce{Max,Sum}
    for (uint32_t i = 0; i < p.m; ++i) BlockReduce(sum, tmp + kRep * i, src + i * p.k, 8 * kRep, 8);
    const uint32_t remain = static_cast<uint8_t>(split - 8);
    for (uint32_t j = 0; remain != 0 && j < p.m; ++j) {
      Binary(op, tmp + j * kRep, src + 512 + j * p.k, tmp + j * kRep, remain, kRep, kRep,
             {1, 1, 1, 0, 8, 0});
    }
  } else if (p.oriK >= 128) {  // Op(chunk 0, chunk 1), NextBlock{Max,Add}Impl
    Binary(op, tmp, src, src + kRep, m8, kRep, kRep, {1, 1, 1, 8, rs8, rs8});
    if (m8 > split) {
      for (uint32_t i = 2; i < split; ++i) {
        Binary(op, tmp, tmp, src + kRep * i, m8, kRep, kRep, {1, 1, 1, 8, 8, rs8});
      }
    } else {
      for (uint32_t j = 0; split > 2 && j < m8; ++j) {
        Binary(op, tmp + j * kRep, src + 128 + j * p.k, tmp + j * kRep, split - 2, kRep, kRep,
               {1, 1, 1, 0, 8, 0});
      }
    }
  } else {  // FirstBlockCopyImpl, 255 rows a Copy
    for (uint32_t i = 0; i * kMaxRep < p.m; ++i) {
      const uint32_t reps = std::min(kMaxRep, p.m - i * kMaxRep);
      CopyRepeats(tmp + i * kMaxRep * kRep, src + uint64_t{i} * kMaxRep * p.k, reps, 8, rs);
    }
  }
  if (tail != 0) {  // Tail{Max,Add}Impl: mask = tail lanes
    const float* t0 = src + split * kRep;
    if (p.k > 255) {
      for (uint32_t i = 0; i < p.m; ++i) {
        Binary(op, tmp + i * kRep, tmp + i * kRep, t0 + i * p.k, 1, tail, tail, kDefault);
      }
    } else {
      for (uint32_t i = 0; i * kMaxRep < p.m; ++i) {
        const uint32_t reps = std::min(kMaxRep, p.m - i * kMaxRep);
        float* d = tmp + i * kMaxRep * kRep;
        Binary(op, d, d, t0 + uint64_t{i} * kMaxRep * p.k, reps, tail, tail, {1, 1, 1, 8, 8, rs});
      }
    }
  }
  // BasicBlockReduce{Max,Sum}Impl
  if (p.m == 1) {
    WholeReduce(sum, dst, tmp, kRep, 8, 1, 0);
    if (p.dstK == 16) {
      for (uint32_t l = 0; l < kBlk; ++l) dst[kBlk + l] = dst[l];  // DataCopy of one block
    }
  } else {
    BlockReduce(sum, tmp, tmp, uint64_t{p.m} * kRep, 8);
    BlockReduce(sum, dst, tmp, uint64_t{p.m} * kBlk, 8);
  }
}

// SoftmaxFlashV2M1BrcbSubImpl (not basic), then the Exp of dst (count m * k).
void BrcbSubExp(float* dst, const float* src0, const float* src1, float* tmp, uint32_t m,
                uint32_t k) {
  const uint32_t reps = (m + kBlk - 1) / kBlk;
  for (uint32_t r = 0; r < reps; ++r) {  // Brcb {dstBlkStride 1, dstRepStride 8}
    float v[kBlk];
    for (uint32_t j = 0; j < kBlk; ++j) v[j] = src1[r * kBlk + j];
    for (uint32_t j = 0; j < kBlk; ++j) {
      for (uint32_t l = 0; l < kBlk; ++l) tmp[r * kRep + j * kBlk + l] = v[j];
    }
  }
  if (k < 192) {
    const uint32_t bs = k / kBlk;
    for (uint32_t j = 0; j < bs; ++j) {
      BinaryCount(Op::kSub, dst + j * kBlk, src0 + j * kBlk, tmp, uint64_t{m} * kBlk,
                  {bs, bs, 1, k & 0xFF, k & 0xFF, 8});
    }
  } else {
    for (uint32_t j = 0; j < m; ++j) {
      BinaryCount(Op::kSub, dst + uint64_t{j} * k, src0 + uint64_t{j} * k, tmp + j * kBlk, k,
                  {1, 1, 0, 8, 8, 0});
    }
  }
  for (uint64_t j = 0; j < uint64_t{m} * k; ++j) dst[j] = Exp(dst[j]);
}

template <class T>
float F(T v) {
  return ToFloat(v);
}
template <class T>
T To(float v) {
  if constexpr (std::is_same_v<T, Half>) {
    return FloatToHalfRoundAway(v);
  } else {
    return v;
  }
}

template <class T, class S>
void Split(const SmxTiling& t, const Param& p, bool update, const M1Io<T, S>& io, uint64_t o1,
           uint64_t o2) {
  constexpr bool hd = std::is_same_v<T, Half>, hs = std::is_same_v<S, Half>;
  const uint32_t m = p.m;
  const uint64_t n = uint64_t{m} * p.k, m8 = (m + kBlk - 1) / kBlk * kBlk;
  float* w = io.work;
  // The pre-cast's operands (float views).
  float *x, *y, *sum, *max, *expMax, *tmp;
  const float *inSum = nullptr, *inMax = nullptr;
  if constexpr (!hd) {
    x = const_cast<float*>(io.src + o1);
    y = io.dst + o1;
    sum = io.sum + o2;
    max = io.max + o2;
    expMax = io.expMax + o2;
    inSum = io.inSum + o2;
    inMax = io.inMax + o2;
    tmp = w;
  } else {
    x = y = w;
    for (uint64_t j = 0; j < n; ++j) w[j] = F(io.src[o1 + j]);
    if constexpr (hs) {
      sum = w + n;
      max = sum + m8;
      expMax = max + m8;
      tmp = update ? expMax + m8 : max + m8;
      if (update) {
        for (uint32_t r = 0; r < m; ++r) sum[r] = F(io.inSum[o2 + r]);
        for (uint32_t r = 0; r < m; ++r) max[r] = F(io.inMax[o2 + r]);
      }
      inSum = sum;
      inMax = max;
    } else {
      sum = io.sum + o2;
      max = io.max + o2;
      expMax = w + n;
      tmp = update ? expMax + m8 : w + m8;
      if (update) {
        inSum = io.inSum + o2;
        inMax = io.inMax + o2;
      }
    }
  }
  if (!update) {  // SoftmaxFlashV2M1NoUpdateImplProcess
    NewReduceNoBrc(false, max, x, tmp, p);
    BrcbSubExp(y, x, max, tmp, m, p.k);
    NewReduceNoBrc(true, sum, y, tmp, p);
  } else {  // SoftmaxFlashV2M1UpdateImplProcess
    float* t0 = tmp;
    float* red = tmp + t.reduceSize;
    NewReduceNoBrc(false, t0, x, red, p);
    if (io.outReduceMax != nullptr) {
      for (uint32_t r = 0; r < m; ++r) io.outReduceMax[o2 + r] = To<S>(t0[r]);
    }
    BinaryCount(Op::kMax, t0, inMax, t0, m, kDefault);
    BinaryCount(Op::kSub, red, inMax, t0, m, kDefault);
    for (uint32_t r = 0; r < m; ++r) expMax[r] = Exp(red[r]);
    BrcbSubExp(y, x, t0, red, m, p.k);
    for (uint32_t r = 0; r < m; ++r) max[r] = t0[r];
    NewReduceNoBrc(true, t0, y, red, p);
    BinaryCount(Op::kMul, sum, expMax, inSum, m, kDefault);
    BinaryCount(Op::kAdd, sum, sum, t0, m, kDefault);
  }
  if constexpr (hd) {  // the post-cast
    for (uint64_t j = 0; j < n; ++j) io.dst[o1 + j] = To<Half>(y[j]);
    if constexpr (hs) {
      for (uint32_t r = 0; r < m; ++r) io.sum[o2 + r] = To<Half>(sum[r]);
      for (uint32_t r = 0; r < m; ++r) io.max[o2 + r] = To<Half>(max[r]);
    }
    for (uint32_t r = 0; update && r < m; ++r) io.expMax[o2 + r] = To<Half>(expMax[r]);
  }
}

}  // namespace

template <class T, class S>
void ReplayFlashV2M1(const SmxTiling& t, uint32_t oriK, bool update, const M1Io<T, S>& io) {
  for (uint32_t i = 0; i < t.rangeM; ++i) {
    Split(t, {t.splitM, t.splitK, oriK, t.reduceK}, update, io, uint64_t{i} * t.splitSize,
          uint64_t{i} * t.reduceM);
  }
  if (t.tailM != 0) {
    Split(t, {t.tailM, t.splitK, oriK, t.reduceK}, update, io, uint64_t{t.rangeM} * t.splitSize,
          uint64_t{t.rangeM} * t.reduceM);
  }
}

template void ReplayFlashV2M1<float, float>(const SmxTiling&, uint32_t, bool,
                                            const M1Io<float, float>&);
template void ReplayFlashV2M1<Half, Half>(const SmxTiling&, uint32_t, bool,
                                          const M1Io<Half, Half>&);
template void ReplayFlashV2M1<Half, float>(const SmxTiling&, uint32_t, bool,
                                           const M1Io<Half, float>&);

}  // namespace lngrad_replay
