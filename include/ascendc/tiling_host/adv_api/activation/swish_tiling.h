// Forwarding header: the toolkit spells this path adv_api/activation/swish_tiling.h;
// the implementation is tiling/activation/eltwise_tiling.h.
#pragma once

#include "tiling/activation/eltwise_tiling.h"
