// lngrad SIMT API: the front door of SIMT kernels (the vendor's simt_api/asc_simt.h): the
// built-in variables and types, synchronisation, warp functions, atomics and the maths.
#pragma once

#include "simt_api/common_functions.h"
#include "simt_api/device_functions.h"
#include "simt_api/math_functions.h"
#include "simt_api/vector_functions.h"
