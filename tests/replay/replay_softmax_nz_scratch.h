// lngrad_replay: what SoftMax (with statistics) and SimpleSoftMax in the NZ data format
// (isDataFormatNZ) leave in their work buffer, dst and statistics on arch 2201 and 2002. Written
// from the toolkit's source by the helper who then made lngrad write the buffer (nz2, session 22;
// a separate reading, not an independent reader), impl/adv_api/detail/activation/softmax/:
// softmax_base_impl.h and softmax_common/softmax_common_simple.h (the entry points and their NZ
// re-tile), softmax_common/softmax_tiling_func.h (SoftMaxTilingFunc with isDataFormatNZ),
// membase/common/softmax_impl/softmax_generic_nz_impl.h (SoftMaxNZImpl, SoftMaxGenericNZImpl's
// three overloads without isFlashV2), membase/common/simple_softmax_common_impl.h
// (SimpleSoftMaxNZImpl, SimpleSoftMaxGenericNZImpl's three overloads), and the NZ reductions of
// replay_nz_vec.h (softmax_common_nz_reduce.h and what it calls); both arches include the same
// membase/common files; FLOAT2HALF_ROUND_MODE from membase/v220 and v200 softmax_common_impl.h.
#pragma once

#include <cstdint>
#include <vector>

#include "replay_softmax.h"

namespace lngrad_replay {

// SoftMaxNZImpl over the splits of kt (the tiling the kernel runs: the caller's when made for the
// shape, else SmxNzTiling of the work buffer): src and dst are [srcK / 16, kt.srcM, 16] fractals,
// sum and max [rows, 32 B]; `work` (the buffer's bytes before the call), dst, sum and max (their
// contents before the call) are updated in place. v200: arch 2002 (half results to nearest even);
// else 2201 (ties away). False, nothing changed, where an access would pass the end of `work`.
template <class T, class S>
bool ReplaySoftMaxNzWork(const SmxTiling& kt, uint32_t oriK, const T* src, T* dst, S* sum, S* max,
                         std::vector<uint8_t>& work, bool v200);

// SimpleSoftMaxNZImpl over the splits of kt, the same conventions; inSum and inMax are read.
template <class T, class S>
bool ReplaySimpleSoftMaxNzWork(const SmxTiling& kt, const T* src, const S* inSum, const S* inMax,
                               T* dst, std::vector<uint8_t>& work, bool v200);

}  // namespace lngrad_replay
