// lngrad SIMT API: printf, assert and the clock inside SIMT threads (the vendor's
// simt_api/common_functions.h).
#pragma once

#include "simt_api/device_types.h"
#include "utils/debug/asc_printf.h"
