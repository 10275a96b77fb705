// Host side of Digamma, Lgamma (lib/math/digamma.h, lgamma.h) and SinCos (lib/math/sincos.h):
// their scratch sizes, with the vendor's names, signatures and values (read from the toolkit's
// impl/adv_api/tiling/math/digamma_tiling_impl.cpp, lgamma_tiling.cpp, sincos_tiling_impl.cpp).
// Bytes; typeSize 4 means float, anything else half, as in the toolkit; n =
// srcShape.GetShapeSize() (must be > 0 for the MaxMin functions).
//   Digamma: arch 2201: k = 16 (half), 7 (float), 6 (float with isReuseSource); min = 256k,
//            max = k * max(n * typeSize, 256). Arch 3510: half min = max = 4 * max(2n, 256),
//            float 0 and 0. Factor: 2201 16 (half) / 7 (float); 3510 4 (half) / 0 (float);
//            extra 0. (The product in force picks the arch, as the toolkit's platform manager.)
//   Lgamma:  arch 2201: k = 26 (half), 8 (float), 7 (float with isReuseSource); min = 256k,
//            max = max(k * max(n * typeSize, 256), min). Arch 3510: min = max = 4n.
//            Factor (any arch): 13 (half) / 8 (float), extra 0.
//   SinCos:  arch 3510 only (an error elsewhere), typeSize 2 or 4, isReuseSource false (the
//            toolkit refuses true): min = max = 4 * 2 * m + 32, m = n rounded up to 32.
//            Factor: float 2, extra 32; half 4, extra 0.
// Bad input: a message on stderr, outputs untouched, lngrad::tiling::LastTilingStatus() set;
// never throws.
#pragma once

#include <cstdint>

#include "graph/tensor.h"
#include "tiling/platform/platform_ascendc.h"

namespace AscendC {

void GetDigammaMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                             const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue);
void GetDigammaTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount,
                                   uint32_t& extraBuffer);
void GetLgammaMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                            const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue);
void GetLgammaTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount,
                                  uint32_t& extraBuffer);
void GetSinCosMaxMinTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform,
                            const ge::Shape& srcShape, const uint32_t typeSize,
                            const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue);
void GetSinCosTmpBufferFactorSize(const platform_ascendc::PlatformAscendC& ascendcPlatform,
                                  const uint32_t typeSize, uint32_t& maxLivedNodeCount,
                                  uint32_t& extraBuf);

}  // namespace AscendC
