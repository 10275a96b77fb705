// lngrad: the 950 (arch 3510) orders of the high-level sums and products (the vendor's
// reduce_common_ar_reuse_align_3510_impl.h, reduce_common_ar_reuse_align_less_than_vl_3510_impl.h,
// reduce_common_ra_reuse_align_3510_impl.h, reduce_sum/reduce_prod/reduce_mean_3510_impl.h and
// sum/mean_3510_impl.h). The device runs them as register code; each step here is the lane
// operation that code issues, in its order (float: 64 lanes per register, half 128).
//
// - The register reductions (Reg::ReduceSum, and ReduceProd's DeInterleave/Mul halvings with the
//   inactive lanes set to 1): the adjacent-pair tree over the register's lanes, a lane past the
//   count taking no part (a pair with one active lane is that lane), as lngrad's register API
//   (src/reg) defines Reg::ReduceSum. ReduceSumWithDataBlock: the same tree per 32-byte block.
// - ReduceSum/ReduceMean/ReduceProd on float rows whose length is a whole number of 32-byte blocks
//   (the device's aligned paths), and ReduceSum on unpadded rows of other lengths (srcInnerPad
//   false: the unaligned paths, below); padded rows of other lengths run the 2201 order
//   (reduce_model.h):
//   AR, a row of n: n = 1 copies; n <= 64: Sum: n = 8 one block tree, n = 16 or 24 the blocks
//   added lane by lane (block k onto the running sum) then one block tree, n >= 32 the register
//   tree of n lanes; Prod: the register tree of n lanes. n > 64: m = the largest power of two
//   <= n (halved when n = m, unless isReuseSource), t = x[0, m) with x[m + j] added onto t[j]
//   for j < n - m (without isReuseSource: the whole 64-lane vectors of the tail onto the same
//   positions, then the tail's last partial vector onto t's first lanes); then the m / 64
//   vectors fold by 16s (vectors 16r .. 16r + 15 into vector r: v[k] op= v[k + 8], + 4, + 2, + 1)
//   while 16 divide their count, the 2, 4 or 8 left the same halving way, and the register tree
//   of vector 0.
//   RA, column by column over R rows: R = 1 copies; A <= 32 columns (or > 65535): the binary fold
//   of reduce_model.h (FoldRows); else m and the tail as AR (rows instead of elements), the m
//   rows fold by 16s (A <= 64: rows 16r .. 16r + 15 into row r; A > 64: rows r, r + L, ..,
//   r + 15L, L = the rows left) then the 2, 4 or 8 left by halving.
//   Unaligned (ReduceSum, unpadded rows, last % 8 != 0): AR rows below 64 the register tree of the
//   row; longer: m the largest power of two <= last (never halved), x[m + j] added onto x[j], the
//   m / 64 vectors folded by 16s strided (vectors r, r + L, .., r + 15L into r), the rest halved,
//   the register tree; RA the binary fold. ReduceMean scales the sum by
//   float(1 / count) (one Muls), as on 2201; no Adds 0 on the result (2201 adds one).
// - Sum and Mean: the 2201 repeat structure (sums of 256 bytes, level by level) with each
//   repeat's sum the register tree (inactive lanes take no part); Mean's half-in-float form casts
//   the scaled float sum to half (round to nearest even) and stops there (2201 runs one more
//   RepeatReduceSum on that half).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "lib/reduce/reduce_model.h"

namespace lngrad::aicore::reduce_detail {

inline constexpr uint32_t kVl3510 = 64;  // float lanes of a 950 register

// True on the 950 (the running product's arch is 3510).
inline bool On3510() { return detail::rep::RunningArch() == NpuArch::k3510; }

// The register reduction of v[0, n) over `width` lanes (n <= width, a power of two): the
// adjacent-pair tree, the lanes past n taking no part.
template <typename T>
T LaneTree(Op op, const T* v, uint32_t n, uint32_t width) {
  std::vector<T> val(v, v + n);
  for (uint32_t live = n, w = width; w > 1; w /= 2, live = (live + 1) / 2) {
    for (uint32_t i = 0; 2 * i < live; ++i) {
      val[i] = 2 * i + 1 < live ? Apply(op, val[2 * i], val[2 * i + 1], false) : val[2 * i];
    }
  }
  return val[0];
}

// log2 of a power of two.
inline uint32_t Log2(uint32_t p) {
  uint32_t k = 0;
  while ((1u << (k + 1)) <= p) ++k;
  return k;
}

// The main part of a 950 fold over n items: the largest power of two <= n (at most 2^15),
// halved when it is n itself and the source may not be overwritten.
inline uint32_t MainPart(uint32_t n, bool reuse) {
  const uint32_t m = std::min<uint32_t>(FloorPow2(n), 1u << 15);
  return (!reuse && m == n && m > 1) ? m / 2 : m;
}

// Folds `count` items of `width` values (item i at v + i * width) by 16s into items
// [0, count / 16^k) while 16 divide the count, then halves the 2, 4 or 8 left; item 0 holds the
// result. Item r of a 16-group is 16r + i (strided: r + i * L, L the items left).
template <typename T>
void FoldBy16(T* v, uint32_t count, uint32_t width, Op op, bool strided) {
  const uint32_t folds = Log2(count);
  std::vector<T> group(16 * width);
  for (uint32_t k = 0; k < folds / 4; ++k) {
    count /= 16;
    for (uint32_t r = 0; r < count; ++r) {
      for (uint32_t i = 0; i < 16; ++i) {
        const uint32_t item = strided ? r + i * count : 16 * r + i;
        std::copy(v + item * width, v + (item + 1) * width, group.begin() + i * width);
      }
      FoldRows(group.data(), 16, width, op, false);
      std::copy(group.begin(), group.begin() + width, v + r * width);
    }
  }
  FoldRows(v, count, width, op, false);
}

// ReduceSum (AR) of one unpadded float row whose length is not a whole number of blocks
// (reduce_common_ar_ra_reuse_unalign_3510_impl.h): below 64 the register tree; longer, the tail
// added in place (as isReuseSource), the vectors folded by 16s strided (r, r + L, ..).
template <typename T>
T ArRowUnaligned3510(const T* x, uint32_t n, Op op) {
  if (n < kVl3510) return LaneTree(op, x, n, kVl3510);
  const uint32_t m = MainPart(n, true);
  std::vector<T> t(x, x + m);
  for (uint32_t j = 0; j < n - m; ++j) t[j] = Apply(op, t[j], x[m + j], false);
  FoldBy16(t.data(), m / kVl3510, kVl3510, op, true);
  return LaneTree(op, t.data(), kVl3510, kVl3510);
}

// ReduceSum/ReduceProd (AR) of one float row of n elements, n a multiple of 8 or 1.
template <typename T>
T ArRow3510(const T* x, uint32_t n, Op op, bool reuse) {
  constexpr uint32_t kBlk = 8;
  if (n == 1) return x[0];
  if (n % kBlk != 0) return ArRowUnaligned3510(x, n, op);
  if (n <= kVl3510) {
    if (op == Op::kProd || n >= kVl3510 / 2) return LaneTree(op, x, n, kVl3510);
    T acc[kBlk];
    std::copy(x, x + kBlk, acc);
    for (uint32_t b = kBlk; b < n; b += kBlk) {
      for (uint32_t j = 0; j < kBlk; ++j) acc[j] = Apply(op, x[b + j], acc[j], false);
    }
    return LaneTree(op, acc, kBlk, kBlk);
  }
  const uint32_t m = MainPart(n, reuse), tail = n - m;
  std::vector<T> t(x, x + m);
  const uint32_t whole = reuse ? tail : tail / kVl3510 * kVl3510;
  for (uint32_t j = 0; j < whole; ++j) t[j] = Apply(op, t[j], x[m + j], false);
  for (uint32_t j = 0; j < tail - whole; ++j) t[j] = Apply(op, t[j], x[m + whole + j], false);
  FoldBy16(t.data(), m / kVl3510, kVl3510, op, false);
  return LaneTree(op, t.data(), kVl3510, kVl3510);
}

// ReduceSum/ReduceProd (RA) over `rows` rows of `cols` floats (row-major, cols a multiple of 8):
// out[c] for every column.
template <typename T>
void RaCols3510(const T* x, uint32_t rows, uint32_t cols, Op op, bool reuse, T* out) {
  std::vector<T> y(x, x + uint64_t{rows} * cols);
  // Columns not a whole number of blocks (the unaligned path: tail rows added in place, strided
  // folds) give the binary fold's order too.
  if (rows == 1 || cols <= kVl3510 / 2 || cols > 65535 || cols % 8 != 0) {
    FoldRows(y.data(), rows, cols, op, false);
  } else {
    const uint32_t m = MainPart(rows, reuse), tail = rows - m;
    for (uint64_t i = 0; i < uint64_t{tail} * cols; ++i) {
      y[i] = Apply(op, y[i], y[uint64_t{m} * cols + i], false);
    }
    FoldBy16(y.data(), m, cols, op, cols > kVl3510);
  }
  std::copy(y.begin(), y.begin() + cols, out);
}

// Sum (sum.h) on 3510: one row's repeat sums level by level, each the register tree.
template <typename T>
T SumRow3510(const T* x, uint32_t n) {
  constexpr uint32_t kL = 256 / sizeof(T);
  std::vector<T> v(x, x + n);
  while (true) {
    const uint32_t count = static_cast<uint32_t>(v.size());
    const uint32_t repeats = (count + kL - 1) / kL;
    std::vector<T> next(repeats);
    for (uint32_t i = 0; i < repeats; ++i) {
      next[i] = LaneTree(Op::kSum, v.data() + i * kL, std::min(kL, count - i * kL), kL);
    }
    if (repeats == 1) return next[0];
    v.swap(next);
  }
}

}  // namespace lngrad::aicore::reduce_detail
