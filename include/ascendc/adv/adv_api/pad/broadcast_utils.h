// Forwarding header: the toolkit spells this path adv_api/pad/broadcast_utils.h;
// the implementation is lib/broadcast/broadcast_utils.h.
#pragma once

#include "../../lib/broadcast/broadcast_utils.h"
