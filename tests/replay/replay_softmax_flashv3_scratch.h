// lngrad_replay: what SoftmaxFlashV3 (half data, float statistics) leaves in its work buffer on
// arch 2201, replayed instruction by instruction from a separate reading of the toolkit's source
// by the helper who then modelled it in lngrad (session 19, sm4):
// impl/adv_api/detail/activation/softmax/membase/v220/softmax_flashv3_impl.h
// (SoftmaxFlashV3ReduceSumImpl, ModifyInputImpl, ModifyMaxImpl, SoftmaxFlashV3{NoUpdate,Update,
// TailImpl}, the split loops), membase/v220/softmax_common_impl/softmax_common_nd_reduce.h
// (NewReduce{Max,Sum}LastNDImpl, k >= 512) and softmax_common_broadcast.h (BroadCastLastImpl,
// the device branch). Written before lngrad's softmax_flashv3_scratch.h; no code shared with
// src/ or include/. Session 24 (tie2, who also changed lngrad's maxTmp, a left-to-right fold
// before): WholeReduceMax / BlockReduceMax take lngrad's documented lane rule (first NaN, else the
// first lane holding the maximum), not a pair tree of Max.
#pragma once

#include <cstdint>

#include "replay_softmax.h"

namespace lngrad_replay {

// The operands, widened to float: src [srcM, srcK]; the statistics [srcM, 8]. dst receives the
// float exponentials the kit's Cast rounds, expMax ([srcM, 16]) the floats its Cast rounds
// (update). expSum holds its contents before the call (no update: the broadcast reads lanes
// past the sums).
struct FlashV3ScratchIo {
  const float* src;
  float* dst;
  float* mean;
  float* expSum;
  float* max;
  float* expMax;
  const float* inMean;
  const float* inExpSum;
  const float* inMax;
};
struct FlashV3ScratchArgs {
  bool update;
  uint32_t oriK, splitMeanCnt, loopCnt;
  float alpha;
};

// Runs SoftmaxFlashV3NoUpdateExtImpl / SoftmaxFlashV3NDExtImpl's splits of tiling t over
// `scratch` (bytes long, read as floats: what the kit leaves there) and io. Returns false where
// the replay does not cover the call (reduceK other than 8, srcK != oriK, srcK below 512 or not a
// multiple of 64, splitMeanCnt other than 8) or the kit writes past the scratch.
bool ReplayFlashV3Scratch(const SmxTiling& t, const FlashV3ScratchArgs& a,
                          const FlashV3ScratchIo& io, uint8_t* scratch, uint32_t bytes);

}  // namespace lngrad_replay
