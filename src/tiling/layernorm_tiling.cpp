// Forward LayerNorm host tiling. Formulas learned from hicann/asc-devkit
// impl/adv_api/tiling/normalization/layernorm_tiling_impl.cpp and normalize_tiling_impl.cpp
// (see docs/ascendc_compat.md ("Host tiling")); written here from that description.
#include "tiling/normalization/layernorm_tiling.h"

#include <algorithm>

#include "tiling_common.h"

namespace lngrad::tiling {
namespace {

using internal::Bsh;
using internal::CeilTo;
using internal::FitU32;

constexpr const char* kApi = "LayerNorm";
constexpr const char* kMaxMinFunc = "GetLayerNormMaxMinTmpSize";
constexpr const char* kTilingFunc = "GetLayerNormNDTilingInfo";
constexpr uint64_t kBlockBytes = 32;
constexpr uint64_t kFloatsPerBlock = 8;
// Vector register length of the 3510 family in bytes (64 floats).
constexpr uint64_t kRegBaseVecBytes = 256;

bool FloatReuse(uint32_t typeSize, bool isReuseSource) {
  return isReuseSource && typeSize == sizeof(float);
}

bool Supported() { return lngrad::CurrentProduct().supports_layernorm; }

Status CheckInputs(const char* func, const ge::Shape& srcShape, uint32_t typeSize, Bsh* d) {
  return internal::CheckBshShape(kApi, func, Supported(), srcShape, typeSize,
                                 internal::CheckOrder::kTypeSizeLast, d);
}

Status NdTiling(const char* func, const ge::Shape& srcShape, uint32_t stackBufferSize,
                uint32_t typeSize, bool isReuseSource, AscendC::tiling::LayerNormTiling& tiling) {
  Bsh d;
  LNGRAD_RETURN_IF_ERROR(CheckInputs(func, srcShape, typeSize, &d));
  // Three float work buffers (two when float+reuse works in inputX itself); half also stages
  // mean and variance in float at the front of the scratch.
  const uint32_t buffers = FloatReuse(typeSize, isReuseSource) ? 2 : 3;
  const uint64_t mv_size = CeilTo(d.bs, kFloatsPerBlock);
  const uint64_t mv_total = typeSize == sizeof(float) ? 0 : 2 * mv_size;
  const uint64_t tmp_buf = stackBufferSize / sizeof(float);
  uint64_t one = tmp_buf >= mv_total ? (tmp_buf - mv_total) / buffers / d.h * d.h : 0;
  one = std::min<uint64_t>(one, d.bsh);
  if (one == 0) {
    // The toolkit returns silently here (and wraps when the buffer is below mv_total).
    return Status::InvalidArgument(
        internal::Prefix(kApi, func) + "stackBufferSize is not enough. (" +
        std::to_string(stackBufferSize) + " bytes; needs " +
        std::to_string((mv_total + uint64_t{buffers} * d.h) * sizeof(float)) + " bytes for " +
        std::to_string(buffers) + " float buffers of one row (H = " + std::to_string(d.h) + ")" +
        (mv_total ? " after the float mean/variance" : "") + ")");
  }
  uint32_t mv_size32 = 0;
  LNGRAD_RETURN_IF_ERROR(FitU32(kApi, func, "ceil8(B*S)", mv_size, &mv_size32));
  AscendC::tiling::LayerNormTiling t;
  internal::SetShapeFields(d, t);
  t.inputXSize = d.bsh;
  t.meanVarSize = d.bs;
  t.numberOfTmpBuf = buffers;
  t.meanTmpTensorPos = 0;
  t.meanTmpTensorSize = mv_size32;
  t.varianceTmpTensorPos = mv_size32;
  t.varianceTmpTensorSize = mv_size32;
  t.tmpBufSize = static_cast<uint32_t>(tmp_buf);
  t.oneTmpSize = static_cast<uint32_t>(one);
  // one <= tmp_buf - mv_total, so these stay below 2^32 except the unused third buffer of
  // float+reuse, which stays below tmp_buf + one.
  LNGRAD_RETURN_IF_ERROR(
      FitU32(kApi, func, "thirdTmpStartPos", mv_total + 2 * one, &t.thirdTmpStartPos));
  t.firstTmpStartPos = static_cast<uint32_t>(mv_total);
  t.secondTmpStartPos = static_cast<uint32_t>(mv_total + one);
  t.loopRound = d.bsh / t.oneTmpSize;
  t.inputRoundSize = t.oneTmpSize;
  t.inputTailSize = d.bsh % t.oneTmpSize;
  t.inputTailPos = d.bsh - t.inputTailSize;
  t.meanVarRoundSize = t.inputRoundSize / d.h;
  t.meanVarTailSize = t.inputTailSize / d.h;
  t.meanVarTailPos = d.bs - t.meanVarTailSize;
  t.bshCurLength = t.inputRoundSize;
  t.bsCurLength = t.meanVarRoundSize;
  t.lastDimValueBack = 1.0f / static_cast<float>(d.orig_h);
  tiling = t;
  return Status::Ok();
}

}  // namespace

Status LayerNormMaxMinTmpSize(const ge::Shape& srcShape, uint32_t typeSize, bool isReuseSource,
                              uint32_t& maxValue, uint32_t& minValue) {
  Bsh d;
  LNGRAD_RETURN_IF_ERROR(CheckInputs(kMaxMinFunc, srcShape, typeSize, &d));
  const uint64_t mv = CeilTo(uint64_t{d.bs} * sizeof(float), kBlockBytes);
  const uint64_t in = CeilTo(uint64_t{d.bsh} * sizeof(float), kBlockBytes);
  const uint64_t row = CeilTo(uint64_t{d.h} * sizeof(float), kBlockBytes);
  const uint64_t buffers = FloatReuse(typeSize, isReuseSource) ? 2 : 3;
  return internal::StoreMaxMin(kApi, kMaxMinFunc, buffers * in + 2 * mv, buffers * row + 2 * mv,
                               maxValue, minValue);
}

Status LayerNormMaxMinTmpSize(const ge::Shape& srcShape, uint32_t typeSize, bool /*isReuseSource*/,
                              bool isComputeRstd, bool isOnlyOutput, uint32_t& maxValue,
                              uint32_t& minValue) {
  const std::string prefix = internal::Prefix(kApi, kMaxMinFunc);
  LNGRAD_RETURN_IF_ERROR(internal::CheckProductSupports(kApi, kMaxMinFunc, Supported()));
  if (typeSize == 0) return Status::InvalidArgument(prefix + "typeSize can not be 0!");
  if (isOnlyOutput)
    return Status::InvalidArgument(prefix + "isOnlyOutput current only support false.");
  if (typeSize != 2 && typeSize != 4) {
    return Status::InvalidArgument(prefix + "Type size " + std::to_string(typeSize) +
                                   " is unsupported! (typeSize must be 2 or 4)");
  }
  if (srcShape.GetShapeSize() <= 0) {
    return Status::InvalidArgument(prefix + "Input Shape size must be greater than 0.");
  }
  if (srcShape.GetDimNum() != 2) {
    return Status::InvalidArgument(
        prefix + "The dims of srcShape is " + std::to_string(srcShape.GetDimNum()) +
        ", should be 2 ([A, R]) for the isComputeRstd/isOnlyOutput overload");
  }
  uint32_t a = 0;
  uint32_t r = 0;
  LNGRAD_RETURN_IF_ERROR(internal::ArDims(kApi, kMaxMinFunc, srcShape, &a, &r));
  uint64_t max_bytes = 0;
  uint64_t min_bytes = 0;
  if (lngrad::IsRegBaseArch(lngrad::CurrentProduct().arch)) {
    const uint64_t lanes32 = kRegBaseVecBytes / sizeof(float);  // 64
    const uint64_t lanes16 = kRegBaseVecBytes / 2;              // 128
    const uint64_t chunks = CeilTo(r, lanes32) / lanes32;
    uint64_t len = CeilTo(chunks, lanes16) + a;
    if (!isComputeRstd) len += a;
    min_bytes = max_bytes = len * sizeof(float);
  } else {
    if (!isComputeRstd) {
      // The toolkit's Normalize helper rejects this and leaves its sizes unset.
      return Status::Unsupported(prefix +
                                 "isComputeRstd current only support true (on arch 2201/2002)");
    }
    const uint64_t r_pad = CeilTo(r, kBlockBytes / typeSize);
    const uint64_t mv = CeilTo(uint64_t{a} * sizeof(float), kBlockBytes);
    const uint64_t row = CeilTo(r_pad * sizeof(float), kBlockBytes);
    const uint64_t in = CeilTo(uint64_t{a} * r_pad * sizeof(float), kBlockBytes);
    // Normalize's own needs: max 2R + 2*ceil8(A)*R, min max(A, 2R (float) or 4R (half)).
    const uint64_t norm_max =
        2 * row + 2 * CeilTo(CeilTo(a, 8) * r_pad * sizeof(float), kBlockBytes);
    const uint64_t norm_min = std::max(mv, (typeSize == sizeof(float) ? 2 : 4) * row);
    max_bytes = 2 * in + mv;
    min_bytes = 2 * row + mv;
    if (min_bytes - mv <= norm_min) min_bytes = norm_min + mv;
    if (max_bytes - mv <= norm_max) max_bytes = norm_max + mv;
  }
  return internal::StoreMaxMin(kApi, kMaxMinFunc, max_bytes, min_bytes, maxValue, minValue);
}

Status LayerNormNDTilingInfo(const ge::Shape& srcShape, uint32_t stackBufferSize, uint32_t typeSize,
                             bool isReuseSource, AscendC::tiling::LayerNormTiling& tiling) {
  return NdTiling(kTilingFunc, srcShape, stackBufferSize, typeSize, isReuseSource, tiling);
}

namespace {
// Both official spellings for the optiling class; `func` names the one called in messages.
void OfficialNdTiling(const char* func, const ge::Shape& srcShape, uint32_t stackBufferSize,
                      uint32_t typeSize, bool isReuseSource, optiling::LayerNormTiling& tiling) {
  AscendC::tiling::LayerNormTiling plain;
  internal::ReportTiling(NdTiling(func, srcShape, stackBufferSize, typeSize, isReuseSource, plain),
                         plain, tiling);
}
}  // namespace

}  // namespace lngrad::tiling

namespace AscendC {

void GetLayerNormMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                               const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
  lngrad::tiling::internal::Report(lngrad::tiling::LayerNormMaxMinTmpSize(
      srcShape, typeSize, isReuseSource, maxValue, minValue));
}

void GetLayerNormMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                               const bool isReuseSource, const bool isComputeRstd,
                               const bool isOnlyOutput, uint32_t& maxValue, uint32_t& minValue) {
  lngrad::tiling::internal::Report(lngrad::tiling::LayerNormMaxMinTmpSize(
      srcShape, typeSize, isReuseSource, isComputeRstd, isOnlyOutput, maxValue, minValue));
}

void GetLayerNormNDTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize,
                              const uint32_t typeSize, const bool isReuseSource,
                              optiling::LayerNormTiling& tiling) {
  lngrad::tiling::OfficialNdTiling("GetLayerNormNDTilingInfo", srcShape, stackBufferSize, typeSize,
                                   isReuseSource, tiling);
}

void GetLayerNormNDTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize,
                              const uint32_t typeSize, const bool isReuseSource,
                              AscendC::tiling::LayerNormTiling& tiling) {
  lngrad::tiling::internal::Report(lngrad::tiling::LayerNormNDTilingInfo(
      srcShape, stackBufferSize, typeSize, isReuseSource, tiling));
}

void GetLayerNormNDTillingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize,
                               const uint32_t typeSize, const bool isReuseSource,
                               optiling::LayerNormTiling& tilling) {
  lngrad::tiling::OfficialNdTiling("GetLayerNormNDTillingInfo", srcShape, stackBufferSize, typeSize,
                                   isReuseSource, tilling);
}

}  // namespace AscendC
