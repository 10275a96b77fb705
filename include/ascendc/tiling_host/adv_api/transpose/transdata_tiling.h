// Forwarding header: the toolkit spells this path adv_api/transpose/transdata_tiling.h; the
// implementation is tiling/transform/transdata_tiling.h.
#pragma once

#include "tiling/transform/transdata_tiling.h"
