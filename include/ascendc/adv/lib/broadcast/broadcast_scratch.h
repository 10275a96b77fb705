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
//
// Arch 2002 (broadcast_v200_impl.h; the same BroadCastCommon, the same axis-0 zero block):
// along axis 1 the scratch starts with 16 uint16_t zeros, and from element e on holds a
// [cols, n] matrix whose every row is src's n rows: rows >= 255 * e in one piece (LoopBroadCast,
// n = rows); rows of whole blocks in chunks of R = (G - e) / (e * ceil(cols / 8)) * e rows (the
// kit asserts G - e above that divisor), n = R or the tail; other rows only the zeros (the kit
// logs an error and writes no dst). The matrix is transposed into dst. The chunk size does not
// bound the matrix: with more than one chunk its cols * R elements always pass the scratch's end
// (the device writes on into the UB that follows; so does GetBroadCastMaxMinTmpSize's minimum,
// which also fails the kit's assertion), which checked mode refuses (transform_params) and
// unchecked mode leaves marked, not modelled; a scratch of the whole matrix runs one chunk.
// Equal sizes copy whole 32-byte blocks only (NoBroad's DataCopy rounds the count down; the kit
// asserts a whole count).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "lib/math/math_common.h"
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

// ---- arch 2002 ----

// The bytes from the scratch's start that the 2002 axis-1 sequence writes for tmpElems elements
// of E; 0 when the kit's assertion (tmpSize > its divisor) fails.
template <typename E>
uint64_t LastDim200Bytes(uint64_t rows, uint64_t cols, uint64_t tmpElems) {
  constexpr uint64_t e = 32 / sizeof(E);
  if (rows >= 255 * e) return 32 + cols * rows * sizeof(E);
  if (rows * sizeof(E) % 32 != 0) return 32;
  const uint32_t size = static_cast<uint32_t>(tmpElems) - static_cast<uint32_t>(e);  // uint32_t
  const uint64_t divisor = e * ((cols + 7) / 8);
  if (size <= divisor) return 0;
  const uint64_t chunk = size / divisor * e;
  return 32 + cols * std::min(chunk, rows) * sizeof(E);
}

// Writes the 2002 axis-1 sequence's scratch (the caller checked LastDim200Bytes against it).
template <typename E>
void LastDimScratch200(const E* src, uint64_t rows, uint64_t cols, E* tmp) {
  constexpr uint64_t e = 32 / sizeof(E);
  std::memset(static_cast<void*>(tmp), 0, 32);
  E* body = tmp + e;
  const auto matrix = [&](uint64_t first, uint64_t n) {
    for (uint64_t c = 0; c < cols; ++c) std::copy_n(src + first, n, body + c * n);
  };
  if (rows >= 255 * e) {
    matrix(0, rows);
    return;
  }
  if (rows * sizeof(E) % 32 != 0) return;
  // A scratch that holds what the sequence writes holds the whole matrix in one chunk: chunks
  // of R < rows rows write cols * R elements, more than the G - e the divisor leaves (cols >= 2).
  matrix(0, rows);
}

// Broadcast on 2002: the checks the kit asserts, the scratch, and the dst elements the device
// writes (returned; the broadcast's first ones). Checked mode refuses what the kit asserts
// (rows of whole blocks along axis 1, whole blocks for equal sizes, the chunk divisor) and a
// sequence that writes past the scratch; unchecked, those scratches are marked (not modelled)
// and 1-byte T's dst gets the broadcast where the device's Cast reads stale half copies.
template <typename T, int32_t dim, int32_t axis>
uint64_t Run2002(const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<uint8_t>& tmp,
                 uint64_t rows, uint64_t cols, uint64_t src_rows, uint64_t src_cols, SrcLoc loc) {
  constexpr const char* api = "Broadcast";
  namespace td = transform_detail;
  using E = std::conditional_t<sizeof(T) == 1, half, T>;
  const uint64_t src_n = src_rows * src_cols, dst_n = rows * cols;
  const bool equal = src_n == dst_n, trivial = equal || src_n == 1;
  if (dim == 2 && axis == 1) {
    td::Require(src_rows * sizeof(T) % 32 == 0, api,
                "srcShape[0] * sizeof(T) must be a multiple of 32 along axis 1 on this product");
  }
  if (equal) {
    td::Require(dst_n * sizeof(E) % 32 == 0, api,
                "equal shapes copy with DataCopy, which needs the size in whole 32-byte blocks on "
                "this product");
  }
  const detail::TensorView tv = tmp.View();
  uint8_t* base = tmp.HostPtr();
  uint64_t stage = 0;  // 1-byte T: the half copies before the half sequence's scratch
  if (sizeof(T) == 1) stage = ((src_n + 15) / 16 + (dst_n + 15) / 16) * 16 * 2;
  const uint32_t left = static_cast<uint32_t>(tv.size_bytes) - static_cast<uint32_t>(stage);
  uint64_t need = stage;  // scratch bytes the sequence writes
  bool modelled = sizeof(T) == 1 ? tv.size_bytes >= stage : true;
  if (!trivial && dim == 2 && axis == 0) need += 32;
  if (!trivial && dim == 2 && axis == 1) {
    const uint64_t b = LastDim200Bytes<E>(rows, cols, left / sizeof(E));
    td::Require(b != 0, api,
                "the scratch leaves " + std::to_string(left / sizeof(E) / (32 / sizeof(E))) +
                    " blocks past the zero block, not more than the kit's divisor e * ceil(" +
                    "dstShape[1] / 8) asks (its assertion)");
    modelled = modelled && b != 0;
    need += b;
  }
  td::Require(need <= tv.size_bytes, api,
              "the 2002 sequence writes " + std::to_string(need) + " bytes of scratch, past the " +
                  std::to_string(tv.size_bytes) + " it holds");
  modelled = modelled && need <= tv.size_bytes;
  // the device's dst: DataCopy's whole blocks for equal sizes; nothing for unaligned axis-1 rows
  uint64_t dst_elems = dst_n;
  const uint64_t e = 32 / sizeof(E);
  if (sizeof(T) != 1 && equal) dst_elems = dst_n * sizeof(T) / 32 * 32 / sizeof(T);
  if (sizeof(T) != 1 && !trivial && dim == 2 && axis == 1 && rows < 255 * e &&
      rows * sizeof(T) % 32 != 0) {
    dst_elems = 0;
  }
  if (sizeof(T) == 1 && ((equal && dst_n % 16 != 0) ||
                         (!trivial && dim == 2 && axis == 1 && rows < 255 * e && rows % 16 != 0))) {
    modelled = false;  // the Cast back reads half copies the sequence did not write
  }
  if (base == nullptr || need == 0) return dst_elems;
  if (!modelled) {
    math_detail::LeaveScratch(api, loc, tv);
    return dst_elems;
  }
  detail::RequireInsideUb(tv, tv.ptr - tv.ub, need, api);
  const auto srcAt = [&](uint64_t i, uint64_t j) {
    return src.HostPtr()[(src_rows == 1 ? 0 : i) * src_cols + (src_cols == 1 ? 0 : j)];
  };
  E* body = reinterpret_cast<E*>(base + stage);
  const E* stage_src = reinterpret_cast<const E*>(src.HostPtr());
  if constexpr (sizeof(T) == 1) {
    half* h = reinterpret_cast<half*>(base);
    for (uint64_t i = 0; i < src_n; ++i) h[i] = half(static_cast<float>(src.HostPtr()[i]));
    half* hd = h + (src_n + 15) / 16 * 16;
    for (uint64_t i = 0; i < rows; ++i) {
      for (uint64_t j = 0; j < cols; ++j) hd[i * cols + j] = half(static_cast<float>(srcAt(i, j)));
    }
    stage_src = h;
    td::RecordMove(api, loc, {}, {{base, src_n * 2}});
    td::RecordMove(api, loc, {}, {{hd, dst_n * 2}});
  }
  if (!trivial && dim == 2 && axis == 0) std::memset(body, 0, 32);
  if (!trivial && dim == 2 && axis == 1) {
    LastDimScratch200<E>(stage_src, rows, cols, body);
  }
  if (need > stage) td::RecordMove(api, loc, {}, {{base + stage, need - stage}});
  return dst_elems;
}

}  // namespace lngrad::aicore::broadcast_detail
