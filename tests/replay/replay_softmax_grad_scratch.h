// lngrad_replay: what SoftmaxGrad and SoftmaxGradFront (ND, not isBasicBlock) leave in their work
// buffer on arch 2201 and 2002. A separate reading, by the helper who then made lngrad write the
// buffer (sm3, session 19), of the toolkit's impl/adv_api/detail/activation/softmax/:
// softmax_grad_base_impl.h (the entry points, the re-tile), membase/common/softmax_grad_nd_impl.h
// (SoftmaxGradNDGenericImpl, SoftmaxGradNDImpl, SoftmaxGradFrontNDImpl, SoftmaxGradPostProcess),
// membase/v220/softmax_common_impl/softmax_common_nd_reduce.h (ReduceSumLastNDImpl,
// AlignedReduceSumNDImpl, ReduceSumLastNDSplitImpl) and softmax_common_broadcast.h
// (SingleBlockBroadCastImpl, BroadCastLastImpl's device branch); for 2002 membase/v200/
// softmax_grad_impl.h and softmax_common_impl.h (ReduceSumLastNDImpl: chunk by chunk of whole
// WholeReduceSum trees; the scalar BroadCastLastImpl), with the instruction semantics of
// docs/ascendc_compat.md (BlockReduceSum leaves a block with no active lane alone on A2/A3;
// Copy's Counter mode counts the elements of each repeat). Written before comparing with lngrad;
// no code shared with src/ or include/.
#pragma once

#include <cstdint>
#include <vector>

#include "replay_softmax.h"

namespace lngrad_replay {

// Runs the kit's instruction sequence over the splits of kt (the tiling the kernel runs: the
// caller's when made for the shape, else SmxGradTiling of the work buffer) with the work buffer's
// bytes `work` (its contents before the call, updated in place) and dst (its contents before the
// call, updated: the results the sequence stores). frontApi: SoftmaxGradFront (its Mul's operand
// order). v200: arch 2002 (membase/v200/softmax_common_impl.h's ReduceSumLastNDImpl and
// BroadCastLastImpl, half results to nearest even); else 2201. False, nothing changed, where a
// split's buffers would pass the end of `work`.
template <class T>
bool ReplaySoftmaxGradWork(const SmxTiling& kt, uint32_t oriK, const T* grad, const T* src, T* dst,
                           std::vector<uint8_t>& work, bool isFront, bool frontApi, bool v200);

}  // namespace lngrad_replay
