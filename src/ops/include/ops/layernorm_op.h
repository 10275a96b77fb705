// Forward LayerNorm operator on the simulated Ascend device: y = (x - mean) /
// sqrt(variance + eps) * gamma + beta, with the per-row mean and biased variance as outputs,
// which is what LayerNormGrad takes.
//
// Rows are split over `blocks` AI cores and walked in tiles sized from the product's UB; each
// tile is one AscendC::LayerNorm call with a tiling from GetLayerNormMaxMinTmpSize /
// GetLayerNormNDTilingInfo for the tile's shape [1, rows, H, H]. See src/ops/README.md.
//
// Link target: lngrad_ops.
#pragma once

#include <cstdint>
#include <tuple>

#include "kernel_tiling/kernel_tiling.h"
#include "lngrad/status.h"
#include "ops/op_common.h"

namespace lngrad::ops {

// What ran.
struct LayerNormOpInfo : TiledOpInfo<AscendC::tiling::LayerNormTiling> {
  uint32_t tile_rows = 0;  // block 0
};

struct LayerNormOpArgs : OpArgs {
  // Host inputs of `dtype`: x [B*S*H], gamma and beta [H]. Not modified; read in place (they
  // must not change during the call).
  const void* x = nullptr;
  const void* gamma = nullptr;
  const void* beta = nullptr;
  // Host outputs of `dtype`: y [B*S*H], mean and variance [B*S]. Never written on an argument
  // or planning error; with staged outputs (launch.outputs; the default in checked mode)
  // written only on success, in place (unchecked mode) y may be partly written by a kernel
  // failure. May overlap the inputs (then always staged).
  void* y = nullptr;
  void* mean = nullptr;
  void* variance = nullptr;
  float epsilon = 1e-5f;  // passed to the API as T

  // All six tensors, in the order above.
  void SetTensors(const void* x_, const void* gamma_, const void* beta_, void* y_, void* mean_,
                  void* variance_) {
    std::tie(x, gamma, beta, y, mean, variance) = std::tie(x_, gamma_, beta_, y_, mean_, variance_);
  }
};

// Errors as RunLayerNormGradOp (outputs untouched, except y by a kernel failure with in-place
// outputs); OutOfRange also when one 32-byte block of rows (8 float or 16 half rows; every tile
// but the last writes whole blocks of mean and variance) does not fit the UB.
Status RunLayerNormOp(const LayerNormOpArgs& args, LayerNormOpInfo* info = nullptr);

}  // namespace lngrad::ops
