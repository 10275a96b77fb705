// lngrad: the Normalize configuration and parameter structs of the toolkit's
// normalize_utils.h / normalize_config.h (spec §10.1), with the toolkit's names and defaults.
#pragma once

#include <cstdint>

#include "kernel_tiling/reduce_pattern.h"
#include "lngrad_aicore/defs.h"

namespace AscendC {

// Only reducePattern AR and isOnlyOutput false run; aLength -1 (any) or para.aLength.
struct NormalizeConfig {
  ReducePattern reducePattern = ReducePattern::AR;
  int32_t aLength = -1;
  bool isNoBeta = false;
  bool isNoGamma = false;
  bool isOnlyOutput = false;
};

// [A, R] with rows rLengthWithPadding elements apart (32-byte aligned for T), rLength real.
struct NormalizePara {
  uint32_t aLength;
  uint32_t rLength;
  uint32_t rLengthWithPadding;
};

__aicore__ constexpr NormalizeConfig GetNormalizeConfig(bool isNoBeta, bool isNoGamma) {
  return {.reducePattern = ReducePattern::AR,
          .aLength = -1,
          .isNoBeta = isNoBeta,
          .isNoGamma = isNoGamma,
          .isOnlyOutput = false};
}

inline constexpr NormalizeConfig NLCFG_NORM = GetNormalizeConfig(false, false);
inline constexpr NormalizeConfig NLCFG_NOBETA = GetNormalizeConfig(true, false);
inline constexpr NormalizeConfig NLCFG_NOGAMMA = GetNormalizeConfig(false, true);
inline constexpr NormalizeConfig NLCFG_NOOPT = GetNormalizeConfig(true, true);

}  // namespace AscendC
