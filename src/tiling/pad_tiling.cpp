// Host tiling of Pad and UnPad (tiling/transform/pad_tiling.h); the formulas are listed there.
#include "tiling/transform/pad_tiling.h"

#include <cstdint>
#include <string>

#include "tiling_common.h"

namespace {

using lngrad::NpuArch;
using lngrad::Status;
namespace in = lngrad::tiling::internal;

constexpr uint32_t kBlock = 32;
constexpr uint32_t kAddrList = 16;  // TransDataTo5HD's 16 addresses
constexpr uint32_t kTmpBuffers = 2;

std::string Where(const char* api, const char* func) { return in::Prefix(api, func); }

// typeSize 2 or 4 and a 2-dim shape with dims > 0 that fit uint32: {H, W}.
Status HeightWidth(const char* api, const char* func, const ge::Shape& shape, uint32_t typeSize,
                   uint32_t* h, uint32_t* w) {
  if (typeSize != 2 && typeSize != 4) {
    return Status::InvalidArgument(Where(api, func) + "The value of typeSize is " +
                                   std::to_string(typeSize) + ", should be 2 or 4.");
  }
  if (shape.GetDimNum() != 2) {
    return Status::InvalidArgument(Where(api, func) + "The dims of srcShape is " +
                                   std::to_string(shape.GetDimNum()) + ", should be 2.");
  }
  return in::ArDims(api, func, shape, h, w);
}

void MaxMinBytes(uint64_t h, uint64_t w, uint32_t typeSize, uint64_t* max_b, uint64_t* min_b) {
  const uint64_t per_row = uint64_t{kBlock / typeSize} * kTmpBuffers * typeSize;
  *max_b = in::CeilTo(h * w, kAddrList) * per_row;
  *min_b = kAddrList * per_row;
}

// The scratch layout both tiling functions share: two regions of tmpBuffer1BlockNum blocks of
// 16 * 32 bytes.
template <class Tiling>
Status ScratchLayout(const char* api, const char* func, uint32_t stackBufferSize, uint32_t typeSize,
                     Tiling& t) {
  const uint32_t base_elems = kAddrList * kBlock / typeSize;
  const uint32_t blocks = stackBufferSize / typeSize / base_elems / 2;
  if (blocks == 0) {
    return Status::InvalidArgument(Where(api, func) + "stackBufferSize " +
                                   std::to_string(stackBufferSize) +
                                   " holds no tmp block of 2 * 512 bytes.");
  }
  t.tmpBuffer1BlockNum = blocks;
  t.tmpBuffer1RowNum = kAddrList * blocks;
  t.tmpBuffer2Offset = blocks * base_elems;
  t.widthTiling = kAddrList * blocks;
  return Status::Ok();
}

void PadBrcbFields(uint64_t h, uint64_t w, AscendC::tiling::PadTiling& t) {
  const uint32_t max_repeat = 254;  // 255 * 8 elements are not 32-byte aligned
  t.brcbTiling = t.widthTiling;
  t.brcbFractal = static_cast<uint32_t>(h * w / t.brcbTiling);
  t.brcbFractalTail = static_cast<uint32_t>(h * w % t.brcbTiling);
  t.maxRepeatTimes = max_repeat;
  t.brcbTilingRepeatTimes = t.brcbTiling / 8 / max_repeat;
  t.brcbTilingRepeatTimesTail = t.brcbTiling / 8 % max_repeat;
  t.brcbFractalTailRepeatTimes = t.brcbFractalTail / 8 / max_repeat;
  t.brcbFractalTailRepeatTimesTail = t.brcbFractalTail / 8 % max_repeat;
}

}  // namespace

namespace lngrad::tiling {

Status PadMaxMinTmpSize(const ge::Shape& srcShape, uint32_t typeSize, uint32_t& maxValue,
                        uint32_t& minValue) {
  uint32_t h = 0, w = 0;
  LNGRAD_RETURN_IF_ERROR(HeightWidth("Pad", "GetPadMaxMinTmpSize", srcShape, typeSize, &h, &w));
  uint64_t max_b = 0, min_b = 0;
  MaxMinBytes(h, w, typeSize, &max_b, &min_b);
  return in::StoreMaxMin("Pad", "GetPadMaxMinTmpSize", max_b, min_b, maxValue, minValue);
}

Status PadTiling(const ge::Shape& srcShape, const ge::Shape& oriSrcShape, uint32_t stackBufferSize,
                 uint32_t typeSize, AscendC::tiling::PadTiling& tiling) {
  constexpr const char* func = "PadTilingFunc";
  uint32_t h = 0, w = 0;
  LNGRAD_RETURN_IF_ERROR(HeightWidth("Pad", func, srcShape, typeSize, &h, &w));
  if (oriSrcShape.GetDimNum() != 2) {
    return Status::InvalidArgument(Where("Pad", func) + "The dims of oriSrcShape is " +
                                   std::to_string(oriSrcShape.GetDimNum()) + ", should be 2.");
  }
  if (oriSrcShape.GetShapeSize() > srcShape.GetShapeSize()) {
    return Status::InvalidArgument(Where("Pad", func) +
                                   "The size of oriSrcShape should be less than or equal to "
                                   "srcShape size.");
  }
  AscendC::tiling::PadTiling t;
  const uint32_t elems = kBlock / typeSize, height_tiling = 255;
  t.srcHeight = h;
  t.srcWidth = w;
  t.srcOriWidth = static_cast<uint32_t>(oriSrcShape.GetDim(1));
  t.widthWithoutLastBlock = w - elems;
  t.blocksPerRow = w * typeSize / kBlock;
  t.heightTiling = height_tiling;
  t.heightFractal = h / height_tiling;
  t.heightFractalTail = h % height_tiling;
  t.mainLoopOffset = height_tiling * w;
  t.tailBlockOffset = t.heightFractal * height_tiling * w + t.widthWithoutLastBlock;
  if (stackBufferSize != 0) {
    LNGRAD_RETURN_IF_ERROR(ScratchLayout("Pad", func, stackBufferSize, typeSize, t));
    t.widthFractal = w / t.widthTiling;
    t.widthFractalTail = w % t.widthTiling;
    t.widthFractalTailAlingned = ((t.widthFractalTail - 1) / elems + 1) * elems;
    PadBrcbFields(h, w, t);
  }
  tiling = t;
  return Status::Ok();
}

Status UnPadMaxMinTmpSize(const platform_ascendc::PlatformAscendC& platform,
                          const ge::Shape& srcShape, uint32_t typeSize, uint32_t& maxValue,
                          uint32_t& minValue) {
  constexpr const char* func = "GetUnPadMaxMinTmpSize";
  uint32_t h = 0, w = 0;
  LNGRAD_RETURN_IF_ERROR(HeightWidth("UnPad", func, srcShape, typeSize, &h, &w));
  const NpuArch arch = platform.SimulatedProduct().arch;
  uint64_t max_b = 0, min_b = 0;
  if (arch != NpuArch::k2201 && arch != NpuArch::k3510) MaxMinBytes(h, w, typeSize, &max_b, &min_b);
  return in::StoreMaxMin("UnPad", func, max_b, min_b, maxValue, minValue);
}

Status UnPadTiling(const ge::Shape& srcShape, uint32_t stackBufferSize, uint32_t typeSize,
                   AscendC::tiling::UnPadTiling& tiling) {
  constexpr const char* func = "UnPadTilingFunc";
  uint32_t h = 0, w = 0;
  LNGRAD_RETURN_IF_ERROR(HeightWidth("UnPad", func, srcShape, typeSize, &h, &w));
  AscendC::tiling::UnPadTiling t;
  t.srcHeight = h;
  t.srcWidth = w;
  if (stackBufferSize != 0) {
    LNGRAD_RETURN_IF_ERROR(ScratchLayout("UnPad", func, stackBufferSize, typeSize, t));
    t.widthFractal = w / t.widthTiling;
    t.widthFractalTail = w % t.widthTiling;
    if (t.widthFractalTail != 0) {
      t.widthFractal += 1;
    } else {
      t.widthFractalTail = t.widthTiling;
    }
  }
  tiling = t;
  return Status::Ok();
}

}  // namespace lngrad::tiling

namespace AscendC {

namespace {
#define LNGRAD_COPY_FIELD(type, name) to.set_##name(from.name);
void Copy(const tiling::PadTiling& from, optiling::PadTiling& to) {
  LNGRAD_PAD_TILING_FIELDS(LNGRAD_COPY_FIELD)
}
void Copy(const tiling::UnPadTiling& from, optiling::UnPadTiling& to) {
  LNGRAD_UNPAD_TILING_FIELDS(LNGRAD_COPY_FIELD)
}
#undef LNGRAD_COPY_FIELD

template <class Plain, class Def>
void ReportInto(const lngrad::Status& s, const Plain& plain, Def& tiling) {
  if (s.ok()) Copy(plain, tiling);
  in::Report(s);
}
}  // namespace

void GetPadMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                         uint32_t& minValue) {
  in::Report(lngrad::tiling::PadMaxMinTmpSize(srcShape, typeSize, maxValue, minValue));
}

void PadTilingFunc(const ge::Shape srcShape, const ge::Shape oriSrcShape,
                   const uint32_t stackBufferSize, const uint32_t typeSize,
                   optiling::PadTiling& tiling) {
  tiling::PadTiling plain;
  ReportInto(lngrad::tiling::PadTiling(srcShape, oriSrcShape, stackBufferSize, typeSize, plain),
             plain, tiling);
}

void PadTilingFunc(const ge::Shape srcShape, const ge::Shape oriSrcShape,
                   const uint32_t stackBufferSize, const uint32_t typeSize,
                   AscendC::tiling::PadTiling& tiling) {
  in::Report(lngrad::tiling::PadTiling(srcShape, oriSrcShape, stackBufferSize, typeSize, tiling));
}

void GetUnPadMaxMinTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform,
                           const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                           uint32_t& minValue) {
  in::Report(
      lngrad::tiling::UnPadMaxMinTmpSize(ascendcPlatform, srcShape, typeSize, maxValue, minValue));
}

void UnPadTilingFunc(const ge::Shape srcShape, const uint32_t stackBufferSize,
                     const uint32_t typeSize, optiling::UnPadTiling& tiling) {
  tiling::UnPadTiling plain;
  ReportInto(lngrad::tiling::UnPadTiling(srcShape, stackBufferSize, typeSize, plain), plain,
             tiling);
}

void UnPadTilingFunc(const ge::Shape srcShape, const uint32_t stackBufferSize,
                     const uint32_t typeSize, AscendC::tiling::UnPadTiling& tiling) {
  in::Report(lngrad::tiling::UnPadTiling(srcShape, stackBufferSize, typeSize, tiling));
}

}  // namespace AscendC
