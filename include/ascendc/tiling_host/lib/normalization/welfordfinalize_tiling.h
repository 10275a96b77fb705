// Forwarding header: the toolkit spells this path lib/normalization/welfordfinalize_tiling.h; the
// one implementation is tiling/normalization/welford_tiling.h.
#pragma once

#include "tiling/normalization/welford_tiling.h"
