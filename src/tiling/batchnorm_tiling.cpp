// BatchNorm host tiling. Formulas learned from the toolkit's batchnorm_tiling_impl.cpp (facts
// only: the sizes, the column chunks, the checks); written here from that description.
#include "tiling/normalization/batchnorm_tiling.h"

#include <string>

#include "tiling_common.h"

namespace lngrad::tiling {
namespace {

using internal::CeilTo;

constexpr const char* kApi = "BatchNorm";
constexpr uint64_t kBasicSh = 64;

struct Dims {
  uint64_t b = 0, sh = 0;
};

Status DimsOf(const char* func, const ge::Shape& src, const ge::Shape& origin, Dims* d) {
  if (src.GetDimNum() != 3 || origin.GetDimNum() != 3) {
    return Status::InvalidArgument(internal::Prefix(kApi, func) +
                                   "srcShape and originSrcShape must have 3 dims ([B, S, H])");
  }
  if (origin.GetDim(0) <= 0 || src.GetDim(1) <= 0 || src.GetDim(2) <= 0) {
    return Status::InvalidArgument(internal::Prefix(kApi, func) +
                                   "originB, S and H must be greater than 0");
  }
  d->b = static_cast<uint64_t>(origin.GetDim(0));
  d->sh = static_cast<uint64_t>(src.GetDim(1)) * static_cast<uint64_t>(src.GetDim(2));
  if (d->b * d->sh > UINT32_MAX) {
    return Status::OutOfRange(internal::Prefix(kApi, func) + "B*S*H does not fit in uint32");
  }
  return Status::Ok();
}

bool BasicBlockOk(const Dims& d) { return d.sh % kBasicSh == 0 && d.b % 8 == 0; }

uint64_t MinBytes(const Dims& d, uint32_t typeSize, bool isBasicBlock) {
  uint64_t per = d.b * (typeSize == 2 ? 64 : 32);
  if (isBasicBlock) per = d.b * kBasicSh * 4;
  return 3 * per + 2 * CeilTo(d.sh * 4, 32);
}

}  // namespace

Status BatchNormMaxMinTmpSize(const ge::Shape& srcShape, const ge::Shape& originSrcShape,
                              uint32_t typeSize, bool /*isReuseSource*/, uint32_t& maxValue,
                              uint32_t& minValue, bool isBasicBlock) {
  constexpr const char* kFunc = "GetBatchNormMaxMinTmpSize";
  Dims d;
  LNGRAD_RETURN_IF_ERROR(DimsOf(kFunc, srcShape, originSrcShape, &d));
  if (isBasicBlock && !BasicBlockOk(d)) {
    return Status::InvalidArgument(internal::Prefix(kApi, kFunc) +
                                   "isBasicBlock needs S*H % 64 == 0 and originB % 8 == 0");
  }
  const uint64_t max = 3 * CeilTo(d.b * d.sh * 4, 32) + 2 * CeilTo(d.sh * 4, 32);
  return internal::StoreMaxMin(kApi, kFunc, max, MinBytes(d, typeSize, isBasicBlock), maxValue,
                               minValue);
}

Status BatchNormNDTilingInfo(const ge::Shape& srcShape, const ge::Shape& originSrcShape,
                             uint32_t stackBufferByteSize, uint32_t typeSize,
                             bool /*isReuseSource*/, AscendC::tiling::BatchNormTiling& tiling,
                             bool isBasicBlock) {
  constexpr const char* kFunc = "GetBatchNormNDTilingInfo";
  const std::string prefix = internal::Prefix(kApi, kFunc);
  Dims d;
  LNGRAD_RETURN_IF_ERROR(DimsOf(kFunc, srcShape, originSrcShape, &d));
  if (typeSize == 0 || (d.sh * typeSize) % 32 != 0) {
    return Status::InvalidArgument(prefix + "S*H*typeSize must be a multiple of 32 bytes");
  }
  if (isBasicBlock && !BasicBlockOk(d)) {
    return Status::InvalidArgument(prefix +
                                   "isBasicBlock needs S*H % 64 == 0 and originB % 8 == 0");
  }
  if (stackBufferByteSize < MinBytes(d, typeSize, isBasicBlock)) {
    return Status::InvalidArgument(prefix + "stackBufferByteSize " +
                                   std::to_string(stackBufferByteSize) + " is below the minimum " +
                                   std::to_string(MinBytes(d, typeSize, isBasicBlock)));
  }
  const uint64_t bsh = d.b * d.sh;
  const uint64_t mv = CeilTo(d.sh, 8);
  const uint64_t mv_total = typeSize == 4 ? 0 : 2 * mv;
  const uint64_t tmp_buf = stackBufferByteSize / 4;
  const uint64_t unit = d.b * (typeSize == 4 ? 8 : 16);
  uint64_t one = (tmp_buf - mv_total) / 3 / unit * unit;
  if (one > bsh) one = bsh;
  if (one == 0) return Status::InvalidArgument(prefix + "stackBufferByteSize holds no column");
  uint64_t sh_cur = one / d.b;
  if (isBasicBlock && sh_cur % kBasicSh != 0) {
    sh_cur = sh_cur / kBasicSh * kBasicSh;
    one = sh_cur * d.b;
  }
  if (one == 0) return Status::InvalidArgument(prefix + "stackBufferByteSize holds no block");
  AscendC::tiling::BatchNormTiling t;
  t.originalBLength = static_cast<uint32_t>(d.b);
  t.meanVarSize = static_cast<uint32_t>(d.sh);
  t.meanTmpTensorPos = 0;
  t.varianceTmpTensorPos = static_cast<uint32_t>(mv);
  t.tmpBufSize = static_cast<uint32_t>(tmp_buf);
  t.oneTmpSize = static_cast<uint32_t>(one);
  t.firstTmpStartPos = static_cast<uint32_t>(mv_total);
  t.secondTmpStartPos = static_cast<uint32_t>(mv_total + one);
  t.thirdTmpStartPos = static_cast<uint32_t>(mv_total + 2 * one);
  t.loopRound = static_cast<uint32_t>(bsh / one);
  t.inputTailSize = static_cast<uint32_t>(bsh % one);
  t.inputTailPos = static_cast<uint32_t>((bsh - bsh % one) / d.b);
  t.meanVarTailSize = t.inputTailSize / t.originalBLength;
  t.meanVarTailPos = t.meanVarSize - t.meanVarTailSize;
  t.bshCurLength = t.oneTmpSize;
  t.shCurLength = static_cast<uint32_t>(sh_cur);
  t.firstDimValueBack = 1.0f / static_cast<float>(d.b);
  t.castHalfRepStride = 4;
  t.shCurLengthBlockNum = t.shCurLength / 8;
  t.castHalfOutRepStride = t.meanVarSize / 16;
  tiling = t;
  return Status::Ok();
}

}  // namespace lngrad::tiling

namespace AscendC {

bool GetBatchNormMaxMinTmpSize(const ge::Shape& srcShape, const ge::Shape& originSrcShape,
                               const uint32_t typeSize, const bool isReuseSource,
                               uint32_t& maxValue, uint32_t& minValue, const bool isBasicBlock) {
  return lngrad::tiling::internal::ReportOk(lngrad::tiling::BatchNormMaxMinTmpSize(
      srcShape, originSrcShape, typeSize, isReuseSource, maxValue, minValue, isBasicBlock));
}

bool GetBatchNormNDTilingInfo(const ge::Shape& srcShape, const ge::Shape& originSrcShape,
                              const uint32_t stackBufferByteSize, const uint32_t typeSize,
                              const bool isReuseSource, AscendC::tiling::BatchNormTiling& tilling,
                              const bool isBasicBlock) {
  return lngrad::tiling::internal::ReportOk(
      lngrad::tiling::BatchNormNDTilingInfo(srcShape, originSrcShape, stackBufferByteSize, typeSize,
                                            isReuseSource, tilling, isBasicBlock));
}

bool GetBatchNormNDTilingInfo(const ge::Shape& srcShape, const ge::Shape& originSrcShape,
                              const uint32_t stackBufferByteSize, const uint32_t typeSize,
                              const bool isReuseSource, optiling::BatchNormTiling& tilling,
                              const bool isBasicBlock) {
  AscendC::tiling::BatchNormTiling plain;
  return lngrad::tiling::internal::ReportTilingOk(
      lngrad::tiling::BatchNormNDTilingInfo(srcShape, originSrcShape, stackBufferByteSize, typeSize,
                                            isReuseSource, plain, isBasicBlock),
      plain, tilling);
}

}  // namespace AscendC
