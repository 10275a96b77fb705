// Forwarding header: the toolkit spells this path adv_api/activation/reglu.h;
// the implementation is lib/activation/glu.h.
#pragma once

#include "../../lib/activation/glu.h"
