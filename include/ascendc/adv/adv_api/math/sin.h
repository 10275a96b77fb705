// Forwarding header: the toolkit spells this path adv_api/math/sin.h;
// the implementation is lib/math/sin.h.
#pragma once

#include "../../lib/math/sin.h"
