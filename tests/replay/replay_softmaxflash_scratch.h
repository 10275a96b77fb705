// lngrad_replay: SoftmaxFlash (the deprecated first flash API) with isUpdate on arch 2201 and
// 2002, the generic split loop (not isBasicBlock): its results and what it leaves in the work
// buffer. A separate reading, by the helper who then made lngrad follow it (sfl, session 20), of
// the toolkit's impl/adv_api/detail/activation/softmax/: softmax_flash_base_impl.h and
// softmax_common/softmax_common_flash.h (the entry points: SoftmaxFlashPostProcess for T = T,
// SoftmaxFlashNDImpl<isBasicBlock> for half data with float statistics, the re-tile),
// softmax_flash_base_impl/softmax_flash_nd_process_impl.h (the three SoftmaxFlashNDImpl: half
// data and statistics PopStackBuffer their own work buffer whatever the caller passes, and run
// their tail split with the full split's reduce and broadcast parameters; float runs its tail
// with tailM's), membase/v220/softmax_common_impl/softmax_common_nd_reduce.h
// (ReduceMaxLastNDImpl, AlignedReduceMaxNDImpl, ReduceMaxLastNDSplitImpl, ReduceSumLastNDImpl and
// their Sum twins) and softmax_common_broadcast.h (SingleBlockBroadCastImpl, BroadCastLastImpl's
// device branch); for 2002 membase/v200/softmax_common_impl.h (ReduceMaxLastNDImpl and
// ReduceSumLastNDImpl: one WholeReduce per 64-column chunk into tmp, copied or combined over
// dstM * dstK lanes; WholeReduceMax's default ORDER_VALUE_INDEX pairs; the scalar
// BroadCastLastImpl: lane 0 of each row) and FLOAT2HALF_ROUND_MODE (CAST_ROUND on 2201,
// CAST_NONE on 2002). Instruction semantics from docs/ascendc_compat.md: Max is `a > b ? a : b`
// (a NaN in either operand or two zeros give src1), WholeReduceMax/BlockReduceMax take the first
// NaN lane, else the first largest (+0 and -0 tie), the index as the bits of a float;
// BlockReduce leaves a block with no active lane alone. Written before comparing with lngrad; no
// code shared with src/ or include/.
// Session 21 (sfb): isBasicBlock on 2201, from softmax_flash_base_impl/
// softmax_flash_basic_block_impl.h (SoftmaxFlashBasicBlock<T> for half statistics,
// SoftmaxFlashBasicBlockFloat, SoftmaxFlashBasicBlock for half data with float statistics; their
// uint8_t repeat counts and strides kept as the kit casts them) and softmax_flash_nd_process_impl.h
// (half data then runs the generic tail split; float data has no tail), with the instruction
// semantics of docs/ascendc_compat.md (Brcb's block and repeat strides, BlockReduce's eight
// results a repeat at dstRepStride 1, Copy's Counter mode: the count a repeat, repeatTime
// counting, repeats and elements in order).
#pragma once

#include <cstdint>
#include <vector>

#include "replay_softmax.h"

namespace lngrad_replay {

// The operands (T data, S statistics: float/float, Half/Half, Half/float); expMax is [rows,
// 32 B] of T. Aliasing operands may share memory: every instruction reads and writes them in
// the kit's order.
template <class T, class S>
struct SflIo {
  const T* src;
  T* dst;
  S* sum;
  S* max;
  T* expMax;
  const S* inSum;
  const S* inMax;
};

// Runs the kit's update sequence over the splits of kt (the tiling the kernel runs) with the
// work buffer's bytes `work` (its contents before the call, updated in place: for half data
// with half statistics the stack buffer the kernel pops, else the buffer it is given). oriK =
// SoftMaxShapeInfo::oriSrcK. v200: arch 2002. False, nothing changed, where a split's buffers
// (2 splitSize + 4 reduceSize floats) pass the end of `work`.
template <class T, class S>
bool ReplaySoftmaxFlashUpdate(const SmxTiling& kt, uint32_t oriK, const SflIo<T, S>& io,
                              std::vector<uint8_t>& work, bool v200);

// The 2201 isBasicBlock update (SoftmaxFlashBasicBlock[Float]) over kt's rangeM full splits, then
// for half data the generic tail split. Float data computes in (and leaves its result in) src:
// srcInOut, a copy of io.src's values (io.src is not read for float data). False, nothing
// changed, where the kit's footprint passes the end of `work`.
template <class T, class S>
bool ReplaySoftmaxFlashBasicUpdate(const SmxTiling& kt, uint32_t oriK, const SflIo<T, S>& io,
                                   T* srcInOut, std::vector<uint8_t>& work);

}  // namespace lngrad_replay
