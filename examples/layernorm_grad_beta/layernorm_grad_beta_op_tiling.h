// The LayerNormGradBeta operator's tiling in GM (host: layernorm_grad_beta_op.cpp, kernels:
// layernorm_grad_beta_kernel.cpp): a header, then one entry per block. 4-byte fields only.
#pragma once

#include <cstdint>

#include "kernel_tiling/kernel_tiling.h"

namespace lngrad_example {

struct LayerNormGradBetaOpHeader {
  uint32_t dtype;               // 0: float, 1: half
  uint32_t isReuseSource;       // template argument of LayerNormGradBeta
  uint32_t useSharedTmpBuffer;  // 1: prototype with sharedTmpBuffer (a TBuf of tmpBufferBytes)
  uint32_t tmpBufferBytes;
  uint32_t hLength;
  uint32_t blockNum;     // entries that follow; also the rows of the partial-sum workspace
  uint32_t combineCols;  // columns per step of the combine kernel
  uint32_t reserved;
};

// Rows [rowStart, rowStart + rowCount) of one block: tileNum tiles of tileRows rows, then a
// tile of tailRows rows (0: none); each tile is one LayerNormGradBeta call.
struct LayerNormGradBetaOpBlock {
  uint32_t rowStart;
  uint32_t rowCount;
  uint32_t tileRows;
  uint32_t tileNum;
  uint32_t tailRows;
  uint32_t reserved[3];
  LayerNormGradBetaTiling tileTiling;
  LayerNormGradBetaTiling tailTiling;
};

static_assert(sizeof(LayerNormGradBetaOpHeader) == 32);
static_assert(sizeof(LayerNormGradBetaOpBlock) == 32 + 2 * sizeof(LayerNormGradBetaTiling));

}  // namespace lngrad_example
