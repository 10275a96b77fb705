// lngrad C API: register stores to UB (the vendor's c_api/reg_compute/reg_store.h). Every store
// is a PIPE_V instruction: it writes the lanes the mask selects (the others keep their UB
// contents), checked and recorded as loads are (lngrad_reg/ub_access.h).
#pragma once

#include <cstdint>

#include "c_api/utils_intf.h"
#include "lngrad_reg/ub_access.h"

// asc_storealign (NORM mode): the selected lanes of src to dst_align32b (+ offset elements).
template <typename T>
inline void asc_storealign(__ubuf__ T* dst_align32b, ::lngrad::reg::VecReg<T> src, vector_bool mask,
                           ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {
  ::lngrad::reg::detail::StoreLanes(dst_align32b, src.lane, sizeof(T), mask, 32, "asc_storealign",
                                    loc);
}
template <typename T>
inline void asc_storealign(__ubuf__ T* dst_align32b, ::lngrad::reg::VecReg<T> src, int32_t offset,
                           vector_bool mask,
                           ::lngrad::aicore::SrcLoc loc = ::lngrad::aicore::SrcLoc::Current()) {
  asc_storealign(dst_align32b + offset, src, mask, loc);
}
