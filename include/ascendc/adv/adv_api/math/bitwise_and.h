// Forwarding header: the toolkit spells this path adv_api/math/bitwise_and.h;
// the implementation is lib/math/bitwise.h.
#pragma once

#include "../../lib/math/bitwise.h"
