// Forwarding header: the toolkit spells this path lib/normalization/normalize_tiling.h; the one
// implementation is tiling/normalization/normalize_tiling.h.
#pragma once

#include "tiling/normalization/normalize_tiling.h"
