// Host side of the high-level reduce APIs (lib/reduce/*.h): the scratch sizes, with the
// vendor's names, signatures and values (impl/adv_api/tiling/reduce/{reduce,sum}_tiling.cpp).
// Every GetReduceXxxMaxMinTmpSize answers max == min, in bytes, for srcShape {first, last}:
//   isReuseSource: 0 (ReduceProd AR: 256; ReduceAny/All uint8 AR: as below, reuse ignored).
//   ReduceMax/Min/Any/All (float, half): AR: 0 when last <= 32/ts, first * 32 bytes when
//     last < 256/ts, else first * 256 bytes; RA: k(first) * align32(last * ts).
//   ReduceSum/Mean (float): AR: 0 when last <= 64, else first * k'(last) * 4; RA:
//     k(first) * align8(last) * 4.
//   ReduceProd (float): AR: (max(8, k'(last)) + first * 8) * 4 + 256; RA: k(first) *
//     align32(last * 4).
//   ReduceAny/All uint8_t: AR: align32(last) * 2 + first * 32; RA: k(first) * align32(last).
// k(n): the largest power of two <= n, halved when it equals n > 1; k'(n): the same, halved
// when it equals n and first > 1. ts: the type's size.
// Checks (the vendor's): srcShape has 2 dims, both > 0; isSrcInnerPad true (except ReduceMax,
// ReduceMin and ReduceSum on arch 3510); pattern AR or RA; the data type on the product.
// GetSumMaxMinTmpSize(n, typeSize): align(ceil(n / (256 / ts)), 32 / ts) * ts.
// GetMeanMaxMinTmpSize(n, srcTypeSize, accTypeSize): align(ceil(n / (256 / ts)), 32) (the
// toolkit rounds the repeat count up to 32 and answers it as bytes), plus align32(n * 2) * 2
// (the float row: inner * 4, inner = align32(n * 2) / 2) for half accumulated in float; (ts, acc)
// must be (2, 2), (4, 4) or (2, 4). GetMeanTmpBufferFactorSize: maxLiveNodeCount 1, extraBuffer 0.
// GetReduceXorSumMaxMinTmpSize (typeSize 2): (2 with isReuseSource, else 3) * max(n * 2, 256).
// Bad input: a message on stderr, outputs untouched, lngrad::tiling::LastTilingStatus() set.
#pragma once

#include <cstdint>

#include "graph/tensor.h"
#include "graph/types.h"
#include "kernel_tiling/reduce_pattern.h"

namespace AscendC {

#define LNGRAD_REDUCE_TMP_SIZE(Name)                                                           \
  void Get##Name##MaxMinTmpSize(const ge::Shape& srcShape, const ge::DataType dataType,        \
                                ReducePattern pattern, bool isSrcInnerPad, bool isReuseSource, \
                                uint32_t& maxValue, uint32_t& minValue);
LNGRAD_REDUCE_TMP_SIZE(ReduceProd)
LNGRAD_REDUCE_TMP_SIZE(ReduceSum)
LNGRAD_REDUCE_TMP_SIZE(ReduceMean)
LNGRAD_REDUCE_TMP_SIZE(ReduceMax)
LNGRAD_REDUCE_TMP_SIZE(ReduceMin)
LNGRAD_REDUCE_TMP_SIZE(ReduceAny)
LNGRAD_REDUCE_TMP_SIZE(ReduceAll)
#undef LNGRAD_REDUCE_TMP_SIZE

void GetSumMaxMinTmpSize(const uint32_t n, const uint32_t typeSize, const bool isReuseSource,
                         uint32_t& maxSize, uint32_t& minSize);

void GetMeanMaxMinTmpSize(const uint32_t n, const uint32_t srcTypeSize, const uint32_t accTypeSize,
                          const bool isReuseSource, uint32_t& maxSize, uint32_t& minSize);
void GetReduceXorSumMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                                  const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue);
void GetMeanTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount,
                                uint32_t& extraBuffer);

}  // namespace AscendC
