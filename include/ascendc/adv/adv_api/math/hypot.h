// Forwarding header: the toolkit spells this path adv_api/math/hypot.h;
// the implementation is lib/math/hypot.h.
#pragma once

#include "../../lib/math/hypot.h"
