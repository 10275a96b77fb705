// Forwarding header: newer toolkits spell this path adv_api/normalization/deepnorm.h; the
// implementation is lib/normalization/deepnorm.h.
#pragma once

#include "../../lib/normalization/deepnorm.h"
