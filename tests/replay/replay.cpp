// Scalar replay of the device algorithms (see replay.h). Each helper below stands for one
// device vector instruction over `n` elements and is evaluated element by element in index
// order, so exact in-place aliasing (dst == src) behaves as on the device.
#include "replay.h"

#include <cmath>

namespace lngrad_replay {
namespace {

// ---- element-wise "instructions" ----
void VAdd(float* d, const float* a, const float* b, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) d[i] = a[i] + b[i];
}
void VSub(float* d, const float* a, const float* b, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) d[i] = a[i] - b[i];
}
void VMul(float* d, const float* a, const float* b, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) d[i] = a[i] * b[i];
}
void VAdds(float* d, const float* a, float s, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) d[i] = a[i] + s;
}
void VMuls(float* d, const float* a, float s, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) d[i] = a[i] * s;
}
void VSqrt(float* d, const float* a, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) d[i] = std::sqrt(a[i]);
}
void VFill(float* d, float v, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) d[i] = v;
}
// "DoOneDiv": one 32-byte block of 1.0f written to `ones`, then d = 1.0f / a (src0 stride 0).
void OneDiv(float* d, float* ones, const float* a, uint32_t n) {
  VFill(ones, 1.0f, 8);
  for (uint32_t i = 0; i < n; ++i) d[i] = ones[i % 8] / a[i];
}
// Row value repeated across H columns (Brcb / Duplicate: exact copies).
void Broadcast(float* d, const float* rowValues, uint32_t rows, uint32_t h) {
  for (uint32_t r = 0; r < rows; ++r) {
    const float v = rowValues[r];
    for (uint32_t c = 0; c < h; ++c) d[r * h + c] = v;
  }
}

// WholeReduceSum of one repeat: `n` active lanes starting at src, tree over 64 lanes.
float WholeReduceOne(const float* src, uint32_t n) { return TreeSum64(src, n); }

// ReduceSumImpl(dst, src, calSize, H) of spec §1.8, one WholeReduceSum repeat at a time.
void ReduceRows(float* dst, const float* src, uint32_t calSize, uint32_t h) {
  const uint32_t rows = calSize / h;
  for (uint32_t i = 0; i < rows; ++i) {
    const uint32_t base = i * h;
    const float* s = src;
    uint32_t total = h;
    while (total > 1) {
      const uint32_t full = total / 64;
      const uint32_t tail = total % 64;
      for (uint32_t j = 0; j < full; ++j) {
        const float v = WholeReduceOne(s + base + 64 * j, 64);
        dst[total == 64 ? i : base + j] = v;
      }
      if (tail > 0) {
        const float v = WholeReduceOne(s + base + 64 * full, tail);
        dst[total < 64 ? i : base + full] = v;
      }
      total = (total + 63) / 64;
      s = dst;
    }
  }
}

// ---- conversions between T and float (ToFloat, FromFloat: replay.h) ----
template <class T>
void CastIn(float* d, const T* s, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) d[i] = ToFloat(s[i]);
}
template <class T>
void CastOut(T* d, const float* s, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) d[i] = FromFloat<T>(s[i]);
}

// ---- LayerNormGrad, 2201/2002 ----

// The float buffers one chunk works on (spec §1.5).
struct GradBuffers {
  float* bsh;
  float* pdVar;
  float* pdMean;
  float* x1;
  float* x2;
  float* x3;
  float* tmp;
};

// Steps 1-5 of spec §1.7 on float data, in three parts so that the half path can cast its
// inputs between them (spec §1.10). Step 1: x1 = dy * gamma, row by row.
void GradStep1(const GradBuffers& b, const float* dy, const float* gamma, uint32_t rows,
               uint32_t h) {
  for (uint32_t r = 0; r < rows; ++r) VMul(b.x1 + r * h, dy + r * h, gamma, h);
}

// Step 2: x2 = x - bcast(mean).
void GradStep2(const GradBuffers& b, const float* x, const float* mean, uint32_t calSize,
               uint32_t rows, uint32_t h) {
  Broadcast(b.bsh, mean, rows, h);
  VSub(b.x2, x, b.bsh, calSize);
}

// Steps 3-5. `res` and `out` receive resForGamma and pd_x.
void GradSteps3To5(const GradBuffers& b, const float* var, float eps, float oneOverN,
                   float twoOverN, float* res, float* out, uint32_t calSize, uint32_t rows,
                   uint32_t h) {
  // Step 3: pd_var.
  VAdds(b.tmp, var, eps, rows);
  VMul(b.bsh, b.tmp, b.tmp, rows);
  VMul(b.tmp, b.bsh, b.tmp, rows);
  VSqrt(b.tmp, b.tmp, rows);
  OneDiv(b.tmp, b.bsh, b.tmp, rows);
  Broadcast(b.bsh, b.tmp, rows, h);
  VMul(b.bsh, b.x2, b.bsh, calSize);
  VMul(b.bsh, b.x1, b.bsh, calSize);
  VMuls(b.bsh, b.bsh, -0.5f, calSize);
  ReduceRows(b.pdVar, b.bsh, calSize, h);
  // Step 4: rstd, resForGamma, x3, pd_mean.
  VAdds(b.tmp, var, eps, rows);
  VSqrt(b.tmp, b.tmp, rows);
  OneDiv(b.tmp, b.bsh, b.tmp, rows);
  Broadcast(b.bsh, b.tmp, rows, h);
  VMul(res, b.x2, b.bsh, calSize);
  VMul(b.x3, b.x1, b.bsh, calSize);
  VMuls(b.bsh, b.x3, -1.0f, calSize);
  ReduceRows(b.pdMean, b.bsh, calSize, h);
  VMuls(b.bsh, b.x2, -2.0f, calSize);
  ReduceRows(b.tmp, b.bsh, calSize, h);
  VMuls(b.tmp, b.tmp, oneOverN, rows);
  VMul(b.tmp, b.pdVar, b.tmp, rows);
  VAdd(b.pdMean, b.pdMean, b.tmp, rows);
  // Step 5: pd_x = ((pv*2/N)*x2 + pm/N) + x3.
  VMuls(b.pdVar, b.pdVar, twoOverN, rows);
  Broadcast(b.bsh, b.pdVar, rows, h);
  VMul(b.x1, b.bsh, b.x2, calSize);
  VMuls(b.pdMean, b.pdMean, oneOverN, rows);
  Broadcast(b.bsh, b.pdMean, rows, h);
  VAdd(b.x1, b.x1, b.bsh, calSize);
  VAdd(out, b.x1, b.x3, calSize);
}

void GradChunkFloat(const GradTiling& t, float* scratch, float* dy, float* x, const float* var,
                    const float* mean, const float* gamma, float eps, float* pdX, float* res,
                    uint32_t calSize, uint32_t rows, bool reuse) {
  GradBuffers b{scratch + t.tmpTensorBSHPos,
                scratch + t.pdVarTensorPos,
                scratch + t.pdMeanTensorPos,
                scratch + t.x1TensorPos,
                scratch + t.x2TensorPos,
                scratch + t.x3TensorPos,
                pdX};  // the float path keeps per-row values in the pd_x chunk
  if (reuse) {
    b.x1 = dy;
    b.x2 = x;
  }
  const uint32_t h = t.hLength;
  GradStep1(b, dy, gamma, rows, h);
  GradStep2(b, x, mean, calSize, rows, h);
  GradSteps3To5(b, var, eps, FromBits(t.lastDimValueBack), FromBits(t.lastDimValueBackMulTwo), res,
                pdX, calSize, rows, h);
}

void GradChunkHalf(const GradTiling& t, float* scratch, const Half* dy, const Half* x,
                   const Half* var, const Half* mean, const Half* gamma, float eps, Half* pdX,
                   Half* res, uint32_t calSize, uint32_t rows) {
  const uint32_t h = t.hLength;
  float* tmp1 = scratch + t.tmpTensor1Pos;
  float* tmp2 = scratch + t.tmpTensor2Pos;
  GradBuffers b{scratch + t.tmpTensorBSHPos, scratch + t.pdVarTensorPos,
                scratch + t.pdMeanTensorPos, scratch + t.x1TensorPos,
                scratch + t.x2TensorPos,     scratch + t.x3TensorPos,
                scratch + t.tmpTensorPos};
  const float oneOverN = FromBits(t.lastDimValueBack);
  const float twoOverN = FromBits(t.lastDimValueBackMulTwo);
  // The half path interleaves casts with the float steps (spec §1.10).
  CastIn(tmp1, dy, calSize);
  CastIn(tmp2, gamma, h);
  GradStep1(b, tmp1, tmp2, rows, h);
  CastIn(tmp1, x, calSize);
  CastIn(tmp2, mean, rows);
  GradStep2(b, tmp1, tmp2, calSize, rows, h);
  CastIn(tmp1, var, rows);
  // float resForGamma in tmp2, float pd_x in tmp.
  GradSteps3To5(b, tmp1, eps, oneOverN, twoOverN, tmp2, b.tmp, calSize, rows, h);
  CastOut(pdX, b.tmp, calSize);
  CastOut(res, tmp2, calSize);
}

// ---- LayerNormGradBeta, 2201/2002 ----

// ReduceSumFirstN: dst[c] accumulates rows of src (row stride h) in row order.
void AccumulateRows(float* dst, const float* src, uint32_t rows, uint32_t h, bool clear) {
  uint32_t r = 0;
  if (clear) {
    VAdds(dst, src, 0.0f, h);
    r = 1;
  }
  for (; r < rows; ++r) VAdd(dst, src + r * h, dst, h);
}

}  // namespace

float HalfToFloat(Half hv) {
  const uint32_t h = hv.bits;
  const uint32_t sign = (h & 0x8000u) << 16;
  const uint32_t exp = (h >> 10) & 0x1Fu;
  const uint32_t man = h & 0x3FFu;
  if (exp == 0x1F) return FromBits(sign | 0x7F800000u | (man << 13));
  if (exp == 0) {
    // Zero or subnormal: man * 2^-24, exact in float.
    const float mag = static_cast<float>(man) * 5.9604644775390625e-08f;
    return sign ? -mag : mag;
  }
  return FromBits(sign | ((exp - 15 + 127) << 23) | (man << 13));
}

Half FloatToHalf(float f) {
  const uint32_t u = Bits(f);
  const uint16_t sign = static_cast<uint16_t>((u >> 16) & 0x8000u);
  const uint32_t mag = u & 0x7FFFFFFFu;
  if (mag > 0x7F800000u)
    return Half{static_cast<uint16_t>(sign | 0x7E00u | ((mag >> 13) & 0x1FFu))};  // NaN
  if (mag == 0x7F800000u) return Half{static_cast<uint16_t>(sign | 0x7C00u)};
  const int exp = static_cast<int>(mag >> 23) - 127;
  if (exp >= 16) return Half{static_cast<uint16_t>(sign | 0x7C00u)};
  // Significand with the implicit bit, and how many low bits to drop for the half result.
  uint32_t sig = (mag & 0x7FFFFFu) | (mag >= 0x00800000u ? 0x800000u : 0u);
  int shift;
  uint32_t exp_field;
  if (exp >= -14) {
    shift = 13;
    exp_field = static_cast<uint32_t>(exp + 15);
  } else {
    shift = 13 + (-14 - exp);  // subnormal half: fewer significant bits
    exp_field = 0;
    if (shift > 25) return Half{sign};  // below a quarter of the smallest subnormal
  }
  const uint32_t dropped = sig & ((1u << shift) - 1u);
  const uint32_t halfway = 1u << (shift - 1);
  uint32_t kept = sig >> shift;
  if (dropped > halfway || (dropped == halfway && (kept & 1u))) ++kept;
  // For normals `kept` still carries the implicit bit (0x400); adding exp_field << 10 without
  // removing it is done by subtracting it first; a carry out of the significand bumps the
  // exponent naturally.
  uint32_t result;
  if (exp_field != 0) {
    result = ((exp_field << 10) + (kept - 0x400u));
  } else {
    result = kept;  // may round up into the smallest normal (0x400), which is correct
  }
  if (result >= 0x7C00u) return Half{static_cast<uint16_t>(sign | 0x7C00u)};
  return Half{static_cast<uint16_t>(sign | result)};
}

Half FloatToHalfSaturate(float f) {
  // Cast documentation, float-to-float in saturation mode: a NaN input gives 0.
  if (std::isnan(f)) return Half{0};
  const Half h = FloatToHalf(f);
  if ((h.bits & 0x7FFFu) == 0x7C00u)
    return Half{static_cast<uint16_t>((h.bits & 0x8000u) | 0x7BFFu)};
  return h;
}

float Bf16ToFloat(Bf16 b) { return FromBits(static_cast<uint32_t>(b.bits) << 16); }

Bf16 FloatToBf16(float f) {
  const uint32_t u = Bits(f);
  if (std::isnan(f)) return Bf16{static_cast<uint16_t>((u >> 16) | 0x0040u)};
  const uint32_t rounded = u + 0x7FFFu + ((u >> 16) & 1u);  // ties to the even 16-bit result
  return Bf16{static_cast<uint16_t>(rounded >> 16)};
}

Bf16 FloatToBf16Saturate(float f) {
  if (std::isnan(f)) return Bf16{0};
  const uint32_t u = Bits(f);
  const auto sign = static_cast<uint16_t>((u >> 16) & 0x8000u);
  const Bf16 maxFinite{static_cast<uint16_t>(sign | 0x7F7Fu)};
  if ((u & 0x7FFFFFFFu) >= 0x7F800000u) return maxFinite;
  const uint32_t rounded = u + 0x7FFFu + ((u >> 16) & 1u);
  if ((rounded & 0x7FFFFFFFu) >= 0x7F800000u) return maxFinite;
  return Bf16{static_cast<uint16_t>(rounded >> 16)};
}

float TreeSum64(const float* lanes, uint32_t n) {
  float v[64];
  for (uint32_t i = 0; i < 64; ++i) v[i] = i < n ? lanes[i] : 0.0f;
  for (uint32_t width = 32; width >= 1; width /= 2) {
    for (uint32_t i = 0; i < width; ++i) v[i] = v[2 * i] + v[2 * i + 1];
  }
  return v[0];
}

template <class T>
bool ReplayLayerNormGrad(const GradTiling& t, T* inputDy, T* inputX, const T* inputVariance,
                         const T* inputMean, const T* inputGamma, T epsilon, T* outputPdX,
                         T* resForGamma, float* scratch, bool isReuseSource, bool isNdFormat) {
  if (t.hLength == 0 || t.oneCalSize == 0 || t.nohCalSize == 0) return false;
  // The kernel runs the ND computation only for ND; its other branch is an assert.
  if (!isNdFormat) return true;
  const float eps = ToFloat(epsilon);
  uint64_t off0 = 0;  // element offset in [B,S,H]
  uint64_t off1 = 0;  // row offset in [B,S]
  const auto chunk = [&](uint32_t calSize, uint32_t rows) {
    if constexpr (sizeof(T) == 4) {
      GradChunkFloat(t, scratch, inputDy + off0, inputX + off0, inputVariance + off1,
                     inputMean + off1, inputGamma, eps, outputPdX + off0, resForGamma + off0,
                     calSize, rows, isReuseSource);
    } else {
      GradChunkHalf(t, scratch, inputDy + off0, inputX + off0, inputVariance + off1,
                    inputMean + off1, inputGamma, eps, outputPdX + off0, resForGamma + off0,
                    calSize, rows);
    }
  };
  for (uint32_t i = 0; i < t.loopNum; ++i) {
    chunk(t.oneCalSize, t.nohCalSize);
    off0 += t.oneCalSize;
    off1 += t.nohCalSize;
  }
  if (t.tailSize != 0) chunk(t.tailSize, t.nohTailSize);
  return true;
}

template <class T>
bool ReplayLayerNormGrad3510(const GradTiling& t, T* inputDy, T* inputX, const T* inputVariance,
                             const T* inputMean, const T* inputGamma, T epsilon, T* outputPdX,
                             T* resForGamma, float* scratch, bool isReuseSource,
                             bool /*isNdFormat*/) {
  // The 3510 kernel only asserts ND (an assert, not a branch): any format computes.
  const uint32_t h = t.hLength;
  if (h == 0) return false;
  const float eps = ToFloat(epsilon);
  const float oneOverN = FromBits(t.lastDimValueBack);
  const float twoOverN = FromBits(t.lastDimValueBackMulTwo);
  float* x1Tmp = scratch;
  float* x2Tmp = scratch + (h + 7) / 8 * 8;
  if constexpr (sizeof(T) == 4) {
    if (isReuseSource) {
      x1Tmp = reinterpret_cast<float*>(inputDy);
      x2Tmp = reinterpret_cast<float*>(inputX);
    }
  }
  const uint32_t chunks = (h + 63) / 64;
  const uint64_t rows = uint64_t{t.bLength} * t.sLength;
  for (uint64_t j = 0; j < rows; ++j) {
    const uint64_t base = j * h;
    const float var = ToFloat(inputVariance[j]);
    const float mean = ToFloat(inputMean[j]);
    float pdVar[64] = {};
    float pdMean[64] = {};
    float res2[64] = {};
    // Per-row scalars, computed in lane 0 exactly as the block path computes them per row.
    float t1 = var + eps;
    float t2 = t1 * t1;
    t1 = t2 * t1;
    t1 = std::sqrt(t1);
    const float rstd3 = 1.0f / t1;
    float r1 = var + eps;
    r1 = std::sqrt(r1);
    const float rstd = 1.0f / r1;
    // Loop 1: x1, x2 stored; -0.5*x1*x2*rstd3 accumulated lane-wise.
    for (uint32_t i = 0; i < chunks; ++i) {
      const uint32_t n = h - 64 * i < 64 ? h - 64 * i : 64;
      for (uint32_t l = 0; l < n; ++l) {
        const uint64_t k = base + 64 * i + l;
        const float x1 = ToFloat(inputDy[k]) * ToFloat(inputGamma[64 * i + l]);
        const float x2 = ToFloat(inputX[k]) - mean;
        float v = x2 * rstd3;
        v = x1 * v;
        v = v * -0.5f;
        pdVar[l] = pdVar[l] + v;
        x1Tmp[64 * i + l] = x1;
        x2Tmp[64 * i + l] = x2;
      }
    }
    const float pv = TreeSum64(pdVar, h < 64 ? h : 64);
    // Loop 2: resForGamma, x1*rstd stored back, pd_mean and sum(-2*x2) lane-wise.
    for (uint32_t i = 0; i < chunks; ++i) {
      const uint32_t n = h - 64 * i < 64 ? h - 64 * i : 64;
      for (uint32_t l = 0; l < n; ++l) {
        const uint32_t o = 64 * i + l;
        const float x1 = x1Tmp[o];
        const float x2 = x2Tmp[o];
        const float res = x2 * rstd;
        const float x3 = x1 * rstd;
        x1Tmp[o] = x3;
        pdMean[l] = pdMean[l] + x3 * -1.0f;
        res2[l] = res2[l] + x2 * -2.0f;
        resForGamma[base + o] = FromFloat<T>(res);
      }
    }
    float pm = TreeSum64(pdMean, h < 64 ? h : 64);
    float s = TreeSum64(res2, h < 64 ? h : 64);
    s = s * oneOverN;
    s = pv * s;
    pm = pm + s;
    // Loop 3: pd_x.
    const float pv2 = pv * twoOverN;
    const float pm1 = pm * oneOverN;
    for (uint32_t i = 0; i < chunks; ++i) {
      const uint32_t n = h - 64 * i < 64 ? h - 64 * i : 64;
      for (uint32_t l = 0; l < n; ++l) {
        const uint32_t o = 64 * i + l;
        float v = pv2 * x2Tmp[o];
        v = v + pm1;
        v = v + x1Tmp[o];
        outputPdX[base + o] = FromFloat<T>(v);
      }
    }
  }
  return true;
}

template <class T>
bool ReplayLayerNormGradBeta(const GradBetaTiling& t, T* resForGamma, const T* inputDy,
                             T* outputPdGamma, T* outputPdBeta, float* scratch,
                             bool isReuseSource) {
  const uint32_t h = t.originalHLength;  // column count and row stride (spec §3.3)
  if (h == 0 || t.oneCalSize == 0) return false;
  const auto chunk = [&](uint64_t offset, uint32_t bshCur, uint32_t bsCur, bool clear) {
    if constexpr (sizeof(T) == 4) {
      // With isReuseSource the kernel's product tensor is resForGamma itself, not offset by the
      // chunk: each chunk writes its products over resForGamma[0, bshCur).
      float* tmp = isReuseSource ? resForGamma : scratch + t.resForGammaTmpTensorPos;
      VMul(tmp, inputDy + offset, resForGamma + offset, bshCur);
      AccumulateRows(outputPdGamma, tmp, bsCur, h, clear);
      AccumulateRows(outputPdBeta, inputDy + offset, bsCur, h, clear);
    } else {
      float* dyT = scratch + t.inputDyTmpTensorPos;
      float* resT = scratch + t.resForGammaTmpTensorPos;
      float* g = scratch + t.gammaTempTensorPos;
      float* b = scratch + t.betaTempTensorPos;
      CastIn(dyT, inputDy + offset, bshCur);
      CastIn(resT, resForGamma + offset, bshCur);
      VMul(resT, dyT, resT, bshCur);
      AccumulateRows(g, resT, bsCur, h, clear);
      AccumulateRows(b, dyT, bsCur, h, clear);
      CastOut(outputPdGamma, g, h);
      CastOut(outputPdBeta, b, h);
    }
  };
  chunk(0, t.bshCurLength, t.bsCurLength, true);
  uint64_t offset = t.oneCalSize;
  for (uint32_t i = 1; i < t.loopRound; ++i) {
    chunk(offset, t.bshCurLength, t.bsCurLength, false);
    offset += t.oneCalSize;
  }
  if (t.inputTailSize > 0) chunk(t.inputTailPos, t.inputTailSize, t.bsTailSize, false);
  return true;
}

template <class T>
bool ReplayLayerNormGradBeta3510(const GradBetaTiling& t, const T* resForGamma, const T* inputDy,
                                 T* outputPdGamma, T* outputPdBeta) {
  const uint32_t h = t.hLength;
  if (h == 0) return false;
  for (uint32_t c0 = 0; c0 < h; c0 += 64) {
    const uint32_t n = h - c0 < 64 ? h - c0 : 64;
    for (uint32_t l = 0; l < n; ++l) {
      float g = 0.0f;
      float b = 0.0f;
      for (uint64_t r = 0; r < t.bsLength; ++r) {
        const float dy = ToFloat(inputDy[r * h + c0 + l]);
        const float p = dy * ToFloat(resForGamma[r * h + c0 + l]);
        g = g + p;
        b = b + dy;
      }
      if constexpr (sizeof(T) == 4) {
        outputPdGamma[c0 + l] = g;
        outputPdBeta[c0 + l] = b;
      } else {
        outputPdGamma[c0 + l] = FloatToHalfSaturate(g);
        outputPdBeta[c0 + l] = FloatToHalfSaturate(b);
      }
    }
  }
  return true;
}

#define LNGRAD_REPLAY_INSTANTIATE(T)                                                               \
  template bool ReplayLayerNormGrad<T>(const GradTiling&, T*, T*, const T*, const T*, const T*, T, \
                                       T*, T*, float*, bool, bool);                                \
  template bool ReplayLayerNormGrad3510<T>(const GradTiling&, T*, T*, const T*, const T*,          \
                                           const T*, T, T*, T*, float*, bool, bool);               \
  template bool ReplayLayerNormGradBeta<T>(const GradBetaTiling&, T*, const T*, T*, T*, float*,    \
                                           bool);                                                  \
  template bool ReplayLayerNormGradBeta3510<T>(const GradBetaTiling&, const T*, const T*, T*, T*);
LNGRAD_REPLAY_INSTANTIATE(float)
LNGRAD_REPLAY_INSTANTIATE(Half)
#undef LNGRAD_REPLAY_INSTANTIATE

}  // namespace lngrad_replay
