// lngrad_replay: SoftMaxBasicBlock on 2002; the files read and the semantics taken:
// replay_softmax_basic_v200_scratch.h.
#include "replay_softmax_basic_v200_scratch.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>

namespace lngrad_replay {
namespace {

constexpr uint64_t kRep = 64, kBlk = 8;

float Lane(const float* v, bool isMax) {  // one block of BlockReduceMax / BlockReduceSum
  if (!isMax) return ((v[0] + v[1]) + (v[2] + v[3])) + ((v[4] + v[5]) + (v[6] + v[7]));
  float best = v[0];
  for (uint64_t j = 1; j < kBlk && !std::isnan(best); ++j) {
    if (std::isnan(v[j]) || v[j] > best) best = v[j];
  }
  return best;
}

// BlockReduce{Max,Sum}(dst, src, repeat, full mask, 1, 1, 8): repeat q reads src[64 q, + 64),
// writes 8 values at dst + 8 q.
void BlockReduce(float* dst, const float* src, uint64_t repeat, bool isMax) {
  for (uint64_t q = 0; q < repeat; ++q) {
    float in[kRep];
    std::memcpy(in, src + q * kRep, sizeof in);
    for (uint64_t b = 0; b < kBlk; ++b) dst[q * kBlk + b] = Lane(in + b * kBlk, isMax);
  }
}

float Op(bool isMax, float a, float b) { return isMax ? (a > b ? a : b) : a + b; }

// The row reduction into t1 (BasicBlockMaxImpl / BasicBlockAddImpl, then BlockReduce in place;
// one chunk: a BlockReduce of x), then g = BlockReduce of ceil(m / 8) repeats of t1.
void Reduce(const float* x, float* t1, float* g, uint64_t m, uint64_t k, bool isMax) {
  const uint64_t chunks = k / kRep;
  if (chunks == 1) {
    BlockReduce(t1, x, m, isMax);
  } else {
    for (uint64_t r = 0; r < m; ++r) {
      for (uint64_t l = 0; l < kRep; ++l) {
        t1[r * kRep + l] = Op(isMax, x[r * k + l], x[r * k + kRep + l]);
      }
    }
    for (uint64_t r = 0; r < m; ++r) {
      for (uint64_t c = 2; c < chunks; ++c) {
        for (uint64_t l = 0; l < kRep; ++l) {
          float& a = t1[r * kRep + l];
          const float v = x[r * k + c * kRep + l];
          a = m > chunks ? Op(isMax, a, v) : Op(isMax, v, a);  // repeats over rows / row by row
        }
      }
    }
    BlockReduce(t1, t1, m, isMax);
  }
  BlockReduce(g, t1, (m + kBlk - 1) / kBlk, isMax);
}

// for j < groups: AlignedBrcbImpl(dst[step j], g[8 j], n).
void AlignedBrcbLoop(float* dst, const float* g, uint64_t groups, uint64_t step, uint64_t n) {
  for (uint64_t j = 0; j < groups; ++j) {
    float s[kBlk];
    for (uint64_t b = 0; b < kBlk; ++b) s[b] = g[j * kBlk + b];  // GetValue
    for (uint64_t b = 0; b < kBlk; ++b) std::fill_n(dst + step * j + n * b, n, s[b]);
  }
}

template <class T>
T ToT(float v) {
  if constexpr (std::is_same_v<T, Half>) {
    return FloatToHalf(v);
  } else {
    return v;
  }
}
template <class T>
float FromT(T v) {
  if constexpr (std::is_same_v<T, Half>) {
    return HalfToFloat(v);
  } else {
    return v;
  }
}

}  // namespace

template <class T, class S>
bool ReplaySoftMaxBasicWorkV200(const SmxTiling& t, const T* src, T* dst, uint64_t dstLen, S* sum,
                                S* max, uint64_t statLen, std::vector<uint8_t>& work) {
  constexpr bool kHalf = std::is_same_v<T, Half>, kHalfStat = std::is_same_v<S, Half>;
  const uint64_t k = t.splitK, m = t.splitM, s = t.splitSize, groups = (m + kBlk - 1) / kBlk;
  const uint64_t castReps = (uint64_t{t.reduceSize} + kRep - 1) / kRep;
  std::vector<float> w(work.size() / 4);
  std::memcpy(w.data(), work.data(), w.size() * 4);
  const uint64_t t1 = kHalf ? s : 0, gAt = t1 + m * kRep;  // tmpBuffer1, the group results
  if (t.rangeM != 0) {
    if (k == 0 || k % kRep != 0 || s != m * k || s / kRep > 255 || m > 255 || k / kBlk > 255 ||
        groups > 255 || castReps > 255) {
      return false;
    }
    const uint64_t end = std::max({kHalf ? s : 0, t1 + m * kRep, gAt + groups * kBlk,
                                   kHalfStat ? t1 + groups * 2 * kRep : 0});
    const uint64_t statEnd =
        uint64_t{t.rangeM - 1} * t.reduceSize + (kHalfStat ? castReps * kRep : groups * kRep);
    if (end > w.size() || statEnd > statLen || uint64_t{t.rangeM} * s > dstLen) return false;
  }
  for (uint64_t i = 0; i < t.rangeM; ++i) {
    const uint64_t o1 = i * s, o2 = i * t.reduceSize;
    float* x = kHalf ? w.data() : reinterpret_cast<float*>(dst + o1);
    if constexpr (kHalf) {
      for (uint64_t j = 0; j < s; ++j) x[j] = HalfToFloat(src[o1 + j]);
    }
    const float* in = kHalf ? x : reinterpret_cast<const float*>(src + o1);
    for (const bool isMax : {true, false}) {
      S* stat = (isMax ? max : sum) + o2;
      const float* from = isMax ? in : x;
      Reduce(from, &w[t1], &w[gAt], m, k, isMax);
      std::vector<float> lanes;
      uint64_t rowStride = kBlk;
      if constexpr (kHalfStat) {  // 16 copies a row into tmpBuffer1, its Cast into the tensor
        AlignedBrcbLoop(&w[t1], &w[gAt], groups, 2 * kRep, 2 * kBlk);
        for (uint64_t j = 0; j < castReps * kRep; ++j) stat[j] = ToT<S>(w[t1 + j]);
        lanes.assign(w.begin() + t1, w.begin() + t1 + m * 2 * kBlk);
        rowStride = 2 * kBlk;
      } else {  // 8 copies a row straight into the float statistics
        std::vector<float> img(groups * kRep);
        AlignedBrcbLoop(img.data(), &w[gAt], groups, kRep, kBlk);
        for (uint64_t j = 0; j < img.size(); ++j) stat[j] = ToT<S>(img[j]);
        for (uint64_t j = 0; j < m * kBlk; ++j) lanes.push_back(FromT(stat[j]));
      }
      for (uint64_t c = 0; c < k / kRep; ++c) {  // Sub / Div: block l % 8 of the row's lanes
        for (uint64_t r = 0; r < m; ++r) {
          for (uint64_t l = 0; l < kRep; ++l) {
            const uint64_t e = r * k + c * kRep + l;
            const float v = lanes[r * rowStride + l % kBlk];
            x[e] = isMax ? from[e] - v : from[e] / v;
          }
        }
      }
      if (isMax) {
        for (uint64_t j = 0; j < s; ++j) {
          x[j] = static_cast<float>(std::exp(static_cast<double>(x[j])));
        }
      }
    }
    if constexpr (kHalf) {
      for (uint64_t j = 0; j < s; ++j) dst[o1 + j] = FloatToHalf(x[j]);
    }
  }
  std::memcpy(work.data(), w.data(), w.size() * 4);
  return true;
}

template bool ReplaySoftMaxBasicWorkV200<float, float>(const SmxTiling&, const float*, float*,
                                                       uint64_t, float*, float*, uint64_t,
                                                       std::vector<uint8_t>&);
template bool ReplaySoftMaxBasicWorkV200<Half, Half>(const SmxTiling&, const Half*, Half*, uint64_t,
                                                     Half*, Half*, uint64_t, std::vector<uint8_t>&);
template bool ReplaySoftMaxBasicWorkV200<Half, float>(const SmxTiling&, const Half*, Half*,
                                                      uint64_t, float*, float*, uint64_t,
                                                      std::vector<uint8_t>&);

}  // namespace lngrad_replay
