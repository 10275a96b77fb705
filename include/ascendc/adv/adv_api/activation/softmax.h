// Forwarding header: the toolkit spells this path adv_api/activation/softmax.h;
// the implementation is lib/activation/softmax.h.
#pragma once

#include "../../lib/activation/softmax.h"
