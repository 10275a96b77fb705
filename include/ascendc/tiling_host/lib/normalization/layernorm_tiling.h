// Forwarding header: the toolkit spells this path lib/normalization/layernorm_tiling.h; the one
// implementation is tiling/normalization/layernorm_tiling.h.
#pragma once

#include "tiling/normalization/layernorm_tiling.h"
