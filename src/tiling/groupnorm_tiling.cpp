// GroupNorm host tiling. Formulas learned from the toolkit's groupnorm_tiling_impl.cpp (facts
// only: the sizes, the group chunks, the small-shape rule, the checks); written here from that
// description.
#include "tiling/normalization/groupnorm_tiling.h"

#include <string>

#include "tiling_common.h"

namespace lngrad::tiling {
namespace {

using internal::CeilTo;

constexpr const char* kApi = "GroupNorm";

struct Nchw {
  uint64_t n = 0, c = 0, hw = 0, g = 0, d = 0, hwAlign = 0;
};

Status CheckInputs(const char* func, const ge::Shape& shape, uint32_t typeSize, uint32_t groupNum,
                   Nchw* s) {
  const std::string prefix = internal::Prefix(kApi, func);
  if (shape.GetShapeSize() <= 0) {
    return Status::InvalidArgument(prefix + "Input Shape size must be greater than 0.");
  }
  if (shape.GetDimNum() != 4) {
    return Status::InvalidArgument(prefix + "The dims of srcShape is " +
                                   std::to_string(shape.GetDimNum()) +
                                   ", should be 4 (e.g. [N, C, H, W])!");
  }
  if (typeSize != 2 && typeSize != 4) {
    return Status::InvalidArgument(prefix + "Type size " + std::to_string(typeSize) +
                                   " is unsupported!");
  }
  if (groupNum == 0) return Status::InvalidArgument(prefix + "groupNum must be greater than 0.");
  s->n = static_cast<uint64_t>(shape.GetDim(0));
  s->c = static_cast<uint64_t>(shape.GetDim(1));
  s->hw = static_cast<uint64_t>(shape.GetDim(2)) * static_cast<uint64_t>(shape.GetDim(3));
  s->g = groupNum;
  s->d = s->c / groupNum;
  s->hwAlign = CeilTo(s->hw * typeSize, 32) / typeSize;
  if (s->n * s->c * s->hwAlign * 4 > UINT32_MAX) {
    return Status::OutOfRange(prefix + "N*C*alignedHW does not fit in uint32");
  }
  return Status::Ok();
}

// The rows of the small-shape reduction (a divisor of 8) and whether the shape is small.
bool SmallShape(const Nchw& s) {
  const uint64_t dhw = s.d * s.hwAlign;
  uint64_t k = 8;
  while ((dhw / 8) % k != 0) --k;
  return s.hwAlign <= 64 && s.hwAlign * s.d <= 64 * k;
}

}  // namespace

Status GroupNormMaxMinTmpSize(const ge::Shape& srcShape, uint32_t typeSize, bool isReuseSource,
                              uint32_t groupNum, uint32_t& maxValue, uint32_t& minValue) {
  constexpr const char* kFunc = "GetGroupNormMaxMinTmpSize";
  Nchw s;
  LNGRAD_RETURN_IF_ERROR(CheckInputs(kFunc, srcShape, typeSize, groupNum, &s));
  const uint64_t mv = CeilTo(s.n * s.g * 4, 32);
  const uint64_t hw_bytes = CeilTo(s.hw * typeSize, 32) / typeSize * 4;
  const uint64_t k = isReuseSource && typeSize == 4 ? 2 : 3;
  return internal::StoreMaxMin(kApi, kFunc, k * s.n * s.c * hw_bytes + 2 * mv,
                               k * s.d * hw_bytes + 2 * mv, maxValue, minValue);
}

Status GroupNormNDTilingInfo(const ge::Shape& srcShape, uint32_t stackBufferSize, uint32_t typeSize,
                             bool isReuseSource, uint32_t groupNum,
                             AscendC::tiling::GroupNormTiling& tiling) {
  constexpr const char* kFunc = "GetGroupNormNDTilingInfo";
  const std::string prefix = internal::Prefix(kApi, kFunc);
  Nchw s;
  LNGRAD_RETURN_IF_ERROR(CheckInputs(kFunc, srcShape, typeSize, groupNum, &s));
  const uint64_t dhw = s.d * s.hwAlign;
  if (dhw == 0) return Status::InvalidArgument(prefix + "C / groupNum must be greater than 0");
  const uint64_t input = s.n * s.c * s.hwAlign;
  const uint64_t mv = s.n * s.g;
  const uint64_t mv_size = CeilTo(mv, 8);
  const uint64_t mv_total = typeSize == 4 ? 0 : 2 * mv_size;
  const uint64_t buffers = isReuseSource && typeSize == 4 ? 2 : 3;
  const uint64_t tmp_buf = stackBufferSize / 32 * 32 / 4;
  if (tmp_buf < mv_total) return Status::InvalidArgument(prefix + "stackBufferSize is too small");
  uint64_t bs = (tmp_buf - mv_total) / buffers / dhw;
  const bool small = SmallShape(s);
  if (small) {
    uint64_t mask1 = 64;
    if (dhw > 64) {
      while (mask1 != 0 && dhw % mask1 != 0) mask1 -= 8;
    } else {
      mask1 = dhw;
    }
    if (mask1 == 0) return Status::InvalidArgument(prefix + "mask1 must be greater than 0.");
    const uint64_t max_bs = 255 / (dhw / mask1) / 8 * 8;
    if (max_bs < bs) bs = max_bs;
  }
  if (typeSize == 2 && bs * dhw < s.c) {
    return Status::InvalidArgument(prefix +
                                   "stackBufferSize holds fewer than C elements per buffer");
  }
  uint64_t one = bs * dhw;
  if (one > input) {
    bs = mv;
    one = input;
  }
  if (one == 0) return Status::InvalidArgument(prefix + "the oneTmpSize should not be zero!");
  AscendC::tiling::GroupNormTiling t;
  t.n = static_cast<uint32_t>(s.n);
  t.c = static_cast<uint32_t>(s.c);
  t.hw = static_cast<uint32_t>(s.hw);
  t.g = static_cast<uint32_t>(s.g);
  t.d = static_cast<uint32_t>(s.d);
  t.hwAlignSize = static_cast<uint32_t>(s.hwAlign);
  t.dhwAlignSize = static_cast<uint32_t>(dhw);
  t.inputXSize = static_cast<uint32_t>(input);
  t.meanVarSize = static_cast<uint32_t>(mv);
  t.numberOfTmpBuf = static_cast<uint32_t>(buffers);
  internal::SetChunkLayout(t, mv_size, mv_total, tmp_buf, one, input, dhw);
  t.bsCurLength = static_cast<uint32_t>(bs);
  t.factor = 1.0f / static_cast<float>(s.d * s.hw);
  t.smallShape = small;
  tiling = t;
  return Status::Ok();
}

}  // namespace lngrad::tiling

namespace AscendC {

void GetGroupNormMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                               const bool isReuseSource, const uint32_t groupNum,
                               uint32_t& maxValue, uint32_t& minValue) {
  lngrad::tiling::internal::Report(lngrad::tiling::GroupNormMaxMinTmpSize(
      srcShape, typeSize, isReuseSource, groupNum, maxValue, minValue));
}

void GetGroupNormNDTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize,
                              const uint32_t typeSize, const bool isReuseSource,
                              const uint32_t groupNum, AscendC::tiling::GroupNormTiling& tiling) {
  lngrad::tiling::internal::Report(lngrad::tiling::GroupNormNDTilingInfo(
      srcShape, stackBufferSize, typeSize, isReuseSource, groupNum, tiling));
}

void GetGroupNormNDTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize,
                              const uint32_t typeSize, const bool isReuseSource,
                              const uint32_t groupNum, optiling::GroupNormTiling& tiling) {
  AscendC::tiling::GroupNormTiling plain;
  lngrad::tiling::internal::ReportTiling(
      lngrad::tiling::GroupNormNDTilingInfo(srcShape, stackBufferSize, typeSize, isReuseSource,
                                            groupNum, plain),
      plain, tiling);
}

}  // namespace AscendC
