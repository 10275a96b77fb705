// Forwarding header: newer toolkits spell this path adv_api/normalization/welfordfinalize_utils.h;
// the implementation is lib/normalization/welfordfinalize_utils.h.
#pragma once

#include "../../lib/normalization/welfordfinalize_utils.h"
