// Forwarding header: the toolkit spells this path adv_api/activation/softmaxflashv3.h;
// the implementation is lib/activation/softmaxflashv3.h.
#pragma once

#include "../../lib/activation/softmaxflashv3.h"
