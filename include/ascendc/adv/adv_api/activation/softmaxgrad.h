// Forwarding header: the toolkit spells this path adv_api/activation/softmaxgrad.h;
// the implementation is lib/activation/softmaxgrad.h.
#pragma once

#include "../../lib/activation/softmaxgrad.h"
