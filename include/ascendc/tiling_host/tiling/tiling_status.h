// lngrad extension of the Ascend C host tiling API: the result of the last official call.
//
// The official tiling functions return void and, on the device toolkit, only log bad input.
// lngrad's versions print the same message on stderr, leave their outputs untouched, and
// record the outcome here so that programs can check it.
#pragma once

#include "lngrad/status.h"

namespace lngrad::tiling {

// Outcome of the most recent official tiling call (AscendC::Get*TmpSize, AscendC::Get*TilingInfo,
// optiling::TilingDef::SaveToBuffer) made by the calling thread. OK before any call.
const Status& LastTilingStatus();

}  // namespace lngrad::tiling
