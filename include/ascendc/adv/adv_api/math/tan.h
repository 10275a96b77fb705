// Forwarding header: the toolkit spells this path adv_api/math/tan.h;
// the implementation is lib/math/tan.h.
#pragma once

#include "../../lib/math/tan.h"
