// Host tiling of the [A, R] normalization family (spec §10): AscendC::GetNormalizeMaxMinTmpSize,
// the isComputeRstd overloads of AscendC::GetLayerNormNDTilingInfo that fill
// LayerNormSeparateTiling, and their Status-returning lngrad::tiling variants. Formulas: spec
// §10.6 (from the toolkit's normalize_tiling_impl.cpp and layernorm_tiling_impl.cpp).
#pragma once

#include <cstdint>

#include "tiling/tiling_types.h"

namespace lngrad::tiling {

// Scratch bytes for Normalize over srcShape = {A, R} (2 dims, each > 0); typeSizeU (gamma/beta)
// and typeSizeT (x/output) 2 or 4; isComputeRstd must be true and isOnlyOutput false (the
// toolkit supports nothing else). Arch 3510: 0 and 0. Otherwise, with Rp = R rounded up to
// 32/typeSizeT elements: max = 2*ceil32(Rp*4) + 2*ceil32(ceil8(A)*Rp*4),
// min = max(ceil32(A*4), k*ceil32(Rp*4)), k = 2 for float gamma/beta, 4 for half.
// Outputs not written on error.
Status NormalizeMaxMinTmpSize(const ge::Shape& srcShape, uint32_t typeSizeU, uint32_t typeSizeT,
                              bool isReuseSource, bool isComputeRstd, bool isOnlyOutput,
                              uint32_t& maxValue, uint32_t& minValue);

// LayerNormSeparateTiling for the [A, R] LayerNorm (mean + rstd outputs), srcShape = {A, R}
// (2 dims, each > 0), typeSize 2 or 4, stackBufferSize in BYTES. Arch 2201/2002: variance at
// float 0 (ceil8(A) floats), two work buffers of oneTmpSize floats (whole padded rows), chunks
// as LayerNormTiling's, rValueBack = 1/R; an error when the buffer cannot hold the variance and
// one padded row per work buffer. Arch 3510: only rLength, oneTmpSize (= k, log2 of
// rHeadLength), rHeadLength (largest power of two >= 64 with 2*rHeadLength > R), k2Rec and
// k2RRec are set; every other field is 0. `tiling` untouched on error.
Status LayerNormSeparateNDTilingInfo(const ge::Shape& srcShape, uint32_t stackBufferSize,
                                     uint32_t typeSize, bool isReuseSource, bool isComputeRstd,
                                     AscendC::tiling::LayerNormSeparateTiling& tiling);

}  // namespace lngrad::tiling

namespace AscendC {

// Official API. Bad input: message on stderr, outputs untouched,
// lngrad::tiling::LastTilingStatus() set; never throws or aborts.
void GetNormalizeMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSizeU,
                               const uint32_t typeSizeT, const bool isReuseSource,
                               const bool isComputeRstd, const bool isOnlyOutput,
                               uint32_t& maxValue, uint32_t& minValue);
// On 3510 the optiling overload sets only the five fields above (the others keep what the
// object held, as the toolkit's does); the AscendC::tiling overload zeroes the others.
void GetLayerNormNDTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize,
                              const uint32_t typeSize, const bool isReuseSource,
                              const bool isComputeRstd, optiling::LayerNormSeparateTiling& tiling);
void GetLayerNormNDTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize,
                              const uint32_t typeSize, const bool isReuseSource,
                              const bool isComputeRstd,
                              AscendC::tiling::LayerNormSeparateTiling& tiling);

}  // namespace AscendC
