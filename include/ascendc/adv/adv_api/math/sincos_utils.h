// Forwarding header: the toolkit spells this path adv_api/math/sincos_utils.h (SinCosConfig);
// the implementation is lib/math/sincos.h.
#pragma once

#include "../../lib/math/sincos.h"
