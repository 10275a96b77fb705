// The operator's tiling in GM, written by the host (layernorm_grad_op.cpp) and read by the kernel
// (layernorm_grad_kernel.cpp): a header, then one entry per block. Plain 4-byte fields only, so
// the kernel copies it word by word.
#pragma once

#include <cstdint>

#include "kernel_tiling/kernel_tiling.h"

namespace lngrad_example {

struct LayerNormGradOpHeader {
  uint32_t dtype;               // 0: float, 1: half
  uint32_t isReuseSource;       // template argument of LayerNormGrad
  uint32_t useSharedTmpBuffer;  // 1: prototype with sharedTmpBuffer (a TBuf of tmpBufferBytes)
  uint32_t tmpBufferBytes;      // TBuf bytes (useSharedTmpBuffer only)
  uint32_t hLength;             // H of every row
  uint32_t statLength;          // elements of the mean/variance GM buffers (rows + padding)
  uint32_t blockNum;            // entries that follow
  float epsilon;                // converted to T in the kernel
};

// Rows [rowStart, rowStart + rowCount) of one block, processed as tileNum tiles of tileRows rows
// and a last tile of tailRows rows (0: none). Each tile is one LayerNormGrad call whose tiling
// the host computed for the tile's shape [1, rows, H, H].
struct LayerNormGradOpBlock {
  uint32_t rowStart;
  uint32_t rowCount;
  uint32_t tileRows;
  uint32_t tileNum;
  uint32_t tailRows;
  uint32_t reserved[3];
  LayerNormGradTiling tileTiling;
  LayerNormGradTiling tailTiling;
};

static_assert(sizeof(LayerNormGradOpHeader) == 32);
static_assert(sizeof(LayerNormGradOpBlock) == 32 + 2 * sizeof(LayerNormGradTiling));

}  // namespace lngrad_example
