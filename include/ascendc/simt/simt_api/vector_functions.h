// lngrad SIMT API: vector_functions.h (the vendor's simt_api/vector_functions.h). To be filled
// (issue 33).
#pragma once

#include "simt_api/device_types.h"
