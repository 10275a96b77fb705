// lngrad_replay, Lgamma on arch 2201/2002: what its instruction sequence
// (impl/adv_api/detail/math/lgamma/lgamma_common_impl.h and lgamma_common_basic_impl.h, with
// lgamma_v220_impl.h on 2201 or lgamma_v200_impl.h on 2002, and the Sin sub-sequence of
// sin_common_impl.h with sin_v220_impl.h / sin_v200_impl.h) leaves in dst, in the source
// (float with isReuseSource) and in sharedTmpBuffer (or the stack buffer), written from those
// sources with no code shared with include/ or src/ (replay_math_scratch_lgamma.cpp says what
// was read).
//
// As replay_math_scratch.h: the scratch cut into the temp tensors the source places, the count
// in rounds of the chunk then a tail (counter mode: an instruction touches exactly the round's
// elements), every instruction applied over the round's elements in the source's order on the
// scratch's bytes; bytes no instruction stores to are left as they are. Compare ignores the
// counter (every lane of its repeatTimes repeats, as replay_math_scratch_rounding.h's Sign): the
// float path's Compares on the source read up to 63 elements past the count, so `src` must hold
// n + 64 elements. They return false where the kit's code asserts (a chunk of 0).
#pragma once

#include <cstdint>

#include "replay.h"

namespace lngrad_replay {

// Float (LgammaCompute<float>, LgammaComputeImpl(float), LGammaPositive, LGammaNegative and
// their helpers): splitSize = tmpBytes / 4 / (8, or 7 with isReuseSource) down to 32; float
// tensors tmp1..tmp6 at k * splitSize, then the zero scalar tensor (isReuseSource: the source
// at its base, which each round sets to 0 over the round's length), then four bit masks of
// splitSize bytes. arch2002: LGammaFloor through int32 (saturating, NaN -> 0).
bool ReplayLgammaScratch(bool arch2002, bool reuse, float* src, float* dst, uint32_t n,
                         uint8_t* scratch, uint32_t tmpBytes);

// Half (LgammaCompute<half>, LgammaComputeImpl(half), LgammaComputePosHalf,
// LgammaComputeNegHalf, Lgamma1Compute, SinCompute<float>): splitSize = tmpBytes / 4 / 13 down
// to 32; float tmp1..tmp5, the scalar tensor, four bit masks (one splitSize float block), then
// tmp6 of 6 * splitSize floats; the half Compares use repeatTimes of the full splitSize.
bool ReplayLgammaScratch(bool arch2002, const Half* src, Half* dst, uint32_t n, uint8_t* scratch,
                         uint32_t tmpBytes);

}  // namespace lngrad_replay
