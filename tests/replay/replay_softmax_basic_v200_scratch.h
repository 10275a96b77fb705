// lngrad_replay: what SoftMax with statistics and isBasicBlock leaves on arch 2002 (Ascend310P1)
// in its work buffer, dst and statistics. Read for it (session 21, s2b, the helper who then made
// lngrad follow it): membase/common/softmax_impl/softmax_basic_block_impl.h's three
// SoftMaxBasicBlock overloads with __NPU_ARCH__ == 2002 (the Cast of half data, BasicBlockMaxImpl
// / BasicBlockAddImpl or one BlockReduce, the in-place BlockReduce, the BlockReduce of
// ceil(splitM / 8) groups, the loop of AlignedBrcbImpl per group, the half statistics' Cast of
// ceil(reduceSize / 64) repeats, Sub / Div with the statistics' block stride 0, Exp over
// splitSize), membase/common/softmax_flashv2_impl/softmax_flashv2_basic_block_impl.h
// (AlignedBrcbImpl: 8 GetValue, then 8 Duplicates of brcbCount floats), softmax_common/
// softmax_common_arithmetic.h (BasicBlockMaxImpl, BasicBlockAddImpl), membase/v200/
// softmax_common_impl.h (FLOAT2HALF_ROUND_MODE CAST_NONE). No code shared with src/ or include/.
// Semantics taken: BlockReduceMax lanes the first NaN, else the first maximum; BlockReduceSum
// the adjacent-pair tree; a binary Max `a > b ? a : b` in the source's operand order; the Cast to
// half rounds to nearest even.
#pragma once

#include <cstdint>
#include <vector>

#include "replay_softmax.h"

namespace lngrad_replay {

// SoftMaxBasicBlock on 2002 over the tiling's rangeM full splits; T = float or Half, S = T or
// float with T = Half; work: the buffer's bytes (updated); dst: dstLen elements, sum / max:
// statLen elements (updated). False, nothing changed, where not covered: splitK not whole 64-float
// chunks, a uint8_t count past 255, a write past work, dstLen or statLen.
template <class T, class S>
bool ReplaySoftMaxBasicWorkV200(const SmxTiling& t, const T* src, T* dst, uint64_t dstLen, S* sum,
                                S* max, uint64_t statLen, std::vector<uint8_t>& work);

}  // namespace lngrad_replay
