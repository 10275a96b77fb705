// lngrad: the Ascend C high-level APIs Pad and UnPad (the vendor's adv_api/pad/pad.h) on rows of
// a 2-dim [height, width] tensor, for int16_t, uint16_t, int32_t, uint32_t, half and float.
//
// Pad on arch 2201/2002 (pad_v220_impl.h / pad_base_impl.h):
// - width * sizeof(T) a multiple of 32 (the rows are already aligned): dst is a copy of the
//   height * width elements, then in every row the rightPad elements from column srcOriWidth on
//   are set to padValue (the last 32-byte block's masked Duplicate). leftPad is not used.
// - otherwise (src is height compact rows of width elements): dst row j, of
//   width + leftPad + rightPad elements (a multiple of 32 bytes), is leftPad padValues, src's
//   row j, rightPad padValues, built through the scratch as the kit's sequence builds it
//   (lib/pad/pad_unaligned.h, which also leaves the scratch as the device does). On 2201 its
//   Brcb loads the last chunk of the source stream (h * w % brcbTiling elements) 8 at a time,
//   so that chunk's final (h * w % brcbTiling) % 8 elements are not loaded: dst gets what the
//   scratch rows held there (the chunk before's elements at the same rows, or, with a single
//   chunk, the scratch's bytes before the call).
// Pad on arch 3510 (pad_3510_impl.h, register code; a register holds E = 256 / sizeof(T)
// elements and the last one of a row starts at column B = E * ((width - 1) / E) for aligned
// rows, E * (width / E) for the others): the pad is a masked Duplicate into the row's last
// register, over its lanes [srcOriWidth - B, srcOriWidth - B + rightPad) (none when srcOriWidth
// < B: the uint32_t difference wraps and the mask selects nothing).
// - aligned rows: dst is a copy of src with those lanes set to padValue.
// - other rows: leftPad padValues, then the width + rightPad columns from the row's start, each
//   padValue in those lanes and otherwise the element the register loaded there: src's row, and
//   past its end the elements that follow it in src (the next row's; after the last row, the UB
//   past srcTensor, which must lie inside the UB). Past the register's E lanes (a last register
//   of width - B + rightPad > E elements, which the kit's single store of that count cannot
//   hold) lngrad writes padValue; the kit does not say what the store writes there.
// padValue (int32_t) is converted to T as static_cast<T> does.
// UnPad (GatherMask with the all-ones pattern on 2201, unaligned stores on 3510): dst holds, row
// after row, the first width - rightPad elements of src's rows; leftPad is not used, as on the
// device.
//
// Checked mode: leftPad and rightPad each below 32 bytes; aligned rows need srcWidth !=
// srcOriWidth, leftPad == 0 and rightPad != 0; unaligned rows need (width + leftPad + rightPad)
// * sizeof(T) a multiple of 32; the scratch at least what the tiling lays out (two regions of
// tmpBuffer1BlockNum * 512 bytes) when the rows are unaligned on 2201/2002; operands 32-byte
// aligned; on arch 3510 dstTensor, srcTensor and sharedTmpBuffer are not one tensor (the same
// start and size: pad_check_310.h, unpad_check_310.h). Operand sizes are checked in both modes.
#pragma once

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <utility>

#include "kernel_tiling/kernel_tiling.h"
#include "lib/math/math_common.h"
#include "lib/pad/pad_unaligned.h"
#include "lib/pad/transform_common.h"
#include "lib/pad/unpad_v200.h"
#include "lngrad_aicore/pipe.h"

namespace AscendC {

struct PadParams {
  PadParams() = default;
  PadParams(const uint16_t leftPadIn, const uint16_t rightPadIn, const int32_t padValueIn)
      : leftPad(leftPadIn), rightPad(rightPadIn), padValue(padValueIn) {}
  uint16_t leftPad = 0;
  uint16_t rightPad = 0;
  int32_t padValue = 0;
};

struct UnPadParams {
  UnPadParams() = default;
  UnPadParams(const uint16_t leftPadIn, const uint16_t rightPadIn)
      : leftPad(leftPadIn), rightPad(rightPadIn) {}
  uint16_t leftPad = 0;
  uint16_t rightPad = 0;
};

}  // namespace AscendC

namespace lngrad::aicore::pad_detail {

namespace td = lngrad::aicore::transform_detail;

template <typename T>
inline constexpr bool kPadType =
    std::is_same_v<T, int16_t> || std::is_same_v<T, uint16_t> || std::is_same_v<T, int32_t> ||
    std::is_same_v<T, uint32_t> || std::is_same_v<T, half> || std::is_same_v<T, float>;

template <typename T>
void CheckPadParams(const AscendC::PadParams& p, const AscendC::tiling::PadTiling& t,
                    bool aligned) {
  constexpr const char* api = "Pad";
  td::Require(p.leftPad * sizeof(T) < 32, api, "padParams.leftPad * sizeof(T) must be below 32");
  td::Require(p.rightPad * sizeof(T) < 32, api, "padParams.rightPad * sizeof(T) must be below 32");
  if (aligned) {
    td::Require(t.srcWidth != t.srcOriWidth, api,
                "32-byte aligned rows need tiling.srcWidth != tiling.srcOriWidth");
    td::Require(p.leftPad == 0, api, "32-byte aligned rows need padParams.leftPad == 0");
    td::Require(p.rightPad != 0, api, "32-byte aligned rows need padParams.rightPad != 0");
    td::Require(t.srcOriWidth + p.rightPad <= t.srcWidth, api,
                "srcOriWidth + rightPad must not exceed srcWidth");
  } else {
    td::Require((t.srcWidth + p.leftPad + p.rightPad) * sizeof(T) % 32 == 0, api,
                "(srcWidth + leftPad + rightPad) * sizeof(T) must be a multiple of 32");
  }
}

// Checked mode on arch 3510: the operands are not one tensor (the same start address and size),
// as the kit's TensorReuseVerifyingParameters asserts for Pad and UnPad there.
inline void CheckNotReused(const char* api,
                           std::initializer_list<std::pair<const char*, detail::TensorView>> ops) {
  if (!CheckedMode() || detail::rep::RunningArch() != NpuArch::k3510) return;
  for (auto a = ops.begin(); a != ops.end(); ++a) {
    for (auto b = a + 1; b != ops.end(); ++b) {
      td::Require(a->second.ptr != b->second.ptr || a->second.size_bytes != b->second.size_bytes,
                  api,
                  std::string(a->first) + " and " + b->first +
                      " cannot be reused: they are one tensor (the same start address and size)");
    }
  }
}

// The 950's right pad: columns [from, to) of a row, in the last register (columns from `base`
// to `end`), empty when srcOriWidth lies before it (SetRightPadMask's uint32_t difference
// wraps); columns from `end` on are lngrad's padValue (see the header comment).
struct PadLanes {
  uint64_t base, end, from, to;
  bool IsPad(uint64_t c) const { return (c >= from && c < to) || c >= end; }
};

template <typename T>
PadLanes RightPadLanes3510(uint64_t w, uint32_t ori, uint16_t right, bool aligned) {
  constexpr uint64_t kLanes = 256 / sizeof(T);
  const uint64_t base = aligned ? (w - 1) / kLanes * kLanes : w / kLanes * kLanes;
  if (ori < base) return {base, base + kLanes, base, base};
  const uint64_t off = ori - base;
  return {base, base + kLanes, base + std::min(off, kLanes), base + std::min(off + right, kLanes)};
}

// Arch 3510 (pad_3510_impl.h): see the header comment. Rows of h * w elements and h >= 1.
template <typename T>
void PadRows3510(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                 const AscendC::PadParams& p, const AscendC::tiling::PadTiling& t, bool aligned,
                 SrcLoc loc) {
  constexpr const char* api = "Pad";
  const uint64_t h = t.srcHeight, w = t.srcWidth;
  const uint64_t out_w = aligned ? w : w + p.leftPad + p.rightPad;
  const PadLanes lanes = RightPadLanes3510<T>(w, t.srcOriWidth, p.rightPad, aligned);
  uint64_t past = 0;  // the elements the last row's right pad takes from past src
  for (uint64_t c = w; !aligned && c < w + p.rightPad; ++c) {
    if (!lanes.IsPad(c)) past = c - w + 1;
  }
  if (past != 0) {
    const detail::TensorView sv = src.View();
    detail::RequireInsideUb(sv, sv.ptr - sv.ub, (h * w + past) * sizeof(T), api);
  }
  const T* in = src.HostPtr();
  T* out = dst.HostPtr();
  td::RecordMove(api, loc, {{in, (h * w + past) * sizeof(T)}}, {{out, h * out_w * sizeof(T)}});
  const T pad = static_cast<T>(p.padValue);
  if (aligned) {
    for (uint64_t i = 0; i < h * w; ++i) out[i] = lanes.IsPad(i % w) ? pad : in[i];
    return;
  }
  for (uint64_t r = 0; r < h; ++r) {
    T* row = out + r * out_w;
    for (uint64_t c = 0; c < p.leftPad; ++c) row[c] = pad;
    for (uint64_t c = 0; c < w + p.rightPad; ++c) {
      row[p.leftPad + c] = lanes.IsPad(c) ? pad : in[r * w + c];
    }
  }
}

template <typename T>
void PadRows(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
             const AscendC::PadParams& p, const AscendC::tiling::PadTiling& t,
             const AscendC::LocalTensor<uint8_t>& tmp, SrcLoc loc) {
  static_assert(kPadType<T>, "Pad: T must be int16_t, uint16_t, int32_t, uint32_t, half or float");
  constexpr const char* api = "Pad";
  const uint64_t h = t.srcHeight, w = t.srcWidth;
  const bool aligned = w * sizeof(T) % 32 == 0;
  const bool reg_base = detail::rep::RunningArch() == NpuArch::k3510;
  CheckPadParams<T>(p, t, aligned);
  CheckNotReused(
      api, {{"dstTensor", dst.View()}, {"srcTensor", src.View()}, {"sharedTmpBuffer", tmp.View()}});
  const uint64_t out_w = aligned ? w : w + p.leftPad + p.rightPad;
  td::RequireElems(src, h * w, api, "srcTensor");
  td::RequireElems(dst, h * out_w, api, "dstTensor");
  if (!aligned && !reg_base) {
    const uint64_t need = uint64_t{t.tmpBuffer1BlockNum} * 2 * 512;
    td::Require(need != 0, api, "tiling.tmpBuffer1BlockNum is 0 (PadTilingFunc without scratch)");
    td::Require(tmp.View().size_bytes >= need, api,
                "the scratch holds " + std::to_string(tmp.View().size_bytes) +
                    " bytes, less than the " + std::to_string(need) + " the tiling lays out");
    // The last group of a row holds widthFractalTailAlingned rows (pad_base_impl.h); the row's
    // stream elements left for it (w % G, plus leftPad shifted in by the first group) and
    // rightPad must fit, else the kit's tmp2NeedRow runs short or, below zero, wraps.
    const uint64_t group = uint64_t{16} * t.tmpBuffer1BlockNum;
    const uint64_t last = (group == 0 ? 0 : w % group) + p.leftPad + p.rightPad;
    const std::string rule = "the last group's " + std::to_string(last) +
                             " rows (srcWidth % (16 * tmpBuffer1BlockNum) + leftPad + "
                             "rightPad) must fit tiling.widthFractalTailAlingned " +
                             std::to_string(t.widthFractalTailAlingned);
    td::Require(last <= t.widthFractalTailAlingned, api, rule);
    const uint64_t lead = t.widthFractal == 0 ? p.leftPad : 0;
    if (group != 0 && lead + p.rightPad > t.widthFractalTailAlingned) {
      RaiseKernelCheck(checks::kTransformParams,  // unchecked too: the kit's count wraps
                       std::string(api) + ": " + rule);
    }
  }
  if (reg_base) {
    if (h != 0 && w != 0) PadRows3510(dst, src, p, t, aligned, loc);
    return;
  }
  const T* in = src.HostPtr();
  T* out = dst.HostPtr();
  const T pad = static_cast<T>(p.padValue);
  td::RecordMove(api, loc, {{in, h * w * sizeof(T)}}, {{out, h * out_w * sizeof(T)}});
  if (!aligned) {  // the kit's sequence through tmp1 and tmp2 (pad_unaligned.h)
    PadUnaligned(out, in, {p.leftPad, p.rightPad}, pad, t, tmp,
                 detail::rep::RunningArch() == NpuArch::k2201, api, loc);
    return;
  }
  for (uint64_t r = 0; r < h; ++r) {
    T* row = out + r * out_w;
    const T* s = in + r * w;
    for (uint64_t c = 0; c < w; ++c) row[c] = s[c];
    for (uint64_t c = t.srcOriWidth; c < t.srcOriWidth + p.rightPad && c < w; ++c) row[c] = pad;
  }
}

template <typename T>
void UnPadRows(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
               const AscendC::UnPadParams& p, const AscendC::tiling::UnPadTiling& t,
               const AscendC::LocalTensor<uint8_t>& tmp_tensor, SrcLoc loc) {
  const detail::TensorView tmp = tmp_tensor.View();
  static_assert(kPadType<T>,
                "UnPad: T must be int16_t, uint16_t, int32_t, uint32_t, half or float");
  constexpr const char* api = "UnPad";
  const uint64_t h = t.srcHeight, w = t.srcWidth;
  td::Require(w * sizeof(T) % 32 == 0, api, "srcWidth * sizeof(T) must be a multiple of 32");
  td::Require(p.rightPad * sizeof(T) < 32, api,
              "unPadParams.rightPad * sizeof(T) must be below 32");
  td::Require(p.rightPad < w, api, "unPadParams.rightPad must be below srcWidth");
  CheckNotReused(api,
                 {{"dstTensor", dst.View()}, {"srcTensor", src.View()}, {"sharedTmpBuffer", tmp}});
  const uint64_t out_w = w > p.rightPad ? w - p.rightPad : 0;
  td::RequireElems(src, h * w, api, "srcTensor");
  td::RequireElems(dst, h * out_w, api, "dstTensor");
  // 2002 copies through tmp1 and tmp2 (pad_v200_impl.h, lib/pad/unpad_v200.h); 2201's one
  // GatherMask (pad_v220_impl.h) and the 950's register code leave the scratch alone.
  if (detail::rep::RunningArch() == NpuArch::k2002) {
    const uint64_t need = uint64_t{t.tmpBuffer1BlockNum} * 2 * 512;
    td::Require(need != 0, api,
                "tiling.tmpBuffer1BlockNum is 0 (UnPadTilingFunc without scratch): arch 2002's "
                "sequence divides by it");
    td::Require(tmp.size_bytes >= need, api,
                "the scratch holds " + std::to_string(tmp.size_bytes) + " bytes, less than the " +
                    std::to_string(need) + " the tiling lays out");
    UnPadV200(dst, src, p.rightPad, t, tmp_tensor, api, loc);
    return;
  }
  td::RecordMove(api, loc, {{src.HostPtr(), h * w * sizeof(T)}},
                 {{dst.HostPtr(), h * out_w * sizeof(T)}});
  const T* in = src.HostPtr();
  T* out = dst.HostPtr();
  for (uint64_t r = 0; r < h; ++r) {
    for (uint64_t c = 0; c < out_w; ++c) out[r * out_w + c] = in[r * w + c];
  }
}

}  // namespace lngrad::aicore::pad_detail

namespace AscendC {

template <typename T>
void Pad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, PadParams& padParams,
         const LocalTensor<uint8_t>& sharedTmpBuffer, PadTiling& tiling,
         lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::aicore::pad_detail::PadRows(dstTensor, srcTensor, padParams, tiling, sharedTmpBuffer,
                                      loc);
}

template <typename T>
void Pad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, PadParams& padParams,
         PadTiling& tiling, lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::aicore::pad_detail::PadRows(dstTensor, srcTensor, padParams, tiling,
                                      lngrad::aicore::math_detail::StackTmp(), loc);
}

template <typename T>
void UnPad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
           UnPadParams& unPadParams, LocalTensor<uint8_t>& sharedTmpBuffer, UnPadTiling& tiling,
           lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  // 2201 and 3510 use no scratch (GetUnPadMaxMinTmpSize gives 0); the 950 checks it.
  lngrad::aicore::pad_detail::UnPadRows(dstTensor, srcTensor, unPadParams, tiling, sharedTmpBuffer,
                                        loc);
}

template <typename T>
void UnPad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
           UnPadParams& unPadParams, UnPadTiling& tiling,
           lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::aicore::pad_detail::UnPadRows(dstTensor, srcTensor, unPadParams, tiling,
                                        lngrad::aicore::math_detail::StackTmp(), loc);
}

}  // namespace AscendC
