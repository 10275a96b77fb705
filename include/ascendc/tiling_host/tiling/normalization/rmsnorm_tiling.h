// Host tiling for RmsNorm (optiling::RmsNormTiling, AscendC::GetRmsNormMaxMinTmpSize,
// AscendC::GetRmsNormTilingInfo) and the Status-returning lngrad::tiling variants. Formulas:
// docs/ascendc_kernels.md, "Normalization beyond LayerNorm (issue 28)".
#pragma once

#include <cstdint>

#include "tiling/tiling_types.h"

namespace optiling {
LNGRAD_TILING_DATA_DEF_FROM_FIELDS(RmsNormTiling, LNGRAD_RMSNORM_TILING_FIELDS);
}  // namespace optiling

namespace lngrad::tiling {

// Scratch bytes for RmsNorm over srcShape = {B, S, H} (3 dims). max = 4 * (k*B*S*H +
// ceil8(B*S)), min = 4 * (k*H + 8), k = 2 for half (typeSize 2), else 1. isBasicBlock needs
// H % 64 == 0 and B*S % 8 == 0 and H < 2048 (else InvalidArgument). Outputs not written on error.
Status RmsNormMaxMinTmpSize(const ge::Shape& srcShape, uint32_t typeSize, uint32_t& maxValue,
                            uint32_t& minValue, bool isBasicBlock = false);
// Every field of RmsNormTiling for a scratch of stackBufferByteSize bytes; originSrcShape's H is
// the reduced length. Errors: shape checks (3 dims each, same B and S, 0 < originH <= H,
// H*typeSize % 32 == 0, the basic-block rule), a buffer below the minimum. `tiling` untouched
// on error.
Status RmsNormTilingInfo(const ge::Shape& srcShape, const ge::Shape& originSrcShape,
                         uint32_t stackBufferByteSize, uint32_t typeSize,
                         AscendC::tiling::RmsNormTiling& tiling, bool isBasicBlock = false);

}  // namespace lngrad::tiling

namespace AscendC {
// Official API: false (and a message on stderr, LastTilingStatus() set) where the toolkit
// returns false or asserts.
bool GetRmsNormMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                             uint32_t& minValue, const bool isBasicBlock = false);
bool GetRmsNormTilingInfo(const ge::Shape& srcShape, const ge::Shape& originSrcShape,
                          const uint32_t stackBufferByteSize, const uint32_t typeSize,
                          optiling::RmsNormTiling& tiling, const bool isBasicBlock = false);
bool GetRmsNormTilingInfo(const ge::Shape& srcShape, const ge::Shape& originSrcShape,
                          const uint32_t stackBufferByteSize, const uint32_t typeSize,
                          AscendC::tiling::RmsNormTiling& tiling, const bool isBasicBlock = false);
}  // namespace AscendC
