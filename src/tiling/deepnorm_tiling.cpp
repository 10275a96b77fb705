// DeepNorm host tiling. Formulas learned from the toolkit's deepnorm_tiling_impl.cpp (facts
// only: the sizes, the chunk layout, the checks); written here from that description.
#include "tiling/normalization/deepnorm_tiling.h"

#include <algorithm>
#include <string>

#include "tiling_common.h"

namespace lngrad::tiling {
namespace {

using internal::CeilTo;

constexpr const char* kApi = "DeepNorm";
constexpr uint32_t kFloatsPerBlock = 8;
constexpr uint32_t kBasicH = 64;
constexpr uint32_t kBasicBs = 8;
constexpr uint32_t kMaxH = 2040;

struct Dims {
  uint32_t b = 0, s = 0, h = 0;
  uint64_t bs = 0;
};

uint32_t Buffers(uint32_t typeSize, bool isReuseSource) {
  return isReuseSource && typeSize == sizeof(float) ? 2 : 3;
}

// The toolkit's common host checks, in its order.
Status CheckCommon(const char* func, const ge::Shape& shape, uint32_t typeSize, bool isBasicBlock,
                   Dims* d) {
  const std::string prefix = internal::Prefix(kApi, func);
  if (shape.GetShapeSize() <= 0) {
    return Status::InvalidArgument(prefix + "Input Shape size must be greater than 0.");
  }
  if (typeSize != 2 && typeSize != 4) {
    return Status::InvalidArgument(prefix + "Type size " + std::to_string(typeSize) +
                                   " is unsupported!");
  }
  if (shape.GetDimNum() != 3) {
    return Status::InvalidArgument(prefix + "The dims of srcShape is " +
                                   std::to_string(shape.GetDimNum()) +
                                   ", should be 3 (e.g. [B, S, H])!");
  }
  d->b = static_cast<uint32_t>(shape.GetDim(0));
  d->s = static_cast<uint32_t>(shape.GetDim(1));
  d->h = static_cast<uint32_t>(shape.GetDim(2));
  d->bs = uint64_t{d->b} * d->s;
  if (d->bs * d->h > UINT32_MAX) {
    return Status::OutOfRange(prefix + "B*S*H does not fit in uint32");
  }
  if ((uint64_t{d->h} * typeSize) % 32 != 0) {
    return Status::InvalidArgument(prefix + "The last axis H must be 32B aligned!");
  }
  if (d->h > kMaxH) {
    return Status::InvalidArgument(prefix + "The value of last axis can not be greater than 2040!");
  }
  if (isBasicBlock && (d->h % kBasicH != 0 || d->bs % kBasicBs != 0)) {
    return Status::InvalidArgument(prefix +
                                   "When isBasicBlock is true, H must be 64 aligned and B*S 8 "
                                   "aligned!");
  }
  return Status::Ok();
}

uint64_t MinBytes(const Dims& d, uint32_t typeSize, bool isReuseSource) {
  return Buffers(typeSize, isReuseSource) * CeilTo(4ull * d.h, 32) + 2 * CeilTo(4 * d.bs, 32);
}

}  // namespace

Status DeepNormMaxMinTmpSize(const ge::Shape& srcShape, uint32_t typeSize, bool isReuseSource,
                             bool isBasicBlock, uint32_t& maxValue, uint32_t& minValue) {
  constexpr const char* kFunc = "GetDeepNormMaxMinTmpSize";
  Dims d;
  LNGRAD_RETURN_IF_ERROR(CheckCommon(kFunc, srcShape, typeSize, isBasicBlock, &d));
  const uint64_t max =
      Buffers(typeSize, isReuseSource) * CeilTo(4 * d.bs * d.h, 32) + 2 * CeilTo(4 * d.bs, 32);
  return internal::StoreMaxMin(kApi, kFunc, max, MinBytes(d, typeSize, isReuseSource), maxValue,
                               minValue);
}

Status DeepNormTilingInfo(const ge::Shape& srcShape, const ge::Shape& originSrcShape,
                          uint32_t stackBufferSize, uint32_t typeSize, bool isReuseSource,
                          bool isBasicBlock, AscendC::tiling::DeepNormTiling& tiling) {
  constexpr const char* kFunc = "GetDeepNormTilingInfo";
  const std::string prefix = internal::Prefix(kApi, kFunc);
  Dims d;
  LNGRAD_RETURN_IF_ERROR(CheckCommon(kFunc, srcShape, typeSize, isBasicBlock, &d));
  if (originSrcShape.GetDimNum() != 3) {
    return Status::InvalidArgument(prefix + "originSrcShape must have 3 dims");
  }
  const int64_t oh = originSrcShape.GetDim(2);
  if (oh <= 0 || oh > d.h) {
    return Status::InvalidArgument(prefix + "The range of originH is " + std::to_string(oh) +
                                   ", must be (0, " + std::to_string(d.h) + "]!");
  }
  if (isBasicBlock && oh != d.h) {
    return Status::InvalidArgument(prefix +
                                   "When isBasicBlock is true, originH must be equal to H!");
  }
  if (originSrcShape.GetDim(0) != d.b || originSrcShape.GetDim(1) != d.s) {
    return Status::InvalidArgument(prefix + "originSrcShape must have srcShape's B and S");
  }
  const uint64_t min = MinBytes(d, typeSize, isReuseSource);
  if (stackBufferSize < min) {
    return Status::InvalidArgument(prefix + "stackBufferSize " + std::to_string(stackBufferSize) +
                                   " is below the minimum " + std::to_string(min));
  }
  const uint64_t bsh = d.bs * d.h;
  const uint32_t buffers = Buffers(typeSize, isReuseSource);
  const uint64_t mv_size = CeilTo(d.bs, kFloatsPerBlock);
  const uint64_t mv_total = typeSize == sizeof(float) ? 0 : 2 * mv_size;
  const uint64_t tmp_buf = stackBufferSize / sizeof(float);
  uint64_t one = (tmp_buf - mv_total) / buffers / d.h * d.h;
  one = std::min(one, bsh);
  const uint64_t basic = uint64_t{kBasicBs} * d.h;
  if (isBasicBlock && one / basic > 0) one = one / basic * basic;
  if (one == 0) return Status::InvalidArgument(prefix + "stackBufferSize holds no row");
  AscendC::tiling::DeepNormTiling t;
  t.bLength = d.b;
  t.sLength = d.s;
  t.hLength = d.h;
  t.originalHLength = static_cast<uint32_t>(oh);
  t.inputXSize = static_cast<uint32_t>(bsh);
  t.meanVarSize = static_cast<uint32_t>(d.bs);
  t.numberOfTmpBuf = buffers;
  internal::SetChunkLayout(t, mv_size, mv_total, tmp_buf, one, bsh, d.h);
  t.bsCurLength = t.meanVarRoundSize;
  t.lastDimValueBack = 1.0f / static_cast<float>(oh);
  tiling = t;
  return Status::Ok();
}

}  // namespace lngrad::tiling

namespace AscendC {

bool GetDeepNormMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                              const bool isReuseSource, const bool isBasicBlock, uint32_t& maxValue,
                              uint32_t& minValue) {
  return lngrad::tiling::internal::ReportOk(lngrad::tiling::DeepNormMaxMinTmpSize(
      srcShape, typeSize, isReuseSource, isBasicBlock, maxValue, minValue));
}

bool GetDeepNormTilingInfo(const ge::Shape& srcShape, const ge::Shape& originSrcShape,
                           const uint32_t stackBufferSize, const uint32_t typeSize,
                           const bool isReuseSource, const bool isBasicBlock,
                           AscendC::tiling::DeepNormTiling& tiling) {
  return lngrad::tiling::internal::ReportOk(lngrad::tiling::DeepNormTilingInfo(
      srcShape, originSrcShape, stackBufferSize, typeSize, isReuseSource, isBasicBlock, tiling));
}

bool GetDeepNormTilingInfo(const ge::Shape& srcShape, const ge::Shape& originSrcShape,
                           const uint32_t stackBufferSize, const uint32_t typeSize,
                           const bool isReuseSource, const bool isBasicBlock,
                           optiling::DeepNormTiling& tiling) {
  AscendC::tiling::DeepNormTiling plain;
  return lngrad::tiling::internal::ReportTilingOk(
      lngrad::tiling::DeepNormTilingInfo(srcShape, originSrcShape, stackBufferSize, typeSize,
                                         isReuseSource, isBasicBlock, plain),
      plain, tiling);
}

}  // namespace AscendC
