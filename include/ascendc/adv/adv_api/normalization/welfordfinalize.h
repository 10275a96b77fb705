// Forwarding header: newer toolkits spell this path adv_api/normalization/welfordfinalize.h; the
// implementation is lib/normalization/welfordfinalize.h.
#pragma once

#include "../../lib/normalization/welfordfinalize.h"
