// Forwarding header: the toolkit spells this path adv_api/math/digamma_tiling_intf.h;
// the implementation is tiling/math/math_gamma_tiling.h.
#pragma once

#include "tiling/math/math_gamma_tiling.h"
