// lngrad_replay, the normalization APIs of issue 28 beyond LayerNorm: RmsNorm, DeepNorm,
// BatchNorm, WelfordUpdate and WelfordFinalize on arch 2201/2002, replayed element by element
// from a reading of the toolkit's kernel sources (rmsnorm_common_impl.h, rmsnorm_v220_impl.h,
// deepnorm_common_impl.h, deepnorm_v220_impl.h, batchnorm_common_impl.h,
// batchnorm_common_pre_impl.h, layernorm_common_impl.h and layernorm_common_basic_impl.h for
// WelfordUpdate, welfordfinalize_common_impl.h). No code shared with src/ or
// include/ascendc/adv; written without reading lngrad's implementation of these APIs.
//
// Instruction model (docs/ascendc_kernels.md §2, §3): one IEEE binary32 operation per element,
// Exp and Ln computed in double and rounded once, Sqrt and Div correctly rounded, half widened
// exactly and rounded to nearest even on store; RepeatReduceSum and WholeReduceSum are the
// 64-lane adjacent-pair tree with masked lanes +0 (TreeSum64).
#pragma once

#include <cstdint>

#include "replay.h"

namespace lngrad_replay {

// The RmsNormTiling fields the kernel reads (fill them from the kernel struct by name).
struct RmsPlan {
  uint32_t hLength, originalHLength;
  float reciprocalOfHLength;
  uint32_t mainBshLength, mainBsLength, mainBsLengthAlign, loopRound, inputTailPos, tailBshLength,
      tailBsLength;
};

// RmsNorm: y over every chunk's whole padded rows. scratch (nullable) is the sharedTmpBuffer as
// floats, laid out [mainBsLengthAlign row sums][mainBshLength work][mainBshLength float x
// (half only)]; its final contents are reproduced. originalHLength must be > 1 (with 1 the
// device runs no reduction and reads the row-sum slot as it was).
template <class T>
void ReplayRmsNorm(const RmsPlan& p, const T* x, const T* gamma, T epsilon, T* y, float* scratch,
                   bool isBasicBlock);

// RmsNorm on arch 3510 (rmsnorm_3510_impl.h): row by row, x² accumulated lane-wise from +0
// over the full 64-column chunks of originalHLength, then the tail chunk's lanes, one tree into
// scratch[row]; then per column ((x·r)·γ) with r = Exp(Ln(sum·(1/H) + ε)·(−0.5)), only the
// originalHLength columns written (half: rounded to nearest even, no saturation).
template <class T>
void ReplayRmsNorm3510(const RmsPlan& p, const T* x, const T* gamma, T epsilon, T* y,
                       float* scratch);

// The DeepNormTiling (= LayerNormTiling) fields the kernel reads; bshCurLength / bsCurLength
// are written back for a tail chunk, as the kernel does to the caller's tiling.
struct DnPlan {
  uint32_t hLength, originalHLength, meanVarSize, oneTmpSize, loopRound, inputRoundSize,
      inputTailSize, inputTailPos, meanVarRoundSize, meanVarTailSize, meanVarTailPos, bshCurLength,
      bsCurLength;
  float lastDimValueBack;
};

// DeepNorm: y, mean and variance (half: the float statistics cast over meanVarSize elements, so
// mean/var must hold meanVarSize; entries past B*S are cast from a zero-initialised staging
// buffer here, which the device leaves as the scratch held them). float + isReuseSrc: x is the
// kernel's first work buffer (its base, whatever the chunk), so x[0, inputRoundSize) ends with
// the last chunks' (x1 - mean)·rstd·gamma values. originalHLength must be > 1.
template <class T>
void ReplayDeepNorm(DnPlan& p, T* x, const T* gx, const T* beta, const T* gamma, T alpha, T epsilon,
                    T* y, T* mean, T* var, bool isReuseSrc, bool isBasicBlock);

// DeepNorm on arch 3510 (deepnorm_3510_impl.h): each of `rows` rows over hLength columns
// (padding included), lane sums from +0 of (gx + x·α)/H (Axpy as a rounded product and a
// rounded sum, Div by H), one tree; lane sums of ((x1 − mean)²)/H, one tree; y = ((x1 − mean) /
// sqrt(var + ε))·γ + β. Lanes past a tail chunk add +0. Half stores round to nearest even.
// Neither x nor the tiling is written.
template <class T>
void ReplayDeepNorm3510(const DnPlan& p, uint32_t rows, const T* x, const T* gx, const T* beta,
                        const T* gamma, T alpha, T epsilon, T* y, T* mean, T* var);

// The BatchNormTiling fields the kernel reads; bshCurLength, shCurLength and
// shCurLengthBlockNum are written back for a tail chunk.
struct BnPlan {
  uint32_t originalBLength, meanVarSize, loopRound, inputTailSize, inputTailPos, meanVarTailSize,
      meanVarTailPos, bshCurLength, shCurLength, shCurLengthBlockNum;
  float firstDimValueBack;
};

// BatchNorm: x [B, meanVarSize]; statistics per column over the B rows, gamma/beta per row.
// The basic-block forms (strided repeats) perform the same element operations, except the
// broadcast of gamma and beta (BrcFirstDim; session 18, v2a, from batchnorm_v220_impl.h and
// batchnorm_v200_impl.h): per chunk row, 2201's Brcb writes columns [0, 8) with the value and
// 2002's TransDataTo5HD (all 16 sources the value list, destinations two blocks per row)
// columns [0, 16); Adds(+0) copies that first block into the rest of the row's 64 columns and
// the first 64 columns into the others, so a -0 gamma or beta is +0 past those columns. The
// generic path's Duplicate writes the value everywhere.
template <class T>
void ReplayBatchNorm(BnPlan& p, const T* x, const T* gamma, const T* beta, T epsilon, T* y, T* mean,
                     T* var, bool isBasicBlock = false, bool arch2002 = false);

// BatchNorm on arch 3510 (batchnorm_3510_impl.h): per column over all meanVarSize columns,
// mean = 0 + x_b·(1/B) row by row, variance = (0 + (x_b − mean)² …)·(1/B), y = ((rstd·(x −
// mean))·γ_b) + β_b with rstd = Exp(Ln(var + ε)·(−0.5)); float mean and variance also in
// scratch[0, F) and scratch[F, 2F). Half stores round to nearest even. The tiling is not
// written.
template <class T>
void ReplayBatchNorm3510(const BnPlan& p, const T* x, const T* gamma, const T* beta, T epsilon,
                         T* y, T* mean, T* var, float* scratch);

// WelfordUpdate (rnLength 1): outputs for i < abComputeLength; isInplace copies the last
// ceil8(abLength - abComputeLength) inputs first; float + isReuseSource leaves x - inMean in x.
template <class T>
void ReplayWelfordUpdate(uint32_t abLength, uint32_t abComputeLength, float nRec, bool isInplace,
                         bool isReuseSource, T* x, const float* inMean, const float* inVar,
                         float* outMean, float* outVar);

struct FinPara {
  uint32_t rnLength, abLength, headCount, headCountLength, tailCount, tailCountLength;
  float abRec, rRec;
};

// WelfordFinalize: chunks of 64·floor((tmpFloats − 128) / 128) terms (tmpFloats: the
// sharedTmpBuffer's size in floats), each folded and treed into a 64-slot list; outMean[0] and
// outVar[0] written, [1, 8) zeroed. counts nullable (the prototype without counts).
void ReplayWelfordFinalize(const FinPara& p, uint32_t tmpFloats, const float* inMean,
                           const float* inVar, const int32_t* counts, float* outMean,
                           float* outVar);

// WelfordFinalize on arch 3510 (replay_welford_3510.cpp, re-derived from the kit's
// welfordfinalize_3510_impl.h): the register code's terms and BinaryReduceSum; outMean[0] and
// outVar[0] written, nothing else. varRec: rRec, or rRecWithCorrection with config.isCorrection.
void ReplayWelfordFinalize3510(const FinPara& p, float varRec, const float* inMean,
                               const float* inVar, const int32_t* counts, float* outMean,
                               float* outVar);

// The GroupNormTiling fields the kernel reads (sizes in elements); bshCurLength / bsCurLength
// are set for a tail chunk and then restored to inputRoundSize / meanVarRoundSize, as the
// kernel does to the caller's tiling.
struct GnPlan {
  uint32_t n, c, hw, g, d, hwAlignSize, dhwAlignSize, numberOfTmpBuf, meanTmpTensorPos,
      varianceTmpTensorPos, firstTmpStartPos, secondTmpStartPos, thirdTmpStartPos, loopRound,
      inputRoundSize, inputTailSize, inputTailPos, meanVarRoundSize, meanVarTailSize,
      meanVarTailPos, bshCurLength, bsCurLength;
  float factor;
  bool smallShape;
};

// GroupNorm (groupnorm_common_impl.h): x and y hold `total` elements [N, C, hwAlignSize]; y is
// read too (a small-shape tail chunk leaves the caller's padding values in y and sums their
// squares, as the device does); the device's reads and writes past `total` (half casts of
// inputRoundSize elements from a tail chunk) read 0 and are dropped here. scratch: the
// sharedTmpBuffer image (scratchFloats floats). The level-2 ReduceSum of the general path is
// modelled as lngrad's basic instruction does (README). The general path scales a group's
// statistics through mask bit 1 << group: N·G must be <= 64 there (undefined beyond).
template <class T>
void ReplayGroupNorm(GnPlan& p, T* x, const T* gamma, const T* beta, T epsilon, T* y, T* mean,
                     T* var, uint32_t total, float* scratch, uint32_t scratchFloats,
                     bool isReuseSource);

// GroupNorm on arch 3510 (replay_groupnorm_3510.cpp, re-derived from the kit's
// groupnorm_3510_impl.h): every group at once; y written over all of x's [N, C, hwAlignSize]
// (padding included), x not written, the tiling not changed.
template <class T>
void ReplayGroupNorm3510(const GnPlan& p, const T* x, const T* gamma, const T* beta, T epsilon,
                         T* y, T* mean, T* var);

}  // namespace lngrad_replay
