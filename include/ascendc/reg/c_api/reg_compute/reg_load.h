// lngrad C API: register loads from UB (the vendor's c_api/reg_compute/reg_load.h). Every load
// is a PIPE_V instruction: checked against the block's UB and the 32-byte alignment, recorded
// by the sanitizer (lngrad_reg/ub_access.h).
#pragma once

#include <cstdint>

#include "c_api/utils_intf.h"
#include "lngrad_reg/ub_access.h"

// asc_loadalign (NORM mode): VL bytes from src (+ offset elements).
template <typename T>
inline void asc_loadalign(::lngrad::reg::VecReg<T>& dst, __ubuf__ T* src,
                          ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {
  ::lngrad::reg::detail::LoadBytes(dst.lane, src, ::lngrad::reg::kVectorBytes, 32, "asc_loadalign",
                                   loc);
}
template <typename T>
inline void asc_loadalign(::lngrad::reg::VecReg<T>& dst, __ubuf__ T* src, int32_t offset,
                          ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {
  asc_loadalign(dst, src + offset, loc);
}
