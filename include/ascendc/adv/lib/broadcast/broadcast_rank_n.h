// lngrad: the rank-N Broadcast of arch 3510 (the vendor's adv_api/pad/broadcast.h):
// GetBroadcastTilingInfo<T, constRank, constDstShape, constSrcShape>(rank, dstShape, srcShape,
// srcInnerPad, tiling) and Broadcast<T, constRank, constDstShape, constSrcShape,
// constSrcInnerPad>(dst, src, dstShape, srcShape, &tiling), for 1-, 2-, 4- and 8-byte T, rank 1
// to 9, numpy's broadcasting of a compact src into a compact dst.
//
// The tiling (broadcast_common_impl.h, GetBroadcastTilingInfoImpl): the original shapes; with
// constRank -1 or above 4, neighbouring dims fused into runs of broadcast dims (src 1, dst not)
// and runs of equal dims, the fused shape in dstShape[0, rank) and 1 in [oriRank, 9) (entries in
// between keep the original dims, as on the device); 8-byte T, when src and dst sizes differ,
// as pairs of 4-byte units (one more dim of 2, or the last dim doubled, or at rank 9 a loop over
// dim 0: loopNum and srcStride[9]); strides from the last dim, 0 for a broadcast dim. srcInnerPad
// is not read (as on the device).
// Broadcast (broadcast_common_impl.h, BroadcastCompute): equal sizes copy the element count
// rounded up to 32 bytes (DataCopy); otherwise every dst unit from the tiling's strides. The
// results are exact copies.
// Checked mode (transform_params): arch 3510 only (elsewhere the toolkit compiles both to
// nothing; lngrad leaves the outputs as they were when not checked); rank in [1, 9] and equal to
// constRank when that is set; every src dim 1 or the dst dim; the tiling's original shapes equal
// to the shapes passed; every fused dst dim at most 65536 (DstShapeCheck, before any branch:
// equal sizes too). Operand sizes are checked in both modes.
// The 950's register paths (broadcast_3510_impl.h, broadcast_gather_3510_impl.h) write exactly
// these units except where their 16-bit fields wrap: 1-byte units on the 3-dim gather path
// (GatherWrapper: 3 fused dims, the last below 128) gather through uint16_t index lanes, so a
// unit whose src offset passes 65535 reads src at the offset modulo 65536, which lngrad follows;
// a fused dim of exactly 65536 (DstShapeCheck admits it) reads 0 in the paths' 16-bit sizes:
// the 2- and 4-dim wrappers and the dynamic path write nothing, which unchecked mode follows,
// GatherWrapper (3 dims, a last dim below half a register) gathers a dim 0 or 1 of 65536 right
// (followed in both modes) and divides by 0 with a last dim of 65536 (undefined: unchecked,
// lngrad writes the broadcast); checked mode refuses where the device's result is not the
// broadcast, saying that it reads 0 for that dim (equal sizes and one src element count in 32
// bits and keep it). docs/ascendc_kernels.md, "Tensor transform"; tested in
// tests/replay/broadcast_rank_n_3510_replay_test.cpp.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>

#include "lib/broadcast/broadcast_utils.h"
#include "lib/pad/transform_common.h"
#include "lngrad_aicore/repeat_base.h"

namespace lngrad::aicore::broadcast_detail {

namespace td = lngrad::aicore::transform_detail;

inline constexpr uint32_t kMaxRank = 9;

inline bool RankNRunsHere(const char* api) {
  const bool ok = detail::rep::RunningArch() == NpuArch::k3510;
  td::Require(ok, api, "the rank-N form with BroadcastTiling runs on arch 3510 only");
  return ok;
}

// BroadcastInternal::DstShapeCheck (arch 3510): every dst dim at most 65536, as the register
// code keeps the dims in 16 bits.
inline void RequireU16Dims(const uint32_t* dst, uint32_t n, const char* api) {
  for (uint32_t d = 0; d < n; ++d) {
    td::Require(dst[d] <= 65536, api,
                "shape should be less than uint16 max: dst dim " + std::to_string(d) + " is " +
                    std::to_string(dst[d]) + ", above 65536");
  }
}

// What the 950's register paths do with a dst dim of 65536, which DstShapeCheck admits and
// their 16-bit sizes read as 0 (broadcast_3510_impl.h, broadcast_gather_3510_impl.h).
enum class Dim65536 {
  kNone,     // no such dim, or a path that computes the broadcast with it
  kNothing,  // the 2- and 4-dim wrappers, the dynamic path: loops of 0, masks of 0 lanes
  kDivides,  // GatherWrapper with a last dim of 65536: vlTile1 = VL / 65536 = 0, a divisor
};

// The kind for tiling t of U units (not equal sizes, not one src element). Fused rank 3 with a
// 16-bit last dim below half a register (and not BrcLastE2B's block of 2- and 4-byte units)
// takes GatherWrapper, whose sizes are 32 bits: a last dim of 65536 divides by 0 there, a dim of
// 65536 before it is gathered right (where the UB holds the operands: 1-byte units, at most 3
// per row of 65536). Every other register path loops over 16-bit sizes and writes nothing.
template <typename U>
Dim65536 Dim65536Effect(const AscendC::BroadcastTiling& t) {
  bool any = false;
  for (uint32_t d = 0; d < t.rank; ++d) any = any || t.dstShape[d] == 65536;
  if (!any) return Dim65536::kNone;
  if (t.rank == 3) {
    constexpr uint32_t vl = 256 / sizeof(U), blk = 32 / sizeof(U);
    const uint32_t z1 = static_cast<uint16_t>(t.dstShape[1]);
    const uint32_t z2 = static_cast<uint16_t>(t.dstShape[2]);
    const bool e2b = t.srcStride[2] == 0 && sizeof(U) != 1 && z2 == blk && z1 * z2 > vl / 2 &&
                     z1 % 8 == 0 && static_cast<uint16_t>(t.srcStride[1]) != 0;
    if (!e2b && z2 < vl / 2) return t.dstShape[2] == 65536 ? Dim65536::kDivides : Dim65536::kNone;
  }
  return Dim65536::kNothing;
}

// Checked mode refuses a dim of 65536 where the device's result is not the broadcast (the kit
// asserts nothing there), naming what it does.
inline void RequireNo16BitZero(Dim65536 e, const uint32_t* dst, uint32_t n, const char* api) {
  if (e == Dim65536::kNone) return;
  uint32_t d = 0;
  while (d + 1 < n && dst[d] != 65536) ++d;
  td::Require(false, api,
              "dst dim " + std::to_string(d) +
                  " is 65536: DstShapeCheck admits it, but the device reads 0 for that dim "
                  "(the 950's register paths keep sizes in 16 bits), so " +
                  (e == Dim65536::kDivides
                       ? std::string("GatherWrapper divides by 0 (vlTile1 = VL / 65536)")
                       : std::string("the register path writes nothing to dst")));
}

inline void CheckShapes(uint32_t rank, int const_rank, const uint32_t* dst, const uint32_t* src,
                        const char* api) {
  td::Require(rank >= 1 && rank <= kMaxRank, api, "rank should be in range [1, 9]");
  td::Require(const_rank == -1 || static_cast<uint32_t>(const_rank) == rank, api,
              "constRank should be equal to rank when constRank != -1");
  for (uint32_t i = 0; i < std::min(rank, kMaxRank); ++i) {
    td::Require(src[i] == dst[i] || src[i] == 1, api,
                "srcShape[" + std::to_string(i) + "] = " + std::to_string(src[i]) +
                    " cannot broadcast to dstShape[" + std::to_string(i) +
                    "] = " + std::to_string(dst[i]));
  }
}

// Fuses runs of broadcast dims and runs of equal dims of t.dstShape / src (the first oriRank
// entries); returns the fused rank.
inline uint32_t FuseDims(AscendC::BroadcastTiling& t, uint32_t* src) {
  const uint32_t n = t.oriRank;
  uint32_t count = 0, i = 0;
  const auto take_run = [&](auto in_run, bool broadcast) {
    uint32_t size = 1, begin = i;
    while (i < n && in_run(i)) size *= t.dstShape[i++];
    if (i == begin) return;
    t.dstShape[count] = size;
    src[count] = broadcast ? 1 : size;
    ++count;
  };
  while (i < n) {
    take_run([&](uint32_t k) { return src[k] == 1 && t.dstShape[k] != 1; }, true);
    take_run([&](uint32_t k) { return src[k] == t.dstShape[k]; }, false);
  }
  for (; i < kMaxRank; ++i) t.dstShape[i] = src[i] = 1;
  return count;
}

// 8-byte data as pairs of 4-byte units (sizes differ only).
inline uint32_t SplitB64(AscendC::BroadcastTiling& t, uint32_t* src, uint32_t rank) {
  if (src[rank - 1] == 1 && t.dstShape[rank - 1] != 1) {
    if (rank < kMaxRank) {
      t.dstShape[rank] = src[rank] = 2;
      ++rank;
    } else {
      t.loopNum = t.dstShape[0];
    }
  } else {
    src[rank - 1] *= 2;
    t.dstShape[rank - 1] *= 2;
  }
  t.srcSize *= 2;
  t.dstSize *= 2;
  return rank;
}

inline void SetStrides(AscendC::BroadcastTiling& t, uint32_t* src) {
  bool outer_broadcast = false;
  if (t.loopNum != 0) {  // dim 0 becomes the loop: the rest moves up, a pair of units last
    outer_broadcast = src[0] == 1 && t.dstShape[0] != 1;
    if (outer_broadcast) t.srcStride[kMaxRank] = 0;
    for (uint32_t i = 0; i + 1 < kMaxRank; ++i) {
      t.dstShape[i] = t.dstShape[i + 1];
      src[i] = src[i + 1];
    }
    t.dstShape[kMaxRank - 1] = src[kMaxRank - 1] = 2;
  }
  uint32_t src_stride = 1, dst_stride = 1;
  for (uint32_t i = std::min(t.rank, kMaxRank); i-- > 0;) {
    t.dstStride[i] = dst_stride;
    dst_stride *= t.dstShape[i];
    const bool broadcast = src[i] == 1 && t.dstShape[i] != 1;
    t.srcStride[i] = broadcast ? 0 : src_stride;
    if (!broadcast) src_stride *= src[i];
  }
  if (t.loopNum != 0 && !outer_broadcast) t.srcStride[kMaxRank] = src_stride;
}

// The 3-dim gather path of 1-byte units (BrcLast/NlastWrapperForThreeDim -> GatherWrapper:
// 3 fused dims, the last below 128 as uint16_t): VfGenIndexB8 and VfGatherBrcB8 keep the src
// offset in uint16_t lanes, so the device reads src at the offset modulo 65536.
template <typename U>
bool Gathers16Bit(const AscendC::BroadcastTiling& t) {
  return sizeof(U) == 1 && t.rank == 3 && static_cast<uint16_t>(t.dstShape[2]) < 128;
}

// Copies unit u of dst from the tiling's strides: dims [0, rank) of t.dstShape, loop h over
// max(loopNum, 1); the src offset modulo 65536 on the 16-bit gather path.
template <typename U>
void Scatter(U* out, const U* in, const AscendC::BroadcastTiling& t) {
  const uint32_t rank = t.rank, loops = std::max<uint32_t>(t.loopNum, 1);
  const uint64_t offset_mask = Gathers16Bit<U>(t) ? 0xFFFFu : ~uint64_t{0};
  const uint64_t block = uint64_t{t.dstStride[0]} * t.dstShape[0];
  uint32_t idx[kMaxRank] = {};
  for (uint32_t h = 0; h < loops; ++h) {
    const uint64_t dst0 = h * block, src0 = t.loopNum != 0 ? uint64_t{h} * t.srcStride[9] : 0;
    for (uint64_t k = 0; k < block; ++k) {
      uint64_t from = src0, rest = k;
      for (uint32_t d = 0; d < rank; ++d) {
        idx[d] = static_cast<uint32_t>(rest / t.dstStride[d]);
        rest %= t.dstStride[d];
        from += uint64_t{idx[d]} * t.srcStride[d];
      }
      out[dst0 + k] = in[from & offset_mask];
    }
  }
}

// The units src spans under the tiling's strides (the highest one read, plus one).
inline uint64_t SrcUnits(const AscendC::BroadcastTiling& t) {
  uint64_t last = 0;
  for (uint32_t d = 0; d < t.rank; ++d) last += uint64_t{t.dstShape[d] - 1} * t.srcStride[d];
  if (t.loopNum != 0) last += uint64_t{t.loopNum - 1} * t.srcStride[9];
  return last + 1;
}

}  // namespace lngrad::aicore::broadcast_detail

namespace AscendC {

template <typename T, int constRank = -1, uint32_t* constDstShape = nullptr,
          uint32_t* constSrcShape = nullptr>
void GetBroadcastTilingInfo(uint32_t rank, const uint32_t* dstShape, const uint32_t* srcShape,
                            bool srcInnerPad, BroadcastTiling& tiling) {
  namespace bd = lngrad::aicore::broadcast_detail;
  static_assert(constRank == -1 || (constRank > 0 && constRank <= 9),
                "constRank only supports -1 and the range between 1 and 9");
  (void)srcInnerPad;
  constexpr const char* api = "GetBroadcastTilingInfo";
  if (!bd::RankNRunsHere(api)) return;
  bd::CheckShapes(rank, constRank, dstShape, srcShape, api);
  rank = std::min(rank, bd::kMaxRank);
  uint32_t src[bd::kMaxRank];
  tiling.srcSize = tiling.dstSize = 1;
  for (uint32_t i = 0; i < rank; ++i) {
    tiling.dstShape[i] = tiling.oriDstShape[i] = dstShape[i];
    src[i] = tiling.oriSrcShape[i] = srcShape[i];
    tiling.srcSize *= srcShape[i];
    tiling.dstSize *= dstShape[i];
  }
  tiling.oriRank = rank;
  if constexpr (constRank == -1 || constRank > 4) rank = bd::FuseDims(tiling, src);
  if (sizeof(T) == 8 && tiling.srcSize != tiling.dstSize) rank = bd::SplitB64(tiling, src, rank);
  tiling.rank = rank;
  bd::SetStrides(tiling, src);
}

template <typename T, int constRank = -1, uint32_t* constDstShape = nullptr,
          uint32_t* constSrcShape = nullptr, bool constSrcInnerPad = false>
void Broadcast(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t* dstShape,
               const uint32_t* srcShape, BroadcastTiling* tiling,
               lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  namespace bd = lngrad::aicore::broadcast_detail;
  namespace td = lngrad::aicore::transform_detail;
  static_assert(constRank == -1 || (constRank > 0 && constRank <= 9),
                "constRank only supports -1 and the range between 1 and 9");
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8,
                "Broadcast only supports type b8/b16/b32/b64");
  constexpr const char* api = "Broadcast";
  if (!bd::RankNRunsHere(api)) return;
  td::Require(tiling != nullptr, api, "BroadcastTiling could not be empty");
  if (tiling == nullptr) return;
  const BroadcastTiling& t = *tiling;
  td::Require(constRank == -1 || t.oriRank == static_cast<uint32_t>(constRank), api,
              "the tiling's oriRank and constRank should be equal");
  td::Require(t.rank >= 1 && t.rank <= 9 && t.oriRank >= 1 && t.oriRank <= 9, api,
              "the tiling's rank and oriRank should be in range [1, 9] (GetBroadcastTilingInfo)");
  if (t.rank < 1 || t.rank > 9 || t.oriRank > 9) return;
  for (uint32_t i = 0; i < t.oriRank; ++i) {
    td::Require(t.oriDstShape[i] == dstShape[i] && t.oriSrcShape[i] == srcShape[i], api,
                "the tiling's shapes should be equal to dstShape and srcShape (dim " +
                    std::to_string(i) + ")");
  }
  bd::RequireU16Dims(t.dstShape, t.rank, api);  // before any branch, as DstShapeCheck
  using U = std::conditional_t<sizeof(T) == 8, uint32_t, T>;
  constexpr uint64_t unit = sizeof(U);
  if (t.srcSize == t.dstSize) {
    const uint64_t n = (uint64_t{t.dstSize} * sizeof(T) + 31) / 32 * 32 / sizeof(T);
    td::RequireElems(src, n, api, "src");
    td::RequireElems(dst, n, api, "dst");
    td::RecordMove(api, loc, {{src.HostPtr(), n * sizeof(T)}}, {{dst.HostPtr(), n * sizeof(T)}});
    std::memmove(dst.HostPtr(), src.HostPtr(), n * sizeof(T));
    return;
  }
  const bd::Dim65536 zero =
      t.srcSize != 1 ? bd::Dim65536Effect<U>(t) : bd::Dim65536::kNone;  // BrcDuplicate: 32 bits
  bd::RequireNo16BitZero(zero, t.dstShape, t.rank, api);
  // Unchecked: as the device, nothing read or written; where it divides by 0 (undefined),
  // lngrad writes the broadcast.
  if (zero == bd::Dim65536::kNothing) return;
  const uint64_t in_units = bd::SrcUnits(t), out_units = t.dstSize;  // units
  td::RequireElems(src, (in_units * unit + sizeof(T) - 1) / sizeof(T), api, "src");
  td::RequireElems(dst, (out_units * unit + sizeof(T) - 1) / sizeof(T), api, "dst");
  td::RecordMove(api, loc, {{src.HostPtr(), in_units * unit}}, {{dst.HostPtr(), out_units * unit}});
  bd::Scatter(reinterpret_cast<U*>(dst.HostPtr()), reinterpret_cast<const U*>(src.HostPtr()), t);
}

}  // namespace AscendC
