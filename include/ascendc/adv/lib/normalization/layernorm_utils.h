// lngrad: the configuration and parameter structs of the [A, R] LayerNorm (the toolkit's
// layernorm_utils.h and layernorm_normal_config.h; spec §10.1), with the toolkit's names.
#pragma once

#include <cstdint>

#include "lngrad_aicore/defs.h"

namespace AscendC {

// isOnlyOutput must be false. isOutputRstd (3510 only): false makes the third output the
// variance; arch 2201/2002 always output rstd.
struct LayerNormConfig {
  bool isNoBeta = false;
  bool isNoGamma = false;
  bool isOnlyOutput = false;
  bool isOutputRstd = true;
};

struct LayerNormPara {
  uint32_t aLength;
  uint32_t rLength;
  uint32_t rLengthWithPadding;
};

__aicore__ constexpr LayerNormConfig GetLayerNormNormalConfig() {
  return {.isNoBeta = false, .isNoGamma = false, .isOnlyOutput = false, .isOutputRstd = true};
}

inline constexpr LayerNormConfig LNCFG_NORM = GetLayerNormNormalConfig();

}  // namespace AscendC
