// Forwarding header: the toolkit spells this path adv_api/reduce/reduce.h;
// the implementation is lib/reduce/reduce.h.
#pragma once

#include "../../lib/reduce/reduce.h"
