// The 950 (arch 3510) sequences of ReduceMax, ReduceMin, ReduceAny and ReduceAll (float, half,
// bfloat16_t) and ReduceXorSum: an independent scalar replay re-derived from the kit's register
// code (impl/adv_api/detail/reduce/reduce_max/reduce_max_3510_impl.h, reduce_min/...,
// reduce_any/..., reduce_all/..._3510_impl.h, reduce_common_ar_reuse_align_3510_impl.h,
// reduce_common_ar_reuse_align_less_than_vl_3510_impl.h, reduce_common_ra_reuse_align_3510_impl.h,
// reduce_common_ar_ra_reuse_unalign_3510_impl.h, reduce_common_util_3510_impl.h,
// reduce_xor_sum/reduce_xor_sum_3510_impl.h), not from lngrad's implementation
// (include/ascendc/adv/lib/reduce/reduce_3510.h). It walks the source's loops: registers of V
// lanes (float 64, half and bfloat16_t 128), bfloat16_t's Cast paths as the source writes them
// (Interleave / UnPack to float lanes, the float reduction). Elements are held as floats (every
// half and bfloat16_t is exact in float); Max/Min only pick, so no rounding occurs. The register
// operations follow lngrad's register-API semantics (docs/ascendc_kernels.md §3): Reg::Max(dst,
// s0, s1) gives s0 when s0 is NaN, else s1 when s1 is NaN, else s1 only when strictly larger
// (Min: smaller); Reg::ReduceMax/Min is the adjacent-pair tree over the active lanes.
#pragma once

#include <cstdint>
#include <vector>

#include "replay_reduce_quant.h"

namespace lngrad_replay {

enum class MmLane { kFloat, kHalf, kBf16 };

struct MaxMinCall {
  RedOp op;  // kMax, kMin, kAny (float), kAll (float)
  MmLane lane;
  bool reuse;  // isReuseSource
  uint32_t first, last;
};

// Pattern AR on arch 3510: dst[0, first). The rows are read unpadded (row a at a * last, whatever
// srcInnerPad says); rows not of whole blocks take the unaligned paths for ReduceMax/Min, the
// aligned ones (loads at a * last) for ReduceAny/All, whose code does not branch on alignment.
std::vector<float> ReplayMaxMinAR3510(const MaxMinCall& c, const std::vector<float>& src);
// Pattern RA on arch 3510, unpadded rows: dst[0, last) (ReduceAny/All: ReduceRAImpl always).
std::vector<float> ReplayMaxMinRA3510(const MaxMinCall& c, const std::vector<float>& src);
// ReduceXorSum on arch 3510 (any calCount: the float running sum is replayed in its order).
int16_t ReplayReduceXorSum3510(const std::vector<int16_t>& a, const std::vector<int16_t>& b,
                               uint32_t calCount);

}  // namespace lngrad_replay
