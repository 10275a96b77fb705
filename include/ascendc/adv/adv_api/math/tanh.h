// Forwarding header: the toolkit spells this path adv_api/math/tanh.h;
// the implementation is lib/math/tanh.h.
#pragma once

#include "../../lib/math/tanh.h"
