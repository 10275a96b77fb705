// Forwarding header: the toolkit spells this path adv_api/activation/simplesoftmax.h;
// the implementation is lib/activation/simplesoftmax.h.
#pragma once

#include "../../lib/activation/simplesoftmax.h"
