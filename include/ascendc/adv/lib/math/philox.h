// Forwarding header: the toolkit spells this path lib/math/philox.h;
// the implementation is lib/random/philox.h.
#pragma once

#include "../random/philox.h"
