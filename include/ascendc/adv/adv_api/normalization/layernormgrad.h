// Forwarding header: newer toolkits spell this path adv_api/normalization/layernormgrad.h; the
// implementation is lib/normalization/layernormgrad.h.
#pragma once

#include "../../lib/normalization/layernormgrad.h"
