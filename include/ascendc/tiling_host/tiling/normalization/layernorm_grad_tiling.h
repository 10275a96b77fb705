// Host tiling for LayerNormGrad (spec §2): optiling::LayerNormGradTiling,
// AscendC::GetLayerNormGradMaxMinTmpSize, AscendC::GetLayerNormGradNDTilingInfo, and the
// Status-returning lngrad::tiling variants they wrap.
//
// The numbers follow the branch of the current product (lngrad::CurrentProduct()):
// arch 2201/2002 (spec §2.4, §2.5) or arch 3510 (register-based kernel).
#pragma once

#include <cstdint>

#include "tiling/tiling_types.h"

namespace AscendC {

constexpr uint32_t LAYERNORM_GRAD_ONE_BLOCK_SIZE_OF_FLOAT = 8;
constexpr uint32_t LAYERNORM_GRAD_B32_BYTE_SIZE = 4;
constexpr uint32_t LAYERNORM_GRAD_B16_BYTE_SIZE = 2;
constexpr uint32_t LAYERNORM_GRAD_THREE_TIMES = 3;
constexpr uint32_t LAYERNORM_GRAD_TWO_TIMES = 2;
constexpr uint32_t LAYERNORM_GRAD_REUSE_FLOAT_BUF_NUM = 4;
constexpr uint32_t LAYERNORM_GRAD_HALF_BUF_NUM = 9;
constexpr uint32_t LAYERNORM_GRAD_FLOAT_BUF_NUM = 6;
constexpr uint32_t LAYERNORM_GRAD_DAVID_BUF_NUM = 2;
constexpr uint32_t LAYERNORM_GRAD_B32_DATA_NUM_PER_BLOCK = 8;
constexpr uint32_t LAYERNORM_GRAD_B16_DATA_NUM_PER_BLOCK = 16;

}  // namespace AscendC

namespace lngrad::tiling {

// Scratch bytes for LayerNormGrad on the current product.
// srcShape = {B, S, storageH, originH} (4 dims, each > 0, B*S*H < 2^32); typeSize = sizeof(T),
// 2 (half) or 4 (float). 2201/2002: n*max(BSH, H*H)*typeSize and n*min(BSH, H*H)*typeSize with
// n = 9 (half), 4 (float, reuse) or 6 (float); 3510: 0 for float+reuse, else 2*ceil8(H)*4.
// On error (message as the device logs it, see docs/ascendc_compat.md ("Host tiling")) maxValue and
// minValue are not written.
Status LayerNormGradMaxMinTmpSize(const ge::Shape& srcShape, uint32_t typeSize, bool isReuseSource,
                                  uint32_t& maxValue, uint32_t& minValue);

// Fills every field of `tiling` (spec §2.1, §2.5) for a scratch buffer of stackBufferSize BYTES.
// Errors: the argument checks above, "stackBufferSize is not enough." when one buffer cannot
// hold a single row (2201/2002: stackBufferSize < 4*n*H). `tiling` is untouched on error.
// Note (spec §2.8): on 2201/2002 the rows per loop are rounded up to a 32-byte block of T, so the
// layout can exceed stackBufferSize; LayerNormGradScratchFloats() gives what the kernel touches.
Status LayerNormGradNDTilingInfo(const ge::Shape& srcShape, uint32_t stackBufferSize,
                                 uint32_t typeSize, bool isReuseSource,
                                 AscendC::tiling::LayerNormGradTiling& tiling);

// lngrad's own plan (the vendor has no such function; its unit tests build such tilings by hand,
// spec §5.7): the single-chunk tiling of arch 2201/2002, for rows whose API tiling does not fit
// the UB. The same layout as LayerNormGradNDTilingInfo, for a scratch of exactly n buffers of
// B*S*H floats (n = 9 half, 4 float+reuse, 6 float): stackBufferSize = n*B*S*H*4,
// oneCalSize = B*S*H, nohCalSize = B*S (not rounded up to a 32-byte block of rows: with one
// chunk the per-row [B,S] offsets never move), loopNum 1, tailSize and nohTailSize 0, every
// position k*oneCalSize as in the API's layout, every size oneCalSize. The kernel touches
// exactly stackBufferSize bytes. Errors: the argument checks of LayerNormGradNDTilingInfo
// (prefix "[LayerNormGrad][LayerNormGradSingleChunkTilingInfo] "), OutOfRange when
// n*B*S*H*4 does not fit in uint32, Unsupported on arch 3510 (the register kernel has no
// layout). `tiling` is untouched on error.
Status LayerNormGradSingleChunkTilingInfo(const ge::Shape& srcShape, uint32_t typeSize,
                                          bool isReuseSource,
                                          AscendC::tiling::LayerNormGradTiling& tiling);

// Float elements of scratch that the 2201/2002 kernel touches with this tiling: the highest
// buffer position in use + oneCalSize (spec §2.7 "end"). For a 3510 tiling (oneCalSize 1): the
// two float rows of the register kernel, 2*ceil8(H), or 0 for float+reuse.
uint64_t LayerNormGradScratchFloats(const AscendC::tiling::LayerNormGradTiling& tiling,
                                    uint32_t typeSize, bool isReuseSource);

}  // namespace lngrad::tiling

namespace AscendC {

// Official API (spec §2.2). On bad input these print the device's message on stderr, leave
// their outputs untouched and set lngrad::tiling::LastTilingStatus() (see the lngrad::tiling
// variants above for the rules); they never throw or abort.
void GetLayerNormGradMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                                   const bool isReuseSource, uint32_t& maxValue,
                                   uint32_t& minValue);
void GetLayerNormGradNDTilingInfo(const ge::Shape srcShape, const uint32_t stackBufferSize,
                                  const uint32_t typeSize, const bool isReuseSource,
                                  optiling::LayerNormGradTiling& tiling);
void GetLayerNormGradNDTilingInfo(const ge::Shape srcShape, const uint32_t stackBufferSize,
                                  const uint32_t typeSize, const bool isReuseSource,
                                  AscendC::tiling::LayerNormGradTiling& tiling);

}  // namespace AscendC
