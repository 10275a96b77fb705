// Forwarding header: the toolkit spells this path adv_api/normalization/deepnorm_tiling.h; the one
// implementation is tiling/normalization/deepnorm_tiling.h.
#pragma once

#include "tiling/normalization/deepnorm_tiling.h"
