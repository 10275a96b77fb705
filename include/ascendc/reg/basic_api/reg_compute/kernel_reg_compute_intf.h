// lngrad register API, the C++ flavour AscendC::Reg (the vendor's
// basic_api/reg_compute/kernel_reg_compute_intf.h), reached from kernel_operator.h as the
// vendor's is: the register types, the loads and stores, the compute functions and the
// conversions. Both flavours run the engines of lngrad_reg/ (docs/ascendc_compat.md, "C API and
// the 950 register API").
#pragma once

#include "basic_api/kernel_common.h"
#include "basic_api/reg_compute/kernel_reg_compute_datacopy_intf.h"
#include "basic_api/reg_compute/kernel_reg_compute_gather_mask_intf.h"
#include "basic_api/reg_compute/kernel_reg_compute_struct_intf.h"
#include "basic_api/reg_compute/kernel_reg_compute_vec_fused_intf.h"
#include "basic_api/reg_compute/kernel_reg_compute_vec_intf.h"
#include "basic_api/reg_compute/kernel_reg_compute_vec_vconv_intf.h"
