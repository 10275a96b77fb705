// Forwarding header: the toolkit spells this path
// adv_api/normalization/layernorm_grad_tilingdata.h; the one implementation is
// tiling/normalization/layernorm_grad_tiling.h.
#pragma once

#include "tiling/normalization/layernorm_grad_tiling.h"
