// Host tiling for BatchNorm (optiling::BatchNormTiling, AscendC::GetBatchNormMaxMinTmpSize,
// AscendC::GetBatchNormNDTilingInfo) and the Status-returning lngrad::tiling variants. Formulas:
// docs/ascendc_kernels.md, "Normalization beyond LayerNorm (issue 28)".
#pragma once

#include <cstdint>

#include "tiling/tiling_types.h"

namespace optiling {
LNGRAD_TILING_DATA_DEF_FROM_FIELDS(BatchNormTiling, LNGRAD_BATCHNORM_TILING_FIELDS);
}  // namespace optiling

namespace lngrad::tiling {

// Scratch bytes over srcShape {B, S, H} with originSrcShape's B (the reduced axis): with
// sh = ceil32(4*S*H), max = 3 * ceil32(4*B*S*H) + 2*sh, min = 3*k + 2*sh, k = 32*B (float),
// 64*B (half) or 256*B (isBasicBlock, which needs S*H % 64 == 0 and B % 8 == 0).
Status BatchNormMaxMinTmpSize(const ge::Shape& srcShape, const ge::Shape& originSrcShape,
                              uint32_t typeSize, bool isReuseSource, uint32_t& maxValue,
                              uint32_t& minValue, bool isBasicBlock = false);
// Every field of BatchNormTiling for a scratch of stackBufferByteSize bytes: column chunks of
// shCurLength = oneTmpSize / B columns. `tiling` untouched on error.
Status BatchNormNDTilingInfo(const ge::Shape& srcShape, const ge::Shape& originSrcShape,
                             uint32_t stackBufferByteSize, uint32_t typeSize, bool isReuseSource,
                             AscendC::tiling::BatchNormTiling& tiling, bool isBasicBlock = false);

}  // namespace lngrad::tiling

namespace AscendC {
bool GetBatchNormMaxMinTmpSize(const ge::Shape& srcShape, const ge::Shape& originSrcShape,
                               const uint32_t typeSize, const bool isReuseSource,
                               uint32_t& maxValue, uint32_t& minValue,
                               const bool isBasicBlock = false);
bool GetBatchNormNDTilingInfo(const ge::Shape& srcShape, const ge::Shape& originSrcShape,
                              const uint32_t stackBufferByteSize, const uint32_t typeSize,
                              const bool isReuseSource, optiling::BatchNormTiling& tilling,
                              const bool isBasicBlock = false);
bool GetBatchNormNDTilingInfo(const ge::Shape& srcShape, const ge::Shape& originSrcShape,
                              const uint32_t stackBufferByteSize, const uint32_t typeSize,
                              const bool isReuseSource, AscendC::tiling::BatchNormTiling& tilling,
                              const bool isBasicBlock = false);
}  // namespace AscendC
