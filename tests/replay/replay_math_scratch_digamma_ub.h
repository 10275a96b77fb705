// lngrad_replay, Digamma on arch 2201/2002 run instruction by instruction over an image of the
// unified buffer (replay_math_scratch_digamma_ub.cpp says what was read), so that what its
// Compares read past a round (whole 64-lane repeats: the next tensor's lanes, the mask bytes
// being written, the source's elements past the round, whatever lies there in the UB) lands in
// the scratch as on the device. No code shared with include/ or src/.
#pragma once

#include <cstdint>

namespace lngrad_replay {

// The layout of one call in the UB image: byte offsets of srcTensor, dstTensor and
// sharedTmpBuffer (tmpBytes long), the count, the arch (2002: the casts through int32).
struct DigammaUbCall {
  uint32_t src = 0, dst = 0, tmp = 0, tmpBytes = 0, count = 0;
  bool arch2002 = false;
};

// Runs the kit's DigammaCompute<float, reuse> / DigammaCompute<half> over `ub` (ubBytes, changed
// in place: dst, the scratch and, with reuse, the source's base as the device leaves them). A
// lane read past the UB's end reads NaN. False where the kit would assert (a split of 0).
bool ReplayDigammaUbFloat(uint8_t* ub, uint32_t ubBytes, const DigammaUbCall& call, bool reuse);
bool ReplayDigammaUbHalf(uint8_t* ub, uint32_t ubBytes, const DigammaUbCall& call);

}  // namespace lngrad_replay
