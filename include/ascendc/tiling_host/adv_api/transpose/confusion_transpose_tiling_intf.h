// Forwarding header: the toolkit spells this path
// adv_api/transpose/confusion_transpose_tiling_intf.h; the implementation is
// tiling/transform/confusion_transpose_tiling.h.
#pragma once

#include "tiling/transform/confusion_transpose_tiling.h"
