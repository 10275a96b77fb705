// Forwarding header: the toolkit spells this path adv_api/reduce/reduce_common.h;
// the implementation is lib/reduce/reduce_common.h.
#pragma once

#include "../../lib/reduce/reduce_common.h"
