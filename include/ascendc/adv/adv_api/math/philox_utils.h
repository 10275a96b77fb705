// Forwarding header: the toolkit spells this path adv_api/math/philox_utils.h;
// the implementation is lib/random/philox.h.
#pragma once

#include "../../lib/random/philox.h"
