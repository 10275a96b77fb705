// lngrad C API: the enumerations of the vendor's c_api/utils/enum.h (names and values as the
// reference documents them).
#pragma once

#include <cstdint>

enum class asc_load_l2_cache_mode : uint8_t {
  NORMAL_FIRST_VICTIM = 0,
  NORMAL_LAST_VICTIM = 1,
  NORMAL_PERSISTENT = 2,
  NOTALLOC_KEEP = 4,
  NOTALLOC_CLEAN = 5,
  NOTALLOC_DROP = 6
};

enum class asc_store_l2_cache_mode : uint8_t {
  NORMAL_FIRST_VICTIM = 0,
  NORMAL_LAST_VICTIM = 1,
  NORMAL_PERSISTENT = 2,
  NOTALLOC_CLEAN = 4
};

// The memory asc_sync_data_barrier waits for (a device compiler built-in).
enum class mem_dsb_t : uint8_t { DSB_ALL = 0, DSB_DDR, DSB_UB, DSB_SEQ };
