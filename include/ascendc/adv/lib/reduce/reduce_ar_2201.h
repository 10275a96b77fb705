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
//
// ReduceProd on float (reduce_prod_v220_impl.h ReduceProdByLastAxis): per row j in order, its
// work at the scratch's float 64 + 8j (reusing: the row itself in src), k = the largest power of
// two <= last, remain = last - k: the work = the row + 0 over k floats and times the row's tail
// over remain (last >= 8 with a tail; reusing, the tail folded in place), or the row's halves
// multiplied (k > 8, k halved), or the row + 0 over last; halvings while k > 8; Brcb of the work's
// first 8 floats into the scratch's first 64 (block b all float b); the blocks folded (the tail
// blocks when last < 8 is no power of two, then halvings); its first block + 0 stored at the
// scratch's 64 + 8j (reusing: src + 8j). Then the first 64 scratch words set to 1 (the GatherMask
// pattern) and dst[j] = the first float of block j of those results.
//
// uint8_t ReduceAny/ReduceAll (BinaryReduceAnyAllCompute: Max/Min over half): k = the largest
// power of two <= last, 0 below 32 bytes; per row i the scratch's halves [0, padLast) = the row's
// padLast bytes as half, the tail (last - k) folded onto the head and halvings down to 16 lanes
// (both only when k > 0), those 16 halves + 0 stored at half padLast + 16i; then per row the
// extreme of the first min(last, 16) of its 16 halves into half r (BlkReduceForLoop, whose whole
// 2040-row calls all run at offset 0), cast to dst[r]. So rows of 17..31 bytes count their first
// 16 only, as on the device.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "lib/reduce/reduce_model.h"

namespace lngrad::aicore::reduce_detail {

// The AR sequence's split of rows of `last` elements padded to whole blocks of `block` (8 floats,
// 16 halves): the power-of-two head p the binary adds halve, the tail past it.
struct ArSumPlan {
  uint32_t first, last, pad, tail, p;
};

inline ArSumPlan PlanArBlocks(uint32_t first, uint32_t last, uint32_t block) {
  ArSumPlan q{first, last, (last + block - 1) / block * block, 0, 0};
  const uint32_t split = last <= block ? 0 : FloorPow2(last);
  q.tail = last - split;
  q.p = std::max<uint32_t>(block, split);
  if (split == last) q.p /= 2;
  return q;
}

inline ArSumPlan PlanArSum(uint32_t first, uint32_t last) { return PlanArBlocks(first, last, 8); }

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

// The floats of the scratch ReduceProdByLastAxis stores to.
inline uint64_t ArProdWorkReach(uint32_t first, uint32_t last, bool reuse) {
  if (reuse || first == 0) return 64;
  const uint32_t k = FloorPow2(last), remain = last - k;
  const uint32_t span = (last >= 8 && remain != 0) ? k : (k > 8 ? k / 2 : last);
  return 64 + uint64_t{first - 1} * 8 + std::max<uint32_t>(8, span);
}

// A counter-mode Mul of n floats: o[i] = a[i] * b[i], 64-lane repeats in order.
inline void ArMul(float* o, const float* a, const float* b, uint32_t n) {
  float v[64];
  for (uint32_t base = 0; base < n; base += 64) {
    const uint32_t lanes = std::min<uint32_t>(64, n - base);
    for (uint32_t l = 0; l < lanes; ++l) v[l] = Apply(Op::kProd, a[base + l], b[base + l], false);
    std::copy(v, v + lanes, o + base);
  }
}

// One row's work of ReduceProdByLastAxis before the Brcb; returns the work's start.
inline float* ArProdRow(bool reuse, uint32_t last, float* row, float* work) {
  const uint32_t k0 = FloorPow2(last), remain = last - k0;
  uint32_t k = k0;
  float* cur = reuse ? row : work;
  if (reuse) {
    if (last >= 8 && remain != 0) ArMul(cur, cur, cur + k0, remain);
  } else if (last >= 8 && remain != 0) {
    for (uint32_t i = 0; i < k0; ++i) cur[i] = PlusZero(row[i]);
    ArMul(cur, cur, row + k0, remain);
  } else if (k0 > 8) {
    k /= 2;
    ArMul(cur, row, row + k, k);
  } else {
    for (uint32_t i = 0; i < last; ++i) cur[i] = PlusZero(row[i]);
  }
  while (k > 8) {
    k /= 2;
    ArMul(cur, cur, cur + k, k);
  }
  return cur;
}

// ReduceProd<float, AR> on 2201: dst, src (reusing) and the scratch `w` (at least 64 floats) as
// the device leaves them.
inline void RunArProd2201(bool reuse, uint32_t first, uint32_t last, float* x, float* w, float* d) {
  const uint64_t pad = (last + 7) / 8 * 8;
  const uint32_t k0 = FloorPow2(last), remain = last - k0;
  for (uint64_t j = 0; j < first; ++j) {
    const float* cur = ArProdRow(reuse, last, x + j * pad, w + 64 + 8 * j);
    float lanes[8];
    std::copy(cur, cur + 8, lanes);
    for (uint32_t b = 0; b < 64; ++b) w[b] = lanes[b / 8];  // Brcb
    uint32_t f = last < 8 ? k0 : 8;
    if (k0 != last && f < 8) ArMul(w, w, w + 8 * k0, remain * 8);
    while (f > 1) {
      f /= 2;
      ArMul(w, w, w + 8 * f, 8 * f);
    }
    float* out = (reuse ? x : w + 64) + 8 * j;
    for (uint32_t l = 0; l < 8; ++l) out[l] = PlusZero(w[l]);
  }
  const uint32_t one = 1;  // Duplicate of the GatherMask pattern over the first repeat
  for (uint32_t i = 0; i < 64; ++i) std::memcpy(w + i, &one, sizeof(one));
  const float* res = reuse ? x : w + 64;
  for (uint64_t r = 0; r < first; ++r) d[r] = res[8 * r];
}

// The halves of the scratch BinaryReduceAnyAllCompute stores to.
inline uint64_t ArAnyAllU8WorkReach(uint32_t first, uint32_t last) {
  const uint64_t pad = (uint64_t{last} + 31) / 32 * 32;
  return std::max<uint64_t>(pad + 16 * uint64_t{first}, first);
}

// uint8_t ReduceAny/ReduceAll<AR> on 2201: dst and the scratch `h` (as half) as the device
// leaves them.
inline void RunArAnyAllU8_2201(bool any, uint32_t first, uint32_t last, const uint8_t* x, half* h,
                               uint8_t* d) {
  const Op op = any ? Op::kMax : Op::kMin;
  const uint64_t pad = (uint64_t{last} + 31) / 32 * 32;
  const uint32_t k0 = last < 32 ? 0 : FloorPow2(last);
  for (uint64_t i = 0; i < first; ++i) {
    for (uint64_t l = 0; l < pad; ++l) h[l] = half(static_cast<float>(x[i * pad + l]));
    if (k0 > 0) {
      for (uint32_t l = 0; l < last - k0; ++l) h[l] = Apply(op, h[l], h[k0 + l], false);
    }
    for (uint32_t k = k0; k > 16;) {
      k /= 2;
      for (uint32_t l = 0; l < k; ++l) h[l] = Apply(op, h[l], h[k + l], false);
    }
    for (uint32_t l = 0; l < 16; ++l) h[pad + 16 * i + l] = PlusZero(h[l]);
  }
  constexpr uint32_t kCall = 255 * 8;  // blocks of one BlockReduce call
  const uint32_t lanes = std::min<uint32_t>(last, 16);
  const auto block = [&](uint64_t b) { h[b] = LaneExtreme(h + pad + 16 * b, lanes, any); };
  for (uint32_t c = 0; c < first / kCall; ++c) {
    for (uint32_t b = 0; b < kCall; ++b) block(b);  // every whole call at offset 0
  }
  for (uint64_t b = uint64_t{first} / kCall * kCall; b < first; ++b) block(b);
  for (uint64_t r = 0; r < first; ++r) d[r] = static_cast<uint8_t>(static_cast<float>(h[r]));
}

}  // namespace lngrad::aicore::reduce_detail
