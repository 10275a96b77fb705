// lngrad_replay, the [A, R] family: Normalize and LayerNorm with mean and rstd outputs
// (spec §10), replayed element by element from a second reading of the toolkit's kernel
// sources (layernorm_common_impl.h, layernorm_common_basic_impl.h, normalize_common_impl.h,
// layernorm_3510_impl.h, normalize_3510_impl.h). No code shared with src/.
#pragma once

#include <cstdint>

#include "replay.h"

namespace lngrad_replay {

// LayerNormSeparateTiling, spec §10.6 order (same bytes as the kernel struct).
struct SeparateTiling {
  uint32_t aLength, rLength, halfAddRepeatTimes, rHeadLength;
  float k2Rec, k2RRec;
  uint32_t inputXSize, meanVarSize, numberOfTmpBuf, varianceTmpTensorPos, varianceTmpTensorSize,
      tmpBufSize, oneTmpSize, firstTmpStartPos, secondTmpStartPos, thirdTmpStartPos, loopRound,
      inputRoundSize, inputTailSize, inputTailPos, meanVarRoundSize, meanVarTailSize,
      meanVarTailPos, arCurLength, aCurLength;
  float rValueBack;
};
static_assert(sizeof(SeparateTiling) == 104);

// NormalizePara / LayerNormPara plus the config flags that change the arithmetic.
struct ArPara {
  uint32_t a, r, rPad;
  bool noGamma = false, noBeta = false;
};

// Normalize on arch 2201/2002. T = float or Half (x, out), U = float or Half (gamma, beta);
// stack = sharedTmpBuffer as floats, stackFloats its GetSize()/4 (it sizes the row groups).
// Writes rstd[0, a), out (whole padded rows) and the stack's group buffers. Returns false,
// writing nothing, when the stack holds no group of one row.
template <class T, class U>
bool ReplayNormalize(const ArPara& p, const float* mean, const float* var, const T* x,
                     const U* gamma, const U* beta, float eps, T* out, float* rstd, float* stack,
                     uint32_t stackFloats);

// Normalize on arch 3510: rstd by the register Rsqrt (fused multiply-adds, spec §10.5), then
// out = fma(gamma, (x - mean) * rstd, beta) over r columns of each row; no stack. Also T = Bf16
// (replay_activation.h) with U = Bf16 or float, the 950's bfloat16 forms.
template <class T, class U>
void ReplayNormalize3510(const ArPara& p, const float* mean, const float* var, const T* x,
                         const U* gamma, const U* beta, float eps, T* out, float* rstd);

// LayerNorm [A, R] on arch 2201/2002: x's padding multiplied by 0 in place when r < rPad, the
// tiling's chunks (the tail lengths written back into `tiling`), the variance in the stack at
// varianceTmpTensorPos, then ReplayNormalize on the stack from firstTmpStartPos.
template <class T, class U>
bool ReplayLayerNormRstd(SeparateTiling& tiling, const ArPara& p, T* x, const U* gamma,
                         const U* beta, float eps, T* out, float* mean, float* rstd, float* stack,
                         uint32_t stackFloats);

// LayerNorm [A, R] on arch 3510 (false for tiling.rLength 0): mean and variance per row (one
// 64-lane tree for R <= 128; the rHeadLength folding of ComputeMeanVarianceUseY beyond), the
// variance in stack[0, a) (outputRstd) or in out1 (!outputRstd, rstd then in stack[ceil8(a), ...)),
// then ReplayNormalize3510 with r = tiling.rLength.
template <class T, class U>
bool ReplayLayerNormRstd3510(const SeparateTiling& tiling, const ArPara& p, bool outputRstd,
                             const T* x, const U* gamma, const U* beta, float eps, T* out,
                             float* mean, float* out1, float* stack);

}  // namespace lngrad_replay
