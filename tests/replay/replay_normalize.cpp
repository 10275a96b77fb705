// The [A, R] family replayed one element at a time (replay_normalize.h). Each block names the
// toolkit function it replays.
#include "replay_normalize.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

namespace lngrad_replay {
namespace {

template <class T>
float ToF(T v) {
  if constexpr (std::is_same_v<T, Half>) {
    return HalfToFloat(v);
  } else {
    return v;
  }
}

template <class T>
T FromF(float v) {
  if constexpr (std::is_same_v<T, Half>) {
    return FloatToHalf(v);
  } else {
    return v;
  }
}

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
        const float gv = std::is_same_v<U, Half> ? gt[c] : ToF(gamma[c]);
        const float bv = std::is_same_v<U, Half> ? bt[c] : ToF(beta[c]);
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

template <class T, class U>
void ReplayNormalize3510(const ArPara& p, const float* mean, const float* var, const T* x,
                         const U* gamma, const U* beta, float eps, T* out, float* rstd) {
  for (uint32_t j = 0; j < p.a; ++j) rstd[j] = RegRsqrt(var[j] + eps);
  for (uint32_t j = 0; j < p.a; ++j) {
    for (uint32_t c = 0; c < p.r; ++c) {
      float d = ToF(x[uint64_t{j} * p.rPad + c]) - mean[j];
      d = d * rstd[j];
      if (!p.noGamma && !p.noBeta) {
        d = std::fma(ToF(gamma[c]), d, ToF(beta[c]));  // FusedMulDstAdd
      } else {
        if (!p.noGamma) d = d * ToF(gamma[c]);
        if (!p.noBeta) d = d + ToF(beta[c]);
      }
      out[uint64_t{j} * p.rPad + c] = FromF<T>(d);  // RINT, no saturation
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
    for (uint32_t c = 0; c < p.rPad; ++c) ones[c] = FromF<T>(0.0f);
    for (uint32_t c = 0; c < p.r; ++c) ones[c] = FromF<T>(ToF(ones[c]) + 1.0f);
    for (uint64_t i = 0; i < p.a; ++i)
      for (uint32_t c = 0; c < p.rPad; ++c) {
        T& v = x[i * p.rPad + c];
        v = FromF<T>(ToF(v) * ToF(ones[c]));
      }
  }
  float* variance = stack + t.varianceTmpTensorPos;
  float* ta = stack + t.firstTmpStartPos;
  float* tb = stack + t.secondTmpStartPos;
  // ComputeMeanVariance for one chunk.
  auto chunk = [&](uint64_t inOff, uint64_t mvOff) {
    const T* src = x + inOff;
    for (uint32_t k = 0; k < t.arCurLength; ++k) ta[k] = ToF(src[k]);
    for (uint32_t k = 0; k < t.arCurLength; ++k) ta[k] = ta[k] * t.rValueBack;
    RowReduce(mean + mvOff, tb, ta, t.aCurLength, p.rPad);
    for (uint32_t k = 0; k < t.arCurLength; ++k) ta[k] = ToF(src[k]);
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
  if (r == 0 || r > 128) return false;
  float* variance = outputRstd ? stack : out1;
  float* rstd = outputRstd ? out1 : stack + (p.a + 7) / 8 * 8;
  for (uint64_t i = 0; i < p.a; ++i) {
    const T* row = x + i * p.rPad;
    // ComputeMeanVariance64VF / 128VF: lanes beyond r are 0 in every sum.
    float lo[64] = {};
    float hi[64] = {};
    for (uint32_t l = 0; l < 64 && l < r; ++l) lo[l] = ToF(row[l]);
    for (uint32_t l = 64; l < r; ++l) hi[l - 64] = ToF(row[l]);
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

}  // namespace lngrad_replay
