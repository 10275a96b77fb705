// The system workspace pointer kernels hand to REGIST_MATMUL_OBJ (GetSysWorkSpacePtr). lngrad's
// Matmul keeps no state in GM, so the pointer is a fixed, non-null placeholder that is never
// read or written.
#pragma once

#include <cstdint>

#include "lngrad_aicore/defs.h"
#include "lngrad_aicore/launch.h"

namespace AscendC {
inline __gm__ uint8_t* GetSysWorkSpacePtr() {
  alignas(64) static uint8_t placeholder[64];
  return placeholder;
}
}  // namespace AscendC
using AscendC::GetSysWorkSpacePtr;

// The vendor's Matmul namespace is AscendC's other name (matmul::GetBlockIdx(), and
// `using namespace matmul;` before Matmul and MatmulType).
namespace matmul = AscendC;

// A kernel parameter's mark for the Matmul's system workspace on mixed kernels: nothing on lngrad.
#define __kfc_workspace__
