// Forwarding header: the toolkit spells this path adv_api/math/log.h;
// the implementation is lib/math/log.h.
#pragma once

#include "../../lib/math/log.h"
