// Forwarding header: the toolkit spells this path lib/activation/softmax_tiling.h; the one
// implementation is tiling/activation/softmax_tiling.h.
#pragma once

#include "tiling/activation/softmax_tiling.h"
