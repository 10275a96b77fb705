// Forwarding header: the toolkit spells this path adv_api/sort/topk.h;
// the implementation is lib/sort/topk.h.
#pragma once

#include "../../lib/sort/topk.h"
