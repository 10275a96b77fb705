// lngrad_replay: what SoftmaxFlashV2 leaves in its work buffer on arch 2201 (float or half data,
// float or half statistics, the broadcast mode's generic split loop), replayed instruction by
// instruction from a separate reading of the toolkit's source by the helper who modelled it in
// lngrad (session 19, sm2):
// impl/adv_api/detail/activation/softmax/membase/common/softmax_flashv2_impl/
// softmax_flashv2_{common,no_update,update}_impl.h, membase/v220/softmax_common_impl/
// softmax_common_{nd_reduce,broadcast}.h, softmax_common/softmax_common_{arithmetic,reduce}.h.
// Read before lngrad's softmax_flash_scratch.h was written; no code shared with src/ or include/.
// Session 24 (tie): WholeReduceMax / BlockReduceMax take lngrad's documented lane rule (first NaN,
// else the first lane holding the maximum), as replay_softmax.cpp does; lngrad not changed
// (v22's ReplayNewReduce2201 below keeps that rule).
//
// Session 24 (v22): the reductions are replay_softmax_scratch.h's ReplayNewReduce2201 (their
// uint8_t operands as they wrap, session 23), and the replay hands back its results (dst,
// expMax, the half statistics) for the splits that wrap, re-read from the same files by the
// helper who also made lngrad follow them unchecked (softmax_flashv2_v220_device.h).
//
// Session 25 (cfg): the constant-shape config's split path (config.oriSrcK rounded up to 8 below
// srcK): the reductions' row stride as a parameter (softmax_flashv2_common_impl.h's ReduceLastND
// {splitM, config.oriSrcK, splitM, splitK, ...}), re-read from the same files by the helper who
// also made lngrad write that buffer (softmax_flashv2_paths.h FlashV2ConfigScratch).
#pragma once

#include <cstdint>

#include "replay_softmax.h"

namespace lngrad_replay {

// The operands at the call, widened to float (src [srcM, srcK]; statistics [srcM, reduceK]).
// expSum and max: float statistics only (nullptr for half ones), their contents before the call
// (the broadcast reads lanes the reduction did not write), which receive what the replay
// computes there; inMax / inExpSum only with isUpdate.
struct FlashV2ScratchIo {
  const float* src;
  float* expSum;
  float* max;
  const float* inMax;
  const float* inExpSum;
};
// half: half data (the float copy of the split in the scratch); statHalf: half statistics.
struct FlashV2ScratchKind {
  bool update, half, statHalf;
};

// The results as the replay computes them, floats before the casts (each nullptr: not wanted):
// dst [srcM, srcK] (the exponentials), expMax [srcM, 16] for half data with float statistics
// (BroadCastLastImpl's rows), else [srcM, reduceK]; max and expSum [srcM, 16] with half
// statistics (float ones: io's).
struct FlashV2ScratchOut {
  float* dst = nullptr;
  float* expMax = nullptr;
  float* max = nullptr;
  float* expSum = nullptr;
};

// Runs SoftmaxFlashV2NoUpdateExtImpl / SoftmaxFlashV2NDExtImpl's splits (tiling t, the first oriK
// columns reduced) over `scratch` (bytes long, read as floats; what the kit leaves there) and
// the float statistics of io, and the results into out. Returns false where the replay does not
// cover the tiling (a reduceK other than 32 bytes of statistics, rangeM 0) or the kit writes
// past the scratch. redK: the reductions' row stride (their ReduceLastND's srcK; 0: t.srcK): the
// constant-shape config's splitK (config.oriSrcK rounded up to 8), below srcK on its split path
// (row i of a split reduced from the values at i * redK, the Sub and Exp at srcK).
bool ReplayFlashV2Scratch(const SmxTiling& t, uint32_t oriK, const FlashV2ScratchKind& kind,
                          const FlashV2ScratchIo& io, uint8_t* scratch, uint32_t bytes,
                          const FlashV2ScratchOut& out = {}, uint32_t redK = 0);

}  // namespace lngrad_replay
