// lngrad_replay: what SoftmaxGrad and SoftmaxGradFront in the NZ data format (isDataFormatNZ)
// leave in their work buffer and dst on arch 2201 and 2002. A separate reading, by the helper who
// then made lngrad write the buffer (nz, session 21), of the toolkit's
// impl/adv_api/detail/activation/softmax/: softmax_grad_base_impl.h (the entry points, the NZ
// re-tile), softmax_common/softmax_tiling_func.h (SoftMaxGradTilingFunc with isDataFormatNZ),
// membase/common/softmax_grad_nz_impl.h (SoftmaxGradNZImpl, SoftMaxGradGenericNZImpl,
// SoftmaxGradFrontNZImpl, SoftMaxGradFrontGenericNZImpl; included by membase/v220 and v200 alike),
// membase/common/softmax_common_nz_reduce.h (ReduceSumLastNZImpl, SingleUnAlignedReduceSumNZImpl,
// ReduceSumSingleBlockNZImpl), softmax_common/softmax_common_reduce.h (ReduceSumBlockNZImpl),
// softmax_common/softmax_common_broadcast.h (BroadCastNZImpl, ContinuousColumnBrcbImpl,
// AlignedColumnBrcbImpl) and softmax_common.h (CreateSpecialFormatMask,
// BinaryComputeWithSpecialMask); FLOAT2HALF_ROUND_MODE from membase/v220 and v200
// softmax_common_impl.h. Instruction semantics of docs/ascendc_compat.md (Counter mode fills
// repeats with the strides; BlockReduceSum leaves a block with no active lane alone; WholeReduceSum
// trees the masked lanes as +0). TransDataTo5HD on 32-bit data is not documented in text; the
// replay takes the 16 x 8 to 8 x 16 transpose (dst row i = element i of the 16 source blocks),
// which is what BroadCastNZImpl needs and all the kit's use here can tell apart (its 16 source
// blocks are equal). Written before comparing with lngrad; no code shared with src/ or include/.
#pragma once

#include <cstdint>
#include <vector>

#include "replay_softmax.h"

namespace lngrad_replay {

// Runs the kit's NZ instruction sequence over the splits of kt (the tiling the kernel runs: the
// caller's when made for the shape, else replay_softmax.h's SmxNzGradTiling of the work buffer):
// src, grad, dst are [srcK / 16, kt.srcM, 16] fractals (dst of isFront: [rows, 32 B]); `work` (the
// buffer's bytes before the call) and dst (its contents before the call) are updated in place.
// v200: arch 2002 (half results to nearest even); else 2201 (ties away). False, nothing changed,
// where an instruction would reach past the end of `work`.
template <class T>
bool ReplaySoftmaxGradNzWork(const SmxTiling& kt, uint32_t oriK, const T* grad, const T* src,
                             T* dst, std::vector<uint8_t>& work, bool isFront, bool v200);

}  // namespace lngrad_replay
