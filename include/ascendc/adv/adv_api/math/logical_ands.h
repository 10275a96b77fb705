// Forwarding header: the toolkit spells this path adv_api/math/logical_ands.h;
// the implementation is lib/math/logical.h.
#pragma once

#include "../../lib/math/logical.h"
