// lngrad: the 2201 AR (last-axis) sequence of the high-level ReduceSum and ReduceMean on float
// (the vendor's reduce_sum_v220_impl.h ReduceSumArCompute, as ReduceMean runs it too) run over
// src, the work area and dst, so that all three hold what the device's instructions leave there:
// - padLast = last rounded up to 8 floats (the kit's rows are padded whatever srcInnerPad says);
//   split = the largest power of two <= last (0 when last <= 8), tail = last - split, p = max(8,
//   split), halved when last = split.
// - last <= 8: BlkReduceForLoop: per row one block tree (lanes past last +0), the rows as
//   consecutive blocks, 2040 (255 repeats of 8) per call. Its loop over whole 2040-row groups
//   passes offset 0 every time and the rest starts at group count * 2040, so with 4080 rows or
//   more, rows 2040 .. count * 2040 - 1 get no result (dst keeps its bytes; ReduceMean scales
//   them).
// - last <= 64: one WholeReduceSum per row (the 64-lane tree, lanes past last +0).
// - longer rows, in groups of 248 rows (ReduceSumInLargeLast; group g's work area starts 248g *
//   64 floats into the scratch, or into src with isReuseSource, so the groups' areas overlap
//   when p > 64 and, reusing src, group g > 0 works on other rows' data, as the device does):
//   each row's first p floats copied to the work row r at r * p (not reusing), the tail (tail,
//   or padLast - p when tail = 0) added onto the work row's head (reusing: in place in the row,
//   then the heads packed to r * p). When the tail's 64-lane slices are fewer than the rows and
//   p / 8 <= 255 the adds run as repeats over the rows whose strides (padLast / 8 blocks for src,
//   and for the work rows when reusing) are uint8_t: a padLast of 2048 floats gives stride 0,
//   every repeat adding row 0's tail (onto row 0's head, reusing). Then PairReduceSum halvings
//   of the rows * k work floats while k > 64, BlockReduceSum of rows * 64 floats into the first
//   rows * 8, BlockReduceSum of those into dst.
// - ReduceMean: dst[0..first) times 1.0f / int32_t(last) (Muls).
//
// ReduceMax/ReduceMin on float and half and ReduceAny/ReduceAll on float (their Max/Min
// sequences), BlockReduceByLastAxis of reduce_common_util_v220_impl.h, with B (R) the elements
// of a block (repeat) and padLast = last rounded up to B: rows of at most B one block reduction
// each; up to R - 1 the row's first block accumulates (the scratch's row r at r * B holds it + 0,
// or in place in src with isReuseSource) Max/Min with the row's further blocks and the partial
// block's lanes, then its block reduction; up to 255 * B the same by repeats (scratch rows at r *
// R, or the row's first repeat in src); longer rows: scratch row r = the row's first repeat + 0,
// then Max/Min with each further repeat (reusing: src[r * R ..] = Max/Min of the row's repeat 0,
// then of itself, with repeat j). The repeat rows end as: half, one WholeReduceMax/Min per row;
// float, the 8 block results of row r stored at work[8r ..] (the scratch, or src), then their
// block reduction into dst.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "lib/reduce/reduce_model.h"

namespace lngrad::aicore::reduce_detail {

struct ArSumPlan {
  uint32_t first, last, pad, tail, p;
};

inline ArSumPlan PlanArSum(uint32_t first, uint32_t last) {
  ArSumPlan q{first, last, (last + 7) / 8 * 8, 0, 0};
  const uint32_t split = last <= 8 ? 0 : FloorPow2(last);
  q.tail = last - split;
  q.p = std::max<uint32_t>(8, split);
  if (split == last) q.p /= 2;
  return q;
}

inline constexpr uint32_t kArSumGroup = 248;  // rows per ReduceSumInLargeLast call

// The floats of the work area (from its start: the scratch, or src reusing it) the sequence
// stores to; 0 when the rows are at most 64 floats.
inline uint64_t ArSumWorkReach(const ArSumPlan& q, bool reuse) {
  if (q.last <= 64) return 0;
  uint64_t reach = 0;
  for (uint64_t g = 0; g * kArSumGroup < q.first; ++g) {
    const uint64_t rows = std::min<uint64_t>(kArSumGroup, q.first - g * kArSumGroup);
    reach = std::max(reach, g * kArSumGroup * 64 + rows * (reuse ? q.pad : q.p));
  }
  return reach;
}

// The 8-lane block tree of v[0..8).
inline float BlockTree8(const float* v) {
  float b[8];
  std::copy(v, v + 8, b);
  return detail::rep::PairTree(b, 8);
}

// The tail adds of one group (ReduceSumComputeTail): `rows` rows of src at s (stride pad), the
// work rows at w (stride p, or pad reusing, where they are s's own rows).
inline void ArSumTail(const ArSumPlan& q, bool reuse, const float* s, float* w, uint32_t rows) {
  const uint32_t len = q.tail == 0 ? q.pad - q.p : q.tail;
  const uint64_t wrow = reuse ? q.pad : q.p;
  const bool repeats = (len + 63) / 64 < rows && q.p / 8 <= 255;
  if (!repeats) {  // one counter-mode Add per row
    for (uint64_t i = 0; i < rows; ++i) {
      for (uint32_t j = 0; j < len; ++j) {
        w[i * wrow + j] = detail::rep::Add(w[i * wrow + j], s[i * q.pad + q.p + j]);
      }
    }
    return;
  }
  // Add over `rows` repeats for each 64-lane slice of the tail; the strides as uint8_t blocks.
  const uint64_t wstep = uint64_t{static_cast<uint8_t>(wrow / 8)} * 8;
  const uint64_t sstep = uint64_t{static_cast<uint8_t>(q.pad / 8)} * 8;
  float lane[64];
  for (uint32_t c = 0; c * 64 < len; ++c) {
    const uint32_t n = std::min<uint32_t>(64, len - c * 64);
    for (uint64_t i = 0; i < rows; ++i) {
      float* d = w + i * wstep + c * 64;
      const float* a = s + q.p + i * sstep + c * 64;
      for (uint32_t l = 0; l < n; ++l) lane[l] = detail::rep::Add(d[l], a[l]);
      std::copy(lane, lane + n, d);
    }
  }
}

// One ReduceSumInLargeLast call over `rows` rows.
inline void ArSumGroup(const ArSumPlan& q, bool reuse, const float* s, float* w, float* d,
                       uint32_t rows) {
  if (!reuse) {
    for (uint64_t i = 0; i < rows; ++i) std::copy(s + i * q.pad, s + i * q.pad + q.p, w + i * q.p);
  }
  ArSumTail(q, reuse, s, w, rows);
  if (reuse) {  // DataCopy packing the heads, forward (each destination at or below its source)
    for (uint64_t i = 0; i < rows; ++i) std::memmove(w + i * q.p, w + i * q.pad, q.p * 4);
  }
  for (uint64_t k = q.p; k > 64; k /= 2) {
    for (uint64_t i = 0; i < rows * k / 2; ++i) w[i] = detail::rep::Add(w[2 * i], w[2 * i + 1]);
  }
  for (uint64_t b = 0; b < uint64_t{rows} * 8; ++b) w[b] = BlockTree8(w + 8 * b);
  for (uint64_t r = 0; r < rows; ++r) d[r] = BlockTree8(w + 8 * r);
}

// BlkReduceForLoop (rows of at most 8 floats, read as consecutive blocks).
inline void ArSumBlocks(const ArSumPlan& q, const float* x, float* d) {
  constexpr uint32_t kCall = 255 * 8;
  const auto row = [&](uint64_t r) {
    float v[8];
    for (uint32_t l = 0; l < 8; ++l) v[l] = l < q.last ? x[r * 8 + l] : 0.0f;
    d[r] = BlockTree8(v);
  };
  const uint32_t calls = q.first / kCall;
  for (uint32_t c = 0; c < calls; ++c) {
    for (uint32_t r = 0; r < kCall; ++r) row(r);  // every whole call at offset 0
  }
  for (uint64_t r = uint64_t{calls} * kCall; r < q.first; ++r) row(r);
}

// ReduceSum/ReduceMean<float, AR> on 2201: dst, src (reusing) and the work area `w` (the
// scratch, or src) as the device leaves them.
inline void RunArSum2201(bool mean, bool reuse, const ArSumPlan& q, float* x, float* w, float* d) {
  if (q.last <= 8) {
    ArSumBlocks(q, x, d);
  } else if (q.last <= 64) {
    float v[64];
    for (uint64_t r = 0; r < q.first; ++r) {
      std::fill(v, v + 64, 0.0f);
      std::copy(x + r * q.pad, x + r * q.pad + q.last, v);
      d[r] = detail::rep::RepeatSum(v);
    }
  } else {
    for (uint64_t g = 0; g * kArSumGroup < q.first; ++g) {
      const uint32_t rows =
          static_cast<uint32_t>(std::min<uint64_t>(kArSumGroup, q.first - g * kArSumGroup));
      ArSumGroup(q, reuse, x + g * kArSumGroup * q.pad, (reuse ? x : w) + g * kArSumGroup * 64,
                 d + g * kArSumGroup, rows);
    }
  }
  for (uint64_t r = 0; r < q.first && mean; ++r) d[r] = Scale(d[r], q.last);
}

// The elements of the scratch BlockReduceByLastAxis stores to (none with isReuseSource).
template <typename T>
uint64_t ArMaxMinWorkReach(uint32_t first, uint32_t last, bool reuse) {
  constexpr uint32_t kB = 32 / sizeof(T), kR = 256 / sizeof(T);
  if (reuse || last <= kB) return 0;
  return uint64_t{first} * (last < kR ? kB : kR);
}

// The end of BlockReduceByLastAxis's repeat rows (GetReduceValOnRep): rows of R elements at
// w + r * stride.
template <typename T>
void ArRepeatValues(bool is_max, uint32_t first, T* w, uint64_t stride, T* d) {
  constexpr uint32_t kR = 256 / sizeof(T);
  if constexpr (std::is_same_v<T, half>) {
    for (uint64_t r = 0; r < first; ++r) d[r] = LaneExtreme(w + r * stride, kR, is_max);
  } else {
    for (uint64_t r = 0; r < first; ++r) {
      T blocks[8];
      for (uint32_t b = 0; b < 8; ++b) blocks[b] = LaneExtreme(w + r * stride + 8 * b, 8, is_max);
      std::copy(blocks, blocks + 8, w + 8 * r);  // at or below row r's own elements
    }
    for (uint64_t r = 0; r < first; ++r) d[r] = LaneExtreme(w + 8 * r, 8, is_max);
  }
}

// ReduceMax/ReduceMin<T, AR> (and float ReduceAny/ReduceAll as Max/Min) on 2201: dst, src
// (reusing) and the scratch `w` as the device leaves them.
template <typename T>
void RunArMaxMin2201(bool is_max, bool reuse, uint32_t first, uint32_t last, T* x, T* w, T* d) {
  constexpr uint32_t kB = 32 / sizeof(T), kR = 256 / sizeof(T);
  const Op op = is_max ? Op::kMax : Op::kMin;
  const uint64_t pad = (last + kB - 1) / kB * kB;
  if (last <= kB) {  // DoReduceLessThanBlk / DoReduceOneBlk: rows as consecutive blocks
    for (uint64_t r = 0; r < first; ++r) d[r] = LaneExtreme(x + r * kB, last, is_max);
    return;
  }
  const bool long_row = last > 255 * kB;
  const uint32_t unit = last < kR ? kB : kR;
  // The accumulating rows: the scratch's (stride unit), or src's own (stride pad; long rows
  // reusing src: packed at r * R).
  T* acc = reuse ? x : w;
  const uint64_t stride = reuse && !long_row ? pad : unit;
  for (uint64_t r = 0; r < first && !reuse; ++r) {
    for (uint32_t l = 0; l < unit; ++l) w[r * unit + l] = PlusZero(x[r * pad + l]);
  }
  const uint32_t units = (last + unit - 1) / unit;
  for (uint64_t r = 0; r < first; ++r) {
    const T* row = x + r * pad;
    for (uint32_t j = 1; j < units; ++j) {
      const uint32_t lanes = std::min(unit, last - j * unit);
      // Reusing src on long rows the first step reads the row's own first repeat.
      const T* a = reuse && long_row && j == 1 ? row : acc + r * stride;
      T* out = acc + r * stride;
      T v[kR];
      for (uint32_t l = 0; l < lanes; ++l) v[l] = Apply(op, a[l], row[j * unit + l], false);
      std::copy(v, v + lanes, out);
    }
  }
  if (unit == kB) {
    for (uint64_t r = 0; r < first; ++r) d[r] = LaneExtreme(acc + r * stride, kB, is_max);
  } else {
    ArRepeatValues(is_max, first, acc, stride, d);
  }
}

}  // namespace lngrad::aicore::reduce_detail
