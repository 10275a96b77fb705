// lngrad SIMT API: math_functions.h (the vendor's simt_api/math_functions.h). To be filled (issue
// 33).
#pragma once

#include "simt_api/device_types.h"
