// Forwarding header: the toolkit spells this path adv_api/reduce/sum.h;
// the implementation is lib/reduce/sum.h.
#pragma once

#include "../../lib/reduce/sum.h"
