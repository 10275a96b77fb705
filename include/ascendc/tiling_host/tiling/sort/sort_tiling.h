// Host side of the sort APIs (lib/sort/sort.h, topk.h), with the vendor's names, signatures and
// values (impl/adv_api/tiling/sort/{sort,topk}_tiling_impl.cpp).
// - GetConcatTmpSize: 0 on arch 2201/3510, elemCount * 8 * typeSize elsewhere.
// - GetSortTmpSize: elemCount * (float 2, half 4) * typeSize on 2201/3510, elemCount * 8 *
//   typeSize elsewhere.
// - GetSortMaxMinTmpSize (the 950 Sort; arch 3510 only): MERGE_SORT 8 bytes per element;
//   RADIX_SORT with n = align32(elements): 7n + 512, plus n * typeSize (values only), n * (4 +
//   typeSize) (dst index only) or n * (typeSize + indexSize) (both), the type sizes 0 with
//   isReuseSource; 1-byte values: nothing extra, 2n less with dst index only. On another arch:
//   the toolkit's error, and (lngrad's choice, where the toolkit leaves them unset) 0 and 0.
// - TopKTilingFunc / GetTopKMaxMinTmpSize: the TopkTiling fields and scratch of the toolkit per
//   arch (2201: TOPK_NORMAL (16 + 4 without isInitIndex) * inner bytes; TOPK_NSMALL inner *
//   outter * (8 + 4 when !isLargest + 4 without isInitIndex) + 64; 3510: 16 * inner (+ 4 *
//   inner) and 8 * inner * outter (+ 4 * inner * outter); 2002: the proposal sizes).
// Bad input: a message on stderr, outputs untouched, lngrad::tiling::LastTilingStatus() set.
#pragma once

#include <cstdint>

#include "graph/tensor.h"
#include "graph/types.h"
#include "kernel_tiling/kernel_tiling.h"
#include "kernel_tiling/sort_config.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_types.h"

namespace AscendC {

constexpr uint32_t REGION_PROPOSAL_DATA_SIZE_V200 = 8;
constexpr uint32_t REGION_PROPOSAL_DATA_SIZE_HALF_V220 = 4;
constexpr uint32_t REGION_PROPOSAL_DATA_SIZE_FLOAT_V220 = 2;

uint32_t GetConcatTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform,
                          const uint32_t elemCount, const uint32_t dataTypeSize);
uint32_t GetSortTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform,
                        const uint32_t elemCount, const uint32_t dataTypeSize);
void GetSortMaxMinTmpSize(const ge::Shape& srcShape, ge::DataType valueType, ge::DataType indexType,
                          bool isReuseSource, const SortConfig& config, uint32_t& maxValue,
                          uint32_t& minValue);

bool GetTopKMaxMinTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform,
                          const int32_t inner, const int32_t outter, const bool isReuseSource,
                          const bool isInitIndex, enum TopKMode mode, const bool isLargest,
                          const uint32_t dataTypeSize, uint32_t& maxValue, uint32_t& minValue);
// The 950 radix-select form (arch 3510): type size ts * inner + max(4 * inner, 512) (8-byte
// types: ts * max(inner, 256) + ...), plus ts * inner to twiddle the data (signed and float types,
// or !isLargest, without isReuseSource), 4 * inner (TOPK_NORMAL) or 4 * inner * outter
// (TOPK_NSMALL) without isInitIndex, and with config.sorted the 950 Sort's size for k elements
// with int32 indexes, descending.
bool GetTopKMaxMinTmpSize(const int32_t inner, const int32_t outter, const int32_t k,
                          const bool isReuseSource, const bool isInitIndex, enum TopKMode mode,
                          const bool isLargest, ge::DataType dataType, const TopKConfig& config,
                          uint32_t& maxValue, uint32_t& minValue);
bool TopKTilingFunc(const platform_ascendc::PlatformAscendC& ascendcPlatform, const int32_t inner,
                    const int32_t outter, const int32_t k, const uint32_t dataTypeSize,
                    const bool isInitIndex, enum TopKMode mode, const bool isLargest,
                    optiling::TopkTiling& topKTiling);
bool TopKTilingFunc(const platform_ascendc::PlatformAscendC& ascendcPlatform, const int32_t inner,
                    const int32_t outter, const int32_t k, const uint32_t dataTypeSize,
                    const bool isInitIndex, enum TopKMode mode, const bool isLargest,
                    AscendC::tiling::TopkTiling& topKTiling);

}  // namespace AscendC
