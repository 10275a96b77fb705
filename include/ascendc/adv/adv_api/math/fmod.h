// Forwarding header: the toolkit spells this path adv_api/math/fmod.h;
// the implementation is lib/math/fmod.h.
#pragma once

#include "../../lib/math/fmod.h"
