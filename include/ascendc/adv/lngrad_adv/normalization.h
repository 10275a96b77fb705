// lngrad device mathematics (library lngrad_adv): the algorithms of the Ascend C
// normalization APIs LayerNormGrad, LayerNormGradBeta and LayerNorm ([B,S,H] family) on raw
// pointers, operation by operation as the device executes them (spec §1, §3, §4;
// docs/ascendc_kernels.md). They read the kernel-side tiling structs of
// kernel_tiling/kernel_tiling.h directly; the Ascend C layer (include/ascendc/lib/
// normalization/*.h) adapts LocalTensor views of the simulated UB to these calls.
//
// Each API is two steps: <Api>FootprintFor checks that the tiling can run and returns what it
// touches of every operand; <Api>(..., footprint, operands, ...) checks the operands'
// capacities against that footprint and computes. The overload without a footprint does both.
//
// Faithfulness contract:
//  - every element-wise step is one IEEE binary32 operation per element, in the device's order
//    and association (compiled with -ffp-contract=off); Sqrt and 1/x are IEEE correctly rounded
//    (the device's <= 1 ulp / flush-to-zero behaviour is not modelled, spec §9 [open]);
//  - reductions follow the device's tree exactly (the same for the SIMD and the scalar path);
//  - memory effects are the device's: scratch, the outputPdX chunk used as scratch, inputs
//    clobbered by isReuseSource, partial sums written to the per-row buffers, all receive what
//    the device writes there. Operands may alias exactly as on the device; partially
//    overlapping element-wise operands (outside the device contract) run element by element.
//  - before anything is written, every access is checked against the operand capacities; an
//    access outside them returns OutOfRange and nothing is written.
// NaN payloads are not promised (the compiler may commute operands of + and *).
#pragma once

#include <cstdint>

#include "kernel_tiling/kernel_tiling.h"
#include "lngrad/half.h"
#include "lngrad/status.h"
#include "lngrad_aicore/instructions.h"

namespace lngrad::adv {

using AscendC::tiling::LayerNormGradBetaTiling;
using AscendC::tiling::LayerNormGradTiling;
using AscendC::tiling::LayerNormTiling;

// Implementation (Highway SIMD, scalar reference, SIMD step by step) and its resolution from
// LNGRAD_IMPL / LNGRAD_ADV_FUSE: the instruction set's (lngrad_aicore/instructions.h). kSimd
// also runs LayerNormGrad's vector path row by row through all steps where that provably leaves
// the same memory (layernormgrad.cpp).
using aicore::Impl;
using aicore::ResolveImpl;
using aicore::SimdTargetName;

// Which device implementation runs (spec §1.1: arch 2002/2201 -> kVector, 3510 -> kRegBase).
enum class Algorithm { kVector, kRegBase };

// A pointer plus the number of elements addressable from it (the capacity bounds every access).
template <typename T>
struct Buffer {
  T* data = nullptr;
  uint64_t capacity = 0;
};

// ---------------------------------------------------------------------------------------------
// LayerNormGrad (spec §1) on AscendC::tiling::LayerNormGradTiling (§2.1).

template <typename T>
struct LayerNormGradOperands {
  Buffer<T> outputPdX;
  Buffer<T> resForGamma;
  Buffer<T> inputDy;  // written for float + isReuseSource (spec §1.9, §1.13)
  Buffer<T> inputX;   // idem
  Buffer<const T> inputVariance;
  Buffer<const T> inputMean;
  Buffer<const T> inputGamma;
  Buffer<float> scratch;  // sharedTmpBuffer viewed as float (capacity in floats)
};

// Elements of each operand (counted from its data pointer) that a call touches, read or write.
struct LayerNormGradFootprint {
  uint64_t outputPdX = 0, resForGamma = 0, inputDy = 0, inputX = 0;
  uint64_t inputVariance = 0, inputMean = 0, inputGamma = 0;
  uint64_t scratch = 0;  // floats; the end of the scratch layout (spec §2.8)
};

// Footprint of LayerNormGrad for this tiling. InvalidArgument when the tiling cannot run:
// hLength == 0, hLength not 32-byte aligned for T (8 floats / 16 halves; the device's
// broadcast then scrambles rows and is not modelled), or sizes overflowing 64 bits.
Status LayerNormGradFootprintFor(Algorithm algorithm, const LayerNormGradTiling& tiling,
                                 bool isHalf, bool isReuseSource, LayerNormGradFootprint* out);

// LayerNormGrad on the device's data path. T = float: epsilon is the float the kernel gets.
// T = Half: epsilon is the half the kernel gets (widened exactly to float, §1.10);
// isReuseSource is ignored for Half (as on the device).
// kVector reads the chunking and scratch layout from the tiling (§1.5-§1.10); kRegBase reads
// only bLength, sLength, hLength and the two constants (§1.13). originalHLength is not read
// (the caller decides what to do when it differs from hLength, §1.11).
// Outputs: outputPdX, resForGamma; overwritten: scratch (kVector layout, or two rows of
// ceil8(H) floats for kRegBase), inputDy/inputX for float + isReuseSource.
// `footprint` is LayerNormGradFootprintFor's for the same algorithm, tiling, T and
// isReuseSource; an operand shorter than it (or null where it is accessed) gives OutOfRange
// (InvalidArgument) and nothing is written.
Status LayerNormGrad(Algorithm algorithm, const LayerNormGradTiling& tiling,
                     const LayerNormGradFootprint& footprint,
                     const LayerNormGradOperands<float>& operands, float epsilon,
                     bool isReuseSource, Impl impl = Impl::kAuto);
Status LayerNormGrad(Algorithm algorithm, const LayerNormGradTiling& tiling,
                     const LayerNormGradFootprint& footprint,
                     const LayerNormGradOperands<Half>& operands, Half epsilon, bool isReuseSource,
                     Impl impl = Impl::kAuto);
// LayerNormGradFootprintFor, then the above.
Status LayerNormGrad(Algorithm algorithm, const LayerNormGradTiling& tiling,
                     const LayerNormGradOperands<float>& operands, float epsilon,
                     bool isReuseSource, Impl impl = Impl::kAuto);
Status LayerNormGrad(Algorithm algorithm, const LayerNormGradTiling& tiling,
                     const LayerNormGradOperands<Half>& operands, Half epsilon, bool isReuseSource,
                     Impl impl = Impl::kAuto);

// ---------------------------------------------------------------------------------------------
// LayerNormGradBeta (spec §3) on AscendC::tiling::LayerNormGradBetaTiling (§3.4; stackBufferSize
// in floats there).

template <typename T>
struct LayerNormGradBetaOperands {
  Buffer<T> outputPdGamma;
  Buffer<T> outputPdBeta;
  // float + isReuseSource (§3.3): every chunk's dy*resForGamma is written to resForGamma's
  // first bshCurLength elements (the device's product buffer is resForGamma's base).
  Buffer<T> resForGamma;
  Buffer<const T> inputDy;
  Buffer<float> scratch;
};

struct LayerNormGradBetaFootprint {
  uint64_t outputPdGamma = 0, outputPdBeta = 0, resForGamma = 0, inputDy = 0, scratch = 0;
};

// InvalidArgument for a tiling that cannot run (kVector: originalHLength == 0;
// kRegBase: hLength not 32-byte aligned for T).
Status LayerNormGradBetaFootprintFor(Algorithm algorithm, const LayerNormGradBetaTiling& tiling,
                                     bool isHalf, bool isReuseSource,
                                     LayerNormGradBetaFootprint* out);

// kVector (§3.3): chunked, row-sequential accumulation acc = row_r + acc over the first
// originalHLength columns with row stride originalHLength; the first chunk starts with
// acc = row_0 + 0. Half: float accumulators in scratch, cast (RNE) to the outputs after every
// chunk. kRegBase (§3.3 last bullets): per 64-column chunk, g = g + dy*res, b = b + dy from 0
// over bLength*sLength rows of stride hLength; half stores RNE with saturation: beyond the
// half range and +-inf to +-65504, NaN to +0 (the Cast documentation's saturation mode).
// `footprint` is LayerNormGradBetaFootprintFor's for the same arguments (as for LayerNormGrad).
Status LayerNormGradBeta(Algorithm algorithm, const LayerNormGradBetaTiling& tiling,
                         const LayerNormGradBetaFootprint& footprint,
                         const LayerNormGradBetaOperands<float>& operands, bool isReuseSource,
                         Impl impl = Impl::kAuto);
Status LayerNormGradBeta(Algorithm algorithm, const LayerNormGradBetaTiling& tiling,
                         const LayerNormGradBetaFootprint& footprint,
                         const LayerNormGradBetaOperands<Half>& operands, bool isReuseSource,
                         Impl impl = Impl::kAuto);
// LayerNormGradBetaFootprintFor, then the above.
Status LayerNormGradBeta(Algorithm algorithm, const LayerNormGradBetaTiling& tiling,
                         const LayerNormGradBetaOperands<float>& operands, bool isReuseSource,
                         Impl impl = Impl::kAuto);
Status LayerNormGradBeta(Algorithm algorithm, const LayerNormGradBetaTiling& tiling,
                         const LayerNormGradBetaOperands<Half>& operands, bool isReuseSource,
                         Impl impl = Impl::kAuto);

// ---------------------------------------------------------------------------------------------
// LayerNorm forward, [B,S,H] family with mean and variance outputs (spec §4), on
// AscendC::tiling::LayerNormTiling.

template <typename T>
struct LayerNormOperands {
  Buffer<T> output;
  Buffer<T> outputMean;
  Buffer<T> outputVariance;
  Buffer<T> inputX;  // kVector float + isReuseSource: its first chunk is used as scratch
  Buffer<const T> gamma;
  Buffer<const T> beta;
  Buffer<float> scratch;
};

struct LayerNormFootprint {
  uint64_t output = 0, outputMean = 0, outputVariance = 0, inputX = 0, gamma = 0, beta = 0;
  uint64_t scratch = 0;
};

// InvalidArgument when hLength is 0 or not 32-byte aligned for T. The footprint depends on
// bshCurLength/bsCurLength, which a kVector call with a tail chunk changes: take it anew for
// every call.
Status LayerNormFootprintFor(Algorithm algorithm, const LayerNormTiling& tiling, bool isHalf,
                             bool isReuseSource, LayerNormFootprint* out);

// kVector (arch 2002/2201, docs/ascendc_kernels.md): per chunk mean = tree(fold(x*(1/H))),
// variance = tree(fold(((x-mean)^2)*(1/H))), y = (1/sqrt(var+eps))*(x-mean), out = y*gamma+beta;
// when there is a tail chunk the tiling's bshCurLength/bsCurLength are left holding the tail
// lengths (the device writes them into the caller's tiling). kRegBase (3510): one row at a
// time, mean = tree(lane sums of x/H), variance = tree(lane sums of ((x-mean)^2)/H),
// out = ((x-mean)/sqrt(var+eps))*gamma+beta; no scratch.
// `footprint` is LayerNormFootprintFor's for the same arguments (as for LayerNormGrad).
Status LayerNorm(Algorithm algorithm, LayerNormTiling& tiling, const LayerNormFootprint& footprint,
                 const LayerNormOperands<float>& operands, float epsilon, bool isReuseSource,
                 Impl impl = Impl::kAuto);
Status LayerNorm(Algorithm algorithm, LayerNormTiling& tiling, const LayerNormFootprint& footprint,
                 const LayerNormOperands<Half>& operands, Half epsilon, bool isReuseSource,
                 Impl impl = Impl::kAuto);
// LayerNormFootprintFor, then the above.
Status LayerNorm(Algorithm algorithm, LayerNormTiling& tiling,
                 const LayerNormOperands<float>& operands, float epsilon, bool isReuseSource,
                 Impl impl = Impl::kAuto);
Status LayerNorm(Algorithm algorithm, LayerNormTiling& tiling,
                 const LayerNormOperands<Half>& operands, Half epsilon, bool isReuseSource,
                 Impl impl = Impl::kAuto);

// ---------------------------------------------------------------------------------------------
// The [A, R] family (spec §10): Normalize (mean and variance in, y and rstd out) and LayerNorm
// with mean and rstd outputs on AscendC::tiling::LayerNormSeparateTiling. T is the type of x and
// y (float or Half), U the type of gamma and beta (float, or Half when T is Half); mean,
// variance and rstd are float. Rows are rLengthWithPadding elements apart; rLength of each row
// are real.

using AscendC::tiling::LayerNormSeparateTiling;

struct ArShape {
  uint32_t aLength = 0;
  uint32_t rLength = 0;
  uint32_t rLengthWithPadding = 0;
  bool isNoGamma = false;  // the config's flags: y is not multiplied by gamma / beta not added
  bool isNoBeta = false;
  bool isOutputRstd = true;  // LayerNorm's config (3510 only): false outputs the variance
};

template <typename T, typename U>
struct NormalizeOperands {
  Buffer<T> output;
  Buffer<float> outputRstd;
  Buffer<const float> inputMean;
  Buffer<const float> inputVariance;
  Buffer<const T> inputX;
  Buffer<const U> gamma;
  Buffer<const U> beta;
  Buffer<float> scratch;  // capacity: the floats addressable from the buffer's start
  // sharedTmpBuffer.GetSize() / 4: kVector sizes its row groups from it (spec §10.3).
  uint64_t scratchSize = 0;
};

struct NormalizeFootprint {
  uint64_t output = 0, outputRstd = 0, inputMean = 0, inputVariance = 0, inputX = 0, gamma = 0,
           beta = 0, scratch = 0;
  uint32_t groupRows = 0;  // kVector: rows per group (N); kRegBase: 0
};

// InvalidArgument when the shape cannot run: aLength or rLength 0; kVector: a scratch that
// holds fewer than aLength floats or no group of one row (the device divides by N = 0).
Status NormalizeFootprintFor(Algorithm algorithm, const ArShape& shape, bool isHalfX,
                             bool isHalfGamma, uint64_t scratchSize, NormalizeFootprint* out);

// kVector (2201/2002, spec §10.3): rstd = 1 / sqrt(var + eps) (Adds, Sqrt, Div of a row of
// ones), then per group of N rows: t = x + 0 (or cast), t -= bcast(mean), t *= bcast(rstd) over
// the padded rows (the broadcasts fill rLength columns; the padded columns of the broadcast
// buffer keep what the scratch held), t = t * gamma + beta over rLength columns, y = t + 0 (or
// cast RNE) over the padded rows. kRegBase (3510, §10.5): rstd by the register Rsqrt with two
// refinement steps (fused multiply-adds), y = fma(gamma, (x - mean) * rstd, beta) over rLength
// columns; the padded columns of y are not written. `footprint` is NormalizeFootprintFor's.
// Also T BFloat16 with U BFloat16 or float, kRegBase only (the 950's bfloat16 forms; kVector
// returns InvalidArgument).
template <typename T, typename U>
Status Normalize(Algorithm algorithm, const ArShape& shape, const NormalizeFootprint& footprint,
                 const NormalizeOperands<T, U>& operands, float epsilon, Impl impl = Impl::kAuto);

template <typename T, typename U>
struct LayerNormRstdOperands {
  Buffer<T> output;
  Buffer<float> outputMean;
  Buffer<float> outputRstd;  // the variance when !isOutputRstd (3510)
  Buffer<T> inputX;          // kVector with rLength < rLengthWithPadding: padding set to x * 0
  Buffer<const U> gamma;
  Buffer<const U> beta;
  Buffer<float> scratch;
  uint64_t scratchSize = 0;  // sharedTmpBuffer.GetSize() / 4
};

struct LayerNormRstdFootprint {
  uint64_t output = 0, outputMean = 0, outputRstd = 0, inputX = 0, gamma = 0, beta = 0, scratch = 0;
};

// InvalidArgument for a shape or tiling that cannot run (aLength/rLength 0, rLengthWithPadding
// not 32-byte aligned for T, a chunk of no rows, Normalize's group of no rows; kRegBase with
// R > 128: an rHeadLength that is not the power of two with rHeadLength <= R < 2*rHeadLength).
// kVector:
// the footprint depends on tiling.arCurLength / aCurLength, which a call with a tail chunk
// changes: take it anew for every call.
Status LayerNormRstdFootprintFor(Algorithm algorithm, const LayerNormSeparateTiling& tiling,
                                 const ArShape& shape, bool isHalfX, bool isHalfGamma,
                                 uint64_t scratchSize, LayerNormRstdFootprint* out);

// kVector (spec §10.2): per chunk of the tiling, mean = fold-tree(x * rValueBack) and
// variance = fold-tree(((x - mean)^2) * rValueBack) as LayerNorm's row reduction, the variance
// at scratch[varianceTmpTensorPos]; then Normalize on the scratch from firstTmpStartPos. With a
// tail chunk the tiling is left holding arCurLength/aCurLength of the tail (the device writes
// them). kRegBase (§10.4): per row the register mean/variance (one tree of 64 lanes, k2Rec and
// k2RRec; beyond 128 columns the rHeadLength folding with fused Axpy steps), then Normalize's
// register path with R = tiling.rLength.
template <typename T, typename U>
Status LayerNormRstd(Algorithm algorithm, LayerNormSeparateTiling& tiling, const ArShape& shape,
                     const LayerNormRstdFootprint& footprint,
                     const LayerNormRstdOperands<T, U>& operands, float epsilon,
                     Impl impl = Impl::kAuto);

// ---------------------------------------------------------------------------------------------
// Building blocks, exposed for the tests and the replay: the instruction set's reduction trees
// (lngrad_aicore/instructions.h; the SIMD and scalar versions give the same bits).
using aicore::ReduceRepeat64;
using aicore::ReduceSumRows;

}  // namespace lngrad::adv
