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

// The vendor's Matmul namespace spells the block index too (matmul::GetBlockIdx()).
namespace matmul {
using AscendC::GetBlockIdx;
}  // namespace matmul
