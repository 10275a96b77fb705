// The forward LayerNorm operator's tiling in GM (host: layernorm_op.cpp, kernel:
// layernorm_kernel.cpp): a header, then one entry per block. 4-byte fields only.
#pragma once

#include <cstdint>

#include "kernel_tiling/kernel_tiling.h"

namespace lngrad_example {

struct LayerNormOpHeader {
  uint32_t dtype;               // 0: float, 1: half
  uint32_t isReuseSource;       // template argument of LayerNorm
  uint32_t useSharedTmpBuffer;  // 1: prototype with sharedTmpBuffer (a TBuf of tmpBufferBytes)
  uint32_t tmpBufferBytes;
  uint32_t hLength;
  uint32_t statLength;  // elements of the mean/variance GM buffers (rows + padding)
  uint32_t blockNum;
  float epsilon;  // converted to T in the kernel
};

// Rows [rowStart, rowStart + rowCount): tileNum tiles of tileRows rows (a multiple of a 32-byte
// block of rows, so each tile writes whole blocks of mean and variance), then tailRows rows.
struct LayerNormOpBlock {
  uint32_t rowStart;
  uint32_t rowCount;
  uint32_t tileRows;
  uint32_t tileNum;
  uint32_t tailRows;
  uint32_t reserved[3];
  LayerNormTiling tileTiling;
  LayerNormTiling tailTiling;
};

static_assert(sizeof(LayerNormOpHeader) == 32);
static_assert(sizeof(LayerNormOpBlock) == 32 + 2 * sizeof(LayerNormTiling));

}  // namespace lngrad_example
