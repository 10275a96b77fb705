// lngrad_replay, Power<float> on arch 2201/2002: what its instruction sequence
// (impl/adv_api/detail/math/power/power_common_impl.h's float PowerImpl overloads,
// power_float_impl.h's CommonPowerF, power_common_utils.h's VselPowerTensorScalar, with
// power_v220_impl.h on 2201 or power_v200_impl.h on 2002) leaves in dst and in sharedTmpBuffer
// (or the stack buffer), written from those sources with no code shared with include/ or src/
// (replay_math_scratch_power.cpp says what was read).
//
// Each round (the chunk splitSize, then the tail) runs every vector instruction over the
// round's elements on the scratch's bytes (counter mode); CompareScalar ignores the counter and
// compares every lane of its DivCeil(len * 4, 256) repeats, reading up to 63 lanes past the
// round (the next temp tensor, or the user's source: `x` / `y` must hold n + 64 elements where
// they are tensors); And / Or run DivCeil(len, 16) 16-bit words. Bytes no instruction stores to
// keep what they held. Returns false where the kit's code asserts (a chunk of 0).
#pragma once

#include <cstdint>

#include "replay.h"

namespace lngrad_replay {

// form: 0 tensor^tensor (x, y tensors), 1 tensor^scalar (y[0] the scalar), 2 scalar^tensor
// (x[0] the scalar).
bool ReplayPowerFloatScratch(bool arch2002, int form, const float* x, const float* y, float* dst,
                             uint32_t n, uint8_t* scratch, uint32_t tmpBytes);

// Power<half>: splitSize = (tmpBytes - 256) / 4 / (7, 2002: 8) down to 32; float stackSrc0,
// stackSrc1, stackDst of a chunk each after tmpScalar (the scalar forms Duplicate the widened
// scalar over a chunk of its stack tensor once; the tensors are widened each round over the
// round's elements), then CommonPowerF's tensors and masks; the result narrowed CAST_NONE.
bool ReplayPowerHalfScratch(bool arch2002, int form, const Half* x, const Half* y, Half* dst,
                            uint32_t n, uint8_t* scratch, uint32_t tmpBytes);

}  // namespace lngrad_replay
