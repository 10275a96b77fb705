// LayerNormGrad operator on the simulated Ascend device.
//
// Runs AscendC::LayerNormGrad over a whole [B,S,H] problem: the rows are split over `blocks`
// AI cores, each core walks its rows in tiles sized from the product's UB, and every tile is
// one LayerNormGrad call with a tiling computed on the host by GetLayerNormGradMaxMinTmpSize /
// GetLayerNormGradNDTilingInfo for the tile's shape [1, rows, H, H]. See src/ops/README.md.
//
// Link target: lngrad_ops.
#pragma once

#include <cstdint>
#include <tuple>

#include "kernel_tiling/kernel_tiling.h"
#include "lngrad/status.h"
#include "ops/op_common.h"

namespace lngrad::ops {

// OpArgs::reuse_source: isReuseSource (only float reuses dy and x; half ignores it).
struct LayerNormGradOpArgs : OpArgs {
  // Host inputs of `dtype` (float, or IEEE binary16 bits for kFloat16): dy and x [B*S*H],
  // mean and variance [B*S] (biased variance of forward LayerNorm), gamma [H]. Not modified;
  // dy, x and gamma are read in place (they must not change during the call).
  const void* dy = nullptr;
  const void* x = nullptr;
  const void* mean = nullptr;
  const void* variance = nullptr;
  const void* gamma = nullptr;
  // Host outputs of `dtype`, [B*S*H] each. Written in place or staged (launch.outputs): never
  // written on an argument or planning error; with staged outputs (the default in checked
  // mode) written only when the call succeeds. May overlap the inputs (then always staged).
  void* pd_x = nullptr;
  void* res_for_gamma = nullptr;
  float epsilon = 1e-5f;  // the kernel passes it to the API as T (rounded to half for kFloat16)

  // All seven tensors, in the order above.
  void SetTensors(const void* dy_, const void* x_, const void* mean_, const void* variance_,
                  const void* gamma_, void* pd_x_, void* res_for_gamma_) {
    std::tie(dy, x, mean, variance, gamma, pd_x, res_for_gamma) =
        std::tie(dy_, x_, mean_, variance_, gamma_, pd_x_, res_for_gamma_);
  }
};

using LayerNormGradOpBlockInfo = OpBlockInfo<AscendC::tiling::LayerNormGradTiling>;

// What ran. OpInfo::tmp_bytes: stackBufferSize of block 0's full tile.
struct LayerNormGradOpInfo : TiledOpInfo<AscendC::tiling::LayerNormGradTiling> {
  uint64_t scratch_bytes = 0;  // bytes of scratch that tile's layout touches (spec §2.8)
  // true when even one row did not fit with the API's tiling (nohCalSize rounded up to a
  // 32-byte block of rows, spec §2.5 step 4, makes the scratch layout span at least 8 or 16
  // rows): the tiles then use a single-chunk tiling derived from it (see src/ops/README.md).
  bool single_chunk_tiling = false;
  // true when the minimum of GetLayerNormGradMaxMinTmpSize was below what
  // GetLayerNormGradNDTilingInfo accepts for a tile (half, single-row tiles: the size formula
  // counts sizeof(half) per element, the buffers are float; spec §2.4), so the tile got one float
  // row per buffer instead.
  bool min_tmp_raised = false;
};

// Runs the operator. Errors (nothing written to the outputs, except by a kernel failure with
// in-place outputs, LaunchConfig::outputs): InvalidArgument for a bad shape
// (a dimension <= 0, H*sizeof(T) not a multiple of 32), null pointers, blocks outside
// [1, 65535], an unknown SoC or a tmp byte count the API rejects; Unsupported for a product
// without LayerNormGrad (spec §7.1); OutOfRange when a single row does not fit the product's UB
// with the requested scratch. Kernel check failures come back as the launcher's error.
// Bits: every output element is the device algorithm's (spec §1.7-§1.10, §1.13); rows are
// independent, so the bits do not depend on blocks or tiles.
// `info` (optional) is filled when the call succeeds.
Status RunLayerNormGradOp(const LayerNormGradOpArgs& args, LayerNormGradOpInfo* info = nullptr);

}  // namespace lngrad::ops
