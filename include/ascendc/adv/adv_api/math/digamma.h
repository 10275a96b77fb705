// Forwarding header: the toolkit spells this path adv_api/math/digamma.h;
// the implementation is lib/math/digamma.h.
#pragma once

#include "../../lib/math/digamma.h"
