// Forwarding header: the toolkit spells this path adv_api/math/logical_ors_tiling.h;
// the implementation is tiling/math/math_tiling.h.
#pragma once

#include "tiling/math/math_tiling.h"
