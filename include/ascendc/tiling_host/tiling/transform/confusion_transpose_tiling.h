// Host tiling of ConfusionTranspose / Transpose (the vendor's
// adv_api/transpose/confusion_transpose_tiling.h): GetTransposeMaxMinTmpSize,
// GetConfusionTransposeMaxMinTmpSize, GetTransposeTilingInfo, GetConfusionTransposeTilingInfo,
// GetConfusionTransposeOnlyTilingInfo and the optiling class ConfusionTransposeTiling (param0..17).
// transposeTypeIn is the TransposeType's value. Formulas
// (impl/adv_api/tiling/transpose/confusion_transpose_tiling_impl.cpp), ceil16(x) = x rounded up
// to 16, bs = 32 / typeSize:
// - NZ2ND_0213 / NZ2NZ_0213 (1, 2), srcShape {B, A1, A2, A3}: scratch max = ceil16(A2) * 16 *
//   typeSize, min = 256 * typeSize; params 0..15 = bs, B, A1, alignA3 = ceil16(A3), alignA2 =
//   ceil16(A2), widthTiling = ceil(A3 / 16), newPopSize = (stackBufferSize / typeSize / 256) * 256,
//   newPopH = newPopSize / 16, needSize = alignA2 * 16, mainBlocks = needSize / newPopSize,
//   tailSize = needSize % newPopSize, alignA2 * alignA3, batchOffset = A1 * alignA2 * alignA3,
//   A1 * alignA3, A1 * 16, mainOffset = newPopH * mainBlocks * A1 * alignA3.
// - NZ2NZ_012_WITH_N (3), NZ2ND_012_WITH_N (4), NZ2ND/NZ2NZ_012_WITHOUT_N (5, 6), srcShape
//   {B, N, S, H/N}: scratch 2 * 256 * typeSize both; params as the toolkit lists them (see the
//   source for each field's formula).
// - ND2ND_ONLY (7), srcShape {H, W}: scratch 0; params bs, H, W, H / 16, H * bs * typeSize / 32,
//   W / bs.
// - ND2ND_021 (13, {H, W} or {N, H, W}), ND2ND_102 and ND2ND_210 (14, 15, {N, H, W}): scratch 0;
//   params the three dims (1 first for a 2-dim 021 shape).
// Another type leaves the outputs untouched, as the toolkit's. Errors (typeSize 0, a shape with
// too few dims for the type, a newPopSize of 0 for the 0213 types): message on stderr, outputs
// untouched, lngrad::tiling::LastTilingStatus() set. The optiling overloads write every param
// (those the type does not set as 0).
#pragma once

#include <cstdint>

#include "tiling/tiling_types.h"

namespace optiling {
LNGRAD_TILING_DATA_DEF_FROM_FIELDS(ConfusionTransposeTiling,
                                   LNGRAD_CONFUSION_TRANSPOSE_TILING_FIELDS);
}  // namespace optiling

namespace lngrad::tiling {

Status TransposeMaxMinTmpSize(const ge::Shape& srcShape, uint32_t typeSize,
                              uint32_t transposeTypeIn, uint32_t& maxValue, uint32_t& minValue);
Status TransposeTilingInfo(const ge::Shape& srcShape, uint32_t stackBufferSize, uint32_t typeSize,
                           uint32_t transposeTypeIn,
                           AscendC::tiling::ConfusionTransposeTiling& tiling);

}  // namespace lngrad::tiling

namespace AscendC {

void GetConfusionTransposeMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                                        const uint32_t transposeTypeIn, uint32_t& maxValue,
                                        uint32_t& minValue);
void GetTransposeMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                               const uint32_t transposeTypeIn, uint32_t& maxValue,
                               uint32_t& minValue);
void GetConfusionTransposeTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize,
                                     const uint32_t typeSize, const uint32_t transposeTypeIn,
                                     optiling::ConfusionTransposeTiling& tiling);
void GetTransposeTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize,
                            const uint32_t typeSize, const uint32_t transposeTypeIn,
                            optiling::ConfusionTransposeTiling& tiling);
void GetConfusionTransposeOnlyTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize,
                                         const uint32_t typeSize,
                                         optiling::ConfusionTransposeTiling& tiling);
void GetConfusionTransposeTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize,
                                     const uint32_t typeSize, const uint32_t transposeTypeIn,
                                     AscendC::tiling::ConfusionTransposeTiling& tiling);
void GetTransposeTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize,
                            const uint32_t typeSize, const uint32_t transposeTypeIn,
                            AscendC::tiling::ConfusionTransposeTiling& tiling);
void GetConfusionTransposeOnlyTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize,
                                         const uint32_t typeSize,
                                         AscendC::tiling::ConfusionTransposeTiling& tiling);

}  // namespace AscendC
