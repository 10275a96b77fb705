// Forwarding header: the toolkit spells this path adv_api/index/arithprogression.h;
// the implementation is lib/index/arithprogression.h.
#pragma once

#include "../../lib/index/arithprogression.h"
