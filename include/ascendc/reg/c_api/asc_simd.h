// lngrad C API: the front door of C-API kernels (the vendor's c_api/asc_simd.h): the pipe
// synchronisation, system variables, GM <-> UB copies and, for the Ascend 950, the register
// functions and the SIMD vector function call.
#pragma once

#include "basic_api/kernel_common.h"
#include "c_api/misc/misc.h"
#include "c_api/reg_compute/reg_convert.h"
#include "c_api/reg_compute/reg_load.h"
#include "c_api/reg_compute/reg_store.h"
#include "c_api/reg_compute/reg_vector.h"
#include "c_api/scalar_compute/scalar_compute.h"
#include "c_api/sync/sync.h"
#include "c_api/sys_var/sys_var.h"
#include "c_api/utils_intf.h"
#include "c_api/vector_compute/vector_compute.h"
#include "c_api/vector_datamove/vector_datamove.h"
// The cube's C API (layer cube, above reg: present when the cube's include root is).
#if __has_include("c_api/cube_datamove/cube_datamove.h")
#include "c_api/cube_compute/cube_compute.h"
#include "c_api/cube_datamove/cube_datamove.h"
#endif
