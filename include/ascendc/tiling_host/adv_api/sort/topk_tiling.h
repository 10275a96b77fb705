// Forwarding header: the toolkit spells this path adv_api/sort/topk_tiling.h;
// the implementation is tiling/sort/sort_tiling.h.
#pragma once

#include "tiling/sort/sort_tiling.h"
