// A replay of the kit's TopK radix select on arch 3510, written from the vendor's
// impl/adv_api/detail/sort/topk/topk_3510_impl.h (namespace Reg::RadixSelectTopK: TopKNormal,
// TopKNSmall, TopKRaidxSelect, InitializeTempBuffer, GenerateAccumulateData with
// FilterDataAndGivenByteFromOri and the ACCUMULATE Histograms, the threshold's binary search,
// GatherGreaterAndEqualKData/Index, SaveData, SaveDataUnAlign), sort_common_utils.h
// (TwiddleInData/TwiddleOutData) and sort_impl.h's RADIX_SORT with indexes (SortImpl,
// ArrangeCommonTmpBuffer, GetExclusiveSum, EightBitsSort, LocalSort,
// UpdateValueAndIndexByLocalIndex: what `sorted`'s Sort leaves in its scratch too), for lngrad's
// tests; no code shared with include/ (the helper who wrote the Sort's part also changed
// lngrad's lib/sort/topk_3510.h and radix_sort_950_scratch.h). It runs the sequence vector
// chunk by vector chunk (256 bytes, UpdateMask's tails) on byte images of the buffers.
#pragma once

#include <cstdint>
#include <vector>

namespace lngrad_replay::topk3510radix {

enum class Kind { kUnsigned, kSigned, kFloat };

struct Case {
  uint32_t es = 4;  // the element's bytes: 1, 2 or 4
  Kind kind = Kind::kFloat;
  uint32_t outter = 1, inner = 32, n = 32, k = 1;
  bool init = false;    // isInitIndex
  bool nsmall = false;  // TOPK_NSMALL
  bool largest = true;  // after the config's order
  bool sorted = true;   // config.sorted
  bool reuse = false;   // isReuseSrc
};

// Byte images of srcLocal, srcIndexLocal, tmpLocal, dstValueLocal and dstIndexLocal.
struct Images {
  std::vector<uint8_t> src, idx, tmp, dv, di;
};

// Runs the kit's TopK (RADIX_SELECT) over the images (tmp must hold the Sort's scratch too).
void Run(const Case& c, Images& im);

// The Sort `sorted` calls, on its own: Sort<U, int32_t, false, {RADIX_SORT, true}> of count
// unsigned es-byte values at im.src with int32_t indexes at im.idx, its sharedTmpBuffer im.tmp;
// writes im.dv, im.di and im.tmp.
void SortRadixDescend(uint32_t es, uint32_t count, Images& im);

}  // namespace lngrad_replay::topk3510radix
