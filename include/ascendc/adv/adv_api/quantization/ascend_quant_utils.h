// Forwarding header: the toolkit spells this path adv_api/quantization/ascend_quant_utils.h;
// the implementation is lib/quantization/ascend_quant.h.
#pragma once

#include "../../lib/quantization/ascend_quant.h"
