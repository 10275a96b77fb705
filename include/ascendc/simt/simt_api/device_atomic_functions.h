// lngrad SIMT API: device_atomic_functions.h. To be filled (issue 33).
#pragma once

#include "simt_api/device_types.h"
