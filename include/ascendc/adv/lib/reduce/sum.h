// lngrad: the Ascend C high-level API Sum (the vendor's adv_api/reduce/sum.h, sum_utils.h):
// dst[r] = the sum of the first n elements of row r (rows of `inner` elements, inner * sizeof(T)
// a multiple of 32), r < outter; half and float.
//
// The sequence of sum_common_impl.h: RepeatReduceSum over the row in Counter mode (one sum per
// repeat of 256 bytes, the repeat's adjacent-pair tree, lanes past n as +0), then the same over
// those sums until one remains. lngrad evaluates each repeat with the basic WholeReduceSum tree
// (lngrad_aicore/repeat_base.h RepeatSum), so the bits are the instruction's; the last row's
// levels but the last stay in sharedTmpBuffer, as the kit's loop leaves them (LeaveSumLevels).
// Arch 3510
// (sum_3510_impl.h): the same levels, each repeat's sum the register ReduceSum tree (inactive
// lanes take no part instead of adding +0; reduce_3510.h SumRow3510); each level of more than
// one sum is left in sharedTmpBuffer as the 950 stores it (reduce_3510_mem.h SumRowMem3510).
//
// Checked mode: n in [1, inner], inner * sizeof(T) a multiple of 32, 32-byte aligned operands,
// sharedTmpBuffer at least GetSumMaxMinTmpSize's value (disjoint from src and dst).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "lib/math/math_common.h"
#include "lib/reduce/reduce_3510.h"
#include "lib/reduce/reduce_3510_mem.h"
#include "lib/reduce/reduce_model.h"
#include "lngrad_aicore/repeat_base.h"

namespace AscendC {

struct SumParams {
  uint32_t outter = 1;
  uint32_t inner;  // n rounded up to 32 bytes
  uint32_t n;      // the elements summed per row
};

}  // namespace AscendC

namespace lngrad::aicore::reduce_detail {

// One row's Sum: repeat sums, level by level.
template <typename T>
T SumRow(const T* x, uint32_t n) {
  constexpr uint32_t kL = detail::rep::kLanes<T>;
  std::vector<T> v(x, x + n);
  while (true) {
    const uint32_t repeats = (static_cast<uint32_t>(v.size()) + kL - 1) / kL;
    std::vector<T> next(repeats);
    for (uint32_t i = 0; i < repeats; ++i) {
      T lanes[kL] = {};
      const uint32_t end = std::min<uint32_t>(static_cast<uint32_t>(v.size()), (i + 1) * kL);
      std::copy(v.begin() + i * kL, v.begin() + end, lanes);
      next[i] = detail::rep::RepeatSum(lanes);
    }
    if (repeats == 1) return next[0];
    v.swap(next);
  }
}

// What sum_common_impl.h (and mean_common_impl.h's MeanCommon) leave in sharedTmpBuffer on
// 2201/2002: with more than one repeat per row, each row's levels of repeat sums but the last
// (that one goes to dst) are stored from the scratch's start, each over the one before, so the
// last row's levels stay (`x`: that row; every row writes the same bytes). One repeat: the
// scratch is not written. A first level past the scratch is an overrun (checked mode raises;
// unchecked, the bytes past it are written, inside the UB, as on the device).
template <typename T>
void LeaveSumLevels(const char* api, SrcLoc loc, const AscendC::LocalTensor<uint8_t>& tmp,
                    const T* x, uint32_t n) {
  constexpr uint32_t kL = detail::rep::kLanes<T>;
  uint8_t* base = tmp.HostPtr();
  if (n <= kL || base == nullptr) return;
  const uint64_t first = (uint64_t{n} + kL - 1) / kL;
  if (first * sizeof(T) > tmp.View().size_bytes) {
    detail::OnTensorOverrun(tmp.View(), 0, first, sizeof(T),
                            (std::string(api) + " sharedTmpBuffer (the level sums)").c_str());
  }
  std::vector<T> v(x, x + n);
  while (v.size() > 1) {
    const uint32_t repeats = (static_cast<uint32_t>(v.size()) + kL - 1) / kL;
    std::vector<T> next(repeats);
    for (uint32_t i = 0; i < repeats; ++i) {
      T lanes[kL] = {};
      const uint32_t end = std::min<uint32_t>(static_cast<uint32_t>(v.size()), (i + 1) * kL);
      std::copy(v.begin() + i * kL, v.begin() + end, lanes);
      next[i] = detail::rep::RepeatSum(lanes);
    }
    if (repeats == 1) break;
    std::memcpy(base, next.data(), sizeof(T) * repeats);
    v.swap(next);
  }
  san::Instr rec(Pipe::kV, api, loc);
  if (rec) rec.Write(base, first * sizeof(T));
}

// GetSumMaxMinTmpSize's value: the first level's sums, rounded up to 32 bytes.
inline uint64_t SumTmpBytes(uint32_t n, uint32_t ts) {
  const uint32_t per_rep = 256 / ts, per_blk = 32 / ts;
  const uint64_t repeats = (uint64_t{n} + per_rep - 1) / per_rep;
  return (repeats + per_blk - 1) / per_blk * per_blk * ts;
}

// GetMeanMaxMinTmpSize's value: the first level's count rounded up to 32 (the toolkit's
// formula), plus the float copy of a row when half accumulates in float.
inline uint64_t MeanTmpBytes(uint32_t n, uint32_t inner, uint32_t ts, bool widen) {
  const uint32_t per_rep = 256 / (widen ? 4 : ts);
  const uint64_t repeats = (uint64_t{n} + per_rep - 1) / per_rep;
  return (repeats + 31) / 32 * 32 + (widen ? uint64_t{inner} * 4 : 0);
}

template <typename T>
void SumCheck(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
              const AscendC::LocalTensor<uint8_t>& tmp, const AscendC::SumParams& p,
              const char* api, uint64_t tmp_need) {
  const std::string name = api;
  const uint64_t in = uint64_t{p.outter} * p.inner;
  if (in > src.GetSize()) {
    detail::OnTensorOverrun(src.View(), 0, in, sizeof(T), (name + " srcTensor").c_str());
  }
  if (p.outter > dst.GetSize()) {
    detail::OnTensorOverrun(dst.View(), 0, p.outter, sizeof(T), (name + " dstTensor").c_str());
  }
  if (!CheckedMode()) return;
  if (p.n == 0 || p.n > p.inner || (uint64_t{p.inner} * sizeof(T)) % 32 != 0) {
    RaiseKernelCheck(checks::kReduceShape,
                     name + ": n is " + std::to_string(p.n) + " and inner " +
                         std::to_string(p.inner) +
                         "; n must be in [1, inner] and inner * sizeof(T) a multiple of 32");
  }
  detail::CheckUbAligned(dst.View(), api, "dstTensor");
  detail::CheckUbAligned(src.View(), api, "srcTensor");
  math_detail::CheckTmpBuffer(api, tmp.View(), tmp_need, 0, {});
}

// The sanitizer record of a row API: the rows read, one value per row written.
template <typename T>
void RecordRows(const char* api, SrcLoc loc, const AscendC::LocalTensor<T>& dst,
                const AscendC::LocalTensor<T>& src, const AscendC::SumParams& p) {
  san::Instr rec(Pipe::kV, api, loc);
  if (!rec) return;
  rec.Read(src.HostPtr(), uint64_t{p.outter} * p.inner * sizeof(T));
  rec.Write(dst.HostPtr(), uint64_t{p.outter} * sizeof(T));
}

// Writes the scratch the 950's Sum/Mean left (Mem) back, and records the write.
template <typename U>
void CommitScratch(const char* api, SrcLoc loc, const Mem<U>& tm) {
  CheckReach(tm, api, "sharedTmpBuffer");
  tm.Commit();
  if (tm.WrittenBytes() == 0) return;
  san::Instr rec(Pipe::kV, api, loc);
  if (rec) rec.Write(tm.Base(), tm.WrittenBytes());
}

}  // namespace lngrad::aicore::reduce_detail

namespace AscendC {

template <typename T, int32_t reduceDim = -1, bool isReuseSource = false, bool isBasicBlock = false>
void Sum(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
         const LocalTensor<uint8_t>& sharedTmpBuffer, const SumParams& sumParams,
         lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  namespace rd = lngrad::aicore::reduce_detail;
  static_assert(lngrad::aicore::math_detail::kHalfOrFloat<T>, "Sum: T must be half or float");
  rd::SumCheck(dstTensor, srcTensor, sharedTmpBuffer, sumParams, "Sum",
               rd::SumTmpBytes(sumParams.n, sizeof(T)));
  lngrad::aicore::detail::RestoreMaskAfterCount(lngrad::aicore::detail::MaskContext("Sum"));
  rd::RecordRows("Sum", loc, dstTensor, srcTensor, sumParams);
  const bool on3510 = rd::On3510();
  const uint64_t offset = rd::SumLevelsOffset<T>(sumParams.inner);
  rd::Mem<T> tm = on3510 ? rd::Mem<T>::Of(sharedTmpBuffer, sumParams.outter * offset)
                         : rd::Mem<T>(nullptr, 0, 0);
  for (uint32_t r = 0; r < sumParams.outter; ++r) {
    const T* x = srcTensor.HostPtr() + uint64_t{r} * sumParams.inner;
    dstTensor.HostPtr()[r] =
        on3510 ? rd::SumRowMem3510(x, sumParams.n, tm, r * offset) : rd::SumRow(x, sumParams.n);
  }
  rd::CommitScratch("Sum", loc, tm);
  if (!on3510 && sumParams.outter != 0) {
    const T* last = srcTensor.HostPtr() + uint64_t{sumParams.outter - 1} * sumParams.inner;
    rd::LeaveSumLevels("Sum", loc, sharedTmpBuffer, last, sumParams.n);
  }
}

template <typename T, int32_t reduceDim = -1, bool isReuseSource = false, bool isBasicBlock = false>
void Sum(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
         const SumParams& sumParams,
         lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  Sum<T, reduceDim, isReuseSource, isBasicBlock>(
      dstTensor, srcTensor, lngrad::aicore::math_detail::StackTmp(), sumParams, loc);
}

}  // namespace AscendC
