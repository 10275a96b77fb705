// Host tiling of Broadcast (the vendor's adv_api/pad/broadcast_tiling.h):
// GetBroadCastMaxMinTmpSize. Formulas (impl/adv_api/tiling/pad/broadcast_tiling.cpp), with
// typeSize 1 counted as 2 plus a cast buffer C = (ceil16(src size) + ceil16(dst size)) * 2 bytes
// (0 otherwise) and E = 32 / typeSize:
// - src size == dst size or 1: 0 and 0 (C + 32 both for typeSize 1).
// - arch 2201/2002, axis 0 (srcShape[1] != 1): C + 32 both (dstShape[1] must be a multiple of E).
// - arch 2201, axis 1: D0 = dstShape[0], D1 = dstShape[1], D0' = D0 rounded up to 8; D1 a
//   multiple of E: min = E*E*typeSize + C, max = D0'*E*typeSize + C; else with D1' = D1 rounded
//   up to E: min = E*E*typeSize + E*D1'*typeSize + C, max = D0'*E*typeSize + D0*D1'*typeSize + C.
// - arch 2002, axis 1: min = 32 + C + E*ceil(D1/8)*typeSize, max = 32 + C + D0*D1*typeSize.
// - arch 3510 otherwise: the outputs are left as they were (the toolkit sets nothing there).
// Errors (typeSize not 1, 2 or 4, dims not 1 or 2 or unequal, a dim that cannot broadcast, an
// empty src, axis 0 unaligned on 2201/2002): message on stderr, outputs untouched,
// lngrad::tiling::LastTilingStatus() set.
#pragma once

#include <cstdint>

#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_types.h"

namespace lngrad::tiling {

Status BroadCastMaxMinTmpSize(const platform_ascendc::PlatformAscendC& platform,
                              const ge::Shape& srcShape, const ge::Shape& dstShape,
                              uint32_t typeSize, bool isReuseSource, uint32_t& maxValue,
                              uint32_t& minValue);

}  // namespace lngrad::tiling

namespace AscendC {

void GetBroadCastMaxMinTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform,
                               const ge::Shape& srcShape, const ge::Shape& dstShape,
                               uint32_t typeSize, const bool isReuseSource, uint32_t& maxValue,
                               uint32_t& minValue);

}  // namespace AscendC
