// lngrad_replay, the scratch of the rounding APIs, Sign and ClampMin / ClampMax on arch
// 2201/2002: what their instruction sequences (asc-devkit commit 82b89a15f,
// impl/adv_api/detail/math/{ceil,floor,trunc,round,frac,sign,clamp}/) leave in sharedTmpBuffer
// (or the stack buffer) and in dst, written from those sources (replay_math_scratch_rounding.cpp
// says which), with no code shared with include/ or src/.
//
// Each function runs the source's loop over the scratch's bytes (`scratch`, tmpBytes long; the
// bytes no instruction stores to are left as they are) and writes dst. They return false where
// the kit's code asserts (CheckTmpBufferSize: a chunk of 0).
#pragma once

#include <cstdint>

#include "replay.h"

namespace lngrad_replay {

enum class RoundingOp { kCeil, kFloor, kTrunc, kRound, kFrac };

// Ceil, Floor, Trunc, Round, Frac (<op>_common_impl.h with <op>_v220_impl.h on 2201 or
// <op>_v200_impl.h on 2002 when `arch2002`). 2201 rounds float to an integral float (Cast
// float -> float in the mode); 2002 through int32 (Cast float -> int32 in the mode, saturating,
// a NaN giving 0, then int32 -> float CAST_NONE), in the scratch where the source puts it.
bool ReplayRoundingScratch(RoundingOp op, bool arch2002, const float* src, float* dst, uint32_t n,
                           uint8_t* scratch, uint32_t tmpBytes);
bool ReplayRoundingScratch(RoundingOp op, bool arch2002, const Half* src, Half* dst, uint32_t n,
                           uint8_t* scratch, uint32_t tmpBytes);

// Sign on 2201/2002 (sign_common_impl.h, SignCompute / SignComputeImpl): splitCount = tmpBytes
// / sizeof(T) / 3 down to 32; the scratch holds the LT and GT bit masks (tmpLen = splitCount / 8
// up to 32 bytes each), then T tensors tmpBuffer3 (the Duplicate'd 1, then -1) and tmpBuffer4
// (the first Select). Compare ignores the mask on these arches (every lane of its repeatTimes
// repeats, as 2002's normal-mode full mask): the lanes past a round's elements compare the
// source there with dst there as memory holds them, so src and dst must hold n + 256 /
// sizeof(T) - 1 elements (dst past n: its content before the call). arch2002 switches the
// mask mode around the Compares, which then does not change what they write.
bool ReplaySignScratch(const float* src, float* dst, uint32_t n, uint8_t* scratch,
                       uint32_t tmpBytes);
bool ReplaySignScratch(const Half* src, Half* dst, uint32_t n, uint8_t* scratch, uint32_t tmpBytes);

// ClampMin (clampMax false: dst = Maxs(src, scalar)) and ClampMax (true: Mins) on 2201/2002
// (clamp_common_impl.h, ClampCompute): one instruction over the count, the scratch untouched
// (Maxs / Mins as replay_math_ops.h chooses them: a NaN element gives the scalar; half compared
// widened, the chosen element's bits kept).
void ReplayClampScratch(bool clampMax, const float* src, float* dst, float scalar, uint32_t n);
void ReplayClampScratch(bool clampMax, const Half* src, Half* dst, Half scalar, uint32_t n);

}  // namespace lngrad_replay
