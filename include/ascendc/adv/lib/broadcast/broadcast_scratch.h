// lngrad: what Broadcast<T, dim, axis>'s arch-2201 sequence (the kit's broadcast_common_impl.h
// BroadCastCommon / BroadCastCompute and broadcast_v220_impl.h) leaves in its scratch
// (sharedTmpBuffer, or the stack buffer the overload without it pops). dst is written by the
// caller (the broadcast itself); this file writes only the scratch bytes the sequence writes.
//
// Along axis 1 (TwoDimBroadCastLastDim), for element type E (T, or half for 1-byte T), e = 32 /
// sizeof(E) elements a block, the scratch as G = its bytes / sizeof(E) elements:
// - rows of whole blocks (cols % e == 0): chunks of R = G / (e * e) * e rows; a chunk of n rows
//   puts src[first + k] over block k for k < ceil(n / 8) * 8 (Brcb, 8 rows a repeat: the last
//   chunk's final blocks get the elements that follow the chunk in memory, src's neighbours);
//   its Copy moves those blocks into dst.
// - other rows (A = ceil(cols / e) blocks, W = A * e): chunks of R = G / (e * e + e * W) * e rows;
//   the same blocks, then rows of W copies of src[first + r] at element n * e + r * W (the copy
//   buffer starts at block n, so it covers the Brcb blocks from n up); GatherMask takes dst from
//   there.
// The full chunks all write the same bytes, so the last full chunk and the tail decide them.
// Axis 0 (TwoDimBroadCastFirstDim): 16 uint16_t zeros at the start. Equal sizes and one src
// element write nothing there. 1-byte T: half(src) at element 0 (srcSize elements), the half
// result at element alignSrcSize (dstSize elements; 16-element alignments), and the half
// sequence above on the rest (the part past both; its size as the kit's tensor: the bytes less
// both offsets, halved).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "lib/pad/transform_common.h"

namespace lngrad::aicore::broadcast_detail {

// A run of the scratch, in bytes from its start, that the sequence wrote.
struct Written {
  uint64_t begin = 0, bytes = 0;
};

// The src elements the Brcb passes of an axis-1 broadcast of `rows` rows read (past rows:
// the tail chunk's repeat of 8), for a scratch of tmpElems elements of E.
template <typename E>
uint64_t LastDimChunk(uint64_t tmpElems, uint64_t cols) {
  constexpr uint64_t e = 32 / sizeof(E);
  const uint64_t w = (cols + e - 1) / e * e;
  const uint64_t per = cols % e == 0 ? e * e : e * e + e * w;
  return tmpElems / per * e;
}

template <typename E>
uint64_t LastDimSrcReach(uint64_t rows, uint64_t tmpElems, uint64_t cols) {
  const uint64_t chunk = LastDimChunk<E>(tmpElems, cols);
  if (chunk == 0 || rows == 0) return rows;
  const uint64_t tail = rows % chunk;
  return tail == 0 ? rows : rows - tail + (tail + 7) / 8 * 8;
}

// Writes the axis-1 sequence's scratch (tmp: tmpElems elements of E) for src's rows; returns
// the bytes written from tmp's start. A chunk of 0 rows (a scratch below the kit's minimum,
// unchecked) writes nothing.
template <typename E>
uint64_t LastDimScratch(const E* src, uint64_t rows, uint64_t cols, E* tmp, uint64_t tmpElems) {
  constexpr uint64_t e = 32 / sizeof(E);
  const bool whole = cols % e == 0;
  const uint64_t w = (cols + e - 1) / e * e;
  const uint64_t chunk = LastDimChunk<E>(tmpElems, cols);
  if (chunk == 0 || rows == 0) return 0;
  uint64_t reach = 0;
  const auto run = [&](uint64_t first, uint64_t n) {
    const uint64_t brcb = (n + 7) / 8 * 8;
    std::vector<E> vals(src + first, src + first + brcb);  // read before the writes
    for (uint64_t k = 0; k < brcb; ++k) std::fill_n(tmp + k * e, e, vals[k]);
    reach = std::max(reach, brcb * e);
    if (whole) return;
    E* rowsAt = tmp + n * e;
    for (uint64_t r = 0; r < n; ++r) std::fill_n(rowsAt + r * w, w, vals[r]);
    reach = std::max(reach, n * e + n * w);
  };
  const uint64_t full = rows / chunk, tail = rows % chunk;
  if (full != 0) run((full - 1) * chunk, chunk);
  if (tail != 0) run(full * chunk, tail);
  return reach * sizeof(E);
}

// The 2201 scratch of Broadcast<T, dim, axis> (trivial: equal sizes or one src element). src's
// elements past src_n that the Brcb passes read must be inside the UB. Records the writes.
template <typename T, int32_t axis>
void Scratch2201(const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<uint8_t>& tmp,
                 uint64_t rows, uint64_t cols, uint64_t src_rows, uint64_t src_cols, bool trivial,
                 SrcLoc loc) {
  constexpr const char* api = "Broadcast";
  namespace td = transform_detail;
  const detail::TensorView tv = tmp.View();
  uint8_t* base = tmp.HostPtr();
  if (base == nullptr) return;
  std::vector<Written> runs;
  const uint64_t src_n = src_rows * src_cols, dst_n = rows * cols;
  const auto srcAt = [&](uint64_t i, uint64_t j) {
    return src.HostPtr()[(src_rows == 1 ? 0 : i) * src_cols + (src_cols == 1 ? 0 : j)];
  };
  if constexpr (sizeof(T) == 1) {
    const uint64_t a_src = (src_n + 15) / 16 * 16, a_dst = (dst_n + 15) / 16 * 16;
    const uint64_t stage = (a_src + a_dst) * 2;
    detail::RequireInsideUb(tv, tv.ptr - tv.ub, stage, api);
    half* h = reinterpret_cast<half*>(base);
    for (uint64_t i = 0; i < src_n; ++i) h[i] = half(static_cast<float>(src.HostPtr()[i]));
    half* hd = h + a_src;
    for (uint64_t i = 0; i < rows; ++i) {
      for (uint64_t j = 0; j < cols; ++j) hd[i * cols + j] = half(static_cast<float>(srcAt(i, j)));
    }
    runs.push_back({0, src_n * 2});
    runs.push_back({a_src * 2, dst_n * 2});
    if (!trivial) {
      // the kit's tensor past both offsets: dataLen in uint32_t, as the device computes it
      const uint32_t left = static_cast<uint32_t>(tv.size_bytes) - static_cast<uint32_t>(stage);
      half* rest = reinterpret_cast<half*>(base + stage);
      if (axis == 0) {
        std::memset(rest, 0, 32);
        runs.push_back({stage, 32});
      } else {
        runs.push_back({stage, LastDimScratch<half>(h, rows, cols, rest, left / 2)});
      }
    }
  } else {
    if (trivial) return;
    if (axis == 0) {
      detail::RequireInsideUb(tv, tv.ptr - tv.ub, 32, api);
      std::memset(base, 0, 32);
      runs.push_back({0, 32});
    } else {
      const uint64_t elems = tv.size_bytes / sizeof(T);
      const detail::TensorView sv = src.View();
      const uint64_t reach = LastDimSrcReach<T>(rows, elems, cols);
      detail::RequireInsideUb(sv, sv.ptr - sv.ub, reach * sizeof(T), api);
      runs.push_back(
          {0, LastDimScratch<T>(src.HostPtr(), rows, cols, reinterpret_cast<T*>(base), elems)});
    }
  }
  for (const Written& r : runs) {
    if (r.bytes != 0) td::RecordMove(api, loc, {}, {{base + r.begin, r.bytes}});
  }
}

}  // namespace lngrad::aicore::broadcast_detail
