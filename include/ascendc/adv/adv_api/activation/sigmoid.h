// Forwarding header: the toolkit spells this path adv_api/activation/sigmoid.h;
// the implementation is lib/activation/swish.h.
#pragma once

#include "../../lib/activation/swish.h"
