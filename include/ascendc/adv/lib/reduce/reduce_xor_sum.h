// lngrad: the Ascend C high-level API ReduceXorSum (the vendor's adv_api/reduce/reduce_xor_sum.h):
// dst[0] = the sum of src0[i] ^ src1[i] over i < calCount, int16_t.
//
// The sequence of reduce_xor_sum_common_impl.h: the xor (And, Or, Not, And: exact), the cast to
// float (exact), the basic ReduceSum over calCount floats in the scratch (run here as that very
// instruction, so its tree and its work area are the basic API's), the cast back to int16_t with
// CAST_ROUND (half away from zero; lngrad saturates to the int16_t range). The scratch is split
// as the device splits it: splitSize = bytes / 2 / (3, or 2 with isReuseSource) rounded down to
// 32 elements; the floats start at its base and the ReduceSum work area is the third part (src1
// with isReuseSource, which the API then overwrites).
//
// Arch 2002 (reduce_xor_sum_v200_impl.h; its Cast table has no int16_t <-> float pair): the same
// instructions, the casts through half: the xor Cast to half in place (CAST_NONE: to nearest
// even, so |x ^ y| > 2048 rounds), half to float, the ReduceSum, the sum Cast to half
// (CAST_NONE, the block's overflow mode) into dst and that half to int16_t (CAST_RINT,
// saturated). lngrad runs these very instructions, so the scratch holds what they leave.
//
// Arch 3510 (reduce_xor_sum_3510_impl.h): no scratch is used; per register of 64 lanes the xor
// cast to float, that register's ReduceSum tree (reduce_3510.h LaneTree) added onto a running
// float from +0 (so partial sums past 2^24 round in that order), then the cast to int16_t
// (nearest even, saturated). The device loads whole 64-element vectors (masked past calCount).
//
// Checked mode: splitSize >= calCount (GetReduceXorSumMaxMinTmpSize's minimum), the operands'
// extents and alignment.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include "lib/math/math_common.h"
#include "lib/reduce/reduce_3510.h"
#include "lngrad_aicore/logic_ops.h"
#include "lngrad_aicore/reduce_ops.h"
#include "lngrad_aicore/vector_cast.h"

namespace lngrad::aicore::reduce_detail {

// ReduceXorSum's result on the 950 (the header's arch 3510 paragraph).
inline int16_t XorSum3510(const int16_t* a, const int16_t* b, uint32_t n) {
  float acc = 0.0f;
  float v[kVl3510];
  for (uint32_t base = 0; base < n; base += kVl3510) {
    const uint32_t lanes = std::min(kVl3510, n - base);
    for (uint32_t i = 0; i < lanes; ++i) {
      v[i] = static_cast<float>(static_cast<int16_t>(a[base + i] ^ b[base + i]));
    }
    acc = detail::rep::Add(acc, LaneTree(Op::kSum, v, lanes, kVl3510));
  }
  return static_cast<int16_t>(std::clamp(std::nearbyint(acc), -32768.0f, 32767.0f));
}

// ReduceXorSum on arch 2002: reduce_xor_sum_v200_impl.h's instructions (the header's arch 2002
// paragraph). split: the scratch's third in int16_t elements; work: ReduceSum's work area.
template <typename T>
void XorSum2002(AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src0,
                const AscendC::LocalTensor<T>& src1, AscendC::LocalTensor<uint8_t>& tmp,
                uint32_t split, const AscendC::LocalTensor<float>& work, uint32_t calCount,
                SrcLoc loc) {
  using AscendC::RoundMode;
  const int32_t n = static_cast<int32_t>(calCount);
  AscendC::LocalTensor<int16_t> both = tmp.template ReinterpretCast<int16_t>();
  AscendC::LocalTensor<int16_t> xorv = both[split];
  AscendC::And(both, src0, src1, n);
  AscendC::Or(xorv, src0, src1, n);
  AscendC::PipeBarrier<PIPE_V>();
  AscendC::Not(both, both, n);
  AscendC::PipeBarrier<PIPE_V>();
  AscendC::And(xorv, both, xorv, n);
  AscendC::PipeBarrier<PIPE_V>();
  const AscendC::LocalTensor<half> xorHalf = xorv.template ReinterpretCast<half>();
  const AscendC::LocalTensor<float> values = both.template ReinterpretCast<float>();
  AscendC::Cast(xorHalf, xorv, RoundMode::CAST_NONE, calCount);
  AscendC::PipeBarrier<PIPE_V>();
  {
    // The kit's float values start at the scratch's base and overrun the xor part when calCount
    // is above a third of the scratch's halves: a partial overlap the checked Cast refuses.
    // Element i's write reaches only source elements at or below i, already read in index
    // order (as in the device's repeats), so the values are written here directly.
    san::Instr rec(Pipe::kV, "Cast", loc);
    if (rec) {
      rec.Read(xorHalf.HostPtr(), uint64_t{calCount} * sizeof(half));
      rec.Write(values.HostPtr(), uint64_t{calCount} * sizeof(float));
    }
    const auto* from = reinterpret_cast<const std::byte*>(xorHalf.HostPtr());
    auto* to = reinterpret_cast<std::byte*>(values.HostPtr());
    for (uint32_t i = 0; i < calCount; ++i) {
      half h;
      std::memcpy(&h, from + i * sizeof(half), sizeof(half));
      const float f = static_cast<float>(h);  // exact
      std::memcpy(to + i * sizeof(float), &f, sizeof(float));
    }
  }
  AscendC::PipeBarrier<PIPE_V>();
  AscendC::ReduceSum<float>(values, values, work, n);
  AscendC::PipeBarrier<PIPE_V>();
  const AscendC::LocalTensor<half> dstHalf = dst.template ReinterpretCast<half>();
  AscendC::Cast(dstHalf, values, RoundMode::CAST_NONE, 1);
  AscendC::PipeBarrier<PIPE_V>();
  AscendC::Cast(dst, dstHalf, RoundMode::CAST_RINT, 1);
}

}  // namespace lngrad::aicore::reduce_detail

namespace AscendC {

template <typename T, bool isReuseSource = false>
void ReduceXorSum(LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                  const LocalTensor<T>& src1Tensor, LocalTensor<uint8_t>& sharedTmpBuffer,
                  const uint32_t calCount,
                  lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  namespace m = lngrad::aicore::math_detail;
  static_assert(std::is_same_v<T, int16_t>, "ReduceXorSum: T must be int16_t");
  const char* api = "ReduceXorSum";
  m::CheckElementwise(api, calCount, m::Products::kAll, m::Overlap::kNone,
                      {m::Op(src0Tensor, "src0Tensor"), m::Op(src1Tensor, "src1Tensor")});
  const uint32_t split = static_cast<uint32_t>(sharedTmpBuffer.GetSize() / sizeof(T) /
                                               (isReuseSource ? 2 : 3) / 32 * 32);
  if (lngrad::aicore::CheckedMode() && split < calCount) {
    lngrad::aicore::RaiseKernelCheck(lngrad::aicore::checks::kTmpBuffer,
                                     std::string(api) + ": sharedTmpBuffer splits into " +
                                         std::to_string(split) + " elements, fewer than calCount " +
                                         std::to_string(calCount));
  }
  dstTensor.Access(0, 1, "ReduceXorSum dstTensor");
  if (lngrad::aicore::reduce_detail::On3510()) {
    lngrad::aicore::san::Instr rec(lngrad::aicore::Pipe::kV, api, loc);
    if (rec) {
      rec.Read(src0Tensor.HostPtr(), uint64_t{calCount} * sizeof(T));
      rec.Read(src1Tensor.HostPtr(), uint64_t{calCount} * sizeof(T));
      rec.Write(dstTensor.HostPtr(), sizeof(T));
    }
    dstTensor.HostPtr()[0] = lngrad::aicore::reduce_detail::XorSum3510(
        src0Tensor.HostPtr(), src1Tensor.HostPtr(), calCount);
    return;
  }
  LocalTensor<float> work = isReuseSource
                                ? src1Tensor.template ReinterpretCast<float>()
                                : sharedTmpBuffer.template ReinterpretCast<int16_t>()[2 * split]
                                      .template ReinterpretCast<float>();
  if (lngrad::aicore::detail::rep::RunningArch() == lngrad::NpuArch::k2002) {
    lngrad::aicore::reduce_detail::XorSum2002(dstTensor, src0Tensor, src1Tensor, sharedTmpBuffer,
                                              split, work, calCount, loc);
    return;
  }
  LocalTensor<float> values = sharedTmpBuffer.template ReinterpretCast<float>();
  values.Access(0, calCount, "ReduceXorSum sharedTmpBuffer");
  {
    lngrad::aicore::san::Instr rec(lngrad::aicore::Pipe::kV, api, loc);
    if (rec) {
      rec.Read(src0Tensor.HostPtr(), uint64_t{calCount} * sizeof(T));
      rec.Read(src1Tensor.HostPtr(), uint64_t{calCount} * sizeof(T));
      rec.Write(values.HostPtr(), uint64_t{calCount} * sizeof(float));
    }
  }
  for (uint32_t i = 0; i < calCount; ++i) {
    values.HostPtr()[i] =
        static_cast<float>(static_cast<T>(src0Tensor.HostPtr()[i] ^ src1Tensor.HostPtr()[i]));
  }
  PipeBarrier<PIPE_V>();
  ReduceSum<float>(values, values, work, static_cast<int32_t>(calCount));
  PipeBarrier<PIPE_V>();
  lngrad::aicore::san::Instr rec(lngrad::aicore::Pipe::kV, api, loc);
  if (rec) {
    rec.Read(values.HostPtr(), sizeof(float));
    rec.Write(dstTensor.HostPtr(), sizeof(T));
  }
  const float r = std::round(values.HostPtr()[0]);
  dstTensor.HostPtr()[0] = static_cast<T>(std::clamp(r, -32768.0f, 32767.0f));
}

template <typename T, bool isReuseSource = false>
void ReduceXorSum(LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                  const LocalTensor<T>& src1Tensor, const uint32_t calCount,
                  lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  LocalTensor<uint8_t> tmp = lngrad::aicore::math_detail::StackTmp();
  ReduceXorSum<T, isReuseSource>(dstTensor, src0Tensor, src1Tensor, tmp, calCount, loc);
}

}  // namespace AscendC
