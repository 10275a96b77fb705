// Forwarding header: the toolkit spells this path adv_api/math/where.h;
// the implementation is lib/math/select.h.
#pragma once

#include "../../lib/math/select.h"
