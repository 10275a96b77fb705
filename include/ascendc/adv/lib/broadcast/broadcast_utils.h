// lngrad: BroadcastTiling (the vendor's adv_api/pad/broadcast_utils.h), the kernel-side tiling of
// the rank-N Broadcast (arch 3510), filled by GetBroadcastTilingInfo (lib/broadcast/
// broadcast_rank_n.h). Field order and types as the toolkit's: code that moves the struct as
// bytes sees the same layout.
#pragma once

#include <cstdint>

namespace AscendC {

struct BroadcastTiling {
  uint32_t oriRank;
  uint32_t rank;
  uint32_t dstSize;
  uint32_t srcSize;
  uint32_t loopNum = 0;
  uint32_t oriSrcShape[9];
  uint32_t oriDstShape[9];
  uint32_t dstShape[9];
  uint32_t dstStride[9];
  uint32_t srcStride[10];
};

}  // namespace AscendC
