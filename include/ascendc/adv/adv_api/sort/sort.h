// Forwarding header: the toolkit spells this path adv_api/sort/sort.h;
// the implementation is lib/sort/sort.h.
#pragma once

#include "../../lib/sort/sort.h"
