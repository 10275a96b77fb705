// lngrad_replay, the scratch of Axpy (half sources), Sum and Mean on arch 2201/2002: what their
// instruction sequences (impl/adv_api/detail/math/axpy/axpy_common_impl.h,
// reduce/sum/sum_common_impl.h, reduce/mean/mean_common_impl.h) leave in sharedTmpBuffer (or
// the stack buffer), written from those sources (replay_axpy_sum_scratch.cpp says how), with
// no code shared with include/ or src/.
//
// Each function runs the source's loops, every vector instruction applied over its count
// (counter mode) in the source's order on the scratch's bytes (`scratch`, tmpBytes long; bytes
// no instruction stores to keep what they held), and writes dst. They return false where the
// kit's code would assert (a round of 0 elements) or a store would pass the scratch's end.
#pragma once

#include <cstdint>

#include "replay.h"

namespace lngrad_replay {

// Axpy<half, half>: stackSize = tmpBytes / 4 / 2 down to a multiple of 32; float temps tmpSrc at
// 0 and tmpDst at stackSize; per round (stackSize elements, then the tail) Cast src, Cast dst,
// Muls by float(scalar), Add (tmpSrc + tmpDst), Cast back to dst (nearest even).
bool ReplayAxpyHalfScratch(const Half* src, Half* dst, Half scalar, uint32_t n, uint8_t* scratch,
                           uint32_t tmpBytes);
// Axpy<float, half>: stackSize = tmpBytes / 4 down to a multiple of 32; per round Cast src into
// the scratch's start, Muls, then dst = scratch + dst.
bool ReplayAxpyMixScratch(const Half* src, float* dst, Half scalar, uint32_t n, uint8_t* scratch,
                          uint32_t tmpBytes);

// Sum<T> (T = float, or Half with isHalf; src and dst point at T elements): rows of `inner`,
// the first n of each summed. One repeat (n within 256 bytes): RepeatReduceSum straight into
// dst, no scratch. Otherwise per row: RepeatReduceSum of the row into the scratch's start, then
// of the scratch in place level by level, the last level into dst[row].
bool ReplaySumScratch(bool isHalf, const void* src, void* dst, uint32_t outter, uint32_t inner,
                      uint32_t n, uint8_t* scratch, uint32_t tmpBytes);
// Mean<T, T>: MeanCommon (Sum's levels, then one Muls of dst's outter values by
// T(1.0f / n)); MeanForOneRepeatTime when n fits one repeat (no scratch).
bool ReplayMeanScratch(bool isHalf, const void* src, void* dst, uint32_t outter, uint32_t inner,
                       uint32_t n, uint8_t* scratch, uint32_t tmpBytes);
// Mean<half, float>: MeanCast. Per row: Cast the row to float at the scratch's start (n
// floats), RepeatReduceSum into the floats from `inner` on and in place there until one
// remains, Muls it by 1.0f / n, Cast that to half at the scratch's first two bytes (nearest
// even, no saturation), RepeatReduceSum<half> of that one lane into dst[row].
bool ReplayMeanCastScratch(const Half* src, Half* dst, uint32_t outter, uint32_t inner, uint32_t n,
                           uint8_t* scratch, uint32_t tmpBytes);

// WelfordUpdate<T, float, isReuseSource, {isInplace}> (layernorm_common_impl.h): with isInplace
// and n < abLength, the last AlignUp(abLength - n, 8) means and variances copied in to out first;
// then rounds of 64 tmpNum elements (tmpNum = tmpBytes / (256 K), K = 3 for half, 1 for float
// with isReuseSource, else 2) and the tail over n = abComputeLength, in counter mode:
//  half: float temps srcVreg at 0, tmpVreg at 64 tmpNum, outVreg at 128 tmpNum: Cast x; tmp = x -
//    inMean; out = tmp * nRec; outMean = out + inMean; out = x - outMean; tmp = tmp * out;
//    outVar = tmp + inVar.
//  float: tmpVreg at 0, outVreg at 64 tmpNum, the same steps on x.
//  float + isReuseSource: tmpVreg at 0 only: tmp = x - inMean; tmp = tmp * nRec; outMean = tmp +
//    inMean; tmp = x - outMean; x = x - inMean (over inputX); tmp = tmp * x; outVar = tmp + inVar.
// x: T elements (Half when isHalf).
bool ReplayWelfordUpdateScratch(bool isHalf, bool isReuseSource, bool isInplace, void* x,
                                const float* inMean, const float* inVar, float* outMean,
                                float* outVar, uint32_t abLength, uint32_t n, float nRec,
                                uint8_t* scratch, uint32_t tmpBytes);

}  // namespace lngrad_replay
