// Host side of the quantization, filter and select APIs (issue 28; kernel side
// lib/quantization/*.h, lib/filter/dropout.h, lib/select/selectwithbytesmask.h): the scratch
// sizes with the vendor's names, signatures and values (impl/adv_api/tiling/{quantization,
// filter,select}/*_tiling_impl.cpp). All sizes are bytes; n is srcShape.GetShapeSize().
//   AscendQuant, Quantize: min = 512, max = align32(max(2n, 512)); factor 2, extra 0.
//   AscendDequant, Dequantize: [outer, inner] (a 1-dim shape is [1, inner]):
//     min = (64 + inner + inner + 8) * 4, max = (64 + outer * inner + inner + 8) * 4;
//     factor: 2-dim {1, 72 + inner}, 1-dim {2, 72}.
//   AscendAntiQuant: half output 0 and 0; otherwise, scale size s (1: per tensor):
//     per tensor min 1024, max n * 4; per channel, transposed 80 s * 4 (both);
//     not transposed 2 s * 4 + 64 * srcShape[0] * 4 (both). fp4 inputs: transposed
//     align32(s) * 2, else 0. AntiQuantize: 0 and 0.
//   DropOut: min = 512, max = max(512, 2 * n * 4).
//   Select (SelectWithBytesMask): size = the tensor source's size (src1's when src0 is a scalar),
//     calc = min(size, 4096) for the minimum, size for the maximum;
//     max(1024, align32(calc) * 2 + 512), plus align32(size * maskTypeSize) when the mask's last
//     axis differs from the source's, isReuseMask is false and the mask's last axis > 1.
// Bad input (shape size 0, a type size the API does not take): a message on stderr, outputs
// untouched, lngrad::tiling::LastTilingStatus() set; never throws.
#pragma once

#include <cstdint>

#include "graph/tensor.h"
#include "graph/types.h"

namespace AscendC {

void GetAscendQuantMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                                 uint32_t& maxValue, uint32_t& minValue);
void GetAscendQuantTmpBufferFactorSize(uint32_t& maxLiveNodeCount, uint32_t& extraBuf);
void GetQuantizeMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                              uint32_t& maxValue, uint32_t& minValue);
void GetQuantizeTmpBufferFactorSize(uint32_t& maxLiveNodeCount, uint32_t& extraBuf);

void GetAscendDequantMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                                   uint32_t& maxValue, uint32_t& minValue);
void GetAscendDequantTmpBufferFactorSize(const ge::Shape& srcShape, uint32_t& maxLiveNodeCount,
                                         uint32_t& extraBuf);
void GetDequantizeMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                                uint32_t& maxValue, uint32_t& minValue);
void GetDequantizeTmpBufferFactorSize(const ge::Shape& srcShape, uint32_t& maxLiveNodeCnt,
                                      uint32_t& extraBuf);

uint32_t GetAscendAntiQuantMaxTmpSize(const ge::Shape& srcShape, const ge::Shape& scaleShape,
                                      bool isTranspose, ge::DataType inputDataType,
                                      ge::DataType outputDataType);
uint32_t GetAscendAntiQuantMinTmpSize(const ge::Shape& srcShape, const ge::Shape& scaleShape,
                                      bool isTranspose, ge::DataType inputDataType,
                                      ge::DataType outputDataType);
void GetAscendAntiQuantMaxMinTmpSize(const ge::Shape& srcShape, const ge::Shape& scaleShape,
                                     bool isTranspose, ge::DataType inputDataType,
                                     ge::DataType outputDataType, uint32_t& maxValue,
                                     uint32_t& minValue);
void GetAscendAntiQuantTmpBufferFactorSize(const ge::Shape& srcShape, const ge::Shape& scaleShape,
                                           bool isTranspose, ge::DataType inputDataType,
                                           ge::DataType outputDataType, uint32_t& maxLiveNodeCount,
                                           uint32_t& extraBuf);
void GetAntiQuantizeMaxMinTmpSize(const ge::Shape& srcShape, const ge::Shape& scaleShape,
                                  bool isTranspose, ge::DataType inputDataType,
                                  ge::DataType outputDataType, uint32_t& maxValue,
                                  uint32_t& minValue);
void GetAntiQuantizeTmpBufferFactorSize(const ge::Shape& srcShape, const ge::Shape& scaleShape,
                                        ge::DataType inputDataType, ge::DataType outputDataType,
                                        uint32_t& maxLiveNodeCount, uint32_t& extraBuf);

uint32_t GetDropOutMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                              const bool isReuseSource);
uint32_t GetDropOutMaxTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                              const bool isReuseSource);
void GetDropOutMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                             const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue);

#define LNGRAD_SELECT_TMP_SIZE(Name)                                                     \
  uint32_t Get##Name##MinTmpSize(const ge::Shape& src0Shape, const ge::Shape& src1Shape, \
                                 const uint32_t srcTypeSize, const ge::Shape& maskShape, \
                                 const uint32_t maskTypeSize, const bool isReuseMask);   \
  uint32_t Get##Name##MaxTmpSize(const ge::Shape& src0Shape, const ge::Shape& src1Shape, \
                                 const uint32_t srcTypeSize, const ge::Shape& maskShape, \
                                 const uint32_t maskTypeSize, const bool isReuseMask);   \
  void Get##Name##MaxMinTmpSize(const ge::Shape& src0Shape, const ge::Shape& src1Shape,  \
                                const uint32_t srcTypeSize, const ge::Shape& maskShape,  \
                                const uint32_t maskTypeSize, const bool isReuseMask,     \
                                uint32_t& maxValue, uint32_t& minValue);
LNGRAD_SELECT_TMP_SIZE(Select)
LNGRAD_SELECT_TMP_SIZE(SelectWithBytesMask)
#undef LNGRAD_SELECT_TMP_SIZE

}  // namespace AscendC
