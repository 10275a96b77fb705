// LayerNormGradBeta host tiling (spec §3.5, §3.6). No product branch.
#include "tiling/normalization/layernorm_grad_beta_tiling.h"

#include "tiling_common.h"

namespace lngrad::tiling {
namespace {

using internal::Bsh;
using internal::FitU32;

constexpr const char* kApi = "LayerNormGradBeta";
constexpr const char* kMaxMinFunc = "GetLayerNormGradBetaMaxMinTmpSize";
constexpr const char* kTilingFunc = "GetLayerNormGradBetaNDTilingInfo";

Status CheckInputs(const char* func, const ge::Shape& srcShape, uint32_t typeSize, Bsh* d) {
  LNGRAD_RETURN_IF_ERROR(internal::CheckProductSupports(
      kApi, func, lngrad::CurrentProduct().supports_layernormgradbeta));
  return internal::CheckBshShape(kApi, func, srcShape, typeSize,
                                 internal::CheckOrder::kTypeSizeFirst, d);
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
  uint32_t max32 = 0;
  uint32_t min32 = 0;
  LNGRAD_RETURN_IF_ERROR(
      FitU32(kApi, kMaxMinFunc, "maxValue", bufs * d.bsh * sizeof(float), &max32));
  LNGRAD_RETURN_IF_ERROR(FitU32(kApi, kMaxMinFunc, "minValue", bufs * d.h * sizeof(float), &min32));
  maxValue = max32;
  minValue = min32;
  return Status::Ok();
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
  t.bLength = d.b;
  t.sLength = d.s;
  t.hLength = d.h;
  t.originalHLength = d.orig_h;
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

void GetLayerNormGradBetaMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                                       const bool isReuseSource, uint32_t& maxValue,
                                       uint32_t& minValue) {
  lngrad::tiling::internal::Report(lngrad::tiling::LayerNormGradBetaMaxMinTmpSize(
      srcShape, typeSize, isReuseSource, maxValue, minValue));
}

void GetLayerNormGradBetaNDTilingInfo(const ge::Shape srcShape, const uint32_t stackBufferSize,
                                      const uint32_t typeSize, const bool isReuseSource,
                                      optiling::LayerNormGradBetaTiling& tiling) {
  AscendC::tiling::LayerNormGradBetaTiling plain;
  const lngrad::Status s = lngrad::tiling::LayerNormGradBetaNDTilingInfo(
      srcShape, stackBufferSize, typeSize, isReuseSource, plain);
  if (s.ok()) {
#define LNGRAD_SET_FIELD(type, name) tiling.set_##name(plain.name);
    LNGRAD_LAYERNORM_GRAD_BETA_TILING_FIELDS(LNGRAD_SET_FIELD)
#undef LNGRAD_SET_FIELD
  }
  lngrad::tiling::internal::Report(s);
}

void GetLayerNormGradBetaNDTilingInfo(const ge::Shape srcShape, const uint32_t stackBufferSize,
                                      const uint32_t typeSize, const bool isReuseSource,
                                      AscendC::tiling::LayerNormGradBetaTiling& tiling) {
  lngrad::tiling::internal::Report(lngrad::tiling::LayerNormGradBetaNDTilingInfo(
      srcShape, stackBufferSize, typeSize, isReuseSource, tiling));
}

}  // namespace AscendC
