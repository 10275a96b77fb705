// lngrad: the Ascend C high-level quantization APIs AscendQuant (every product) and Quantize
// (Ascend 950 only): the vendor's adv_api/quantization/{ascend_quant,quantize}.h, int8_t output.
//
// AscendQuant follows ascend_quant_pre_impl.h (arch 2201/2002): a float source is first Cast to
// half (round to nearest even), then Muls by half(scale) and Adds half(offset) (per channel: Mul
// by the scale tensor and Add the offset tensor or scalar, both as half; the scalars converted
// by static_cast<half>: nearest even, past 65504 +-inf, not the Cast's saturation), each one half
// instruction (lngrad: the float result of the exact operands rounded to half once), then Cast
// half -> int8 (CAST_NONE: ties to even, saturating). With a float scale tensor (and offset
// tensor) the device converts it to half in place: its first scaleCount * 2 bytes hold the
// halves afterwards (the vendor's "source vector of scale is reused"); lngrad writes them too.
// On arch 3510 the T forms run the dstT/srcT int8 sequence of ascend_quant_policy.h
// (ascend_quant_3510_impl.h's QuantPer{tensor,channel}ForB8: SatS Casts of the source and the
// scale / offset tensors to half, scalars by static_cast<half>, int8 CAST_RINT whatever the
// config's roundMode; config.calcCount when nonzero, per channel the config's counts when all
// nonzero), T also bfloat16_t, the scale tensors left untouched.
//
// Quantize (quantize_impl.h, arch 3510) computes in float: v = float(src) * float(scale)
// (+ float(offset) when config.hasOffset), then float -> int16 in config.roundMode (CAST_RINT,
// CAST_ROUND, CAST_FLOOR, CAST_CEIL, CAST_TRUNC; any other falls back to CAST_RINT as
// TransRegForS8 does; saturating), int16 -> half, half -> int8 (saturating): the int8 is v rounded
// in the mode and clamped to [-128, 127]. PER_TENSOR (scalar scale and offset), PER_CHANNEL
// (scale[n], offset tensor or scalar), PER_TOKEN (scale[m]), PER_GROUP (kDim 1: scale [m, ceil(n /
// groupSize)]; kDim 0: [ceil(m / groupSize), n]) on a row-major [m, n] source.
//
// Quantize's 8-bit float destinations (quantize_impl.h: the same float value, then a saturating
// cast): fp8_e4m3fn_t / fp8_e5m2_t round to nearest even (CAST_RINT; any other configured mode
// falls back to it), hifloat8_t in CAST_ROUND or CAST_HYBRID (any other mode falls back to
// CAST_ROUND); saturated: beyond the largest finite value (and infinity) the largest finite
// value, NaN 0 (lngrad_aicore/fp8.h has the formats and the rounding).
//
// The dstT/srcT overloads and the AscendQuantPolicy forms of AscendQuant (arch 3510):
// ascend_quant_policy.h, included at the end.
//
// Quantize's fp4 destinations (fp4x2_e2m1_t / fp4x2_e1m2_t; PER_GROUP only, either kDim; half,
// bfloat16 or float sources with the page's scales; offset ignored, as the page says):
// v = float(src) * float(scale), one float Mul (QuantizePerGroupForK{Col,Row}Fp4), then
// TransRegForFp4: v -> bfloat16 CAST_RINT, bfloat16 -> fp4 in config.roundMode (CAST_RINT,
// CAST_ROUND, CAST_FLOOR, CAST_CEIL, CAST_TRUNC; any other falls back to CAST_RINT), both SatS
// casts (past the largest value and +-inf: the largest of the sign, NaN: 0). Element e in byte
// e / 2, the even element in the low nibble. n a multiple of 64 (32-byte rows).
//
// Checked mode: counts within every operand, operands 32-byte aligned, dst disjoint from src,
// calCount a multiple of scaleCount (per channel), scaleCount == offsetCount, sharedTmpBuffer at
// least 512 bytes on 2201/2002 (GetAscendQuantMaxMinTmpSize's minimum), Quantize on arch 3510.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "lib/math/math_scratch.h"
#include "lib/quantization/quant_common.h"
#include "lngrad_aicore/fp4.h"
#include "lngrad_aicore/fp8.h"

namespace AscendC {

struct AscendQuantConfig {
  constexpr AscendQuantConfig(const uint32_t calcCountIn, const uint32_t offsetCountIn,
                              const uint32_t scaleCountIn, const uint32_t workLocalSizeIn)
      : calcCount(calcCountIn),
        offsetCount(offsetCountIn),
        scaleCount(scaleCountIn),
        workLocalSize(workLocalSizeIn) {}
  constexpr AscendQuantConfig(const uint32_t calcCountIn, const uint32_t offsetCountIn,
                              const uint32_t scaleCountIn, const uint32_t workLocalSizeIn,
                              const bool hasOffsetIn, const int32_t kDimIn,
                              const RoundMode roundModeIn)
      : calcCount(calcCountIn),
        offsetCount(offsetCountIn),
        scaleCount(scaleCountIn),
        workLocalSize(workLocalSizeIn),
        hasOffset(hasOffsetIn),
        kDim(kDimIn),
        roundMode(roundModeIn) {}
  constexpr AscendQuantConfig(const bool hasOffsetIn, const int32_t kDimIn = 1,
                              const RoundMode roundModeIn = RoundMode::CAST_RINT)
      : hasOffset(hasOffsetIn), kDim(kDimIn), roundMode(roundModeIn) {}
  uint32_t calcCount = 0;
  uint32_t offsetCount = 0;
  uint32_t scaleCount = 0;
  uint32_t workLocalSize = 0;
  bool hasOffset = false;
  int32_t kDim = 1;
  RoundMode roundMode = RoundMode::CAST_RINT;
};

constexpr AscendQuantConfig ASCEND_QUANT_DEFAULT_CFG = {0, 0, 0, 0};

enum class AscendQuantPolicy : int32_t {
  PER_TENSOR,
  PER_CHANNEL,
  PER_TOKEN,
  PER_GROUP,
  PER_CHANNEL_PER_GROUP,
  PER_TOKEN_PER_GROUP
};

struct AscendQuantParam {
  uint32_t m;
  uint32_t n;
  uint32_t calCount;
  uint32_t groupSize = 0;
};

LNGRAD_QUANTIZE_POLICY_AND_PARAMS(Quantize)

struct QuantizeConfig {
  QuantizePolicy policy;
  bool hasOffset;
  RoundMode roundMode = RoundMode::CAST_RINT;
  int32_t kDim = 1;
};

}  // namespace AscendC

namespace lngrad::aicore::quant_detail {

inline constexpr uint64_t kAscendQuantTmpMin = 512;

// What 2201/2002's AscendQuant leaves in its scratch (ascend_quant_pre_impl.h): the sequence
// runs `len` elements in chunks of splitBytes / 2 halves rounded down to 32 (splitBytes: the
// scratch's size, or config.workLocalSize in the static forms), in counter mode, and each chunk
// keeps its elements' half results (the Cast to half, the Mul(s) and the Add(s) all store there;
// the int8 Cast reads them) at halves 0.. of the scratch; hAt(j) is element j's. Per channel
// the rows run one after another: the last row's elements decide. The 950's register code uses
// no scratch.
template <typename HAt>
void LeaveQuantScratch(const char* api, SrcLoc loc, const AscendC::LocalTensor<uint8_t>& tmp,
                       uint64_t len, uint64_t splitBytes, HAt&& hAt) {
  if (Is3510()) return;
  const uint64_t chunk = splitBytes / sizeof(half) / 32 * 32;
  math_detail::MakeChunkScratch<half, 1>(tmp, len, chunk, [](uint64_t) {
    return std::array<uint64_t, 1>{0};
  }).Write(api, loc, [&](uint64_t j) { return std::array<half, 1>{hAt(j)}; });
}

// Checked mode: the static forms' chunk (config.workLocalSize) within sharedTmpBuffer and at
// least one 32-element block (the kit's IsQuantValid / IsQuantConfigValid and splitSize
// asserts).
inline void CheckWorkLocalSize(const char* api, const AscendC::LocalTensor<uint8_t>& tmp,
                               uint32_t work, bool chunksByIt) {
  Require(work <= tmp.GetSize(), api,
          "config.workLocalSize " + std::to_string(work) + " must not exceed sharedTmpBuffer's " +
              std::to_string(tmp.GetSize()) + " bytes");
  Require(!chunksByIt || work / sizeof(half) / 32 != 0, api,
          "config.workLocalSize " + std::to_string(work) + " leaves a splitSize of 0");
}

// The half form of a source element (float: Cast to half, round to nearest even; 3510: the
// register Cast's SatS trait, quant_common.h ArchConv).
template <typename T>
half ToHalfSrc(T x) {
  if constexpr (std::is_same_v<T, float>) {
    return ArchConv<half, float>(x, RoundMode::CAST_NONE);
  } else if constexpr (std::is_same_v<T, bfloat16_t>) {
    return ArchConv<half, bfloat16_t>(x, RoundMode::CAST_RINT);
  } else {
    return x;
  }
}

// The per-channel scale (or offset) as the halves the sequence multiplies by: a float tensor
// Cast to half, written back over its own bytes on 2201/2002.
template <typename T>
std::vector<half> ChannelHalves(const AscendC::LocalTensor<T>& t, uint32_t count) {
  std::vector<half> h(count);
  const T* p = t.HostPtr();
  for (uint32_t j = 0; j < count; ++j) h[j] = ToHalfSrc(p[j]);
  if constexpr (std::is_same_v<T, float>) {
    if (!Is3510()) {
      half* out = reinterpret_cast<half*>(t.HostPtr());
      for (uint32_t j = 0; j < count; ++j) out[j] = h[j];
    }
  }
  return h;
}

// The first count halves of a tensor's bytes (after ChannelHalves: the converted ones first).
template <typename T>
std::vector<half> HalvesOf(const AscendC::LocalTensor<T>& t, uint64_t count) {
  std::vector<half> h(count);
  if (count != 0) std::memcpy(h.data(), t.HostPtr(), count * sizeof(half));
  return h;
}

template <typename T>
void CheckQuantOperands(const char* api, const AscendC::LocalTensor<int8_t>& dst,
                        const AscendC::LocalTensor<T>& src,
                        const AscendC::LocalTensor<uint8_t>& tmp, uint64_t count) {
  static_assert(
      std::is_same_v<T, half> || std::is_same_v<T, float> || std::is_same_v<T, bfloat16_t>,
      "AscendQuant: T must be half, float or (Ascend 950) bfloat16_t");
  if constexpr (std::is_same_v<T, bfloat16_t>) CheckProduct(api, true);
  namespace m = math_detail;
  m::CheckElementwise(api, static_cast<int64_t>(count), m::Products::kAll, m::Overlap::kNone,
                      {m::Op(dst, "dstTensor"), m::Op(src, "srcTensor")});
  CheckTmp(api, tmp, Is3510() ? 0 : kAscendQuantTmpMin);
}

// The 2201/2002 sequence's rows: `rows` rows `step` elements apart, each running `len`
// elements (per tensor: one row of the count; per channel: rows of scaleCount, each of
// config.scaleCount elements when it and config.workLocalSize are set, as
// AscendQuantPerChannelImpl runs them whatever the runtime scaleCount).
struct QuantRows {
  uint64_t rows, step, len;
  uint64_t Extent() const { return rows == 0 ? 0 : (rows - 1) * step + len; }
};

// dst[r * step + j] = int8(h) for each row r in order and j < len, h = ((half)src[r * step + j]
// * scale(j)) + offset(j) (a later row's element overwrites an earlier's, as on the device);
// then the scratch as the 2201/2002 sequence leaves it: the last row's elements in chunks of
// splitBytes.
template <typename T, typename ScaleAt, typename OffsetAt>
void QuantLoop(const char* api, SrcLoc loc, const AscendC::LocalTensor<int8_t>& dst,
               const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<uint8_t>& tmp,
               const QuantRows& r, uint64_t splitBytes, ScaleAt&& scaleAt, OffsetAt&& offsetAt) {
  int8_t* out = dst.HostPtr();
  const T* in = src.HostPtr();
  const auto h = [&](uint64_t e, uint64_t j) {
    return HAdd(HMul(ToHalfSrc(in[e]), scaleAt(j)), offsetAt(j));
  };
  for (uint64_t row = 0; row < r.rows; ++row) {
    for (uint64_t j = 0; j < r.len; ++j) {
      const uint64_t e = row * r.step + j;
      out[e] = Conv<int8_t, half>(h(e, j), RoundMode::CAST_RINT);
    }
  }
  if (r.rows == 0) return;
  const uint64_t last = (r.rows - 1) * r.step;
  LeaveQuantScratch(api, loc, tmp, r.len, splitBytes, [&](uint64_t j) { return h(last + j, j); });
}

// The float value v as an fp8 destination: CAST_RINT, saturating (RegCastSaturates).
template <typename D>
D Fp8Sat(float v) {
  if constexpr (std::is_same_v<D, fp8_e4m3fn_t>) {
    return fp8_e4m3fn_t::FromBits(fp8::FloatToE4m3(v, RegCastSaturates(true)));
  } else {
    return fp8_e5m2_t::FromBits(fp8::FloatToE5m2(v, RegCastSaturates(true)));
  }
}

template <typename D>
inline constexpr bool kIsFp4 = std::is_same_v<D, fp4x2_e2m1_t> || std::is_same_v<D, fp4x2_e1m2_t>;

// The mode of TransRegForS8 / TransRegForFp4: the five they list, any other CAST_RINT.
inline RoundMode IntListedMode(RoundMode mode) {
  const bool listed = mode == RoundMode::CAST_RINT || mode == RoundMode::CAST_ROUND ||
                      mode == RoundMode::CAST_FLOOR || mode == RoundMode::CAST_CEIL ||
                      mode == RoundMode::CAST_TRUNC;
  return listed ? mode : RoundMode::CAST_RINT;
}

// TransRegForFp4: the register value W -> bfloat16 CAST_RINT (SatS), then -> the fp4 type in the
// listed mode (SatS): two roundings.
template <typename D, typename W>
D Fp4Out(W v, RoundMode mode) {
  const bfloat16_t b = SatConv<bfloat16_t, W>(v, RoundMode::CAST_RINT);
  return SatConv<D, bfloat16_t>(b, IntListedMode(mode));
}

// The int8 of Quantize's float value v: float -> int16 (mode, saturating) -> half -> int8.
// The mode is TransRegForS8's: the five it lists, any other CAST_RINT.
inline int8_t QuantizeToInt8(float v, RoundMode mode) {
  const int16_t i16 = SatConv<int16_t, float>(v, IntListedMode(mode));
  return SatConv<int8_t, half>(SatConv<half, int16_t>(i16, RoundMode::CAST_RINT),
                               RoundMode::CAST_RINT);
}

}  // namespace lngrad::aicore::quant_detail

namespace AscendC {

// The arch 3510 dstT/srcT sequences (ascend_quant_policy.h), which the T forms run there too:
// ascend_quant_3510_impl.h's T forms call the same QuantPertensorForB8 / QuantPerchannelForB8
// with an int8_t destination.
namespace lngrad_quant {
template <typename dstT, typename srcT>
void DstSrcPerTensor(const LocalTensor<dstT>& dst, const LocalTensor<srcT>& src, float scale,
                     float offset, uint32_t calCount, lngrad::aicore::SrcLoc loc);
template <typename dstT, typename srcT>
void DstSrcPerChannel(const LocalTensor<dstT>& dst, const LocalTensor<srcT>& src,
                      const LocalTensor<srcT>& scaleTensor, const LocalTensor<srcT>* offsetTensor,
                      srcT offset, uint32_t scaleCount, uint32_t offsetCount, uint32_t calCount,
                      lngrad::aicore::SrcLoc loc);
}  // namespace lngrad_quant

// ---- AscendQuant, per tensor ----------------------------------------------------------------

template <typename T, bool isReuseSource = false,
          const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                 const LocalTensor<uint8_t>& sharedTmpBuffer, const float scale, const float offset,
                 const uint32_t calCount,
                 lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  namespace q = lngrad::aicore::quant_detail;
  if (q::Is3510()) {  // ascend_quant_3510_impl.h: config.calcCount when nonzero
    lngrad_quant::DstSrcPerTensor<int8_t, T>(dstTensor, srcTensor, scale, offset,
                                             config.calcCount != 0 ? config.calcCount : calCount,
                                             loc);
    return;
  }
  constexpr bool kStatic = config.workLocalSize != 0 && config.calcCount != 0;
  const uint64_t n = kStatic ? config.calcCount : calCount;
  q::CheckQuantOperands("AscendQuant", dstTensor, srcTensor, sharedTmpBuffer, n);
  q::CheckWorkLocalSize("AscendQuant", sharedTmpBuffer, config.workLocalSize, kStatic);
  q::Record("AscendQuant", loc, {q::SpanOf(srcTensor, n)}, {q::SpanOf(dstTensor, n)});
  // static_cast<half>(scale), static_cast<half>(offset): nearest even, +-inf past 65504.
  const half hs = half(scale);
  const half ho = half(offset);
  q::QuantLoop(
      "AscendQuant", loc, dstTensor, srcTensor, sharedTmpBuffer, q::QuantRows{1, 0, n},
      kStatic ? config.workLocalSize : sharedTmpBuffer.GetSize(), [&](uint64_t) { return hs; },
      [&](uint64_t) { return ho; });
}

template <typename T, bool isReuseSource = false,
          const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                 const float scale, const float offset, const uint32_t calCount,
                 lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  AscendQuant<T, isReuseSource, config>(
      dstTensor, srcTensor, lngrad::aicore::math_detail::StackTmp(), scale, offset, calCount, loc);
}

template <typename T, bool isReuseSource = false,
          const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                 const LocalTensor<uint8_t>& sharedTmpBuffer, const float scale, const float offset,
                 lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  AscendQuant<T, isReuseSource, config>(dstTensor, srcTensor, sharedTmpBuffer, scale, offset,
                                        srcTensor.GetSize(), loc);
}

template <typename T, bool isReuseSource = false,
          const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                 const float scale, const float offset,
                 lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  AscendQuant<T, isReuseSource, config>(dstTensor, srcTensor, scale, offset, srcTensor.GetSize(),
                                        loc);
}

// ---- AscendQuant, per channel (scale tensor; offset scalar or tensor) -----------------------

namespace lngrad_quant {

// The sanitizer record of the per-channel rows: src and the scale (offset) halves they read,
// dst's rows written (one span where they touch or overlap, else one a row).
template <typename T>
void RecordPerChannel(const char* api, lngrad::aicore::SrcLoc loc, const LocalTensor<int8_t>& dst,
                      const LocalTensor<T>& src, const LocalTensor<T>& scaleTensor,
                      const LocalTensor<T>* offsetTensor,
                      const lngrad::aicore::quant_detail::QuantRows& rows) {
  namespace q = lngrad::aicore::quant_detail;
  const uint64_t paramBytes = std::max<uint64_t>(rows.step * sizeof(T), rows.len * sizeof(half));
  std::vector<q::Span> reads = {q::SpanOf(src, rows.Extent()),
                                q::Span{scaleTensor.View().ptr, paramBytes}};
  if (offsetTensor != nullptr) {
    reads.push_back(q::Span{offsetTensor->View().ptr, paramBytes});
  }
  std::vector<q::Span> writes;
  if (rows.len >= rows.step) {
    writes.push_back(q::SpanOf(dst, rows.Extent()));
  } else {
    for (uint64_t r = 0; r < rows.rows; ++r) {
      writes.push_back(q::Span{dst.View().ptr + r * rows.step, rows.len});
    }
  }
  q::RecordSpans(api, loc, reads, writes);
}

// The shared body of the per-channel forms: offsetTensor null means the scalar offset.
template <typename T, const AscendQuantConfig& config>
void PerChannel(const LocalTensor<int8_t>& dst, const LocalTensor<T>& src,
                const LocalTensor<uint8_t>& tmp, const LocalTensor<T>& scaleTensor,
                const LocalTensor<T>* offsetTensor, T offset, uint32_t scaleCount,
                uint32_t offsetCount, uint32_t calCount, lngrad::aicore::SrcLoc loc) {
  namespace q = lngrad::aicore::quant_detail;
  constexpr const char* kApi = "AscendQuant";
  if (q::Is3510()) {  // the config's counts when calcCount, scaleCount (offsetCount) are nonzero
    const bool cfg = config.calcCount != 0 && config.scaleCount != 0 &&
                     (offsetTensor == nullptr || config.offsetCount != 0);
    lngrad_quant::DstSrcPerChannel<int8_t, T>(
        dst, src, scaleTensor, offsetTensor, offset, cfg ? config.scaleCount : scaleCount,
        cfg ? config.offsetCount : offsetCount, cfg ? config.calcCount : calCount, loc);
    return;
  }
  constexpr bool kStatic = config.scaleCount != 0 && config.calcCount != 0;
  const uint32_t sc = kStatic ? config.scaleCount : scaleCount;
  const uint32_t n = kStatic ? config.calcCount : calCount;
  q::CheckQuantOperands(kApi, dst, src, tmp, n);
  q::CheckCount(kApi, scaleTensor, std::max(sc, config.scaleCount), "scaleTensor");
  // IsQuantParamValid asserts on the runtime counts, also in the static forms (kStatic), and
  // IsQuantConfigValid on the config's.
  q::Require(scaleCount > 0 && calCount > 0 && calCount % scaleCount == 0, kApi,
             "calCount " + std::to_string(calCount) + " must be a nonzero multiple of scaleCount " +
                 std::to_string(scaleCount));
  q::Require(sc > 0 && n > 0 && n % sc == 0, kApi,
             "calCount " + std::to_string(n) + " must be a nonzero multiple of scaleCount " +
                 std::to_string(sc));
  if (offsetTensor != nullptr) {
    const uint32_t oc = kStatic ? config.offsetCount : offsetCount;
    q::CheckCount(kApi, *offsetTensor, std::max(oc, config.scaleCount), "offsetTensor");
    q::Require(oc == sc, kApi, "offsetCount must equal scaleCount");
  }
  // AscendQuantPerChannelImpl chunks each row by config.workLocalSize when it and
  // config.scaleCount are set, else by the scratch's size; with both set it runs
  // config.scaleCount elements a row, also where the rows step by the runtime scaleCount
  // (config.calcCount 0): rows overlap (the later wins) or leave gaps, and the last runs past n.
  constexpr bool kWork = config.workLocalSize != 0 && config.scaleCount != 0;
  q::CheckWorkLocalSize(kApi, tmp, config.workLocalSize, kWork);
  q::Require(config.scaleCount % 32 == 0, kApi,
             "config.scaleCount " + std::to_string(config.scaleCount) +
                 " must be a multiple of 32 (IsQuantConfigValid)");
  const q::QuantRows rows{sc == 0 ? 0 : n / sc, sc, kWork ? config.scaleCount : sc};
  if (rows.Extent() > n) {
    q::CheckCount(kApi, src, rows.Extent(), "srcTensor (the rows of config.scaleCount)");
    q::CheckCount(kApi, dst, rows.Extent(), "dstTensor (the rows of config.scaleCount)");
  }
  RecordPerChannel(kApi, loc, dst, src, scaleTensor, offsetTensor, rows);
  // The halves the rows multiply by (add): the tensor's first sc elements converted (a float
  // tensor in place), then its bytes as halves (a row longer than sc reads on).
  q::ChannelHalves(scaleTensor, sc);
  const std::vector<half> hs = q::HalvesOf(scaleTensor, rows.len);
  std::vector<half> ho(rows.len, static_cast<half>(offset));  // static_cast<half>: IEEE
  if (offsetTensor != nullptr) {
    q::ChannelHalves(*offsetTensor, sc);
    ho = q::HalvesOf(*offsetTensor, rows.len);
  }
  q::QuantLoop(
      kApi, loc, dst, src, tmp, rows, kWork ? config.workLocalSize : tmp.GetSize(),
      [&](uint64_t j) { return hs[j]; }, [&](uint64_t j) { return ho[j]; });
}

}  // namespace lngrad_quant

template <typename T, bool isReuseSource = false,
          const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                 const LocalTensor<uint8_t>& sharedTmpBuffer, const LocalTensor<T>& scaleTensor,
                 const T offset, const uint32_t scaleCount, const uint32_t calCount,
                 lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad_quant::PerChannel<T, config>(dstTensor, srcTensor, sharedTmpBuffer, scaleTensor, nullptr,
                                      offset, scaleCount, scaleCount, calCount, loc);
}

template <typename T, bool isReuseSource = false,
          const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                 const LocalTensor<T>& scaleTensor, const T offset, const uint32_t scaleCount,
                 const uint32_t calCount,
                 lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad_quant::PerChannel<T, config>(dstTensor, srcTensor, lngrad::aicore::math_detail::StackTmp(),
                                      scaleTensor, nullptr, offset, scaleCount, scaleCount,
                                      calCount, loc);
}

template <typename T, bool isReuseSource = false,
          const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                 const LocalTensor<uint8_t>& sharedTmpBuffer, const LocalTensor<T>& scaleTensor,
                 const T offset, lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad_quant::PerChannel<T, config>(dstTensor, srcTensor, sharedTmpBuffer, scaleTensor, nullptr,
                                      offset, scaleTensor.GetSize(), scaleTensor.GetSize(),
                                      srcTensor.GetSize(), loc);
}

template <typename T, bool isReuseSource = false,
          const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                 const LocalTensor<T>& scaleTensor, const T offset,
                 lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  AscendQuant<T, isReuseSource, config>(dstTensor, srcTensor, scaleTensor, offset,
                                        scaleTensor.GetSize(), srcTensor.GetSize(), loc);
}

template <typename T, bool isReuseSource = false,
          const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                 const LocalTensor<uint8_t>& sharedTmpBuffer, const LocalTensor<T>& scaleTensor,
                 const LocalTensor<T>& offsetTensor, const uint32_t scaleCount,
                 const uint32_t offsetCount, const uint32_t calCount,
                 lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad_quant::PerChannel<T, config>(dstTensor, srcTensor, sharedTmpBuffer, scaleTensor,
                                      &offsetTensor, T{}, scaleCount, offsetCount, calCount, loc);
}

template <typename T, bool isReuseSource = false,
          const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                 const LocalTensor<T>& scaleTensor, const LocalTensor<T>& offsetTensor,
                 const uint32_t scaleCount, const uint32_t offsetCount, const uint32_t calCount,
                 lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad_quant::PerChannel<T, config>(dstTensor, srcTensor, lngrad::aicore::math_detail::StackTmp(),
                                      scaleTensor, &offsetTensor, T{}, scaleCount, offsetCount,
                                      calCount, loc);
}

template <typename T, bool isReuseSource = false,
          const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                 const LocalTensor<uint8_t>& sharedTmpBuffer, const LocalTensor<T>& scaleTensor,
                 const LocalTensor<T>& offsetTensor,
                 lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  AscendQuant<T, isReuseSource, config>(dstTensor, srcTensor, sharedTmpBuffer, scaleTensor,
                                        offsetTensor, scaleTensor.GetSize(), offsetTensor.GetSize(),
                                        srcTensor.GetSize(), loc);
}

template <typename T, bool isReuseSource = false,
          const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                 const LocalTensor<T>& scaleTensor, const LocalTensor<T>& offsetTensor,
                 lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  AscendQuant<T, isReuseSource, config>(dstTensor, srcTensor, scaleTensor, offsetTensor,
                                        scaleTensor.GetSize(), offsetTensor.GetSize(),
                                        srcTensor.GetSize(), loc);
}

// ---- Quantize (arch 3510) -------------------------------------------------------------------

namespace lngrad_quant {

// Element j of a per-channel / per-token operand or the scalar, as float.
template <typename X>
float At(const X& x, uint64_t j) {
  namespace q = lngrad::aicore::quant_detail;
  if constexpr (q::IsTensor<X>::value) {
    return q::F(x.HostPtr()[j]);
  } else {
    return q::F(x);
  }
}

// The float value v as Quantize's destination type, saturated.
template <typename DstT>
DstT QuantizeTo(float v, RoundMode mode) {
  namespace fp8 = lngrad::aicore::fp8;
  if constexpr (lngrad::aicore::quant_detail::kIsFp4<DstT>) {
    return lngrad::aicore::quant_detail::Fp4Out<DstT, float>(v, mode);
  } else if constexpr (std::is_same_v<DstT, int8_t>) {
    return lngrad::aicore::quant_detail::QuantizeToInt8(v, mode);
  } else if constexpr (std::is_same_v<DstT, hifloat8_t>) {
    const fp8::Hif8Round r =
        mode == RoundMode::CAST_HYBRID ? fp8::Hif8Round::kHybrid : fp8::Hif8Round::kRound;
    return hifloat8_t::FromBits(
        fp8::FloatToHif8(v, r, lngrad::aicore::quant_detail::RegCastSaturates(true)));
  } else {
    return lngrad::aicore::quant_detail::Fp8Sat<DstT>(v);
  }
}

template <typename X>
lngrad::aicore::quant_detail::Span SpanIf(const X& x, uint64_t count) {
  if constexpr (lngrad::aicore::quant_detail::IsTensor<X>::value) {
    return lngrad::aicore::quant_detail::SpanOf(x, count);
  } else {
    return {nullptr, 0};
  }
}

}  // namespace lngrad_quant

template <const QuantizeConfig& config, typename DstT, typename SrcT, typename ScaleT,
          typename OffsetT>
void Quantize(const LocalTensor<DstT>& dstTensor, const LocalTensor<SrcT>& srcTensor,
              const ScaleT& scale, const OffsetT& offset,
              const LocalTensor<uint8_t>& sharedTmpBuffer, const QuantizeParams& params,
              lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  namespace q = lngrad::aicore::quant_detail;
  namespace m = lngrad::aicore::math_detail;
  constexpr const char* kApi = "Quantize";
  constexpr bool kFp4 = q::kIsFp4<DstT>;
  static_assert(std::is_same_v<DstT, int8_t> || std::is_same_v<DstT, fp8_e4m3fn_t> ||
                    std::is_same_v<DstT, fp8_e5m2_t> || std::is_same_v<DstT, hifloat8_t> || kFp4,
                "Quantize: the destination is int8_t, fp8_e4m3fn_t, fp8_e5m2_t, hifloat8_t, "
                "fp4x2_e2m1_t or fp4x2_e1m2_t");
  static_assert(!kFp4 || config.policy == QuantizePolicy::PER_GROUP,
                "Quantize: the fp4 destinations take PER_GROUP only");
  constexpr bool kPerTensor = config.policy == QuantizePolicy::PER_TENSOR;
  static_assert(kPerTensor != q::IsTensor<ScaleT>::value,
                "Quantize: PER_TENSOR takes a scalar scale, the other policies a scale tensor");
  (void)sharedTmpBuffer;
  q::CheckProduct(kApi, true);
  const uint64_t n = uint64_t{params.m} * params.n;
  if constexpr (kFp4) {
    q::CheckCount(kApi, srcTensor, n, "srcTensor");
    q::CheckCount(kApi, dstTensor, n, "dstTensor");
    q::Require(params.n % 64 == 0, kApi,
               "n " + std::to_string(params.n) + " must be 32-byte aligned (a multiple of 64 fp4)");
  } else {
    m::CheckElementwise(kApi, static_cast<int64_t>(n), m::Products::kAll, m::Overlap::kNone,
                        {m::Op(dstTensor, "dstTensor"), m::Op(srcTensor, "srcTensor")});
  }
  const q::ParamLayout lay{static_cast<int>(config.policy), config.kDim, params.m, params.n,
                           params.groupSize};
  q::Require(config.policy != QuantizePolicy::PER_GROUP || params.groupSize > 0, kApi,
             "PER_GROUP needs groupSize > 0");
  if (config.policy == QuantizePolicy::PER_GROUP && params.groupSize == 0) return;
  const uint64_t channels = lay.Count();
  if constexpr (q::IsTensor<ScaleT>::value) q::CheckCount(kApi, scale, channels, "scale");
  if constexpr (q::IsTensor<OffsetT>::value) {
    if (config.hasOffset && !kFp4) q::CheckCount(kApi, offset, channels, "offset");
  }
  q::Record(
      kApi, loc,
      {q::SpanOf(srcTensor, n), lngrad_quant::SpanIf(scale, channels),
       config.hasOffset && !kFp4 ? lngrad_quant::SpanIf(offset, channels) : q::Span{nullptr, 0}},
      {q::SpanOf(dstTensor, n)});
  const SrcT* in = srcTensor.HostPtr();
  auto* out = reinterpret_cast<std::byte*>(dstTensor.HostPtr());
  for (uint64_t i = 0; i < params.m; ++i) {
    for (uint64_t j = 0; j < params.n; ++j) {
      const uint64_t c = lay.Index(i, j);
      float v = q::F(in[i * params.n + j]) * lngrad_quant::At(scale, c);
      if constexpr (config.hasOffset && !kFp4) v = v + lngrad_quant::At(offset, c);
      lngrad::aicore::detail::StoreElem<DstT>(out, i * params.n + j,
                                              lngrad_quant::QuantizeTo<DstT>(v, config.roundMode));
    }
  }
}

template <const QuantizeConfig& config, typename DstT, typename SrcT, typename ScaleT,
          typename OffsetT>
void Quantize(const LocalTensor<DstT>& dstTensor, const LocalTensor<SrcT>& srcTensor,
              const ScaleT& scale, const OffsetT& offset, const QuantizeParams& params,
              lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  Quantize<config>(dstTensor, srcTensor, scale, offset, LocalTensor<uint8_t>{}, params, loc);
}

}  // namespace AscendC

// The arch 3510 dstT/srcT and AscendQuantPolicy forms.
#include "lib/quantization/ascend_quant_policy.h"
