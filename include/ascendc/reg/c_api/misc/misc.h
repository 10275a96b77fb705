// lngrad C API: miscellaneous functions (the vendor's c_api/misc/misc.h).
#pragma once

#include "c_api/utils_intf.h"
#include "lngrad_aicore/sys.h"

// asc_init: puts the AI core's state to its defaults (InitSocState).
inline void asc_init(::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {
  AscendC::InitSocState(loc);
}
