// Host side of the high-level math and index APIs (lib/math/*.h, lib/index/arithprogression.h):
// the scratch sizes GetXxxMaxMinTmpSize and GetXxxTmpBufferFactorSize, with the vendor's names,
// signatures and values (read from the toolkit's impl/adv_api/tiling/math/*_tiling_impl.cpp).
// All sizes are bytes; with maxLiveNodeCount and extraBuf a kernel may compute
// tmp = maxLiveNodeCount * count * typeSize + extraBuf.
//
// Arch-independent functions (the element count is srcShape.GetShapeSize(); typeSize 4 means
// float, anything else half, as in the toolkit; isReuseSource is ignored):
//   Ceil, Trunc:  k = 1 (float) / 2 (half)      min = 256k, max = k * max(n * typeSize, 256)
//   Floor:        k = 0 / 2                     (same formulas)
//   Frac:         k = 0 / 4
//   Fmod:         k = Trunc's k + (0 / 6)
//   Axpy:         float: 0 and 0; half: k = 4, min = 1024, max = n*typeSize > 256 ? 4*n*typeSize :
//   1024 Xor:          min = 256, max = max(n * typeSize, 256); factor 1 Clamp:        min = 64
//   (float) / 128 (half), max = max(n, min); factor 1
// Platform functions: Round on arch 2201 (float 0 and 0; half k = 1) and 2002 (float k = 1;
// half k = 2), with Ceil's formulas, outputs untouched on other arches as in the toolkit; Rint,
// Fma, IsInf, IsNan (also arch 5102 in the toolkit) and Where, BitwiseAnd/Or/Xor/Not,
// LogicalAnd/Or/Xor/Not/Ands/Ors: 0 and 0 on arch 3510, an error elsewhere. Arange
// (ArithProgression) needs no scratch: 0 and 0.
//
// Bad input (shape size 0, a type size the API does not take, an unsupported arch): a message
// on stderr, outputs untouched, lngrad::tiling::LastTilingStatus() set; never throws.
#pragma once

#include <cstdint>

#include "graph/tensor.h"
#include "tiling/math/math_gamma_tiling.h"
#include "tiling/math/math_transcendental_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace AscendC {

#define LNGRAD_MATH_TMP_SIZE(Name)                                                                 \
  void Get##Name##MaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,                \
                                const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue); \
  void Get##Name##TmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount,         \
                                      uint32_t& extraBuf);
#define LNGRAD_MATH_PLATFORM_TMP_SIZE(Name)                                                        \
  void Get##Name##MaxMinTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform,          \
                                const ge::Shape& srcShape, const uint32_t typeSize,                \
                                const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue); \
  void Get##Name##TmpBufferFactorSize(const platform_ascendc::PlatformAscendC& ascendcPlatform,    \
                                      const uint32_t typeSize, uint32_t& maxLiveNodeCount,         \
                                      uint32_t& extraBuf);

LNGRAD_MATH_TMP_SIZE(Ceil)
LNGRAD_MATH_TMP_SIZE(Floor)
LNGRAD_MATH_TMP_SIZE(Trunc)
LNGRAD_MATH_TMP_SIZE(Frac)
LNGRAD_MATH_TMP_SIZE(Fmod)
LNGRAD_MATH_TMP_SIZE(Axpy)
LNGRAD_MATH_TMP_SIZE(Xor)
LNGRAD_MATH_TMP_SIZE(Clamp)
LNGRAD_MATH_PLATFORM_TMP_SIZE(Round)
LNGRAD_MATH_PLATFORM_TMP_SIZE(Rint)
LNGRAD_MATH_PLATFORM_TMP_SIZE(Fma)
LNGRAD_MATH_PLATFORM_TMP_SIZE(IsInf)
LNGRAD_MATH_PLATFORM_TMP_SIZE(IsNan)
LNGRAD_MATH_PLATFORM_TMP_SIZE(Where)
LNGRAD_MATH_PLATFORM_TMP_SIZE(BitwiseAnd)
LNGRAD_MATH_PLATFORM_TMP_SIZE(BitwiseOr)
LNGRAD_MATH_PLATFORM_TMP_SIZE(BitwiseXor)
LNGRAD_MATH_PLATFORM_TMP_SIZE(BitwiseNot)
LNGRAD_MATH_PLATFORM_TMP_SIZE(LogicalAnd)
LNGRAD_MATH_PLATFORM_TMP_SIZE(LogicalOr)
LNGRAD_MATH_PLATFORM_TMP_SIZE(LogicalXor)
LNGRAD_MATH_PLATFORM_TMP_SIZE(LogicalNot)
LNGRAD_MATH_PLATFORM_TMP_SIZE(LogicalAnds)
LNGRAD_MATH_PLATFORM_TMP_SIZE(LogicalOrs)
#undef LNGRAD_MATH_TMP_SIZE
#undef LNGRAD_MATH_PLATFORM_TMP_SIZE

void GetArangeMaxMinTmpSize(uint32_t& maxValue, uint32_t& minValue);
void GetArithProgressionMaxMinTmpSize(uint32_t& maxValue, uint32_t& minValue);

}  // namespace AscendC
