// lngrad: the configuration and parameter structs of AscendC::WelfordFinalize, with the
// toolkit's names (adv_api/normalization/welfordfinalize_utils.h). rRecWithCorrection exists on
// arch 3510 only, as on the device.
#pragma once

#include <cstdint>

#include "lngrad_aicore/defs.h"

namespace AscendC {

struct WelfordFinalizeConfig {
  __aicore__ constexpr WelfordFinalizeConfig(const bool isCorrectionIn)
      : isCorrection(isCorrectionIn) {}
  bool isCorrection = false;
};
constexpr WelfordFinalizeConfig WFFINALIZE_DEFAULT_CFG = {false};

struct WelfordFinalizePara {
  uint32_t rnLength;
  uint32_t abLength;
  uint32_t headCount;
  uint32_t headCountLength;
  uint32_t tailCount;
  uint32_t tailCountLength;
  float abRec;
  float rRec;
#if __NPU_ARCH__ == 3510
  float rRecWithCorrection;
#endif
};

}  // namespace AscendC
