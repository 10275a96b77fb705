// lngrad: AscendAntiQuant's element and per-element pass (lib/quantization/ascend_antiquant.h
// and the paths of ascend_antiquant_brcb.h run them): (src + offset) * scale in the sequence of
// the path, the int4b_t read of a call or chunk that starts at an odd element, and the pass that
// checks, records and writes dst.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <type_traits>
#include <vector>

#include "lib/quantization/quant_common.h"

namespace lngrad::aicore::quant_detail {

// One element of the anti-quantization: (src + offset) * scale; the offset and scale of type P
// (the destination's, or float for AntiQuantize's per-token and per-group forms). vectorSeq:
// the vector sequence of ascend_antiquant_impl.h (every 2201/2002 form and the 950's scale-only
// forms): half output in half instructions (Add, Mul: IEEE); else, and for bfloat16, float then
// the Cast (ArchConv: on 3510 the basic Cast is a register Cast with SatMode::SAT too,
// dav_3510's CastIntrinsicsImplVF).
template <typename D, typename S, typename P>
D AntiQuantElem(S x, P off, P sc, bool withOffset, bool vectorSeq) {
  const float xf = F(x);  // int8 / int4 / 8-bit floats -> (half ->) float is exact
  if constexpr (std::is_same_v<D, half> && std::is_same_v<P, half>) {
    if (vectorSeq) {
      half h = half(xf);
      if (withOffset) h = HAdd(h, off);
      return HMul(h, sc);
    }
  }
  float v = xf;
  if (withOffset) v = v + F(off);
  v = v * F(sc);
  if constexpr (std::is_same_v<D, float>) {
    return v;
  } else {
    return ArchConv<D, float>(v, RoundMode::CAST_RINT);
  }
}

template <typename S>
S SrcAt(const AscendC::LocalTensor<S>& t, uint64_t i) {
  return detail::LoadElem<S>(reinterpret_cast<const std::byte*>(t.HostPtr()), i);
}

// The source element the scale-only sequence reads for flat element i (int4b_t): its
// AntiQuantOuterLoop calls are `seg` elements from multiples of seg and, for bfloat16 output,
// chunks of `chunk` within a call; the kit's operator[] of a half-byte type moves the address
// by offset / 2 bytes, so a call or chunk at an odd element starts at the nibble before it.
inline uint64_t HalfByteReadIndex(uint64_t i, uint64_t seg, uint64_t chunk) {
  const uint64_t s = i / seg * seg, t = (i - s) / chunk * chunk;
  return 2 * (s / 2) + 2 * (t / 2) + (i - s - t);
}

// The per-element pass: offAt(i) and scAt(i) give the offset and scale of flat element i,
// srcAt(i) the source element it reads; vectorSeq as AntiQuantElem's. rowWritten < rowLen: the
// sanitizer record names only the first rowWritten elements of each row of rowLen as written
// (the caller puts back what the rest held).
template <typename S, typename D, typename OffAt, typename ScAt, typename SrcIdx>
void AntiQuantPassAt(const char* api, const AscendC::LocalTensor<D>& dst,
                     const AscendC::LocalTensor<S>& src, const AscendC::LocalTensor<uint8_t>* tmp,
                     uint64_t tmpMin, uint64_t n, std::initializer_list<Span> params, SrcLoc loc,
                     bool withOffset, bool vectorSeq, OffAt&& offAt, ScAt&& scAt, SrcIdx&& srcAt,
                     uint64_t rowLen = 0, uint64_t rowWritten = 0) {
  CheckCount(api, src, n, "src");
  CheckCount(api, dst, n, "dst");
  if (tmp != nullptr) CheckTmp(api, *tmp, tmpMin);
  std::vector<Span> reads{SpanOf(src, n)};
  reads.insert(reads.end(), params.begin(), params.end());
  detail::RestoreMaskAfterCount(detail::MaskContext(api));
  {
    san::Instr in(Pipe::kV, api, loc);
    if (in) {
      for (const Span& s : reads) {
        if (s.bytes != 0) in.Read(s.p, s.bytes);
      }
      if (rowLen != 0 && rowWritten < rowLen) {
        const auto* p = static_cast<const std::byte*>(SpanOf(dst, n).p);
        for (uint64_t r = 0; rowWritten != 0 && r < n / rowLen; ++r) {
          in.Write(p + r * rowLen * sizeof(D), rowWritten * sizeof(D));
        }
      } else {
        in.Write(SpanOf(dst, n).p, SpanOf(dst, n).bytes);
      }
    }
  }
  D* out = dst.HostPtr();
  for (uint64_t i = 0; i < n; ++i) {
    out[i] = AntiQuantElem<D>(SrcAt(src, srcAt(i)), offAt(i), scAt(i), withOffset, vectorSeq);
  }
}

template <typename S, typename D, typename OffAt, typename ScAt>
void AntiQuantPass(const char* api, const AscendC::LocalTensor<D>& dst,
                   const AscendC::LocalTensor<S>& src, const AscendC::LocalTensor<uint8_t>* tmp,
                   uint64_t tmpMin, uint64_t n, std::initializer_list<Span> params, SrcLoc loc,
                   bool withOffset, bool vectorSeq, OffAt&& offAt, ScAt&& scAt) {
  AntiQuantPassAt(api, dst, src, tmp, tmpMin, n, params, loc, withOffset, vectorSeq, offAt, scAt,
                  [](uint64_t i) { return i; });
}

}  // namespace lngrad::aicore::quant_detail
