// lngrad: AscendAntiQuant's transposed Brcb paths (lib/quantization/ascend_antiquant.h runs
// them) and the kit's check of k on the transposed forms.
//
// Half output (ascend_antiquant_impl.h AscendAntiQuantFP16Transpose; 2201 with or without an
// offset, 3510 the scale-only form): BrcbPath. bfloat16 output on 2201
// (ascend_antiquant_c220_impl.h AscendAntiQuantBF16Transpose, CalcN64ByBrcb; k a multiple of 64
// up to 2040): Bf16BrcbPath. Both keep the device's scratch, blocks the Brcb does not write
// included. The bfloat16 AntiQuantOuterLoop's scratch (the other bfloat16 vector paths):
// OuterLoopScratch.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "lib/quantization/ascend_antiquant_pass.h"
#include "lib/quantization/quant_common.h"

namespace AscendC::lngrad_antiquant {

// The kit's kernel check of every transposed form on 2201/2002 (antiquant_check_common.h,
// CheckAscendAntiQuantParamsClass, run by the four forms' checks): K * sizeof(InputDataType) a
// multiple of 32, where sizeof(int4b_t) is 1 (its one-byte storage), so int4b_t asks k % 32
// too. The 950's checks (antiquant_check_aicore.h) assert nothing there.
template <typename S>
void CheckTransposedK(bool isTranspose, uint32_t k) {
  namespace q = lngrad::aicore::quant_detail;
  const auto arch = lngrad::aicore::detail::rep::RunningArch();
  if (!isTranspose || (arch != lngrad::NpuArch::k2201 && arch != lngrad::NpuArch::k2002)) return;
  const uint64_t bytes = uint64_t{k} * (std::is_same_v<S, int4b_t> ? 1 : sizeof(S));
  q::Require(bytes % 32 == 0, "AscendAntiQuant",
             "[AscendAntiQuant] The result of K * sizeof(InputDataType) cannot be " +
                 std::to_string(bytes) +
                 ", should be an integer multiple of 32 (the kit's check of the transposed forms "
                 "on Atlas A2 / A3 and inference products; sizeof(int4b_t) is 1 there)");
}

template <typename S>
S BrcbSrcAt(const LocalTensor<S>& t, uint64_t i) {
  return lngrad::aicore::detail::LoadElem<S>(reinterpret_cast<const std::byte*>(t.HostPtr()), i);
}

// The transposed half Brcb path (ascend_antiquant_impl.h AscendAntiQuantFP16Transpose; on 2201
// with or without an offset, on 3510 the scale-only form): the source cast to half into dst;
// Brcb of (uint8_t)(scaleN / 8) repeats broadcasts scale element b to the 16 halves of scratch
// block b (offset: from byte 32 * scaleN); then row r adds offset block r and multiplies by
// scale block r, column c taking lane c % 16 (half instructions). Blocks the Brcb does not
// write (scaleN not a multiple of 8, or past 2047) hold what the scratch held before: they are
// read as they are, and recorded as read, so that the sanitizer's initcheck reports a scratch
// the kernel never wrote.
template <typename S>
void BrcbPath(const LocalTensor<half>& dst, const LocalTensor<S>& src,
              const LocalTensor<half>* offset, const LocalTensor<half>& scale,
              const LocalTensor<uint8_t>& tmp, uint32_t k, uint32_t scaleN,
              lngrad::aicore::SrcLoc loc) {
  namespace q = lngrad::aicore::quant_detail;
  namespace san = lngrad::aicore::san;
  constexpr const char* kApi = "AscendAntiQuant";
  const uint64_t total = src.GetSize(), rows = total / k;
  const uint64_t brcbN = uint64_t{8} * static_cast<uint8_t>(scaleN / 8);
  q::Require(rows == scaleN, kApi,
             "the transposed scale has one row per source row: shapeInfo.scaleHeight (else the "
             "scale's ShapeInfo shape[0]) is " +
                 std::to_string(scaleN) + ", the source has " + std::to_string(rows));
  // On 2201/2002 the kit's check (CheckTransposedK) covers k; on the 950 it asserts nothing, and
  // lngrad keeps the page's rule here (k 32-byte aligned when transposed): the Main / Tail
  // repeat stride k * 2 / 32 truncates otherwise.
  q::Require(!q::Is3510() || lngrad::aicore::ElemBytes<S>(k) % 32 == 0, kApi,
             "k " + std::to_string(k) + " must be 32-byte aligned in the source when transposed");
  const uint64_t offAt = offset == nullptr ? 0 : uint64_t{16} * scaleN;  // in halves
  const uint64_t blocks = std::max(rows, brcbN);
  q::CheckCount(kApi, src, total, "src");
  q::CheckCount(kApi, dst, total, "dst");
  q::CheckCount(kApi, scale, brcbN, "scale");
  if (offset != nullptr) q::CheckCount(kApi, *offset, brcbN, "offset");
  q::CheckCount(kApi, tmp, 2 * (offAt + 16 * blocks), "sharedTmpBuffer");
  const auto* t = reinterpret_cast<std::byte*>(tmp.HostPtr());
  {
    san::Instr cast(lngrad::aicore::Pipe::kV, kApi, loc);
    if (cast) {
      cast.Read(q::SpanOf(src, total).p, q::SpanOf(src, total).bytes);
      cast.Write(dst.HostPtr(), total * 2);
    }
  }
  {
    san::Instr in(lngrad::aicore::Pipe::kV, kApi, loc);
    if (in && brcbN != 0) {
      in.Read(scale.HostPtr(), brcbN * 2);
      in.Write(t, brcbN * 32);
      if (offset != nullptr) {
        in.Read(offset->HostPtr(), brcbN * 2);
        in.Write(t + offAt * 2, brcbN * 32);
      }
    }
  }
  q::Record(kApi, loc,
            {{dst.HostPtr(), total * 2},
             {t, rows * 32},
             {t + offAt * 2, offset == nullptr ? 0 : rows * 32}},
            {{dst.HostPtr(), total * 2}});
  half* out = dst.HostPtr();
  for (uint64_t e = 0; e < total; ++e) out[e] = half(q::F(BrcbSrcAt(src, e)));
  half* blk = reinterpret_cast<half*>(tmp.HostPtr());
  for (uint64_t b = 0; b < brcbN; ++b) {
    std::fill_n(blk + 16 * b, 16, scale.HostPtr()[b]);
    if (offset != nullptr) std::fill_n(blk + offAt + 16 * b, 16, offset->HostPtr()[b]);
  }
  for (uint64_t r = 0; r < rows; ++r) {
    for (uint64_t c = 0; c < k; ++c) {
      half& v = out[r * k + c];
      const uint64_t lane = 16 * r + c % 16;
      if (offset != nullptr) v = q::HAdd(v, blk[offAt + lane]);
      v = q::HMul(v, blk[lane]);
    }
  }
}

// The floats of sharedTmpBuffer that Bf16BrcbPath reaches (positions of CalcN64ByBrcb,
// GetAntiquantTensorInfo and CastAndBrcb, S = scale.GetSize(), So = offset.GetSize()): the
// offset blocks at 0, the scale blocks at 8 S, the input area at 16 S (64 floats per row), the
// cast offset and scale at 7 So before their Brcb.
struct Bf16BrcbLayout {
  uint64_t sclB, inB, at, rows, repeats;
  uint64_t Floats() const {
    return std::max(
        {inB + 64 * rows, sclB + 64 * repeats, sclB + at + std::max(8 * repeats, rows)});
  }
};

// The transposed bfloat16 path of 2201 (ascend_antiquant_c220_impl.h AscendAntiQuantBF16Transpose
// and CalcN64ByBrcb, for k a multiple of 64 up to 2040, whatever sharedTmpBuffer's size):
// sEN = scale.GetSize() (int4b_t: scaleN, the shape info's scale height) elements of offset and
// scale are cast to float at 7 So and broadcast by Brcb ((uint8_t)ceil(sEN / 8) repeats of 8
// floats to 8 blocks, one repeat after another: for S <= 4 the offset's blocks overwrite the cast
// scale before its Brcb reads it); then per 64 columns: (uint8_t)sEN source rows (int8_t with
// groups: rows past the source, read as the device reads them) to half and to float, + offset
// block r, * scale block r (lane l of a row reads lane l % 8 of its block), and (uint8_t)shapeN
// rows (srcSize / k; int4b_t: sEN) cast to bfloat16 CAST_RINT. So row r takes element r of
// offset and scale, whatever the groups.
template <typename S>
void Bf16BrcbPath(const LocalTensor<bfloat16_t>& dst, const LocalTensor<S>& src,
                  const LocalTensor<bfloat16_t>* offset, const LocalTensor<bfloat16_t>& scale,
                  const LocalTensor<uint8_t>& tmp, uint32_t k, uint32_t scaleN, uint64_t tmpMin,
                  lngrad::aicore::SrcLoc loc) {
  namespace q = lngrad::aicore::quant_detail;
  constexpr const char* kApi = "AscendAntiQuant";
  constexpr bool kInt4 = std::is_same_v<S, int4b_t>;
  const uint64_t sAll = scale.GetSize();
  const uint64_t oAll = offset == nullptr ? sAll : offset->GetSize();
  const uint32_t sEN = kInt4 ? scaleN : static_cast<uint32_t>(sAll);
  const uint32_t shapeN = kInt4 ? scaleN : static_cast<uint32_t>(src.GetSize() / k);
  const uint64_t castRows = static_cast<uint8_t>(sEN), outRows = static_cast<uint8_t>(shapeN);
  const Bf16BrcbLayout lay{8 * sAll, 16 * sAll, 7 * oAll, sEN,
                           static_cast<uint8_t>((uint64_t{sEN} + 7) / 8)};
  q::CheckTmp(kApi, tmp, tmpMin);
  q::CheckCount(kApi, src, castRows * k, "src");
  q::CheckCount(kApi, dst, outRows * k, "dst");
  q::CheckCount(kApi, scale, sEN, "scale");
  if (offset != nullptr) q::CheckCount(kApi, *offset, sEN, "offset");
  q::CheckCount(kApi, tmp, 4 * lay.Floats(), "sharedTmpBuffer");
  auto* t = reinterpret_cast<std::byte*>(tmp.HostPtr());
  const uint64_t brcbBytes = 4 * 64 * lay.repeats, castBytes = 4 * uint64_t{sEN};
  q::Record(kApi, loc,
            {q::SpanOf(src, castRows * k), q::SpanOf(scale, sEN),
             offset == nullptr ? q::Span{nullptr, 0} : q::SpanOf(*offset, sEN)},
            {q::SpanOf(dst, outRows * k),
             {t, offset == nullptr ? 0 : brcbBytes},
             {t + 4 * lay.at, offset == nullptr ? 0 : castBytes},
             {t + 4 * lay.sclB, brcbBytes},
             {t + 4 * (lay.sclB + lay.at), castBytes},
             {t + 4 * lay.inB, 4 * 64 * uint64_t{sEN}}});
  auto getF = [t](uint64_t i) {
    float v = 0;
    std::memcpy(&v, t + 4 * i, 4);
    return v;
  };
  auto setF = [t](uint64_t i, float v) { std::memcpy(t + 4 * i, &v, 4); };
  if (offset != nullptr) {
    for (uint64_t e = 0; e < sEN; ++e) setF(lay.at + e, q::F(offset->HostPtr()[e]));
  }
  for (uint64_t e = 0; e < sEN; ++e) setF(lay.sclB + lay.at + e, q::F(scale.HostPtr()[e]));
  auto brcb = [&](uint64_t to, uint64_t from) {
    for (uint64_t i = 0; i < lay.repeats; ++i) {
      float v[8];
      for (uint64_t b = 0; b < 8; ++b) v[b] = getF(from + 8 * i + b);
      for (uint64_t b = 0; b < 64; ++b) setF(to + 64 * i + b, v[b / 8]);
    }
  };
  if (offset != nullptr) brcb(0, lay.at);
  brcb(lay.sclB, lay.sclB + lay.at);
  const uint64_t halfAt = 2 * lay.inB + 64 * uint64_t{sEN};  // in halves: float inB + 32 sEN
  bfloat16_t* out = dst.HostPtr();
  for (uint64_t col = 0; col + 64 <= k; col += 64) {
    for (uint64_t r = 0; r < castRows; ++r) {
      for (uint64_t l = 0; l < 64; ++l) {
        const half h(q::F(BrcbSrcAt(src, r * k + col + l)));
        std::memcpy(t + 2 * (halfAt + 64 * r + l), &h, 2);
      }
    }
    for (uint64_t r = 0; r < castRows; ++r) {  // each repeat reads its halves, then writes
      float v[64];
      for (uint64_t l = 0; l < 64; ++l) {
        half h;
        std::memcpy(&h, t + 2 * (halfAt + 64 * r + l), 2);
        v[l] = q::F(h);
      }
      for (uint64_t l = 0; l < 64; ++l) setF(lay.inB + 64 * r + l, v[l]);
    }
    for (uint64_t r = 0; r < sEN && offset != nullptr; ++r) {
      for (uint64_t l = 0; l < 64; ++l) {
        setF(lay.inB + 64 * r + l, getF(lay.inB + 64 * r + l) + getF(8 * r + l % 8));
      }
    }
    for (uint64_t r = 0; r < sEN; ++r) {
      for (uint64_t l = 0; l < 64; ++l) {
        setF(lay.inB + 64 * r + l, getF(lay.inB + 64 * r + l) * getF(lay.sclB + 8 * r + l % 8));
      }
    }
    for (uint64_t r = 0; r < outRows; ++r) {
      for (uint64_t l = 0; l < 64; ++l) {
        out[r * k + col + l] =
            q::Conv<bfloat16_t, float>(getF(lay.inB + 64 * r + l), RoundMode::CAST_RINT);
      }
    }
  }
}

// The kit's scaleN: the shape info's scale height, else the scale's ShapeInfo shape[0] (0 if
// none).
template <typename D>
uint32_t BrcbScaleRows(uint32_t scaleHeight, const LocalTensor<D>& scale) {
  const AscendC::ShapeInfo si = scale.GetShapeInfo();
  return scaleHeight != 0 ? scaleHeight : (si.shapeDim > 0 ? si.shape[0] : 0u);
}

// The transposed tensor forms' Brcb paths of the vector sequence; false where the source takes
// another path (half: a sharedTmpBuffer below 32 bytes per scale row, 64 with an offset, or k
// from 4096; bfloat16: k not a multiple of 64 or past 2040).
template <typename S>
bool TransposedBrcb(const LocalTensor<half>& dst, const LocalTensor<S>& src,
                    const LocalTensor<half>* offset, const LocalTensor<half>& scale,
                    const LocalTensor<uint8_t>& tmp, uint32_t k, uint32_t scaleHeight,
                    uint64_t tmpMin, lngrad::aicore::SrcLoc loc) {
  (void)tmpMin;  // the half output needs none
  const uint32_t scaleN = BrcbScaleRows(scaleHeight, scale);
  const uint64_t coeff = offset != nullptr ? 2 : 1;
  if (k >= 4096 || tmp.GetSize() / 2 < uint64_t{16} * scaleN * coeff) return false;
  BrcbPath<S>(dst, src, offset, scale, tmp, k, scaleN, loc);
  return true;
}
template <typename S>
bool TransposedBrcb(const LocalTensor<bfloat16_t>& dst, const LocalTensor<S>& src,
                    const LocalTensor<bfloat16_t>* offset, const LocalTensor<bfloat16_t>& scale,
                    const LocalTensor<uint8_t>& tmp, uint32_t k, uint32_t scaleHeight,
                    uint64_t tmpMin, lngrad::aicore::SrcLoc loc) {
  if (k % 64 != 0 || k > 2040 || lngrad::aicore::quant_detail::Is3510()) return false;
  Bf16BrcbPath<S>(dst, src, offset, scale, tmp, k, BrcbScaleRows(scaleHeight, scale), tmpMin, loc);
  return true;
}

// The floats AntiQuantOuterLoop's bfloat16 AntiQuantInnerLoop leaves in sharedTmpBuffer
// (ascend_antiquant_impl.h; the c220 and 3510 inner loops alike): per call of `seg` elements
// (from multiples of seg: a row not transposed, a group of AntiQuantImplScalar, all of a scalar
// form) and per chunk of tmpSize = sharedTmpBuffer / 8 elements in order (the tail too), a
// chunk of n leaves floats [0, n) its products before the Cast to bfloat16 (the halves staged
// at byte 2 n lie under them); the tensor form (scale-only, not transposed: the row's scale
// tensor) also floats [n, 2 n), the scale row from its start as floats. product(i): element
// i's float product; rowScale(s, j): float j of the scale row of the call at s.
template <typename Product, typename RowScale>
void OuterLoopScratch(const LocalTensor<uint8_t>& tmp, uint64_t total, uint64_t seg,
                      bool tensorForm, Product&& product, RowScale&& rowScale,
                      lngrad::aicore::SrcLoc loc) {
  namespace san = lngrad::aicore::san;
  const uint64_t chunk = tmp.GetSize() / 8;
  if (chunk == 0 || seg == 0 || total == 0) return;
  {
    san::Instr in(lngrad::aicore::Pipe::kV, "AscendAntiQuant", loc);
    if (in) in.Write(tmp.HostPtr(), std::min(chunk, seg) * (tensorForm ? 8 : 4));
  }
  float* f = reinterpret_cast<float*>(tmp.HostPtr());
  for (uint64_t s = 0; s < total; s += seg) {
    const uint64_t len = std::min(seg, total - s);
    for (uint64_t t = 0; t < len; t += chunk) {
      const uint64_t n = std::min(chunk, len - t);
      for (uint64_t j = 0; j < n; ++j) f[j] = product(s + t + j);
      for (uint64_t j = 0; tensorForm && j < n; ++j) f[n + j] = rowScale(s, j);
    }
  }
}

// The bfloat16 fallback without transpose with an offset tensor (2201/2002:
// AntiQuantNoTransposeImplScalar, taken below the performance path's sharedTmpBuffer of 8 bytes
// per scale element and 256 per row of k): rows j < k / groupCount only (the scale's group
// count; the rows past are not written), each an AntiQuantOuterLoop call src[j n] of n elements
// handed the whole offset and scale tensors, so its chunks of tmpSize = sharedTmpBuffer / 8
// elements take both from element 0: element (j, c) takes element c % tmpSize of each. int4b_t
// odd calls and chunks start at the nibble below (HalfByteReadIndex); the scratch as
// OuterLoopScratch's tensor form (the scale's first elements as floats after the products).
template <typename S>
void Bf16NoTransposeFallback(const LocalTensor<bfloat16_t>& dst, const LocalTensor<S>& src,
                             const LocalTensor<bfloat16_t>& offset,
                             const LocalTensor<bfloat16_t>& scale, const LocalTensor<uint8_t>& tmp,
                             uint32_t k, uint32_t groupCount, uint64_t n, uint64_t tmpMin,
                             lngrad::aicore::SrcLoc loc) {
  namespace q = lngrad::aicore::quant_detail;
  constexpr const char* kApi = "AscendAntiQuant";
  const uint64_t chunk = tmp.GetSize() / 8;
  q::Require(chunk != 0, kApi,
             "the bfloat16_t fallback runs rows in chunks of sharedTmpBuffer / 8 elements: "
             "sharedTmpBuffer needs at least 8 bytes");
  if (chunk == 0 || groupCount == 0) return;
  const uint64_t total = uint64_t{k / groupCount} * n, params = std::min(n, chunk);
  q::CheckCount(kApi, offset, params, "offset");
  q::CheckCount(kApi, scale, params, "scale");
  const bfloat16_t* op = offset.HostPtr();
  const bfloat16_t* sp = scale.HostPtr();
  const auto srcAt = [&](uint64_t i) {
    return std::is_same_v<S, int4b_t> ? q::HalfByteReadIndex(i, n, chunk) : i;
  };
  const auto offAt = [&](uint64_t i) { return op[i % n % chunk]; };
  const auto scAt = [&](uint64_t i) { return sp[i % n % chunk]; };
  q::AntiQuantPassAt(kApi, dst, src, &tmp, tmpMin, total,
                     {q::SpanOf(offset, params), q::SpanOf(scale, params)}, loc, true, true, offAt,
                     scAt, srcAt);
  OuterLoopScratch(
      tmp, total, n, true,
      [&](uint64_t i) { return (q::F(BrcbSrcAt(src, srcAt(i))) + q::F(offAt(i))) * q::F(scAt(i)); },
      [&](uint64_t, uint64_t j) { return q::F(sp[j]); }, loc);
}

// What 2201's bfloat16 performance path leaves in its scratch (ascend_antiquant_impl.h
// AscendAntiQuantNoTranspose, ascend_antiquant_c220_impl.h PreCast and
// AscendAntiQuantNoTransposePerformance{,Tail}), written in the kit's order: PreCast's floats
// (the image's first 2 So: the offset's So, then as many of the scale's); then each call of up to
// 255 rows (kc) at row R0: its 64-column slices stage half(src) at byte 8 N + 128 kc + 128 r and
// widen it to floats at 8 N + 256 r (over the halves), add and multiply in place, so the last
// slice's float results (row r, lanes 0..63) stay; the N % 64 tail (normal mode, nTail lanes)
// stages its halves at the same place, then writes its nTail floats per row over part of them
// (the halves of lanes past those floats' bytes stay). image(f): float f of PreCast's floats;
// srcVal(row, col): the source element the path reads for (row, col), as float.
template <typename Image, typename SrcVal>
void Bf16PerformanceScratch(const LocalTensor<uint8_t>& tmp, uint32_t k, uint64_t n, uint64_t so,
                            Image&& image, SrcVal&& srcVal, lngrad::aicore::SrcLoc loc) {
  std::byte* b = reinterpret_cast<std::byte*>(tmp.HostPtr());
  std::vector<bool> written(tmp.GetSize(), false);
  const auto put = [&](uint64_t at, const void* v, uint64_t bytes) {
    std::memcpy(b + at, v, bytes);
    std::fill_n(written.begin() + static_cast<std::ptrdiff_t>(at), bytes, true);
  };
  const auto putF = [&](uint64_t at, float v) { put(at, &v, 4); };
  for (uint64_t j = 0; j < 2 * so; ++j) putF(4 * j, image(j));
  const uint64_t tail = n % 64, align = n - tail, posOS = 8 * n;
  const auto value = [&](uint64_t row, uint64_t col) {
    return (srcVal(row, col) + image(col)) * image(n + col);
  };
  for (uint64_t r0 = 0; r0 < k; r0 += 255) {
    const uint64_t kc = std::min<uint64_t>(255, k - r0), posCast = posOS + 128 * kc;
    for (uint64_t r = 0; align != 0 && r < kc; ++r) {
      for (uint64_t l = 0; l < 64; ++l)
        putF(posOS + 256 * r + 4 * l, value(r0 + r, align - 64 + l));
    }
    for (uint64_t r = 0; r < kc; ++r) {
      for (uint64_t l = 0; l < tail; ++l) {
        const half h = half(srcVal(r0 + r, align + l));
        put(posCast + 128 * r + 2 * l, &h, 2);
      }
    }
    for (uint64_t r = 0; r < kc; ++r) {
      for (uint64_t l = 0; l < tail; ++l) putF(posOS + 256 * r + 4 * l, value(r0 + r, align + l));
    }
  }
  lngrad::aicore::san::Instr in(lngrad::aicore::Pipe::kV, "AscendAntiQuant", loc);
  for (uint64_t at = 0; in && at < written.size();) {
    uint64_t end = at;
    while (end < written.size() && written[end]) ++end;
    if (end > at) in.Write(b + at, end - at);
    at = end + 1;
  }
}

// 2201's bfloat16 performance path without transpose (PreCast, AscendAntiQuantNoTranspose
// Performance{,Tail}): PreCast casts So = offset.GetSize() elements of the offset to scratch
// floats [0, So) and as many of the scale (its counter mask is the offset's size) to [So, 2 So);
// column c then adds float c and multiplies by float N + c: offset[N + c] while N + c < So (an
// offset of more than N elements, e.g. [groups, N]), else scale[N + c - So]. int8_t rows are
// read with the source repeat stride N / 32 blocks (truncated): for N a multiple of 16 but not of
// 32 (unchecked mode; checked mode refuses it in NoTransposeWithOffset) and k up to 255, row r
// of the call reads src[r * 32 * (N / 32) + c], inside the source. The scratch as the kit leaves
// it (Bf16PerformanceScratch) where lngrad follows the path (int4b_t N a multiple of 64, int8_t
// of 32, or of 16 with k up to 255); elsewhere (unchecked mode only) left to initcheck.
template <typename S>
void Bf16Performance(const LocalTensor<bfloat16_t>& dst, const LocalTensor<S>& src,
                     const LocalTensor<bfloat16_t>& offset, const LocalTensor<bfloat16_t>& scale,
                     const LocalTensor<uint8_t>& tmp, uint32_t k, uint64_t n, uint64_t tmpMin,
                     lngrad::aicore::SrcLoc loc) {
  namespace q = lngrad::aicore::quant_detail;
  const uint64_t so = offset.GetSize();
  q::CheckCount("AscendAntiQuant", scale, so, "scale");  // PreCast's cast of the scale
  const bfloat16_t* op = offset.HostPtr();
  const bfloat16_t* sp = scale.HostPtr();
  const auto image = [&](uint64_t f) { return f < so ? op[f] : sp[f - so]; };
  // The int8_t row stride the Cast reads with (N / 32 blocks), where lngrad follows it.
  const bool strided = std::is_same_v<S, int8_t> && n % 32 != 0 && n % 16 == 0 && k <= 255;
  const uint64_t rowStride = strided ? n / 32 * 32 : n;
  q::AntiQuantPassAt(
      "AscendAntiQuant", dst, src, &tmp, tmpMin, uint64_t{k} * n,
      {q::SpanOf(offset, so), q::SpanOf(scale, so)}, loc, true, true,
      [&](uint64_t i) { return image(i % n); }, [&](uint64_t i) { return image(n + i % n); },
      [&](uint64_t i) { return i / n * rowStride + i % n; });
  const bool followed = std::is_same_v<S, int4b_t> ? n % 64 == 0 : n % 32 == 0 || strided;
  const uint64_t slices = 8 * n + 256 * uint64_t{std::min<uint32_t>(k, 255)};
  if (!followed || std::max(8 * so, slices) > tmp.GetSize()) {
    lngrad::aicore::math_detail::LeaveScratch("AscendAntiQuant", loc, tmp.View(),
                                              std::max(8 * so, slices));
    return;
  }
  Bf16PerformanceScratch(
      tmp, k, n, so, [&](uint64_t f) { return q::F(image(f)); },
      [&](uint64_t row, uint64_t col) { return q::F(BrcbSrcAt(src, row * rowStride + col)); }, loc);
}

// 2201/2002 without transpose with an offset tensor: true where the half performance path runs
// (row k takes element n, in TensorForm's pass); bfloat16 runs here (false): with
// sharedTmpBuffer of 8 bytes per scale element and 256 per row of k Bf16Performance, below it
// Bf16NoTransposeFallback. The half path's Add and Mul repeat over rows with the stride
// N * 2 / 32 blocks (truncated): for N not a multiple of 16 rows overlap, each repeat reading
// what the one before wrote, which the pages do not support (the repeat overlap rule): checked
// mode refuses it, unchecked mode keeps lngrad's per-element result. The bfloat16 performance
// path strides int8_t rows by N / 32 blocks and int4b_t rows by N / 64 (truncated), writes dst
// rows N * 2 / 32 blocks apart (truncated: overlapping rows for N not a multiple of 16), stages
// int4b_t tail rows 8 blocks apart and, past k 255, starts slices at unaligned addresses:
// checked mode refuses int8_t N not a multiple of 32 and int4b_t N not a multiple of 64;
// unchecked mode follows the int8_t reads where they are the only difference (N a multiple of
// 16, k up to 255: Bf16Performance) and keeps lngrad's result otherwise.
template <typename S, typename D>
bool NoTransposeWithOffset(const LocalTensor<D>& dst, const LocalTensor<S>& src,
                           const LocalTensor<D>& offset, const LocalTensor<D>& scale,
                           const LocalTensor<uint8_t>& tmp, uint32_t k, uint32_t groupCount,
                           uint64_t n, uint64_t tmpMin, lngrad::aicore::SrcLoc loc) {
  namespace q = lngrad::aicore::quant_detail;
  if constexpr (std::is_same_v<D, half>) {
    q::Require(n % 16 == 0, "AscendAntiQuant",
               "the half path without transpose with an offset tensor takes N (" +
                   std::to_string(n) +
                   ") a multiple of 16: its Add and Mul step rows by N * 2 / 32 blocks "
                   "(truncated), so rows overlap and each repeat reads what the one before "
                   "wrote, which the pages do not support (lngrad computes each element once)");
    return true;
  } else {
    const bool perf = tmp.GetSize() >= uint64_t{scale.GetSize()} * 8 + uint64_t{256} * k;
    const uint64_t unit = std::is_same_v<S, int4b_t> ? 64 : 32;
    q::Require(!perf || n % unit == 0, "AscendAntiQuant",
               "the bfloat16_t path without transpose with an offset tensor takes N (" +
                   std::to_string(n) + ") a multiple of " + std::to_string(unit) +
                   " here: its source repeat stride N / " + std::to_string(unit) +
                   " blocks truncates (rows read from the wrong place), its dst stride "
                   "overlaps rows for N not a multiple of 16, its int4b_t tail stages rows "
                   "256 bytes apart past the scratch it sizes, and k above 255 starts slices at "
                   "unaligned addresses");
    if (perf) {
      Bf16Performance<S>(dst, src, offset, scale, tmp, k, n, tmpMin, loc);
    } else {
      Bf16NoTransposeFallback<S>(dst, src, offset, scale, tmp, k, groupCount, n, tmpMin, loc);
    }
    return false;
  }
}

// The bfloat16 scale-only forms' rules (checked mode).
inline void CheckBf16ScaleOnly(bool isTranspose, const LocalTensor<uint8_t>& tmp) {
  namespace q = lngrad::aicore::quant_detail;
  constexpr const char* kApi = "AscendAntiQuant";
  // On 3510 ascend_antiquant_impl.h calls AscendAntiQuantBF16Transpose, which only the c220 and
  // m200 files define; AntiQuantOuterLoop divides by sharedTmpBuffer / 8.
  q::Require(!isTranspose || !q::Is3510(), kApi,
             "the transposed bfloat16_t form without offset does not build for Ascend 950 (arch "
             "3510): ascend_antiquant_impl.h calls AscendAntiQuantBF16Transpose there, which its "
             "3510 implementation does not define");
  q::Require(isTranspose || tmp.GetSize() >= 8, kApi,
             "the bfloat16_t form without offset runs rows in chunks of sharedTmpBuffer / 8 "
             "elements: sharedTmpBuffer needs at least 8 bytes");
}

// TensorForm's OuterLoopScratch: element i's product (source, + offset, times scale, in
// float) and, not transposed (the tensor form of the inner loop), the scale row of the call
// at s: row s / nCols of groups of rowsPerGroup rows. The transposed fallback's calls cover
// `covered` columns a row (KeepColumnsPast): its elements are counted over those.
template <typename S, typename D, typename OffAt, typename ScAt, typename SrcIdx>
void TensorFormScratch(const LocalTensor<uint8_t>& tmp, const LocalTensor<S>& src, const D* sp,
                       bool withOffset, bool isTranspose, uint64_t total, uint64_t seg,
                       uint64_t rowsPerGroup, uint64_t nCols, uint64_t covered, OffAt&& offAt,
                       ScAt&& scAt, SrcIdx&& srcAt, lngrad::aicore::SrcLoc loc) {
  namespace q = lngrad::aicore::quant_detail;
  if (nCols == 0 || covered == 0) return;
  const auto at = [&](uint64_t i) { return i / covered * nCols + i % covered; };
  OuterLoopScratch(
      tmp, total / nCols * covered, seg, !isTranspose,
      [&](uint64_t j) {
        const uint64_t i = at(j);
        float v = q::F(BrcbSrcAt(src, srcAt(i)));
        if (withOffset) v = v + q::F(offAt(i));
        return v * q::F(scAt(i));
      },
      [&](uint64_t s, uint64_t j) { return q::F(sp[s / nCols / rowsPerGroup * nCols + j]); }, loc);
}

// The transposed fallback (AntiQuantImplScalar) calls k / L groups of L columns a row, so with
// a group count not dividing k the columns from `covered` = (k / L) * L on are not written:
// `pass` (which writes every element) runs, and those columns get back what dst held.
template <typename D, typename Pass>
void KeepColumnsPast(const LocalTensor<D>& dst, uint64_t nRows, uint64_t nCols, uint64_t covered,
                     Pass&& pass) {
  std::vector<D> kept;
  for (uint64_t r = 0; covered < nCols && r < nRows; ++r) {
    kept.insert(kept.end(), dst.HostPtr() + r * nCols + covered, dst.HostPtr() + (r + 1) * nCols);
  }
  pass();
  for (uint64_t r = 0; covered < nCols && r < nRows; ++r) {
    std::copy_n(kept.begin() + r * (nCols - covered), nCols - covered,
                dst.HostPtr() + r * nCols + covered);
  }
}

// The int4b_t element the fallback's call reads for flat element i: calls of seg elements from
// each row's start (rows of nCols; the transposed fallback's k / L calls) and, bfloat16, chunks
// of `chunk` within a call; a call or chunk at an odd element starts at the nibble before it.
inline uint64_t FallbackHalfByteIndex(uint64_t i, uint64_t nCols, uint64_t seg, uint64_t chunk) {
  const uint64_t c = i % nCols, s = i - c + c / seg * seg, w = c % seg;
  const uint64_t t = w / chunk * chunk;
  return 2 * (s / 2) + 2 * (t / 2) + (w - t);
}

}  // namespace AscendC::lngrad_antiquant
