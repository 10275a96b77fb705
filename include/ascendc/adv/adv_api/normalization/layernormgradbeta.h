// Forwarding header: newer toolkits spell this path adv_api/normalization/layernormgradbeta.h; the
// implementation is lib/normalization/layernormgradbeta.h.
#pragma once

#include "../../lib/normalization/layernormgradbeta.h"
