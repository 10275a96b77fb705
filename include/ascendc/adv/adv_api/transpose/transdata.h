// Forwarding header: the toolkit spells this path adv_api/transpose/transdata.h;
// the implementation is lib/transpose/transdata.h.
#pragma once

#include "../../lib/transpose/transdata.h"
