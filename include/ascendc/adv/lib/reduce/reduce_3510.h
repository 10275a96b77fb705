// lngrad: the 950 (arch 3510) orders of the high-level reductions (the vendor's
// reduce_common_ar_reuse_align_3510_impl.h, reduce_common_ar_reuse_align_less_than_vl_3510_impl.h,
// reduce_common_ra_reuse_align_3510_impl.h, reduce_common_ar_ra_reuse_unalign_3510_impl.h,
// reduce_sum/prod/mean/max/min/any/all_3510_impl.h and sum/mean_3510_impl.h). The device runs
// them as register code; each step here is the lane operation that code issues, in its order
// (V = the register's lanes: float 64, half and bfloat16_t 128).
//
// - The binary steps: Add and Mul as on 2201; Reg::Max/Min (ReduceMax/Min, and ReduceAny/All,
//   which run Max/Min) as lngrad's register API defines them: a NaN operand gives that NaN (the
//   first operand's first), else the second operand only where strictly larger (smaller), so a
//   +0/-0 tie keeps the first operand. The first operand is always the kept one: the main part
//   in a tail step, the lower vector or row in a fold, the later block in a block group.
// - The register reductions (Reg::ReduceSum/Max/Min, and ReduceProd's DeInterleave/Mul halvings
//   with the inactive lanes set to 1): the adjacent-pair tree over the register's lanes, a lane
//   past the count taking no part (a pair with one active lane is that lane), as lngrad's register
//   API (src/reg) defines them. The WithDataBlock forms: the same tree per 32-byte block.
//   bfloat16_t reduces in float registers (64 lanes): lanes [64, n) are first taken with lanes
//   [0, n - 64), then the float tree (RegReduce).
// - Which rows: reduce.h Runs3510 (ReduceMax/Min rows of float, half and bfloat16_t, float
//   ReduceSum/Mean/Prod/Any/All rows, all read unpadded: row r at r * last); integer types of up
//   to 4 bytes these orders too (reduce.h Folds3510), 8-byte ones the 2201 order (reduce_model.h)
//   over the same rows. ReduceProd/Any/All take the aligned paths
//   below whatever the row length (SplitsUnaligned; their checked mode refuses other lengths).
//   AR, a row of n (whole blocks of B elements): n = 1 copies; n <= V: Sum/Max/Min with
//   n < V / 2: block 0, then block k taken onto it lane by lane (block k first), then one block
//   tree; otherwise the register reduction of n lanes. n > V: m = the largest power of two
//   <= n (halved when n = m, unless isReuseSource), t = x[0, m) with x[m + j] taken onto t[j]
//   for j < n - m (without isReuseSource: the whole vectors of the tail onto the same
//   positions, then the tail's last partial vector onto t's first lanes); then the m / V
//   vectors fold by 16s (vectors 16r .. 16r + 15 into vector r: v[k] op= v[k + 8], + 4, + 2, + 1)
//   while 16 divide their count, the 2, 4 or 8 left the same halving way, and the register
//   reduction of vector 0.
//   RA, column by column over R rows: R = 1 copies; A <= V / 2 columns (or > 65535): the binary
//   fold of reduce_model.h (FoldRows); else m and the tail as AR (rows instead of elements), the
//   m rows fold by 16s (A <= V: rows 16r .. 16r + 15 into row r; A > V: rows r, r + L, ..,
//   r + 15L, L = the rows left) then the 2, 4 or 8 left by halving.
//   Unaligned (unpadded rows, last not whole blocks): AR rows below V the register reduction of
//   the row; longer: m the largest power of two <= last (never halved), x[m + j] taken onto x[j],
//   the m / V vectors folded by 16s strided (vectors r, r + L, .., r + 15L into r), the rest
//   halved, the register reduction; RA the binary fold. ReduceMean scales the sum by
//   float(1 / count) (one Muls), as on 2201; no Adds 0 on the result (2201 adds one).
// - Sum and Mean: the 2201 repeat structure (sums of 256 bytes, level by level) with each
//   repeat's sum the register tree (inactive lanes take no part); Mean's half-in-float form casts
//   the scaled float sum to half (round to nearest even) and stops there (2201 runs one more
//   RepeatReduceSum on that half).
#pragma once

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "lib/reduce/reduce_model.h"

namespace lngrad::aicore::reduce_detail {

inline constexpr uint32_t kVl3510 = 64;  // float lanes of a 950 register

// The lanes of a 950 register of T (float 64, half 128); the 8-byte integers' B64 functions
// (ReduceARB64OverVL, ReduceRAB64ReuseSource, the unaligned ...B64 paths) hold 64 elements in a
// register pair (RegTraitNumTwo) and fold 8 of them a pass (BASE_FOLD_B64), the others 16.
template <typename T>
inline constexpr uint32_t kLanes3510 = sizeof(T) == 8 ? 64 : 256 / sizeof(T);
template <typename T>
inline constexpr uint32_t kFoldWays3510 = sizeof(T) == 8 ? 8 : 16;

// True on the 950 (the running product's arch is 3510).
inline bool On3510() { return detail::rep::RunningArch() == NpuArch::k3510; }

// One binary step of the 950's register code: Reg::Max/Min (ReduceAny/All run them) as
// math_common.h RegMaxOf/RegMinOf (a NaN operand gives that NaN, a first; b only where strictly
// larger/smaller, so a +-0 tie keeps a); Add and Mul as on 2201.
// Integer Add wraps (the register Add of the 950's integer ReduceSum).
template <typename T>
T Apply3510(Op op, T a, T b) {
  if (op == Op::kMax || op == Op::kAny) return math_detail::RegMaxOf(a, b);
  if (op == Op::kMin || op == Op::kAll) return math_detail::RegMinOf(a, b);
  if constexpr (std::is_integral_v<T>) {
    if (op == Op::kSum || op == Op::kMean) {
      using U = std::make_unsigned_t<T>;
      return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
    }
  }
  return Apply(op, a, b, false);
}

// reduce_model.h's FoldRows with the register steps (row dst op= row src, dst first).
template <typename T>
void FoldRows3510(T* v, uint32_t n, uint32_t width, Op op) {
  uint32_t k = FloorPow2(n);
  auto step = [&](uint32_t dst, uint32_t src) {
    for (uint32_t c = 0; c < width; ++c) {
      v[dst * width + c] = Apply3510(op, v[dst * width + c], v[src * width + c]);
    }
  };
  for (uint32_t i = 0; i < n - k; ++i) step(i, k + i);
  while (k > 1) {
    k /= 2;
    for (uint32_t i = 0; i < k; ++i) step(i, i + k);
  }
}

// The register reduction of v[0, n) over `width` lanes (n <= width, a power of two): the
// adjacent-pair tree, the lanes past n taking no part.
template <typename T>
T LaneTree(Op op, const T* v, uint32_t n, uint32_t width) {
  std::vector<T> val(v, v + n);
  for (uint32_t live = n, w = width; w > 1; w /= 2, live = (live + 1) / 2) {
    for (uint32_t i = 0; 2 * i < live; ++i) {
      val[i] = 2 * i + 1 < live ? Apply3510(op, val[2 * i], val[2 * i + 1]) : val[2 * i];
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

// Folds `count` items of `width` values (item i at v + i * width) by G = 16s (8-byte types: 8s)
// into items [0, count / G^k) while G divide the count, then halves the ones left; item 0 holds
// the result. Item r of a G-group is Gr + i (strided: r + i * L, L the items left).
template <typename T>
void FoldBy16(T* v, uint32_t count, uint32_t width, Op op, bool strided) {
  constexpr uint32_t kG = kFoldWays3510<T>;
  const uint32_t folds = Log2(count);
  std::vector<T> group(kG * width);
  for (uint32_t k = 0; k < folds / Log2(kG); ++k) {
    count /= kG;
    for (uint32_t r = 0; r < count; ++r) {
      for (uint32_t i = 0; i < kG; ++i) {
        const uint32_t item = strided ? r + i * count : kG * r + i;
        std::copy(v + item * width, v + (item + 1) * width, group.begin() + i * width);
      }
      FoldRows3510(group.data(), kG, width, op);
      std::copy(group.begin(), group.begin() + width, v + r * width);
    }
  }
  FoldRows3510(v, count, width, op);
}

// Reg::ReduceSum/Max/Min over lanes v[0, n) of one register (n <= its lanes): the lane tree;
// bfloat16_t runs in float registers of half as many lanes (the kit's Cast paths): lanes
// [64, n) first taken with lanes [0, n - 64) (v[i] op v[64 + i]), then the float tree.
template <typename T>
T RegReduce(Op op, const T* v, uint32_t n) {
  constexpr uint32_t kVl = kLanes3510<T>;
  if constexpr (std::is_same_v<T, bfloat16_t>) {
    if (n > kVl / 2) {
      std::vector<T> t(v, v + kVl / 2);
      for (uint32_t i = 0; i + kVl / 2 < n; ++i) t[i] = Apply3510(op, v[i], v[kVl / 2 + i]);
      return LaneTree(op, t.data(), kVl / 2, kVl / 2);
    }
  }
  return LaneTree(op, v, n, kVl);
}

// One AR row whose length is not a whole number of blocks, unpadded
// (reduce_common_ar_ra_reuse_unalign_3510_impl.h): below a register the register reduction;
// longer, the tail taken in place (as isReuseSource), the vectors folded by 16s strided (r, r + L,
// ..).
template <typename T>
T ArRowUnaligned3510(const T* x, uint32_t n, Op op) {
  constexpr uint32_t kVl = kLanes3510<T>;
  if (n < kVl) return RegReduce(op, x, n);
  const uint32_t m = MainPart(n, true);
  std::vector<T> t(x, x + m);
  for (uint32_t j = 0; j < n - m; ++j) t[j] = Apply3510(op, t[j], x[m + j]);
  FoldBy16(t.data(), m / kVl, kVl, op, true);
  return RegReduce(op, t.data(), kVl);
}

// True for the ops whose 950 code picks the unaligned paths for rows not of whole blocks
// (ReduceSum, so ReduceMean, and ReduceMax/Min); ReduceProd/Any/All run the aligned paths on
// every row, addressing row r at r * last.
inline bool SplitsUnaligned(Op op) { return op == Op::kSum || op == Op::kMax || op == Op::kMin; }

// True where ReduceARReuseSourceLessThanVL groups blocks (ReduceSum/Max/Min on rows shorter
// than half a register: GroupReduceARLessThanVL; bfloat16_t takes its Cast path instead).
template <typename T>
bool GroupsBlocks(Op op) {
  if constexpr (std::is_same_v<T, bfloat16_t>) return false;
  return op == Op::kSum || op == Op::kMax || op == Op::kMin;
}

// One AR row of n elements, n a whole number of blocks or 1 (ReduceARImpl): n = 1 copies; up to
// a register, the grouped blocks (block k taken onto the running block, k first) and their block
// tree, or the register reduction; longer, the fold of reduce_common_ar_reuse_align_3510_impl.h.
template <typename T>
T ArRow3510(const T* x, uint32_t n, Op op, bool reuse) {
  constexpr uint32_t kBlk = 32 / sizeof(T), kVl = kLanes3510<T>;
  if (n == 1) return x[0];
  if (n % kBlk != 0 && SplitsUnaligned(op)) return ArRowUnaligned3510(x, n, op);
  if (n <= kVl) {
    if (!GroupsBlocks<T>(op) || n >= kVl / 2) return RegReduce(op, x, n);
    std::vector<T> acc(x, x + kBlk);
    for (uint32_t b = kBlk; b < n; b += kBlk) {
      for (uint32_t j = 0; j < kBlk; ++j) acc[j] = Apply3510(op, x[b + j], acc[j]);
    }
    return LaneTree(op, acc.data(), kBlk, kBlk);
  }
  const uint32_t m = MainPart(n, reuse), tail = n - m;
  std::vector<T> t(x, x + m);
  const uint32_t whole = reuse ? tail : tail / kVl * kVl;
  for (uint32_t j = 0; j < whole; ++j) t[j] = Apply3510(op, t[j], x[m + j]);
  for (uint32_t j = 0; j < tail - whole; ++j) t[j] = Apply3510(op, t[j], x[m + whole + j]);
  FoldBy16(t.data(), m / kVl, kVl, op, sizeof(T) == 8);  // the B64 folds are strided
  return RegReduce(op, t.data(), kVl);
}

// RA over `rows` rows of `cols` elements (row-major): out[c] for every column. Columns of whole
// blocks: ReduceRAImpl (at most half a register, or more than 65535: the concatenated binary
// fold; else the tail rows taken in place and the 16-row folds); other columns (the unaligned
// path, strided 16-row folds) give the binary fold's order too.
template <typename T>
void RaCols3510(const T* x, uint32_t rows, uint32_t cols, Op op, bool reuse, T* out) {
  constexpr uint32_t kBlk = 32 / sizeof(T), kVl = kLanes3510<T>;
  constexpr bool kB64 = sizeof(T) == 8;  // ReduceRAB64ReuseSource: no concatenated form
  std::vector<T> y(x, x + uint64_t{rows} * cols);
  if (rows == 1 || (!kB64 && (cols <= kVl / 2 || cols > 65535)) ||
      (cols % kBlk != 0 && SplitsUnaligned(op))) {
    FoldRows3510(y.data(), rows, cols, op);
  } else {
    const uint32_t m = MainPart(rows, reuse), tail = rows - m;
    for (uint64_t i = 0; i < uint64_t{tail} * cols; ++i) {
      y[i] = Apply3510(op, y[i], y[uint64_t{m} * cols + i]);
    }
    FoldBy16(y.data(), m, cols, op, cols > kVl || kB64);
  }
  std::copy(y.begin(), y.begin() + cols, out);
}

// Sum (sum.h) on 3510: one row's repeat sums level by level, each the register tree; `store`
// gets each level of more than one sum (index, sum), as the 950 stores them in the scratch.
template <typename T, typename F>
T SumRow3510Levels(const T* x, uint32_t n, F&& store) {
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
    for (uint32_t i = 0; i < repeats; ++i) store(i, next[i]);
    v.swap(next);
  }
}

template <typename T>
T SumRow3510(const T* x, uint32_t n) {
  return SumRow3510Levels(x, n, [](uint32_t, T) {});
}

}  // namespace lngrad::aicore::reduce_detail
