// Forwarding header: the toolkit spells this path adv_api/pad/broadcast_tiling.h;
// the implementation is tiling/transform/broadcast_tiling.h.
#pragma once

#include "tiling/transform/broadcast_tiling.h"
