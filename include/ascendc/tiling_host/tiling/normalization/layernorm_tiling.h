// Host tiling for the forward LayerNorm over [B, S, H] (spec §4): optiling::LayerNormTiling,
// AscendC::GetLayerNormMaxMinTmpSize (both overloads), AscendC::GetLayerNormNDTilingInfo (and the
// deprecated GetLayerNormNDTillingInfo), and the Status-returning lngrad::tiling variants.
// Formulas: docs/ascendc_compat.md ("Host tiling") (learned from hicann/asc-devkit
// impl/adv_api/tiling/normalization/layernorm_tiling_impl.cpp).
#pragma once

#include <cstdint>

#include "tiling/tiling_types.h"

namespace lngrad::tiling {

// Scratch bytes for LayerNorm over srcShape = {B, S, storageH, originH} (4 dims, each > 0,
// B*S*H < 2^32), typeSize 2 or 4. Same on every product. With mv = ceil32(B*S*4),
// in = ceil32(B*S*H*4), row = ceil32(H*4): float+reuse max 2*in + 2*mv, min 2*row + 2*mv;
// otherwise max 3*in + 2*mv, min 3*row + 2*mv. Outputs not written on error.
Status LayerNormMaxMinTmpSize(const ge::Shape& srcShape, uint32_t typeSize, bool isReuseSource,
                              uint32_t& maxValue, uint32_t& minValue);

// Scratch bytes for the [A, R] LayerNorm family (mean + rstd outputs). srcShape = {A, R}
// (2 dims, each > 0); typeSize 2 or 4; isOnlyOutput must be false; on 2201/2002 isComputeRstd
// must be true. Formulas in docs/ascendc_compat.md ("Host tiling"). Outputs not written on error.
Status LayerNormMaxMinTmpSize(const ge::Shape& srcShape, uint32_t typeSize, bool isReuseSource,
                              bool isComputeRstd, bool isOnlyOutput, uint32_t& maxValue,
                              uint32_t& minValue);

// Fills every field of LayerNormTiling for a scratch of stackBufferSize BYTES. Errors: the
// argument checks above, and a buffer that cannot hold one row per temporary buffer (after the
// mean/variance staging that half needs). `tiling` untouched on error.
Status LayerNormNDTilingInfo(const ge::Shape& srcShape, uint32_t stackBufferSize, uint32_t typeSize,
                             bool isReuseSource, AscendC::tiling::LayerNormTiling& tiling);

}  // namespace lngrad::tiling

namespace AscendC {

// Official API. Bad input: message on stderr, outputs untouched,
// lngrad::tiling::LastTilingStatus() set; never throws or aborts.
void GetLayerNormMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                               const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue);
void GetLayerNormMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                               const bool isReuseSource, const bool isComputeRstd,
                               const bool isOnlyOutput, uint32_t& maxValue, uint32_t& minValue);
void GetLayerNormNDTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize,
                              const uint32_t typeSize, const bool isReuseSource,
                              optiling::LayerNormTiling& tiling);
void GetLayerNormNDTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize,
                              const uint32_t typeSize, const bool isReuseSource,
                              AscendC::tiling::LayerNormTiling& tiling);
// Deprecated spelling kept by the toolkit; same as GetLayerNormNDTilingInfo.
void GetLayerNormNDTillingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize,
                               const uint32_t typeSize, const bool isReuseSource,
                               optiling::LayerNormTiling& tilling);

}  // namespace AscendC
