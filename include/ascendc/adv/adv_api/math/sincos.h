// Forwarding header: the toolkit spells this path adv_api/math/sincos.h;
// the implementation is lib/math/sincos.h.
#pragma once

#include "../../lib/math/sincos.h"
