// lngrad: SoftmaxFlashV2 in SOFTMAX_OUTPUT_WITHOUT_BRC mode (the M1 post process) on 2201, the
// generic path (no isBasicBlock) without update: the shapes the kit's sequence
// (membase/v220/softmax_flashv2_impl.h SoftmaxFlashV2M1NoUpdateImpl and its pre-cast) computes
// wrongly (session 22, wob). Checked mode refuses them before anything is written
// (softmax_device_defect); unchecked mode:
//  - a split of one row (splitM 1, or tailM 1) with oriSrcK >= 64: NewReduce{Max,Sum}LastNDImpl's
//    BasicBlockReduce{Max,Sum}Impl takes one row with WholeReduce{Max,Sum} of 8 repeats over the
//    same 64 lanes (and, with reduceK 16, a DataCopy of those 8 results after them): it writes
//    the row's statistic reduceK times from the row on. Float statistics go straight to the
//    caller's tensors, so the last split of one row writes reduceK - 1 entries past row m - 1 of
//    max, then of expSum: the rows' values are right, so this is not refused; the copies are
//    written in both modes (FlashV2M1OneRowDevice), and checked mode refuses them only where
//    they pass the tensors (tensor_bounds, before anything is written: a one-row tensor takes
//    its 32-byte block). Half statistics go to the float work buffer, where the sum's 16 copies
//    at sumBuffer cover maxBuffer (8 floats on): that row's max output is its expSum.
//  - half data with float statistics, any shape: the pre-cast puts the reductions' work buffer at
//    srcBuffer[ceil(rows / 8) * 8], inside the split's converted source, so the Brcb and the
//    reductions overwrite the values the Sub and the sums read. Unchecked, lngrad gives the
//    device's outputs (softmax_flashv2_nobrc_device.h, after its own rows).
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>

#include "lib/activation/softmax_common.h"

namespace lngrad::aicore::softmax_detail {

// The entries BasicBlockReduce{Max,Sum}Impl writes for a split of one row (reduceK 16: 16).
inline uint32_t M1OneRowCopies(const AscendC::tiling::SoftMaxTiling& t) {
  return t.reduceK == 16 ? 16 : 8;
}
// Whether split rows of t include one of a single row (splitM 1 or tailM 1).
inline bool M1HasOneRowSplit(const AscendC::tiling::SoftMaxTiling& t) {
  return (t.splitM == 1 && t.rangeM != 0) || t.tailM == 1;
}

// Why the M1 generic path without update computes the kernel tiling t's call wrongly on 2201;
// empty when it does not. halfData / halfStats: T and U are half.
inline std::string FlashV2M1Defect(const AscendC::tiling::SoftMaxTiling& t, const Dims& d,
                                   bool halfData, bool halfStats) {
  if (halfData && !halfStats) {
    return "with half data and float statistics the kit's pre-cast (SoftmaxFlashV2M1NoUpdate"
           "ImplPreCast) places the reductions' work buffer at srcBuffer[ceil(rows / 8) * 8], "
           "inside the split's converted source, so its Brcb and reductions overwrite the values "
           "the Sub and the sums read; use half statistics, float data, or the broadcast mode";
  }
  if (!halfStats || d.oriK < kLanes || !M1HasOneRowSplit(t)) return {};
  return "a split of one row (splitM " + std::to_string(t.splitM) + ", tailM " +
         std::to_string(t.tailM) +
         ") is reduced by BasicBlockReduce{Max,Sum}Impl's WholeReduce of 8 repeats, which "
         "writes the row's statistic " +
         std::to_string(M1OneRowCopies(t)) +
         " times from the row on: the sum's copies in the work buffer cover the float max, so "
         "the row's max output is its expSum; use a work buffer whose tiling has no split of one "
         "row, oriSrcK below 64, float statistics or the broadcast mode";
}

// The entries of max and expSum a call with float statistics writes on 2201 (the last row's
// reduceK copies of a one-row split); 0 where it writes only its rows.
template <typename T, typename U>
uint64_t FlashV2M1StatEnd(bool update, bool basic, const AscendC::tiling::SoftMaxTiling& t,
                          const Dims& d) {
  if (update || basic || detail::rep::RunningArch() != NpuArch::k2201) return 0;
  if (!std::is_same_v<U, float> || std::is_same_v<T, half>) return 0;
  if (d.oriK < kLanes || !M1HasOneRowSplit(t) || d.m == 0) return 0;
  return uint64_t{d.m} - 1 + M1OneRowCopies(t);
}

// Checked mode on 2201: refuses an M1 generic call without update that FlashV2M1Defect names,
// and float statistics' one-row copies past max or expSum (tensor_bounds), before anything is
// written.
template <typename T, typename U>
void CheckFlashV2M1Defect(bool update, bool basic, const AscendC::tiling::SoftMaxTiling& t,
                          const Dims& d, const AscendC::LocalTensor<U>& expSum,
                          const AscendC::LocalTensor<U>& max) {
  if (update || basic || !CheckedMode()) return;
  if (detail::rep::RunningArch() != NpuArch::k2201) return;
  if (const uint64_t end = FlashV2M1StatEnd<T, U>(update, basic, t, d); end != 0) {
    namespace md = math_detail;
    CheckRows("SoftmaxFlashV2 (SOFTMAX_OUTPUT_WITHOUT_BRC, a split of one row)",
              {md::Op(max, "maxTensor"), md::Op(expSum, "expSumTensor")}, {end, end});
  }
  const std::string why = FlashV2M1Defect(t, d, std::is_same_v<T, half>, std::is_same_v<U, half>);
  if (why.empty()) return;
  RaiseKernelCheck(checks::kSoftmaxDeviceDefect,
                   "SoftmaxFlashV2: SOFTMAX_OUTPUT_WITHOUT_BRC without update, srcShape {" +
                       std::to_string(d.m) + ", " + std::to_string(d.k) + "} (oriSrcK " +
                       std::to_string(d.oriK) + ") is computed wrongly by the device: " + why +
                       " (unchecked mode gives the device's numbers)");
}

// After the rows (float statistics in both modes, half statistics unchecked): the one-row
// splits' statistics as the device leaves them (see the header). max / expSum: the caller's
// per-row tensors.
template <typename T, typename U>
void FlashV2M1OneRowDevice(bool update, bool basic, const AscendC::tiling::SoftMaxTiling& t,
                           const Dims& d, const AscendC::LocalTensor<U>& expSum,
                           const AscendC::LocalTensor<U>& max) {
  if (update || basic || detail::rep::RunningArch() != NpuArch::k2201) return;
  if (d.oriK < kLanes || !M1HasOneRowSplit(t) || d.m == 0) return;
  if constexpr (std::is_same_v<U, half>) {
    if (M1OneRowCopies(t) <= 8) return;
    for (uint32_t r = t.splitM == 1 ? 0 : d.m - 1; r < d.m; ++r) {
      max.HostPtr()[r] = expSum.HostPtr()[r];
    }
  } else {
    const uint64_t end = FlashV2M1StatEnd<T, U>(update, basic, t, d);
    if (end == 0) return;  // half data: softmax_flashv2_nobrc_device.h writes them
    const uint32_t n = M1OneRowCopies(t), last = d.m - 1;
    namespace md = math_detail;
    CheckRows("SoftmaxFlashV2 (SOFTMAX_OUTPUT_WITHOUT_BRC, a split of one row)",
              {md::Op(max, "maxTensor"), md::Op(expSum, "expSumTensor")}, {end, end});
    const U mx = max.HostPtr()[last];
    for (uint32_t i = 1; i < n; ++i) max.HostPtr()[last + i] = mx;
    const U sm = expSum.HostPtr()[last];
    for (uint32_t i = 1; i < n; ++i) expSum.HostPtr()[last + i] = sm;
  }
}

}  // namespace lngrad::aicore::softmax_detail
