// Shared checks and reporting for the host tiling functions (internal to lngrad_tiling).
#pragma once

#include <cstdint>
#include <string>

#include "lngrad/product.h"
#include "tiling/normalization/layernorm_grad_beta_tiling.h"
#include "tiling/normalization/layernorm_grad_tiling.h"
#include "tiling/normalization/layernorm_tiling.h"
#include "tiling/normalization/batchnorm_tiling.h"
#include "tiling/normalization/deepnorm_tiling.h"
#include "tiling/normalization/groupnorm_tiling.h"
#include "tiling/normalization/rmsnorm_tiling.h"
#include "tiling/matmul/matmul_tiling.h"

namespace lngrad::tiling::internal {

// {B, S, storageH, originH} of a validated 4-dim shape, with the products the formulas use.
struct Bsh {
  uint32_t b = 0, s = 0, h = 0, orig_h = 0;
  uint32_t bs = 0, bsh = 0;
};

// The order in which the toolkit's common check tests its arguments.
enum class CheckOrder {
  kTypeSizeFirst,  // LayerNormGrad, LayerNormGradBeta: typeSize, shape size, dim count
  kTypeSizeLast,   // LayerNorm: shape size, dim count, typeSize
};

// "[api][func] " - the prefix of every message, as the toolkit's logs have it.
std::string Prefix(const char* api, const char* func);

// Unsupported when the current product does not run `api` (spec §7.1).
Status CheckProductSupports(const char* api, const char* func, bool supported);

// CheckProductSupports(supported), the toolkit's common checks (type size 2 or 4, shape
// size > 0, exactly 4 dims, in `order`), then ours: every dim > 0 and < 2^32, B*S*H < 2^32.
Status CheckBshShape(const char* api, const char* func, bool supported, const ge::Shape& shape,
                     uint32_t typeSize, CheckOrder order, Bsh* out);

// OutOfRange naming `what` when value does not fit in uint32; else stores it.
Status FitU32(const char* api, const char* func, const char* what, uint64_t value, uint32_t* out);

// The two dims {A, R} of a 2-dim shape (the caller checks the dim count): each > 0
// (InvalidArgument "srcShape[i] must be greater than 0.") and FitU32-checked as "A" and "R".
Status ArDims(const char* api, const char* func, const ge::Shape& shape, uint32_t* a, uint32_t* r);

// The result of a *MaxMinTmpSize: both sizes FitU32-checked, neither written unless both fit.
Status StoreMaxMin(const char* api, const char* func, uint64_t max_bytes, uint64_t min_bytes,
                   uint32_t& maxValue, uint32_t& minValue);

// The four shape fields that every tiling struct begins its shape with.
template <class Tiling>
void SetShapeFields(const Bsh& d, Tiling& t) {
  t.bLength = d.b;
  t.sLength = d.s;
  t.hLength = d.h;
  t.originalHLength = d.orig_h;
}

// Records the outcome for LastTilingStatus() and prints a failure's message on stderr.
void Report(const Status& status);

// Field-by-field copies of a plain tiling struct into its optiling class, from the one field list.
#define LNGRAD_COPY_FIELD(type, name) to.set_##name(from.name);
#define LNGRAD_DEFINE_COPY_TO_OPTILING(Name, FIELDS)                                  \
  inline void CopyToOptiling(const AscendC::tiling::Name& from, optiling::Name& to) { \
    FIELDS(LNGRAD_COPY_FIELD)                                                         \
  }
LNGRAD_DEFINE_COPY_TO_OPTILING(LayerNormGradTiling, LNGRAD_LAYERNORM_GRAD_TILING_FIELDS)
LNGRAD_DEFINE_COPY_TO_OPTILING(LayerNormGradBetaTiling, LNGRAD_LAYERNORM_GRAD_BETA_TILING_FIELDS)
LNGRAD_DEFINE_COPY_TO_OPTILING(LayerNormTiling, LNGRAD_LAYERNORM_TILING_FIELDS)
LNGRAD_DEFINE_COPY_TO_OPTILING(LayerNormSeparateTiling, LNGRAD_LAYERNORM_SEPARATE_TILING_FIELDS)
LNGRAD_DEFINE_COPY_TO_OPTILING(RmsNormTiling, LNGRAD_RMSNORM_TILING_FIELDS)
LNGRAD_DEFINE_COPY_TO_OPTILING(DeepNormTiling, LNGRAD_DEEPNORM_TILING_FIELDS)
LNGRAD_DEFINE_COPY_TO_OPTILING(BatchNormTiling, LNGRAD_BATCHNORM_TILING_FIELDS)
LNGRAD_DEFINE_COPY_TO_OPTILING(GroupNormTiling, LNGRAD_GROUPNORM_TILING_FIELDS)
LNGRAD_DEFINE_COPY_TO_OPTILING(TCubeTiling, LNGRAD_TCUBE_TILING_FIELDS)
#undef LNGRAD_DEFINE_COPY_TO_OPTILING
#undef LNGRAD_COPY_FIELD

// An official call's outcome for an optiling class: `plain` copied into it on success, then
// Report. On failure `tiling` keeps what it held.
template <class Plain, class Def>
void ReportTiling(const Status& status, const Plain& plain, Def& tiling) {
  if (status.ok()) CopyToOptiling(plain, tiling);
  Report(status);
}

// Report, then whether the call succeeded: the official entry points that return bool.
inline bool ReportOk(const Status& status) {
  Report(status);
  return status.ok();
}
template <class Plain, class Def>
bool ReportTilingOk(const Status& status, const Plain& plain, Def& tiling) {
  ReportTiling(status, plain, tiling);
  return status.ok();
}

// The LayerNorm-family chunk layout (LayerNorm, DeepNorm, GroupNorm): float mean/variance slots
// of mv_size at the front (staged there when mv_total != 0), three (or two) buffers of `one`
// elements after mv_total, chunks of `one` input elements, `per` input elements per mean.
template <class Tiling>
void SetChunkLayout(Tiling& t, uint64_t mv_size, uint64_t mv_total, uint64_t tmp_buf, uint64_t one,
                    uint64_t input, uint64_t per) {
  t.meanTmpTensorPos = 0;
  t.meanTmpTensorSize = static_cast<uint32_t>(mv_size);
  t.varianceTmpTensorPos = static_cast<uint32_t>(mv_size);
  t.varianceTmpTensorSize = static_cast<uint32_t>(mv_size);
  t.tmpBufSize = static_cast<uint32_t>(tmp_buf);
  t.oneTmpSize = static_cast<uint32_t>(one);
  t.firstTmpStartPos = static_cast<uint32_t>(mv_total);
  t.secondTmpStartPos = static_cast<uint32_t>(mv_total + one);
  t.thirdTmpStartPos = static_cast<uint32_t>(mv_total + 2 * one);
  t.loopRound = static_cast<uint32_t>(input / one);
  t.inputRoundSize = static_cast<uint32_t>(one);
  t.inputTailSize = static_cast<uint32_t>(input % one);
  t.inputTailPos = static_cast<uint32_t>(input - input % one);
  t.meanVarRoundSize = static_cast<uint32_t>(one / per);
  t.meanVarTailSize = static_cast<uint32_t>((input % one) / per);
  t.meanVarTailPos = t.meanVarSize - t.meanVarTailSize;
  t.bshCurLength = t.inputRoundSize;
}

constexpr uint64_t CeilTo(uint64_t v, uint64_t m) { return (v + m - 1) / m * m; }

}  // namespace lngrad::tiling::internal

// The official entry points of an API whose lngrad::tiling variants are Api##MaxMinTmpSize and
// Api##NDTilingInfo (LayerNormGrad, LayerNormGradBeta): GetApiMaxMinTmpSize and both
// GetApiNDTilingInfo overloads, each the Status variant followed by Report. Use in namespace
// AscendC.
#define LNGRAD_DEFINE_OFFICIAL_TILING_API(Api)                                                     \
  void Get##Api##MaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,                 \
                               const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) { \
    ::lngrad::tiling::internal::Report(::lngrad::tiling::Api##MaxMinTmpSize(                       \
        srcShape, typeSize, isReuseSource, maxValue, minValue));                                   \
  }                                                                                                \
  void Get##Api##NDTilingInfo(const ge::Shape srcShape, const uint32_t stackBufferSize,            \
                              const uint32_t typeSize, const bool isReuseSource,                   \
                              ::optiling::Api##Tiling& tiling) {                                   \
    ::AscendC::tiling::Api##Tiling plain;                                                          \
    ::lngrad::tiling::internal::ReportTiling(                                                      \
        ::lngrad::tiling::Api##NDTilingInfo(srcShape, stackBufferSize, typeSize, isReuseSource,    \
                                            plain),                                                \
        plain, tiling);                                                                            \
  }                                                                                                \
  void Get##Api##NDTilingInfo(const ge::Shape srcShape, const uint32_t stackBufferSize,            \
                              const uint32_t typeSize, const bool isReuseSource,                   \
                              ::AscendC::tiling::Api##Tiling& tiling) {                            \
    ::lngrad::tiling::internal::Report(::lngrad::tiling::Api##NDTilingInfo(                        \
        srcShape, stackBufferSize, typeSize, isReuseSource, tiling));                              \
  }
