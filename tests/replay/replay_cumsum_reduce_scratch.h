// lngrad_replay, what CumSum, the 2201 reduce APIs and TopK leave in their scratch on arch
// 2201/2002 (sharedTmpBuffer, or the stack buffer the overloads without it pop), written from
// the kit's sources (asc-devkit commit 82b89a15f; each .cpp says which files) with no code
// shared with include/ or src/. Each function runs the source's instructions on the scratch's
// bytes (`scratch`, tmpBytes long; the bytes no instruction stores to keep what they held) and
// gives the outputs too. They return false where the kit's code asserts or divides by zero.
#pragma once

#include <cstdint>

#include "replay.h"

namespace lngrad_replay {

// CumSum<T, {isLastAxis, ..., outputLastRow}> on 2201/2002 (cumsum_common_impl.h): dst
// (outer * inner), lastRow (inner, or nullptr), and the scratch.
bool ReplayCumSumScratch(const float* src, float* dst, float* lastRow, uint32_t outer,
                         uint32_t inner, bool lastAxis, uint8_t* scratch, uint32_t tmpBytes);
bool ReplayCumSumScratch(const Half* src, Half* dst, Half* lastRow, uint32_t outer, uint32_t inner,
                         bool lastAxis, uint8_t* scratch, uint32_t tmpBytes);

}  // namespace lngrad_replay

namespace lngrad_replay {

// The RA pattern of ReduceSum/Mean/Max/Min/Prod/Any/All on 2201 (2002 has none)
// (reduce_common_util_v220_impl.h BinaryReduceByFirstAxis, as the reduce_*_v220_impl.h files
// call it): src holds first rows of padLast elements (last rounded up to 32 bytes), dst gets
// `last` results (uint8 Any/All: the int16 form, (last + 1) / 2 lanes, so an even byte count);
// with `reuse` the fold runs in src (written back), else in the scratch.
enum class RaOp { kSum, kMean, kMax, kMin, kProd, kAny, kAll };
bool ReplayReduceRaScratch(RaOp op, bool reuse, float* src, float* dst, uint32_t first,
                           uint32_t last, uint8_t* scratch, uint32_t tmpBytes);
bool ReplayReduceRaScratch(RaOp op, bool reuse, Half* src, Half* dst, uint32_t first, uint32_t last,
                           uint8_t* scratch, uint32_t tmpBytes);
bool ReplayReduceRaScratch(RaOp op, bool reuse, uint8_t* src, uint8_t* dst, uint32_t first,
                           uint32_t last, uint8_t* scratch, uint32_t tmpBytes);

}  // namespace lngrad_replay
