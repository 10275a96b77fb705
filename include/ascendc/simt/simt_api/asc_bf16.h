// lngrad SIMT API: asc_bf16.h (the vendor's simt_api/asc_bf16.h). To be filled (issue 33).
#pragma once

#include "simt_api/device_types.h"
