// lngrad C API: scalar computation (the vendor's c_api/scalar_compute/scalar_compute.h), on the
// scalar unit's built-ins (lngrad_aicore/scalar_builtins.h).
#pragma once

#include <cstdint>

#include "c_api/utils_intf.h"
#include "lngrad_aicore/scalar_builtins.h"

// asc_clz: the leading zero bits of value_in (64 for 0).
inline int64_t asc_clz(uint64_t value_in) { return clz(value_in); }
