// Forwarding header: the toolkit spells this path adv_api/activation/logsoftmax.h;
// the implementation is lib/activation/logsoftmax.h.
#pragma once

#include "../../lib/activation/logsoftmax.h"
