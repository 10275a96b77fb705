// Forwarding header: the toolkit spells this path adv_api/normalization/groupnorm_tiling.h; the one
// implementation is tiling/normalization/groupnorm_tiling.h.
#pragma once

#include "tiling/normalization/groupnorm_tiling.h"
