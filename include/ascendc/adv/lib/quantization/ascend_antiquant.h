// lngrad: the Ascend C high-level anti-quantization APIs AscendAntiQuant (every product) and
// AntiQuantize (Ascend 950 only): the vendor's adv_api/quantization/{ascend_antiquant,
// antiquantize}.h: AscendAntiQuant int8_t / int4b_t to half / bfloat16_t; AntiQuantize also the
// 8-bit float sources and float destinations (below).
//
// AscendAntiQuant, arch 2201/2002 (ascend_antiquant_impl.h, _c220_impl.h): half output - the
// source Cast to half (exact), Add the half offset, Mul by the half scale, each one half
// instruction (the float result of exact operands rounded to half once); bfloat16 output - the
// source through half to float (exact), Add float(offset), Mul float(scale) in float, Cast to
// bfloat16 CAST_RINT. Arch 3510: the forms with an offset follow ascend_antiquant_3510_impl.h
// (ascend_antiquant_950.h: half / bfloat16 / float arithmetic by source and path, no groups,
// also the hifloat8_t / fp8 sources); the scale-only forms the 2201 sequence above (the shared
// ascend_antiquant_impl.h; 3510's bfloat16 inner loop is a copy of c220's), the bfloat16 Cast
// the 950's SatS one; AntiQuantize antiquantize_3510_impl.h (below).
// Layout (off arch 3510 and the scale-only forms): isTranspose false - src [K, N] (N = src size
// / K), offset and scale [groupCount, N],
// row k using row k / (K / groupCount); isTranspose true - src [N, K], offset and scale
// [N, groupCount], column k using column k / (K / groupCount). groupCount is the shape info's
// height (width when transposed), else the tensor's ShapeInfo shape[0] (shape[1]), else 1.
// Except where the toolkit's paths ignore the groups (2201/2002, and the 950's scale-only
// forms): without transpose and with an offset, half: row k takes offset[n] and scale[n];
// bfloat16 with the scratch of its performance path: offset[n] and, as its PreCast places the
// scale after offset.GetSize() floats, offset[N + n] where the offset holds more than N + n
// elements, else scale[N + n - offset.GetSize()] (Bf16Performance); bfloat16 below that scratch
// (Bf16NoTransposeFallback), rows k < K / groupCount only, column n taking offset and scale
// element n % (sharedTmpBuffer / 8); transposed outside the Brcb paths with an offset
// (AntiQuantImplScalar), both offset and scale by the offset's groups; half transposed (the Brcb
// path: enough sharedTmpBuffer and k < 4096, BrcbPath below), row n takes scratch block n, which
// holds element n of each tensor for n below 8 * (uint8_t)(scaleN / 8) and what the scratch held
// beyond (the device's Brcb writes no more; checked mode asks one scale row per source row);
// bfloat16 transposed on 2201 with k a multiple of 64 up to 2040 (Bf16BrcbPath), row n takes
// element n of offset and scale, its scratch as the device leaves it; bfloat16 without transpose
// nor offset runs rows in chunks of sharedTmpBuffer / 8 elements, each chunk taking the row's scale
// from its start (column n takes element n % (sharedTmpBuffer / 8)). The transposed bfloat16
// scale-tensor form does not build for arch 3510 (refused there). The scalar forms use one offset
// and scale for every element. AntiQuantize: PER_TENSOR (scalars), PER_CHANNEL (scale and offset
// [n]), PER_TOKEN ([m]), PER_GROUP (kDim 1: [m, ceil(n / groupSize)]; kDim 0: [ceil(m / groupSize),
// n]) on a row-major [m, n] source, the float sequence (antiquantize_3510_impl.h: the source to
// float, exact for int8_t and the 8-bit floats hifloat8_t, fp8_e5m2_t, fp8_e4m3fn_t; + offset, *
// scale in float; to the destination rounding to nearest even, none for float); hasOffset false
// skips the Add. Parameters of the destination's type or, per token and per group, float.
// AntiQuantize PER_GROUP from fp4x2_e2m1_t / fp4x2_e1m2_t with fp8_e8m0_t scales to half /
// bfloat16_t (ascend_antiquant_3510_impl.h AntiQuantPerGroupFor{Col,Row}Fp4): the scale byte b
// as the bfloat16 with bits b << 7 (b = 0: 0x0040, 2^-127; b = 0xFF: 0x7FFF, NaN), the fp4 code
// as bfloat16 (exact), one bfloat16 Mul (rounded to nearest even), then to half CAST_RINT
// saturating (+-inf -> +-65504, NaN -> 0); no offset (hasOffset must be false), n a multiple
// of 64.
// AscendAntiQuant from fp4 with fp8_e8m0_t scales (arch 3510, the scale tensor forms with and
// without sharedTmpBuffer): the scale and the code as above, half output multiplying in half
// (both operands Cast to half with SatS first), bfloat16 output in bfloat16. Not transposed:
// ceil(k / 32) groups of 32 rows of n1 = the shape info's scaleWidth (else the scale's ShapeInfo
// shape[1]), row r scaled by scale row r / 32 (rows past k too), the source row at byte
// (uint16_t)(r * n1) / 2. Transposed (k a multiple of 64): n * k elements (n = scaleHeight, else
// shape[0]), each 32 consecutive ones sharing a scale, in ceil(count / 128) / 2 passes of 256
// (one for a single repeat; an odd repeat count leaves the last 128 unwritten), as the source's
// CastScale / AntiQuantProcessByNum; a one-element scale takes the source's chunked path.
//
// Checked mode: src size a multiple of K, offset/scale holding groupCount * N elements, the
// operands 32-byte aligned, sharedTmpBuffer at least GetAscendAntiQuantMaxMinTmpSize's minimum
// on 2201/2002 (0 for half output), AntiQuantize on arch 3510, int8_t to half only on arch 2002;
// without transpose with an offset tensor on 2201/2002: half N a multiple of 16, the bfloat16
// performance path's N a multiple of 32 (int8_t) or 64 (int4b_t) (the truncated row strides);
// the transposed fallback: the group count dividing k (unchecked: its columns past the groups
// stay unwritten, as the device leaves them);
// every transposed form on 2201/2002: k * sizeof(InputDataType) a multiple of 32 (the kit's
// check; sizeof(int4b_t) is 1 there); the Brcb path: scaleN equal to the source's rows (and on
// the 950 k 32-byte aligned in the source); no int4b_t source on the 950.
#pragma once

#include <cstddef>
#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "lib/quantization/ascend_antiquant_950.h"
#include "lib/quantization/ascend_antiquant_pass.h"
#include "lib/quantization/ascend_antiquant_brcb.h"
#include "lib/quantization/quant_common.h"

namespace AscendC {

struct AntiQuantShapeInfo {
  uint32_t offsetHeight{0};
  uint32_t offsetWidth{0};
  uint32_t scaleHeight{0};
  uint32_t scaleWidth{0};
};

LNGRAD_QUANTIZE_POLICY_AND_PARAMS(AntiQuantize)

struct AntiQuantizeConfig {
  AntiQuantizePolicy policy;
  bool hasOffset;
  int32_t kDim = 1;
};

}  // namespace AscendC

namespace lngrad::aicore::quant_detail {

// The group count of an offset/scale tensor: the shape info's value, else ShapeInfo dim `dim`.
template <typename D>
uint32_t GroupCount(uint32_t fromInfo, const AscendC::LocalTensor<D>& t, int dim) {
  if (fromInfo != 0) return fromInfo;
  const AscendC::ShapeInfo s = t.GetShapeInfo();
  const uint32_t g = s.shapeDim > dim ? s.shape[dim] : 0;
  return g == 0 ? 1 : g;
}

// The minimum scratch of the 2201/2002 sequence (GetAscendAntiQuantMinTmpSize).
inline uint64_t AntiQuantTmpMin(bool bf16Out, bool transposed, uint32_t scaleSize, uint32_t k) {
  if (!bf16Out || Is3510()) return 0;
  if (scaleSize == 1) return 1024;
  if (transposed) return uint64_t{80} * scaleSize * sizeof(float);
  return uint64_t{scaleSize} * 2 * sizeof(float) + uint64_t{64} * k * sizeof(float);
}

// The scale-only forms (2201's vector sequence, on the 950 too) take int8_t or int4b_t; on the
// 950 the page lists no int4b_t source (ascend_antiquant_3510_impl.h takes it in these forms:
// unchecked mode runs them as that code does).
template <typename S>
void CheckScaleOnlySource() {
  Require(std::is_same_v<S, int8_t> || std::is_same_v<S, AscendC::int4b_t>, "AscendAntiQuant",
          "the forms without an offset take an int8_t or int4b_t source");
  Require(!std::is_same_v<S, AscendC::int4b_t> || !Is3510(), "AscendAntiQuant",
          "int4b_t is not a source of Ascend 950 (arch 3510): its page lists int8_t, "
          "fp8_e4m3fn_t, fp8_e5m2_t, hifloat8_t (PER_CHANNEL, PER_TENSOR) and fp4x2_e2m1_t, "
          "fp4x2_e1m2_t (PER_GROUP float4)");
}

// The kit's kernel check on arch 2002 (Atlas inference AI Core; antiquant_check_common.h): an
// int8_t source and a half output only (the Atlas A2 / A3 forms add int4b_t and bfloat16_t).
template <typename S, typename D>
void Check2002Types(const char* api) {
  Require(detail::rep::RunningArch() != NpuArch::k2002 ||
              (std::is_same_v<S, int8_t> && std::is_same_v<D, half>),
          api, "Atlas inference products (arch 2002) take an int8_t source and a half output only");
}

// AntiQuantize (950): the source, destination and parameter types of its two tables
// (PER_TENSOR/PER_CHANNEL: parameters of the destination's type; PER_TOKEN/PER_GROUP: also
// float parameters, and a float destination with float parameters).
template <typename S, typename D, typename P>
void CheckAntiQuantizeTypes() {
  static_assert(std::is_same_v<S, int8_t> || std::is_same_v<S, hifloat8_t> ||
                    std::is_same_v<S, fp8_e5m2_t> || std::is_same_v<S, fp8_e4m3fn_t>,
                "AntiQuantize: SrcT must be int8_t, hifloat8_t, fp8_e5m2_t or fp8_e4m3fn_t");
  static_assert(
      std::is_same_v<D, half> || std::is_same_v<D, bfloat16_t> || std::is_same_v<D, float>,
      "AntiQuantize: DstT must be half, bfloat16_t or float");
  static_assert(std::is_same_v<P, D> || std::is_same_v<P, float>,
                "AntiQuantize: scale and offset must be of DstT or float");
}

// The element type of a parameter: a tensor's, or the destination's for a scalar.
template <typename X, typename D>
struct ParamElem {
  using type = D;
};
template <typename T, typename D>
struct ParamElem<AscendC::LocalTensor<T>, D> {
  using type = T;
};

}  // namespace lngrad::aicore::quant_detail

namespace AscendC {

namespace lngrad_antiquant {

// Whether a form with an offset runs the 950's sequence (ascend_antiquant_950.h): on arch 3510
// (int4b_t excepted: refused there), and for the 8-bit float and hifloat8 sources, which exist
// there only (refused elsewhere in checked mode).
template <typename S>
bool Uses950Sequence(const char* api) {
  namespace q = lngrad::aicore::quant_detail;
  q::aq950::CheckSourceProduct<S>(api);
  if constexpr (std::is_same_v<S, int4b_t>) {
    return false;
  } else {
    return q::Is3510() || !std::is_same_v<S, int8_t>;
  }
}

// The tensor forms: offset null means no offset (the scale-only form). The paths of
// ascend_antiquant_impl.h (2201/2002; on 3510 the scale-only forms, which take that file's
// sequence there too) rather than the groups, half output: without transpose and with an
// offset, the performance path reads the offset and scale with repeat stride 0 (row k takes
// element n); transposed, the Brcb path (sharedTmpBuffer of at least 32 bytes per scale row,
// twice that with an offset, and k < 4096) broadcasts element n to row n. Otherwise (the
// scale-only form, the scalar fallback): the groups. bfloat16 output (2201/2002) without
// transpose and with an offset: NoTransposeWithOffset; its scale-only form runs each row in
// chunks of sharedTmpBuffer / 8 elements and hands every chunk the row's scale from its start
// (AntiQuantOuterLoop), so column n takes element n % (sharedTmpBuffer / 8) of the scale row.
// The transposed fallback with an offset (AntiQuantImplScalar) reads the scale at the
// offset's index: the offset's groups.
template <typename S, typename D, bool isTranspose>
void TensorForm(const LocalTensor<D>& dst, const LocalTensor<S>& src, const LocalTensor<D>* offset,
                const LocalTensor<D>& scale, const LocalTensor<uint8_t>& tmp, uint32_t k,
                const AntiQuantShapeInfo& info, lngrad::aicore::SrcLoc loc) {
  namespace q = lngrad::aicore::quant_detail;
  constexpr const char* kApi = "AscendAntiQuant";
  q::aq950::CheckTypes<S, D>();
  q::Check2002Types<S, D>(kApi);
  CheckTransposedK<S>(isTranspose, k);
  if (offset != nullptr && Uses950Sequence<S>(kApi)) {
    q::aq950::TensorForm<S, D, isTranspose>(dst, src, *offset, scale, k, info.offsetWidth, loc);
    return;
  }
  q::CheckScaleOnlySource<S>();
  if (offset == nullptr && std::is_same_v<D, bfloat16_t>) CheckBf16ScaleOnly(isTranspose, tmp);
  const uint64_t total = src.GetSize();
  q::Require(k != 0 && total % k == 0, kApi,
             "k " + std::to_string(k) + " must divide the source size " + std::to_string(total));
  if (k == 0) return;
  const uint64_t nCols = isTranspose ? k : total / k;  // the contiguous axis
  const uint64_t nRows = total / nCols;
  const int dim = isTranspose ? 1 : 0;
  const uint32_t gs = q::GroupCount(isTranspose ? info.scaleWidth : info.scaleHeight, scale, dim);
  const uint32_t go =
      offset == nullptr
          ? gs
          : q::GroupCount(isTranspose ? info.offsetWidth : info.offsetHeight, *offset, dim);
  const uint64_t per = isTranspose ? nRows : nCols;  // N
  q::Require(k % gs == 0 && k % go == 0, kApi, "the group count must divide k");
  q::CheckCount(kApi, scale, gs * per, "scale");
  if (offset != nullptr) q::CheckCount(kApi, *offset, go * per, "offset");
  const bool vectorSeq = !q::Is3510() || offset == nullptr;
  if constexpr (isTranspose) {
    // The Brcb paths (half: AscendAntiQuantFP16Transpose; bfloat16 on 2201:
    // AscendAntiQuantBF16Transpose); the groups below otherwise.
    const uint64_t tmpMin =
        q::AntiQuantTmpMin(std::is_same_v<D, bfloat16_t>, true, static_cast<uint32_t>(gs * per), k);
    if (vectorSeq &&
        TransposedBrcb<S>(dst, src, offset, scale, tmp, k, info.scaleHeight, tmpMin, loc)) {
      return;
    }
  }
  bool perN = false;  // the performance path: row k takes element n
  if constexpr (!isTranspose) {
    if (vectorSeq && offset != nullptr) {
      perN = NoTransposeWithOffset<S, D>(dst, src, *offset, scale, tmp, k, gs, nCols,
                                         q::AntiQuantTmpMin(std::is_same_v<D, bfloat16_t>, false,
                                                            static_cast<uint32_t>(gs * per), k),
                                         loc);
      if (!perN) return;
    }
  }
  const uint64_t chunk = std::is_same_v<D, bfloat16_t> && !isTranspose && offset == nullptr
                             ? std::max<uint64_t>(tmp.GetSize() / 8, 1)
                             : per;
  // Flat element i -> the index of its offset/scale for `groups` groups along K.
  auto index = [&](uint64_t i, uint32_t groups) {
    const uint64_t r = i / nCols, c = i % nCols;
    const uint64_t kk = isTranspose ? c : r, nn = isTranspose ? r : c;
    if (perN) return nn;
    const uint64_t g = kk / (k / groups);
    return isTranspose ? nn * groups + g : g * per + nn % chunk;
  };
  const D* sp = scale.HostPtr();
  const D* op = offset == nullptr ? nullptr : offset->HostPtr();
  const uint64_t tmpMin = q::AntiQuantTmpMin(std::is_same_v<D, bfloat16_t>, isTranspose,
                                             static_cast<uint32_t>(gs * per), k);
  // int4b_t, AntiQuantOuterLoop's calls: the scale-only sequence per row of nCols (not
  // transposed) or per group of k / gs (AntiQuantImplScalar), and 2201/2002's transposed
  // fallback with an offset, per group of k / go (AntiQuantImplScalar's groupSize from the
  // offset's width); bfloat16 in its chunks (HalfByteReadIndex).
  const bool halfByte =
      std::is_same_v<S, int4b_t> && (offset == nullptr || (isTranspose && vectorSeq));
  const uint64_t seg = isTranspose ? k / (offset == nullptr ? gs : go) : nCols;
  const uint64_t srcChunk =
      std::is_same_v<D, bfloat16_t> ? std::max<uint64_t>(tmp.GetSize() / 8, 1) : seg;
  const uint32_t gsRead = isTranspose && offset != nullptr ? go : gs;
  // The transposed fallback: k / L calls of L = seg columns a row, parameter j of row n at
  // n * (k / L) + j; with G not dividing k the columns from (k / L) * L stay unwritten.
  const uint32_t gEff = isTranspose && vectorSeq && seg != 0 ? k / static_cast<uint32_t>(seg) : 0;
  const uint64_t covered = gEff != 0 ? uint64_t{gEff} * seg : nCols;  // columns written a row
  const uint32_t gOff = gEff != 0 ? gEff : go, gSc = gEff != 0 ? gEff : gsRead;
  const auto offAt = [&](uint64_t i) { return op == nullptr ? D{} : op[index(i, gOff)]; };
  if (gsRead != gs) q::CheckCount(kApi, scale, gsRead * per, "scale");
  const auto scAt = [&](uint64_t i) { return sp[index(i, gSc)]; };
  const auto srcAt = [&](uint64_t i) {
    return halfByte ? FallbackHalfByteIndex(i, nCols, seg, srcChunk) : i;
  };
  KeepColumnsPast(dst, nRows, nCols, covered, [&] {
    q::AntiQuantPassAt(kApi, dst, src, &tmp, tmpMin, total,
                       {q::SpanOf(scale, gsRead * per),
                        offset == nullptr ? q::Span{nullptr, 0} : q::SpanOf(*offset, go * per)},
                       loc, offset != nullptr, vectorSeq, offAt, scAt, srcAt, nCols, covered);
  });
  // bfloat16, AntiQuantOuterLoop's calls (scale-only; with an offset, the transposed fallback).
  if (std::is_same_v<D, bfloat16_t> && vectorSeq && (offset == nullptr || isTranspose)) {
    TensorFormScratch(tmp, src, scale.HostPtr(), offset != nullptr, isTranspose, total, seg, k / gs,
                      nCols, covered, offAt, scAt, srcAt, loc);
  }
}

template <typename S, typename D, bool isTranspose>
void ScalarForm(const LocalTensor<D>& dst, const LocalTensor<S>& src, bool withOffset, D offset,
                D scale, const LocalTensor<uint8_t>& tmp, uint32_t k, lngrad::aicore::SrcLoc loc) {
  namespace q = lngrad::aicore::quant_detail;
  q::aq950::CheckTypes<S, D>();
  q::Check2002Types<S, D>("AscendAntiQuant");
  CheckTransposedK<S>(isTranspose, k);
  if (withOffset && Uses950Sequence<S>("AscendAntiQuant")) {
    q::aq950::ScalarForm<S, D>(dst, src, offset, scale, loc);
    return;
  }
  q::CheckScaleOnlySource<S>();
  const uint64_t tmpMin = q::AntiQuantTmpMin(std::is_same_v<D, bfloat16_t>, false, 1, 0);
  // int4b_t: one AntiQuantOuterLoop call from element 0, bfloat16 in chunks of tmp / 8 whose
  // odd starts read from the nibble before (HalfByteReadIndex).
  const uint64_t n = src.GetSize();
  const uint64_t chunk = std::is_same_v<D, bfloat16_t> ? std::max<uint64_t>(tmp.GetSize() / 8, 1)
                                                       : std::max<uint64_t>(n, 1);
  const auto srcAt = [&](uint64_t i) {
    return std::is_same_v<S, int4b_t> ? q::HalfByteReadIndex(i, std::max<uint64_t>(n, 1), chunk)
                                      : i;
  };
  q::AntiQuantPassAt(
      "AscendAntiQuant", dst, src, &tmp, tmpMin, n, {}, loc, withOffset, true,
      [&](uint64_t) { return offset; }, [&](uint64_t) { return scale; }, srcAt);
  if constexpr (std::is_same_v<D, bfloat16_t>) {  // AntiQuantOuterLoop's scratch, one call
    OuterLoopScratch(
        tmp, n, n, false,
        [&](uint64_t i) {
          const float v = q::F(BrcbSrcAt(src, srcAt(i)));
          return (withOffset ? v + q::F(offset) : v) * q::F(scale);
        },
        [](uint64_t, uint64_t) { return 0.0f; }, loc);
  }
}

}  // namespace lngrad_antiquant

template <typename InputDataType, typename OutputDataType, bool isTranspose>
void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                     const LocalTensor<OutputDataType>& offset,
                     const LocalTensor<OutputDataType>& scale,
                     const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t k,
                     const AntiQuantShapeInfo& shapeInfo = {},
                     lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad_antiquant::TensorForm<InputDataType, OutputDataType, isTranspose>(
      dst, src, &offset, scale, sharedTmpBuffer, k, shapeInfo, loc);
}

template <typename InputDataType, typename OutputDataType, bool isTranspose>
void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                     const LocalTensor<OutputDataType>& scale,
                     const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t k,
                     const AntiQuantShapeInfo& shapeInfo = {},
                     lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad_antiquant::TensorForm<InputDataType, OutputDataType, isTranspose>(
      dst, src, nullptr, scale, sharedTmpBuffer, k, shapeInfo, loc);
}

template <typename InputDataType, typename OutputDataType, bool isTranspose>
void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                     const LocalTensor<OutputDataType>& offset,
                     const LocalTensor<OutputDataType>& scale, const uint32_t k,
                     const AntiQuantShapeInfo& shapeInfo = {},
                     lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad_antiquant::TensorForm<InputDataType, OutputDataType, isTranspose>(
      dst, src, &offset, scale, lngrad::aicore::math_detail::StackTmp(), k, shapeInfo, loc);
}

template <typename InputDataType, typename OutputDataType, bool isTranspose>
void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                     const OutputDataType offset, const OutputDataType scale,
                     const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t k,
                     const AntiQuantShapeInfo& shapeInfo = {},
                     lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  (void)shapeInfo;
  lngrad_antiquant::ScalarForm<InputDataType, OutputDataType, isTranspose>(
      dst, src, true, offset, scale, sharedTmpBuffer, k, loc);
}

template <typename InputDataType, typename OutputDataType, bool isTranspose>
void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                     const OutputDataType scale, const LocalTensor<uint8_t>& sharedTmpBuffer,
                     const uint32_t k, const AntiQuantShapeInfo& shapeInfo = {},
                     lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  (void)shapeInfo;
  lngrad_antiquant::ScalarForm<InputDataType, OutputDataType, isTranspose>(
      dst, src, false, OutputDataType{}, scale, sharedTmpBuffer, k, loc);
}

template <typename InputDataType, typename OutputDataType, bool isTranspose>
void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                     const OutputDataType offset, const OutputDataType scale, const uint32_t k,
                     const AntiQuantShapeInfo& shapeInfo = {},
                     lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  AscendAntiQuant<InputDataType, OutputDataType, isTranspose>(
      dst, src, offset, scale, lngrad::aicore::math_detail::StackTmp(), k, shapeInfo, loc);
}

// ---- AscendAntiQuant from fp4 with fp8_e8m0_t scales (arch 3510) ----------------------------

namespace lngrad_antiquant {

// An fp8_e8m0_t scale as the bfloat16 the fp4 sequence multiplies by (its shift and selects).
inline bfloat16_t E8m0AsBf16(fp8_e8m0_t s) {
  if (s.bits == 0) return bfloat16_t::FromBits(0x0040);
  if (s.bits == 0xFF) return bfloat16_t::FromBits(0x7FFF);
  return bfloat16_t::FromBits(static_cast<uint16_t>(s.bits << 7));
}

// The fp4 code of element e as the destination type: exact in bfloat16, half by SatS Cast.
template <typename S, typename D>
D Fp4As(const std::byte* src, uint64_t e) {
  const S code = lngrad::aicore::detail::LoadElem<S>(src, e);
  const bfloat16_t b(lngrad::aicore::fp4::Fp4ToFloat(code.bits, std::is_same_v<S, fp4x2_e1m2_t>));
  if constexpr (std::is_same_v<D, half>) {
    return lngrad::aicore::quant_detail::SatConv<half, bfloat16_t>(b, RoundMode::CAST_RINT);
  } else {
    return b;
  }
}

// An e8m0 scale as the destination type (CastScale / the in-line conversion of the source).
template <typename D>
D E8m0As(fp8_e8m0_t s) {
  if constexpr (std::is_same_v<D, half>) {
    return lngrad::aicore::quant_detail::SatConv<half, bfloat16_t>(E8m0AsBf16(s),
                                                                   RoundMode::CAST_RINT);
  } else {
    return E8m0AsBf16(s);
  }
}

// One Mul in the destination type (half or bfloat16: the float product rounded once).
template <typename D>
D Fp4Mul(D x, D s) {
  return D(lngrad::aicore::quant_detail::F(x) * lngrad::aicore::quant_detail::F(s));
}

// Not transposed (AscendAntiQuantNoTranspose): rows up to ceil(k / 32) * 32 of n1 columns, row r
// scaled by scale row r / 32; the source row's byte offset is (row * n1) truncated to 16 bits,
// halved (the source's uint16_t srcAddrCount).
template <typename S, typename D>
void Fp4Rows(const LocalTensor<D>& dst, const LocalTensor<S>& src,
             const LocalTensor<fp8_e8m0_t>& scale, uint32_t k, uint32_t n1,
             lngrad::aicore::SrcLoc loc) {
  namespace q = lngrad::aicore::quant_detail;
  const uint64_t rows = (uint64_t{k} + 31) / 32 * 32;
  q::CheckCount("AscendAntiQuant", dst, rows * n1, "dst");
  q::CheckCount("AscendAntiQuant", scale, rows / 32 * n1, "scale");
  const auto* in = reinterpret_cast<const std::byte*>(src.HostPtr());
  uint64_t srcEnd = 0;
  for (uint64_t r = 0; r < rows; ++r) {
    srcEnd = std::max<uint64_t>(srcEnd, static_cast<uint16_t>(r * n1) / 2 + (n1 + 1) / 2);
  }
  q::CheckCount("AscendAntiQuant", src, srcEnd * 2, "src");
  q::Record("AscendAntiQuant", loc, {{in, srcEnd}, q::SpanOf(scale, rows / 32 * n1)},
            {q::SpanOf(dst, rows * n1)});
  const fp8_e8m0_t* sc = scale.HostPtr();
  D* out = dst.HostPtr();
  for (uint64_t r = 0; r < rows; ++r) {
    const std::byte* row = in + static_cast<uint16_t>(r * n1) / 2;
    for (uint64_t c = 0; c < n1; ++c) {
      out[r * n1 + c] = Fp4Mul(E8m0As<D>(sc[r / 32 * n1 + c]), Fp4As<S, D>(row, c));
    }
  }
}

// Transposed (AscendAntiQuantTranspose, AntiQuantProcessByNum): count elements from element
// srcFirst of src, each 32 consecutive ones sharing a scale from scaleFirst on; the source
// covers 256 elements per pass and makes ceil(count / 128) / 2 passes (one when there is one
// 128-element repeat), so an odd repeat count leaves the last 128 unwritten.
template <typename S, typename D>
void Fp4Run(D* out, const std::byte* in, uint64_t srcFirst, const fp8_e8m0_t* sc, uint64_t count) {
  const uint64_t repeats = (count + 127) / 128;
  const uint64_t passes = repeats == 1 ? 1 : repeats / 2;
  const uint64_t done = std::min<uint64_t>(count, passes * 256);
  for (uint64_t l = 0; l < done; ++l) {
    out[l] = Fp4Mul(E8m0As<D>(sc[l / 32]), Fp4As<S, D>(in, srcFirst + l));
  }
}

template <typename S, typename D>
void Fp4Transposed(const LocalTensor<D>& dst, const LocalTensor<S>& src,
                   const LocalTensor<fp8_e8m0_t>& scale, const LocalTensor<uint8_t>& tmp,
                   uint32_t k, uint32_t n, lngrad::aicore::SrcLoc loc) {
  namespace q = lngrad::aicore::quant_detail;
  constexpr const char* kApi = "AscendAntiQuant";
  const uint64_t total = uint64_t{n} * k;
  const auto* in = reinterpret_cast<const std::byte*>(src.HostPtr());
  const fp8_e8m0_t* sc = scale.HostPtr();
  if (scale.GetSize() != 1) {
    q::CheckTmp(kApi, tmp, total / 32 * sizeof(D));  // CastScale's converted scales
    q::CheckCount(kApi, src, total, "src");
    q::CheckCount(kApi, dst, total, "dst");
    q::CheckCount(kApi, scale, total / 32, "scale");
    q::Record(kApi, loc, {q::SpanOf(src, total), q::SpanOf(scale, total / 32)},
              {q::SpanOf(dst, total)});
    // CastScale's converted scales in the scratch: not modelled.
    lngrad::aicore::math_detail::LeaveScratch(kApi, loc, tmp.View(), total / 32 * sizeof(D));
    Fp4Run<S, D>(dst.HostPtr(), in, 0, sc, total);
    return;
  }
  // A one-element scale: chunks of B = the scratch's 32-byte-aligned bytes; chunk i converts
  // the scales from element i * B and reads the source from byte i * B (element 2 i B), so the
  // reads pass the scale tensor's end (reported as its overrun) and, after the first chunk,
  // the source's half.
  const uint64_t chunk = (uint64_t{tmp.GetSize()} + 31) / 32 * 32;
  q::Require(chunk != 0, kApi, "a one-element scale needs a sharedTmpBuffer (it sets the chunk)");
  if (chunk == 0) return;
  const uint64_t last = (total - 1) / chunk * chunk;
  q::CheckCount(kApi, dst, total, "dst");
  q::CheckCount(kApi, scale, last + (std::min(chunk, total - last) + 31) / 32, "scale");
  q::CheckCount(kApi, src, 2 * last + std::min(chunk, total - last), "src");
  q::Record(kApi, loc, {q::SpanOf(src, total)}, {q::SpanOf(dst, total)});
  lngrad::aicore::math_detail::LeaveScratch(kApi, loc, tmp.View());  // each chunk's scales
  for (uint64_t first = 0; first < total; first += chunk) {
    Fp4Run<S, D>(dst.HostPtr() + first, in, 2 * first, sc + first,
                 std::min<uint64_t>(chunk, total - first));
  }
}

template <typename S, typename D, bool isTranspose>
void Fp4Form(const LocalTensor<D>& dst, const LocalTensor<S>& src,
             const LocalTensor<fp8_e8m0_t>& scale, const LocalTensor<uint8_t>& tmp, uint32_t k,
             const AntiQuantShapeInfo& info, lngrad::aicore::SrcLoc loc) {
  namespace q = lngrad::aicore::quant_detail;
  constexpr const char* kApi = "AscendAntiQuant";
  static_assert(std::is_same_v<D, half> || std::is_same_v<D, bfloat16_t>,
                "AscendAntiQuant: the fp4 sources give half or bfloat16_t");
  q::CheckProduct(kApi, true);
  if constexpr (isTranspose) {
    q::Require(k != 0 && k / 2 % 32 == 0, kApi,
               "k " + std::to_string(k) + " must be nonzero and 32-byte aligned (64 fp4)");
    const uint32_t n = info.scaleHeight != 0 ? info.scaleHeight : q::GroupCount(0, scale, 0);
    if (k == 0) return;
    Fp4Transposed<S, D>(dst, src, scale, tmp, k, n, loc);
  } else {
    const uint32_t n1 = info.scaleWidth != 0 ? info.scaleWidth : q::GroupCount(0, scale, 1);
    q::Require(n1 / 2 % 32 == 0, kApi,
               "the scale width " + std::to_string(n1) + " must be 32-byte aligned (64 fp4)");
    Fp4Rows<S, D>(dst, src, scale, k, n1, loc);
  }
}

}  // namespace lngrad_antiquant

template <typename InputDataType, typename OutputDataType, bool isTranspose,
          std::enable_if_t<std::is_same_v<InputDataType, fp4x2_e2m1_t> ||
                               std::is_same_v<InputDataType, fp4x2_e1m2_t>,
                           int> = 0>
void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                     const LocalTensor<fp8_e8m0_t>& scale,
                     const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t k,
                     const AntiQuantShapeInfo& shapeInfo = {},
                     lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad_antiquant::Fp4Form<InputDataType, OutputDataType, isTranspose>(
      dst, src, scale, sharedTmpBuffer, k, shapeInfo, loc);
}

template <typename InputDataType, typename OutputDataType, bool isTranspose,
          std::enable_if_t<std::is_same_v<InputDataType, fp4x2_e2m1_t> ||
                               std::is_same_v<InputDataType, fp4x2_e1m2_t>,
                           int> = 0>
void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                     const LocalTensor<fp8_e8m0_t>& scale, const uint32_t k,
                     const AntiQuantShapeInfo& shapeInfo = {},
                     lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad_antiquant::Fp4Form<InputDataType, OutputDataType, isTranspose>(
      dst, src, scale, lngrad::aicore::math_detail::StackTmp(), k, shapeInfo, loc);
}

// ---- AntiQuantize (arch 3510) ----------------------------------------------------------------

namespace lngrad_antiquant {

template <const AntiQuantizeConfig& config, typename DstT, typename SrcT, typename ScaleT>
void CheckFp4Form(const LocalTensor<DstT>& dst, const LocalTensor<SrcT>& src,
                  const AntiQuantizeParams& params) {
  namespace q = lngrad::aicore::quant_detail;
  constexpr const char* kApi = "AntiQuantize";
  static_assert(config.policy == AntiQuantizePolicy::PER_GROUP,
                "AntiQuantize: the fp4 sources take PER_GROUP only");
  static_assert(!config.hasOffset, "AntiQuantize: the fp4 sources take no offset");
  static_assert(q::IsTensor<ScaleT>::value, "AntiQuantize: PER_GROUP takes a scale tensor");
  static_assert(std::is_same_v<typename q::IsTensor<ScaleT>::Elem, fp8_e8m0_t>,
                "AntiQuantize: the fp4 sources take fp8_e8m0_t scales");
  static_assert(std::is_same_v<DstT, half> || std::is_same_v<DstT, bfloat16_t>,
                "AntiQuantize: the fp4 sources give half or bfloat16_t");
  static_assert(config.kDim == 0 || config.kDim == 1, "AntiQuantize: kDim must be 0 or 1");
  q::CheckProduct(kApi, true);
  const uint64_t n = uint64_t{params.m} * params.n;
  q::CheckCount(kApi, src, n, "srcTensor");
  q::CheckCount(kApi, dst, n, "dstTensor");
  q::Require(params.n % 64 == 0, kApi,
             "n " + std::to_string(params.n) + " must be a multiple of 64 (32 bytes of fp4)");
  q::Require(params.groupSize > 0 && params.groupSize % 32 == 0, kApi,
             "PER_GROUP groupSize " + std::to_string(params.groupSize) +
                 " must be a nonzero multiple of 32");
}

// fp4 PER_GROUP: code -> bfloat16 (exact) times the e8m0 scale in bfloat16, to DstT.
template <const AntiQuantizeConfig& config, typename DstT, typename SrcT, typename ScaleT>
void Fp4PerGroup(const LocalTensor<DstT>& dst, const LocalTensor<SrcT>& src, const ScaleT& scale,
                 const AntiQuantizeParams& params, lngrad::aicore::SrcLoc loc) {
  namespace q = lngrad::aicore::quant_detail;
  CheckFp4Form<config, DstT, SrcT, ScaleT>(dst, src, params);
  if (params.groupSize == 0) return;
  const q::ParamLayout lay{3, config.kDim, params.m, params.n, params.groupSize};
  const uint64_t n = uint64_t{params.m} * params.n;
  q::CheckCount("AntiQuantize", scale, lay.Count(), "scale");
  q::Record("AntiQuantize", loc, {q::SpanOf(src, n), q::SpanOf(scale, lay.Count())},
            {q::SpanOf(dst, n)});
  const auto* in = reinterpret_cast<const std::byte*>(src.HostPtr());
  const fp8_e8m0_t* sc = scale.HostPtr();
  DstT* out = dst.HostPtr();
  constexpr bool kE1m2 = std::is_same_v<SrcT, fp4x2_e1m2_t>;
  for (uint64_t e = 0; e < n; ++e) {
    const SrcT code = lngrad::aicore::detail::LoadElem<SrcT>(in, e);
    const float x = lngrad::aicore::fp4::Fp4ToFloat(code.bits, kE1m2);
    const bfloat16_t s = E8m0AsBf16(sc[lay.Index(e / params.n, e % params.n)]);
    const bfloat16_t p = bfloat16_t(x * q::F(s));  // bfloat16 Mul: one rounding
    if constexpr (std::is_same_v<DstT, half>) {
      out[e] = q::SatConv<half, bfloat16_t>(p, RoundMode::CAST_RINT);
    } else {
      out[e] = p;
    }
  }
}

}  // namespace lngrad_antiquant

namespace lngrad_antiquant {

// The int8 / 8-bit float sources (every policy).
template <const AntiQuantizeConfig& config, typename DstT, typename SrcT, typename ScaleT,
          typename OffsetT>
void EightBit(const LocalTensor<DstT>& dstTensor, const LocalTensor<SrcT>& srcTensor,
              const ScaleT& scale, const OffsetT& offset, const AntiQuantizeParams& params,
              lngrad::aicore::SrcLoc loc) {
  namespace q = lngrad::aicore::quant_detail;
  constexpr const char* kApi = "AntiQuantize";
  using P = typename q::ParamElem<ScaleT, DstT>::type;
  q::CheckAntiQuantizeTypes<SrcT, DstT, P>();
  constexpr bool kTensor = config.policy != AntiQuantizePolicy::PER_TENSOR;
  static_assert(kTensor || !std::is_same_v<DstT, float>,
                "AntiQuantize: a float destination needs PER_TOKEN or PER_GROUP");
  static_assert(kTensor == q::IsTensor<ScaleT>::value,
                "AntiQuantize: PER_TENSOR takes scalars, the other policies tensors");
  q::CheckProduct(kApi, true);
  const q::ParamLayout lay{static_cast<int>(config.policy), config.kDim, params.m, params.n,
                           params.groupSize};
  q::Require(config.policy != AntiQuantizePolicy::PER_GROUP || params.groupSize > 0, kApi,
             "PER_GROUP needs groupSize > 0");
  if (config.policy == AntiQuantizePolicy::PER_GROUP && params.groupSize == 0) return;
  const uint64_t channels = lay.Count();
  auto at = [&](const auto& x, uint64_t e) -> P {
    using X = std::decay_t<decltype(x)>;
    if constexpr (q::IsTensor<X>::value) {
      return static_cast<P>(x.HostPtr()[lay.Index(e / params.n, e % params.n)]);
    } else {
      return static_cast<P>(x);
    }
  };
  q::Span sSpan{nullptr, 0}, oSpan{nullptr, 0};
  if constexpr (kTensor) {
    q::CheckCount(kApi, scale, channels, "scale");
    sSpan = q::SpanOf(scale, channels);
    if constexpr (config.hasOffset && q::IsTensor<OffsetT>::value) {
      q::CheckCount(kApi, offset, channels, "offset");
      oSpan = q::SpanOf(offset, channels);
    }
  }
  q::AntiQuantPass(
      kApi, dstTensor, srcTensor, nullptr, 0, uint64_t{params.m} * params.n, {sSpan, oSpan}, loc,
      config.hasOffset, !q::Is3510(), [&](uint64_t i) { return at(offset, i); },
      [&](uint64_t i) { return at(scale, i); });
}

}  // namespace lngrad_antiquant

template <const AntiQuantizeConfig& config, typename DstT, typename SrcT, typename ScaleT,
          typename OffsetT>
void AntiQuantize(const LocalTensor<DstT>& dstTensor, const LocalTensor<SrcT>& srcTensor,
                  const ScaleT& scale, const OffsetT& offset,
                  const LocalTensor<uint8_t>& sharedTmpBuffer, const AntiQuantizeParams& params,
                  lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  if constexpr (std::is_same_v<SrcT, fp4x2_e2m1_t> || std::is_same_v<SrcT, fp4x2_e1m2_t>) {
    (void)offset;
    (void)sharedTmpBuffer;
    lngrad_antiquant::Fp4PerGroup<config>(dstTensor, srcTensor, scale, params, loc);
  } else {
    lngrad_antiquant::EightBit<config>(dstTensor, srcTensor, scale, offset, params, loc);
  }
}

template <const AntiQuantizeConfig& config, typename DstT, typename SrcT, typename ScaleT,
          typename OffsetT>
void AntiQuantize(const LocalTensor<DstT>& dstTensor, const LocalTensor<SrcT>& srcTensor,
                  const ScaleT& scale, const OffsetT& offset, const AntiQuantizeParams& params,
                  lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  AntiQuantize<config>(dstTensor, srcTensor, scale, offset, LocalTensor<uint8_t>{}, params, loc);
}

}  // namespace AscendC
