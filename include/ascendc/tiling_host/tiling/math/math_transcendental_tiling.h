// Host side of the transcendental high-level math APIs (lib/math/exp.h, log.h, erf.h, acosh.h,
// power.h, cumsum.h): their scratch sizes, with the vendor's names, signatures and values (read
// from the toolkit's impl/adv_api/tiling/math/*_tiling*.cpp; also Tanh, Sign, Cosh, Sinh, Asinh,
// Atanh). All sizes are bytes; typeSize 4 means float, anything else half, as in the toolkit; n =
// srcShape.GetShapeSize().
//   Exp:    k = 4 (half), 3 (float), 2 (float with isReuseSource); min = 256k,
//           max = k * max(n * 4, 256); returns true. Factor: 8 (half) / 3 (float), extra 0.
//   Log, Log10: 0 and 0 (factor 0).  Log2: half min 256, max max(n * 4, 256); float 0 and 0;
//           factor 2 (half) / 0 (float).
//   Erf:    k = 8 (half) / 3 (float); min = 256k, max = k * max(n * typeSize, 256).
//   Acosh:  k = 2 (half) / 1 (float); min = 256k, max = max(k * n, 256) * typeSize.
//   Tanh:   k = 4 (half) / 1 (float); min = 256k, max = k * max(n * typeSize, 256).
//   Cosh, Sinh, Asinh, Atanh, Atan, Asin, Acos, Tan: as Erf with k = 2 / 6, 1 / 4, 3 / 3,
//           1 / 4, 5 / 12, 2 / 6, 2 / 6, 4 / 10 (float / half); Erfc 7 / 16.
//   Sin, Cos: k = 8 (half), 3 (float), 2 (float with isReuseSource); min = 256k,
//           max = max(n * k * typeSize, 256k); factor 8 / 3. The config-taking forms (arch 3510
//           only, an error elsewhere): POLYNOMIAL_APPROXIMATION 0 and 0, factor 0 and extra 0;
//           RADIAN_REDUCTION min = max = 8 * (n rounded up to 32) + 32 (no shape check),
//           factor 2 and extra 32 (float), 4 and 0 (other types).
//   Hypot:  0 and 0 (shape size > 0); factor 0 and extra 0 on arch 3510 (the count untouched
//           elsewhere, as in the toolkit).
//   Sign:   k = 3; min = 768, max = max(3 * n * typeSize, 768).
//   Power:  arch 2201 (k per form: tensor^tensor float 4, int 6, half 14; with a scalar float 5,
//           int 7, half 14; a shape of one dim of 1 is a scalar): int min 256k, max c * k;
//           float min 256k + 256, max c * k + 256; half min 128k + 256, max c * k + 256, where
//           c = max(n * typeSize, 256) for float and int, max(n * 2, 128) for half (n of the
//           tensor operand, the base's when both are). Arch 3510: min = max = 12 * n for half
//           and float, 0 for int. Factor (2201): k, extra 256 (0 for int); 3510: 3 (float),
//           6 (half), 0 (int), extra 0.
//   CumSum: 2 dims, inner * typeSize a multiple of 32 (else a message, outputs untouched).
//           First axis: half min = max = outter * inner * 4, float 0. Last axis: a = outter
//           rounded up to 16; min = c16 + 16 * inner * typeSize * 2, max = ca + a * inner *
//           typeSize * 2, with c16 = inner * 16 * 2 and ca = inner * a * 2 for half, 0 float.
// Bad input (shape size 0 where the toolkit checks it): a message on stderr, outputs untouched,
// lngrad::tiling::LastTilingStatus() set; never throws.
#pragma once

#include <cstdint>

#include "graph/tensor.h"
#include "kernel_tiling/math_config.h"

namespace AscendC {

bool GetExpMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                         const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue);
void GetExpTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount,
                               uint32_t& extraBuffer);

#define LNGRAD_TRANSCENDENTAL_TMP_SIZE(Name)                                                       \
  void Get##Name##MaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,                \
                                const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue); \
  void Get##Name##TmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount,         \
                                      uint32_t& extraBuf);
LNGRAD_TRANSCENDENTAL_TMP_SIZE(Log)
LNGRAD_TRANSCENDENTAL_TMP_SIZE(Log2)
LNGRAD_TRANSCENDENTAL_TMP_SIZE(Log10)
LNGRAD_TRANSCENDENTAL_TMP_SIZE(Erf)
LNGRAD_TRANSCENDENTAL_TMP_SIZE(Acosh)
LNGRAD_TRANSCENDENTAL_TMP_SIZE(Tanh)
LNGRAD_TRANSCENDENTAL_TMP_SIZE(Sign)
LNGRAD_TRANSCENDENTAL_TMP_SIZE(Cosh)
LNGRAD_TRANSCENDENTAL_TMP_SIZE(Sinh)
LNGRAD_TRANSCENDENTAL_TMP_SIZE(Asinh)
LNGRAD_TRANSCENDENTAL_TMP_SIZE(Atanh)
LNGRAD_TRANSCENDENTAL_TMP_SIZE(Sin)
LNGRAD_TRANSCENDENTAL_TMP_SIZE(Cos)
LNGRAD_TRANSCENDENTAL_TMP_SIZE(Atan)
LNGRAD_TRANSCENDENTAL_TMP_SIZE(Asin)
LNGRAD_TRANSCENDENTAL_TMP_SIZE(Acos)
LNGRAD_TRANSCENDENTAL_TMP_SIZE(Tan)
LNGRAD_TRANSCENDENTAL_TMP_SIZE(Erfc)
LNGRAD_TRANSCENDENTAL_TMP_SIZE(Hypot)
#undef LNGRAD_TRANSCENDENTAL_TMP_SIZE

void GetSinMaxMinTmpSize(const SinConfig& config, const ge::Shape& srcShape,
                         const uint32_t typeSize, const bool isReuseSource, uint32_t& maxValue,
                         uint32_t& minValue);
void GetSinTmpBufferFactorSize(const SinConfig& config, const uint32_t typeSize,
                               uint32_t& maxLiveNodeCount, uint32_t& extraBuf);
void GetCosMaxMinTmpSize(const CosConfig& config, const ge::Shape& srcShape,
                         const uint32_t typeSize, const bool isReuseSource, uint32_t& maxValue,
                         uint32_t& minValue);
void GetCosTmpBufferFactorSize(const CosConfig& config, const uint32_t typeSize,
                               uint32_t& maxLiveNodeCount, uint32_t& extraBuf);

void GetPowerMaxMinTmpSize(const ge::Shape& srcShape1, const ge::Shape& srcShape2,
                           const bool typeIsInt, const uint32_t typeSize, const bool isReuseSource,
                           uint32_t& maxValue, uint32_t& minValue);
void GetPowerTmpBufferFactorSize(const bool baseIsTensor, const bool expIsTensor,
                                 const bool typeIsInt, const uint32_t typeSize,
                                 uint32_t& maxLiveNodeCount, uint32_t& extraBuffer);

void GetCumSumMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                            const bool isLastAxis, const bool isReuseSource, uint32_t& maxValue,
                            uint32_t& minValue);

}  // namespace AscendC
