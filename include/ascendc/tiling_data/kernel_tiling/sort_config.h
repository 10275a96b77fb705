// The configuration types that the sort APIs (lib/sort/) and their host tiling
// (tiling/sort/sort_tiling.h) both take, with the vendor's names and values: SortType,
// SortConfig, TopKMode, TopKAlgo, TopKOrder, TopKConfig.
#pragma once

namespace AscendC {

enum class SortType { RADIX_SORT, MERGE_SORT };

struct SortConfig {
  SortType type = SortType::RADIX_SORT;
  bool isDescend = false;
  bool hasSrcIndex = false;
  bool hasDstIndex = false;
};

enum class TopKMode {
  TOPK_NORMAL,
  TOPK_NSMALL,
};
enum class TopKAlgo { RADIX_SELECT, MERGE_SORT };
enum class TopKOrder { UNSET, LARGEST, SMALLEST };

struct TopKConfig {
  TopKAlgo algo = TopKAlgo::MERGE_SORT;
  TopKOrder order = TopKOrder::UNSET;
  bool sorted = true;
};

}  // namespace AscendC
