// lngrad SIMT API: the device functions of SIMT kernels (the vendor's simt_api/device_functions.h):
// synchronisation and fences, warp functions, atomics, memory access, the float<->integer
// conversions and the integer functions.
#pragma once

#include "simt_api/device_atomic_functions.h"
#include "simt_api/device_sync_functions.h"
#include "simt_api/device_types.h"
#include "simt_api/device_warp_functions.h"
#include "lngrad_simt/math_convert.h"
#include "lngrad_simt/math_float.h"
#include "lngrad_simt/math_integer.h"
#include "lngrad_simt/mem_access.h"
#include "lngrad_simt/mem_address_space.h"
