// Forwarding header: newer toolkits spell this path adv_api/normalization/rmsnorm.h; the
// implementation is lib/normalization/rmsnorm.h.
#pragma once

#include "../../lib/normalization/rmsnorm.h"
