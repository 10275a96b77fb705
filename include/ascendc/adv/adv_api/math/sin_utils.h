// Forwarding header: the toolkit spells this path adv_api/math/sin_utils.h (SinAlgo, SinConfig,
// defaultSinConfig); the types are kernel_tiling/math_config.h's, shared with the host tiling.
#pragma once

#include "kernel_tiling/math_config.h"
