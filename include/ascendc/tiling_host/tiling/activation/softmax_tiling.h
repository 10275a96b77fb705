// Host tiling of the SoftMax family (SoftMax, SimpleSoftMax, SoftmaxFlash, SoftmaxFlashV2/V3,
// SoftmaxGrad/Front) and LogSoftMax: optiling::SoftMaxTiling / LogSoftMaxTiling, the
// Get*MaxTmpSize / Get*MinTmpSize functions and the *TilingFunc functions, with the toolkit's
// signatures. Formulas learned from hicann/asc-devkit impl/adv_api/tiling/activation/
// {softmax,logsoftmax}_tiling.cpp (docs/ascendc_kernels.md, "SoftMax family"); written here.
// Sizes are bytes; the arch-dependent minimums follow the simulated product (2201/2002 vs 3510).
// Bad input (type size not 2 or 4, an empty shape, a last axis not 32-byte aligned): a message
// on stderr, LastTilingStatus() set, 0 returned / the tiling left untouched.
#pragma once

#include <cstdint>

#include "tiling/tiling_types.h"

namespace optiling {
LNGRAD_TILING_DATA_DEF_FROM_FIELDS(SoftMaxTiling, LNGRAD_SOFTMAX_TILING_FIELDS);
LNGRAD_TILING_DATA_DEF_FROM_FIELDS(LogSoftMaxTiling, LNGRAD_SOFTMAX_TILING_FIELDS);
}  // namespace optiling

namespace AscendC {

uint32_t GetSoftMaxMaxTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize,
                              const bool isReuseSource);
uint32_t GetSoftMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize,
                              const bool isReuseSource);
void SoftMaxTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize,
                       const uint32_t localWorkSpaceSize, optiling::SoftMaxTiling& softmaxTiling);
void SoftMaxTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize,
                       const uint32_t localWorkSpaceSize,
                       AscendC::tiling::SoftMaxTiling& softmaxTiling);

uint32_t GetSoftMaxFlashMaxTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize,
                                   const bool isUpdate, const bool isReuseSource);
uint32_t GetSoftMaxFlashMinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize,
                                   const bool isUpdate, const bool isReuseSource);
void SoftMaxFlashTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize,
                            const uint32_t localWorkSpaceSize,
                            optiling::SoftMaxTiling& softmaxFlashTiling,
                            const bool isUpdate = false);
void SoftMaxFlashTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize,
                            const uint32_t localWorkSpaceSize,
                            AscendC::tiling::SoftMaxTiling& softmaxFlashTiling,
                            const bool isUpdate = false);

uint32_t GetSoftMaxGradMaxTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize,
                                  const bool isFront, const bool isReuseSource);
uint32_t GetSoftMaxGradMinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize,
                                  const bool isFront, const bool isReuseSource);
void SoftMaxGradTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize,
                           const uint32_t localWorkSpaceSize,
                           optiling::SoftMaxTiling& softmaxGradTiling, const bool isFront = false);
void SoftMaxGradTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize,
                           const uint32_t localWorkSpaceSize,
                           AscendC::tiling::SoftMaxTiling& softmaxGradTiling,
                           const bool isFront = false);

bool IsBasicBlockInSoftMax(optiling::SoftMaxTiling& tiling, const uint32_t dataTypeSize = 2);
bool IsBasicBlockInSoftMax(AscendC::tiling::SoftMaxTiling& tiling, const uint32_t dataTypeSize = 2);

uint32_t GetSoftMaxFlashV2MaxTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize1,
                                     const uint32_t dataTypeSize2, const bool isUpdate,
                                     const bool isBasicBlock = false,
                                     const bool isFlashOutputBrc = false);
uint32_t GetSoftMaxFlashV2MinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize1,
                                     const uint32_t dataTypeSize2, const bool isUpdate,
                                     const bool isBasicBlock = false,
                                     const bool isFlashOutputBrc = false);
void SoftMaxFlashV2TilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize1,
                              const uint32_t dataTypeSize2, const uint32_t localWorkSpaceSize,
                              optiling::SoftMaxTiling& softmaxFlashTiling, const bool isUpdate,
                              const bool isBasicBlock = false, const bool isFlashOutputBrc = false);
void SoftMaxFlashV2TilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize1,
                              const uint32_t dataTypeSize2, const uint32_t localWorkSpaceSize,
                              AscendC::tiling::SoftMaxTiling& softmaxFlashTiling,
                              const bool isUpdate, const bool isBasicBlock = false,
                              const bool isFlashOutputBrc = false);

void GetSoftMaxFlashV3MaxMinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize1,
                                    const uint32_t dataTypeSize2, uint32_t& maxValue,
                                    uint32_t& minValue, const bool isUpdate,
                                    const bool isBasicBlock = false);
void SoftMaxFlashV3TilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize1,
                              const uint32_t dataTypeSize2, const uint32_t localWorkSpaceSize,
                              optiling::SoftMaxTiling& softmaxFlashV3Tiling, const bool isUpdate,
                              const bool isBasicBlock = false);
void SoftMaxFlashV3TilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize1,
                              const uint32_t dataTypeSize2, const uint32_t localWorkSpaceSize,
                              AscendC::tiling::SoftMaxTiling& softmaxFlashV3Tiling,
                              const bool isUpdate, const bool isBasicBlock = false);

uint32_t GetLogSoftMaxMaxTmpSize(const ge::Shape srcShape, const uint32_t dataTypeSize,
                                 const bool isReuseSource);
uint32_t GetLogSoftMaxMinTmpSize(const ge::Shape srcShape, const uint32_t dataTypeSize,
                                 const bool isReuseSource);
void LogSoftMaxTilingFunc(const ge::Shape srcShape, const uint32_t dataTypeSize,
                          const uint32_t localWorkSpaceSize,
                          optiling::LogSoftMaxTiling& softmaxTiling);
void LogSoftMaxTilingFunc(const ge::Shape srcShape, const uint32_t dataTypeSize,
                          const uint32_t localWorkSpaceSize,
                          AscendC::tiling::LogSoftMaxTiling& softmaxTiling);

}  // namespace AscendC
