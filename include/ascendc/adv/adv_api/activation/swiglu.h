// Forwarding header: the toolkit spells this path adv_api/activation/swiglu.h;
// the implementation is lib/activation/glu.h.
#pragma once

#include "../../lib/activation/glu.h"
