// Forwarding header: the toolkit spells this path adv_api/math/asin.h;
// the implementation is lib/math/asin.h.
#pragma once

#include "../../lib/math/asin.h"
