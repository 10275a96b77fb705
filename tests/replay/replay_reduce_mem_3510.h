// What the 950's (arch 3510) reduce code leaves in the source and in sharedTmpBuffer: an
// independent replay of the stores of ReduceSum, ReduceMean, ReduceProd, ReduceMax, ReduceMin,
// ReduceAny and ReduceAll (float; half for ReduceMax/Min), re-derived from the kit's register code
// (impl/adv_api/detail/reduce/reduce_common_ar_reuse_align_3510_impl.h, reduce_common_ar_reuse_
// align_less_than_vl_3510_impl.h, reduce_common_ra_reuse_align_3510_impl.h, reduce_common_ar_ra_
// reuse_unalign_3510_impl.h, reduce_common_util_3510_impl.h, reduce_common_util_impl.h
// (FindClosestPowerOfTwo), reduce_sum/reduce_max/reduce_min/reduce_prod/reduce_any/reduce_all/
// reduce_mean_3510_impl.h). Provenance: a separate reading of those files by the helper who also
// wrote lngrad's model of the same stores (include/ascendc/adv/lib/reduce/reduce_3510_mem.h); this
// file was written from the kit's source, not from that header, and shares no code with it.
// The earlier 3510 replays (replay_reduce_3510.h, replay_reduce_maxmin_3510.h, by another helper)
// replay dst; this one replays the memory: each LoadAlign / LoadUnAlign / StoreAlign /
// StoreUnAlign of the source's loops on the whole src tensor and the whole scratch (as T), a
// register being V lanes (float 64, half 128), a mask its count of leading lanes, ZEROING lanes
// never stored. Elements are raw bits (float or half); Add and Mul round in float (float only),
// Reg::Max/Min pick an operand as docs/ascendc_kernels.md §3 defines them (s0 when NaN, else s1
// when NaN, else s1 only when strictly larger / smaller). A lane loaded from past either array's
// end, and a store there, set `outside` (the test sizes its tensors so that it stays false).
#pragma once

#include <cstdint>
#include <vector>

#include "replay_reduce_quant.h"

namespace lngrad_replay {

struct MemCall {
  RedOp op;    // kSum, kMean, kProd, kMax, kMin, kAny, kAll
  bool half;   // T = half (kMax, kMin), else float
  bool ar;     // pattern AR (else RA)
  bool reuse;  // isReuseSource
  uint32_t first, last;
  // Integer elements (ReduceMax/Min of 1-, 2- and 4-byte integers, ReduceSum of int32/uint32,
  // ReduceAny/All of uint8): `bytes` wide, Add wrapping, Max/Min comparing as integers; the code
  // is the float code's, with registers of 256 / bytes lanes.
  bool integer = false;
  bool isSigned = false;
  uint32_t bytes = 4;
};

struct MemState {
  std::vector<uint32_t> src;  // the src tensor's elements (bits), rows dense at r * last
  std::vector<uint32_t> tmp;  // sharedTmpBuffer as T elements (bits)
  bool outside = false;
};

// Runs the kit's 950 code of the call on `m` (src and the scratch as they are before the call)
// and leaves them as the device does; dst is not replayed here.
void ReplayReduceMem3510(const MemCall& c, MemState& m);

// Sum and Mean on arch 3510 (sum_3510_impl.h, mean_3510_impl.h: ReduceSumNextN and the level
// loop of SumCompute / MeanImpl): `tmp` (the scratch as ConvType: float, or half for half
// without the float accumulation, raw bits) as the device leaves it; `src` the rows' values.
void ReplaySumMeanScratch3510(const RowsCall& c, const std::vector<float>& src,
                              std::vector<uint32_t>& tmp);

}  // namespace lngrad_replay
