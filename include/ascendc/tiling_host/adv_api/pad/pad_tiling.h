// Forwarding header: the toolkit spells this path adv_api/pad/pad_tiling.h;
// the implementation is tiling/transform/pad_tiling.h.
#pragma once

#include "tiling/transform/pad_tiling.h"
