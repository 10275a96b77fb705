// lngrad: the Ascend C high-level API Broadcast (the vendor's adv_api/pad/broadcast.h), the
// 1- and 2-dim form Broadcast<T, dim, axis, isReuseSource>(dst, src, dstShape, srcShape[,
// sharedTmpBuffer]) for int8_t, uint8_t, int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t
// and float.
//
// Results (broadcast_v220_impl.h, broadcast_3510_impl.h; exact copies): dim 1 fills dst's
// dstShape[0] elements with src[0] (or copies when the shapes are equal); dim 2, axis 0:
// dst[i][j] = src[0][j] over dstShape[0] rows; axis 1: dst[i][j] = src[i][0] over dstShape[1]
// columns; equal shapes copy. dst is compact [dstShape[0], dstShape[1]]. On arch 3510
// (BroadcastCompute<T, dim>) equal sizes copy the element count rounded up to 32 bytes (its
// DataCopy), so dst's elements up to that block boundary get src's; every register path of the
// 2-dim wrappers writes exactly the dst elements (tests/replay/broadcast_3510_replay_test.cpp).
//
// Checked mode: dim 1 or 2, axis 0 or 1 (below dim), every src dim 1 or the dst dim, srcShape[axis]
// == 1; on arch 2201/2002, axis 0 of a 2-dim broadcast needs dstShape[1] * sizeof(T) a multiple
// of 32; on arch 3510 every dst dim at most 65536 (DstShapeCheck: the register code keeps the
// dims in 16 bits) and, unless the shapes are equal or src is one element, none exactly 65536
// (the device reads 0 for it: the 2-dim wrappers write nothing, as unchecked mode does); the
// scratch at least GetBroadCastMaxMinTmpSize's minimum on arch 2201 (lngrad's StackTmp for the
// overload without it). The scratch on arch 2201 holds what the kit's sequence leaves there,
// every path and type (lib/broadcast/broadcast_scratch.h); on arch 2002 too (v200's sequence),
// where checked mode also refuses what the kit asserts there (srcShape[0] * sizeof(T) a multiple
// of 32 along axis 1, equal shapes in whole 32-byte blocks, the chunk divisor) and a sequence
// that writes past the scratch; unchecked, the device's dst (equal shapes: whole blocks only;
// unaligned axis-1 rows: nothing) and, where lngrad cannot know it, a marked scratch. Operand sizes
// are checked in both modes. The rank-N form with BroadcastTiling (arch 3510):
// lib/broadcast/broadcast_rank_n.h.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include "lib/broadcast/broadcast_rank_n.h"
#include "lib/broadcast/broadcast_scratch.h"
#include "lib/math/math_common.h"
#include "lib/pad/transform_common.h"

namespace lngrad::aicore::broadcast_detail {

namespace td = lngrad::aicore::transform_detail;

template <typename T>
inline constexpr bool kBroadcastType =
    sizeof(T) == 1 || std::is_same_v<T, int16_t> || std::is_same_v<T, uint16_t> ||
    std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t> || std::is_same_v<T, int32_t> ||
    std::is_same_v<T, uint32_t> || std::is_same_v<T, float>;

// GetBroadCastMaxMinTmpSize's minimum on arch 2201 for a 2-dim broadcast along axis 1 (int8
// data is widened to int16, whose buffers the minimum adds).
template <typename T>
uint64_t MinTmpBytes(int axis, uint64_t src_n, uint64_t dst_n, uint64_t dst_cols, bool trivial) {
  const uint64_t ts = sizeof(T) == 1 ? 2 : sizeof(T), e = 32 / ts;
  const uint64_t cast = sizeof(T) == 1 ? ((src_n + 15) / 16 + (dst_n + 15) / 16) * 16 * 2 : 0;
  if (trivial) return sizeof(T) == 1 ? cast + 32 : 0;
  if (axis == 0) return 32 + cast;
  const uint64_t brcb = e * e * ts;
  if (dst_cols % e == 0) return brcb + cast;
  return brcb + e * ((dst_cols + e - 1) / e * e) * ts + cast;
}

template <typename T, int32_t dim, int32_t axis>
void Run(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
         const uint32_t* dstShape, const uint32_t* srcShape,
         const AscendC::LocalTensor<uint8_t>& tmp, SrcLoc loc) {
  static_assert(kBroadcastType<T>, "Broadcast: T is not a type the API takes");
  static_assert(dim == 1 || dim == 2, "Broadcast: dim must be 1 or 2");
  static_assert(axis == 0 || axis == 1, "Broadcast: axis must be 0 or 1");
  constexpr const char* api = "Broadcast";
  const uint64_t rows = dstShape[0], cols = dim == 2 ? dstShape[1] : 1;
  const uint64_t src_rows = srcShape[0], src_cols = dim == 2 ? srcShape[1] : 1;
  td::Require(axis < dim, api, "axis must be below dim");
  td::Require((src_rows == rows || src_rows == 1) && (src_cols == cols || src_cols == 1), api,
              "srcShape cannot broadcast to dstShape");
  const bool trivial = src_rows * src_cols == rows * cols || src_rows * src_cols == 1;
  const NpuArch arch = detail::rep::RunningArch();
  if (arch == NpuArch::k3510) RequireU16Dims(dstShape, dim, api);
  // BrcLast/NlastWrapperForTwoDim read a dim of 65536 as 0 and write nothing: checked mode
  // refuses that, unchecked mode does what the device does.
  const bool zero16 = arch == NpuArch::k3510 && !trivial &&
                      (dstShape[0] == 65536 || (dim == 2 && dstShape[1] == 65536));
  RequireNo16BitZero(zero16 ? Dim65536::kNothing : Dim65536::kNone, dstShape, dim, api);
  if (zero16) return;
  if (!trivial && dim == 2 && axis == 0 && arch != NpuArch::k3510) {
    td::Require(cols * sizeof(T) % 32 == 0, api,
                "axis 0 needs dstShape[1] * sizeof(T) a multiple of 32 on this product");
  }
  if (arch == NpuArch::k2201) {
    const uint64_t need = MinTmpBytes<T>(axis, src_rows * src_cols, rows * cols, cols, trivial);
    td::Require(tmp.View().size_bytes >= need, api,
                "the scratch holds " + std::to_string(tmp.View().size_bytes) +
                    " bytes, less than the " + std::to_string(need) +
                    " GetBroadCastMaxMinTmpSize gives as the minimum");
  }
  const uint64_t src_n = src_rows * src_cols, dst_n = rows * cols;
  if (arch == NpuArch::k3510 && src_n == dst_n) {  // BroadcastCompute's DataCopy
    const uint64_t n = (dst_n * sizeof(T) + 31) / 32 * 32 / sizeof(T);
    td::RequireElems(src, n, api, "srcLocal");
    td::RequireElems(dst, n, api, "dstLocal");
    td::RecordMove(api, loc, {{src.HostPtr(), n * sizeof(T)}}, {{dst.HostPtr(), n * sizeof(T)}});
    std::memmove(dst.HostPtr(), src.HostPtr(), n * sizeof(T));
    return;
  }
  td::RequireElems(src, src_n, api, "srcLocal");
  td::RequireElems(dst, dst_n, api, "dstLocal");
  td::RecordMove(api, loc, {{src.HostPtr(), src_n * sizeof(T)}},
                 {{dst.HostPtr(), dst_n * sizeof(T)}});
  // 2201's sequence stages in the scratch wherever GetBroadCastMaxMinTmpSize asks for one:
  // lngrad writes what it leaves there (broadcast_scratch.h). A scratch below that minimum
  // (unchecked) is not modelled: marked.
  if (arch == NpuArch::k2201) {
    const uint64_t need = MinTmpBytes<T>(axis, src_n, dst_n, cols, trivial);
    if (need != 0 && tmp.View().size_bytes < need) {
      math_detail::LeaveScratch(api, loc, tmp.View());
    } else if (need != 0) {
      Scratch2201<T, axis>(src, tmp, rows, cols, src_rows, src_cols, trivial, loc);
    }
  }
  // 2002's sequence (broadcast_v200_impl.h): its checks, its scratch, and the dst elements it
  // writes (broadcast_scratch.h).
  uint64_t dst_elems = dst_n;
  if (arch == NpuArch::k2002) {
    dst_elems = Run2002<T, dim, axis>(src, tmp, rows, cols, src_rows, src_cols, loc);
  }
  const T* in = src.HostPtr();
  T* out = dst.HostPtr();
  for (uint64_t k = 0; k < dst_elems; ++k) {
    const uint64_t i = k / cols, j = k % cols;
    const uint64_t si = src_rows == 1 ? 0 : i, sj = src_cols == 1 ? 0 : j;
    out[k] = in[si * src_cols + sj];
  }
}

}  // namespace lngrad::aicore::broadcast_detail

namespace AscendC {

template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
void Broadcast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
               const uint32_t dstShape[dim], const uint32_t srcShape[dim],
               LocalTensor<uint8_t>& sharedTmpBuffer,
               lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::aicore::broadcast_detail::Run<T, dim, axis>(dstLocal, srcLocal, dstShape, srcShape,
                                                      sharedTmpBuffer, loc);
}

template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
void Broadcast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
               const uint32_t dstShape[dim], const uint32_t srcShape[dim],
               lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::aicore::broadcast_detail::Run<T, dim, axis>(dstLocal, srcLocal, dstShape, srcShape,
                                                      lngrad::aicore::math_detail::StackTmp(), loc);
}

// The older name of Broadcast (the kit's quant_group_matmul_high_performance calls it).
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
void BroadCast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
               const uint32_t dstShape[dim], const uint32_t srcShape[dim],
               LocalTensor<uint8_t>& sharedTmpBuffer,
               lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  Broadcast<T, dim, axis, isReuseSource>(dstLocal, srcLocal, dstShape, srcShape, sharedTmpBuffer,
                                         loc);
}

}  // namespace AscendC
