// Forwarding header: the toolkit spells this path adv_api/sort/sort_tiling_intf.h;
// the implementation is tiling/sort/sort_tiling.h.
#pragma once

#include "tiling/sort/sort_tiling.h"
