// Forwarding header: the toolkit spells this path adv_api/reduce/mean.h;
// the implementation is lib/reduce/mean.h.
#pragma once

#include "../../lib/reduce/mean.h"
