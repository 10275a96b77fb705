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

// SoftMax family (softmax_tilingdata.h) and LogSoftMax (logsoftmax_tilingdata.h): the same 16
// fields, in elements: the source [srcM, srcK], the max/sum output [outMaxM, outMaxK], one split
// of splitM rows, its reduce output [reduceM, reduceK], rangeM full splits and tailM rows left.
#define LNGRAD_SOFTMAX_TILING_FIELDS(X) \
  X(uint32_t, srcM)                     \
  X(uint32_t, srcK)                     \
  X(uint32_t, srcSize)                  \
  X(uint32_t, outMaxM)                  \
  X(uint32_t, outMaxK)                  \
  X(uint32_t, outMaxSize)               \
  X(uint32_t, splitM)                   \
  X(uint32_t, splitK)                   \
  X(uint32_t, splitSize)                \
  X(uint32_t, reduceM)                  \
  X(uint32_t, reduceK)                  \
  X(uint32_t, reduceSize)               \
  X(uint32_t, rangeM)                   \
  X(uint32_t, tailM)                    \
  X(uint32_t, tailSplitSize)            \
  X(uint32_t, tailReduceSize)

// RmsNorm (rmsnorm_tilingdata.h): 11 x uint32 + 1 float, 48 bytes.
#define LNGRAD_RMSNORM_TILING_FIELDS(X) \
  X(uint32_t, bLength)                  \
  X(uint32_t, sLength)                  \
  X(uint32_t, hLength)                  \
  X(uint32_t, originalHLength)          \
  X(float, reciprocalOfHLength)         \
  X(uint32_t, mainBshLength)            \
  X(uint32_t, mainBsLength)             \
  X(uint32_t, mainBsLengthAlign)        \
  X(uint32_t, loopRound)                \
  X(uint32_t, inputTailPos)             \
  X(uint32_t, tailBshLength)            \
  X(uint32_t, tailBsLength)

// DeepNorm (deepnorm_tilingdata.h): the forward LayerNorm's field list, in the same order.
#define LNGRAD_DEEPNORM_TILING_FIELDS(X) LNGRAD_LAYERNORM_TILING_FIELDS(X)

// BatchNorm (batchnorm_tilingdata.h): 16 x uint32, a float, 3 x uint32: 80 bytes.
#define LNGRAD_BATCHNORM_TILING_FIELDS(X) \
  X(uint32_t, originalBLength)            \
  X(uint32_t, meanVarSize)                \
  X(uint32_t, meanTmpTensorPos)           \
  X(uint32_t, varianceTmpTensorPos)       \
  X(uint32_t, tmpBufSize)                 \
  X(uint32_t, oneTmpSize)                 \
  X(uint32_t, firstTmpStartPos)           \
  X(uint32_t, secondTmpStartPos)          \
  X(uint32_t, thirdTmpStartPos)           \
  X(uint32_t, loopRound)                  \
  X(uint32_t, inputTailSize)              \
  X(uint32_t, inputTailPos)               \
  X(uint32_t, meanVarTailSize)            \
  X(uint32_t, meanVarTailPos)             \
  X(uint32_t, bshCurLength)               \
  X(uint32_t, shCurLength)                \
  X(float, firstDimValueBack)             \
  X(uint32_t, castHalfRepStride)          \
  X(uint32_t, shCurLengthBlockNum)        \
  X(uint32_t, castHalfOutRepStride)

// GroupNorm (groupnorm_tilingdata.h): 28 x uint32 (the LayerNorm chunk layout among them), a
// float, a bool: 120 bytes.
#define LNGRAD_GROUPNORM_TILING_FIELDS(X) \
  X(uint32_t, n)                          \
  X(uint32_t, c)                          \
  X(uint32_t, hw)                         \
  X(uint32_t, g)                          \
  X(uint32_t, d)                          \
  X(uint32_t, hwAlignSize)                \
  X(uint32_t, dhwAlignSize)               \
  X(uint32_t, inputXSize)                 \
  X(uint32_t, meanVarSize)                \
  X(uint32_t, numberOfTmpBuf)             \
  X(uint32_t, meanTmpTensorPos)           \
  X(uint32_t, meanTmpTensorSize)          \
  LNGRAD_LAYERNORM_CHUNK_FIELDS(X)        \
  X(uint32_t, bshCurLength)               \
  X(uint32_t, bsCurLength)                \
  X(float, factor)                        \
  X(bool, smallShape)

// TopK (the toolkit's topk_tilingdata.h, field order kept): 24 x 4 bytes then 8 x uint16_t,
// 112 bytes. Sizes and offsets are elements of the data type.
#define LNGRAD_TOPK_TILING_FIELDS(X)       \
  X(int32_t, tmpLocalSize)                 \
  X(int32_t, allDataSize)                  \
  X(int32_t, innerDataSize)                \
  X(uint32_t, sortRepeat)                  \
  X(int32_t, mrgSortRepeat)                \
  X(int32_t, kAlignFourBytes)              \
  X(int32_t, kAlignTwoBytes)               \
  X(int32_t, maskOffset)                   \
  X(int32_t, maskVreducev2FourBytes)       \
  X(int32_t, maskVreducev2TwoBytes)        \
  X(int32_t, mrgSortSrc1offset)            \
  X(int32_t, mrgSortSrc2offset)            \
  X(int32_t, mrgSortSrc3offset)            \
  X(int32_t, mrgSortTwoQueueSrc1Offset)    \
  X(int32_t, mrgFourQueueTailPara1)        \
  X(int32_t, mrgFourQueueTailPara2)        \
  X(int32_t, srcIndexOffset)               \
  X(uint32_t, copyUbToUbBlockCount)        \
  X(int32_t, topkMrgSrc1MaskSizeOffset)    \
  X(int32_t, topkNSmallSrcIndexOffset)     \
  X(uint32_t, vreduceValMask0)             \
  X(uint32_t, vreduceValMask1)             \
  X(uint32_t, vreduceIdxMask0)             \
  X(uint32_t, vreduceIdxMask1)             \
  X(uint16_t, vreducehalfValMask0)         \
  X(uint16_t, vreducehalfValMask1)         \
  X(uint16_t, vreducehalfValMask2)         \
  X(uint16_t, vreducehalfValMask3)         \
  X(uint16_t, vreducehalfValMask4)         \
  X(uint16_t, vreducehalfValMask5)         \
  X(uint16_t, vreducehalfValMask6)         \
  X(uint16_t, vreducehalfValMask7)

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

// SoftMax, SimpleSoftMax, SoftmaxFlash/V2/V3, SoftmaxGrad(Front): 16 x uint32, 64 bytes.
struct SoftMaxTiling {
  LNGRAD_SOFTMAX_TILING_FIELDS(LNGRAD_TILING_STRUCT_FIELD)
};

// LogSoftMax: the same fields as SoftMaxTiling (64 bytes).
struct LogSoftMaxTiling {
  LNGRAD_SOFTMAX_TILING_FIELDS(LNGRAD_TILING_STRUCT_FIELD)
};

// RmsNorm: 48 bytes. Lengths in elements; reciprocalOfHLength = 1 / originalHLength.
struct RmsNormTiling {
  LNGRAD_RMSNORM_TILING_FIELDS(LNGRAD_TILING_STRUCT_FIELD)
};

// DeepNorm: LayerNormTiling's fields (104 bytes); positions in float elements of the scratch.
struct DeepNormTiling {
  LNGRAD_DEEPNORM_TILING_FIELDS(LNGRAD_TILING_STRUCT_FIELD)
};

// BatchNorm: 80 bytes. Positions and sizes in float elements of the scratch; inputTailPos and
// meanVarTailPos are column (S*H) offsets.
struct BatchNormTiling {
  LNGRAD_BATCHNORM_TILING_FIELDS(LNGRAD_TILING_STRUCT_FIELD)
};

// GroupNorm: 120 bytes (the bool padded to 4). Sizes in elements; factor = 1 / (d * h * w).
struct GroupNormTiling {
  LNGRAD_GROUPNORM_TILING_FIELDS(LNGRAD_TILING_STRUCT_FIELD)
};

// TopK (topk.h): the layout of the toolkit's optiling::TopkTiling image.
struct TopkTiling {
  LNGRAD_TOPK_TILING_FIELDS(LNGRAD_TILING_STRUCT_FIELD)
};

#pragma pack(pop)

}  // namespace tiling
}  // namespace AscendC

static_assert(sizeof(AscendC::tiling::LayerNormGradTiling) == 120);
static_assert(sizeof(AscendC::tiling::LayerNormGradBetaTiling) == 80);
static_assert(sizeof(AscendC::tiling::LayerNormTiling) == 104);
static_assert(sizeof(AscendC::tiling::LayerNormSeparateTiling) == 104);
static_assert(sizeof(AscendC::tiling::SoftMaxTiling) == 64);
static_assert(sizeof(AscendC::tiling::LogSoftMaxTiling) == 64);
static_assert(sizeof(AscendC::tiling::RmsNormTiling) == 48);
static_assert(sizeof(AscendC::tiling::DeepNormTiling) == 104);
static_assert(sizeof(AscendC::tiling::BatchNormTiling) == 80);
static_assert(sizeof(AscendC::tiling::GroupNormTiling) == 120);
static_assert(sizeof(AscendC::tiling::TopkTiling) == 112);

using AscendC::tiling::BatchNormTiling;
using AscendC::tiling::DeepNormTiling;
using AscendC::tiling::GroupNormTiling;
using AscendC::tiling::LayerNormGradBetaTiling;
using AscendC::tiling::LayerNormGradTiling;
using AscendC::tiling::LayerNormSeparateTiling;
using AscendC::tiling::LayerNormTiling;
using AscendC::tiling::LogSoftMaxTiling;
using AscendC::tiling::RmsNormTiling;
using AscendC::tiling::SoftMaxTiling;
using AscendC::tiling::TopkTiling;

#include "kernel_tiling/cube_tiling.h"
#include "kernel_tiling/transform_tiling.h"
