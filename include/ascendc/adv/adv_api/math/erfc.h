// Forwarding header: the toolkit spells this path adv_api/math/erfc.h;
// the implementation is lib/math/erf.h.
#pragma once

#include "../../lib/math/erf.h"
