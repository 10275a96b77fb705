// lngrad: the Ascend C high-level API Select with a bytes mask (SelectWithBytesMask; the
// vendor's adv_api/select/selectwithbytesmask.h), half and float, every product.
//
// The sequence of selectwithbytesmask_impl.h / _common_impl.h: each mask element is Cast to half
// (a 4-byte mask read as float, CAST_ODD; a 2-byte one as int16; a byte as uint8) and compared
// with 0; an element whose mask is zero takes the first operand (src0), any other the second
// (src1) - whichever of the two is the scalar. So a 4-byte mask of -0.0f (0x80000000) counts as
// zero, and a float NaN too in the saturation mode (the default; the Cast gives it 0), nonzero
// in the inf/NaN mode. The tensor operand's whole size is processed. When
// maskLastAxis != srcLastAxis each mask row's first srcLastAxis elements are packed first
// (the device's GatherMask): into the mask itself when isReuseMask (lngrad writes that packing
// too), else into sharedTmpBuffer. Arch 2002 (selectwithbytesmask_v200_impl.h) packs nothing:
// with the axes different it selects row by row (firstAxis rows of srcLastAxis elements, mask
// row r read at r * maskLastAxis), leaves the mask alone whatever isReuseMask, and asks no
// scratch beyond the 1024 bytes (its ComputeMaskExtraBufSize is 0). Arch 3510
// (selectwithbytesmask_3510_impl.h) compares each mask element with 0 in its own type (so a 4-byte
// -0.0f is zero, 0x80000000 as int32 is not) and reads the mask rows in place, over the [firstAxis,
// srcLastAxis] elements.
//
// On 2201/2002 sharedTmpBuffer is left as the kit's sequence leaves it (LeaveSelectScratch;
// tests/replay/select_scratch_replay_test.cpp against replay_select_scratch.h).
// On 3510 the mask and sharedTmpBuffer are only read, whatever isReuseMask, and nothing past
// [0, firstAxis * srcLastAxis) of dst is written (tests/replay/filter_select_3510_replay_test.cpp
// against the replay of the 3510 file).
//
// Checked mode: elements within dst, the tensor source and the mask, 32-byte aligned operands,
// sharedTmpBuffer at least 1024 bytes, plus on 2201 the packed mask (rounded to 32 bytes) when
// the axes differ and isReuseMask is false. Every product, as selectwithbytesmask_3510_impl.h
// asserts on 3510 and the kit's kernel check (selectwithbytesmaskcheck_common.h) on 2201/2002:
// a mask of bool or 8-, 16- or 32-bit integers (its static_assert), srcLastAxis and maskLastAxis
// rows of whole 32-byte blocks, maskLastAxis a multiple of 16 and at least srcLastAxis, the
// tensor source of exactly firstAxis * srcLastAxis elements and the mask of exactly
// firstAxis * maskLastAxis.
#pragma once

#include <cstdint>
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>
#include <type_traits>

#include "lib/filter/dropout.h"
#include "lib/quantization/quant_common.h"

namespace AscendC {

LNGRAD_AXES_SHAPE_INFO(SelectWithBytesMaskShapeInfo)

}  // namespace AscendC

namespace lngrad::aicore::quant_detail {

// Whether a mask element counts as zero: 2201/2002 compare its half Cast with 0, 3510 compares
// it with 0 in its own type.
template <typename U>
bool MaskIsZero(U m, bool arch3510) {
  if constexpr (sizeof(U) == 1) {
    uint8_t b;
    std::memcpy(&b, &m, 1);
    return b == 0;
  } else {
    if (arch3510) return F(m) == 0.0f;
    if constexpr (sizeof(U) == 4) {
      float f;
      std::memcpy(&f, &m, sizeof(f));
      return F(Conv<half, float>(f, RoundMode::CAST_ODD)) == 0.0f;
    } else {
      int16_t i;
      std::memcpy(&i, &m, sizeof(i));
      return i == 0;
    }
  }
}

// Checked mode: what selectwithbytesmask_3510_impl.h asserts on arch 3510 and the kit's kernel
// check (selectwithbytesmaskcheck_common.h's VerifyingParameters) on 2201/2002: the same rules.
template <typename T, typename U>
void CheckSelectShape(const char* api, const AscendC::LocalTensor<T>& tensor,
                      const AscendC::LocalTensor<U>& mask,
                      const AscendC::SelectWithBytesMaskShapeInfo& info) {
  if (!CheckedMode()) return;
  const uint64_t first = info.firstAxis, src = info.srcLastAxis, m = info.maskLastAxis;
  Require(std::is_integral_v<U>, api, "the mask type must be bool or an 8-, 16- or 32-bit integer");
  Require(src * sizeof(T) % 32 == 0, api,
          "srcLastAxis " + std::to_string(src) + " must make rows of whole 32-byte blocks");
  Require(m * sizeof(U) % 32 == 0, api,
          "maskLastAxis " + std::to_string(m) + " must make rows of whole 32-byte blocks");
  Require(m % 16 == 0, api, "maskLastAxis " + std::to_string(m) + " must be a multiple of 16");
  Require(tensor.GetSize() == first * src, api,
          "the tensor source holds " + std::to_string(tensor.GetSize()) +
              " elements, not firstAxis * srcLastAxis = " + std::to_string(first * src));
  Require(mask.GetSize() == first * m, api,
          "the mask holds " + std::to_string(mask.GetSize()) +
              " elements, not firstAxis * maskLastAxis = " + std::to_string(first * m));
  Require(
      m >= src, api,
      "maskLastAxis " + std::to_string(m) + " must be at least srcLastAxis " + std::to_string(src));
}

// What the 2201/2002 sequence (selectwithbytesmask_common_impl.h with its _v220 / _v200 file)
// leaves in sharedTmpBuffer: the scalar over bytes [0, 256) (InitScalarSelectMask's
// Duplicate); on 2201 with the axes different and !isReuseMask the packed mask rows at the
// front (packToTmp) and the work area from AlignUp(n * sizeof(U), 32); then the rounds of
// `loop` elements (2002 with the axes different: row by row) each Cast their mask elements to
// half at the work area's base and CompareScalar them with 0 (EQ; NE for the scalar-first
// overload) over whole 128-lane repeats, every lane (the halves past the round included: the
// mask is ignored by Compare there), the bits packed at the same base. mi(e): the mask element
// of processed element e. Not modelled below the 1024 (+ packing) bytes the kit asserts.
template <typename T, typename U, typename MaskIndex>
void LeaveSelectScratch(const char* api, SrcLoc loc, const AscendC::LocalTensor<uint8_t>& tmp,
                        T scalar, const U* m, const AscendC::SelectWithBytesMaskShapeInfo& info,
                        uint64_t n, bool packToTmp, bool rows, bool ne, MaskIndex mi) {
  constexpr uint64_t kRep = 256, kLanes = kRep / sizeof(half);
  uint8_t* s = tmp.HostPtr();
  const uint64_t size = tmp.View().size_bytes;
  const uint64_t row = uint64_t{info.srcLastAxis} * sizeof(U);
  const uint64_t packBytes = packToTmp ? uint64_t{info.firstAxis} * row : 0;
  const uint64_t base = packToTmp ? (n * sizeof(U) + 31) / 32 * 32 : 0;
  if (size < 1024 + base) return;
  for (uint64_t b = 0; b < kRep; b += sizeof(T)) std::memcpy(s + b, &scalar, sizeof(T));
  for (uint64_t r = 0; r < info.firstAxis && packToTmp; ++r) {
    std::memcpy(s + r * row,
                reinterpret_cast<const uint8_t*>(m) + r * info.maskLastAxis * sizeof(U), row);
  }
  const uint64_t loop =
      std::min<uint64_t>((size - base - kRep) / sizeof(half) / 32 * 32, 255 * kLanes);
  uint8_t* w = s + base;
  uint64_t reach = 0;
  std::vector<uint8_t> bits;
  const auto round = [&](uint64_t e0, uint64_t len) {
    for (uint64_t j = 0; j < len; ++j) {
      const U v = m[mi(e0 + j)];
      half h;
      if constexpr (sizeof(U) == 4) {
        float f;
        std::memcpy(&f, &v, sizeof(f));
        h = Conv<half, float>(f, RoundMode::CAST_ODD);
      } else if constexpr (sizeof(U) == 2) {
        int16_t i;
        std::memcpy(&i, &v, sizeof(i));
        h = Conv<half, float>(static_cast<float>(i), RoundMode::CAST_RINT);
      } else {
        uint8_t b;
        std::memcpy(&b, &v, 1);
        h = half(static_cast<float>(b));
      }
      std::memcpy(w + sizeof(half) * j, &h, sizeof(half));
    }
    const uint64_t rep = (len + kLanes - 1) / kLanes;
    bits.assign(rep * kLanes / 8, 0);
    for (uint64_t k = 0; k < rep * kLanes; ++k) {
      half h;
      std::memcpy(&h, w + sizeof(half) * k, sizeof(half));
      if ((F(h) == 0.0f) != ne) bits[k / 8] = static_cast<uint8_t>(bits[k / 8] | (1u << (k % 8)));
    }
    std::memcpy(w, bits.data(), bits.size());
    reach = std::max({reach, sizeof(half) * len, uint64_t{bits.size()}});
  };
  const uint64_t seg = rows ? info.srcLastAxis : n, segs = rows ? info.firstAxis : 1;
  for (uint64_t r = 0; r < segs && loop != 0; ++r) {
    for (uint64_t off = 0; off < seg; off += loop) round(r * seg + off, std::min(loop, seg - off));
  }
  san::Instr rec(Pipe::kV, api, loc);
  if (!rec) return;
  rec.Write(s, std::max(kRep, packBytes));
  if (reach != 0) rec.Write(w, reach);
}

// dst[e] = mask(e) is zero ? first(e) : second(e), e < the tensor operand's size.
template <typename T, typename U, bool isReuseMask, bool scalarFirst>
void SelectBytes(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& tensor,
                 T scalar, const AscendC::LocalTensor<U>& mask,
                 const AscendC::LocalTensor<uint8_t>& tmp,
                 const AscendC::SelectWithBytesMaskShapeInfo& info, SrcLoc loc) {
  constexpr const char* kApi = "Select";
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                "Select (bytes mask): T must be half or float");
  static_assert(sizeof(U) == 1 || sizeof(U) == 2 || sizeof(U) == 4,
                "Select (bytes mask): the mask type must be 1, 2 or 4 bytes");
  const bool arch3510 = Is3510();
  const bool arch2002 = detail::rep::RunningArch() == NpuArch::k2002;
  CheckSelectShape(kApi, tensor, mask, info);
  const bool pack = info.srcLastAxis != info.maskLastAxis;
  // 2201 (and 2002 with equal axes) process the tensor operand's whole size, 3510 and 2002
  // with different axes the [firstAxis, srcLastAxis] rows.
  const uint64_t n = arch3510 || (arch2002 && pack) ? uint64_t{info.firstAxis} * info.srcLastAxis
                                                    : tensor.GetSize();
  const uint64_t maskCount = pack ? uint64_t{info.firstAxis} * info.maskLastAxis : n;
  Require(!pack || (info.srcLastAxis != 0 && n <= uint64_t{info.firstAxis} * info.srcLastAxis),
          kApi, "the source must hold firstAxis * srcLastAxis elements when the axes differ");
  CheckCount(kApi, dst, n, "dst");
  CheckCount(kApi, tensor, n, scalarFirst ? "src1" : "src0");
  CheckCount(kApi, mask, maskCount, "mask");
  const uint64_t extra = pack && !isReuseMask && !arch2002 ? (n * sizeof(U) + 31) / 32 * 32 : 0;
  CheckTmp(kApi, tmp, 1024 + extra);
  const bool packInPlace = pack && isReuseMask && !arch3510 && !arch2002;
  Record(kApi, loc, {SpanOf(tensor, n), SpanOf(mask, maskCount)},
         {SpanOf(dst, n), packInPlace ? SpanOf(mask, n) : Span{}});
  U* m = mask.HostPtr();
  const T* in = tensor.HostPtr();
  T* out = dst.HostPtr();
  const auto mi = [&info, pack](uint64_t e) {
    return pack ? (e / info.srcLastAxis) * info.maskLastAxis + e % info.srcLastAxis : e;
  };
  for (uint64_t e = 0; e < n; ++e) {
    // Zero selects the first operand: the tensor in (src0, scalar), the scalar in (scalar, src1).
    out[e] = MaskIsZero(m[mi(e)], arch3510) != scalarFirst ? in[e] : scalar;
  }
  if (!arch3510) {
    LeaveSelectScratch<T, U>(kApi, loc, tmp, scalar, m, info, n, pack && !isReuseMask && !arch2002,
                             arch2002 && pack, scalarFirst, mi);
  }
  if (packInPlace) {  // the device's GatherMask of the rows into the mask itself
    PackRows(reinterpret_cast<uint8_t*>(m), info.firstAxis,
             static_cast<uint32_t>(info.srcLastAxis * sizeof(U)),
             static_cast<uint32_t>(info.maskLastAxis * sizeof(U)));
  }
}

}  // namespace lngrad::aicore::quant_detail

namespace AscendC {

template <typename T, typename U, bool isReuseMask = true>
void Select(const LocalTensor<T>& dst, const LocalTensor<T>& src0, T src1,
            const LocalTensor<U>& mask, const LocalTensor<uint8_t>& sharedTmpBuffer,
            const SelectWithBytesMaskShapeInfo& info,
            lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::aicore::quant_detail::SelectBytes<T, U, isReuseMask, false>(dst, src0, src1, mask,
                                                                      sharedTmpBuffer, info, loc);
}

template <typename T, typename U, bool isReuseMask = true>
void Select(const LocalTensor<T>& dst, T src0, const LocalTensor<T>& src1,
            const LocalTensor<U>& mask, const LocalTensor<uint8_t>& sharedTmpBuffer,
            const SelectWithBytesMaskShapeInfo& info,
            lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::aicore::quant_detail::SelectBytes<T, U, isReuseMask, true>(dst, src1, src0, mask,
                                                                     sharedTmpBuffer, info, loc);
}

template <typename T, typename U, bool isReuseMask = true>
void SelectWithBytesMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, T src1,
                         const LocalTensor<U>& mask, const LocalTensor<uint8_t>& sharedTmpBuffer,
                         const SelectWithBytesMaskShapeInfo& info,
                         lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  Select<T, U, isReuseMask>(dst, src0, src1, mask, sharedTmpBuffer, info, loc);
}

template <typename T, typename U, bool isReuseMask = true>
void SelectWithBytesMask(const LocalTensor<T>& dst, T src0, const LocalTensor<T>& src1,
                         const LocalTensor<U>& mask, const LocalTensor<uint8_t>& sharedTmpBuffer,
                         const SelectWithBytesMaskShapeInfo& info,
                         lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  Select<T, U, isReuseMask>(dst, src0, src1, mask, sharedTmpBuffer, info, loc);
}

}  // namespace AscendC
