// Host tiling for GroupNorm (optiling::GroupNormTiling, AscendC::GetGroupNormMaxMinTmpSize,
// AscendC::GetGroupNormNDTilingInfo) and the Status-returning lngrad::tiling variants. Formulas:
// docs/ascendc_kernels.md, "Normalization beyond LayerNorm (issue 28)". The GroupNorm kernel API
// is lib/normalization/groupnorm.h.
#pragma once

#include <cstdint>

#include "tiling/tiling_types.h"

namespace optiling {
LNGRAD_TILING_DATA_DEF_FROM_FIELDS(GroupNormTiling, LNGRAD_GROUPNORM_TILING_FIELDS);
}  // namespace optiling

namespace lngrad::tiling {

// Scratch bytes over srcShape {N, C, H, W} (4 dims, shape size > 0, typeSize 2 or 4,
// groupNum > 0, C > 0): with hwA = ceil32(H*W*typeSize) / typeSize * 4 bytes and mv =
// ceil32(4*N*groupNum), max = k * N*C*hwA + 2*mv, min = k * (C/groupNum)*hwA + 2*mv, k = 2 for
// float + isReuseSource, else 3. Outputs not written on error.
Status GroupNormMaxMinTmpSize(const ge::Shape& srcShape, uint32_t typeSize, bool isReuseSource,
                              uint32_t groupNum, uint32_t& maxValue, uint32_t& minValue);
// Every field of GroupNormTiling for a scratch of stackBufferSize bytes (rounded down to 32).
// `tiling` untouched on error (the toolkit returns without writing it).
Status GroupNormNDTilingInfo(const ge::Shape& srcShape, uint32_t stackBufferSize, uint32_t typeSize,
                             bool isReuseSource, uint32_t groupNum,
                             AscendC::tiling::GroupNormTiling& tiling);

}  // namespace lngrad::tiling

namespace AscendC {
void GetGroupNormMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                               const bool isReuseSource, const uint32_t groupNum,
                               uint32_t& maxValue, uint32_t& minValue);
void GetGroupNormNDTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize,
                              const uint32_t typeSize, const bool isReuseSource,
                              const uint32_t groupNum, optiling::GroupNormTiling& tiling);
void GetGroupNormNDTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize,
                              const uint32_t typeSize, const bool isReuseSource,
                              const uint32_t groupNum, AscendC::tiling::GroupNormTiling& tiling);
}  // namespace AscendC
