// Forwarding header: the toolkit spells this path adv_api/reduce/reduce_tiling.h;
// the implementation is tiling/reduce/reduce_tiling.h.
#pragma once

#include "tiling/reduce/reduce_tiling.h"
