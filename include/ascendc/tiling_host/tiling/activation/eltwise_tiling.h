// Host side of the element-wise activation APIs (kernel side: lib/activation/eltwise.h): the
// scratch sizes, with the vendor's names, signatures and values (read from the toolkit's
// impl/adv_api/tiling/activation/*). All sizes are bytes; n = srcShape.GetShapeSize().
//
//   Gelu (also FasterGelu, FasterGeluV2):  min = 768 (3 * 256), max = max(3 * n * 4, 768)
//                                          (float-sized slots whatever typeSize)
//   GeGLU:    k = 0 (float) / 4 (half)     min = 256k, max = k * max(n * typeSize, 256)
//   SwiGLU:   k = 0 (float) / 6 (half)     (same formulas); factor functions give k and 0
//   Sigmoid:  min = 256, max = max(n * typeSize, 256)
//   ReGlu:    float: min = max = 256; half/bfloat16 (typeSize 2): min = 1536 (6 * 256),
//             max = max(6 * n * typeSize, 1536); isReuseSource must be false
//   Silu (GetSiluTmpSize), Swish (GetSwishTmpSize): 0 and 0, arguments ignored
//
// Bad input (shape size <= 0, a typeSize other than 2 or 4, ReGlu with isReuseSource): a
// message on stderr, outputs untouched (GetGeluMinTmpSize / GetGeluMaxTmpSize return 0),
// lngrad::tiling::LastTilingStatus() set; never throws.
#pragma once

#include <cstdint>

#include "graph/tensor.h"

namespace AscendC {

uint32_t GetGeluMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize);
uint32_t GetGeluMaxTmpSize(const ge::Shape& srcShape, const uint32_t typeSize);
void GetGeluMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                          uint32_t& minValue);

void GetGeGLUMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                           const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue);
void GetGeGLUTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount,
                                 uint32_t& extraBuf);

void GetReGluMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                           const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue);

void GetSigmoidMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, bool isReuseSource,
                             uint32_t& maxValue, uint32_t& minValue);

void GetSwiGLUMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                            uint32_t& minValue, const bool isReuseSource);
void GetSwiGLUTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount,
                                  uint32_t& extraBuffer);

void GetSiluTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                    uint32_t& maxValue, uint32_t& minValue);
void GetSwishTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                     uint32_t& maxValue, uint32_t& minValue);

}  // namespace AscendC
