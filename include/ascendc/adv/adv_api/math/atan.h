// Forwarding header: the toolkit spells this path adv_api/math/atan.h;
// the implementation is lib/math/atan.h.
#pragma once

#include "../../lib/math/atan.h"
