// The system workspace pointer kernels hand to REGIST_MATMUL_OBJ (GetSysWorkSpacePtr). lngrad's
// Matmul keeps no state in GM, so the pointer is a fixed, non-null placeholder that is never
// read or written.
#pragma once

#include <cstdint>

#include "lngrad_aicore/defs.h"

namespace AscendC {
inline __gm__ uint8_t* GetSysWorkSpacePtr() {
  alignas(64) static uint8_t placeholder[64];
  return placeholder;
}
}  // namespace AscendC
using AscendC::GetSysWorkSpacePtr;
