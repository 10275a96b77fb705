// LayerNormGradBeta host tiling (spec §3.5, §3.6). No product branch.
#include "tiling/normalization/layernorm_grad_beta_tiling.h"

#include "tiling_common.h"

namespace lngrad::tiling {
namespace {

using internal::Bsh;

constexpr const char* kApi = "LayerNormGradBeta";
constexpr const char* kMaxMinFunc = "GetLayerNormGradBetaMaxMinTmpSize";
constexpr const char* kTilingFunc = "GetLayerNormGradBetaNDTilingInfo";

Status CheckInputs(const char* func, const ge::Shape& srcShape, uint32_t typeSize, Bsh* d) {
  return internal::CheckBshShape(kApi, func, lngrad::CurrentProduct().supports_layernormgradbeta,
                                 srcShape, typeSize, internal::CheckOrder::kTypeSizeFirst, d);
}

}  // namespace

Status LayerNormGradBetaMaxMinTmpSize(const ge::Shape& srcShape, uint32_t typeSize,
                                      bool /*isReuseSource*/, uint32_t& maxValue,
                                      uint32_t& minValue) {
  Bsh d;
  LNGRAD_RETURN_IF_ERROR(CheckInputs(kMaxMinFunc, srcShape, typeSize, &d));
  // half needs float copies of dy and resForGamma besides the two float accumulators.
  const uint64_t bufs = typeSize == AscendC::LAYERNORM_GRAD_BETA_B16_BYTE_SIZE
                            ? AscendC::LAYERNORM_GRAD_BETA_FOUR_BUF_NUM
                            : AscendC::LAYERNORM_GRAD_BETA_TWO_BUF_NUM;
  return internal::StoreMaxMin(kApi, kMaxMinFunc, bufs * d.bsh * sizeof(float),
                               bufs * d.h * sizeof(float), maxValue, minValue);
}

Status LayerNormGradBetaNDTilingInfo(const ge::Shape& srcShape, uint32_t stackBufferSize,
                                     uint32_t typeSize, bool /*isReuseSource*/,
                                     AscendC::tiling::LayerNormGradBetaTiling& tiling) {
  Bsh d;
  LNGRAD_RETURN_IF_ERROR(CheckInputs(kTilingFunc, srcShape, typeSize, &d));
  const bool half = typeSize == AscendC::LAYERNORM_GRAD_BETA_B16_BYTE_SIZE;
  const uint64_t st = stackBufferSize / sizeof(float);  // the struct keeps float elements
  const uint64_t two_rows = 2 * uint64_t{d.h};
  const auto not_enough = [&](const char* why) {
    return Status::InvalidArgument(
        internal::Prefix(kApi, kTilingFunc) + "stackBufferSize is not enough. (" +
        std::to_string(stackBufferSize) + " bytes = " + std::to_string(st) + " floats; " + why +
        ", H = " + std::to_string(d.h) + ")");
  };
  if (st < two_rows) return not_enough("needs at least 2*H floats");
  uint64_t one = st;
  uint32_t buffers = AscendC::LAYERNORM_GRAD_BETA_ONE_BUF_NUM;
  if (half) {
    // Two float accumulators of H first, then two float staging buffers share the rest.
    buffers = AscendC::LAYERNORM_GRAD_BETA_TWO_BUF_NUM;
    one = (st - two_rows) / buffers;
  }
  one = one / d.h * d.h;
  if (one == 0) return not_enough(half ? "half needs 2*H + 2*H floats" : "needs a whole row");
  if (one >= d.bsh) one = d.bsh;

  AscendC::tiling::LayerNormGradBetaTiling t;
  t.stackBufferSize = static_cast<uint32_t>(st);
  internal::SetShapeFields(d, t);
  t.bshLength = d.bsh;
  t.bsLength = d.bs;
  t.oneCalSize = static_cast<uint32_t>(one);
  t.numberOfTmpBuf = buffers;
  t.loopRound = d.bsh / t.oneCalSize;
  t.inputTailSize = d.bsh % t.oneCalSize;
  t.inputTailPos = d.bsh - t.inputTailSize;
  t.bsTailSize = t.inputTailSize / d.h;
  t.bshCurLength = t.oneCalSize;
  t.bsCurLength = t.oneCalSize / d.h;
  if (half) {
    t.gammaTempTensorPos = 0;
    t.betaTempTensorPos = d.h;
    t.inputDyTmpTensorPos = 2 * d.h;
    t.resForGammaTmpTensorPos = 2 * d.h + t.oneCalSize;
  }
  tiling = t;
  return Status::Ok();
}

}  // namespace lngrad::tiling

namespace AscendC {
LNGRAD_DEFINE_OFFICIAL_TILING_API(LayerNormGradBeta)
}  // namespace AscendC
