// Host tiling for WelfordUpdate and WelfordFinalize (their GetXxxMaxMinTmpSize) and the
// Status-returning lngrad::tiling variants. Formulas: docs/ascendc_kernels.md, "Normalization
// beyond LayerNorm (issue 28)".
#pragma once

#include <cstdint>

#include "tiling/tiling_types.h"

namespace lngrad::tiling {

// WelfordUpdate over srcShape = {rnLength, abLength}. Arch 3510: 0 and 0. Else min = 256 * k
// bytes (k = 3 for a 2-byte T, 1 for float + isReuseSource, else 2) and max =
// ceil(rn*ab / 64) * min. Outputs not written on error (2 dims required off 3510).
Status WelfordUpdateMaxMinTmpSize(const ge::Shape& srcShape, uint32_t typeSizeT, uint32_t typeSizeU,
                                  bool isReuseSource, bool isInplace, uint32_t& maxValue,
                                  uint32_t& minValue);
// WelfordFinalize over srcShape = {abLength} (off 3510: 1 dim, abLength > 0 and a multiple of
// 8): min = 1024 bytes, max = min for abLength <= 64 else 4 * (128 + 2 * abLength). Arch 3510:
// min = max = 4 * (K + ceil128(p / 64)), K the last dim and p the largest power of two <= K.
Status WelfordFinalizeMaxMinTmpSize(const ge::Shape& srcShape, uint32_t typeSize,
                                    bool isReuseSource, uint32_t& maxValue, uint32_t& minValue);

}  // namespace lngrad::tiling

namespace AscendC {
void GetWelfordUpdateMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSizeT,
                                   const uint32_t typeSizeU, const bool isReuseSource,
                                   const bool isInplace, uint32_t& maxValue, uint32_t& minValue);
void GetWelfordFinalizeMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                                     const bool isReuseSource, uint32_t& maxValue,
                                     uint32_t& minValue);
}  // namespace AscendC
