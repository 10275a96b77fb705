// lngrad: the Ascend C high-level API TransData (the vendor's adv_api/transpose/transdata.h):
// format conversion between NCDHW and FRACTAL_Z_3D or NDC1HWC0 for the 2-byte types half,
// bfloat16_t, uint16_t and int16_t, TransData<config, T, U, S>(dst, src[, sharedTmpBuffer],
// params) with params = {srcLayout, dstLayout} built by MakeLayout(MakeShape(...), MakeStride()).
//
// Element moves (transdata_impl.h; exact copies, n0 = c0 = 16, n1 = ceil(n / 16), c1 =
// ceil(c / 16), HW = h * w, P = HW rounded up to 16): the NCDHW side is [n, c, d, P] in UB (each
// (n, c, d) row of HW elements starts 32-byte aligned, as DataCopyPad lays it down).
// - NCDHW -> FRACTAL_Z_3D [d, c1, HW, n1, n0, c0]: element (n, c, d, hw) moves to
//   (d, c / 16, hw, n / 16, n % 16, c % 16); the n and c padding is 0.
// - NCDHW -> NDC1HWC0 [n, d, c1, HW, c0]: (n, c, d, hw) -> (n, d, c / 16, hw, c % 16); the c
//   padding is 0.
// - FRACTAL_Z_3D -> NCDHW and NDC1HWC0 -> NCDHW: the inverse moves of the real elements; the
//   P - HW columns of each NCDHW row are left as they were (the device leaves scratch data there).
// T: the four 2-byte types the page lists (int16_t, uint16_t, half, bfloat16_t; no 1-byte or
// 4-byte T there); products: Ascend 950 and Atlas A2/A3 (arch 3510, 2201), elsewhere the kit
// compiles the call to nothing: lngrad refuses it in checked mode and leaves the outputs.
// The scratch is the caller's (or the stack buffer); its contents after the call are not
// promised. Checked mode: the scratch holds GetTransDataMaxMinTmpSize's size (both overloads:
// the stack buffer too); the shapes of the two layouts agree (5 dims for NCDHW, 7 for
// FRACTAL_Z_3D, 6 for NDC1HWC0); operand sizes are checked in both modes.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>

#include "lib/math/math_common.h"
#include "lib/pad/transform_common.h"
#include "lib/transpose/layout.h"

namespace AscendC {

template <typename T, typename U>
struct TransDataParams {
  T srcLayout;
  U dstLayout;
};

// Also declared by the host's tiling/transform/transdata_tiling.h (the toolkit's guard).
#ifndef ASCC_PARAM_TRANSDATACONFIG
#define ASCC_PARAM_TRANSDATACONFIG
struct TransDataConfig {
  DataFormat srcFormat;
  DataFormat dstFormat;
};
#endif  // ASCC_PARAM_TRANSDATACONFIG

}  // namespace AscendC

namespace lngrad::aicore::transdata_detail {

namespace td = lngrad::aicore::transform_detail;
using AscendC::DataFormat;

struct Ncdhw {
  uint64_t n, c, d, hw, n1, c1, pad_hw;
};

// Offsets of element (n, c, d, hw) in each format (c0 = n0 = 16).
inline uint64_t NcdhwAt(const Ncdhw& s, uint64_t n, uint64_t c, uint64_t d, uint64_t hw) {
  return ((n * s.c + c) * s.d + d) * s.pad_hw + hw;
}
inline uint64_t FractalAt(const Ncdhw& s, uint64_t n, uint64_t c, uint64_t d, uint64_t hw) {
  return (((d * s.c1 + c / 16) * s.hw + hw) * s.n1 + n / 16) * 256 + n % 16 * 16 + c % 16;
}
inline uint64_t Hd6At(const Ncdhw& s, uint64_t n, uint64_t c, uint64_t d, uint64_t hw) {
  return (((n * s.d + d) * s.c1 + c / 16) * s.hw + hw) * 16 + c % 16;
}

// The scratch the conversion lays out, in bytes: GetTransDataMaxMinTmpSize's one size
// (tiling/transform/transdata_tiling.h lists the four formulas).
template <DataFormat other, bool to_other>
uint64_t ScratchBytes(const Ncdhw& s) {
  constexpr uint64_t e = 2, c0 = 16;
  const uint64_t slab = s.d * s.c1 * c0 * s.pad_hw * e;  // D * C1 * C0 * P elements
  if constexpr (other == DataFormat::NDC1HWC0) {
    return to_other ? s.d * s.pad_hw * e + slab : slab + 512;
  } else if constexpr (to_other) {
    return std::max(s.c * s.d * s.pad_hw * e, s.d * s.hw * s.n1 * c0 * e) + s.n1 * c0 * slab;
  } else {
    return s.n1 * c0 * slab * (s.n % c0 == 0 && s.c % c0 == 0 ? 1 : 2);
  }
}

template <typename T, DataFormat other, bool to_other>
void Move(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, const Ncdhw& s,
          SrcLoc loc) {
  constexpr const char* api = "TransData";
  constexpr bool fractal = other == DataFormat::FRACTAL_Z_3D;
  const uint64_t n_all = fractal ? s.n1 * 16 : s.n;
  const uint64_t nc_n = s.n * s.c * s.d * s.pad_hw, other_n = n_all * s.c1 * 16 * s.d * s.hw;
  const uint64_t src_n = to_other ? nc_n : other_n, dst_n = to_other ? other_n : nc_n;
  td::RequireElems(src, src_n, api, "srcTensor");
  td::RequireElems(dst, dst_n, api, "dstTensor");
  // The NCDHW side: only the HW real elements of each P-element row are read or written.
  const td::Span rows{nullptr, s.hw * sizeof(T), s.n * s.c * s.d, s.pad_hw * sizeof(T)};
  td::Span nc_span = rows, other_span{nullptr, other_n * sizeof(T)};
  nc_span.ptr = to_other ? static_cast<const void*>(src.HostPtr()) : dst.HostPtr();
  other_span.ptr = to_other ? static_cast<const void*>(dst.HostPtr()) : src.HostPtr();
  td::RecordMove(api, loc, {to_other ? nc_span : other_span}, {to_other ? other_span : nc_span});
  const T* in = src.HostPtr();
  T* out = dst.HostPtr();
  auto at = [&](uint64_t n, uint64_t c, uint64_t d, uint64_t hw) {
    return fractal ? FractalAt(s, n, c, d, hw) : Hd6At(s, n, c, d, hw);
  };
  for (uint64_t n = 0; n < n_all; ++n) {
    for (uint64_t c = 0; c < s.c1 * 16; ++c) {
      const bool real = n < s.n && c < s.c;
      for (uint64_t d = 0; d < s.d; ++d) {
        for (uint64_t hw = 0; hw < s.hw; ++hw) {
          if (to_other) {
            out[at(n, c, d, hw)] = real ? in[NcdhwAt(s, n, c, d, hw)] : T(0);
          } else if (real) {
            out[NcdhwAt(s, n, c, d, hw)] = in[at(n, c, d, hw)];
          }
        }
      }
    }
  }
}

}  // namespace lngrad::aicore::transdata_detail

namespace AscendC {

template <const TransDataConfig& config, typename T, typename U, typename S>
void TransData(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
               const LocalTensor<uint8_t>& sharedTmpBuffer, const TransDataParams<U, S>& params,
               lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  namespace tdd = lngrad::aicore::transdata_detail;
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t> ||
                    std::is_same_v<T, uint16_t> || std::is_same_v<T, int16_t>,
                "TransData: T must be half, bfloat16_t, uint16_t or int16_t");
  static_assert(is_layout_v<U> && is_layout_v<S>, "TransData: params hold two layouts");
  constexpr bool from_ncdhw = config.srcFormat == DataFormat::NCDHW;
  constexpr DataFormat other = from_ncdhw ? config.dstFormat : config.srcFormat;
  static_assert((from_ncdhw || config.dstFormat == DataFormat::NCDHW) &&
                    (other == DataFormat::FRACTAL_Z_3D || other == DataFormat::NDC1HWC0),
                "TransData: the config converts NCDHW to or from FRACTAL_Z_3D or NDC1HWC0");
  const auto& ncdhw = [&]() -> const auto& {
    if constexpr (from_ncdhw) {
      return params.srcLayout.GetShape();
    } else {
      return params.dstLayout.GetShape();
    }
  }
  ();
  static_assert(
      Std::tuple_size<std::remove_cv_t<std::remove_reference_t<decltype(ncdhw)>>>::value == 5,
      "TransData: the NCDHW layout's shape has 5 dims");
  tdd::Ncdhw s{};
  s.n = static_cast<uint64_t>(Std::get<0>(ncdhw));
  s.c = static_cast<uint64_t>(Std::get<1>(ncdhw));
  s.d = static_cast<uint64_t>(Std::get<2>(ncdhw));
  s.hw = static_cast<uint64_t>(Std::get<3>(ncdhw)) * static_cast<uint64_t>(Std::get<4>(ncdhw));
  s.n1 = (s.n + 15) / 16;
  s.c1 = (s.c + 15) / 16;
  s.pad_hw = (s.hw + 15) / 16 * 16;
  // The page lists the 950 and Atlas A2/A3; the kit's header compiles the call to nothing on
  // the other products, so there the outputs stay as they were.
  const lngrad::NpuArch arch = lngrad::aicore::detail::rep::RunningArch();
  const bool listed = arch == lngrad::NpuArch::k3510 || arch == lngrad::NpuArch::k2201;
  lngrad::aicore::transform_detail::Require(
      listed, "TransData",
      "exists on Ascend 950 and Atlas A2/A3 (arch 3510, 2201), not on arch " +
          std::to_string(static_cast<uint32_t>(arch)) + " (the page's 产品支持情况)");
  if (!listed) return;
  const uint64_t need = tdd::ScratchBytes<other, from_ncdhw>(s);
  lngrad::aicore::transform_detail::Require(
      sharedTmpBuffer.View().size_bytes >= need, "TransData",
      "the scratch holds " + std::to_string(sharedTmpBuffer.View().size_bytes) +
          " bytes, less than the " + std::to_string(need) +
          " this conversion lays out (GetTransDataMaxMinTmpSize)");
  tdd::Move<T, other, from_ncdhw>(dstTensor, srcTensor, s, loc);
  // The conversion's staging in the scratch (those bytes of it): not modelled.
  lngrad::aicore::math_detail::LeaveScratch("TransData", loc, sharedTmpBuffer.View(), need);
}

template <const TransDataConfig& config, typename T, typename U, typename S>
void TransData(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
               const TransDataParams<U, S>& params,
               lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  TransData<config, T, U, S>(dstTensor, srcTensor, lngrad::aicore::math_detail::StackTmp(), params,
                             loc);
}

}  // namespace AscendC
