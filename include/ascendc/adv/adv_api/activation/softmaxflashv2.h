// Forwarding header: the toolkit spells this path adv_api/activation/softmaxflashv2.h;
// the implementation is lib/activation/softmaxflashv2.h.
#pragma once

#include "../../lib/activation/softmaxflashv2.h"
