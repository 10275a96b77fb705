// The operators' tiling in GM, written by the host (*_op.cpp) and read by the kernels
// (*_kernel.cpp): an OpTilingHeader, then one OpTilingBlock per block. Plain 4-byte fields only,
// so the kernels copy it word by word (kernel_common.h, CopyTiling).
#pragma once

#include <cstdint>

#include "kernel_tiling/kernel_tiling.h"

namespace lngrad::ops {

struct OpTilingHeader {
  uint32_t dtype;               // 0: float, 1: half
  uint32_t isReuseSource;       // template argument of the API
  uint32_t useSharedTmpBuffer;  // 1: prototype with sharedTmpBuffer (a TBuf of tmpBufferBytes)
  uint32_t tmpBufferBytes;      // TBuf bytes (useSharedTmpBuffer only)
  uint32_t hLength;             // H of every row in UB (storage: originalHLength padded to 32 B)
  // Elements of the per-row [B,S] GM buffers (mean, variance: rows + padding); 0 where the
  // operator has none.
  uint32_t statLength;
  uint32_t blockNum;         // entries that follow (LayerNormGradBeta: also the partial-sum rows)
  float epsilon;             // converted to T in the kernel (unused by LayerNormGradBeta)
  uint32_t originalHLength;  // H of every row in GM (the real H)
  uint32_t reserved[7];
};

// Rows [rowStart, rowStart + rowCount) of one block, processed as tileNum tiles of tileRows rows
// and a last tile of tailRows rows (0: none). Each tile is one API call whose tiling the host
// computed for the tile's shape [1, rows, hLength, H'] (H' = originalHLength or hLength, see
// op_host.h RowPadding).
template <class Tiling>
struct OpTilingBlock {
  uint32_t rowStart;
  uint32_t rowCount;
  uint32_t tileRows;
  uint32_t tileNum;
  uint32_t tailRows;
  uint32_t reserved[3];
  Tiling tileTiling;
  Tiling tailTiling;
};

using LayerNormGradOpBlock = OpTilingBlock<LayerNormGradTiling>;
using LayerNormGradBetaOpBlock = OpTilingBlock<LayerNormGradBetaTiling>;
// The forward LayerNorm operator's tileRows is a multiple of a 32-byte block of rows, so each
// tile writes whole blocks of mean and variance.
using LayerNormOpBlock = OpTilingBlock<LayerNormTiling>;

// Columns per step of the LayerNormGradBeta combine kernel (min(H, this)): a multiple of 16
// (half blocks).
inline constexpr uint32_t kLayerNormGradBetaCombineCols = 4096;

static_assert(sizeof(OpTilingHeader) == 64);
static_assert(sizeof(LayerNormGradOpBlock) == 32 + 2 * sizeof(LayerNormGradTiling));
static_assert(sizeof(LayerNormGradBetaOpBlock) == 32 + 2 * sizeof(LayerNormGradBetaTiling));
static_assert(sizeof(LayerNormOpBlock) == 32 + 2 * sizeof(LayerNormTiling));

}  // namespace lngrad::ops
