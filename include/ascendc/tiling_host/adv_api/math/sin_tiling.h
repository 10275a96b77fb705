// Forwarding header: the toolkit spells this path adv_api/math/sin_tiling.h;
// the implementation is tiling/math/math_transcendental_tiling.h.
#pragma once

#include "tiling/math/math_transcendental_tiling.h"
