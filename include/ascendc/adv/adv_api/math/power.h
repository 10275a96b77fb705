// Forwarding header: the toolkit spells this path adv_api/math/power.h;
// the implementation is lib/math/power.h.
#pragma once

#include "../../lib/math/power.h"
