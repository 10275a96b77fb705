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
