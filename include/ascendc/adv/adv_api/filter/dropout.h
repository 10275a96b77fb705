// Forwarding header: the toolkit spells this path adv_api/filter/dropout.h;
// the implementation is lib/filter/dropout.h.
#pragma once

#include "../../lib/filter/dropout.h"
