// Forwarding header: the toolkit spells this path adv_api/pad/kernel_operator_pad_intf.h;
// the implementation is lib/pad/pad.h.
#pragma once

#include "../../lib/pad/pad.h"
