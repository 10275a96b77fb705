// Forwarding header: the toolkit spells this path adv_api/pad/pad.h;
// the implementation is lib/pad/pad.h.
#pragma once

#include "../../lib/pad/pad.h"
