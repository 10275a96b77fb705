// Forwarding header: the toolkit spells this path adv_api/math/sign.h;
// the implementation is lib/math/sign.h.
#pragma once

#include "../../lib/math/sign.h"
