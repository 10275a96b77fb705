// lngrad_replay, what the 2201 reduce APIs' AR pattern leaves in dst, src and the scratch
// (sharedTmpBuffer, or the stack buffer the overloads without it pop), written from the kit's
// sources (asc-devkit mirror HEAD, the files each function names) with no code shared with
// include/ or src/. Each function runs the source's instructions over the operands' elements
// (the scratch as `tmpBytes` bytes; the bytes no instruction stores keep what they held) and
// returns false where the kit's code asserts or where an instruction would store past the
// scratch it is given. Arch 2002 has no implementation of these APIs (the kit's reduce.h calls
// none there).
#pragma once

#include <cstdint>

#include "replay.h"

namespace lngrad_replay {

enum class ArOp { kSum, kMean, kMax, kMin, kProd, kAny, kAll };

// ReduceSum<float, AR, reuse> and ReduceMean<float, AR, reuse> on 2201
// (reduce_sum_v220_impl.h, reduce_mean_v220_impl.h): src holds `first` rows of padLast floats
// (last rounded up to 8); dst gets `first` sums (means). With `reuse` the kit works in src.
bool ReplayReduceSumArScratch(bool mean, bool reuse, float* src, float* dst, uint32_t first,
                              uint32_t last, uint8_t* scratch, uint32_t tmpBytes);

// ReduceMax/ReduceMin<T, AR, reuse> on 2201 (reduce_max_v220_impl.h, reduce_min_v220_impl.h)
// and float ReduceAny/ReduceAll (reduce_any_v220_impl.h, reduce_all_v220_impl.h: the Max and Min
// sequences), all through BlockReduceByLastAxis (reduce_common_util_v220_impl.h): src holds
// `first` rows of padLast elements (last rounded up to 32 bytes); dst gets `first` results. With
// `reuse` the kit works in src. op: kMax, kMin, kAny or kAll.
bool ReplayReduceMaxMinArScratch(ArOp op, bool reuse, float* src, float* dst, uint32_t first,
                                 uint32_t last, uint8_t* scratch, uint32_t tmpBytes);
bool ReplayReduceMaxMinArScratch(ArOp op, bool reuse, Half* src, Half* dst, uint32_t first,
                                 uint32_t last, uint8_t* scratch, uint32_t tmpBytes);

// ReduceAny/ReduceAll<uint8_t, AR> on 2201 (reduce_any_v220_impl.h, reduce_all_v220_impl.h:
// BinaryReduceAnyAllCompute of reduce_common_util_v220_impl.h; isReuseSource changes nothing):
// src holds `first` rows of padLast bytes (last rounded up to 32); dst gets `first` bytes.
bool ReplayReduceAnyAllU8ArScratch(bool any, const uint8_t* src, uint8_t* dst, uint32_t first,
                                   uint32_t last, uint8_t* scratch, uint32_t tmpBytes);

// ReduceProd<float, AR, reuse> on 2201 (reduce_prod_v220_impl.h ReduceProdByLastAxis): src
// holds `first` rows of padLast floats; dst gets `first` products. With `reuse` the rows are
// folded in src; the scratch's first repeat holds the Brcb blocks either way.
bool ReplayReduceProdArScratch(bool reuse, float* src, float* dst, uint32_t first, uint32_t last,
                               uint8_t* scratch, uint32_t tmpBytes);

}  // namespace lngrad_replay
