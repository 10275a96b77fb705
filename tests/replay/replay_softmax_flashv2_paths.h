// lngrad_replay: what SoftmaxFlashV2's isBasicBlock path leaves in its work buffer on arch 2201
// (the broadcast mode, float data and float statistics, without and with update; half data since
// session 22, below), replayed one
// vector instruction at a time from a separate reading of the toolkit's source by the helper who
// then modelled it in lngrad (session 20, sf2), written before lngrad's model:
// impl/adv_api/detail/activation/softmax/membase/common/softmax_flashv2_impl/
// softmax_flashv2_basic_block_impl.h (SoftmaxFlashV2NoUpdateBasicBlock and
// SoftmaxFlashV2BasicBlockImpl for float, the 2201 branches), softmax_flashv2_block_reduce_impl.h
// (BasicBlockReduce{Max,Sum}Impl, SpecialBasicBlock{Max,Add}Impl), softmax_common/
// softmax_common_arithmetic.h (BasicBlock{Max,Add}Impl) and softmax_common_reduce.h
// (BigBlockReduce{Max,Sum}). No code shared with src/ or include/.
// Session 21 (fv2), the shapes the device computes wrongly, from the same files read again: the
// K = 1024 branch of SpecialBasicBlock{Max,Add}Impl has fixed repeats (128, 16, 1, 1) and so
// reduces 8 rows whatever splitM; repeatTimes = (uint8_t)(splitSize / 64) of the Exp and the
// K = 512 branch's 8 splitM BlockReduce repeats keep their low 8 bits.
// Session 22 (fv2h), for NaN and ±0 ties: every Max keeps the kit's operand order (a > b ? a : b,
// BasicBlockMaxImpl's Max(acc, chunk) with splitM > splitK / 64, else Max(chunk, acc);
// BigBlockReduceMax's Max(chunk, acc)); a BlockReduceMax block gives its first NaN lane, else its
// first largest lane (lngrad's documented lane reduction; the kit does not say).
// Session 24 (mb), arch 2002 (on2002; its FLOAT2HALF_ROUND_MODE is CAST_NONE, nearest even):
// membase/v200/softmax_flashv2_impl.h includes the same
// membase/common files and its SoftmaxFlashV2PostProcess takes the isBasicBlock branch, so 2002
// runs these functions with their `__NPU_ARCH__ == 2002` branches, read from the same file by the
// helper who then let lngrad's model run there: each Brcb is a loop over ceil(splitM / 8) groups
// of AlignedBrcbImpl (softmax_common_broadcast.h: the group's 8 values read with GetValue, then
// each Duplicated over 8 floats, 16 for half statistics), the Copy of inMax is
// Adds(tmpBuffer2, inMax, 0, reduceSize) and half data with float statistics spreads expMax with
// two Counter-mode Adds of 0 (the Copies' strides).
#pragma once

#include <cstdint>

#include "replay_softmax.h"

namespace lngrad_replay {

// The float operands at the call; the replay writes what the kit writes into each (src: the
// no-update Sub; inExpSum: the update's Mul; expMax, inMax, inExpSum only with update).
struct FlashV2BasicIo {
  float* src;
  float* dst;
  float* expSum;
  float* max;
  float* expMax;
  float* inExpSum;
  const float* inMax;
};

// Runs the tiling's rangeM splits (splitM rows of splitK = srcK columns, a multiple of 64) over
// `scratch` (bytes long, read as floats: what the kit leaves there) and io, the wrapped repeat
// counts and the 8-row K = 1024 reductions included. Returns false where the replay does not
// cover the tiling (splitM above 255, rangeM 0, srcK not a multiple of 64 or above 2040, reduceK
// other than 8) or the kit writes past the scratch. Session 23 (bb, who also changed lngrad;
// the same files read again): splitM not a multiple of 8 is replayed (the statistics arrays must
// hold (rangeM - 1) * 8 M + 64 ceil(M / 8) floats: the Brcbs' and the update's reduceCeilValue
// repeats write that far, into the next split's rows, whose inExpSum the update's Mul changes
// before that split reads it).
bool ReplayFlashV2BasicScratch(const SmxTiling& t, bool update, const FlashV2BasicIo& io,
                               uint8_t* scratch, uint32_t bytes, bool on2002 = false);

// Session 22 (fv2h): the half data forms, read from the same file (SoftmaxFlashV2NoUpdateBasicBlock
// and SoftmaxFlashV2BasicBlockImpl for half data with half statistics,
// SoftmaxFlashV2NoUpdateBasicBlock and SoftmaxFlashV2BasicBlock for half data with float
// statistics; the 2201 branches): the split's float copy x at 0 (Cast), then x - max and its Exp
// there; tmpBuffer2 at splitSize (the reductions' results, or the update's inMax copy, inMax - max,
// expMax); tmpBuffer1 at splitSize + reduceSize (the reductions' work; half statistics: the two
// Brcbs, 16 floats a row; the float statistics' update: its Brcb, then expMax's two strided
// Copies); the update's tmpBuffer3 / inSumTmp at tmpBuffer1 + 32 splitM. S = Half (half statistics)
// or float. Outputs are written as the kit's Casts (FLOAT2HALF_ROUND_MODE: nearest, ties away) and
// float stores leave them. Not replayed (false): the tilings ReplayFlashV2BasicScratch does not
// cover, reduceK other than 32 bytes of S. splitK 1024 with splitM above 8 and repeatTimes past
// 255 (the Casts' and the Exp's) run as in the float replay. Splits: up to session 24 only
// splitM a multiple of 8; session 25 (bbu, who also changed lngrad; the same file read again):
// any splitM up to 255, the statistics' instructions over reduceCeilValue = ceil(reduceSize /
// 64) repeats (the Brcbs' ceil(M / 8) groups), so that they read inMax and inExpSum and write
// max, expSum and expMax (float statistics: 2 * 64 reduceCeilValue halves of it) past the
// split's rows (io's arrays must hold them past the last split), the Copy of inMax running into
// tmpBuffer1 (2201; 2002's Adds stop at reduceSize) and expMax's two Copies one after the other.
// Not replayed there: splitK 1024 with splitM below 8, and with update splitM below 4 (half
// statistics) or 1 (float), whose Brcbs write over their own source.
template <class S>
struct FlashV2BasicHalfIo {
  const Half* src;
  Half* dst;
  S* expSum;
  S* max;
  Half* expMax;
  const S* inExpSum;
  const S* inMax;
};
template <class S>
bool ReplayFlashV2BasicScratchHalf(const SmxTiling& t, bool update, const FlashV2BasicHalfIo<S>& io,
                                   uint8_t* scratch, uint32_t bytes, bool on2002 = false);

}  // namespace lngrad_replay
