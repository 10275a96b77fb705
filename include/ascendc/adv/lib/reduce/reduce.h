// lngrad: the Ascend C high-level reduce APIs over a 2-dim source (the vendor's
// adv_api/reduce/reduce.h): ReduceSum, ReduceMean, ReduceMax, ReduceMin, ReduceProd, ReduceAny,
// ReduceAll, each with and without sharedTmpBuffer. srcShape = {first, last}; the source is
// `first` rows of `last` elements, each row padded to 32 bytes when srcInnerPad. Pattern AR
// reduces the last axis (dst gets `first` values), RA the first (dst gets `last` values).
//
// Types: half/float (Max, Min, Mean), float (Sum, Prod), float/uint8_t (Any, All) on arch 2201;
// arch 3510 adds the integer types of ReduceMax/ReduceMin/ReduceSum. The trees: reduce_model.h.
// isReuseSource lets the API overwrite src with partial results (lngrad writes those of the RA
// fold); the scratch contents after a call are not promised.
//
// Checked mode: srcShape without zero dimensions, srcInnerPad true (except ReduceMax/Min/Sum on
// 3510), the type on the running product (checks::kProduct), 32-byte aligned operands, dst
// disjoint from src, sharedTmpBuffer at least the GetReduceXxxMaxMinTmpSize minimum.
#pragma once

#include <cstdint>
#include <type_traits>

#include "lib/reduce/reduce_common.h"
#include "lib/reduce/reduce_model.h"

namespace AscendC {

#define LNGRAD_HIGH_LEVEL_REDUCE(NAME, OP)                                                         \
  template <class T, class pattern, bool isReuseSource = false>                                    \
  void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                      \
            const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t srcShape[],                \
            bool srcInnerPad, lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {    \
    static_assert(std::is_same_v<pattern, Pattern::Reduce::AR> ||                                  \
                      std::is_same_v<pattern, Pattern::Reduce::RA>,                                \
                  #NAME ": only the AR and RA patterns are supported");                            \
    lngrad::aicore::reduce_detail::Run(OP, std::is_same_v<pattern, Pattern::Reduce::AR>,           \
                                       isReuseSource, dstTensor, srcTensor, sharedTmpBuffer,       \
                                       srcShape, srcInnerPad, loc);                                \
  }                                                                                                \
  template <class T, class pattern, bool isReuseSource = false>                                    \
  void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                      \
            const uint32_t srcShape[], bool srcInnerPad,                                           \
            lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {                      \
    NAME<T, pattern, isReuseSource>(dstTensor, srcTensor, lngrad::aicore::math_detail::StackTmp(), \
                                    srcShape, srcInnerPad, loc);                                   \
  }

LNGRAD_HIGH_LEVEL_REDUCE(ReduceSum, lngrad::aicore::reduce_detail::Op::kSum)
LNGRAD_HIGH_LEVEL_REDUCE(ReduceMean, lngrad::aicore::reduce_detail::Op::kMean)
LNGRAD_HIGH_LEVEL_REDUCE(ReduceMax, lngrad::aicore::reduce_detail::Op::kMax)
LNGRAD_HIGH_LEVEL_REDUCE(ReduceMin, lngrad::aicore::reduce_detail::Op::kMin)
LNGRAD_HIGH_LEVEL_REDUCE(ReduceProd, lngrad::aicore::reduce_detail::Op::kProd)
LNGRAD_HIGH_LEVEL_REDUCE(ReduceAny, lngrad::aicore::reduce_detail::Op::kAny)
LNGRAD_HIGH_LEVEL_REDUCE(ReduceAll, lngrad::aicore::reduce_detail::Op::kAll)
#undef LNGRAD_HIGH_LEVEL_REDUCE

}  // namespace AscendC
