// lngrad: the Ascend C high-level API DropOut (the vendor's adv_api/filter/dropout.h), half and
// float (bfloat16_t on arch 3510), every product.
//
// The sequences of dropout_membase_impl.h / dropout_c220_impl.h. divValue = 1.0f / keepProb in
// float, then converted to T once. The mode (template dropOutMode, or 0: chosen from the shape):
// srcLastAxis < maskLastAxis byte mode, misaligned (1); == byte mode (2); == maskLastAxis * 8
// bit mode (3); otherwise bit mode, misaligned (4). Byte mode: dst = (T(mask byte) * src) *
// divValue, two Mul instructions in T (half: the float result of exact operands rounded to half
// once; a mask byte of 2 doubles the element, as on the device). Bit mode: bit j of mask byte b
// (least significant first) keeps element 8b + j: dst = (bit ? src : 0) * divValue - the
// device's Select against the zero compare register, then Muls. On 2201 the misaligned modes
// first pack each row's first srcLastAxis mask bytes (bits) to the front of maskLocal, in place -
// the device's GatherMask - and lngrad writes that packing into maskLocal too; 2002
// (dropout_m200_impl.h) runs the rows one by one where they are and leaves maskLocal alone. The
// scratch on 2201/2002 is left as the kit's sequence leaves it (LeaveDropOutScratch;
// tests/replay/dropout_scratch_replay_test.cpp). Arch 3510
// (dropout_3510_impl.h) reads the rows in place and leaves maskLocal as it was; its bit modes
// Select against +0 and Mul by divValue under the bit's mask (ZEROING), so a cleared bit gives +0
// even where divValue is infinite (keepProb below 1/65504 for half, 2^-128 for float), where the
// 2201 Muls gives 0 * inf = NaN; the byte modes are the two Muls above (a dropped -x gives -0, a
// dropped inf or NaN NaN) and write [0, firstAxis * srcLastAxis) only
// (tests/replay/filter_select_3510_replay_test.cpp against the replay of the 3510 file).
//
// Checked mode: the elements within src, dst and mask, 32-byte aligned operands, sharedTmpBuffer
// at least 512 bytes on 2201/2002 (GetDropOutMaxMinTmpSize's minimum), srcLastAxis a multiple of
// 8 in the bit modes, a misaligned mask row a multiple of 32 bytes keeping an even byte count,
// keepProb in (0, 1] (arch 3510, as its code asserts: (0, 1), and firstAxis > 0), bfloat16_t on
// arch 3510 only.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "lib/quantization/quant_common.h"

namespace AscendC {

LNGRAD_AXES_SHAPE_INFO(DropOutShapeInfo)

inline constexpr uint32_t DROPOUT_MODE_BYTE_MISALIGN = 1;
inline constexpr uint32_t DROPOUT_MODE_BYTE_ALIGN = 2;
inline constexpr uint32_t DROPOUT_MODE_BIT_ALIGN = 3;
inline constexpr uint32_t DROPOUT_MODE_BIT_MISALIGN = 4;

}  // namespace AscendC

namespace lngrad::aicore::quant_detail {

inline uint32_t DropOutMode(uint32_t fixed, const AscendC::DropOutShapeInfo& info) {
  if (fixed != 0) return fixed;
  if (info.srcLastAxis < info.maskLastAxis) return AscendC::DROPOUT_MODE_BYTE_MISALIGN;
  if (info.srcLastAxis == info.maskLastAxis) return AscendC::DROPOUT_MODE_BYTE_ALIGN;
  if (info.srcLastAxis == info.maskLastAxis * 8) return AscendC::DROPOUT_MODE_BIT_ALIGN;
  return AscendC::DROPOUT_MODE_BIT_MISALIGN;
}

// Packs each of `rows` rows' first `keep` bytes (row pitch `pitch` bytes) to the front, in
// place, in 2-byte units as the device's GatherMask does.
inline void PackRows(uint8_t* p, uint32_t rows, uint32_t keep, uint32_t pitch) {
  std::vector<uint8_t> packed(uint64_t{rows} * keep);
  for (uint32_t r = 0; r < rows; ++r)
    std::memcpy(&packed[uint64_t{r} * keep], p + uint64_t{r} * pitch, keep);
  if (!packed.empty()) std::memcpy(p, packed.data(), packed.size());
}

// What dropout_membase_impl.h leaves in sharedTmpBuffer on 2201/2002. The bit modes (unless
// isInitBitMode): DropOutBitModeInit's Muls(int16, 0) over one full repeat zeroes bytes
// [0, 256), the CMPMASK the Select reads as its scalar. The byte modes: chunk = the buffer's
// halves (half) or bytes / 6 (float: a half area, then a float area at byte 2 * chunk) rounded
// down to 32 elements; each round of `len` (the chunk, then the tail) Casts its mask bytes to
// half at slots [0, len) (float: and those halves to float in the second area), later rounds
// winning. `runs` runs of `len` elements, run r's mask bytes at mask + r * pitch (2002's
// misaligned byte mode restarts its rounds at each row; otherwise one run). A chunk of 0 (a
// buffer checked mode refuses) is left marked.
inline void LeaveDropOutScratch(const char* api, SrcLoc loc,
                                const AscendC::LocalTensor<uint8_t>& tmp, bool bits,
                                bool isInitBitMode, bool isFloat, const uint8_t* mask,
                                uint64_t runs, uint64_t len, uint64_t pitch) {
  uint8_t* s = tmp.HostPtr();
  const uint64_t size = tmp.View().size_bytes;
  if (s == nullptr) return;
  san::Instr rec(Pipe::kV, api, loc);
  if (bits) {
    if (isInitBitMode) return;
    const uint64_t zeroed = std::min<uint64_t>(256, size);
    std::memset(s, 0, zeroed);
    if (rec) rec.Write(s, zeroed);
    return;
  }
  const uint64_t chunk = (isFloat ? size / 6 : size / 2) / 32 * 32;
  if (chunk == 0) {
    if (runs * len != 0) math_detail::LeaveScratch(api, loc, tmp.View());
    return;
  }
  uint64_t reach = 0;
  for (uint64_t r = 0; r < runs; ++r) {
    for (uint64_t off = 0; off < len; off += chunk) {
      const uint64_t n = std::min(chunk, len - off);
      for (uint64_t j = 0; j < n; ++j) {
        const half h = half(static_cast<float>(mask[r * pitch + off + j]));
        std::memcpy(s + 2 * j, &h, 2);
        if (isFloat) {
          const float f = F(h);
          std::memcpy(s + 2 * chunk + 4 * j, &f, 4);
        }
      }
      reach = std::max(reach, n);
    }
  }
  if (!rec || reach == 0) return;
  rec.Write(s, 2 * reach);
  if (isFloat) rec.Write(s + 2 * chunk, 4 * reach);
}

}  // namespace lngrad::aicore::quant_detail

namespace AscendC {

template <typename T, bool isInitBitMode = false, uint32_t dropOutMode = 0>
void DropOut(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
             const LocalTensor<uint8_t>& maskLocal, const LocalTensor<uint8_t>& sharedTmpBuffer,
             const float keepProb, const DropOutShapeInfo& info,
             lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  namespace q = lngrad::aicore::quant_detail;
  constexpr const char* kApi = "DropOut";
  static_assert(
      std::is_same_v<T, half> || std::is_same_v<T, float> || std::is_same_v<T, bfloat16_t>,
      "DropOut: T must be half, float or bfloat16_t");
  static_assert(dropOutMode <= 4, "DropOut: dropOutMode must be 0 to 4");
  q::CheckProduct(kApi, std::is_same_v<T, bfloat16_t>);
  const uint32_t mode = q::DropOutMode(dropOutMode, info);
  const bool bits = mode == DROPOUT_MODE_BIT_ALIGN || mode == DROPOUT_MODE_BIT_MISALIGN;
  const bool misaligned = mode == DROPOUT_MODE_BYTE_MISALIGN || mode == DROPOUT_MODE_BIT_MISALIGN;
  const uint64_t n = uint64_t{info.firstAxis} * info.srcLastAxis;
  const uint32_t keep = bits ? info.srcLastAxis / 8 : info.srcLastAxis;  // mask bytes a row uses
  q::Require(!bits || info.srcLastAxis % 8 == 0, kApi,
             "srcLastAxis " + std::to_string(info.srcLastAxis) +
                 " must be a multiple of 8 in the bit modes");
  q::Require(!misaligned || (keep % 2 == 0 && info.maskLastAxis % 32 == 0), kApi,
             "a misaligned mask row must be a multiple of 32 bytes and keep an even byte count");
  const bool arch3510 = q::Is3510();
  if (arch3510) {
    q::Require(keepProb > 0.0f && keepProb < 1.0f, kApi, "keepProb must be in (0, 1) on arch 3510");
    q::Require(info.firstAxis > 0, kApi, "firstAxis must be greater than 0 on arch 3510");
  } else {
    q::Require(keepProb > 0.0f && keepProb <= 1.0f, kApi, "keepProb must be in (0, 1]");
  }
  const uint64_t maskBytes =
      misaligned ? uint64_t{info.firstAxis} * info.maskLastAxis : (bits ? (n + 7) / 8 : n);
  q::CheckCount(kApi, dstLocal, n, "dstLocal");
  q::CheckCount(kApi, srcLocal, n, "srcLocal");
  q::CheckCount(kApi, maskLocal, maskBytes, "maskLocal");
  if (!arch3510) q::CheckTmp(kApi, sharedTmpBuffer, 512);
  // 2201 packs the misaligned mask rows in place first (dropout_c220_impl.h's GatherMask);
  // 2002 runs them row by row from where they are (dropout_m200_impl.h), as 3510 reads them.
  const bool arch2002 = lngrad::aicore::detail::rep::RunningArch() == lngrad::NpuArch::k2002;
  const bool packs = misaligned && !arch3510 && !arch2002;
  q::Record(kApi, loc, {q::SpanOf(srcLocal, n), q::SpanOf(maskLocal, maskBytes)},
            {q::SpanOf(dstLocal, n), packs ? q::SpanOf(maskLocal, maskBytes) : q::Span{}});
  uint8_t* mask = maskLocal.HostPtr();
  if (packs) q::PackRows(mask, info.firstAxis, keep, info.maskLastAxis);
  const T div = T(1.0f / keepProb);
  const T* in = srcLocal.HostPtr();
  T* out = dstLocal.HostPtr();
  const uint32_t src = info.srcLastAxis, pitch = misaligned && !packs ? info.maskLastAxis : keep;
  for (uint64_t e = 0; e < n; ++e) {
    const uint64_t r = e / src, c = e % src;
    T v;
    if (bits) {
      const bool kept = ((mask[r * pitch + c / 8] >> (c % 8)) & 1u) != 0;
      if (!kept && arch3510) {  // the masked Mul zeroes the lane: no 0 * divValue
        out[e] = T(0.0f);
        continue;
      }
      v = kept ? in[e] : T(0.0f);
    } else {
      v = T(q::F(T(static_cast<float>(mask[r * pitch + c]))) * q::F(in[e]));
    }
    out[e] = T(q::F(v) * q::F(div));
  }
  if (arch3510) return;
  // The scratch as dropout_membase_impl.h leaves it (2002's misaligned byte mode: row by row).
  const bool byRow = arch2002 && misaligned;
  q::LeaveDropOutScratch(kApi, loc, sharedTmpBuffer, bits, isInitBitMode, sizeof(T) == 4, mask,
                         byRow ? info.firstAxis : 1, byRow ? src : n, info.maskLastAxis);
}

template <typename T, bool isInitBitMode = false, uint32_t dropOutMode = 0>
void DropOut(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
             const LocalTensor<uint8_t>& maskLocal, const float keepProb,
             const DropOutShapeInfo& info,
             lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  DropOut<T, isInitBitMode, dropOutMode>(
      dstLocal, srcLocal, maskLocal, lngrad::aicore::math_detail::StackTmp(), keepProb, info, loc);
}

}  // namespace AscendC
