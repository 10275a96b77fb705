// Forwarding header: the toolkit spells this path adv_api/math/acosh.h;
// the implementation is lib/math/acosh.h.
#pragma once

#include "../../lib/math/acosh.h"
