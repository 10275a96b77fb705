// What the 950 (arch 3510) reduce APIs leave in their source tensor and in sharedTmpBuffer: a
// second, independent scalar replay (issue 28), written by a helper who had not read lngrad's
// model of these stores (include/ascendc/adv/lib/reduce/reduce_3510_mem.h) nor the first replay
// of them (replay_reduce_mem_3510.{h,cpp}).
//
// Read for it, at asc-devkit commit 82b89a15f, impl/adv_api/detail/reduce/:
// reduce_sum/reduce_sum_3510_impl.h, reduce_max/reduce_max_3510_impl.h, reduce_min/...,
// reduce_prod/reduce_prod_3510_impl.h, reduce_any/..., reduce_all/..., reduce_mean/...,
// reduce_common_util_3510_impl.h (CalculateMainR, CalculateFolds, the fold constants),
// reduce_common_util_impl.h (FindClosestPowerOfTwo), reduce_common_ar_reuse_align_3510_impl.h
// (ReduceARImpl, ReduceAROverVLImpl, ReduceARB64OverVL),
// reduce_common_ar_reuse_align_less_than_vl_3510_impl.h (stores to dst only),
// reduce_common_ra_reuse_align_3510_impl.h (ReduceRAImpl: Concat, LessThanVL, OverVL;
// ReduceRAB64ReuseSource), reduce_common_ar_ra_reuse_unalign_3510_impl.h (the in-place unaligned
// AR and RA paths, B64 included), sum/sum_3510_impl.h and mean/mean_3510_impl.h (the level sums in
// the scratch). The loops are walked literally over an image of the whole UB, so a store or a
// load past an operand's end lands where the device's would.
//
// Register operations (not stated by these files; lngrad's register-API semantics, docs §3):
// Reg::Max(s0, s1) gives s0 when s0 is NaN, else s1 when s1 is NaN, else s1 only when strictly
// larger (Min: smaller); Add/Mul round once (float, half), integers wrap; Reg::ReduceSum is the
// adjacent-pair tree over the register's lanes in which inactive lanes take no part.
// dst is not replayed (its values are the other replays' subject): callers compare every UB byte
// outside dst.
#pragma once

#include <cstddef>
#include <cstdint>

namespace lngrad_replay {
namespace rm950b {

enum class Op { kSum, kMax, kMin, kProd };  // ReduceMean = kSum; ReduceAny = kMax, All = kMin
enum class Ty { kF32, kF16, kBf16, kI8, kU8, kI16, kU16, kI32, kU32, kI64, kU64 };

uint32_t SizeOf(Ty t);

// Which kit function's dispatch the call takes (ReduceSum/Mean/Max/Min share one; ReduceProd and
// ReduceAny/All never take the unaligned paths).
enum class Api { kSumMaxMin, kProd, kAnyAll };

struct ReduceCall {
  Api api;
  Op op;
  Ty ty;
  bool ra;               // Pattern::Reduce::RA (srcShape = {R, A}); else AR (srcShape = {A, R})
  bool reuse;            // isReuseSource
  uint32_t first, last;  // srcShape[0], srcShape[1]
  size_t src, tmp;       // byte offsets of src and sharedTmpBuffer in the UB image
};

// Runs the call's loads and stores on src and the scratch over the UB image (ub, ubBytes).
// Returns false where a store would fall outside the image (nothing is stored there).
bool ReplayReduce(uint8_t* ub, size_t ubBytes, const ReduceCall& c);

// Sum(dst, src, tmp, {outter, inner, n}) (T = float or half: kF32 / kF16) and
// Mean<T, accType> (acc kF32 or the same type): the level sums the kit stores in the scratch.
struct SumCall {
  bool mean;
  Ty ty, acc;  // acc: Mean's accType (Sum: ty)
  uint32_t outter, inner, n;
  size_t src, tmp;
};
bool ReplaySumMean(uint8_t* ub, size_t ubBytes, const SumCall& c);

// The bytes past the end of sharedTmpBuffer (tmpBytes long) that the call's stores reach: the
// largest byte offset stored, relative to tmp, minus tmpBytes (0 if none). Same for src.
struct Reach {
  size_t tmpEnd = 0;  // one past the last scratch byte stored (relative to tmp)
  size_t srcEnd = 0;  // one past the last src byte stored (relative to src)
};
Reach ReduceReach(const ReduceCall& c);
Reach SumMeanReach(const SumCall& c);

}  // namespace rm950b
}  // namespace lngrad_replay
