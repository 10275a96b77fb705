// lngrad: the Ascend 950 (arch 3510) forms of AscendQuant templated on the destination type: the
// dstT/srcT overloads (PER_TENSOR, PER_CHANNEL) and the AscendQuantPolicy forms (PER_TOKEN,
// PER_GROUP) of the vendor's adv_api/quantization/ascend_quant.h, following
// ascend_quant_3510_impl.h and ascend_quant_per_group_3510_impl.h element by element.
//
// dstT/srcT (int8_t, hifloat8_t, fp8_e4m3fn_t, fp8_e5m2_t from half, bfloat16_t, float):
// - int8_t / hifloat8_t: in half. The source (and a scale / offset tensor) is Cast to half
//   (CAST_RINT, saturating: +-inf -> +-65504, NaN -> 0); scalars are converted to half; one half
//   Mul (Muls) by the scale, one half Add (Adds) of the offset; then half -> int8_t CAST_RINT or
//   half -> hifloat8_t CAST_ROUND, saturating.
// - fp8_e4m3fn_t / fp8_e5m2_t: in float. float(src) * float(scale) + float(offset), two float
//   operations, then the saturating CAST_RINT cast.
//   PER_CHANNEL: scale (offset) element j of the channel j = e % scaleCount.
//
// AscendQuantPolicy PER_TOKEN (scale [calCount / n]) and PER_GROUP (kDim 1: scale
// [rows, ceil(n / groupSize)], kDim 0: [ceil(rows / groupSize), n]; quant_common.h's ParamLayout)
// over rows = calCount / n rows of n. The working type W is float for the fp8 destinations and
// scaleT otherwise (a half / bfloat16 source with float scales is Cast to float exactly):
// v = W(src) * W(scale), + W(offset) when config.hasOffset, each one W operation (half and
// bfloat16: the exact float result rounded once to nearest even). Then:
// - int8_t: the configured mode (CAST_RINT, CAST_ROUND, CAST_FLOOR, CAST_CEIL, CAST_TRUNC; any
//   other falls back to CAST_RINT): half v directly to int8, float / bfloat16 v through float ->
//   int16 (mode) -> half -> int8, all saturating: clamp(mode(v), -128, 127).
// - hifloat8_t: CAST_ROUND or CAST_HYBRID (any other mode: CAST_ROUND), saturating.
// - fp8_e4m3fn_t / fp8_e5m2_t: CAST_RINT whatever the mode, saturating.
// - fp4x2_e2m1_t / fp4x2_e1m2_t (PER_GROUP only, half / bfloat16 sources; no offset): v =
//   W(src) * W(scale), then W -> bfloat16 CAST_RINT (saturating), bfloat16 -> fp4 in the int8
//   modes (same fallback), saturating: two roundings, as the source (TransRegForFp4). Element e
//   in byte e / 2, the even element in the low nibble (lngrad_aicore/fp4.h).
// sharedTmpBuffer is reserved in the policy forms (the page: no scratch is used).
//
// Checked mode: arch 3510 only (product); calCount within src and dst; PER_CHANNEL scaleCount
// nonzero and equal to offsetCount, calCount a multiple of 32 and of scaleCount; the policy forms
// n nonzero, n of src and dst a multiple of 32 bytes, calCount a multiple of n, PER_GROUP
// groupSize a nonzero multiple of 32 (quant_filter_arg).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

#include "lib/quantization/ascend_quant.h"

namespace lngrad::aicore::quant_detail {

// One vector operation in W: float as is; half / bfloat16 the exact float result rounded once.
template <typename W>
W WMul(W a, W b) {
  return W(F(a) * F(b));
}
template <typename W>
W WAdd(W a, W b) {
  return W(F(a) + F(b));
}

// x as the working type W (the sequences only widen: half / bfloat16 -> float exactly).
template <typename W, typename X>
W ToWork(X x) {
  if constexpr (std::is_same_v<W, X>) {
    return x;
  } else {
    return W(F(x));
  }
}

template <typename D>
inline constexpr bool kIsFp8 = std::is_same_v<D, fp8_e4m3fn_t> || std::is_same_v<D, fp8_e5m2_t>;
template <typename D>
inline constexpr bool kIsB8Dst =
    std::is_same_v<D, int8_t> || std::is_same_v<D, hifloat8_t> || kIsFp8<D>;

// TransRegForS8 / Hif8 / Fp8 / Fp4 of the 3510 source: the W value as D.
template <typename D, typename W>
D PolicyOut(W v, RoundMode mode) {
  if constexpr (kIsFp4<D>) {
    return Fp4Out<D>(v, mode);
  } else if constexpr (std::is_same_v<D, int8_t>) {
    const RoundMode m = IntListedMode(mode);
    if constexpr (std::is_same_v<W, half>) {
      return SatConv<int8_t, half>(v, m);
    } else {
      const int16_t i16 = SatConv<int16_t, float>(F(v), m);
      const half h = SatConv<half, int16_t>(i16, RoundMode::CAST_RINT);
      return SatConv<int8_t, half>(h, RoundMode::CAST_RINT);
    }
  } else if constexpr (std::is_same_v<D, hifloat8_t>) {
    const fp8::Hif8Round r =
        mode == RoundMode::CAST_HYBRID ? fp8::Hif8Round::kHybrid : fp8::Hif8Round::kRound;
    return hifloat8_t::FromBits(fp8::FloatToHif8(F(v), r, RegCastSaturates(true)));
  } else {
    return Fp8Sat<D>(F(v));
  }
}

// The half-domain end of the dstT/srcT int8 / hifloat8 sequences.
template <typename D>
D HalfOut(half h) {
  if constexpr (std::is_same_v<D, int8_t>) {
    return SatConv<int8_t, half>(h, RoundMode::CAST_RINT);
  } else {
    return hifloat8_t::FromBits(
        fp8::FloatToHif8(F(h), fp8::Hif8Round::kRound, RegCastSaturates(true)));
  }
}

// A source / scale / offset element as the half the int8 / hifloat8 sequences compute with.
template <typename T>
half ToHalfSat(T x) {
  if constexpr (std::is_same_v<T, half>) {
    return x;
  } else {
    return SatConv<half, T>(x, RoundMode::CAST_RINT);
  }
}

// Checked mode: an operand of `count` elements of the form's types.
template <typename D, typename S>
void CheckDstSrc(const char* api, const AscendC::LocalTensor<D>& dst,
                 const AscendC::LocalTensor<S>& src, uint64_t count) {
  CheckProduct(api, true);
  CheckCount(api, src, count, "srcTensor");
  CheckCount(api, dst, count, "dstTensor");
}

}  // namespace lngrad::aicore::quant_detail

namespace AscendC {
namespace lngrad_quant {

// dstT/srcT PER_TENSOR: calCount elements, scalar scale and offset.
template <typename dstT, typename srcT>
void DstSrcPerTensor(const LocalTensor<dstT>& dst, const LocalTensor<srcT>& src, float scale,
                     float offset, uint32_t calCount, lngrad::aicore::SrcLoc loc) {
  namespace q = lngrad::aicore::quant_detail;
  static_assert(q::kIsB8Dst<dstT>,
                "AscendQuant: dstT must be int8_t, fp8_e4m3fn_t, fp8_e5m2_t or hifloat8_t");
  static_assert(
      std::is_same_v<srcT, half> || std::is_same_v<srcT, bfloat16_t> || std::is_same_v<srcT, float>,
      "AscendQuant: srcT must be half, bfloat16_t or float");
  q::CheckDstSrc("AscendQuant", dst, src, calCount);
  q::Record("AscendQuant", loc, {q::SpanOf(src, calCount)}, {q::SpanOf(dst, calCount)});
  const srcT* in = src.HostPtr();
  dstT* out = dst.HostPtr();
  const half hs = half(scale), ho = half(offset);
  for (uint32_t e = 0; e < calCount; ++e) {
    if constexpr (q::kIsFp8<dstT>) {
      out[e] = q::Fp8Sat<dstT>(q::F(in[e]) * scale + offset);
    } else {
      out[e] = q::HalfOut<dstT>(q::HAdd(q::HMul(q::ToHalfSat(in[e]), hs), ho));
    }
  }
}

// dstT/srcT PER_CHANNEL: offsetTensor null means the scalar offset.
template <typename dstT, typename srcT>
void DstSrcPerChannel(const LocalTensor<dstT>& dst, const LocalTensor<srcT>& src,
                      const LocalTensor<srcT>& scaleTensor, const LocalTensor<srcT>* offsetTensor,
                      srcT offset, uint32_t scaleCount, uint32_t offsetCount, uint32_t calCount,
                      lngrad::aicore::SrcLoc loc) {
  namespace q = lngrad::aicore::quant_detail;
  constexpr const char* kApi = "AscendQuant";
  static_assert(q::kIsB8Dst<dstT>,
                "AscendQuant: dstT must be int8_t, fp8_e4m3fn_t, fp8_e5m2_t or hifloat8_t");
  static_assert(
      std::is_same_v<srcT, half> || std::is_same_v<srcT, bfloat16_t> || std::is_same_v<srcT, float>,
      "AscendQuant: srcT must be half, bfloat16_t or float");
  q::CheckDstSrc(kApi, dst, src, calCount);
  q::Require(scaleCount > 0, kApi, "scaleCount must be nonzero");
  q::Require(calCount % 32 == 0 && scaleCount > 0 && calCount % scaleCount == 0, kApi,
             "calCount " + std::to_string(calCount) +
                 " must be a multiple of 32 and of scaleCount " + std::to_string(scaleCount));
  if (scaleCount == 0) return;
  q::CheckCount(kApi, scaleTensor, scaleCount, "scaleTensor");
  if (offsetTensor != nullptr) {
    q::Require(offsetCount == scaleCount, kApi, "offsetCount must equal scaleCount");
    q::CheckCount(kApi, *offsetTensor, scaleCount, "offsetTensor");
  }
  q::Record(kApi, loc,
            {q::SpanOf(src, calCount), q::SpanOf(scaleTensor, scaleCount),
             offsetTensor != nullptr ? q::SpanOf(*offsetTensor, scaleCount) : q::Span{nullptr, 0}},
            {q::SpanOf(dst, calCount)});
  const srcT* in = src.HostPtr();
  const srcT* sc = scaleTensor.HostPtr();
  const srcT* of = offsetTensor != nullptr ? offsetTensor->HostPtr() : nullptr;
  dstT* out = dst.HostPtr();
  for (uint32_t e = 0; e < calCount; ++e) {
    const uint32_t j = e % scaleCount;
    if constexpr (q::kIsFp8<dstT>) {
      const float o = of != nullptr ? q::F(of[j]) : q::F(offset);
      out[e] = q::Fp8Sat<dstT>(q::F(in[e]) * q::F(sc[j]) + o);
    } else {
      const half o = of != nullptr ? q::ToHalfSat(of[j]) : half(q::F(offset));
      out[e] = q::HalfOut<dstT>(q::HAdd(q::HMul(q::ToHalfSat(in[e]), q::ToHalfSat(sc[j])), o));
    }
  }
}

}  // namespace lngrad_quant

// ---- AscendQuant, dstT/srcT, per tensor (arch 3510) -----------------------------------------

template <typename dstT, typename srcT, bool isReuseSource = false>
void AscendQuant(const LocalTensor<dstT>& dstTensor, const LocalTensor<srcT>& srcTensor,
                 const LocalTensor<uint8_t>& sharedTmpBuffer, const float scale, const float offset,
                 const uint32_t calCount,
                 lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  (void)sharedTmpBuffer;
  lngrad_quant::DstSrcPerTensor<dstT, srcT>(dstTensor, srcTensor, scale, offset, calCount, loc);
}

template <typename dstT, typename srcT, bool isReuseSource = false>
void AscendQuant(const LocalTensor<dstT>& dstTensor, const LocalTensor<srcT>& srcTensor,
                 const LocalTensor<uint8_t>& sharedTmpBuffer, const float scale, const float offset,
                 lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  (void)sharedTmpBuffer;
  lngrad_quant::DstSrcPerTensor<dstT, srcT>(dstTensor, srcTensor, scale, offset,
                                            srcTensor.GetSize(), loc);
}

template <typename dstT, typename srcT, bool isReuseSource = false>
void AscendQuant(const LocalTensor<dstT>& dstTensor, const LocalTensor<srcT>& srcTensor,
                 const float scale, const float offset, const uint32_t calCount,
                 lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad_quant::DstSrcPerTensor<dstT, srcT>(dstTensor, srcTensor, scale, offset, calCount, loc);
}

template <typename dstT, typename srcT, bool isReuseSource = false>
void AscendQuant(const LocalTensor<dstT>& dstTensor, const LocalTensor<srcT>& srcTensor,
                 const float scale, const float offset,
                 lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad_quant::DstSrcPerTensor<dstT, srcT>(dstTensor, srcTensor, scale, offset,
                                            srcTensor.GetSize(), loc);
}

// ---- AscendQuant, dstT/srcT, per channel (arch 3510) ----------------------------------------

template <typename dstT, typename srcT, bool isReuseSource = false>
void AscendQuant(const LocalTensor<dstT>& dstTensor, const LocalTensor<srcT>& srcTensor,
                 const LocalTensor<uint8_t>& sharedTmpBuffer, const LocalTensor<srcT>& scaleTensor,
                 const srcT offset, const uint32_t scaleCount, const uint32_t calCount,
                 lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  (void)sharedTmpBuffer;
  lngrad_quant::DstSrcPerChannel<dstT, srcT>(dstTensor, srcTensor, scaleTensor, nullptr, offset,
                                             scaleCount, scaleCount, calCount, loc);
}

template <typename dstT, typename srcT, bool isReuseSource = false>
void AscendQuant(const LocalTensor<dstT>& dstTensor, const LocalTensor<srcT>& srcTensor,
                 const LocalTensor<uint8_t>& sharedTmpBuffer, const LocalTensor<srcT>& scaleTensor,
                 const LocalTensor<srcT>& offsetTensor, const uint32_t scaleCount,
                 const uint32_t offsetCount, const uint32_t calCount,
                 lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  (void)sharedTmpBuffer;
  lngrad_quant::DstSrcPerChannel<dstT, srcT>(dstTensor, srcTensor, scaleTensor, &offsetTensor,
                                             srcT{}, scaleCount, offsetCount, calCount, loc);
}

template <typename dstT, typename srcT, bool isReuseSource = false>
void AscendQuant(const LocalTensor<dstT>& dstTensor, const LocalTensor<srcT>& srcTensor,
                 const LocalTensor<uint8_t>& sharedTmpBuffer, const LocalTensor<srcT>& scaleTensor,
                 const srcT offset,
                 lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  (void)sharedTmpBuffer;
  lngrad_quant::DstSrcPerChannel<dstT, srcT>(dstTensor, srcTensor, scaleTensor, nullptr, offset,
                                             scaleTensor.GetSize(), scaleTensor.GetSize(),
                                             srcTensor.GetSize(), loc);
}

template <typename dstT, typename srcT, bool isReuseSource = false>
void AscendQuant(const LocalTensor<dstT>& dstTensor, const LocalTensor<srcT>& srcTensor,
                 const LocalTensor<uint8_t>& sharedTmpBuffer, const LocalTensor<srcT>& scaleTensor,
                 const LocalTensor<srcT>& offsetTensor,
                 lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  (void)sharedTmpBuffer;
  lngrad_quant::DstSrcPerChannel<dstT, srcT>(dstTensor, srcTensor, scaleTensor, &offsetTensor,
                                             srcT{}, scaleTensor.GetSize(), offsetTensor.GetSize(),
                                             srcTensor.GetSize(), loc);
}

template <typename dstT, typename srcT, bool isReuseSource = false>
void AscendQuant(const LocalTensor<dstT>& dstTensor, const LocalTensor<srcT>& srcTensor,
                 const LocalTensor<srcT>& scaleTensor, const srcT offset, const uint32_t scaleCount,
                 const uint32_t calCount,
                 lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad_quant::DstSrcPerChannel<dstT, srcT>(dstTensor, srcTensor, scaleTensor, nullptr, offset,
                                             scaleCount, scaleCount, calCount, loc);
}

template <typename dstT, typename srcT, bool isReuseSource = false>
void AscendQuant(const LocalTensor<dstT>& dstTensor, const LocalTensor<srcT>& srcTensor,
                 const LocalTensor<srcT>& scaleTensor, const LocalTensor<srcT>& offsetTensor,
                 const uint32_t scaleCount, const uint32_t offsetCount, const uint32_t calCount,
                 lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad_quant::DstSrcPerChannel<dstT, srcT>(dstTensor, srcTensor, scaleTensor, &offsetTensor,
                                             srcT{}, scaleCount, offsetCount, calCount, loc);
}

template <typename dstT, typename srcT, bool isReuseSource = false>
void AscendQuant(const LocalTensor<dstT>& dstTensor, const LocalTensor<srcT>& srcTensor,
                 const LocalTensor<srcT>& scaleTensor, const srcT offset,
                 lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad_quant::DstSrcPerChannel<dstT, srcT>(dstTensor, srcTensor, scaleTensor, nullptr, offset,
                                             scaleTensor.GetSize(), scaleTensor.GetSize(),
                                             srcTensor.GetSize(), loc);
}

template <typename dstT, typename srcT, bool isReuseSource = false>
void AscendQuant(const LocalTensor<dstT>& dstTensor, const LocalTensor<srcT>& srcTensor,
                 const LocalTensor<srcT>& scaleTensor, const LocalTensor<srcT>& offsetTensor,
                 lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad_quant::DstSrcPerChannel<dstT, srcT>(dstTensor, srcTensor, scaleTensor, &offsetTensor,
                                             srcT{}, scaleTensor.GetSize(), offsetTensor.GetSize(),
                                             srcTensor.GetSize(), loc);
}

// ---- AscendQuant, AscendQuantPolicy PER_TOKEN / PER_GROUP (arch 3510) -----------------------

namespace lngrad_quant {

template <typename dstT, typename srcT, typename scaleT, const AscendQuantConfig& config,
          const AscendQuantPolicy& policy>
void CheckPolicyForm(const LocalTensor<dstT>& dst, const LocalTensor<srcT>& src,
                     const AscendQuantParam& para) {
  namespace q = lngrad::aicore::quant_detail;
  constexpr const char* kApi = "AscendQuant";
  static_assert(policy == AscendQuantPolicy::PER_TOKEN || policy == AscendQuantPolicy::PER_GROUP,
                "AscendQuant: the policy forms take PER_TOKEN or PER_GROUP (the others are "
                "reserved)");
  static_assert(q::kIsB8Dst<dstT> || (q::kIsFp4<dstT> && policy == AscendQuantPolicy::PER_GROUP),
                "AscendQuant: dstT must be int8_t, fp8_e4m3fn_t, fp8_e5m2_t or hifloat8_t "
                "(fp4x2_e2m1_t / fp4x2_e1m2_t: PER_GROUP only)");
  static_assert(std::is_same_v<scaleT, half> || std::is_same_v<scaleT, bfloat16_t> ||
                    std::is_same_v<scaleT, float>,
                "AscendQuant: scaleT must be half, bfloat16_t or float");
  static_assert(std::is_same_v<srcT, scaleT> ||
                    (std::is_same_v<scaleT, float> &&
                     (std::is_same_v<srcT, half> || std::is_same_v<srcT, bfloat16_t>)),
                "AscendQuant: srcT/scaleT must be one of the page's pairs (the same type, or "
                "half / bfloat16_t with float)");
  static_assert(!q::kIsFp4<dstT> || !std::is_same_v<srcT, float>,
                "AscendQuant: the fp4 destinations take a half or bfloat16_t source");
  static_assert(policy != AscendQuantPolicy::PER_GROUP || config.kDim == 0 || config.kDim == 1,
                "AscendQuant: PER_GROUP kDim must be 0 or 1");
  q::CheckDstSrc(kApi, dst, src, para.calCount);
  q::CheckRowParams(kApi, para, uint64_t{para.n} * sizeof(srcT),
                    lngrad::aicore::ElemBytes<dstT>(para.n),
                    policy == AscendQuantPolicy::PER_GROUP);
}

// The policy forms' pass: offsetTensor null means the scalar offset.
template <typename dstT, typename srcT, typename scaleT, const AscendQuantConfig& config,
          const AscendQuantPolicy& policy>
void PolicyForm(const LocalTensor<dstT>& dst, const LocalTensor<srcT>& src,
                const LocalTensor<scaleT>& scaleTensor, const LocalTensor<scaleT>* offsetTensor,
                scaleT offset, const AscendQuantParam& para, lngrad::aicore::SrcLoc loc) {
  namespace q = lngrad::aicore::quant_detail;
  constexpr const char* kApi = "AscendQuant";
  CheckPolicyForm<dstT, srcT, scaleT, config, policy>(dst, src, para);
  const bool group = policy == AscendQuantPolicy::PER_GROUP;
  if (para.n == 0 || (group && para.groupSize == 0)) return;
  const uint64_t rows = para.calCount / para.n;
  const q::ParamLayout lay{static_cast<int>(policy), config.kDim, rows, para.n, para.groupSize};
  const bool offsetTensorUsed = config.hasOffset && !q::kIsFp4<dstT> && offsetTensor != nullptr;
  q::CheckCount(kApi, scaleTensor, lay.Count(), "scaleTensor");
  if (offsetTensorUsed) q::CheckCount(kApi, *offsetTensor, lay.Count(), "offsetTensor");
  q::Record(kApi, loc,
            {q::SpanOf(src, para.calCount), q::SpanOf(scaleTensor, lay.Count()),
             offsetTensorUsed ? q::SpanOf(*offsetTensor, lay.Count()) : q::Span{nullptr, 0}},
            {q::SpanOf(dst, para.calCount)});
  using W = std::conditional_t<q::kIsFp8<dstT>, float, scaleT>;
  const srcT* in = src.HostPtr();
  const scaleT* sc = scaleTensor.HostPtr();
  const scaleT* of = offsetTensorUsed ? offsetTensor->HostPtr() : nullptr;
  std::byte* out = reinterpret_cast<std::byte*>(dst.HostPtr());
  for (uint64_t e = 0; e < para.calCount; ++e) {
    const uint64_t c = lay.Index(e / para.n, e % para.n);
    W v = q::WMul(q::ToWork<W>(in[e]), q::ToWork<W>(sc[c]));
    if constexpr (config.hasOffset && !q::kIsFp4<dstT>) {
      v = q::WAdd(v, q::ToWork<W>(of != nullptr ? of[c] : offset));
    }
    lngrad::aicore::detail::StoreElem<dstT>(out, e, q::PolicyOut<dstT>(v, config.roundMode));
  }
}

}  // namespace lngrad_quant

template <typename dstT, typename srcT, typename scaleT, bool isReuseSource = false,
          const AscendQuantConfig& config, const AscendQuantPolicy& policy>
void AscendQuant(const LocalTensor<dstT>& dstTensor, const LocalTensor<srcT>& srcTensor,
                 const LocalTensor<scaleT>& scaleTensor, const LocalTensor<scaleT>& offsetTensor,
                 const AscendQuantParam& para,
                 lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad_quant::PolicyForm<dstT, srcT, scaleT, config, policy>(dstTensor, srcTensor, scaleTensor,
                                                               &offsetTensor, scaleT{}, para, loc);
}

template <typename dstT, typename srcT, typename scaleT, bool isReuseSource = false,
          const AscendQuantConfig& config, const AscendQuantPolicy& policy>
void AscendQuant(const LocalTensor<dstT>& dstTensor, const LocalTensor<srcT>& srcTensor,
                 const LocalTensor<uint8_t>& sharedTmpBuffer,
                 const LocalTensor<scaleT>& scaleTensor, const LocalTensor<scaleT>& offsetTensor,
                 const AscendQuantParam& para,
                 lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  (void)sharedTmpBuffer;
  lngrad_quant::PolicyForm<dstT, srcT, scaleT, config, policy>(dstTensor, srcTensor, scaleTensor,
                                                               &offsetTensor, scaleT{}, para, loc);
}

template <typename dstT, typename srcT, typename scaleT, bool isReuseSource = false,
          const AscendQuantConfig& config, const AscendQuantPolicy& policy>
void AscendQuant(const LocalTensor<dstT>& dstTensor, const LocalTensor<srcT>& srcTensor,
                 const LocalTensor<scaleT>& scaleTensor, const scaleT offset,
                 const AscendQuantParam& para,
                 lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad_quant::PolicyForm<dstT, srcT, scaleT, config, policy>(dstTensor, srcTensor, scaleTensor,
                                                               nullptr, offset, para, loc);
}

template <typename dstT, typename srcT, typename scaleT, bool isReuseSource = false,
          const AscendQuantConfig& config, const AscendQuantPolicy& policy>
void AscendQuant(const LocalTensor<dstT>& dstTensor, const LocalTensor<srcT>& srcTensor,
                 const LocalTensor<uint8_t>& sharedTmpBuffer,
                 const LocalTensor<scaleT>& scaleTensor, const scaleT offset,
                 const AscendQuantParam& para,
                 lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  (void)sharedTmpBuffer;
  lngrad_quant::PolicyForm<dstT, srcT, scaleT, config, policy>(dstTensor, srcTensor, scaleTensor,
                                                               nullptr, offset, para, loc);
}

}  // namespace AscendC
