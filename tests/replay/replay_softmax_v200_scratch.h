// lngrad_replay: SoftMax, LogSoftMax and SimpleSoftMax (ND, generic split loops) on arch 2002
// (Ascend310P1), their results and what they leave in the work buffer. Read for it (session 20,
// s2k; a separate reading by the same helper who then changed lngrad, written before comparing):
// membase/v200/softmax_impl.h (SoftMaxNDImpl, SingleSoftMaxImpl), membase/v200/
// softmax_common_impl.h (NewReduceMaxLastNDImpl, NewReduceSumLastNDImpl, ReduceMax/SumLastND-
// SplitImpl, FirstBlockCopyImpl, BasicBlockReduceMax/AddImpl, BroadCastNDImpl, BroadCastLastImpl),
// membase/v200/simple_softmax_impl.h, membase/common/softmax_impl/softmax_generic_nd_impl.h
// (SoftMaxNDExtImpl, SoftMaxGenericNDImpl: TransDivToMulImpl on 2002), membase/common/
// logsoftmax_common_impl.h (LogSoftMaxNDImpl, LogSoftMaxGenericNDImpl, GenericLogNDImpl),
// membase/common/simple_softmax_common_impl.h (SimpleSoftMaxNDImpl, SimpleSoftMaxGenericNDImpl),
// softmax_common/softmax_common_arithmetic.h (Tail*, NextBlock*, GenericSub/Div/MulNDImpl,
// TransDivToMulImpl), softmax_common_reduce.h (BigBlockReduce*), softmax_common_broadcast.h
// (BroadCastLastCompute). No code shared with src/ or include/. Session 21 (s2b, the helper
// who also changed lngrad's model, reading softmax_common_arithmetic.h's NextBlock*/Tail*Impl,
// softmax_common_reduce.h's BigBlockReduce* and v200's Max/Add and FirstBlockCopyImpl again):
// the uint8_t repeat counts and strides as they wrap (Accumulate), for the unchecked runs of
// the shapes lngrad's checked mode refuses.
//
// Instruction semantics taken: a uint8_t operand keeps the low 8 bits of the value the kit
// passes, a repeat count of 0 runs nothing; the BlockReduce / WholeReduce lane reductions as
// documented (max: the first NaN lane, else the first lane holding the largest value; sum: the
// adjacent-pair tree), a BlockReduce block with no active lane left as it is (310P); TransDataTo5HD
// on 32-bit data [inference, the kit's docs give its layout only as a figure]: the 16 source blocks
// of a repeat are a 16 x 8 matrix, destination blocks 2j and 2j + 1 hold its column j (rows 0..7,
// then 8..15), every source block read before any is written (BroadCastNDImpl runs it in place;
// the kit's Adds after it reads row j's values at 16 j, which only that layout gives).
#pragma once

#include <cstdint>

#include "replay_softmax.h"

namespace lngrad_replay {

// One SoftMax or LogSoftMax call: T = float or Half data, S = T or float (with Half data)
// statistics; sum = max = nullptr: SoftMax without statistics (SingleSoftMaxImpl, isReuseSource
// and isBasicBlock not read on 2002). work: the float work buffer as memory. log: LogSoftMax
// (statistics required).
template <class T, class S>
struct V200Io {
  const T* src;
  T* dst;
  S* sum;
  S* max;
  float* work;
  bool log;
};
// The generic loop of tiling t (rangeM splits of splitM rows, then tailM), oriK reduced columns.
template <class T, class S>
void ReplaySoftMaxV200(const SmxTiling& t, uint32_t oriK, const V200Io<T, S>& io);

// SimpleSoftMax<half> (SimpleSoftMaxNDImpl, isBasicBlock false) with Half or float statistics:
// the float copy of the split at work[0], half statistics' float copies at work[splitSize].
template <class S>
void ReplaySimpleSoftMaxHalfV200(const SmxTiling& t, const Half* src, const S* inSum,
                                 const S* inMax, Half* dst, float* work);

// SoftmaxFlashV2's generic loop (no config shape, not isBasicBlock) on 2002: float data and
// statistics, half data with float statistics, half data and statistics (session 22, w2b,
// reading membase/common/softmax_flashv2_impl/softmax_flashv2_{no_update,update}_impl.h's three
// SoftmaxFlashV2NoUpdateImpl / SoftmaxFlashV2UpdateImpl overloads, softmax_flashv2_common_impl.h's
// SoftmaxFlashV2NoUpdateExtImpl / SoftmaxFlashV2NDExtImpl loops, membase/v200/
// softmax_common_impl.h's BroadCastLastImpl and softmax_common_broadcast.h's BroadCastLastCompute
// (each destination row the source row's element 0), and the reductions above). inExpSum and inMax
// may be expSum and max (each split reads its own block before writing it). cfgK: the
// constant-shape config path's ReduceLastND row stride (softmax_flashv2_common_impl.h
// SoftmaxFlashV2NoUpdate / SoftmaxFlashV2NDImpl: config.oriSrcK rounded up to 8, oriK the
// config's), which only the two reductions take (the Sub and Exp keep tiling.srcK); 0: the
// generic loop's tiling.splitK (session 23, c22, the helper who also changed lngrad's model).
template <class T, class S>
struct FlashV2V200Io {
  const T* src;
  T* dst;
  S* expSum;
  S* max;
  T* expMax;
  const S* inExpSum;
  const S* inMax;
  float* work;
  bool update;
  uint32_t cfgK = 0;
};
template <class T, class S>
void ReplaySoftmaxFlashV2V200(const SmxTiling& t, uint32_t oriK, const FlashV2V200Io<T, S>& io);

}  // namespace lngrad_replay
