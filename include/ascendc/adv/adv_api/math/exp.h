// Forwarding header: the toolkit spells this path adv_api/math/exp.h;
// the implementation is lib/math/exp.h.
#pragma once

#include "../../lib/math/exp.h"
