// The 950 (arch 3510) sequences of the high-level sums and products: an independent scalar replay
// re-derived from the kit's register implementations (impl/adv_api/detail/reduce/
// reduce_common_ar_reuse_align_3510_impl.h, reduce_common_ar_reuse_align_less_than_vl_3510_impl.h,
// reduce_common_ra_reuse_align_3510_impl.h, reduce_common_ar_ra_reuse_unalign_3510_impl.h,
// reduce_common_util_3510_impl.h,
// reduce_sum/reduce_prod/reduce_mean_3510_impl.h, sum/sum_3510_impl.h, mean/mean_3510_impl.h),
// not from lngrad's implementation (include/ascendc/adv/lib/reduce/reduce_3510.h). It walks the
// source's loops literally: registers of 64 floats (128 halves), the scratch and the source as
// flat arrays addressed as the source addresses them, masks as lane counts. The register
// reductions follow lngrad's register-API semantics (docs/ascendc_kernels.md §3, "Register tree
// of arch 3510"): the adjacent-pair tree, a lane outside the mask taking no part.
// Float ReduceSum/Mean/Prod, rows read unpadded (the 3510 code addresses row a at a * last
// whatever srcInnerPad says): rows of whole 32-byte blocks take the aligned paths; other lengths
// the unaligned paths for ReduceSum and ReduceMean (reduce_common_ar_ra_reuse_unalign_3510_impl.h)
// and the aligned paths for ReduceProd (reduce_prod_3510_impl.h does not branch on alignment).
#pragma once

#include <cstdint>
#include <vector>

#include "replay_reduce_quant.h"

namespace lngrad_replay {

// reduce_common_util_3510_impl.h, shared by the 3510 replays:
// CalculateMainR: 1 << i for the last i in [1, 16) with dimR >> i nonzero (isAR and dimR < the
// register: dimR itself).
inline uint32_t MainR(uint32_t dimR, bool isAR, uint32_t vl) {
  uint32_t mainR = 1;
  for (uint32_t i = 1; i < 16 && (dimR >> i) != 0; ++i) mainR = 1u << i;
  return isAR && dimR < vl ? dimR : mainR;
}
// CalculateFolds: how many i in [1, 16) leave count >> i nonzero.
inline uint32_t Folds(uint32_t count) {
  uint32_t folds = 0;
  for (uint32_t i = 1; i < 16 && (count >> i) != 0; ++i) ++folds;
  return folds;
}

// Pattern AR on arch 3510: dst[0, first); src holds first x last floats (dense).
std::vector<float> ReplayReduceAR3510(const RedCall& c, const std::vector<float>& src);
// Pattern RA on arch 3510: dst[0, last); src holds first x last floats (dense).
std::vector<float> ReplayReduceRA3510(const RedCall& c, const std::vector<float>& src);
// Sum and Mean on arch 3510 (sum_3510_impl.h, mean_3510_impl.h).
std::vector<float> ReplaySum3510(const RowsCall& c, const std::vector<float>& src);
std::vector<float> ReplayMean3510(const RowsCall& c, const std::vector<float>& src);

}  // namespace lngrad_replay
