// lngrad: AscendAntiQuant's forms with an offset on the Ascend 950 (arch 3510), following
// ascend_antiquant_3510_impl.h (AscendAntiQuantImplCommon: AntiQuantPerchannelImpl for the
// offset and scale tensors, AntiQuantPertensorImpl for the scalars). Sources int8_t,
// hifloat8_t (the "b8" sequences) and fp8_e4m3fn_t, fp8_e5m2_t (the fp8 sequences); outputs
// half and bfloat16_t. Every source value is exact in half, bfloat16 and float.
//
// - fp8 sources, every form: in float, (float(x) + float(offset)) * float(scale), two float
//   operations, then the SatS Cast to the output (CAST_RINT).
// - b8 sources, half output, every form: half(x), one half Add of the offset, one half Mul by
//   the scale (IEEE: past 65504 is inf; no saturating Cast).
// - b8 sources, bfloat16 output: not transposed (tensors) in bfloat16: bfloat16(x), one
//   bfloat16 Add, one bfloat16 Mul; transposed (tensors) and the scalars in float as the fp8
//   sequence, then the SatS Cast CAST_RINT.
// The tensors hold no groups on this arch: not transposed, src [k, N] with N the shape info's
// offsetWidth (else the offset's ShapeInfo shape[1]) and element [r, c] taking offset[c] and
// scale[c]; N below 32 takes the unaligned path over N * k elements, element e taking
// offset[e % 16] and scale[e % 16] (one 32-byte block broadcast: N < 16 reads past N, as on the
// device). Transposed, src [N, k] with N the offsetWidth (else the offset's ShapeInfo shape[0]),
// element [r, c] taking offset[r] and scale[r]. The scalar forms cover src.GetSize() elements.
// lngrad: without the shape info's width and the offset's ShapeInfo, N is src size / k.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>

#include "lib/quantization/quant_common.h"

namespace lngrad::aicore::quant_detail::aq950 {

template <typename S>
inline constexpr bool kFp8Src = std::is_same_v<S, fp8_e4m3fn_t> || std::is_same_v<S, fp8_e5m2_t>;
template <typename S>
inline constexpr bool kB8Src = std::is_same_v<S, int8_t> || std::is_same_v<S, hifloat8_t>;

// Which arithmetic the b8 bfloat16 sequence uses: bfloat16 registers (not transposed) or float.
enum class Bf16Arith { kBf16, kFloat };

// One element: source x, offset o and scale s of the output type D.
template <typename S, typename D>
D Elem(S x, D o, D s, Bf16Arith arith) {
  const float xf = F(x);
  if constexpr (kFp8Src<S>) {
    return SatConv<D, float>((xf + F(o)) * F(s), RoundMode::CAST_RINT);
  } else if constexpr (std::is_same_v<D, half>) {
    return HMul(HAdd(half(xf), o), s);
  } else {
    if (arith == Bf16Arith::kBf16) {
      const bfloat16_t b = bfloat16_t(xf);
      return bfloat16_t(F(bfloat16_t(F(b) + F(o))) * F(s));
    }
    return SatConv<bfloat16_t, float>((xf + F(o)) * F(s), RoundMode::CAST_RINT);
  }
}

template <typename S, typename D>
void CheckTypes() {
  static_assert(kFp8Src<S> || kB8Src<S> || std::is_same_v<S, AscendC::int4b_t>,
                "AscendAntiQuant: InputDataType must be int8_t, int4b_t, hifloat8_t, "
                "fp8_e4m3fn_t or fp8_e5m2_t");
  static_assert(std::is_same_v<D, half> || std::is_same_v<D, bfloat16_t>,
                "AscendAntiQuant: OutputDataType must be half or bfloat16_t");
}

// Checked mode: the 8-bit float sources exist on the 950 only, int4b_t with an offset off it.
template <typename S>
void CheckSourceProduct(const char* api) {
  if constexpr (std::is_same_v<S, AscendC::int4b_t>) {
    Require(!Is3510(), api, "int4b_t with an offset does not exist on Ascend 950 (arch 3510)");
  } else if constexpr (!std::is_same_v<S, int8_t>) {
    CheckProduct(api, true);
  }
}

template <typename S>
S SrcElem(const AscendC::LocalTensor<S>& t, uint64_t i) {
  return detail::LoadElem<S>(reinterpret_cast<const std::byte*>(t.HostPtr()), i);
}

// The pass: checks the counts, records the reads and the write, and runs elem(i) for i < n.
template <typename S, typename D, typename ElemAt>
void Pass(const char* api, const AscendC::LocalTensor<D>& dst, const AscendC::LocalTensor<S>& src,
          uint64_t n, Span off, Span sc, SrcLoc loc, ElemAt&& elem) {
  CheckCount(api, src, n, "src");
  CheckCount(api, dst, n, "dst");
  Record(api, loc, {SpanOf(src, n), off, sc}, {SpanOf(dst, n)});
  D* out = dst.HostPtr();
  for (uint64_t i = 0; i < n; ++i) out[i] = elem(i);
}

// The width N of the offset / scale tensors (AntiQuantPerchannelImpl).
template <typename D>
uint64_t Width(const AscendC::LocalTensor<D>& offset, uint32_t infoWidth, bool transposed,
               uint64_t total, uint32_t k) {
  if (infoWidth != 0) return infoWidth;
  const AscendC::ShapeInfo s = offset.GetShapeInfo();
  const int dim = transposed ? 0 : 1;
  if (s.shapeDim > dim && s.shape[dim] != 0) return s.shape[dim];
  return k == 0 ? 0 : total / k;
}

// The offset and scale tensor form (AntiQuantPerchannelImpl).
template <typename S, typename D, bool isTranspose>
void TensorForm(const AscendC::LocalTensor<D>& dst, const AscendC::LocalTensor<S>& src,
                const AscendC::LocalTensor<D>& offset, const AscendC::LocalTensor<D>& scale,
                uint32_t k, uint32_t infoWidth, SrcLoc loc) {
  constexpr const char* kApi = "AscendAntiQuant";
  const uint64_t n = Width(offset, infoWidth, isTranspose, src.GetSize(), k);
  const bool unaligned = !isTranspose && n < 32;
  Require(!unaligned || k % 2 == 0, kApi,
          "k " + std::to_string(k) + " must be even when N (" + std::to_string(n) +
              ") is below 32 (the source must be 32-byte aligned)");
  const uint64_t params = unaligned ? 16 : n;
  CheckCount(kApi, offset, params, "offset");
  CheckCount(kApi, scale, params, "scale");
  const D* op = offset.HostPtr();
  const D* sp = scale.HostPtr();
  const Bf16Arith arith = isTranspose ? Bf16Arith::kFloat : Bf16Arith::kBf16;
  Pass(kApi, dst, src, n * k, SpanOf(offset, params), SpanOf(scale, params), loc, [&](uint64_t i) {
    const uint64_t j = unaligned ? i % 16 : (isTranspose ? i / k : i % n);
    return Elem<S, D>(SrcElem(src, i), op[j], sp[j], arith);
  });
}

// The scalar offset and scale form (AntiQuantPertensorImpl): src.GetSize() elements.
template <typename S, typename D>
void ScalarForm(const AscendC::LocalTensor<D>& dst, const AscendC::LocalTensor<S>& src, D offset,
                D scale, SrcLoc loc) {
  Pass("AscendAntiQuant", dst, src, src.GetSize(), Span{nullptr, 0}, Span{nullptr, 0}, loc,
       [&](uint64_t i) { return Elem<S, D>(SrcElem(src, i), offset, scale, Bf16Arith::kFloat); });
}

}  // namespace lngrad::aicore::quant_detail::aq950
