// lngrad C API: the types every C API header uses. The register types are the device compiler's
// built-ins; here they are lngrad's register model (lngrad_reg/registers.h): vector_T holds
// 256 / sizeof(T) lanes of T, vector_bool is the 256-bit mask register.
#pragma once

#include <cstdint>

#include "c_api/utils/enum.h"
#include "lngrad_aicore/defs.h"
#include "lngrad_reg/registers.h"

#ifndef __simd_vf__
#define __simd_vf__
#endif
#ifndef __simd_callee__
#define __simd_callee__
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
using vector_bool = ::lngrad::reg::MaskReg;
