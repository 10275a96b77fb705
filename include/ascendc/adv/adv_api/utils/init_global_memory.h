// Forwarding header: the toolkit spells this path adv_api/utils/init_global_memory.h;
// the implementation is lib/utils/init_global_memory.h.
#pragma once

#include "../../lib/utils/init_global_memory.h"
