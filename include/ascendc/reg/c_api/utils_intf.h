// lngrad C API: the types every C API header uses. The register types are the device compiler's
// built-ins; here they are lngrad's register model (lngrad_reg/registers.h): vector_T holds
// 256 / sizeof(T) lanes of T, vector_bool is the 256-bit mask register.
#pragma once

#include <cstdint>

#include "c_api/utils/enum.h"
#include "lngrad_aicore/bfloat16.h"
#include "lngrad_aicore/defs.h"
#include "lngrad_aicore/half.h"
#include "lngrad_reg/registers.h"

// ASC_IS_AIV / ASC_IS_AIC: whether the running block is a vector (cube) core, as the C++ API's
// ASCEND_IS_AIV (usable as `if ASC_IS_AIV { ... }`).
#ifndef ASC_IS_AIV
#define ASC_IS_AIV ASCEND_IS_AIV
#endif
#ifndef ASC_IS_AIC
#define ASC_IS_AIC ASCEND_IS_AIC
#endif

using vector_int8_t = ::lngrad::reg::VecReg<int8_t>;
using vector_uint8_t = ::lngrad::reg::VecReg<uint8_t>;
using vector_int16_t = ::lngrad::reg::VecReg<int16_t>;
using vector_uint16_t = ::lngrad::reg::VecReg<uint16_t>;
using vector_int32_t = ::lngrad::reg::VecReg<int32_t>;
using vector_uint32_t = ::lngrad::reg::VecReg<uint32_t>;
using vector_int64_t = ::lngrad::reg::VecReg<int64_t>;
using vector_uint64_t = ::lngrad::reg::VecReg<uint64_t>;
using vector_float = ::lngrad::reg::VecReg<float>;
using vector_half = ::lngrad::reg::VecReg<half>;
using vector_bfloat16_t = ::lngrad::reg::VecReg<bfloat16_t>;
using vector_bool = ::lngrad::reg::MaskReg;
using vector_load_unalign = ::lngrad::reg::UnalignReg;
using vector_store_unalign = ::lngrad::reg::UnalignReg;
using addr_reg = ::lngrad::reg::AddrRegBytes;
