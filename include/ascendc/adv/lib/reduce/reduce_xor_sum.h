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
// Checked mode: splitSize >= calCount (GetReduceXorSumMaxMinTmpSize's minimum), the operands'
// extents and alignment.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>

#include "lib/math/math_common.h"
#include "lngrad_aicore/reduce_ops.h"

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
  LocalTensor<float> work = isReuseSource
                                ? src1Tensor.template ReinterpretCast<float>()
                                : sharedTmpBuffer.template ReinterpretCast<int16_t>()[2 * split]
                                      .template ReinterpretCast<float>();
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
