// Forwarding header: the toolkit spells this path adv_api/math/cos_utils.h (CosAlgo, CosConfig,
// defaultCosConfig); the types are kernel_tiling/math_config.h's, shared with the host tiling.
#pragma once

#include "kernel_tiling/math_config.h"
