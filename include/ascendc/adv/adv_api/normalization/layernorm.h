// Forwarding header: newer toolkits spell this path adv_api/normalization/layernorm.h; the
// implementation is lib/normalization/layernorm.h.
#pragma once

#include "../../lib/normalization/layernorm.h"
