// SoftmaxFlash's update on 2201/2002 (replay_softmaxflash_scratch.h): each instruction of the
// kit's sequence over a float image of the work buffer and the operands, in the kit's order.
#include "replay_softmaxflash_scratch.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>

namespace lngrad_replay {
namespace {

constexpr uint32_t kRep = 64;  // floats per repeat
constexpr uint32_t kBlk = 8;   // floats per 32-byte block

float Exp(float x) { return static_cast<float>(std::exp(static_cast<double>(x))); }
float Max(float a, float b) { return a > b ? a : b; }  // the vector Max: src1 on NaN or a tie

// WholeReduceMax / BlockReduceMax over n lanes: the first NaN, else the first largest; *at the
// winning lane.
float LaneMax(const float* v, uint32_t n, uint32_t* at = nullptr) {
  uint32_t w = 0;
  for (uint32_t l = 1; l < n && !std::isnan(v[w]); ++l) {
    if (std::isnan(v[l]) || v[l] > v[w]) w = l;
  }
  if (at != nullptr) *at = w;
  return v[w];
}

// One BlockReduceSum block: adjacent pairs, then pairs of pairs.
float BlockSum(const float* v) {
  return ((v[0] + v[1]) + (v[2] + v[3])) + ((v[4] + v[5]) + (v[6] + v[7]));
}

// WholeReduceSum of one repeat masked to n lanes (the others +0): the 64-lane pair tree.
float RepeatSum(const float* v, uint32_t n) {
  float x[kRep];
  for (uint32_t l = 0; l < kRep; ++l) x[l] = l < n ? v[l] : 0.0f;
  for (uint32_t w = kRep / 2; w >= 1; w /= 2) {
    for (uint32_t i = 0; i < w; ++i) x[i] = x[2 * i] + x[2 * i + 1];
  }
  return x[0];
}

// ReduceLastND {originalSrcM, originalSrcK, srcM, srcK, dstM, dstK}.
struct Red {
  uint32_t oriM, oriK, srcM, srcK, dstM, dstK;
};

// v220 SingleBlockBroadCastImpl: row r < oriM of dst gets dstK copies of tmp[r].
void SingleBlock(float* dst, const float* tmp, const Red& p) {
  for (uint32_t r = 0; r < p.oriM; ++r) {
    for (uint32_t l = 0; l < p.dstK; ++l) dst[r * p.dstK + l] = tmp[r];
  }
}

// v220 ReduceMaxLastNDImpl(dstMax, src, tmp) / ReduceSumLastNDImpl(dst, src, tmp): the aligned
// part runs with tmp as its dst and dstMax as its scratch.
void Reduce220(bool sum, float* dst, const float* src, float* tmp, const Red& p) {
  const uint32_t chunks = p.oriK / kRep, tail = p.oriK % kRep, n = p.srcM * kBlk;
  auto block = [&](const float* v) { return sum ? BlockSum(v) : LaneMax(v, kBlk); };
  auto both = [&](float a, float b) { return sum ? a + b : Max(a, b); };
  if (chunks > 0) {
    for (uint32_t i = 0; i < chunks; ++i) {
      for (uint32_t r = 0; r < p.srcM; ++r) {
        for (uint32_t b = 0; b < kBlk; ++b) {
          dst[r * kBlk + b] = block(src + r * p.srcK + i * kRep + b * kBlk);
        }
      }
      for (uint32_t j = 0; j < n; ++j) tmp[j] = i == 0 ? dst[j] : both(tmp[j], dst[j]);
    }
    std::vector<float> v(p.srcM);  // BlockReduce in place: each repeat read before written
    for (uint32_t r = 0; r < p.srcM; ++r) v[r] = block(tmp + r * kBlk);
    for (uint32_t r = 0; r < p.srcM; ++r) tmp[r] = v[r];
  }
  if (tail != 0) {
    for (uint32_t r = 0; r < p.srcM; ++r) {
      const float* t = src + r * p.srcK + chunks * kRep;
      dst[r] = sum ? RepeatSum(t, tail) : LaneMax(t, tail);
    }
    for (uint32_t j = 0; j < n; ++j) tmp[j] = chunks == 0 ? dst[j] : both(tmp[j], dst[j]);
  }
  SingleBlock(dst, tmp, p);
}

// v200 ReduceMaxLastNDImpl / ReduceSumLastNDImpl: WholeReduce rows into dst (oriK <= 64) or
// chunk by chunk into tmp at r * dstK (max: value, then the winning lane's index bits), the
// first copied over dstM * dstK floats, the others combined over as many; then the scalar
// broadcast of each row's lane 0.
void Reduce200(bool sum, float* dst, const float* src, float* tmp, const Red& p) {
  auto one = [&](float* out, const float* v, uint32_t lanes) {
    if (sum) {
      out[0] = RepeatSum(v, lanes);
      return;
    }
    uint32_t at = 0;
    out[0] = LaneMax(v, lanes, &at);
    out[1] = FromBits(at);
  };
  const uint32_t all = p.dstM * p.dstK;
  if (p.oriK <= kRep) {
    const uint32_t rows = sum ? p.srcM : p.oriM;
    for (uint32_t r = 0; r < rows; ++r) one(dst + r * p.dstK, src + r * p.srcK, p.oriK);
  } else {
    const uint32_t chunks = p.oriK / kRep, tail = p.oriK % kRep;
    for (uint32_t c = 0; c < chunks + (tail != 0 ? 1 : 0); ++c) {
      const uint32_t lanes = c < chunks ? kRep : tail;
      for (uint32_t r = 0; r < p.srcM; ++r) {
        one(tmp + r * p.dstK, src + r * p.srcK + c * kRep, lanes);
      }
      for (uint32_t j = 0; j < all; ++j) {
        dst[j] = c == 0 ? tmp[j] : (sum ? dst[j] + tmp[j] : Max(dst[j], tmp[j]));
      }
    }
  }
  for (uint32_t r = 0; r < p.dstM; ++r) {
    for (uint32_t l = 1; l < p.dstK; ++l) dst[r * p.dstK + l] = dst[r * p.dstK];
  }
}

// BroadCastLastImpl(dst, src, {rows, dstK, rows, srcK}): v220's Copy repeats give column c of
// row r lane c % 8 of src's row; v200's scalar loop lane 0.
void Brc(float* dst, const float* src, uint32_t rows, uint32_t dstK, uint32_t srcK, bool v200) {
  for (uint32_t r = 0; r < rows; ++r) {
    for (uint32_t c = 0; c < dstK; ++c) dst[r * dstK + c] = src[r * srcK + (v200 ? 0 : c % kBlk)];
  }
}

template <class T>
T Out(float v, bool v200) {
  if constexpr (std::is_same_v<T, Half>) {
    return v200 ? FloatToHalf(v) : FloatToHalfRoundAway(v);
  } else {
    return v;
  }
}

// One split: rows at row0, n / nr the elementwise counts (splitSize / reduceSize, or the tail's),
// red and brcRows the reduce and broadcast parameters.
template <class T, class S>
struct Split {
  const SmxTiling& t;
  const SflIo<T, S>& io;
  float* w;
  bool v200;

  void Reduce(bool sum, float* dst, const float* src, float* tmp, const Red& p) const {
    if (v200) {
      Reduce200(sum, dst, src, tmp, p);
    } else {
      Reduce220(sum, dst, src, tmp, p);
    }
  }

  // Float data (SoftmaxFlashNDImpl over float): src read in place, the statistics written
  // straight into sumTensor / maxTensor / expMaxTensor and read back from there.
  void Float(uint64_t o1, uint64_t o2, uint32_t n, uint32_t nr, const Red& red) const {
    const uint32_t sz = t.splitSize, R = t.reduceSize, k = t.srcK;
    float *b0 = w, *b1 = w + sz, *b2 = w + 2 * sz, *rs = b2 + R, *b4 = rs + R, *inS = b4 + R;
    float* inM = w;
    const float* src = reinterpret_cast<const float*>(io.src) + o1;
    float* sum = reinterpret_cast<float*>(io.sum) + o2;
    float* max = reinterpret_cast<float*>(io.max) + o2;
    float* em = reinterpret_cast<float*>(io.expMax) + o2;
    Reduce(false, b4, src, rs, red);
    Brc(b1, b4, red.dstM, k, t.reduceK, v200);
    for (uint32_t j = 0; j < n; ++j) b1[j] = src[j] - b1[j];
    for (uint32_t j = 0; j < n; ++j) b1[j] = Exp(b1[j]);
    Reduce(true, rs, b1, b2, red);
    for (uint32_t j = 0; j < nr; ++j) inM[j] = ToFloat(io.inMax[o2 + j]);
    for (uint32_t j = 0; j < nr; ++j) b2[j] = Max(inM[j], b4[j]);
    for (uint32_t j = 0; j < nr; ++j) max[j] = b2[j];
    for (uint32_t j = 0; j < nr; ++j) b4[j] = Exp(b4[j] - b2[j]);
    for (uint32_t j = 0; j < nr; ++j) inM[j] = Exp(inM[j] - b2[j]);
    for (uint32_t j = 0; j < nr; ++j) inS[j] = ToFloat(io.inSum[o2 + j]);
    for (uint32_t j = 0; j < nr; ++j) inM[j] = inM[j] * inS[j];
    for (uint32_t j = 0; j < nr; ++j) rs[j] = b4[j] * rs[j];
    for (uint32_t j = 0; j < nr; ++j) sum[j] = inM[j] + rs[j];
    for (uint32_t j = 0; j < nr; ++j) em[j] = inM[j] / sum[j];
    for (uint32_t j = 0; j < nr; ++j) b4[j] = b4[j] / sum[j];
    Brc(b0, b4, red.dstM, k, t.reduceK, v200);
    float* dst = reinterpret_cast<float*>(io.dst) + o1;
    for (uint32_t j = 0; j < n; ++j) dst[j] = b1[j] * b0[j];
  }

  // Half data and statistics (SoftmaxFlashNDImpl<T>): the float copy at 0, the statistics cast
  // to half as they are made; the tail split runs the full split's reduce and broadcast.
  void HalfHalf(uint64_t o1, uint64_t o2, uint32_t n, uint32_t nr, const Red& red) const {
    const uint32_t sz = t.splitSize, R = t.reduceSize, k = t.srcK;
    float *b0 = w, *b1 = w + sz, *b2 = w + 2 * sz, *rs = b2 + R, *b4 = rs + R, *inS = b4 + R;
    float* inM = w;
    for (uint32_t j = 0; j < n; ++j) b0[j] = ToFloat(io.src[o1 + j]);
    Reduce(false, b4, b0, rs, red);
    Brc(b1, b4, red.dstM, k, t.reduceK, v200);
    for (uint32_t j = 0; j < n; ++j) b1[j] = b0[j] - b1[j];
    for (uint32_t j = 0; j < n; ++j) b1[j] = Exp(b1[j]);
    Reduce(true, rs, b1, b2, red);
    for (uint32_t j = 0; j < nr; ++j) inM[j] = ToFloat(io.inMax[o2 + j]);
    for (uint32_t j = 0; j < nr; ++j) b2[j] = Max(inM[j], b4[j]);
    for (uint32_t j = 0; j < nr; ++j) io.max[o2 + j] = Out<S>(b2[j], v200);
    for (uint32_t j = 0; j < nr; ++j) b4[j] = Exp(b4[j] - b2[j]);
    for (uint32_t j = 0; j < nr; ++j) inM[j] = Exp(inM[j] - b2[j]);
    for (uint32_t j = 0; j < nr; ++j) inS[j] = ToFloat(io.inSum[o2 + j]);
    for (uint32_t j = 0; j < nr; ++j) inM[j] = inM[j] * inS[j];
    for (uint32_t j = 0; j < nr; ++j) rs[j] = b4[j] * rs[j];
    for (uint32_t j = 0; j < nr; ++j) inS[j] = inM[j] + rs[j];
    for (uint32_t j = 0; j < nr; ++j) inM[j] = inM[j] / inS[j];
    for (uint32_t j = 0; j < nr; ++j) io.expMax[o2 + j] = Out<T>(inM[j], v200);
    for (uint32_t j = 0; j < nr; ++j) io.sum[o2 + j] = Out<S>(inS[j], v200);
    for (uint32_t j = 0; j < nr; ++j) b4[j] = b4[j] / inS[j];
    Brc(b0, b4, red.dstM, k, t.reduceK, v200);
    for (uint32_t j = 0; j < n; ++j) b1[j] = b1[j] * b0[j];
    for (uint32_t j = 0; j < n; ++j) io.dst[o1 + j] = Out<T>(b1[j], v200);
  }

  // Half data, float statistics (SoftmaxFlashNDImpl<isBasicBlock>): maxTensor written by the
  // Max and read back; expMax spread from 8 to 16 lanes in tmpBuffer0 before its cast.
  void HalfFloat(uint64_t o1, uint64_t o2, uint32_t n, uint32_t nr, const Red& red,
                 bool tail) const {
    const uint32_t sz = t.splitSize, R = t.reduceSize, k = t.srcK;
    float *b0 = w, *b1 = w + sz, *inM = w + 2 * sz, *rs = inM + R, *b4 = rs + R, *inS = b4 + R;
    float* max = reinterpret_cast<float*>(io.max) + o2;
    float* sum = reinterpret_cast<float*>(io.sum) + o2;
    for (uint32_t j = 0; j < n; ++j) b0[j] = ToFloat(io.src[o1 + j]);
    Reduce(false, b4, b0, rs, red);
    Brc(b1, b4, red.dstM, k, t.reduceK, v200);
    for (uint32_t j = 0; j < n; ++j) b1[j] = b0[j] - b1[j];
    for (uint32_t j = 0; j < n; ++j) b1[j] = Exp(b1[j]);
    Reduce(true, rs, b1, inM, red);
    for (uint32_t j = 0; j < nr; ++j) inM[j] = ToFloat(io.inMax[o2 + j]);
    for (uint32_t j = 0; j < nr; ++j) max[j] = Max(inM[j], b4[j]);
    for (uint32_t j = 0; j < nr; ++j) b4[j] = Exp(b4[j] - max[j]);
    for (uint32_t j = 0; j < nr; ++j) inM[j] = Exp(inM[j] - max[j]);
    for (uint32_t j = 0; j < nr; ++j) inS[j] = ToFloat(io.inSum[o2 + j]);
    for (uint32_t j = 0; j < nr; ++j) inM[j] = inM[j] * inS[j];
    for (uint32_t j = 0; j < nr; ++j) rs[j] = b4[j] * rs[j];
    for (uint32_t j = 0; j < nr; ++j) inS[j] = inM[j] + rs[j];
    for (uint32_t j = 0; j < nr; ++j) inM[j] = inM[j] / inS[j];
    if (!tail) {
      for (uint32_t j = 0; j < nr; ++j) sum[j] = inS[j];
    }
    Brc(b0, inM, t.reduceM, 2 * kBlk, t.reduceK, v200);  // "32B copy to 64B"
    for (uint32_t j = 0; j < 2 * nr; ++j) io.expMax[2 * o2 + j] = Out<T>(b0[j], v200);
    if (tail) {
      for (uint32_t j = 0; j < nr; ++j) sum[j] = inS[j];
    }
    for (uint32_t j = 0; j < nr; ++j) b4[j] = b4[j] / inS[j];
    Brc(b0, b4, red.dstM, k, t.reduceK, v200);
    for (uint32_t j = 0; j < n; ++j) b1[j] = b1[j] * b0[j];
    for (uint32_t j = 0; j < n; ++j) io.dst[o1 + j] = Out<T>(b1[j], v200);
  }

  void Run(uint32_t oriK) const {
    const Red main{t.splitM, oriK, t.splitM, t.splitK, t.reduceM, t.reduceK};
    const Red tail{t.tailM, oriK, t.tailM, t.splitK, t.tailM, t.reduceK};
    constexpr bool kFloat = std::is_same_v<T, float>, kHalfStat = std::is_same_v<S, Half>;
    auto one = [&](uint32_t i, uint32_t n, uint32_t nr, bool isTail) {
      const uint64_t o1 = uint64_t{i} * t.splitSize, o2 = uint64_t{i} * t.reduceSize;
      if constexpr (kFloat) {
        Float(o1, o2, n, nr, isTail ? tail : main);
      } else if constexpr (kHalfStat) {
        HalfHalf(o1, o2, n, nr, main);
      } else {
        HalfFloat(o1, o2, n, nr, main, isTail);
      }
    };
    for (uint32_t i = 0; i < t.rangeM; ++i) one(i, t.splitSize, t.reduceSize, false);
    if (t.tailM != 0) one(t.rangeM, t.tailSplitSize, t.tailReduceSize, true);
  }
};

// The 2201 basic-block functions. Strides in blocks of 8 floats.
struct Strides {
  uint32_t dBlk, aBlk, bBlk, dRep, aRep, bRep;
};
// A binary instruction of `reps` full 64-lane repeats, element by element.
template <class F>
void Binary(float* d, const float* a, const float* b, uint32_t reps, Strides s, F f) {
  for (uint32_t r = 0; r < reps; ++r) {
    for (uint32_t k = 0; k < kBlk; ++k) {
      for (uint32_t l = 0; l < kBlk; ++l) {
        const float x = a[(r * s.aRep + k * s.aBlk) * kBlk + l];
        const float y = b[(r * s.bRep + k * s.bBlk) * kBlk + l];
        d[(r * s.dRep + k * s.dBlk) * kBlk + l] = f(x, y);
      }
    }
  }
}
// BlockReduceMax/Sum(d, a, reps, full mask, dstRepStride 1, srcBlkStride 1, srcRepStride 8).
void BlockRed(bool sum, float* d, const float* a, uint32_t reps) {
  for (uint32_t r = 0; r < reps; ++r) {
    for (uint32_t k = 0; k < kBlk; ++k) {
      const float* v = a + r * kRep + k * kBlk;
      d[r * kBlk + k] = sum ? BlockSum(v) : LaneMax(v, kBlk);
    }
  }
}
// Brcb(d, a, reps, {blkStride, repStride}).
void Brcb(float* d, const float* a, uint32_t reps, uint32_t blk, uint32_t rep) {
  for (uint32_t i = 0; i < reps; ++i) {
    for (uint32_t j = 0; j < kBlk; ++j) {
      for (uint32_t l = 0; l < kBlk; ++l) d[(i * rep + j * blk) * kBlk + l] = a[i * kBlk + j];
    }
  }
}

template <class T, class S>
struct Basic {
  const SmxTiling& t;
  const SflIo<T, S>& io;
  T* srcF;
  float* w;

  static constexpr bool kF = std::is_same_v<T, float>, kHS = std::is_same_v<S, Half>;

  void Run() const {
    for (uint32_t i = 0; i < t.rangeM; ++i) One(i);
  }

  void One(uint32_t i) const {
    const uint32_t S_ = t.splitSize, R = t.reduceSize, half = S_ / 2;
    const uint32_t o1 = i * S_, o2 = i * R, blocks = t.splitK / kRep;
    const uint8_t reps = static_cast<uint8_t>(t.splitSize / kRep);
    const uint8_t stride = static_cast<uint8_t>(kBlk * blocks);
    const uint8_t m = static_cast<uint8_t>(t.splitM);
    const uint8_t mc = static_cast<uint8_t>((t.splitM + kBlk - 1) / kBlk);
    const uint32_t bs = kHS ? 2 : 1;  // the statistics' Brcb block stride and row stride
    float *b0 = w, *b1, *b2, *b3, *inSum, *inMax, *x;
    if constexpr (kF) {
      b1 = w, b2 = w + S_, b3 = w + 2 * S_, inSum = b3 + R, inMax = inSum + R;
      x = reinterpret_cast<float*>(srcF) + o1;
    } else {
      b1 = w + S_, b2 = w + 2 * S_, b3 = b2 + R, inSum = b3 + R, inMax = inSum + R;
      for (uint32_t j = 0; j < reps * kRep; ++j) b0[j] = ToFloat(io.src[o1 + j]);
      x = b0;
    }
    float* rowMax = (kF ? b2 : b1) + half;
    auto mx = [](float a, float b) { return Max(a, b); };
    auto add = [](float a, float b) { return a + b; };
    // The two chains (Max, then Add over the exponentials).
    auto chain = [&](bool sum) {
      if (kF && blocks == 1) {
        for (uint32_t j = 0; j < reps * kRep; ++j) b1[j] = x[j];  // Copy
      } else {
        if (sum) {
          Binary(b1, x, x + kRep, m, {1, 1, 1, 8, stride, stride}, add);
        } else {
          Binary(b1, x, x + kRep, m, {1, 1, 1, 8, stride, stride}, mx);
        }
        for (uint32_t c = 2; c < blocks; ++c) {
          if (sum) {
            Binary(b1, b1, x + c * kRep, m, {1, 1, 1, 8, 8, stride}, add);
          } else {
            Binary(b1, b1, x + c * kRep, m, {1, 1, 1, 8, 8, stride}, mx);
          }
        }
      }
      BlockRed(sum, b1, b1, m);
      BlockRed(sum, b3, b1, mc);
    };
    chain(false);
    Brcb(rowMax, b3, mc, bs, 8 * bs);
    if (kHS) Brcb(rowMax + kBlk, b3, mc, bs, 8 * bs);
    for (uint32_t c = 0; c < blocks; ++c) {
      Binary(x + c * kRep, x + c * kRep, rowMax, m, {1, 1, 0, stride, stride, bs},
             [](float a, float b) { return a - b; });
    }
    for (uint32_t j = 0; j < reps * kRep; ++j) x[j] = Exp(x[j]);
    chain(true);
    Brcb(b1, b3, mc, bs, 8 * bs);
    if (kHS) Brcb(b1 + kBlk, b3, mc, bs, 8 * bs);
    for (uint32_t c = 0; c < blocks; ++c) {
      Binary(x + c * kRep, x + c * kRep, b1, m, {1, 1, 0, stride, stride, bs},
             [](float a, float b) { return a / b; });
    }
    // Counter mode over R.
    for (uint32_t j = 0; j < R; ++j) inMax[j] = ToFloat(io.inMax[o2 + j]);
    for (uint32_t j = 0; j < R; ++j) b2[j] = Max(inMax[j], rowMax[j]);
    for (uint32_t j = 0; j < R; ++j) io.max[o2 + j] = Out<S>(b2[j], false);
    for (uint32_t j = 0; j < R; ++j) b3[j] = Exp(rowMax[j] - b2[j]);
    for (uint32_t j = 0; j < R; ++j) inMax[j] = Exp(inMax[j] - b2[j]);
    for (uint32_t j = 0; j < R; ++j) inSum[j] = ToFloat(io.inSum[o2 + j]);
    for (uint32_t j = 0; j < R; ++j) inMax[j] = inMax[j] * inSum[j];
    for (uint32_t j = 0; j < R; ++j) b3[j] = b3[j] * b1[j];
    for (uint32_t j = 0; j < R; ++j) inSum[j] = inMax[j] + b3[j];
    for (uint32_t j = 0; j < R; ++j) inMax[j] = inMax[j] / inSum[j];
    if constexpr (!kF && !kHS) {  // Copy(b1, inMax, 2 repeats, {2, 1, 1, 0}), then the cast
      for (uint32_t q = 0; q < 2; ++q) {
        for (uint32_t blk = 0; blk < R / kBlk; ++blk) {
          for (uint32_t l = 0; l < kBlk; ++l) b1[(q + 2 * blk) * kBlk + l] = inMax[blk * kBlk + l];
        }
      }
      for (uint32_t j = 0; j < 2 * R; ++j) io.expMax[2 * o2 + j] = Out<T>(b1[j], false);
    } else {
      for (uint32_t j = 0; j < R; ++j) io.expMax[o2 + j] = Out<T>(inMax[j], false);
    }
    for (uint32_t j = 0; j < R; ++j) io.sum[o2 + j] = Out<S>(inSum[j], false);
    for (uint32_t j = 0; j < R; ++j) b3[j] = b3[j] / inSum[j];
    for (uint32_t c = 0; c < blocks; ++c) {
      Binary(x + c * kRep, x + c * kRep, b3, static_cast<uint8_t>(t.reduceM),
             {1, 1, 0, stride, stride, bs}, [](float a, float b) { return a * b; });
    }
    if constexpr (!kF) {
      for (uint32_t j = 0; j < reps * kRep; ++j) io.dst[o1 + j] = Out<T>(b0[j], false);
    }
  }
};

}  // namespace

template <class T, class S>
bool ReplaySoftmaxFlashUpdate(const SmxTiling& kt, uint32_t oriK, const SflIo<T, S>& io,
                              std::vector<uint8_t>& work, bool v200) {
  const uint64_t floats = 2 * uint64_t{kt.splitSize} + 4 * uint64_t{kt.reduceSize};
  if (floats * sizeof(float) > work.size()) return false;
  std::vector<float> w(work.size() / sizeof(float));
  std::memcpy(w.data(), work.data(), w.size() * sizeof(float));
  Split<T, S>{kt, io, w.data(), v200}.Run(oriK);
  std::memcpy(work.data(), w.data(), w.size() * sizeof(float));
  return true;
}

template <class T, class S>
bool ReplaySoftmaxFlashBasicUpdate(const SmxTiling& kt, uint32_t oriK, const SflIo<T, S>& io,
                                   T* srcInOut, std::vector<uint8_t>& work) {
  const uint64_t S_ = kt.splitSize, R = kt.reduceSize, mc = (kt.splitM + 7) / 8;
  uint64_t floats = 2 * S_ + (std::is_same_v<T, float> ? 3 : 4) * R;
  floats = std::max<uint64_t>(floats, S_ + S_ / 2 + mc * (std::is_same_v<S, Half> ? 128 : 64));
  if (floats * sizeof(float) > work.size()) return false;
  std::vector<float> w(work.size() / sizeof(float));
  std::memcpy(w.data(), work.data(), w.size() * sizeof(float));
  Basic<T, S>{kt, io, srcInOut, w.data()}.Run();
  if constexpr (!std::is_same_v<T, float>) {  // the generic tail split (full reduce parameters)
    if (kt.tailM != 0) {
      const Red main{kt.splitM, oriK, kt.splitM, kt.splitK, kt.reduceM, kt.reduceK};
      const Split<T, S> sp{kt, io, w.data(), false};
      const uint64_t o1 = uint64_t{kt.rangeM} * kt.splitSize;
      const uint64_t o2 = uint64_t{kt.rangeM} * kt.reduceSize;
      if constexpr (std::is_same_v<S, Half>) {
        sp.HalfHalf(o1, o2, kt.tailSplitSize, kt.tailReduceSize, main);
      } else {
        sp.HalfFloat(o1, o2, kt.tailSplitSize, kt.tailReduceSize, main, true);
      }
    }
  }
  std::memcpy(work.data(), w.data(), w.size() * sizeof(float));
  return true;
}

template bool ReplaySoftmaxFlashBasicUpdate<float, float>(const SmxTiling&, uint32_t,
                                                          const SflIo<float, float>&, float*,
                                                          std::vector<uint8_t>&);
template bool ReplaySoftmaxFlashBasicUpdate<Half, Half>(const SmxTiling&, uint32_t,
                                                        const SflIo<Half, Half>&, Half*,
                                                        std::vector<uint8_t>&);
template bool ReplaySoftmaxFlashBasicUpdate<Half, float>(const SmxTiling&, uint32_t,
                                                         const SflIo<Half, float>&, Half*,
                                                         std::vector<uint8_t>&);

template bool ReplaySoftmaxFlashUpdate<float, float>(const SmxTiling&, uint32_t,
                                                     const SflIo<float, float>&,
                                                     std::vector<uint8_t>&, bool);
template bool ReplaySoftmaxFlashUpdate<Half, Half>(const SmxTiling&, uint32_t,
                                                   const SflIo<Half, Half>&, std::vector<uint8_t>&,
                                                   bool);
template bool ReplaySoftmaxFlashUpdate<Half, float>(const SmxTiling&, uint32_t,
                                                    const SflIo<Half, float>&,
                                                    std::vector<uint8_t>&, bool);

}  // namespace lngrad_replay
