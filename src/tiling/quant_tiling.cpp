// Host scratch sizes of the quantization, filter and select APIs
// (tiling/quantization/quant_tiling.h); the values are the toolkit's
// (impl/adv_api/tiling/{quantization,filter,select}/*_tiling_impl.cpp), written from the
// formulas listed in the header.
#include "tiling/quantization/quant_tiling.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>

#include "tiling_common.h"

namespace {

using lngrad::Status;
using lngrad::tiling::internal::Report;
using lngrad::tiling::internal::StoreMaxMin;

constexpr uint64_t kRepeatBytes = 256;

uint64_t Align32(uint64_t v) { return (v + 31) / 32 * 32; }

Status Fail(const char* api, const char* func, const std::string& what) {
  return Status::InvalidArgument(std::string("[") + api + "][" + func + "] " + what);
}

// AscendQuant's common checks: shape size > 0, 32-byte aligned source, type size 2 or 4.
Status QuantShape(const char* api, const char* func, const ge::Shape& s, uint32_t typeSize,
                  bool strict) {
  if (s.GetShapeSize() <= 0) return Fail(api, func, "Input Shape size must be greater than 0.");
  if (!strict) return Status::Ok();
  if (static_cast<uint64_t>(s.GetShapeSize()) * typeSize % 32 != 0) {
    return Fail(api, func, "Input Shape size must be 32B aligned!.");
  }
  if (typeSize != 2 && typeSize != 4) {
    return Fail(api, func, "Type size " + std::to_string(typeSize) + " is unsupported!");
  }
  return Status::Ok();
}

void QuantMaxMin(const char* api, const char* func, const ge::Shape& s, uint32_t typeSize,
                 bool strict, uint32_t& maxValue, uint32_t& minValue) {
  Status st = QuantShape(api, func, s, typeSize, strict);
  if (st.ok()) {
    const uint64_t n = static_cast<uint64_t>(s.GetShapeSize());
    st = StoreMaxMin(api, func, Align32(std::max(n * 2, 2 * kRepeatBytes)), 2 * kRepeatBytes,
                     maxValue, minValue);
  }
  Report(st);
}

// The [outer, inner] of a dequantization source (1 dim: [1, inner]).
Status DequantDims(const char* api, const char* func, const ge::Shape& s, uint32_t typeSize,
                   bool strict, uint64_t* outer, uint64_t* inner) {
  if (strict && s.GetShapeSize() <= 0) {
    return Fail(api, func, "Input Shape size must be greater than 0.");
  }
  if (s.GetDimNum() != 1 && s.GetDimNum() != 2) {
    return Fail(api, func, "srcShape should be 1-dimensional / 2-dimensional.");
  }
  if (strict && typeSize != 4) {
    return Fail(api, func, "Type size " + std::to_string(typeSize) + " is unsupported!");
  }
  *outer = s.GetDimNum() == 2 ? static_cast<uint64_t>(s.GetDim(0)) : 1;
  *inner = static_cast<uint64_t>(s.GetDim(s.GetDimNum() - 1));
  return Status::Ok();
}

void DequantMaxMin(const char* api, const char* func, const ge::Shape& s, uint32_t typeSize,
                   bool strict, uint32_t& maxValue, uint32_t& minValue) {
  uint64_t outer = 0, inner = 0;
  Status st = DequantDims(api, func, s, typeSize, strict, &outer, &inner);
  if (st.ok()) {
    const uint64_t scale = inner + 8;
    st = StoreMaxMin(api, func, (64 + outer * inner + scale) * 4, (64 + inner + scale) * 4,
                     maxValue, minValue);
  }
  Report(st);
}

void DequantFactor(const ge::Shape& s, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
  extraBuf = 8 + 64;
  if (s.GetDimNum() == 2) {
    extraBuf += static_cast<uint32_t>(s.GetDim(1));
    maxLiveNodeCount = 1;
  } else if (s.GetDimNum() == 1) {
    maxLiveNodeCount = 2;
  } else {
    extraBuf = 0;
    maxLiveNodeCount = 0;
  }
  Report(Status::Ok());
}

uint64_t ShapeProduct(const ge::Shape& s) {
  uint64_t p = 1;
  for (int64_t d : s.GetDims()) p *= static_cast<uint64_t>(d);
  return p;
}

bool IsFp4(ge::DataType t) { return t == ge::DT_FLOAT4_E2M1 || t == ge::DT_FLOAT4_E1M2; }

// AscendAntiQuant's check: a transposed source's K (dim 1) aligned as the toolkit tests it.
Status AntiQuantCheck(const char* func, const ge::Shape& src, bool isTranspose, ge::DataType in) {
  if (src.GetShapeSize() <= 0) {
    return Fail("AscendAntiQuant", func, "Input Shape size must be greater than 0.");
  }
  if (isTranspose && static_cast<int64_t>(in) * src.GetDim(1) % 32 != 0) {
    std::fprintf(stderr,
                 "[AscendAntiQuant][%s] When isTranspose is true, srcShape is [N, K] where "
                 "the dimension K must be 32B aligned!\n",
                 func);
  }
  return Status::Ok();
}

// The per-channel sizes shared by the maximum and the minimum.
uint64_t AntiQuantChannel(const ge::Shape& src, uint64_t scale, bool isTranspose) {
  if (isTranspose) return (8 + 8 + 64) * scale * 4;
  return scale * 2 * 4 + 64 * static_cast<uint64_t>(src.GetDim(0)) * 4;
}

uint64_t AntiQuantSize(const ge::Shape& src, const ge::Shape& scaleShape, bool isTranspose,
                       ge::DataType in, ge::DataType out, bool isMax) {
  const uint64_t scale = ShapeProduct(scaleShape);
  if (IsFp4(in)) return isTranspose ? Align32(scale) * 2 : 0;
  if (out == ge::DT_FLOAT16) return 0;
  if (scale != 1) return AntiQuantChannel(src, scale, isTranspose);
  return isMax ? ShapeProduct(src) * 4 : 1024;
}

uint32_t AntiQuantOne(const char* func, const ge::Shape& src, const ge::Shape& scale,
                      bool isTranspose, ge::DataType in, ge::DataType out, bool isMax) {
  const Status st = AntiQuantCheck(func, src, isTranspose, in);
  Report(st);
  if (!st.ok()) return 0;
  return static_cast<uint32_t>(AntiQuantSize(src, scale, isTranspose, in, out, isMax));
}

bool IsScalarShape(const ge::Shape& s) { return s.GetDimNum() == 0 || s.GetShapeSize() == 1; }

Status SelectCheck(const char* func, const ge::Shape& src0, const ge::Shape& src1,
                   const ge::Shape& mask, uint32_t maskTypeSize) {
  if (maskTypeSize != 1 && maskTypeSize != 2 && maskTypeSize != 4) {
    return Fail("Select", func,
                "The value of maskTypeSize is " + std::to_string(maskTypeSize) +
                    ", should be 1 or 2 or 4.");
  }
  if (src0.GetDimNum() != 2 && src1.GetDimNum() != 2) {
    return Fail("Select", func, "one of src0Shape and src1Shape should have 2 dimensions.");
  }
  if (mask.GetDimNum() != 2) return Fail("Select", func, "The dims of maskShape should be 2.");
  return Status::Ok();
}

uint32_t SelectSize(const char* func, const ge::Shape& src0, const ge::Shape& src1,
                    const ge::Shape& mask, uint32_t maskTypeSize, bool isReuseMask, bool isMin) {
  const Status st = SelectCheck(func, src0, src1, mask, maskTypeSize);
  Report(st);
  if (!st.ok()) return 0;
  const ge::Shape& src = IsScalarShape(src0) ? src1 : src0;
  const int64_t size = src.GetShapeSize();
  const int64_t maskLast = mask.GetDim(mask.GetDimNum() - 1);
  const int64_t srcLast = src.GetDim(src.GetDimNum() - 1);
  const uint64_t calc = static_cast<uint64_t>(isMin && size > 4096 ? 4096 : size);
  uint64_t need = std::max<uint64_t>(1024, Align32(calc) * 2 + 512);
  if (maskLast != srcLast && !isReuseMask && maskLast > 1) {
    need += Align32(static_cast<uint64_t>(size) * maskTypeSize);
  }
  return static_cast<uint32_t>(need);
}

Status DropOutCheck(const char* func, const ge::Shape& s, uint32_t typeSize) {
  if (typeSize != 2 && typeSize != 4) {
    return Fail("DropOut", func,
                "The value of typeSize is " + std::to_string(typeSize) + ", should be 2 or 4.");
  }
  if (s.GetDimNum() == 0) return Fail("DropOut", func, "The dims of srcShape should be > 0.");
  return Status::Ok();
}

}  // namespace

namespace AscendC {

void GetAscendQuantMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                                 uint32_t& maxValue, uint32_t& minValue) {
  QuantMaxMin("AscendQuant", "GetAscendQuantMaxMinTmpSize", srcShape, typeSize, true, maxValue,
              minValue);
}
void GetAscendQuantTmpBufferFactorSize(uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
  maxLiveNodeCount = 2;
  extraBuf = 0;
  Report(Status::Ok());
}
void GetQuantizeMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                              uint32_t& maxValue, uint32_t& minValue) {
  QuantMaxMin("Quantize", "GetQuantizeMaxMinTmpSize", srcShape, typeSize, false, maxValue,
              minValue);
}
void GetQuantizeTmpBufferFactorSize(uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
  GetAscendQuantTmpBufferFactorSize(maxLiveNodeCount, extraBuf);
}

void GetAscendDequantMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                                   uint32_t& maxValue, uint32_t& minValue) {
  DequantMaxMin("AscendDequant", "GetAscendDequantMaxMinTmpSize", srcShape, typeSize, true,
                maxValue, minValue);
}
void GetAscendDequantTmpBufferFactorSize(const ge::Shape& srcShape, uint32_t& maxLiveNodeCount,
                                         uint32_t& extraBuf) {
  DequantFactor(srcShape, maxLiveNodeCount, extraBuf);
}
void GetDequantizeMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                                uint32_t& maxValue, uint32_t& minValue) {
  DequantMaxMin("Dequantize", "GetDequantizeMaxMinTmpSize", srcShape, typeSize, false, maxValue,
                minValue);
}
void GetDequantizeTmpBufferFactorSize(const ge::Shape& srcShape, uint32_t& maxLiveNodeCnt,
                                      uint32_t& extraBuf) {
  DequantFactor(srcShape, maxLiveNodeCnt, extraBuf);
}

uint32_t GetAscendAntiQuantMaxTmpSize(const ge::Shape& srcShape, const ge::Shape& scaleShape,
                                      bool isTranspose, ge::DataType inputDataType,
                                      ge::DataType outputDataType) {
  return AntiQuantOne("GetAscendAntiQuantMaxTmpSize", srcShape, scaleShape, isTranspose,
                      inputDataType, outputDataType, true);
}
uint32_t GetAscendAntiQuantMinTmpSize(const ge::Shape& srcShape, const ge::Shape& scaleShape,
                                      bool isTranspose, ge::DataType inputDataType,
                                      ge::DataType outputDataType) {
  return AntiQuantOne("GetAscendAntiQuantMinTmpSize", srcShape, scaleShape, isTranspose,
                      inputDataType, outputDataType, false);
}
void GetAscendAntiQuantMaxMinTmpSize(const ge::Shape& srcShape, const ge::Shape& scaleShape,
                                     bool isTranspose, ge::DataType inputDataType,
                                     ge::DataType outputDataType, uint32_t& maxValue,
                                     uint32_t& minValue) {
  constexpr const char* kFunc = "GetAscendAntiQuantMaxMinTmpSize";
  const Status st = AntiQuantCheck(kFunc, srcShape, isTranspose, inputDataType);
  if (st.ok()) {
    maxValue = static_cast<uint32_t>(
        AntiQuantSize(srcShape, scaleShape, isTranspose, inputDataType, outputDataType, true));
    minValue = static_cast<uint32_t>(
        AntiQuantSize(srcShape, scaleShape, isTranspose, inputDataType, outputDataType, false));
  }
  Report(st);
}
void GetAscendAntiQuantTmpBufferFactorSize(const ge::Shape& srcShape, const ge::Shape& scaleShape,
                                           bool isTranspose, ge::DataType inputDataType,
                                           ge::DataType outputDataType, uint32_t& maxLiveNodeCount,
                                           uint32_t& extraBuf) {
  extraBuf = 0;
  maxLiveNodeCount = 0;
  const uint64_t scale = ShapeProduct(scaleShape);
  if (IsFp4(inputDataType)) {
    if (isTranspose) extraBuf = static_cast<uint32_t>(Align32(scale) * 2);
  } else if (outputDataType == ge::DT_FLOAT16) {
    maxLiveNodeCount = 0;
  } else if (scale == 1) {
    maxLiveNodeCount = 1;
  } else {
    extraBuf = static_cast<uint32_t>(AntiQuantChannel(srcShape, scale, isTranspose));
  }
  Report(Status::Ok());
}
void GetAntiQuantizeMaxMinTmpSize(const ge::Shape&, const ge::Shape&, bool, ge::DataType,
                                  ge::DataType, uint32_t& maxValue, uint32_t& minValue) {
  maxValue = 0;
  minValue = 0;
  Report(Status::Ok());
}
void GetAntiQuantizeTmpBufferFactorSize(const ge::Shape&, const ge::Shape&, ge::DataType,
                                        ge::DataType, uint32_t& maxLiveNodeCount,
                                        uint32_t& extraBuf) {
  maxLiveNodeCount = 0;
  extraBuf = 0;
  Report(Status::Ok());
}

uint32_t GetDropOutMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool) {
  Report(DropOutCheck("GetDropOutMinTmpSize", srcShape, typeSize));
  return 2 * kRepeatBytes;
}
uint32_t GetDropOutMaxTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool) {
  Report(DropOutCheck("GetDropOutMaxTmpSize", srcShape, typeSize));
  const uint64_t bytes = 2 * ShapeProduct(srcShape) * sizeof(float);
  return static_cast<uint32_t>(std::max<uint64_t>(2 * kRepeatBytes, bytes));
}
void GetDropOutMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                             const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
  maxValue = GetDropOutMaxTmpSize(srcShape, typeSize, isReuseSource);
  minValue = GetDropOutMinTmpSize(srcShape, typeSize, isReuseSource);
}

#define LNGRAD_SELECT_TMP_SIZE(Name)                                                             \
  uint32_t Get##Name##MinTmpSize(const ge::Shape& src0Shape, const ge::Shape& src1Shape,         \
                                 const uint32_t, const ge::Shape& maskShape,                     \
                                 const uint32_t maskTypeSize, const bool isReuseMask) {          \
    return SelectSize("Get" #Name "MinTmpSize", src0Shape, src1Shape, maskShape, maskTypeSize,   \
                      isReuseMask, true);                                                        \
  }                                                                                              \
  uint32_t Get##Name##MaxTmpSize(const ge::Shape& src0Shape, const ge::Shape& src1Shape,         \
                                 const uint32_t, const ge::Shape& maskShape,                     \
                                 const uint32_t maskTypeSize, const bool isReuseMask) {          \
    return SelectSize("Get" #Name "MaxTmpSize", src0Shape, src1Shape, maskShape, maskTypeSize,   \
                      isReuseMask, false);                                                       \
  }                                                                                              \
  void Get##Name##MaxMinTmpSize(const ge::Shape& src0Shape, const ge::Shape& src1Shape,          \
                                const uint32_t srcTypeSize, const ge::Shape& maskShape,          \
                                const uint32_t maskTypeSize, const bool isReuseMask,             \
                                uint32_t& maxValue, uint32_t& minValue) {                        \
    maxValue = Get##Name##MaxTmpSize(src0Shape, src1Shape, srcTypeSize, maskShape, maskTypeSize, \
                                     isReuseMask);                                               \
    minValue = Get##Name##MinTmpSize(src0Shape, src1Shape, srcTypeSize, maskShape, maskTypeSize, \
                                     isReuseMask);                                               \
  }
LNGRAD_SELECT_TMP_SIZE(Select)
LNGRAD_SELECT_TMP_SIZE(SelectWithBytesMask)
#undef LNGRAD_SELECT_TMP_SIZE

}  // namespace AscendC
