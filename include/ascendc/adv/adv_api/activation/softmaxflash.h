// Forwarding header: the toolkit spells this path adv_api/activation/softmaxflash.h;
// the implementation is lib/activation/softmaxflash.h.
#pragma once

#include "../../lib/activation/softmaxflash.h"
