// Forwarding header: the toolkit spells this path adv_api/select/selectwithbytesmask.h;
// the implementation is lib/select/selectwithbytesmask.h.
#pragma once

#include "../../lib/select/selectwithbytesmask.h"
