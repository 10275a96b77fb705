// Forwarding header: the toolkit spells this path adv_api/quantization/dequantize.h;
// the implementation is lib/quantization/ascend_dequant.h.
#pragma once

#include "../../lib/quantization/ascend_dequant.h"
