// Host tiling of Pad and UnPad (the vendor's adv_api/pad/pad_tiling.h): GetPadMaxMinTmpSize,
// PadTilingFunc, GetUnPadMaxMinTmpSize, UnPadTilingFunc and the optiling classes PadTiling and
// UnPadTiling. Formulas (impl/adv_api/tiling/pad/pad_tiling_impl.cpp), srcShape = {H, W},
// E = 32 / typeSize elements per block:
// - Pad scratch: max = ceil16(H*W) * E * 2 * typeSize bytes, min = 16 * E * 2 * typeSize.
// - PadTilingFunc: srcHeight = H, srcWidth = W, srcOriWidth = oriSrcShape[1],
//   widthWithoutLastBlock = W - E, blocksPerRow = W * typeSize / 32, heightTiling = 255,
//   heightFractal = H / 255, heightFractalTail = H % 255, mainLoopOffset = 255 * W,
//   tailBlockOffset = heightFractal * 255 * W + widthWithoutLastBlock. With stackBufferSize
//   > 0 also: tmpBuffer1BlockNum = stackBufferSize / typeSize / (512 / typeSize) / 2,
//   tmpBuffer1RowNum = widthTiling = brcbTiling = 16 * tmpBuffer1BlockNum, tmpBuffer2Offset =
//   tmpBuffer1BlockNum * 512 / typeSize, widthFractal(Tail) = W / (%) widthTiling,
//   widthFractalTailAlingned = widthFractalTail rounded up to E, brcbFractal(Tail) = H*W /
//   (%) brcbTiling, maxRepeatTimes = 254, brcb*RepeatTimes = (x / 8) / 254, *Tail = (x / 8) %
//   254 for x = brcbTiling and brcbFractalTail. The unsigned arithmetic wraps as the toolkit's.
// - GetUnPadMaxMinTmpSize: 0 and 0 on arch 2201 and 3510, the Pad formulas elsewhere.
// - UnPadTilingFunc: srcHeight, srcWidth; with stackBufferSize > 0 also tmpBuffer1BlockNum,
//   tmpBuffer1RowNum, tmpBuffer2Offset, widthTiling as Pad's, widthFractal = ceil(W /
//   widthTiling), widthFractalTail = W % widthTiling or widthTiling when that is 0.
// Errors (typeSize not 2 or 4, a shape not 2-dim, oriSrcShape larger than srcShape, a
// stackBufferSize too small for one tmp block): message on stderr, outputs untouched,
// lngrad::tiling::LastTilingStatus() set.
#pragma once

#include <cstdint>

#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_types.h"

namespace optiling {
LNGRAD_TILING_DATA_DEF_FROM_FIELDS(PadTiling, LNGRAD_PAD_TILING_FIELDS);
LNGRAD_TILING_DATA_DEF_FROM_FIELDS(UnPadTiling, LNGRAD_UNPAD_TILING_FIELDS);
}  // namespace optiling

namespace lngrad::tiling {

Status PadMaxMinTmpSize(const ge::Shape& srcShape, uint32_t typeSize, uint32_t& maxValue,
                        uint32_t& minValue);
Status PadTiling(const ge::Shape& srcShape, const ge::Shape& oriSrcShape, uint32_t stackBufferSize,
                 uint32_t typeSize, AscendC::tiling::PadTiling& tiling);
Status UnPadMaxMinTmpSize(const platform_ascendc::PlatformAscendC& platform,
                          const ge::Shape& srcShape, uint32_t typeSize, uint32_t& maxValue,
                          uint32_t& minValue);
Status UnPadTiling(const ge::Shape& srcShape, uint32_t stackBufferSize, uint32_t typeSize,
                   AscendC::tiling::UnPadTiling& tiling);

}  // namespace lngrad::tiling

namespace AscendC {

void GetPadMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                         uint32_t& minValue);
void PadTilingFunc(const ge::Shape srcShape, const ge::Shape oriSrcShape,
                   const uint32_t stackBufferSize, const uint32_t typeSize,
                   optiling::PadTiling& tiling);
void PadTilingFunc(const ge::Shape srcShape, const ge::Shape oriSrcShape,
                   const uint32_t stackBufferSize, const uint32_t typeSize,
                   AscendC::tiling::PadTiling& tiling);
void GetUnPadMaxMinTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform,
                           const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                           uint32_t& minValue);
void UnPadTilingFunc(const ge::Shape srcShape, const uint32_t stackBufferSize,
                     const uint32_t typeSize, optiling::UnPadTiling& tiling);
void UnPadTilingFunc(const ge::Shape srcShape, const uint32_t stackBufferSize,
                     const uint32_t typeSize, AscendC::tiling::UnPadTiling& tiling);

}  // namespace AscendC
