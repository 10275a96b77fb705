// Forwarding header: the toolkit spells this path adv_api/activation/kernel_operator_gelu_intf.h;
// the implementation is lib/activation/gelu.h.
#pragma once

#include "../../lib/activation/gelu.h"
