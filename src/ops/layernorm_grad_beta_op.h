// LayerNormGradBeta operator on the simulated Ascend device (host API of
// examples/layernorm_grad_beta).
//
// pd_gamma[c] = sum over all B*S rows of dy*resForGamma, pd_beta[c] = sum of dy. The rows are
// split over `blocks` AI cores; each core walks its rows in tiles sized from the product's UB
// (one AscendC::LayerNormGradBeta call per tile, tiling from GetLayerNormGradBetaMaxMinTmpSize /
// GetLayerNormGradBetaNDTilingInfo for the tile's shape [1, rows, H, H]) and adds the tiles'
// results in float; a second one-block launch adds the blocks' partial sums in block order.
// See README.md.
//
// Link target: lngrad_example_ops. Include root: examples/.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/op_common.h"
#include "kernel_tiling/kernel_tiling.h"
#include "lngrad/status.h"

namespace lngrad::examples {

struct LayerNormGradBetaOpArgs {
  OpDType dtype = OpDType::kFloat32;
  int64_t b = 0, s = 0, h = 0;  // [B,S,H]; H*sizeof(T) must be a multiple of 32 bytes
  // Host inputs of `dtype` (float, or binary16 bits), [B*S*H] each. Not modified; read in place
  // (they must not change during the call).
  const void* res_for_gamma = nullptr;
  const void* dy = nullptr;
  // Host outputs of `dtype`, [H] each. Written only when the call succeeds (always staged,
  // whatever launch.outputs says).
  void* pd_gamma = nullptr;
  void* pd_beta = nullptr;
  bool reuse_source =
      false;    // isReuseSource (float: the API overwrites its UB copy of resForGamma)
  TmpSize tmp;  // scratch per tile (default: the minimum)
  LaunchConfig launch;
};

struct LayerNormGradBetaOpBlockInfo {
  uint32_t row_start = 0, row_count = 0;
  uint32_t tile_rows = 0, tile_num = 0, tail_rows = 0;
  AscendC::tiling::LayerNormGradBetaTiling tile_tiling, tail_tiling;
};

struct LayerNormGradBetaOpInfo {
  std::string soc;
  std::string product_line;
  uint32_t arch = 0;
  uint32_t blocks_requested = 0;
  uint32_t blocks_used = 0;
  std::string prototype;   // "PopStackBuffer" or "sharedTmpBuffer"
  uint32_t tmp_bytes = 0;  // scratch bytes of block 0's full tile
  uint64_t ub_bytes = 0;   // block 0: TPipe allocations + scratch
  uint64_t tiles = 0;      // LayerNormGradBeta calls over all blocks
  std::vector<LayerNormGradBetaOpBlockInfo> blocks;
};

// Runs the operator. Errors (outputs untouched) as RunLayerNormGradOp: InvalidArgument for a
// bad shape, null pointers, blocks outside [1, 65535], an unknown SoC or a tmp byte count the
// API rejects; Unsupported for a product without LayerNormGradBeta; OutOfRange when one row
// does not fit the UB.
// Bits: with one block and one tile, exactly the API's outputs. Otherwise the API's per-tile
// sums added in float (tile order, then block order) and rounded once to T at the end; for half
// each tile's sums are first rounded to half by the API (spec §3.3).
Status RunLayerNormGradBetaOp(const LayerNormGradBetaOpArgs& args,
                              LayerNormGradBetaOpInfo* info = nullptr);

}  // namespace lngrad::examples
