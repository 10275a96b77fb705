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
// Float ReduceSum/Mean/Prod on rows of whole 32-byte blocks (the aligned paths) and ReduceSum on
// unpadded rows of other lengths (reduce_common_ar_ra_reuse_unalign_3510_impl.h).
#pragma once

#include <cstdint>
#include <vector>

#include "replay_reduce_quant.h"

namespace lngrad_replay {

// Pattern AR on arch 3510: dst[0, first); src holds first x last floats (dense).
std::vector<float> ReplayReduceAR3510(const RedCall& c, const std::vector<float>& src);
// Pattern RA on arch 3510: dst[0, last); src holds first x last floats (dense).
std::vector<float> ReplayReduceRA3510(const RedCall& c, const std::vector<float>& src);
// Sum and Mean on arch 3510 (sum_3510_impl.h, mean_3510_impl.h).
std::vector<float> ReplaySum3510(const RowsCall& c, const std::vector<float>& src);
std::vector<float> ReplayMean3510(const RowsCall& c, const std::vector<float>& src);

}  // namespace lngrad_replay
