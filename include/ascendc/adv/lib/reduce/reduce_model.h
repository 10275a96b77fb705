// lngrad: what the high-level reduce APIs (lib/reduce/reduce.h, sum.h) share: the reduction
// trees of the vendor's 2201 sequences (impl/adv_api/detail/reduce/reduce_common_util_v220_impl.h
// and the reduce_*_v220_impl.h files), the operand checks and the scratch minimum.
//
// Trees, per the instruction sequences (every operation one rounding in T; half computed in
// float and rounded once, as the basic instructions do):
// - Fold: the binary fold of BinaryReduceByFirstAxis and ReduceProd's last-axis fold: with
//   k = the largest power of two <= n, v[i] op= v[k + i] for i < n - k, then v[i] op= v[i + k/2]
//   while k halves to 1. RA (every op) folds rows this way, column by column, and moves the
//   result row to dst with Adds 0 (-0 becomes +0); AR ReduceProd folds each row (the Brcb
//   block halvings continue the same fold) and ends with Adds 0 (on 2201 the AR sequences
//   run in reduce_ar_2201.h; uint8 AR ReduceAny/All there count rows of 17..31 bytes' first 16).
// - ReduceMax/ReduceMin AR and float ReduceAny/ReduceAll AR (the Max/Min sequences):
//   BlockReduceByLastAxis's chunk accumulation and lane reductions (ArMaxMinRow), whose NaN
//   and signed-zero results depend on that order.
// - ReduceSum/ReduceMean AR: rows of at most 8 lanes: one BlockReduceSum (adjacent-pair tree
//   over a 32-byte block, missing lanes +0); at most 64: one WholeReduceSum (the repeat's tree,
//   missing lanes +0); longer rows: p = max(8, k) (halved when n = k), v[j] = x[j] + x[p + j] for
//   j < n - p, PairReduceSum halvings (v[i] = v[2i] + v[2i+1]) down to 64 lanes, then
//   BlockReduceSum twice (eight 8-lane trees, then the tree of the eight sums).
// - ReduceMean: the sum times T(1.0f / count) (one Muls).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "lib/math/math_common.h"
#include "lngrad_aicore/repeat_base.h"

namespace lngrad::aicore::checks {
// A reduce API's srcShape, srcInnerPad or pattern outside what the API documents.
inline constexpr const char* kReduceShape = "reduce_shape";
}  // namespace lngrad::aicore::checks

namespace lngrad::aicore::reduce_detail {

enum class Op { kSum, kMean, kMax, kMin, kProd, kAny, kAll };

inline uint32_t FloorPow2(uint32_t n) {
  uint32_t k = 1;
  while (k <= n / 2) k *= 2;
  return k;
}

// One binary step of `op` in T (kAny/kAll on uint8 in the RA form: bitwise, the device's Or/And
// over int16 lanes; elsewhere Max/Min).
template <typename T>
T Apply(Op op, T a, T b, bool bitwise) {
  namespace m = math_detail;
  switch (op) {
    case Op::kSum:
    case Op::kMean:
      return detail::rep::Add(a, b);
    case Op::kProd:
      if constexpr (std::is_same_v<T, half>) {
        return half(static_cast<float>(a) * static_cast<float>(b));
      } else {
        return static_cast<T>(a * b);
      }
    case Op::kMax:
    case Op::kAny:
      if constexpr (std::is_integral_v<T>) {
        if (bitwise) return static_cast<T>(a | b);
      }
      return m::MaxOf(a, b);
    case Op::kMin:
    case Op::kAll:
      if constexpr (std::is_integral_v<T>) {
        if (bitwise) return static_cast<T>(a & b);
      }
      return m::MinOf(a, b);
  }
  return a;
}

// The fold over `n` rows of `width` elements at v (row r at v + r * width); row 0 holds the result.
template <typename T>
void FoldRows(T* v, uint32_t n, uint32_t width, Op op, bool bitwise) {
  uint32_t k = FloorPow2(n);
  auto step = [&](uint32_t dst, uint32_t src) {
    for (uint32_t c = 0; c < width; ++c) {
      v[dst * width + c] = Apply(op, v[dst * width + c], v[src * width + c], bitwise);
    }
  };
  for (uint32_t i = 0; i < n - k; ++i) step(i, k + i);
  while (k > 1) {
    k /= 2;
    for (uint32_t i = 0; i < k; ++i) step(i, i + k);
  }
}

// The ReduceSum/ReduceMean sum of one row of n elements (AR).
template <typename T>
T ArSumRow(const T* x, uint32_t n) {
  namespace r = detail::rep;
  if constexpr (std::is_integral_v<T>) {  // exact in any order (wrapping); the trees below
    using U = std::make_unsigned_t<T>;    // assume 64 lanes, which 8-byte types lack
    U acc = 0;
    for (uint32_t j = 0; j < n; ++j) acc = static_cast<U>(acc + static_cast<U>(x[j]));
    return static_cast<T>(acc);
  }
  constexpr uint32_t kBlk = 32 / sizeof(T);
  if (n <= 8 || n <= 64) {
    std::vector<T> v(n <= 8 ? kBlk : r::kLanes<T>, T(0));
    std::copy(x, x + n, v.begin());
    return n <= 8 ? r::PairTree(v.data(), kBlk) : r::RepeatSum(v.data());
  }
  const uint32_t k = FloorPow2(n);
  uint32_t p = std::max<uint32_t>(kBlk, k);
  if (n == k) p /= 2;
  std::vector<T> v(x, x + p);
  for (uint32_t j = 0; j + p < n; ++j) v[j] = r::Add(v[j], x[p + j]);
  for (; p > 64; p /= 2) {
    for (uint32_t i = 0; i < p / 2; ++i) v[i] = r::Add(v[2 * i], v[2 * i + 1]);
  }
  T blocks[8];
  for (uint32_t b = 0; b < 8; ++b) blocks[b] = r::PairTree(v.data() + 8 * b, 8);
  return r::PairTree(blocks, 8);
}

// Adds(dst, src, 0): x + 0 in T (-0 becomes +0; integers unchanged).
template <typename T>
T PlusZero(T x) {
  if constexpr (std::is_integral_v<T>) {
    return x;
  } else {
    return detail::rep::Add(x, T(0.0f));
  }
}

// BinaryReduceByFirstAxis without isReuseSource (2201): the fold of `n` rows of `width`
// elements of x run in t (the scratch). With k the largest power of two <= n: t = x + 0 over k
// rows, then t[i] op= x[k * width + i] over the n - k rows past k; n a power of two above 1:
// t[i] = x[i] op x[k/2 * width + i] over k/2 rows; then t[i] op= t[i + k/2 rows] while k halves
// to 1. Returns the rows of t written (0 for n = 1: the device copies x to dst, t untouched).
template <typename T>
uint32_t FoldRowsInto(const T* x, T* t, uint32_t n, uint32_t width, Op op, bool bitwise) {
  uint32_t k = FloorPow2(n);
  const uint64_t w = width;
  uint32_t rows = 0;
  if (n != k) {
    for (uint64_t i = 0; i < k * w; ++i) t[i] = PlusZero(x[i]);
    for (uint64_t i = 0; i < (n - k) * w; ++i) t[i] = Apply(op, t[i], x[k * w + i], bitwise);
    rows = k;
  } else if (k > 1) {
    k /= 2;
    for (uint64_t i = 0; i < k * w; ++i) t[i] = Apply(op, x[i], x[k * w + i], bitwise);
    rows = k;
  }
  while (k > 1) {
    k /= 2;
    for (uint64_t i = 0; i < k * w; ++i) t[i] = Apply(op, t[i], t[k * w + i], bitwise);
  }
  return rows;
}

// The value BlockReduceMax/Min or WholeReduceMax/Min leave for lanes v[0..n): the first extreme
// lane wins ties, a NaN lane wins over every number (reduce_ops.h).
template <typename T>
T LaneExtreme(const T* v, uint32_t n, bool is_max) {
  T best = v[0];
  for (uint32_t i = 1; i < n; ++i) {
    if (detail::rep::Better(is_max, v[i], best)) best = v[i];
  }
  return best;
}

// ReduceMax/ReduceMin AR, one row (BlockReduceByLastAxis): a row of at most one block is one
// block reduction; a longer one accumulates into its first chunk (one block while the row is
// shorter than a repeat, else one repeat; copied with + 0 unless isReuseSource), Max/Min with
// each further chunk in order (the last on its leading lanes only), then the lane reduction of
// the chunk (for float repeats the device reduces the 8 blocks, then their 8 results: the same
// value as one pass, since the first extreme and the first NaN win at both levels).
template <typename T>
T ArMaxMinRow(const T* x, uint32_t n, Op op, bool reuse) {
  constexpr uint32_t kBlk = 32 / sizeof(T), kRep = 256 / sizeof(T);
  const bool is_max = op == Op::kMax;
  if (n <= kBlk) return LaneExtreme(x, n, is_max);
  const uint32_t chunk = n < kRep ? kBlk : kRep;
  std::vector<T> acc(x, x + chunk);
  if (!reuse) {
    for (T& v : acc) v = PlusZero(v);
  }
  for (uint32_t base = chunk; base < n; base += chunk) {
    const uint32_t lanes = std::min(chunk, n - base);
    for (uint32_t l = 0; l < lanes; ++l) acc[l] = Apply(op, acc[l], x[base + l], false);
  }
  return LaneExtreme(acc.data(), chunk, is_max);
}

template <typename T>
T Scale(T sum, uint32_t count) {
  const float rec = 1.0f / static_cast<float>(static_cast<int32_t>(count));
  if constexpr (std::is_same_v<T, half>) {
    return half(static_cast<float>(sum) * static_cast<float>(half(rec)));
  } else {
    return static_cast<T>(sum * static_cast<T>(rec));
  }
}

// k of the vendor's tiling: the largest power of two <= n, halved when n is one (n > 1).
inline uint64_t HalfK(uint32_t n, bool halve_when_pow2) {
  const uint32_t k = FloorPow2(n);
  return (k == n && halve_when_pow2) ? k / 2 : k;
}
inline uint64_t Align32(uint64_t bytes) { return (bytes + 31) / 32 * 32; }

// The minimum sharedTmpBuffer bytes (the host's GetReduceXxxMaxMinTmpSize value).
// ts: the host's type size for the data type (4 for float and int32_t, 2 for half, else 1);
// u8: ReduceAny/ReduceAll on uint8_t.
inline uint64_t TmpMinBytes(Op op, bool ar, bool reuse, uint32_t first, uint32_t last, uint32_t ts,
                            bool u8) {
  if (u8 && ar) return Align32(last) * 2 + uint64_t{first} * 32;
  if (op == Op::kProd && reuse) return ar ? 256 : 0;
  if (reuse) return 0;
  const uint64_t kf = HalfK(first, first > 1);
  if (!ar) {
    if (op == Op::kSum || op == Op::kMean) return kf * ((last + 7) / 8 * 8) * 4;
    return kf * Align32(uint64_t{last} * ts);
  }
  if (op == Op::kSum || op == Op::kMean) {
    return last <= 64 ? 0 : uint64_t{first} * HalfK(last, first > 1) * 4;
  }
  if (op == Op::kProd) {
    return (std::max<uint64_t>(8, HalfK(last, first > 1)) + uint64_t{first} * 8) * 4 + 256;
  }
  const uint32_t blk = 32 / ts, rep = 256 / ts;
  if (last <= blk) return 0;
  return uint64_t{first} * (last < rep ? blk : rep) * ts;
}

inline const char* Name(Op op) {
  constexpr const char* kNames[] = {"ReduceSum",  "ReduceMean", "ReduceMax", "ReduceMin",
                                    "ReduceProd", "ReduceAny",  "ReduceAll"};
  return kNames[static_cast<int>(op)];
}

[[noreturn]] inline void RaiseShape(Op op, const std::string& what) {
  RaiseKernelCheck(checks::kReduceShape, std::string(Name(op)) + ": " + what);
}

// The types each arch runs an op on (the pages' 支持的数据类型 tables).
template <typename T>
bool TypeOnArch(Op op, NpuArch arch) {
  constexpr bool f = std::is_same_v<T, float>, h = std::is_same_v<T, half>;
  constexpr bool u8 = std::is_same_v<T, uint8_t>;
  if (arch == NpuArch::k3510) {
    if (op == Op::kMax || op == Op::kMin) return true;
    if (op == Op::kSum) return f || std::is_same_v<T, int32_t> || std::is_same_v<T, uint32_t>;
    if (op == Op::kAny || op == Op::kAll) return f || u8;
    return f;  // Mean and Prod: float only (the 950's page and its static_assert)
  }
  if (op == Op::kMax || op == Op::kMin || op == Op::kMean) return f || h;
  if (op == Op::kAny || op == Op::kAll) return f || u8;
  return f;
}

struct Shape {
  uint32_t first, last, pad;
};

// True where the RA fold of uint8 ReduceAny/ReduceAll runs bitwise on 2201 (the kit's Or/And
// over int16 lanes).
template <typename T>
bool RaBitwise(Op op) {
  return std::is_integral_v<T> && (op == Op::kAny || op == Op::kAll) &&
         detail::rep::RunningArch() != NpuArch::k3510;
}

// The elements RA writes to dst: `last`, except uint8 ReduceAny/ReduceAll on 2201, whose
// int16 form copies (last + 1) / 2 lanes (an odd last writes one byte past it).
template <typename T>
uint64_t RaOutCount(Op op, uint32_t last) {
  return RaBitwise<T>(op) && sizeof(T) == 1 ? (uint64_t{last} + 1) / 2 * 2 : last;
}

// Checks the call (extents always; the rest in checked mode) and returns the shape.
template <typename T>
Shape Check(Op op, bool ar, bool reuse, const AscendC::LocalTensor<T>& dst,
            const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<uint8_t>& tmp,
            const uint32_t srcShape[], bool srcInnerPad) {
  const uint32_t blk = 32 / sizeof(T);
  const NpuArch arch = detail::rep::RunningArch();
  Shape s{srcShape[0], srcShape[1], 0};
  // The 950 reads row r at r * last whatever srcInnerPad says (its ReduceSum/Max/Min pages: the
  // parameter is reserved, the alignment comes from srcShape; its other APIs address rows so too).
  const bool padded = srcInnerPad && arch != NpuArch::k3510;
  s.pad = padded ? (s.last + blk - 1) / blk * blk : s.last;
  const std::string api = Name(op);
  const uint64_t in = uint64_t{s.first} * s.pad, out = ar ? s.first : RaOutCount<T>(op, s.last);
  if (in > src.GetSize()) detail::OnTensorOverrun(src.View(), 0, in, sizeof(T), api.c_str());
  if (out > dst.GetSize()) detail::OnTensorOverrun(dst.View(), 0, out, sizeof(T), api.c_str());
  if (!CheckedMode()) return s;
  if (s.first == 0 || s.last == 0) RaiseShape(op, "srcShape has a zero dimension");
  const bool pad_free =
      arch == NpuArch::k3510 && (op == Op::kMax || op == Op::kMin || op == Op::kSum);
  if (!srcInnerPad && !pad_free) {
    RaiseShape(op, "srcInnerPad must be true on this product");
  }
  if (arch == NpuArch::k2002) {  // the kit's reduce.h calls no implementation there
    RaiseKernelCheck(checks::kProduct, api +
                                           ": not provided on arch 2002 (the toolkit's "
                                           "reduce.h compiles the call to nothing there)");
  }
  if (!TypeOnArch<T>(op, arch)) {
    RaiseKernelCheck(checks::kProduct, api + ": this data type is not supported on arch " +
                                           std::to_string(static_cast<uint32_t>(arch)));
  }
  if (arch == NpuArch::k3510 && !pad_free && s.last % blk != 0) {  // the kit's 3510 checks
    RaiseShape(op, "srcShape[1] * sizeof(T) must be a multiple of 32 bytes on this product");
  }
  detail::CheckUbAligned(dst.View(), api.c_str(), "dstTensor");
  detail::CheckUbAligned(src.View(), api.c_str(), "srcTensor");
  constexpr uint32_t ts = std::is_same_v<T, float> || std::is_same_v<T, int32_t>
                              ? 4
                              : (std::is_same_v<T, half> ? 2 : 1);
  const bool u8 = std::is_same_v<T, uint8_t> && (op == Op::kAny || op == Op::kAll);
  const uint64_t need = TmpMinBytes(op, ar, reuse, s.first, s.last, ts, u8);
  math_detail::CheckTmpBuffer(api.c_str(), tmp.View(), need, 0, {});
  if (math_detail::Overlaps(dst.View(), out * sizeof(T), src.View(), in * sizeof(T))) {
    math_detail::RaiseOverlap(api.c_str(), "dstTensor", "srcTensor");
  }
  return s;
}

}  // namespace lngrad::aicore::reduce_detail
