// Forwarding header: the toolkit spells this path adv_api/math/is_nan.h;
// the implementation is lib/math/classify.h.
#pragma once

#include "../../lib/math/classify.h"
