// Forwarding header: the toolkit spells this path adv_api/pad/broadcast.h;
// the implementation is lib/broadcast/broadcast.h.
#pragma once

#include "../../lib/broadcast/broadcast.h"
