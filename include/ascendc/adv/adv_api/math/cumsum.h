// Forwarding header: the toolkit spells this path adv_api/math/cumsum.h;
// the implementation is lib/math/cumsum.h.
#pragma once

#include "../../lib/math/cumsum.h"
