// Forwarding header: newer toolkits spell this path adv_api/normalization/groupnorm.h; the
// implementation is lib/normalization/groupnorm.h.
#pragma once

#include "../../lib/normalization/groupnorm.h"
