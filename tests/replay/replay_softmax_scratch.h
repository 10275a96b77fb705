// lngrad_replay: what SoftMax and LogSoftMax leave in their work buffer on arch 2201 — the float ND
// generic path (membase/v220/softmax_impl.h SingleSoftMaxImpl and SoftMaxNDImpl without statistics,
// membase/common/softmax_impl/softmax_generic_nd_impl.h SoftMaxNDExtImpl / SoftMaxGenericNDImpl
// with them; the row reductions of membase/v220/softmax_common_impl/softmax_common_nd_reduce.h
// (NewReduceMaxLastNDImpl, NewReduceSumLastNDImpl, FirstBlockCopyImpl, BasicBlockReduce*Impl),
// softmax_common_broadcast.h (AlignedBroadCastImpl), softmax_common/softmax_common_arithmetic.h
// (NextBlock*, Tail*, GenericSub/DivNDImpl) and softmax_common_reduce.h (BigBlockReduce*)).
// Written from a separate reading of those files by the same helper (session 19, sm1) before
// comparing with lngrad's softmax_work.h; LogSoftMax from membase/common/logsoftmax_common_impl.h
// (LogSoftMaxNDImpl, LogSoftMaxGenericNDImpl, GenericLogNDImpl); no code shared with src/ or
// include/.
//
// Session 25 (cfg): the constant-shape config's half data without statistics on a tiling of
// reduceK 8 (SmxHalfWork::redDstK 16: SoftMaxNDImpl's reduceParam.dstK), from the same files
// (AlignedBroadCastImpl's Copy of 16 m floats over the accumulators), by the helper who also
// made lngrad's softmax_work.h write it (SpillsStats).
//
// Session 23 (u22): the reductions' uint8_t operands as they wrap (the first Max/Add's and
// NextBlock*'s repeat count and repeat stride, BigBlockReduce*'s remainRepeat), re-read from the
// same files by the helper who also made lngrad follow them unchecked (softmax_v220_device.h).
//
// The replay runs every instruction of every split over the memory it is given, so values a
// step reads before the kit's code wrote them (Brcb's read of the statistics block past the
// split's rows) come from that memory as it stood.
#pragma once

#include <cstdint>

#include "replay_softmax.h"

namespace lngrad_replay {

// The tensors of one float SoftMax call, as host memory. sum and max null: SoftMax without
// statistics (SingleSoftMaxImpl: the statistics at work[0], the accumulators at
// work[reduceSize]); with them: the accumulators at work[0]. reuse: isReuseSource (the
// exponentials in src). dst may be src.
struct SmxFloatWork {
  float* src;
  float* dst;
  float* sum;
  float* max;
  float* work;
  bool reuse;
  bool log = false;  // LogSoftMax (LogSoftMaxGenericNDImpl): then Ln and Muls by 0.4342944819f
};

// SoftMax<float> on 2201, the generic ND loop of tiling t (its rangeM splits, then the tail),
// oriK the reduced columns (originalSrcShape.k). Requires t.reduceK == 8.
void ReplaySoftMaxFloatWork(const SmxTiling& t, uint32_t oriK, const SmxFloatWork& io);

// SoftMax<half> on 2201, the same loop: the float copy of the split at work[0] (left holding
// the quotients), then without statistics (all four null) or with half ones (sumH, maxH) the
// statistics at work[splitSize] ([splitM, reduceK], reduceK 8 or 16) and the accumulators at
// work[splitSize + reduceSize]; with float ones (sumF, maxF, reduceK 8) the accumulators at
// work[splitSize]. Casts to half round ties away from zero (FLOAT2HALF_ROUND_MODE on 2201).
struct SmxHalfWork {
  const Half* src;
  Half* dst;
  Half* sumH;
  Half* maxH;
  float* sumF;
  float* maxF;
  float* work;
  bool log = false;  // LogSoftMax: Ln and Muls on the float copy before the cast
  // The reductions' dstK (ReduceLastND), 0: t.reduceK. The constant-shape config's
  // SoftMaxNDImpl without statistics takes 16 for half data whatever the tiling's reduceK: with
  // a reduceK of 8 their statistics run past work[splitSize + reduceSize).
  uint32_t redDstK = 0;
};
void ReplaySoftMaxHalfWork(const SmxTiling& t, uint32_t oriK, const SmxHalfWork& io);

// NewReduceMaxLastNDImpl (max) / NewReduceSumLastNDImpl<isBroadCast = true> on 2201 as the loops
// above run them, their uint8_t operands as they wrap: m rows of src at a stride of srcK, the
// first oriK values of each; dst the statistics ([m, dstK], dstK 8 or 16; the broadcast reads its
// floats past the m results as they stand), tmp the floats the reduction and the broadcast work
// in. Session 24 (v22): SoftmaxFlashV2's scratch replay (replay_softmax_flash_scratch.cpp) runs
// its reductions through this.
void ReplayNewReduce2201(float* dst, const float* src, float* tmp, uint32_t m, uint32_t oriK,
                         uint32_t srcK, uint32_t dstK, bool max);

}  // namespace lngrad_replay
