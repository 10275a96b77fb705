// Forwarding header: newer toolkits spell this path adv_api/normalization/batchnorm.h; the
// implementation is lib/normalization/batchnorm.h.
#pragma once

#include "../../lib/normalization/batchnorm.h"
