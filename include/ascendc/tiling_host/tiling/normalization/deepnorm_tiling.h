// Host tiling for DeepNorm (optiling::DeepNormTiling, AscendC::GetDeepNormMaxMinTmpSize,
// AscendC::GetDeepNormTilingInfo) and the Status-returning lngrad::tiling variants. Formulas:
// docs/ascendc_kernels.md, "Normalization beyond LayerNorm (issue 28)".
#pragma once

#include <cstdint>

#include "tiling/tiling_types.h"

namespace optiling {
LNGRAD_TILING_DATA_DEF_FROM_FIELDS(DeepNormTiling, LNGRAD_DEEPNORM_TILING_FIELDS);
}  // namespace optiling

namespace lngrad::tiling {

// Scratch bytes over srcShape = {B, S, H}: with bs = ceil32(4*B*S), bsh = ceil32(4*B*S*H),
// h = ceil32(4*H), n = 2 for float + isReuseSource else 3: max = n*bsh + 2*bs, min = n*h + 2*bs.
// Checks: typeSize 2 or 4, 3 dims, B*S > 0, H > 0, H*typeSize % 32 == 0, H <= 2040, and for
// isBasicBlock H % 64 == 0 and B*S % 8 == 0. Outputs not written on error.
Status DeepNormMaxMinTmpSize(const ge::Shape& srcShape, uint32_t typeSize, bool isReuseSource,
                             bool isBasicBlock, uint32_t& maxValue, uint32_t& minValue);
// Every field of DeepNormTiling (LayerNorm's chunk layout, float mean/variance staging for half)
// for a scratch of stackBufferSize bytes. `tiling` untouched on error.
Status DeepNormTilingInfo(const ge::Shape& srcShape, const ge::Shape& originSrcShape,
                          uint32_t stackBufferSize, uint32_t typeSize, bool isReuseSource,
                          bool isBasicBlock, AscendC::tiling::DeepNormTiling& tiling);

}  // namespace lngrad::tiling

namespace AscendC {
bool GetDeepNormMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                              const bool isReuseSource, const bool isBasicBlock, uint32_t& maxValue,
                              uint32_t& minValue);
bool GetDeepNormTilingInfo(const ge::Shape& srcShape, const ge::Shape& originSrcShape,
                           const uint32_t stackBufferSize, const uint32_t typeSize,
                           const bool isReuseSource, const bool isBasicBlock,
                           optiling::DeepNormTiling& tiling);
bool GetDeepNormTilingInfo(const ge::Shape& srcShape, const ge::Shape& originSrcShape,
                           const uint32_t stackBufferSize, const uint32_t typeSize,
                           const bool isReuseSource, const bool isBasicBlock,
                           AscendC::tiling::DeepNormTiling& tiling);
}  // namespace AscendC
