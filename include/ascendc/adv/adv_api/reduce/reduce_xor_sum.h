// Forwarding header: the toolkit spells this path adv_api/reduce/reduce_xor_sum.h;
// the implementation is lib/reduce/reduce_xor_sum.h.
#pragma once

#include "../../lib/reduce/reduce_xor_sum.h"
