// lngrad C API: the register conversions (the vendor's c_api/reg_compute/reg_convert.h). None
// yet (issue 30: the casts with every RoundMode arrive as rows of the register table).
#pragma once

#include "c_api/utils_intf.h"
