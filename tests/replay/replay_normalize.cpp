// The [A, R] family replayed one element at a time (replay_normalize.h). Each block names the
// toolkit function it replays.
#include "replay_normalize.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>
#include <vector>

#include "replay_activation.h"

namespace lngrad_replay {
namespace {

// LayerNormReduceSumImpl(mv, dst, src, rows, h): per row, the columns beyond the first 64
// are added onto them repeat by repeat (acc = chunk + acc), then the partial tail; then one
// WholeReduceSum repeat per row over min(h, 64) lanes, to mv[i] and to dst[i * h].
void RowReduce(float* mv, float* dst, float* src, uint32_t rows, uint32_t h) {
  if (h > 64) {
    const uint32_t repeats = h / 64 - 1;
    const uint32_t tail = h % 64;
    for (uint64_t i = 0; i < rows; ++i) {
      float* acc = src + i * h;
      for (uint32_t k = 0; k < repeats; ++k) {
        for (uint32_t l = 0; l < 64; ++l) acc[l] = acc[64 * (k + 1) + l] + acc[l];
      }
      if (tail != 0) {
        const float* t = acc + (h / 64) * 64;
        for (uint32_t l = 0; l < tail; ++l) acc[l] = t[l] + acc[l];
      }
    }
  }
  const uint32_t lanes = h > 64 ? 64 : h;
  for (uint64_t i = 0; i < rows; ++i) mv[i] = TreeSum64(src + i * h, lanes);
  for (uint64_t i = 0; i < rows; ++i) dst[i * h] = TreeSum64(src + i * h, lanes);
}

// RsqrtUtil of normalize_3510_impl.h, one lane.
float RegRsqrt(float x) {
  float r = 1.0f / x;
  float y = std::sqrt(r);
  float t = x * -0.5f;
  t = t * y;
  float n15 = 1.5f;
  n15 = std::fma(t, y, n15);
  y = y * n15;
  float n1 = x * -1.0f;
  float s = 1.0f;
  s = std::fma(n1, r, s);
  n1 = y * -1.0f;
  r = std::fma(n1, y, r);
  s = std::fma(x, r, s);
  s = s * y;
  y = std::fma(s, 0.5f, y);
  float d = (x == std::numeric_limits<float>::infinity()) ? 0.0f : y;
  d = (x == 0.0f) ? std::numeric_limits<float>::infinity() : d;
  return d;
}

// ComputeMeanVarianceUseY (layernorm_3510_impl.h / layernorm_3510_utils.h), one row, one
// statistic: `var` false sums x * k2Rec, true sums ((x - mean)^2) * k2Rec. Registers are arrays
// of 64 lanes; UpdateMask(count) takes min(count, 64) lanes off `count`.
template <class T>
float UseYStatistic(const T* row, uint32_t rLength, uint32_t rHead, float k2Rec, float k2RRec,
                    bool var, float mean) {
  const uint32_t m = rLength - rHead;
  const uint32_t halfAddCount = (rHead / 2 + 63) / 64;
  const uint32_t halfAddTimes = (halfAddCount + 63) / 64;
  uint32_t repeatTimes1 = (m + 63) / 64 / 2;
  uint32_t count2 = m % 128;
  if (repeatTimes1 * 128 > m) count2 = 0;
  const uint32_t repeatTimes2 = (count2 + 63) / 64;
  const uint32_t mainTailCount = rHead - repeatTimes1 * 2 * 64 - repeatTimes2 * 64 * 2;
  const uint32_t mVL = (repeatTimes1 + repeatTimes2) * 64 * 2;
  const uint32_t repeatTimes3 = mainTailCount / 64 / 2;
  auto updateMask = [](uint32_t& count) {
    const uint32_t n = count < 64 ? count : 64;
    count -= n;
    return n;
  };
  // A register loaded at `off` and prepared: x (mean) or (x - mean)^2 (variance); lanes at or
  // beyond `active` are 0 (the zeroing masked ops).
  auto load = [&](uint64_t off, uint32_t active, float* reg) {
    for (uint32_t l = 0; l < 64; ++l) {
      float v = 0.0f;
      if (l < active) {
        v = ToFloat(row[off + l]);
        if (var) {
          v = v - mean;
          v = v * v;
        }
      }
      reg[l] = v;
    }
  };
  std::vector<float> work(halfAddTimes * 64 > 64 ? halfAddTimes * 64 : 64, 0.0f);
  float s0[64], s1[64], d0[64], d1[64], dst[64];
  // Loop1: pairs of head blocks, each with its tail block.
  uint32_t mTmp = m;
  for (uint32_t i = 0; i < repeatTimes1; ++i) {
    uint32_t n = updateMask(mTmp);
    load(2 * i * 64, 64, s0);
    load(rHead + 2 * i * 64, n, s1);
    for (uint32_t l = 0; l < 64; ++l) d0[l] = std::fma(s0[l], k2Rec, s1[l] * k2Rec);  // Axpy
    n = updateMask(mTmp);
    load((2 * i + 1) * 64, 64, s0);
    load(rHead + (2 * i + 1) * 64, n, s1);
    for (uint32_t l = 0; l < 64; ++l) d1[l] = std::fma(s0[l], k2Rec, s1[l] * k2Rec);
    for (uint32_t l = 0; l < 64; ++l) dst[l] = d0[l] + d1[l];
    work[i] = TreeSum64(dst, 64);
  }
  // Loop2: one head pair of which only the first block has a (partial) tail.
  for (uint32_t i = 0; i < repeatTimes2; ++i) {
    load(repeatTimes1 * 2 * 64, 64, s0);
    load(rHead + repeatTimes1 * 2 * 64, count2, s1);
    for (uint32_t l = 0; l < 64; ++l) d0[l] = std::fma(s0[l], k2Rec, s1[l] * k2Rec);
    load(repeatTimes1 * 2 * 64 + 64, 64, s0);
    for (uint32_t l = 0; l < 64; ++l) d1[l] = s0[l] * k2Rec;
    for (uint32_t l = 0; l < 64; ++l) dst[l] = d0[l] + d1[l];
    work[repeatTimes1 + i] = TreeSum64(dst, 64);
  }
  // Loop3: the head pairs with no tail.
  for (uint32_t i = 0; i < repeatTimes3; ++i) {
    load(mVL + 2 * i * 64, 64, s0);
    load(mVL + (2 * i + 1) * 64, 64, s1);
    for (uint32_t l = 0; l < 64; ++l) dst[l] = s0[l] * k2Rec + s1[l] * k2Rec;
    work[repeatTimes1 + repeatTimes2 + i] = TreeSum64(dst, 64);
  }
  // ReduceWorkBufferAndStore: 1, 2, 4 or more groups of 64 partial sums, halved in place.
  uint32_t cur = halfAddTimes;
  uint32_t fold = 0;
  for (uint32_t i = 1; i < 16 && (halfAddTimes >> i) != 0; ++i) ++fold;
  for (uint32_t k = 0; k < fold; ++k) {
    cur /= 2;
    for (uint32_t i = 0; i < cur; ++i)
      for (uint32_t l = 0; l < 64; ++l)
        work[i * 64 + l] = work[i * 64 + l] + work[(cur + i) * 64 + l];
  }
  const uint32_t last = halfAddCount < 64 ? halfAddCount : 64;
  return TreeSum64(work.data(), last) * k2RRec;
}

}  // namespace

template <class T, class U>
bool ReplayNormalize(const ArPara& p, const float* mean, const float* var, const T* x,
                     const U* gamma, const U* beta, float eps, T* out, float* rstd, float* stack,
                     uint32_t stackFloats) {
  // GetNormalizeTensorInfo.
  const uint32_t twoR = p.rPad * 2;
  uint32_t n = std::is_same_v<U, float> ? stackFloats / twoR : (stackFloats - twoR) / twoR;
  if (n > p.a) n = p.a;
  if (n == 0) return false;
  float* ta = stack;
  float* tb = stack + uint64_t{n} * p.rPad;
  float* gt = stack + uint64_t{twoR} * n;
  float* bt = gt + p.rPad;
  // GetNormalizeOutputRstd.
  for (uint32_t i = 0; i < p.a; ++i) rstd[i] = var[i] + eps;
  for (uint32_t i = 0; i < p.a; ++i) ta[i] = 1.0f;
  for (uint32_t i = 0; i < p.a; ++i) rstd[i] = std::sqrt(rstd[i]);
  for (uint32_t i = 0; i < p.a; ++i) rstd[i] = ta[i] / rstd[i];
  if constexpr (std::is_same_v<U, Half>) {
    // CastGammaBeta.
    if (!p.noGamma)
      for (uint32_t c = 0; c < p.r; ++c) gt[c] = HalfToFloat(gamma[c]);
    if (!p.noBeta)
      for (uint32_t c = 0; c < p.r; ++c) bt[c] = HalfToFloat(beta[c]);
  }
  const uint32_t rounds = p.a / n;
  const uint32_t tailRows = p.a % n;
  for (uint32_t g = 0; g <= rounds; ++g) {
    const uint32_t rows = g < rounds ? n : tailRows;
    if (rows == 0) break;
    const uint64_t index = uint64_t{p.rPad} * n * g;
    const uint64_t base = uint64_t{n} * g;
    const uint64_t count = uint64_t{rows} * p.rPad;
    // CastSrc.
    for (uint64_t k = 0; k < count; ++k) {
      if constexpr (std::is_same_v<T, float>) {
        ta[k] = x[index + k] + 0.0f;
      } else {
        ta[k] = HalfToFloat(x[index + k]);
      }
    }
    // GetNormalizeOutputPre.
    for (uint32_t i = 0; i < rows; ++i)
      for (uint32_t c = 0; c < p.r; ++c) tb[uint64_t{i} * p.rPad + c] = mean[i + base];
    for (uint64_t k = 0; k < count; ++k) ta[k] = ta[k] - tb[k];
    for (uint32_t i = 0; i < rows; ++i)
      for (uint32_t c = 0; c < p.r; ++c) tb[uint64_t{i} * p.rPad + c] = rstd[i + base];
    for (uint64_t k = 0; k < count; ++k) ta[k] = ta[k] * tb[k];
    // GetNormalizeOutput.
    for (uint32_t i = 0; i < rows; ++i) {
      float* row = ta + uint64_t{i} * p.rPad;
      for (uint32_t c = 0; c < p.r; ++c) {
        const float gv = std::is_same_v<U, Half> ? gt[c] : ToFloat(gamma[c]);
        const float bv = std::is_same_v<U, Half> ? bt[c] : ToFloat(beta[c]);
        if (!p.noGamma) row[c] = row[c] * gv;
        if (!p.noBeta) row[c] = row[c] + bv;
      }
    }
    for (uint64_t k = 0; k < count; ++k) {
      if constexpr (std::is_same_v<T, float>) {
        out[index + k] = ta[k] + 0.0f;
      } else {
        out[index + k] = FloatToHalf(ta[k]);
      }
    }
  }
  return true;
}

// The 3510 register loads and stores of T: half and (session 14, helper aqn, its own reading
// of normalize_3510_impl.h's NormalizeImpl type rules, LoadDataWithT, the DIST_UNPACK_B16 gamma /
// beta loads and the LayoutZMrgZRndRSatNS Cast; lngrad's normalize.cpp had been read before, not
// blind) bfloat16 widen exactly to float and round back to nearest even without saturation
// (overflow to inf, NaN stays a quiet NaN).
inline float RegIn(float v) { return v; }
inline float RegIn(Half v) { return HalfToFloat(v); }
inline float RegIn(Bf16 v) { return Bf16ToFloat(v); }
template <class T>
T RegOut(float v) {
  if constexpr (std::is_same_v<T, Bf16>) {
    return FloatToBf16(v);
  } else {
    return FromFloat<T>(v);
  }
}

template <class T, class U>
void ReplayNormalize3510(const ArPara& p, const float* mean, const float* var, const T* x,
                         const U* gamma, const U* beta, float eps, T* out, float* rstd) {
  for (uint32_t j = 0; j < p.a; ++j) rstd[j] = RegRsqrt(var[j] + eps);
  for (uint32_t j = 0; j < p.a; ++j) {
    for (uint32_t c = 0; c < p.r; ++c) {
      float d = RegIn(x[uint64_t{j} * p.rPad + c]) - mean[j];
      d = d * rstd[j];
      if (!p.noGamma && !p.noBeta) {
        d = std::fma(RegIn(gamma[c]), d, RegIn(beta[c]));  // FusedMulDstAdd
      } else {
        if (!p.noGamma) d = d * RegIn(gamma[c]);
        if (!p.noBeta) d = d + RegIn(beta[c]);
      }
      out[uint64_t{j} * p.rPad + c] = RegOut<T>(d);  // RINT, no saturation
    }
  }
}

template <class T, class U>
bool ReplayLayerNormRstd(SeparateTiling& t, const ArPara& p, T* x, const U* gamma, const U* beta,
                         float eps, T* out, float* mean, float* rstd, float* stack,
                         uint32_t stackFloats) {
  if (p.r != p.rPad) {
    // LayerNormPreProc, in T at the stack's start.
    T* ones = reinterpret_cast<T*>(stack);
    for (uint32_t c = 0; c < p.rPad; ++c) ones[c] = FromFloat<T>(0.0f);
    for (uint32_t c = 0; c < p.r; ++c) ones[c] = FromFloat<T>(ToFloat(ones[c]) + 1.0f);
    for (uint64_t i = 0; i < p.a; ++i)
      for (uint32_t c = 0; c < p.rPad; ++c) {
        T& v = x[i * p.rPad + c];
        v = FromFloat<T>(ToFloat(v) * ToFloat(ones[c]));
      }
  }
  float* variance = stack + t.varianceTmpTensorPos;
  float* ta = stack + t.firstTmpStartPos;
  float* tb = stack + t.secondTmpStartPos;
  // ComputeMeanVariance for one chunk.
  auto chunk = [&](uint64_t inOff, uint64_t mvOff) {
    const T* src = x + inOff;
    for (uint32_t k = 0; k < t.arCurLength; ++k) ta[k] = ToFloat(src[k]);
    for (uint32_t k = 0; k < t.arCurLength; ++k) ta[k] = ta[k] * t.rValueBack;
    RowReduce(mean + mvOff, tb, ta, t.aCurLength, p.rPad);
    for (uint32_t k = 0; k < t.arCurLength; ++k) ta[k] = ToFloat(src[k]);
    for (uint32_t j = 0; j < t.aCurLength; ++j) {
      const float s = -1.0f * mean[mvOff + j];
      for (uint32_t c = 0; c < t.rLength; ++c) ta[uint64_t{j} * p.rPad + c] += s;
    }
    for (uint32_t k = 0; k < t.arCurLength; ++k) ta[k] = ta[k] * ta[k];
    for (uint32_t k = 0; k < t.arCurLength; ++k) ta[k] = ta[k] * t.rValueBack;
    RowReduce(variance + mvOff, tb, ta, t.aCurLength, p.rPad);
  };
  // LayerNormCalMeanVarImpl.
  uint64_t inOff = 0, mvOff = 0;
  for (uint32_t i = 0; i < t.loopRound; ++i) {
    chunk(inOff, mvOff);
    inOff += t.inputRoundSize;
    mvOff += t.meanVarRoundSize;
  }
  if (t.inputTailSize > 0) {
    t.arCurLength = t.inputTailSize;
    t.aCurLength = t.meanVarTailSize;
    chunk(t.inputTailPos, t.meanVarTailPos);
  }
  return ReplayNormalize<T, U>(p, mean, variance, x, gamma, beta, eps, out, rstd, ta,
                               stackFloats - t.firstTmpStartPos);
}

template <class T, class U>
bool ReplayLayerNormRstd3510(const SeparateTiling& t, const ArPara& p, bool outputRstd, const T* x,
                             const U* gamma, const U* beta, float eps, T* out, float* mean,
                             float* out1, float* stack) {
  const uint32_t r = t.rLength;
  if (r == 0) return false;
  float* variance = outputRstd ? stack : out1;
  float* rstd = outputRstd ? out1 : stack + (p.a + 7) / 8 * 8;
  for (uint64_t i = 0; i < p.a; ++i) {
    const T* row = x + i * p.rPad;
    if (r > 128) {
      mean[i] = UseYStatistic(row, r, t.rHeadLength, t.k2Rec, t.k2RRec, false, 0.0f);
      variance[i] = UseYStatistic(row, r, t.rHeadLength, t.k2Rec, t.k2RRec, true, mean[i]);
      continue;
    }
    // ComputeMeanVariance64VF / 128VF: lanes beyond r are 0 in every sum.
    float lo[64] = {};
    float hi[64] = {};
    for (uint32_t l = 0; l < 64 && l < r; ++l) lo[l] = ToFloat(row[l]);
    for (uint32_t l = 64; l < r; ++l) hi[l - 64] = ToFloat(row[l]);
    float acc[64];
    for (uint32_t l = 0; l < 64; ++l) {
      float v = l < r ? lo[l] * t.k2Rec : 0.0f;
      if (r > 64) v = v + (l + 64 < r ? hi[l] * t.k2Rec : 0.0f);
      acc[l] = v;
    }
    const float m = TreeSum64(acc, 64) * t.k2RRec;
    mean[i] = m;
    for (uint32_t l = 0; l < 64; ++l) {
      float v = 0.0f;
      if (l < r) {
        const float d = lo[l] - m;
        v = (d * d) * t.k2Rec;
      }
      if (r > 64) {
        float w = 0.0f;
        if (l + 64 < r) {
          const float d = hi[l] - m;
          w = (d * d) * t.k2Rec;
        }
        v = v + w;
      }
      acc[l] = v;
    }
    variance[i] = TreeSum64(acc, 64) * t.k2RRec;
  }
  ArPara q = p;
  q.r = r;
  ReplayNormalize3510<T, U>(q, mean, variance, x, gamma, beta, eps, out, rstd);
  return true;
}

#define LNGRAD_REPLAY_AR(T, U)                                                                    \
  template bool ReplayNormalize<T, U>(const ArPara&, const float*, const float*, const T*,        \
                                      const U*, const U*, float, T*, float*, float*, uint32_t);   \
  template void ReplayNormalize3510<T, U>(const ArPara&, const float*, const float*, const T*,    \
                                          const U*, const U*, float, T*, float*);                 \
  template bool ReplayLayerNormRstd<T, U>(SeparateTiling&, const ArPara&, T*, const U*, const U*, \
                                          float, T*, float*, float*, float*, uint32_t);           \
  template bool ReplayLayerNormRstd3510<T, U>(const SeparateTiling&, const ArPara&, bool,         \
                                              const T*, const U*, const U*, float, T*, float*,    \
                                              float*, float*);
LNGRAD_REPLAY_AR(float, float)
LNGRAD_REPLAY_AR(Half, Half)
LNGRAD_REPLAY_AR(Half, float)
#undef LNGRAD_REPLAY_AR
// bfloat16 exists on the 950 only (normalize_3510_impl.h's NormalizeImpl: T bfloat16_t with U
// bfloat16_t or float).
template void ReplayNormalize3510<Bf16, Bf16>(const ArPara&, const float*, const float*,
                                              const Bf16*, const Bf16*, const Bf16*, float, Bf16*,
                                              float*);
template void ReplayNormalize3510<Bf16, float>(const ArPara&, const float*, const float*,
                                               const Bf16*, const float*, const float*, float,
                                               Bf16*, float*);

}  // namespace lngrad_replay
