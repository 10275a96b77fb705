// lngrad_replay: what SoftmaxGradFront<T, isBasicBlock = true> (ND) leaves in its work buffer and
// in dst on arch 2201 and 2002. A separate reading, by the helper who then made lngrad follow it
// (sm5, session 19), of the toolkit's impl/adv_api/detail/activation/softmax/:
// softmax_grad_base_impl.h (SoftmaxGradFrontImpl: the re-tile with isBasicBlock),
// membase/common/softmax_grad_nd_impl.h (SoftmaxGradFrontNDImpl's isBasicBlock branch for half and
// float: Cast, Mul, the chunk Adds, two BlockReduceSums, the 2201 Brcbs or the 2002
// AlignedBrcbImpl loop, the half Cast of reduceCeilValue whole repeats; the tail split's generic
// branch) and softmax_common/softmax_common_broadcast.h (AlignedBrcbImpl: eight scalars read,
// then eight Duplicates of brcbCount lanes). Written before comparing with lngrad; no code shared
// with src/ or include/. The tail split is sm3's replay (replay_softmax_grad_scratch.h).
#pragma once

#include <cstdint>
#include <vector>

#include "replay_softmax.h"

namespace lngrad_replay {

// Runs the kit's isBasicBlock sequence over the splits of kt (the tiling the kernel runs) with the
// work buffer's bytes `work` and dst (both: their contents before the call, updated in place;
// dst is dstLen elements, the output and what follows it). v200: arch 2002. False, nothing
// changed, where the sequence is outside what this replay covers: splitK not a whole number of
// 64-float chunks, a repeat count or stride the kit casts to uint8_t past 255, a write past the
// end of `work` or of dst's dstLen elements.
template <class T>
bool ReplaySoftmaxGradFrontBasicWork(const SmxTiling& kt, uint32_t oriK, const T* grad,
                                     const T* src, T* dst, uint64_t dstLen,
                                     std::vector<uint8_t>& work, bool v200);

}  // namespace lngrad_replay
