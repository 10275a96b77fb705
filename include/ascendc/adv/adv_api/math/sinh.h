// Forwarding header: the toolkit spells this path adv_api/math/sinh.h;
// the implementation is lib/math/hyperbolic.h.
#pragma once

#include "../../lib/math/hyperbolic.h"
