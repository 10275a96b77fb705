// Host tiling of the [A, R] normalization family: GetNormalizeMaxMinTmpSize and the
// isComputeRstd overload of GetLayerNormNDTilingInfo (LayerNormSeparateTiling). Written from the
// formulas of spec §10.6, which were read from the toolkit's normalize_tiling_impl.cpp and
// layernorm_tiling_impl.cpp.
#include "tiling/normalization/normalize_tiling.h"

#include <algorithm>
#include <cmath>

#include "tiling_common.h"

namespace lngrad::tiling {
namespace {

using internal::CeilTo;
using internal::FitU32;

constexpr const char* kNormalize = "Normalize";
constexpr const char* kLayerNorm = "LayerNorm";
constexpr const char* kNormalizeFunc = "GetNormalizeMaxMinTmpSize";
constexpr const char* kTilingFunc = "GetLayerNormNDTilingInfo";
constexpr uint64_t kBlockBytes = 32;
// The 3510 family's vector register holds 64 floats (GetVecRegLen() = 256 bytes).
constexpr uint32_t kRegBaseFloatLanes = 64;

bool Supported() { return lngrad::CurrentProduct().supports_layernorm; }
bool RegBase() { return lngrad::IsRegBaseArch(lngrad::CurrentProduct().arch); }

Status CheckTypeSize(const std::string& prefix, const char* name, uint32_t typeSize) {
  if (typeSize == 0) return Status::InvalidArgument(prefix + name + " can not be 0!");
  if (typeSize != 2 && typeSize != 4) {
    return Status::InvalidArgument(prefix + name + " " + std::to_string(typeSize) +
                                   " is unsupported! (it must be 2 or 4: half or float)");
  }
  return Status::Ok();
}

// {A, R} of a 2-dim shape, each > 0 and < 2^32.
Status ArShape(const char* api, const char* func, const ge::Shape& shape, uint32_t* a,
               uint32_t* r) {
  const std::string prefix = internal::Prefix(api, func);
  if (shape.GetDimNum() != 2) {
    return Status::InvalidArgument(prefix + "The dims of srcShape is " +
                                   std::to_string(shape.GetDimNum()) + ", should be 2 ([A, R])");
  }
  return internal::ArDims(api, func, shape, a, r);
}

// The 3510 fields: the fold depth k and the head length of the pairwise folding, and the two
// constants that turn sums of x/2^k' into means (2^k' the first power of two >= R).
void RegBaseSeparate(uint32_t r, AscendC::tiling::LayerNormSeparateTiling* t) {
  uint32_t head = kRegBaseFloatLanes;
  uint32_t k = 6;  // log2(64)
  while (2 * uint64_t{head} <= r) {
    head *= 2;
    ++k;
  }
  uint32_t k_overflow = k;
  if ((uint64_t{1} << k_overflow) < r) ++k_overflow;
  const float r_overflow = static_cast<float>(uint64_t{1} << k_overflow);
  t->rLength = r;
  t->oneTmpSize = k;
  t->rHeadLength = head;
  t->k2Rec = 1.0f / r_overflow;
  t->k2RRec = r_overflow / static_cast<float>(r);
}

Status VectorSeparate(uint32_t a, uint32_t r, uint32_t stackBufferSize, uint32_t typeSize,
                      AscendC::tiling::LayerNormSeparateTiling* out) {
  const uint64_t r_pad = CeilTo(r, kBlockBytes / typeSize);
  uint64_t size = 0;
  uint32_t size32 = 0;
  size = uint64_t{a} * r_pad;
  LNGRAD_RETURN_IF_ERROR(FitU32(kLayerNorm, kTilingFunc, "A*Rp", size, &size32));
  const uint64_t var_size = CeilTo(a, 8);
  const uint64_t tmp_buf = stackBufferSize / sizeof(float);
  constexpr uint32_t kBuffers = 2;
  uint64_t one = tmp_buf >= var_size ? (tmp_buf - var_size) / kBuffers / r_pad * r_pad : 0;
  one = std::min(one, size);
  if (one == 0) {
    // The toolkit returns silently here (and wraps when the buffer is below the variance).
    return Status::InvalidArgument(
        internal::Prefix(kLayerNorm, kTilingFunc) + "stackBufferSize is not enough. (" +
        std::to_string(stackBufferSize) + " bytes; needs " +
        std::to_string((var_size + kBuffers * r_pad) * sizeof(float)) +
        " bytes: the float variance of ceil8(A) = " + std::to_string(var_size) +
        " and two float buffers of one padded row (Rp = " + std::to_string(r_pad) + "))");
  }
  AscendC::tiling::LayerNormSeparateTiling t;
  t.aLength = a;
  t.rLength = r;
  t.inputXSize = size32;
  t.meanVarSize = a;
  t.numberOfTmpBuf = kBuffers;
  t.varianceTmpTensorPos = 0;
  t.varianceTmpTensorSize = static_cast<uint32_t>(var_size);
  t.tmpBufSize = static_cast<uint32_t>(tmp_buf);
  t.oneTmpSize = static_cast<uint32_t>(one);
  t.firstTmpStartPos = static_cast<uint32_t>(var_size);
  t.secondTmpStartPos = static_cast<uint32_t>(var_size + one);
  t.loopRound = size32 / t.oneTmpSize;
  t.inputRoundSize = t.oneTmpSize;
  t.inputTailSize = size32 % t.oneTmpSize;
  t.inputTailPos = size32 - t.inputTailSize;
  t.meanVarRoundSize = static_cast<uint32_t>(t.inputRoundSize / r_pad);
  t.meanVarTailSize = static_cast<uint32_t>(t.inputTailSize / r_pad);
  t.meanVarTailPos = a - t.meanVarTailSize;
  t.arCurLength = t.inputRoundSize;
  t.aCurLength = t.meanVarRoundSize;
  t.rValueBack = 1.0f / static_cast<float>(r);
  *out = t;
  return Status::Ok();
}

}  // namespace

Status NormalizeMaxMinTmpSize(const ge::Shape& srcShape, uint32_t typeSizeU, uint32_t typeSizeT,
                              bool /*isReuseSource*/, bool isComputeRstd, bool isOnlyOutput,
                              uint32_t& maxValue, uint32_t& minValue) {
  const std::string prefix = internal::Prefix(kNormalize, kNormalizeFunc);
  LNGRAD_RETURN_IF_ERROR(internal::CheckProductSupports(kNormalize, kNormalizeFunc, Supported()));
  if (!isComputeRstd)
    return Status::InvalidArgument(prefix + "isComputeRstd current only support true");
  if (isOnlyOutput)
    return Status::InvalidArgument(prefix + "isOnlyOutput current only support false");
  LNGRAD_RETURN_IF_ERROR(CheckTypeSize(prefix, "typeSizeU", typeSizeU));
  LNGRAD_RETURN_IF_ERROR(CheckTypeSize(prefix, "typeSizeT", typeSizeT));
  uint32_t a = 0;
  uint32_t r = 0;
  LNGRAD_RETURN_IF_ERROR(ArShape(kNormalize, kNormalizeFunc, srcShape, &a, &r));
  if (RegBase()) {
    return internal::StoreMaxMin(kNormalize, kNormalizeFunc, 0, 0, maxValue, minValue);
  }
  const uint64_t r_pad = CeilTo(r, kBlockBytes / typeSizeT);
  const uint64_t row = CeilTo(r_pad * sizeof(float), kBlockBytes);
  const uint64_t ar = CeilTo(CeilTo(a, 8) * r_pad * sizeof(float), kBlockBytes);
  const uint64_t a_bytes = CeilTo(uint64_t{a} * sizeof(float), kBlockBytes);
  const uint64_t rows_min = (typeSizeU == sizeof(float) ? 2 : 4) * row;
  return internal::StoreMaxMin(kNormalize, kNormalizeFunc, 2 * row + 2 * ar,
                               std::max(a_bytes, rows_min), maxValue, minValue);
}

Status LayerNormSeparateNDTilingInfo(const ge::Shape& srcShape, uint32_t stackBufferSize,
                                     uint32_t typeSize, bool /*isReuseSource*/,
                                     bool /*isComputeRstd*/,
                                     AscendC::tiling::LayerNormSeparateTiling& tiling) {
  const std::string prefix = internal::Prefix(kLayerNorm, kTilingFunc);
  LNGRAD_RETURN_IF_ERROR(internal::CheckProductSupports(kLayerNorm, kTilingFunc, Supported()));
  LNGRAD_RETURN_IF_ERROR(CheckTypeSize(prefix, "typeSize", typeSize));
  uint32_t a = 0;
  uint32_t r = 0;
  LNGRAD_RETURN_IF_ERROR(ArShape(kLayerNorm, kTilingFunc, srcShape, &a, &r));
  if (RegBase()) {
    AscendC::tiling::LayerNormSeparateTiling t;
    RegBaseSeparate(r, &t);
    tiling = t;
    return Status::Ok();
  }
  return VectorSeparate(a, r, stackBufferSize, typeSize, &tiling);
}

}  // namespace lngrad::tiling

namespace AscendC {

void GetNormalizeMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSizeU,
                               const uint32_t typeSizeT, const bool isReuseSource,
                               const bool isComputeRstd, const bool isOnlyOutput,
                               uint32_t& maxValue, uint32_t& minValue) {
  lngrad::tiling::internal::Report(
      lngrad::tiling::NormalizeMaxMinTmpSize(srcShape, typeSizeU, typeSizeT, isReuseSource,
                                             isComputeRstd, isOnlyOutput, maxValue, minValue));
}

void GetLayerNormNDTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize,
                              const uint32_t typeSize, const bool isReuseSource,
                              const bool isComputeRstd, optiling::LayerNormSeparateTiling& tiling) {
  AscendC::tiling::LayerNormSeparateTiling plain;
  const lngrad::Status st = lngrad::tiling::LayerNormSeparateNDTilingInfo(
      srcShape, stackBufferSize, typeSize, isReuseSource, isComputeRstd, plain);
  if (st.ok() && lngrad::IsRegBaseArch(lngrad::CurrentProduct().arch)) {
    // The toolkit's 3510 branch sets these five and leaves the rest of the object alone.
    tiling.set_rLength(plain.rLength);
    tiling.set_oneTmpSize(plain.oneTmpSize);
    tiling.set_rHeadLength(plain.rHeadLength);
    tiling.set_k2Rec(plain.k2Rec);
    tiling.set_k2RRec(plain.k2RRec);
    lngrad::tiling::internal::Report(st);
    return;
  }
  lngrad::tiling::internal::ReportTiling(st, plain, tiling);
}

void GetLayerNormNDTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize,
                              const uint32_t typeSize, const bool isReuseSource,
                              const bool isComputeRstd,
                              AscendC::tiling::LayerNormSeparateTiling& tiling) {
  lngrad::tiling::internal::Report(lngrad::tiling::LayerNormSeparateNDTilingInfo(
      srcShape, stackBufferSize, typeSize, isReuseSource, isComputeRstd, tiling));
}

}  // namespace AscendC
