// Forwarding header: the toolkit spells this path adv_api/normalization/welfordfinalize_tiling.h;
// the one implementation is tiling/normalization/welford_tiling.h.
#pragma once

#include "tiling/normalization/welford_tiling.h"
