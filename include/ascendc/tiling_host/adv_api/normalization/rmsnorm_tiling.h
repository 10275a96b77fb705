// Forwarding header: the toolkit spells this path adv_api/normalization/rmsnorm_tiling.h; the one
// implementation is tiling/normalization/rmsnorm_tiling.h.
#pragma once

#include "tiling/normalization/rmsnorm_tiling.h"
