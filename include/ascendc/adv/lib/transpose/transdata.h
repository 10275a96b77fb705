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
//   P - HW columns of each NCDHW row are written too: 0 from FRACTAL_Z_3D (the sequence pads
//   the fractal with zeros first), from NDC1HWC0 the scratch's staging bytes there, which the
//   sequence never writes (what the scratch held before the call, or an earlier n's).
// The route is the kit's instruction sequence (Seq below: its TransDataTo5HD passes, UB -> UB
// DataCopys and zero Duplicates over src, dst and the scratch, with the kit's offsets and its
// narrowing into uint8_t repeat counts and uint16_t copy fields), so dst and the scratch
// (sharedTmpBuffer or the stack buffer) hold what the device leaves there, byte for byte
// (replay.TransDataScratch.*). T: the four 2-byte types the page lists (int16_t, uint16_t,
// half, bfloat16_t; no 1-byte or 4-byte T there); products: Ascend 950 and Atlas A2/A3 (arch
// 3510, 2201), elsewhere the kit compiles the call to nothing: lngrad refuses it in checked
// mode and leaves the outputs. Checked mode: the scratch holds GetTransDataMaxMinTmpSize's size
// (both overloads: the stack buffer too); the shapes of the two layouts agree (5 dims for NCDHW, 7
// for FRACTAL_Z_3D, 6 for NDC1HWC0); operand sizes are checked in both modes.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
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

// The conversion's instruction sequence (transdata_impl.h) over three windows of 16-bit
// elements: src, dst and the scratch. Each step is lngrad's element map of the instruction:
// - Trans: TransDataTo5HD, 16-bit, repeatTimes a uint8_t (the sequence's count narrowed as the
//   kit narrows it; 0 does nothing), repeat r's source block k at src[k] + 16 r srcRep and
//   destination block j at dst[j] + 16 r dstRep elements, element k of block j = element j of
//   block k; one repeat's 16 source blocks are read before its blocks are written;
// - Copy: DataCopy UB -> UB, blockCount blocks of blockLen 32-byte blocks (uint16_t fields),
//   each block's source and destination advancing by blockLen + stride;
// - Zero: Duplicate of 0 over count elements.
// Every block must lie inside the window its address was built from (ub_bounds otherwise, both
// modes).
struct Win {
  uint16_t* p;
  uint64_t n;
  const char* name;
};
struct At {
  int w;  // 0 src, 1 dst, 2 the scratch
  int64_t e;
};

class Seq {
 public:
  Seq(Win src, Win dst, Win tmp) : w_{src, dst, tmp} {}

  uint16_t* Block(At a, int64_t extra, uint64_t elems) {
    const Win& w = w_[a.w];
    const int64_t at = a.e + extra;
    if (at < 0 || static_cast<uint64_t>(at) + elems > w.n) {
      RaiseKernelCheck(checks::kUbBounds,
                       std::string("TransData: a step reaches elements [") + std::to_string(at) +
                           ", " + std::to_string(at + static_cast<int64_t>(elems)) + ") of " +
                           w.name + ", which holds " + std::to_string(w.n));
    }
    return w.p + at;
  }

  // The kit's rule: repeat 1 (after narrowing) takes strides 0.
  void Trans(const At (&d)[16], const At (&s)[16], int32_t repeat, int32_t dst_rep,
             int32_t src_rep) {
    const auto rep = static_cast<uint8_t>(repeat);
    const int64_t ds = rep == 1 ? 0 : static_cast<uint16_t>(dst_rep);
    const int64_t ss = rep == 1 ? 0 : static_cast<uint16_t>(src_rep);
    for (int64_t r = 0; r < rep; ++r) {
      uint16_t in[16][16];
      for (int k = 0; k < 16; ++k) std::memcpy(in[k], Block(s[k], 16 * r * ss, 16), 32);
      for (int j = 0; j < 16; ++j) {
        uint16_t* o = Block(d[j], 16 * r * ds, 16);
        for (int k = 0; k < 16; ++k) o[k] = in[k][j];
      }
    }
  }

  void Copy(At d, At s, int32_t count, int32_t len, int32_t src_stride, int32_t dst_stride) {
    const auto c = static_cast<uint16_t>(count), l = static_cast<uint16_t>(len);
    const int64_t sp = 16 * (int64_t{l} + static_cast<uint16_t>(src_stride));
    const int64_t dp = 16 * (int64_t{l} + static_cast<uint16_t>(dst_stride));
    for (int64_t b = 0; b < c; ++b) {
      const uint16_t* from = Block(s, b * sp, 16u * l);
      std::memmove(Block(d, b * dp, 16u * l), from, 32u * l);
    }
  }

  void Zero(At d, int32_t count) {
    if (count > 0) std::memset(Block(d, 0, static_cast<uint64_t>(count)), 0, 2 * uint64_t(count));
  }

 private:
  Win w_[3];
};

inline int32_t I32(uint64_t v) { return static_cast<int32_t>(v); }

// NCDHW -> FRACTAL_Z_3D: zeros at the scratch's start (the rows past n and c read them); n1
// transposes splitting N into the scratch (or dst when HW is a multiple of 16); a copy dropping
// the padded HW columns into dst; c1 transposes splitting C into the scratch; a copy of each C1
// slab into dst's D-major order.
inline void ToFractal(Seq& q, const Ncdhw& s) {
  const int32_t n = I32(s.n), c = I32(s.c), d = I32(s.d), hw = I32(s.hw), n1 = I32(s.n1),
                c1 = I32(s.c1), pad = I32(s.pad_hw);
  int32_t axis = c * d * pad;
  const int32_t zeros = std::max(axis, d * hw * n1 * 16);
  q.Zero({2, 0}, zeros);
  const bool padded = pad != hw;
  At dl[16], sl[16];
  for (int32_t j = 0; j < n1; ++j) {
    const At base = padded ? At{2, int64_t{zeros} + 16 * j} : At{1, 16 * int64_t{j}};
    const int32_t rows = j == n1 - 1 ? n - 16 * j : 16;
    for (int i = 0; i < 16; ++i) {
      dl[i] = {base.w, base.e + int64_t{i} * n1 * 16};
      sl[i] = i < rows ? At{0, (int64_t{j} * 16 + i) * axis} : At{2, 0};
    }
    q.Trans(dl, sl, axis / 16, n1 * 16, 1);
  }
  if (padded) {
    axis = hw * n1 * 16;
    q.Copy({1, 0}, {2, zeros}, c * d, axis / 16, (pad - hw) * n1, 0);
  }
  axis = d * hw * n1 * 16;
  for (int32_t j = 0; j < c1; ++j) {
    const int64_t off = int64_t{j} * axis * 16;
    const int32_t rows = j == c1 - 1 ? c - 16 * j : 16;
    for (int i = 0; i < 16; ++i) {
      dl[i] = {2, zeros + off + 16 * i};
      sl[i] = i < rows ? At{1, off + int64_t{i} * axis} : At{2, 0};
    }
    q.Trans(dl, sl, axis / 16, 16, 1);
  }
  axis = 16 * hw * n1 * 16;
  for (int32_t i = 0; i < c1; ++i) {
    q.Copy({1, int64_t{i} * axis}, {2, zeros + int64_t{i} * d * axis}, d, axis / 16, 0,
           (c1 - 1) * axis / 16);
  }
}

// NCDHW -> NDC1HWC0, per n: c1 transposes of the C x DP rows into the scratch after D * P zeros
// (rows past c read them), then each C1 slab copied into dst without the padded HW columns.
inline void To6Hd(Seq& q, const Ncdhw& s) {
  const int32_t c = I32(s.c), d = I32(s.d), hw = I32(s.hw), c1 = I32(s.c1), pad = I32(s.pad_hw);
  const int32_t pd = pad * d, slab = pd * 16, hwc0 = hw * 16;
  q.Zero({2, 0}, pd);
  At dl[16], sl[16];
  for (int32_t k = 0; k < I32(s.n); ++k) {
    for (int32_t j = 0; j < c1; ++j) {
      const int32_t rows = j == c1 - 1 ? c - 16 * j : 16;
      for (int i = 0; i < 16; ++i) {
        dl[i] = {2, pd + int64_t{j} * slab + 16 * i};
        sl[i] =
            i < rows ? At{0, int64_t{k} * pd * c + int64_t{j} * slab + int64_t{i} * pd} : At{2, 0};
      }
      q.Trans(dl, sl, pd / 16, 16, 1);
    }
    for (int32_t i = 0; i < c1; ++i) {
      q.Copy({1, int64_t{k} * hwc0 * c1 * d + int64_t{i} * hwc0}, {2, pd + int64_t{i} * slab}, d,
             hwc0 / 16, pad - hw, (c1 - 1) * hw);
    }
  }
}

// NDC1HWC0 -> NCDHW, per n: each D slice's C1 x HW x C0 copied into the scratch from byte 512
// (C1-major, P columns a slab row: the P - HW tails not written), then c1 transposes into dst's
// C rows of D * P elements (tails included); the rows past c go to the scratch's first 512
// bytes, block i at byte 32 i, one block further each repeat.
inline void From6Hd(Seq& q, const Ncdhw& s) {
  const int32_t c = I32(s.c), d = I32(s.d), hw = I32(s.hw), c1 = I32(s.c1), pad = I32(s.pad_hw);
  const int32_t pd = pad * d, slab = pd * 16, hwc0 = hw * 16, t0 = 256;
  At dl[16], sl[16];
  for (int32_t k = 0; k < I32(s.n); ++k) {
    for (int32_t i = 0; i < d; ++i) {
      q.Copy({2, t0 + int64_t{i} * pad * 16},
             {0, int64_t{k} * hwc0 * c1 * d + int64_t{i} * hwc0 * c1}, c1, hwc0 / 16, 0,
             (d * pad - hw));
    }
    for (int32_t j = 0; j < c1; ++j) {
      const int32_t rows = j == c1 - 1 ? c - 16 * j : 16;
      for (int i = 0; i < 16; ++i) {
        dl[i] = i < rows ? At{1, int64_t{k} * pd * c + int64_t{j} * slab + int64_t{i} * pd}
                         : At{2, 16 * int64_t{i}};
        sl[i] = {2, t0 + int64_t{j} * slab + 16 * i};
      }
      q.Trans(dl, sl, pd / 16, 1, 16);
    }
  }
}

// FRACTAL_Z_3D -> NCDHW: the fractal zero-padded to P columns and made C1-major (in dst when n
// and c are multiples of 16, else in the scratch), transposed C0-major into the scratch (after
// that copy when not aligned), then transposed into dst's N rows; the rows past n go to the
// scratch's start (block i at element 32 i, one block further each repeat).
inline void FromFractal(Seq& q, const Ncdhw& s) {
  const int32_t n = I32(s.n), c = I32(s.c), d = I32(s.d), hw = I32(s.hw), n1 = I32(s.n1),
                c1 = I32(s.c1), pad = I32(s.pad_hw);
  const bool aligned = c == c1 * 16 && n == n1 * 16;
  const int w = aligned ? 1 : 2;
  const int32_t row = n1 * 256, at_pad = pad * row, last = hw * row;
  q.Zero({w, 0}, c1 * d * pad * row);
  for (int32_t d0 = 0; d0 < d; ++d0) {
    q.Copy({w, int64_t{d0} * at_pad}, {0, int64_t{d0} * c1 * last}, c1, last / 16, 0,
           ((d - 1) * at_pad + (pad - hw) * row) / 16);
  }
  const int64_t b = aligned ? 0 : int64_t{n1} * 16 * c1 * 16 * d * pad;
  At dl[16], sl[16];
  for (int32_t j = 0; j < c1; ++j) {
    const int64_t out = int64_t{j} * d * pad * row;
    for (int i = 0; i < 16; ++i) {
      sl[i] = {w, out + 16 * i};
      dl[i] = {2, b + out + int64_t{i} * d * pad * n1 * 16};
    }
    q.Trans(dl, sl, d * pad * n1, 1, 16);
  }
  int32_t left = n;
  for (int32_t j = 0; j < n1; ++j) {
    for (int i = 0; i < 16; ++i) {
      dl[i] = left < 16 && i >= left
                  ? At{2, 32 * int64_t{i}}
                  : At{1, int64_t{j} * d * c * pad * 16 + int64_t{i} * c * d * pad};
      sl[i] = {2, b + int64_t{j} * 16 + int64_t{i} * 16 * n1};
    }
    q.Trans(dl, sl, c * d * pad / 16, 1, n1 * 16);
    left -= 16;
  }
}

template <typename T, DataFormat other, bool to_other>
void Move(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
          const AscendC::LocalTensor<uint8_t>& tmp, const Ncdhw& s, SrcLoc loc) {
  constexpr const char* api = "TransData";
  constexpr bool fractal = other == DataFormat::FRACTAL_Z_3D;
  const uint64_t n_all = fractal ? s.n1 * 16 : s.n;
  const uint64_t nc_n = s.n * s.c * s.d * s.pad_hw, other_n = n_all * s.c1 * 16 * s.d * s.hw;
  const uint64_t src_n = to_other ? nc_n : other_n, dst_n = to_other ? other_n : nc_n;
  td::RequireElems(src, src_n, api, "srcTensor");
  td::RequireElems(dst, dst_n, api, "dstTensor");
  const uint64_t tmp_n = tmp.View().size_bytes / 2;
  // The sanitizer sees the real elements read (the NCDHW side's HW of each P-element row) and
  // dst and the scratch's bytes the sequence lays out written.
  const td::Span rows{src.HostPtr(), s.hw * sizeof(T), s.n * s.c * s.d, s.pad_hw * sizeof(T)};
  const td::Span whole{src.HostPtr(), src_n * sizeof(T)};
  td::RecordMove(
      api, loc, {to_other ? rows : whole},
      {{dst.HostPtr(), dst_n * sizeof(T)},
       {tmp.HostPtr(), std::min<uint64_t>(ScratchBytes<other, to_other>(s), 2 * tmp_n)}});
  Seq q({reinterpret_cast<uint16_t*>(src.HostPtr()), src.View().size_bytes / 2, "srcTensor"},
        {reinterpret_cast<uint16_t*>(dst.HostPtr()), dst.View().size_bytes / 2, "dstTensor"},
        {reinterpret_cast<uint16_t*>(tmp.HostPtr()), tmp_n, "sharedTmpBuffer"});
  if constexpr (fractal) {
    to_other ? ToFractal(q, s) : FromFractal(q, s);
  } else {
    to_other ? To6Hd(q, s) : From6Hd(q, s);
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
  tdd::Move<T, other, from_ncdhw>(dstTensor, srcTensor, sharedTmpBuffer, s, loc);
}

template <const TransDataConfig& config, typename T, typename U, typename S>
void TransData(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
               const TransDataParams<U, S>& params,
               lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  TransData<config, T, U, S>(dstTensor, srcTensor, lngrad::aicore::math_detail::StackTmp(), params,
                             loc);
}

}  // namespace AscendC
