// lngrad: the Ascend C high-level APIs Pad and UnPad (the vendor's adv_api/pad/pad.h) on rows of
// a 2-dim [height, width] tensor, for int16_t, uint16_t, int32_t, uint32_t, half and float.
//
// Pad (pad_v220_impl.h / pad_base_impl.h, pad_3510_impl.h):
// - width * sizeof(T) a multiple of 32 (the rows are already aligned): dst is a copy of the
//   height * width elements, then in every row the rightPad elements from column srcOriWidth on
//   are set to padValue (the last 32-byte block's masked Duplicate). leftPad is not used.
// - otherwise (src is height compact rows of width elements): dst row j, of
//   width + leftPad + rightPad elements (a multiple of 32 bytes), is leftPad padValues, src's
//   row j, rightPad padValues. On arch 3510 the right pad starts at column srcOriWidth of the row
//   (the register-based implementation's mask), which is the same when srcOriWidth == width.
// padValue (int32_t) is converted to T as static_cast<T> does.
// UnPad (GatherMask with the all-ones pattern on 2201, unaligned stores on 3510): dst holds, row
// after row, the first width - rightPad elements of src's rows; leftPad is not used, as on the
// device.
//
// Checked mode: leftPad and rightPad each below 32 bytes; aligned rows need srcWidth !=
// srcOriWidth, leftPad == 0 and rightPad != 0; unaligned rows need (width + leftPad + rightPad)
// * sizeof(T) a multiple of 32; the scratch at least what the tiling lays out (two regions of
// tmpBuffer1BlockNum * 512 bytes) when the rows are unaligned on 2201/2002; operands 32-byte
// aligned. Operand sizes are checked in both modes.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>

#include "kernel_tiling/kernel_tiling.h"
#include "lib/math/math_common.h"
#include "lib/pad/transform_common.h"
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

template <typename T>
void PadRows(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
             const AscendC::PadParams& p, const AscendC::tiling::PadTiling& t,
             const AscendC::LocalTensor<uint8_t>& tmp, SrcLoc loc) {
  static_assert(kPadType<T>, "Pad: T must be int16_t, uint16_t, int32_t, uint32_t, half or float");
  constexpr const char* api = "Pad";
  const uint64_t h = t.srcHeight, w = t.srcWidth;
  const bool aligned = w * sizeof(T) % 32 == 0;
  CheckPadParams<T>(p, t, aligned);
  const uint64_t out_w = aligned ? w : w + p.leftPad + p.rightPad;
  td::RequireElems(src, h * w, api, "srcTensor");
  td::RequireElems(dst, h * out_w, api, "dstTensor");
  if (!aligned && detail::rep::RunningArch() != NpuArch::k3510) {
    const uint64_t need = uint64_t{t.tmpBuffer1BlockNum} * 2 * 512;
    td::Require(need != 0, api, "tiling.tmpBuffer1BlockNum is 0 (PadTilingFunc without scratch)");
    td::Require(tmp.View().size_bytes >= need, api,
                "the scratch holds " + std::to_string(tmp.View().size_bytes) +
                    " bytes, less than the " + std::to_string(need) + " the tiling lays out");
  }
  td::RecordMove(api, loc, {{src.HostPtr(), h * w * sizeof(T)}},
                 {{dst.HostPtr(), h * out_w * sizeof(T)}});
  const T* in = src.HostPtr();
  T* out = dst.HostPtr();
  const T pad = static_cast<T>(p.padValue);
  const bool reg_base = detail::rep::RunningArch() == NpuArch::k3510;
  for (uint64_t r = 0; r < h; ++r) {
    T* row = out + r * out_w;
    const T* s = in + r * w;
    if (aligned) {
      for (uint64_t c = 0; c < w; ++c) row[c] = s[c];
      for (uint64_t c = t.srcOriWidth; c < t.srcOriWidth + p.rightPad && c < w; ++c) row[c] = pad;
      continue;
    }
    for (uint64_t c = 0; c < p.leftPad; ++c) row[c] = pad;
    const uint64_t pad_from = reg_base ? t.srcOriWidth : w;
    for (uint64_t c = 0; c < w + p.rightPad; ++c) {
      const bool is_pad = c >= w || (c >= pad_from && c < pad_from + p.rightPad);
      row[p.leftPad + c] = is_pad ? pad : s[c];
    }
  }
}

template <typename T>
void UnPadRows(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
               const AscendC::UnPadParams& p, const AscendC::tiling::UnPadTiling& t, SrcLoc loc) {
  static_assert(kPadType<T>,
                "UnPad: T must be int16_t, uint16_t, int32_t, uint32_t, half or float");
  constexpr const char* api = "UnPad";
  const uint64_t h = t.srcHeight, w = t.srcWidth;
  td::Require(w * sizeof(T) % 32 == 0, api, "srcWidth * sizeof(T) must be a multiple of 32");
  td::Require(p.rightPad * sizeof(T) < 32, api,
              "unPadParams.rightPad * sizeof(T) must be below 32");
  td::Require(p.rightPad < w, api, "unPadParams.rightPad must be below srcWidth");
  const uint64_t out_w = w > p.rightPad ? w - p.rightPad : 0;
  td::RequireElems(src, h * w, api, "srcTensor");
  td::RequireElems(dst, h * out_w, api, "dstTensor");
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
  (void)sharedTmpBuffer;  // 2201 and 3510 use none (GetUnPadMaxMinTmpSize gives 0)
  lngrad::aicore::pad_detail::UnPadRows(dstTensor, srcTensor, unPadParams, tiling, loc);
}

template <typename T>
void UnPad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
           UnPadParams& unPadParams, UnPadTiling& tiling,
           lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::aicore::pad_detail::UnPadRows(dstTensor, srcTensor, unPadParams, tiling, loc);
}

}  // namespace AscendC
