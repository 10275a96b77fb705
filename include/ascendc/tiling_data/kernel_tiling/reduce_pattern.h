// ReducePattern: the reduce pattern enum that the [A, R] APIs (Normalize, lib/normalization/)
// and the reduce APIs' host tiling (tiling/reduce/reduce_tiling.h) both take, with the vendor's
// values.
#pragma once

#include <cstdint>

namespace AscendC {

enum class ReducePattern : uint32_t {
  AR = 0,
  RA = 1,
  R,
  ARA,
  ARAR,
  ARARA,
  ARARAR,
  ARARARA,
  ARARARAR,
  ARARARARA,
  RAR,
  RARA,
  RARAR,
  RARARA,
  RARARAR,
  RARARARA,
};

}  // namespace AscendC
