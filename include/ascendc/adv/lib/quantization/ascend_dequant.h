// lngrad: the Ascend C high-level dequantization APIs AscendDequant (every product) and
// Dequantize (Ascend 950 only): the vendor's adv_api/quantization/{ascend_dequant,dequantize}.h.
//
// The sequence of ascend_dequant_common_impl.h: the int32 source is Cast to float (round to
// nearest even), multiplied (one float Mul) by the float scale of its column, then written as
// the destination type: float by Adds 0 (so -0 becomes +0), half by Cast CAST_NONE (nearest
// even), bfloat16 by Cast CAST_RINT. The scale tensor is first brought to float: float by
// Adds 0, bfloat16 exactly, uint64_t by its low 32 bits read as a float (the device's
// GatherMask of the even words; that form writes half). Shape [m, n] (DequantParams): only the
// first calCount columns of each row are scaled, the others are the converted source; the
// destination rows are n rounded up to 32 bytes of the destination type. The forms without
// DequantParams treat the source as [size / scaleSize, scaleSize]; the calCount form converts
// the first calCount elements. DEQUANT_WITH_SINGLE_ROW with m == 1, calCount a multiple of
// 32 bytes of dst and n a multiple of calCount reads the row as n / calCount rows of calCount.
// Dequantize (PER_TENSOR: scalar scale; PER_CHANNEL: scale tensor [n]) runs the same sequence
// with calCount = n; PER_TOKEN (scale[m]) and PER_GROUP (kDim 1: [m, ceil(n / groupSize)], kDim
// 0: [ceil(m / groupSize), n]) take an int32 or float source, float(src) * scale Cast to dst.
// On arch 3510 the int32 -> float Cast rounds ties away from zero and nothing adds 0; only the
// first calCount columns of each row are written, and the forms without DequantParams convert
// the whole [size / scaleSize, scaleSize] source whatever calCount (ascend_dequant_3510_impl.h).
// AscendDequant's AscendDeQuantPolicy forms (arch 3510, ascend_dequant_3510_impl.h): PER_TOKEN
// (scale [calCount / n]) and PER_GROUP (the layout of Dequantize) over calCount / n rows of n,
// int32_t or float source, half / bfloat16_t / float scale and destination in any combination:
// float(src) (int32 ties away) times float(scale), one float Mul, then Cast CAST_RINT saturating
// (+-inf -> the largest finite value, NaN -> 0) to half / bfloat16_t; the offset tensor is
// reserved (not read).
//
// Checked mode: m * n within src, every row of dst within dst, n * 4 a multiple of 32, calCount
// in (0, n] and within deqScale, sharedTmpBuffer at least (align8(calCount) + n) floats on
// 2201/2002 (the sequence's one-row minimum), Dequantize on arch 3510; the policy forms: arch
// 3510, calCount within src and dst, n nonzero, 32-byte aligned in src and dst and dividing
// calCount, PER_GROUP groupSize a nonzero multiple of 32.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "lib/math/math_scratch.h"
#include "lib/quantization/quant_common.h"

namespace AscendC {

#ifndef LNGRAD_DEQUANT_MODE_DEFINED
#define LNGRAD_DEQUANT_MODE_DEFINED
enum class DeQuantMode : uint8_t {
  DEQUANT_WITH_SINGLE_ROW = 0,
  DEQUANT_WITH_MULTI_ROW,
};
#endif

struct DequantParams {
  uint32_t m;
  uint32_t n;
  uint32_t calCount;
};

struct AscendDeQuantConfig {
  bool hasOffset;
  int32_t kDim = 1;
};

enum class AscendDeQuantPolicy : int32_t {
  PER_TOKEN,
  PER_GROUP,
  PER_CHANNEL_PER_GROUP,
  PER_TOKEN_PER_GROUP
};

struct AscendDeQuantParam {
  uint32_t m;
  uint32_t n;
  uint32_t calCount;
  uint32_t groupSize = 0;
};

LNGRAD_QUANTIZE_POLICY_AND_PARAMS(Dequantize)

struct DequantizeConfig {
  DequantizePolicy policy;
  bool hasOffset = false;
  int32_t kDim = 1;
};

}  // namespace AscendC

namespace lngrad::aicore::quant_detail {

// A scale element as the float the sequence multiplies by.
template <typename S>
float ScaleToFloat(S s) {
  if constexpr (std::is_same_v<S, uint64_t>) {
    float f;
    const uint32_t low = static_cast<uint32_t>(s);
    std::memcpy(&f, &low, sizeof(f));
    return f;
  } else if constexpr (std::is_same_v<S, float>) {
    return Is3510() ? s : s + 0.0f;  // 2201/2002 move it with Adds 0
  } else {
    return F(s);
  }
}

template <typename D>
D DequantOut(float v) {
  if constexpr (std::is_same_v<D, float>) {
    return Is3510() ? v : v + 0.0f;  // 2201/2002 move it with Adds 0
  } else if constexpr (std::is_same_v<D, half>) {
    return ArchConv<half, float>(v, RoundMode::CAST_NONE);
  } else {
    return ArchConv<D, float>(v, RoundMode::CAST_RINT);
  }
}

template <typename D, typename S>
constexpr bool DequantPairValid(bool tensorScale) {
  const bool f_f = std::is_same_v<S, float> && std::is_same_v<D, float>;
  const bool b_f = std::is_same_v<S, bfloat16_t> && std::is_same_v<D, float>;
  const bool b_b = std::is_same_v<S, bfloat16_t> && std::is_same_v<D, bfloat16_t>;
  const bool f_b = std::is_same_v<S, float> && std::is_same_v<D, bfloat16_t>;
  const bool u_h = std::is_same_v<S, uint64_t> && std::is_same_v<D, half>;
  return f_f || b_f || b_b || f_b || (tensorScale && u_h);
}

template <typename D, AscendC::DeQuantMode mode>
void UpdateDequantShape(AscendC::DequantParams& p) {
  if constexpr (mode == AscendC::DeQuantMode::DEQUANT_WITH_SINGLE_ROW) {
    const uint32_t perBlock = 32 / sizeof(D);
    if (p.m == 1 && p.calCount != 0 && p.calCount % perBlock == 0 && p.n % p.calCount == 0) {
      p.m = p.n / p.calCount;
      p.n = p.calCount;
    }
  }
}

// What the 2201/2002 sequence leaves in its scratch (ascend_dequant_common_impl.h): tmpAddrA,
// the float scales (scaleAt), at floats [0, calCount); tmpAddrB from float align8(calCount) on:
// each round Casts tmpSize source elements there (the whole rows of n that fit the rest of the
// scratch, at most m * n) and scales their first calCount columns in place (valueAt(e): element
// e's float then); the last full round and the tail decide (ChunkScratch). The bytes between
// and past them are left alone.
template <typename ScaleAt, typename ValueAt>
void LeaveDequantScratch(const char* api, SrcLoc loc, const AscendC::LocalTensor<uint8_t>& tmp,
                         const AscendC::DequantParams& p, uint64_t total, ScaleAt&& scaleAt,
                         ValueAt&& valueAt) {
  const uint64_t a = (uint64_t{p.calCount} + 7) / 8 * 8;
  const uint64_t floats = tmp.GetSize() / sizeof(float);
  if (floats < a || p.n == 0 || total == 0) return;
  const uint64_t chunk = std::min<uint64_t>((floats - a) / p.n * p.n, uint64_t{p.m} * p.n);
  if (chunk == 0) return;  // the kit divides by it (checked mode refused the scratch)
  namespace m = math_detail;
  m::MakeChunkScratch<float, 1>(tmp, p.calCount, p.calCount, [](uint64_t) {
    return std::array<uint64_t, 1>{0};
  }).Write(api, loc, [&](uint64_t j) { return std::array<float, 1>{scaleAt(j)}; });
  m::MakeChunkScratch<float, 1>(tmp, total, chunk, [a](uint64_t) {
    return std::array<uint64_t, 1>{a};
  }).Write(api, loc, [&](uint64_t e) { return std::array<float, 1>{valueAt(e)}; });
}

// The pass over `total` source elements of shape [*, p.n]; scaleAt(j) the float scale of column
// j < p.calCount.
template <typename D, typename ScaleAt>
void DequantPass(const char* api, const AscendC::LocalTensor<D>& dst,
                 const AscendC::LocalTensor<int32_t>& src, const AscendC::LocalTensor<uint8_t>* tmp,
                 const AscendC::DequantParams& p, uint64_t total, Span scaleSpan, SrcLoc loc,
                 ScaleAt&& scaleAt) {
  Require(p.n != 0 && p.n * 4 % 32 == 0, api,
          "n is " + std::to_string(p.n) + ", whose int32 row must be a multiple of 32 bytes");
  Require(p.calCount > 0 && p.calCount <= p.n, api,
          "calCount " + std::to_string(p.calCount) + " must be in (0, n]");
  if (p.n == 0) return;
  const uint64_t perBlock = 32 / sizeof(D);
  const uint64_t dstInner = (p.n + perBlock - 1) / perBlock * perBlock;
  const uint64_t rows = (total + p.n - 1) / p.n;
  // 3510 (DequantPerchannelVFImpl / DequantPertensorVFImpl): the first calCount columns of each
  // row only; the others are not written.
  const uint64_t lastCols = Is3510() ? p.calCount : total - (rows - 1) * p.n;
  const uint64_t dstCount = total == 0 ? 0 : (rows - 1) * dstInner + lastCols;
  CheckCount(api, src, total, "srcTensor");
  CheckCount(api, dst, dstCount, "dstTensor");
  if (tmp != nullptr && !Is3510()) {
    CheckTmp(api, *tmp, ((uint64_t{p.calCount} + 7) / 8 * 8 + p.n) * sizeof(float));
  }
  Record(api, loc, {SpanOf(src, total), scaleSpan}, {SpanOf(dst, dstCount)});
  const int32_t* in = src.HostPtr();
  D* out = dst.HostPtr();
  // int32 -> float: nearest even on 2201/2002, ties away from zero on 3510 (MrgZRndA).
  const RoundMode mode = Is3510() ? RoundMode::CAST_ROUND : RoundMode::CAST_NONE;
  const auto value = [&](uint64_t e) {
    const float v = Conv<float, int32_t>(in[e], mode);
    return e % p.n < p.calCount ? v * scaleAt(e % p.n) : v;
  };
  for (uint64_t e = 0; e < total; ++e) {
    const uint64_t row = e / p.n, col = e % p.n;
    if (Is3510() && col >= p.calCount) continue;
    out[row * dstInner + col] = DequantOut<D>(value(e));
  }
  // 2201/2002 stage the scales and the float source in the scratch; 3510 uses none.
  if (tmp != nullptr && !Is3510()) LeaveDequantScratch(api, loc, *tmp, p, total, scaleAt, value);
}

}  // namespace lngrad::aicore::quant_detail

namespace AscendC {

namespace lngrad_dequant {

template <typename dstT, typename scaleT, DeQuantMode mode>
void TensorForm(const LocalTensor<dstT>& dst, const LocalTensor<int32_t>& src,
                const LocalTensor<scaleT>& deqScale, const LocalTensor<uint8_t>& tmp,
                DequantParams params, uint64_t total, lngrad::aicore::SrcLoc loc) {
  namespace q = lngrad::aicore::quant_detail;
  static_assert(q::DequantPairValid<dstT, scaleT>(true),
                "AscendDequant: this deqScale / dstTensor type pair is not supported");
  q::UpdateDequantShape<dstT, mode>(params);
  q::CheckCount("AscendDequant", deqScale, params.calCount, "deqScale");
  const scaleT* s = deqScale.HostPtr();
  q::DequantPass("AscendDequant", dst, src, &tmp, params, total,
                 q::SpanOf(deqScale, params.calCount), loc,
                 [&](uint64_t j) { return q::ScaleToFloat(s[j]); });
}

template <typename scaleT>
DequantParams Whole(const LocalTensor<int32_t>& src, const LocalTensor<scaleT>& deqScale) {
  const uint32_t s = deqScale.GetSize();
  lngrad::aicore::quant_detail::Require(
      s != 0 && src.GetSize() % s == 0, "AscendDequant",
      "srcTensor size must be a multiple of deqScale size without DequantParams");
  return {s == 0 ? 0 : src.GetSize() / s, s, s};
}

}  // namespace lngrad_dequant

template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                   const LocalTensor<scaleT>& deqScale, const LocalTensor<uint8_t>& sharedTmpBuffer,
                   DequantParams params,
                   lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad_dequant::TensorForm<dstT, scaleT, mode>(dstTensor, srcTensor, deqScale, sharedTmpBuffer,
                                                 params, uint64_t{params.m} * params.n, loc);
}

template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                   const LocalTensor<scaleT>& deqScale, DequantParams params,
                   lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  AscendDequant<dstT, scaleT, mode>(dstTensor, srcTensor, deqScale,
                                    lngrad::aicore::math_detail::StackTmp(), params, loc);
}

template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                   const LocalTensor<scaleT>& deqScale, const LocalTensor<uint8_t>& sharedTmpBuffer,
                   const uint32_t calCount,
                   lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::aicore::quant_detail::Require(calCount > 0 && calCount <= srcTensor.GetSize(),
                                        "AscendDequant", "calCount must be in (0, srcTensor size]");
  // 3510: DequantPerchannelImpl takes the shape {size / scaleSize, scaleSize, scaleSize} and not
  // calCount: the whole source is converted.
  const DequantParams whole = lngrad_dequant::Whole(srcTensor, deqScale);
  const uint64_t total =
      lngrad::aicore::quant_detail::Is3510() ? uint64_t{whole.m} * whole.n : calCount;
  lngrad_dequant::TensorForm<dstT, scaleT, mode>(dstTensor, srcTensor, deqScale, sharedTmpBuffer,
                                                 whole, total, loc);
}

template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                   const LocalTensor<scaleT>& deqScale, const uint32_t calCount,
                   lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  AscendDequant<dstT, scaleT, mode>(dstTensor, srcTensor, deqScale,
                                    lngrad::aicore::math_detail::StackTmp(), calCount, loc);
}

template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                   const LocalTensor<scaleT>& deqScale, const LocalTensor<uint8_t>& sharedTmpBuffer,
                   lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad_dequant::TensorForm<dstT, scaleT, mode>(dstTensor, srcTensor, deqScale, sharedTmpBuffer,
                                                 lngrad_dequant::Whole(srcTensor, deqScale),
                                                 srcTensor.GetSize(), loc);
}

template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                   const LocalTensor<scaleT>& deqScale,
                   lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  AscendDequant<dstT, scaleT, mode>(dstTensor, srcTensor, deqScale,
                                    lngrad::aicore::math_detail::StackTmp(), loc);
}

// The scalar-scale forms (float or bfloat16_t deqScale).
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                   const scaleT deqScale, const LocalTensor<uint8_t>& sharedTmpBuffer,
                   DequantParams params,
                   lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  namespace q = lngrad::aicore::quant_detail;
  static_assert(q::DequantPairValid<dstT, scaleT>(false),
                "AscendDequant: this deqScale / dstTensor type pair is not supported");
  q::UpdateDequantShape<dstT, mode>(params);
  // 2201/2002: Duplicate, then the scale pass's Adds 0; 3510: Muls by the scalar.
  const float s = q::Is3510() ? q::F(deqScale) : q::F(deqScale) + 0.0f;
  q::DequantPass("AscendDequant", dstTensor, srcTensor, &sharedTmpBuffer, params,
                 uint64_t{params.m} * params.n, q::Span{nullptr, 0}, loc,
                 [&](uint64_t) { return s; });
}

template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                   const scaleT deqScale, DequantParams params,
                   lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  AscendDequant<dstT, scaleT, mode>(dstTensor, srcTensor, deqScale,
                                    lngrad::aicore::math_detail::StackTmp(), params, loc);
}

// ---- Dequantize (arch 3510)
// -----------------------------------------------------------------------

namespace lngrad_dequant {

// PER_TOKEN (scale[m]) and PER_GROUP (quant_common.h's ParamLayout): float(src) (int32 rounded
// ties away, as the 3510 Cast; float as is) times the float scale, Cast to dst to nearest even.
template <const DequantizeConfig& config, typename DstT, typename SrcT, typename ScaleT>
void TokenOrGroup(const LocalTensor<DstT>& dst, const LocalTensor<SrcT>& src, const ScaleT& scale,
                  const DequantizeParams& params, lngrad::aicore::SrcLoc loc) {
  namespace q = lngrad::aicore::quant_detail;
  constexpr const char* kApi = "Dequantize";
  static_assert(q::IsTensor<ScaleT>::value,
                "Dequantize: PER_TOKEN / PER_GROUP take a scale tensor");
  using S = typename q::IsTensor<ScaleT>::Elem;
  static_assert((std::is_same_v<S, DstT> && !std::is_same_v<S, uint64_t>) ||
                    (std::is_same_v<S, float> &&
                     (std::is_same_v<DstT, half> || std::is_same_v<DstT, bfloat16_t>)),
                "Dequantize: unsupported scale / dst type pair");
  const bool group = config.policy == DequantizePolicy::PER_GROUP;
  q::Require(!group || (params.groupSize > 0 && params.groupSize % 32 == 0), kApi,
             "PER_GROUP needs groupSize a nonzero multiple of 32");
  if (group && params.groupSize == 0) return;
  const q::ParamLayout lay{static_cast<int>(config.policy), config.kDim, params.m, params.n,
                           params.groupSize};
  const uint64_t n = uint64_t{params.m} * params.n;
  q::CheckCount(kApi, src, n, "srcTensor");
  q::CheckCount(kApi, dst, n, "dstTensor");
  q::CheckCount(kApi, scale, lay.Count(), "scale");
  q::Record(kApi, loc, {q::SpanOf(src, n), q::SpanOf(scale, lay.Count())}, {q::SpanOf(dst, n)});
  const SrcT* in = src.HostPtr();
  const S* sp = scale.HostPtr();
  DstT* out = dst.HostPtr();
  for (uint64_t e = 0; e < n; ++e) {
    float v;
    if constexpr (std::is_same_v<SrcT, int32_t>) {
      v = q::Conv<float, int32_t>(in[e], RoundMode::CAST_ROUND);
    } else {
      v = in[e];
    }
    v = v * q::F(sp[lay.Index(e / params.n, e % params.n)]);
    if constexpr (std::is_same_v<DstT, float>) {
      out[e] = v;
    } else {
      out[e] = q::SatConv<DstT, float>(v, RoundMode::CAST_RINT);
    }
  }
}

}  // namespace lngrad_dequant

template <const DequantizeConfig& config, typename DstT, typename SrcT, typename ScaleT,
          typename OffsetT>
void Dequantize(const LocalTensor<DstT>& dstTensor, const LocalTensor<SrcT>& srcTensor,
                const ScaleT& scale, const OffsetT& offset,
                const LocalTensor<uint8_t>& sharedTmpBuffer, const DequantizeParams& params,
                lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  namespace q = lngrad::aicore::quant_detail;
  constexpr const char* kApi = "Dequantize";
  static_assert(!config.hasOffset, "Dequantize: the device does not support an offset");
  (void)offset;
  (void)sharedTmpBuffer;
  q::CheckProduct(kApi, true);
  q::Require(params.n * sizeof(DstT) % 32 == 0, kApi, "n must be 32-byte aligned in dst");
  const DequantParams p{params.m, params.n, params.n};
  const uint64_t total = uint64_t{params.m} * params.n;
  constexpr bool kTokenOrGroup =
      config.policy == DequantizePolicy::PER_TOKEN || config.policy == DequantizePolicy::PER_GROUP;
  static_assert(std::is_same_v<SrcT, int32_t> || (kTokenOrGroup && std::is_same_v<SrcT, float>),
                "Dequantize: srcTensor must be int32_t (or float for PER_TOKEN / PER_GROUP)");
  if constexpr (kTokenOrGroup) {
    lngrad_dequant::TokenOrGroup<config>(dstTensor, srcTensor, scale, params, loc);
  } else if constexpr (config.policy == DequantizePolicy::PER_TENSOR) {
    static_assert(!q::IsTensor<ScaleT>::value, "Dequantize: PER_TENSOR takes a scalar scale");
    static_assert(q::DequantPairValid<DstT, ScaleT>(false), "Dequantize: unsupported types");
    const float s = q::F(scale);
    q::DequantPass(kApi, dstTensor, srcTensor, nullptr, p, total, q::Span{nullptr, 0}, loc,
                   [&](uint64_t) { return s; });
  } else {
    static_assert(q::IsTensor<ScaleT>::value, "Dequantize: PER_CHANNEL takes a scale tensor");
    using S = typename q::IsTensor<ScaleT>::Elem;
    static_assert(q::DequantPairValid<DstT, S>(true), "Dequantize: unsupported types");
    q::CheckCount(kApi, scale, params.n, "scale");
    const S* s = scale.HostPtr();
    q::DequantPass(kApi, dstTensor, srcTensor, nullptr, p, total, q::SpanOf(scale, params.n), loc,
                   [&](uint64_t j) { return q::ScaleToFloat(s[j]); });
  }
}

template <const DequantizeConfig& config, typename DstT, typename SrcT, typename ScaleT,
          typename OffsetT>
void Dequantize(const LocalTensor<DstT>& dstTensor, const LocalTensor<SrcT>& srcTensor,
                const ScaleT& scale, const OffsetT& offset, const DequantizeParams& params,
                lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  Dequantize<config>(dstTensor, srcTensor, scale, offset, LocalTensor<uint8_t>{}, params, loc);
}

// ---- AscendDequant, AscendDeQuantPolicy PER_TOKEN / PER_GROUP (arch 3510) -------------------

namespace lngrad_dequant {

template <typename dstT, typename srcT, typename scaleT, const AscendDeQuantConfig& config,
          const AscendDeQuantPolicy& policy>
void CheckPolicyForm(const LocalTensor<dstT>& dst, const LocalTensor<srcT>& src,
                     const AscendDeQuantParam& para) {
  namespace q = lngrad::aicore::quant_detail;
  constexpr const char* kApi = "AscendDequant";
  static_assert(
      policy == AscendDeQuantPolicy::PER_TOKEN || policy == AscendDeQuantPolicy::PER_GROUP,
      "AscendDequant: the policy forms take PER_TOKEN or PER_GROUP (the others are "
      "reserved)");
  static_assert(std::is_same_v<srcT, int32_t> || std::is_same_v<srcT, float>,
                "AscendDequant: srcT must be int32_t or float");
  static_assert(
      std::is_same_v<dstT, half> || std::is_same_v<dstT, bfloat16_t> || std::is_same_v<dstT, float>,
      "AscendDequant: dstT must be half, bfloat16_t or float");
  static_assert(std::is_same_v<scaleT, half> || std::is_same_v<scaleT, bfloat16_t> ||
                    std::is_same_v<scaleT, float>,
                "AscendDequant: scaleT must be half, bfloat16_t or float");
  static_assert(policy != AscendDeQuantPolicy::PER_GROUP || config.kDim == 0 || config.kDim == 1,
                "AscendDequant: PER_GROUP kDim must be 0 or 1");
  q::CheckProduct(kApi, true);
  q::CheckCount(kApi, src, para.calCount, "srcTensor");
  q::CheckCount(kApi, dst, para.calCount, "dstTensor");
  q::CheckRowParams(kApi, para, uint64_t{para.n} * sizeof(srcT), uint64_t{para.n} * sizeof(dstT),
                    policy == AscendDeQuantPolicy::PER_GROUP);
}

template <typename dstT, typename srcT, typename scaleT, const AscendDeQuantConfig& config,
          const AscendDeQuantPolicy& policy>
void PolicyForm(const LocalTensor<dstT>& dst, const LocalTensor<srcT>& src,
                const LocalTensor<scaleT>& scaleTensor, const AscendDeQuantParam& para,
                lngrad::aicore::SrcLoc loc) {
  namespace q = lngrad::aicore::quant_detail;
  CheckPolicyForm<dstT, srcT, scaleT, config, policy>(dst, src, para);
  const bool group = policy == AscendDeQuantPolicy::PER_GROUP;
  if (para.n == 0 || (group && para.groupSize == 0)) return;
  const uint64_t rows = para.calCount / para.n;
  // AscendDeQuantPolicy's PER_TOKEN, PER_GROUP are ParamLayout's policies 2, 3.
  const q::ParamLayout lay{group ? 3 : 2, config.kDim, rows, para.n, para.groupSize};
  q::CheckCount("AscendDequant", scaleTensor, lay.Count(), "scaleTensor");
  q::Record("AscendDequant", loc,
            {q::SpanOf(src, para.calCount), q::SpanOf(scaleTensor, lay.Count())},
            {q::SpanOf(dst, para.calCount)});
  const srcT* in = src.HostPtr();
  const scaleT* sc = scaleTensor.HostPtr();
  dstT* out = dst.HostPtr();
  for (uint64_t e = 0; e < para.calCount; ++e) {
    float v;
    if constexpr (std::is_same_v<srcT, int32_t>) {
      v = q::Conv<float, int32_t>(in[e], RoundMode::CAST_ROUND);
    } else {
      v = in[e];
    }
    v = v * q::F(sc[lay.Index(e / para.n, e % para.n)]);
    if constexpr (std::is_same_v<dstT, float>) {
      out[e] = v;
    } else {
      out[e] = q::SatConv<dstT, float>(v, RoundMode::CAST_RINT);
    }
  }
}

}  // namespace lngrad_dequant

template <typename dstT, typename srcT, typename scaleT, const AscendDeQuantConfig& config,
          const AscendDeQuantPolicy& policy>
void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<srcT>& srcTensor,
                   const LocalTensor<scaleT>& scaleTensor, const LocalTensor<scaleT>& offsetTensor,
                   const AscendDeQuantParam& para,
                   lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  (void)offsetTensor;
  lngrad_dequant::PolicyForm<dstT, srcT, scaleT, config, policy>(dstTensor, srcTensor, scaleTensor,
                                                                 para, loc);
}

template <typename dstT, typename srcT, typename scaleT, const AscendDeQuantConfig& config,
          const AscendDeQuantPolicy& policy>
void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<srcT>& srcTensor,
                   const LocalTensor<scaleT>& scaleTensor, const LocalTensor<scaleT>& offsetTensor,
                   const LocalTensor<uint8_t>& sharedTmpBuffer, const AscendDeQuantParam& para,
                   lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  (void)offsetTensor;
  (void)sharedTmpBuffer;
  lngrad_dequant::PolicyForm<dstT, srcT, scaleT, config, policy>(dstTensor, srcTensor, scaleTensor,
                                                                 para, loc);
}

}  // namespace AscendC
