// LayerNormGradBeta operator on the simulated Ascend device.
//
// pd_gamma[c] = sum over all B*S rows of dy*resForGamma, pd_beta[c] = sum of dy. The rows are
// split over `blocks` AI cores; each core walks its rows in tiles sized from the product's UB
// (one AscendC::LayerNormGradBeta call per tile, tiling from GetLayerNormGradBetaMaxMinTmpSize /
// GetLayerNormGradBetaNDTilingInfo for the tile's shape [1, rows, H, H]) and adds the tiles'
// results in float; a second one-block launch adds the blocks' partial sums in block order.
// See src/ops/README.md.
//
// Link target: lngrad_ops.
#pragma once

#include <tuple>

#include "kernel_tiling/kernel_tiling.h"
#include "lngrad/status.h"
#include "ops/op_common.h"

namespace lngrad::ops {

// OpArgs::reuse_source: isReuseSource (float: the API overwrites its UB copy of resForGamma).
struct LayerNormGradBetaOpArgs : OpArgs {
  // Host inputs of `dtype` (float, or binary16 bits), [B*S*H] each. Not modified; read in place
  // (they must not change during the call).
  const void* res_for_gamma = nullptr;
  const void* dy = nullptr;
  // Host outputs of `dtype`, [H] each. Written only when the call succeeds (always staged,
  // whatever launch.outputs says).
  void* pd_gamma = nullptr;
  void* pd_beta = nullptr;

  // All four tensors, in the order above.
  void SetTensors(const void* res_for_gamma_, const void* dy_, void* pd_gamma_, void* pd_beta_) {
    std::tie(res_for_gamma, dy, pd_gamma, pd_beta) =
        std::tie(res_for_gamma_, dy_, pd_gamma_, pd_beta_);
  }
};

using LayerNormGradBetaOpBlockInfo = OpBlockInfo<AscendC::tiling::LayerNormGradBetaTiling>;
// OpInfo::tmp_bytes: scratch bytes of block 0's full tile.
using LayerNormGradBetaOpInfo = TiledOpInfo<AscendC::tiling::LayerNormGradBetaTiling>;

// Runs the operator. Errors (outputs untouched) as RunLayerNormGradOp: InvalidArgument for a
// bad shape, null pointers, blocks outside [1, 65535], an unknown SoC or a tmp byte count the
// API rejects; Unsupported for a product without LayerNormGradBeta; OutOfRange when one row
// does not fit the UB.
// Bits: with one block and one tile, exactly the API's outputs. Otherwise the API's per-tile
// sums added in float (tile order, then block order) and rounded once to T at the end; for half
// each tile's sums are first rounded to half by the API (spec §3.3).
Status RunLayerNormGradBetaOp(const LayerNormGradBetaOpArgs& args,
                              LayerNormGradBetaOpInfo* info = nullptr);

}  // namespace lngrad::ops
