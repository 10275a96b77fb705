// Forwarding header: the toolkit spells this path adv_api/quantization/antiquantize.h;
// the implementation is lib/quantization/ascend_antiquant.h.
#pragma once

#include "../../lib/quantization/ascend_antiquant.h"
