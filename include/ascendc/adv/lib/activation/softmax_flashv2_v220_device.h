// lngrad: SoftmaxFlashV2's generic broadcast-mode split loop on 2201, in unchecked mode, for the
// splits whose NewReduce{Max,Sum}LastNDImpl operands wrap (softmax_v200_work.h V220Defect:
// srcK / 8 above 255 blocks with oriSrcK in [128, 512) and splits of two or more rows, oriSrcK
// from 16896; checked mode refused them before anything is written, CheckV220Defect,
// softmax_device_defect): the device's dst, max, expSum, expMax and work buffer.
//
// The loop and its steps are the kit's common ones (membase/common/softmax_flashv2_impl/
// softmax_flashv2_{common,no_update,update}_impl.h), which 2002 runs too: softmax_v200_work.h
// FlashV2DeviceOn follows them for either arch, split by split, over an image of the buffer
// (where each form keeps its statistics block and accumulators: its comment). 2201's own parts:
// the reduction pass (V220Pass: softmax_v220_device.h V220Acc's wrapped accumulators, then
// BasicBlockReduce*Impl and AlignedBroadCastImpl, softmax_work.h WorkDevicePass, as SoftMax's
// SoftMaxWorkV220), the float update's max stored by DataCopy (2002: Adds 0), and
// BroadCastLastImpl's lane l % 8 of each row for the half expMax of float statistics (2002: lane
// 0). The results go to V200Device for V200Store over FlashV2Rows', the buffer is written (so
// softmax_flash_scratch.h FlashV2Scratch, lngrad's rows' buffer, is not run). The constant-shape
// config's path with cfgK = srcK runs it too (d.oriK the config's). The WITHOUT_BRC loop:
// softmax_flashv2_nobrc_device.h (V220Acc too). Not followed (still lngrad's rows unchecked):
// SoftmaxFlashV3, a tiling FlashV2DeviceOn does not take (not of the shape, a buffer short of
// the pieces: then FlashV2Scratch as before).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "lib/activation/softmax_common.h"
#include "lib/activation/softmax_flashv2_v200_work.h"
#include "lib/activation/softmax_v200_work.h"
#include "lib/activation/softmax_v220_device.h"
#include "lib/activation/softmax_work.h"

namespace lngrad::aicore::softmax_detail {

// NewReduce{Max,Sum}LastNDImpl on 2201 with the wrapped operands (FlashPassFn; oriK >= 128, the
// only reductions V220Defect names): the accumulators a (V220Acc), the row values, the statistics
// block st broadcast (dstK floats a row). hw: how far into a the pass wrote.
inline void V220Pass(WorkOp op, const float* x, uint32_t k, uint32_t m, uint32_t oriK,
                     uint32_t dstK, float* st, float* a, uint64_t& hw) {
  std::vector<float> v(m);
  WorkDevicePass(&V220Acc, op, x, k, m, oriK, dstK, v.data(), st, a);
  hw = std::max<uint64_t>(hw, uint64_t{m} * kLanes);
}

// The 2201 counterpart of FlashV2WorkV200 (same operands; on: the generic loop runs): unchecked,
// for a tiling V220Defect names, the device's results into dev and its work buffer. Returns
// whether the buffer was written.
template <typename T, typename U>
bool FlashV2WorkV220(bool on, bool update, const AscendC::tiling::SoftMaxTiling& t, const Dims& d,
                     const T* src, const U* inMax, const U* inSum, const U* maxT, const U* sumT,
                     const AscendC::LocalTensor<uint8_t>& tmp, V200Device& dev, SrcLoc loc) {
  if (!on || CheckedMode() || detail::rep::RunningArch() != NpuArch::k2201 || t.splitM == 0 ||
      V220Defect(t, d).empty()) {
    return false;
  }
  return FlashV2DeviceOn<T, U>(NpuArch::k2201, &V220Pass, update, t, d, src, inMax, inSum, maxT,
                               sumT, tmp, dev, loc, d.k);
}

// The generic loop's device model on the running arch: 2002 FlashV2WorkV200 (every split's
// buffer), 2201 FlashV2WorkV220 (the wrapping splits'). Returns whether the buffer was written.
template <typename T, typename U>
bool FlashV2WorkDevice(bool on, bool update, const AscendC::tiling::SoftMaxTiling& t, const Dims& d,
                       const T* src, const U* inMax, const U* inSum, const U* maxT, const U* sumT,
                       const AscendC::LocalTensor<uint8_t>& tmp, V200Device& dev, SrcLoc loc) {
  return FlashV2WorkV200<T, U>(on, update, t, d, src, inMax, inSum, maxT, sumT, tmp, dev, loc) ||
         FlashV2WorkV220<T, U>(on, update, t, d, src, inMax, inSum, maxT, sumT, tmp, dev, loc);
}

}  // namespace lngrad::aicore::softmax_detail
