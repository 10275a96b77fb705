// lngrad_replay: SoftmaxFlashV2 in SOFTMAX_OUTPUT_WITHOUT_BRC mode on arch 2201, the generic path
// (no isBasicBlock), instruction by instruction over host memory, work buffer included. Read from
// the kit's membase/v220/softmax_flashv2_impl.h (SoftmaxFlashV2M1PostProcess,
// SoftmaxFlashV2M1{NoUpdate,Update}Impl{PreCast,Process,PostCast}, SoftmaxFlashV2M1BrcbSubImpl,
// SoftMaxFlashV2M1CastIntrinsicsImpl, SoftmaxFlashV2M12ReduceMax), membase/v220/
// softmax_common_impl/softmax_common_nd_reduce.h (NewReduce{Max,Sum}LastNDImpl<false>,
// FirstBlockCopyImpl, ReduceMax/SumLastNDSplitImpl, BasicBlockReduce{Max,Sum}Impl) and
// softmax_common/softmax_common_{arithmetic,reduce}.h (NextBlock*, Tail*, BigBlockReduce*), by the
// session-23 helper pc, who also wrote lngrad's model (softmax_flashv2_nobrc_device.h) from the
// same reading; no code shared with src/ or include/. Session 25 (wb3, who also made lngrad
// follow them unchecked): NewReduce{Max,Sum}LastNDImpl's operands narrowed to uint8_t as the kit
// passes them (they wrap for srcK from 2048 and oriSrcK from 16896), re-read from the same files.
//
// Each instruction runs repeat by repeat, a repeat's elements in increasing order (a reduction's
// repeat read before its results are written), over the memory it is given, so the half data
// with float statistics' overlapping work buffer (the pre-cast's tmp inside the converted
// source) and Brcb's reads of statistics past the split's rows take what that memory holds.
#pragma once

#include <cstdint>

#include "replay_softmax.h"

namespace lngrad_replay {

// The operands of one call (T = float or Half; S = T, or float with T = Half). update: isUpdate
// (expMax, inSum, inMax read; outReduceMax, when non-null, gets the row max). work: the
// sharedTmpBuffer as floats (read and written).
template <class T, class S>
struct M1Io {
  const T* src;
  T* dst;
  S* sum;
  S* max;
  T* expMax;
  const S* inSum;
  const S* inMax;
  S* outReduceMax;
  float* work;
};

// The call with tiling t (its rangeM splits, then tailM), oriK = originalSrcShape.k.
template <class T, class S>
void ReplayFlashV2M1(const SmxTiling& t, uint32_t oriK, bool update, const M1Io<T, S>& io);

}  // namespace lngrad_replay
