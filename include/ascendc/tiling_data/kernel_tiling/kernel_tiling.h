// Ascend C kernel-side tiling structs (what device code sees through
// "kernel_tiling/kernel_tiling.h").
//
// Plain structs, all fields default 0, laid out exactly like the byte image that the host
// TilingDef classes (optiling::...) write with SaveToBuffer: fields in declaration order,
// natural alignment, #pragma pack(push, 8). Kernel code names them unqualified
// (LayerNormGradTiling, ...), so they are also exported into the global namespace.
//
// Each struct's fields are an X-macro list, X(type, name) in order, the one source of the field
// names: the struct below, the host side's optiling class (tiling/tiling_types.h) and the tests'
// field-by-field comparisons are all built from it.
#pragma once

#include <cstddef>
#include <cstdint>

// Field lists, in struct order: X(type, name).
// clang-format off
#define LNGRAD_LAYERNORM_GRAD_TILING_FIELDS(X) \
  X(uint32_t, stackBufferSize)                 \
  X(uint32_t, bLength)                         \
  X(uint32_t, sLength)                         \
  X(uint32_t, hLength)                         \
  X(uint32_t, originalHLength)                 \
  X(uint32_t, oneCalSize)                      \
  X(uint32_t, nohCalSize)                      \
  X(uint32_t, loopNum)                         \
  X(uint32_t, tailSize)                        \
  X(uint32_t, nohTailSize)                     \
  X(uint32_t, tmpTensorBSHPos)                 \
  X(uint32_t, tmpTensorBSHSize)                \
  X(uint32_t, pdVarTensorPos)                  \
  X(uint32_t, pdVarTensorSize)                 \
  X(uint32_t, pdMeanTensorPos)                 \
  X(uint32_t, pdMeanTensorSize)                \
  X(uint32_t, x1TensorPos)                     \
  X(uint32_t, x1TensorSize)                    \
  X(uint32_t, x2TensorPos)                     \
  X(uint32_t, x2TensorSize)                    \
  X(uint32_t, x3TensorPos)                     \
  X(uint32_t, x3TensorSize)                    \
  X(uint32_t, tmpTensorPos)                    \
  X(uint32_t, tmpTensorSize)                   \
  X(uint32_t, tmpTensor1Pos)                   \
  X(uint32_t, tmpTensor1Size)                  \
  X(uint32_t, tmpTensor2Pos)                   \
  X(uint32_t, tmpTensor2Size)                  \
  X(uint32_t, lastDimValueBack)                \
  X(uint32_t, lastDimValueBackMulTwo)

#define LNGRAD_LAYERNORM_GRAD_BETA_TILING_FIELDS(X) \
  X(uint32_t, stackBufferSize)                      \
  X(uint32_t, bLength)                              \
  X(uint32_t, sLength)                              \
  X(uint32_t, hLength)                              \
  X(uint32_t, originalHLength)                      \
  X(uint32_t, bshLength)                            \
  X(uint32_t, bsLength)                             \
  X(uint32_t, oneCalSize)                           \
  X(uint32_t, numberOfTmpBuf)                       \
  X(uint32_t, loopRound)                            \
  X(uint32_t, inputTailSize)                        \
  X(uint32_t, inputTailPos)                         \
  X(uint32_t, bsTailSize)                           \
  X(uint32_t, bshCurLength)                         \
  X(uint32_t, bsCurLength)                          \
  X(uint32_t, gammaTempTensorPos)                   \
  X(uint32_t, betaTempTensorPos)                    \
  X(uint32_t, inputDyTmpTensorPos)                  \
  X(uint32_t, resForGammaTmpTensorPos)              \
  X(uint32_t, reserved)

// The scratch layout and chunk loop that both LayerNorm families' tilings hold, in the
// toolkit's order (src/adv's ForEachRoundAndTail runs either struct's loop from them).
#define LNGRAD_LAYERNORM_CHUNK_FIELDS(X) \
  X(uint32_t, varianceTmpTensorPos)     \
  X(uint32_t, varianceTmpTensorSize)    \
  X(uint32_t, tmpBufSize)               \
  X(uint32_t, oneTmpSize)               \
  X(uint32_t, firstTmpStartPos)         \
  X(uint32_t, secondTmpStartPos)        \
  X(uint32_t, thirdTmpStartPos)         \
  X(uint32_t, loopRound)                \
  X(uint32_t, inputRoundSize)           \
  X(uint32_t, inputTailSize)            \
  X(uint32_t, inputTailPos)             \
  X(uint32_t, meanVarRoundSize)         \
  X(uint32_t, meanVarTailSize)          \
  X(uint32_t, meanVarTailPos)

#define LNGRAD_LAYERNORM_TILING_FIELDS(X) \
  X(uint32_t, bLength)                    \
  X(uint32_t, sLength)                    \
  X(uint32_t, hLength)                    \
  X(uint32_t, originalHLength)            \
  X(uint32_t, inputXSize)                 \
  X(uint32_t, meanVarSize)                \
  X(uint32_t, numberOfTmpBuf)             \
  X(uint32_t, meanTmpTensorPos)           \
  X(uint32_t, meanTmpTensorSize)          \
  LNGRAD_LAYERNORM_CHUNK_FIELDS(X)        \
  X(uint32_t, bshCurLength)               \
  X(uint32_t, bsCurLength)                \
  X(float, lastDimValueBack)

// The [A, R] LayerNorm with rstd output (layernorm_v2.h): LayerNormSeparateTiling, field order
// of the toolkit's layernorm_tilingdata.h.
#define LNGRAD_LAYERNORM_SEPARATE_TILING_FIELDS(X) \
  X(uint32_t, aLength)                             \
  X(uint32_t, rLength)                             \
  X(uint32_t, halfAddRepeatTimes)                  \
  X(uint32_t, rHeadLength)                         \
  X(float, k2Rec)                                  \
  X(float, k2RRec)                                 \
  X(uint32_t, inputXSize)                          \
  X(uint32_t, meanVarSize)                         \
  X(uint32_t, numberOfTmpBuf)                      \
  LNGRAD_LAYERNORM_CHUNK_FIELDS(X)                 \
  X(uint32_t, arCurLength)                         \
  X(uint32_t, aCurLength)                          \
  X(float, rValueBack)

// clang-format on

// One struct member from a field list; every field defaults to 0.
#define LNGRAD_TILING_STRUCT_FIELD(type, name) type name = 0;

namespace AscendC {
namespace tiling {

#pragma pack(push, 8)

// LayerNormGrad (spec §2.1): 30 x uint32, 120 bytes. Positions and sizes are float elements;
// stackBufferSize is in bytes; the last two fields are float bit patterns (1/N and 2/N).
struct LayerNormGradTiling {
  LNGRAD_LAYERNORM_GRAD_TILING_FIELDS(LNGRAD_TILING_STRUCT_FIELD)
};

// LayerNormGradBeta (spec §3.4): 20 x uint32, 80 bytes. stackBufferSize is in float ELEMENTS
// (bytes / 4), unlike LayerNormGradTiling.
struct LayerNormGradBetaTiling {
  LNGRAD_LAYERNORM_GRAD_BETA_TILING_FIELDS(LNGRAD_TILING_STRUCT_FIELD)
};

// Forward LayerNorm over [B, S, H] (spec §4): 25 x uint32 + float, 104 bytes. Positions and
// sizes are float elements of the scratch buffer.
struct LayerNormTiling {
  LNGRAD_LAYERNORM_TILING_FIELDS(LNGRAD_TILING_STRUCT_FIELD)
};

// LayerNorm over [A, R] with mean and rstd outputs (spec §10): 23 x uint32 + 3 floats,
// 104 bytes. On arch 2201/2002 positions and sizes are float elements of the scratch buffer; on
// 3510 only rLength, oneTmpSize (the fold depth k), rHeadLength, k2Rec and k2RRec are set.
struct LayerNormSeparateTiling {
  LNGRAD_LAYERNORM_SEPARATE_TILING_FIELDS(LNGRAD_TILING_STRUCT_FIELD)
};

#pragma pack(pop)

}  // namespace tiling
}  // namespace AscendC

static_assert(sizeof(AscendC::tiling::LayerNormGradTiling) == 120);
static_assert(sizeof(AscendC::tiling::LayerNormGradBetaTiling) == 80);
static_assert(sizeof(AscendC::tiling::LayerNormTiling) == 104);
static_assert(sizeof(AscendC::tiling::LayerNormSeparateTiling) == 104);

using AscendC::tiling::LayerNormGradBetaTiling;
using AscendC::tiling::LayerNormGradTiling;
using AscendC::tiling::LayerNormSeparateTiling;
using AscendC::tiling::LayerNormTiling;

#include "kernel_tiling/transform_tiling.h"
