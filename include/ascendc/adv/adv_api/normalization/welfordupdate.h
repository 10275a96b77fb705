// Forwarding header: newer toolkits spell this path adv_api/normalization/welfordupdate.h; the
// implementation is lib/normalization/welfordupdate.h.
#pragma once

#include "../../lib/normalization/welfordupdate.h"
