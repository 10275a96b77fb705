// Forwarding header: the toolkit spells this path adv_api/quantization/quantize_tiling.h;
// the implementation is tiling/quantization/quant_tiling.h.
#pragma once

#include "tiling/quantization/quant_tiling.h"
