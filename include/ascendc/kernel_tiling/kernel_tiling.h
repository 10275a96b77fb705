// Ascend C kernel-side tiling structs (what device code sees through
// "kernel_tiling/kernel_tiling.h").
//
// Plain structs, all fields default 0, laid out exactly like the byte image that the host
// TilingDef classes (optiling::...) write with SaveToBuffer: fields in declaration order,
// natural alignment, #pragma pack(push, 8). Kernel code names them unqualified
// (LayerNormGradTiling, ...), so they are also exported into the global namespace.
//
// Each struct is followed by an X-macro listing its fields in order; the host side builds its
// optiling class from that list, and the static_asserts below keep list and struct in step.
#pragma once

#include <cstddef>
#include <cstdint>

namespace AscendC {
namespace tiling {

#pragma pack(push, 8)

// LayerNormGrad (spec §2.1): 30 x uint32, 120 bytes. Positions and sizes are float elements;
// stackBufferSize is in bytes; the last two fields are float bit patterns (1/N and 2/N).
struct LayerNormGradTiling {
  uint32_t stackBufferSize = 0;
  uint32_t bLength = 0;
  uint32_t sLength = 0;
  uint32_t hLength = 0;
  uint32_t originalHLength = 0;
  uint32_t oneCalSize = 0;
  uint32_t nohCalSize = 0;
  uint32_t loopNum = 0;
  uint32_t tailSize = 0;
  uint32_t nohTailSize = 0;
  uint32_t tmpTensorBSHPos = 0;
  uint32_t tmpTensorBSHSize = 0;
  uint32_t pdVarTensorPos = 0;
  uint32_t pdVarTensorSize = 0;
  uint32_t pdMeanTensorPos = 0;
  uint32_t pdMeanTensorSize = 0;
  uint32_t x1TensorPos = 0;
  uint32_t x1TensorSize = 0;
  uint32_t x2TensorPos = 0;
  uint32_t x2TensorSize = 0;
  uint32_t x3TensorPos = 0;
  uint32_t x3TensorSize = 0;
  uint32_t tmpTensorPos = 0;
  uint32_t tmpTensorSize = 0;
  uint32_t tmpTensor1Pos = 0;
  uint32_t tmpTensor1Size = 0;
  uint32_t tmpTensor2Pos = 0;
  uint32_t tmpTensor2Size = 0;
  uint32_t lastDimValueBack = 0;
  uint32_t lastDimValueBackMulTwo = 0;
};

// LayerNormGradBeta (spec §3.4): 20 x uint32, 80 bytes. stackBufferSize is in float ELEMENTS
// (bytes / 4), unlike LayerNormGradTiling.
struct LayerNormGradBetaTiling {
  uint32_t stackBufferSize = 0;
  uint32_t bLength = 0;
  uint32_t sLength = 0;
  uint32_t hLength = 0;
  uint32_t originalHLength = 0;
  uint32_t bshLength = 0;
  uint32_t bsLength = 0;
  uint32_t oneCalSize = 0;
  uint32_t numberOfTmpBuf = 0;
  uint32_t loopRound = 0;
  uint32_t inputTailSize = 0;
  uint32_t inputTailPos = 0;
  uint32_t bsTailSize = 0;
  uint32_t bshCurLength = 0;
  uint32_t bsCurLength = 0;
  uint32_t gammaTempTensorPos = 0;
  uint32_t betaTempTensorPos = 0;
  uint32_t inputDyTmpTensorPos = 0;
  uint32_t resForGammaTmpTensorPos = 0;
  uint32_t reserved = 0;
};

// Forward LayerNorm over [B, S, H] (spec §4): 25 x uint32 + float, 104 bytes. Positions and
// sizes are float elements of the scratch buffer.
struct LayerNormTiling {
  uint32_t bLength = 0;
  uint32_t sLength = 0;
  uint32_t hLength = 0;
  uint32_t originalHLength = 0;
  uint32_t inputXSize = 0;
  uint32_t meanVarSize = 0;
  uint32_t numberOfTmpBuf = 0;
  uint32_t meanTmpTensorPos = 0;
  uint32_t meanTmpTensorSize = 0;
  uint32_t varianceTmpTensorPos = 0;
  uint32_t varianceTmpTensorSize = 0;
  uint32_t tmpBufSize = 0;
  uint32_t oneTmpSize = 0;
  uint32_t firstTmpStartPos = 0;
  uint32_t secondTmpStartPos = 0;
  uint32_t thirdTmpStartPos = 0;
  uint32_t loopRound = 0;
  uint32_t inputRoundSize = 0;
  uint32_t inputTailSize = 0;
  uint32_t inputTailPos = 0;
  uint32_t meanVarRoundSize = 0;
  uint32_t meanVarTailSize = 0;
  uint32_t meanVarTailPos = 0;
  uint32_t bshCurLength = 0;
  uint32_t bsCurLength = 0;
  float lastDimValueBack = 0;
};

#pragma pack(pop)

}  // namespace tiling
}  // namespace AscendC

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
  X(uint32_t, varianceTmpTensorPos)       \
  X(uint32_t, varianceTmpTensorSize)      \
  X(uint32_t, tmpBufSize)                 \
  X(uint32_t, oneTmpSize)                 \
  X(uint32_t, firstTmpStartPos)           \
  X(uint32_t, secondTmpStartPos)          \
  X(uint32_t, thirdTmpStartPos)           \
  X(uint32_t, loopRound)                  \
  X(uint32_t, inputRoundSize)             \
  X(uint32_t, inputTailSize)              \
  X(uint32_t, inputTailPos)               \
  X(uint32_t, meanVarRoundSize)           \
  X(uint32_t, meanVarTailSize)            \
  X(uint32_t, meanVarTailPos)             \
  X(uint32_t, bshCurLength)               \
  X(uint32_t, bsCurLength)                \
  X(float, lastDimValueBack)

// clang-format on

// Field order against the lists is checked in tests/tiling (offsetof walk).
static_assert(sizeof(AscendC::tiling::LayerNormGradTiling) == 120);
static_assert(sizeof(AscendC::tiling::LayerNormGradBetaTiling) == 80);
static_assert(sizeof(AscendC::tiling::LayerNormTiling) == 104);

using AscendC::tiling::LayerNormGradBetaTiling;
using AscendC::tiling::LayerNormGradTiling;
using AscendC::tiling::LayerNormTiling;
