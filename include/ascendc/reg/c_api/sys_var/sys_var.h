// lngrad C API: system variables (the vendor's c_api/sys_var/sys_var.h). block_idx and
// block_num are the simulated AI core's (lngrad_aicore/sys.h).
#pragma once

#include <cstdint>

#include "c_api/utils_intf.h"
#include "lngrad_aicore/sys.h"
#include "lngrad_reg/registers.h"

inline int64_t asc_get_block_idx() { return block_idx; }
inline int64_t asc_get_block_num() { return block_num; }
// VL, the vector register's width in bytes (256 on the 950).
inline constexpr int64_t asc_get_vf_len() { return ::lngrad::reg::kVectorBytes; }
