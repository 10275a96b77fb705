// Forwarding header: the toolkit spells this path adv_api/activation/gelu.h;
// the implementation is lib/activation/gelu.h.
#pragma once

#include "../../lib/activation/gelu.h"
