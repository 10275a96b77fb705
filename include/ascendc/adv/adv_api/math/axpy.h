// Forwarding header: the toolkit spells this path adv_api/math/axpy.h;
// the implementation is lib/math/fma.h.
#pragma once

#include "../../lib/math/fma.h"
