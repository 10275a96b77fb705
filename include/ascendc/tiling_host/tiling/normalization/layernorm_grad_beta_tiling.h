// Host tiling for LayerNormGradBeta (spec §3.4-3.6): optiling::LayerNormGradBetaTiling,
// AscendC::GetLayerNormGradBetaMaxMinTmpSize, AscendC::GetLayerNormGradBetaNDTilingInfo, and the
// Status-returning lngrad::tiling variants they wrap. Same numbers on every product.
#pragma once

#include <cstdint>

#include "tiling/tiling_types.h"

namespace AscendC {

constexpr uint32_t LAYERNORM_GRAD_BETA_B16_BYTE_SIZE = 2;
constexpr uint32_t LAYERNORM_GRAD_BETA_FOUR_BUF_NUM = 4;
constexpr uint32_t LAYERNORM_GRAD_BETA_TWO_BUF_NUM = 2;
constexpr uint32_t LAYERNORM_GRAD_BETA_ONE_BUF_NUM = 1;
constexpr uint32_t LAYERNORM_GRAD_BETA_INDEX_BLENGTH = 0;
constexpr uint32_t LAYERNORM_GRAD_BETA_INDEX_SLENGTH = 1;
constexpr uint32_t LAYERNORM_GRAD_BETA_INDEX_HLENGTH = 2;
constexpr uint32_t LAYERNORM_GRAD_BETA_INDEX_ORIGINALHLENGTH = 3;

}  // namespace AscendC

namespace lngrad::tiling {

// Scratch bytes for LayerNormGradBeta. srcShape = {B, S, storageH, originH} (4 dims, each > 0,
// B*S*H < 2^32); typeSize 2 or 4; isReuseSource has no effect. half: max 4*BSH*4, min 4*H*4;
// float: max 2*BSH*4, min 2*H*4. Outputs not written on error.
Status LayerNormGradBetaMaxMinTmpSize(const ge::Shape& srcShape, uint32_t typeSize,
                                      bool isReuseSource, uint32_t& maxValue, uint32_t& minValue);

// Fills every field (spec §3.6) for a scratch of stackBufferSize BYTES; the struct's
// stackBufferSize is stored in float elements (bytes / 4). "stackBufferSize is not enough."
// when bytes/4 < 2*H or no whole row fits a chunk. `tiling` untouched on error.
Status LayerNormGradBetaNDTilingInfo(const ge::Shape& srcShape, uint32_t stackBufferSize,
                                     uint32_t typeSize, bool isReuseSource,
                                     AscendC::tiling::LayerNormGradBetaTiling& tiling);

}  // namespace lngrad::tiling

namespace AscendC {

// Official API. Bad input: device message on stderr, outputs untouched,
// lngrad::tiling::LastTilingStatus() set; never throws or aborts.
void GetLayerNormGradBetaMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                                       const bool isReuseSource, uint32_t& maxValue,
                                       uint32_t& minValue);
void GetLayerNormGradBetaNDTilingInfo(const ge::Shape srcShape, const uint32_t stackBufferSize,
                                      const uint32_t typeSize, const bool isReuseSource,
                                      optiling::LayerNormGradBetaTiling& tiling);
void GetLayerNormGradBetaNDTilingInfo(const ge::Shape srcShape, const uint32_t stackBufferSize,
                                      const uint32_t typeSize, const bool isReuseSource,
                                      AscendC::tiling::LayerNormGradBetaTiling& tiling);

}  // namespace AscendC
