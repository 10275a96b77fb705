// Forwarding header: the toolkit spells this path lib/normalization/batchnorm_tiling.h; the one
// implementation is tiling/normalization/batchnorm_tiling.h.
#pragma once

#include "tiling/normalization/batchnorm_tiling.h"
