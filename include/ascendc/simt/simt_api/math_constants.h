// lngrad SIMT API: math_constants.h (the vendor's simt_api/math_constants.h). To be filled (issue
// 33).
#pragma once

#include "simt_api/device_types.h"
