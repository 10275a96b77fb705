// Forwarding header: the toolkit spells this path adv_api/math/trunc.h;
// the implementation is lib/math/rounding.h.
#pragma once

#include "../../lib/math/rounding.h"
