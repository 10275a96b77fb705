// LayerNormGrad host tiling (spec §2.4, §2.5; 3510 branch from the same source, S4).
#include "tiling/normalization/layernorm_grad_tiling.h"

#include <algorithm>
#include <bit>

#include "tiling_common.h"

namespace lngrad::tiling {
namespace {

constexpr const char* kApi = "LayerNormGrad";
constexpr const char* kMaxMinFunc = "GetLayerNormGradMaxMinTmpSize";
constexpr const char* kTilingFunc = "GetLayerNormGradNDTilingInfo";
constexpr const char* kSingleChunkFunc = "LayerNormGradSingleChunkTilingInfo";

// Float scratch buffers the 2201/2002 kernel lays out (spec §2.4).
uint32_t BufNum(uint32_t typeSize, bool isReuseSource) {
  if (typeSize == AscendC::LAYERNORM_GRAD_B16_BYTE_SIZE)
    return AscendC::LAYERNORM_GRAD_HALF_BUF_NUM;
  return isReuseSource ? AscendC::LAYERNORM_GRAD_REUSE_FLOAT_BUF_NUM
                       : AscendC::LAYERNORM_GRAD_FLOAT_BUF_NUM;
}

bool FloatReuse(uint32_t typeSize, bool isReuseSource) {
  return isReuseSource && typeSize == AscendC::LAYERNORM_GRAD_B32_BYTE_SIZE;
}

Status CheckInputs(const char* func, const ge::Shape& srcShape, uint32_t typeSize,
                   internal::Bsh* d) {
  return internal::CheckBshShape(kApi, func, lngrad::CurrentProduct().supports_layernormgrad,
                                 srcShape, typeSize, internal::CheckOrder::kTypeSizeFirst, d);
}

}  // namespace

Status LayerNormGradMaxMinTmpSize(const ge::Shape& srcShape, uint32_t typeSize, bool isReuseSource,
                                  uint32_t& maxValue, uint32_t& minValue) {
  internal::Bsh d;
  LNGRAD_RETURN_IF_ERROR(CheckInputs(kMaxMinFunc, srcShape, typeSize, &d));
  uint64_t max_bytes = 0;
  uint64_t min_bytes = 0;
  if (lngrad::IsRegBaseArch(lngrad::CurrentProduct().arch)) {
    // Two float rows (x1, x2), none when float+reuse aliases them onto dy and x.
    if (!FloatReuse(typeSize, isReuseSource)) {
      max_bytes = uint64_t{AscendC::LAYERNORM_GRAD_DAVID_BUF_NUM} * internal::CeilTo(d.h, 8) *
                  sizeof(float);
      min_bytes = max_bytes;
    }
  } else {
    const uint64_t n = BufNum(typeSize, isReuseSource);
    const uint64_t base = d.bsh;
    const uint64_t sq = uint64_t{d.h} * d.h;
    // typeSize, not sizeof(float), as the toolkit has it (spec §2.4).
    max_bytes = n * std::max(base, sq) * typeSize;
    min_bytes = n * std::min(base, sq) * typeSize;
  }
  return internal::StoreMaxMin(kApi, kMaxMinFunc, max_bytes, min_bytes, maxValue, minValue);
}

namespace {

// Every field but stackBufferSize's meaning from the rows per loop: `one` floats per buffer
// (`noh` rows of H), the loop count and tail over B*S*H, the buffer positions (spec §2.1: float+
// reuse drops x1/x2, which alias dy and x; half adds tmp, tmp1, tmp2 after x3) and the 1/N
// constants. The one place that lays out the 2201/2002 scratch; `func` names it in errors.
Status FillTiling(const char* func, const internal::Bsh& d, uint32_t stackBufferSize,
                  uint32_t typeSize, bool isReuseSource, uint64_t one, uint64_t noh,
                  AscendC::tiling::LayerNormGradTiling& tiling) {
  const bool reuse = FloatReuse(typeSize, isReuseSource);
  const uint64_t pd_var = one;
  const uint64_t pd_mean = 2 * one;
  const uint64_t x1 = reuse ? 0 : 3 * one;
  const uint64_t x2 = reuse ? 0 : 4 * one;
  const uint64_t x3 = reuse ? 3 * one : 5 * one;
  const bool half = typeSize == AscendC::LAYERNORM_GRAD_B16_BYTE_SIZE;
  const uint64_t tmp = half ? x3 + one : 0;
  const uint64_t tmp1 = half ? x3 + 2 * one : 0;
  const uint64_t tmp2 = half ? x3 + 3 * one : 0;

  AscendC::tiling::LayerNormGradTiling t;
  LNGRAD_RETURN_IF_ERROR(internal::FitU32(kApi, func, "oneCalSize", one, &t.oneCalSize));
  // The last buffer's end bounds every position.
  uint32_t layout_end = 0;
  LNGRAD_RETURN_IF_ERROR(internal::FitU32(kApi, func, "scratch layout end (float elements)",
                                          std::max({x3, tmp2}) + one, &layout_end));
  t.stackBufferSize = stackBufferSize;
  internal::SetShapeFields(d, t);
  t.nohCalSize = static_cast<uint32_t>(noh);
  t.loopNum = d.bsh / t.oneCalSize;
  t.tailSize = d.bsh % t.oneCalSize;
  t.nohTailSize = t.tailSize / d.h;
  t.tmpTensorBSHPos = 0;
  t.pdVarTensorPos = static_cast<uint32_t>(pd_var);
  t.pdMeanTensorPos = static_cast<uint32_t>(pd_mean);
  t.x1TensorPos = static_cast<uint32_t>(x1);
  t.x2TensorPos = static_cast<uint32_t>(x2);
  t.x3TensorPos = static_cast<uint32_t>(x3);
  t.tmpTensorPos = static_cast<uint32_t>(tmp);
  t.tmpTensor1Pos = static_cast<uint32_t>(tmp1);
  t.tmpTensor2Pos = static_cast<uint32_t>(tmp2);
  // Every size field equals oneCalSize, used or not.
  t.tmpTensorBSHSize = t.pdVarTensorSize = t.pdMeanTensorSize = t.oneCalSize;
  t.x1TensorSize = t.x2TensorSize = t.x3TensorSize = t.oneCalSize;
  t.tmpTensorSize = t.tmpTensor1Size = t.tmpTensor2Size = t.oneCalSize;
  t.lastDimValueBack = std::bit_cast<uint32_t>(1.0f / static_cast<float>(d.orig_h));
  t.lastDimValueBackMulTwo = std::bit_cast<uint32_t>(2.0f / static_cast<float>(d.orig_h));
  tiling = t;
  return Status::Ok();
}

}  // namespace

Status LayerNormGradNDTilingInfo(const ge::Shape& srcShape, uint32_t stackBufferSize,
                                 uint32_t typeSize, bool isReuseSource,
                                 AscendC::tiling::LayerNormGradTiling& tiling) {
  internal::Bsh d;
  LNGRAD_RETURN_IF_ERROR(CheckInputs(kTilingFunc, srcShape, typeSize, &d));
  const uint32_t n = BufNum(typeSize, isReuseSource);
  uint64_t one = 1;
  uint64_t noh = 1;
  if (!lngrad::IsRegBaseArch(lngrad::CurrentProduct().arch)) {
    one = uint64_t{stackBufferSize} / sizeof(float) / n;
    one = one / d.h * d.h;
    if (one == 0) {
      return Status::InvalidArgument(
          internal::Prefix(kApi, kTilingFunc) +
          "stackBufferSize is not enough. (stackBufferSize = " + std::to_string(stackBufferSize) +
          " bytes; " + std::to_string(n) +
          " float buffers of at least one row (H = " + std::to_string(d.h) + ") need " +
          std::to_string(uint64_t{n} * d.h * sizeof(float)) + " bytes)");
    }
    const uint64_t per_block = typeSize == AscendC::LAYERNORM_GRAD_B32_BYTE_SIZE
                                   ? AscendC::LAYERNORM_GRAD_B32_DATA_NUM_PER_BLOCK
                                   : AscendC::LAYERNORM_GRAD_B16_DATA_NUM_PER_BLOCK;
    noh = internal::CeilTo(one / d.h, per_block);
    one = noh * d.h;
  }
  return FillTiling(kTilingFunc, d, stackBufferSize, typeSize, isReuseSource, one, noh, tiling);
}

Status LayerNormGradSingleChunkTilingInfo(const ge::Shape& srcShape, uint32_t typeSize,
                                          bool isReuseSource,
                                          AscendC::tiling::LayerNormGradTiling& tiling) {
  internal::Bsh d;
  LNGRAD_RETURN_IF_ERROR(CheckInputs(kSingleChunkFunc, srcShape, typeSize, &d));
  if (lngrad::IsRegBaseArch(lngrad::CurrentProduct().arch)) {
    return Status::Unsupported(internal::Prefix(kApi, kSingleChunkFunc) +
                               "the single-chunk tiling is for arch 2201/2002; the register "
                               "kernel of arch 3510 has no scratch layout to plan (on " +
                               std::string(lngrad::CurrentProduct().soc) + ")");
  }
  // n buffers of all B*S rows, the rows not rounded to a block: one chunk, no tail.
  uint32_t stack = 0;
  LNGRAD_RETURN_IF_ERROR(
      internal::FitU32(kApi, kSingleChunkFunc, "stackBufferSize (n * B*S*H * 4 bytes)",
                       uint64_t{BufNum(typeSize, isReuseSource)} * d.bsh * sizeof(float), &stack));
  return FillTiling(kSingleChunkFunc, d, stack, typeSize, isReuseSource, d.bsh, d.bs, tiling);
}

uint64_t LayerNormGradScratchFloats(const AscendC::tiling::LayerNormGradTiling& tiling,
                                    uint32_t typeSize, bool isReuseSource) {
  if (tiling.nohCalSize == 1) {
    // Only a 3510 tiling has one row per loop (2201/2002 round rows up to 8 or 16); the
    // register kernel uses two float rows of ceil8(H).
    return FloatReuse(typeSize, isReuseSource) ? 0 : 2 * internal::CeilTo(tiling.hLength, 8);
  }
  const uint64_t last = std::max({uint64_t{tiling.tmpTensorBSHPos}, uint64_t{tiling.pdVarTensorPos},
                                  uint64_t{tiling.pdMeanTensorPos}, uint64_t{tiling.x1TensorPos},
                                  uint64_t{tiling.x2TensorPos}, uint64_t{tiling.x3TensorPos},
                                  uint64_t{tiling.tmpTensorPos}, uint64_t{tiling.tmpTensor1Pos},
                                  uint64_t{tiling.tmpTensor2Pos}});
  return last + tiling.oneCalSize;
}

}  // namespace lngrad::tiling

namespace AscendC {
LNGRAD_DEFINE_OFFICIAL_TILING_API(LayerNormGrad)
}  // namespace AscendC
