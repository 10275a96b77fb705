// lngrad: SoftmaxFlashV2's work buffer on 2002 (membase/v200), the broadcast mode's generic split
// loop (softmax_flashv2_common_impl.h SoftmaxFlashV2NoUpdateExtImpl / SoftmaxFlashV2NDExtImpl over
// membase/common/softmax_flashv2_impl/softmax_flashv2_{no_update,update}_impl.h) and its
// constant-shape config path with config.oriSrcK rounded up to 8 equal to srcK (the same loop,
// whose ReduceLastND reduces config.oriSrcK columns: Dims::oriK is the config's there).
//
// Every split, wrapping or not, runs softmax_v200_work.h's FlashV2DeviceV200 over the buffer (its
// comment says where the statistics block and the accumulators lie for each form). Where
// V200Defect names the tiling (unchecked mode; checked mode refused the call before), its
// results go to the caller's V200Device for V200Store, as before; elsewhere the device's results
// are the ones FlashV2Rows writes (the update's expMax of half data with float statistics too:
// lane 0 of each row, softmax_common.h ExpMaxLane with brc), so only the buffer is kept and the
// call's rows stay lngrad's (replay.SoftMaxV200Replay.SoftmaxFlashV2* compares both against the
// kit's sequence). Not modelled (the buffer stays marked): FlashV2DeviceV200's own limits (a
// tiling not of the shape, reduceK other than the statistics' 32 bytes, a buffer short of the
// pieces) and other arches.
#pragma once

#include <cstdint>

#include "lib/activation/softmax_common.h"
#include "lib/activation/softmax_v200_work.h"

namespace lngrad::aicore::softmax_detail {

// on: the call runs the generic reductions (neither the M1 mode nor a basic block). The operands
// as FlashV2DeviceV200 takes them, read before anything is written. Returns whether the work
// buffer was written (then it is modelled).
template <typename T, typename U>
bool FlashV2WorkV200(bool on, bool update, const AscendC::tiling::SoftMaxTiling& t, const Dims& d,
                     const T* src, const U* inMax, const U* inSum, const U* maxT, const U* sumT,
                     const AscendC::LocalTensor<uint8_t>& tmp, V200Device& dev, SrcLoc loc) {
  if (!on || detail::rep::RunningArch() != NpuArch::k2002) return false;
  if (!V200Defect(t, d).empty()) {
    return FlashV2DeviceV200<T, U>(update, t, d, src, inMax, inSum, maxT, sumT, tmp, dev, loc);
  }
  V200Device buffer;  // the splits do not wrap: lngrad's rows are the device's
  return FlashV2DeviceV200<T, U>(update, t, d, src, inMax, inSum, maxT, sumT, tmp, buffer, loc, 0,
                                 true);
}

}  // namespace lngrad::aicore::softmax_detail
