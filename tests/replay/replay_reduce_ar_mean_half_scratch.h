// lngrad_replay, what ReduceMean<half, AR> leaves in dst, src and the scratch on arch 2201
// (replay_reduce_ar_mean_half_scratch.cpp), written from the kit's sources with no code shared
// with include/ or src/.
#pragma once

#include <cstdint>

#include "replay.h"

namespace lngrad_replay {

// ReduceMean<half, AR, reuse> on 2201 (reduce_mean_v220_impl.h over reduce_sum_v220_impl.h's
// ReduceSumCommon, which runs its float-sized steps on half rows): src holds `srcLen` halves,
// the first `first` rows of padLast (last rounded up to 16) the data and the rest what follows
// in the UB (the sequence reads rows 2r for the work rows); dst holds `dstLen` halves. With
// `reuse` the kit works in src. Returns false where an instruction would read or store past
// src, dst or the scratch.
bool ReplayReduceMeanHalfArScratch(bool reuse, Half* src, uint64_t srcLen, Half* dst,
                                   uint64_t dstLen, uint32_t first, uint32_t last, uint8_t* scratch,
                                   uint32_t tmpBytes);

}  // namespace lngrad_replay
