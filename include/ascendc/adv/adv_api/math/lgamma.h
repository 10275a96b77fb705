// Forwarding header: the toolkit spells this path adv_api/math/lgamma.h;
// the implementation is lib/math/lgamma.h.
#pragma once

#include "../../lib/math/lgamma.h"
