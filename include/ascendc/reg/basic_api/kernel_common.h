// lngrad register API: asc_vf_call of a SIMD vector function (the vendor's
// basic_api/kernel_common.h).
#pragma once

#include <utility>

#include "lngrad_aicore/sanitizer.h"
#include "lngrad_reg/ub_access.h"

// asc_vf_call<f>(args...) in a vector kernel on the 950: runs the __simd_vf__ function f with
// args and returns when it is done. Its register loads and stores are PIPE_V instructions (the
// sanitizer sees each), ordered after the kernel's earlier instructions and before its later
// ones as the block's program order is. The SIMT form asc_vf_call<f>(dim3, args...)
// (simt_api/common_functions.h) is more specialised: a call whose first argument is a dim3
// chooses it.
template <auto funcPtr, typename... Args>
inline void asc_vf_call(Args&&... args) {
  const ::lngrad::reg::detail::VectorFunctionScope scope("asc_vf_call",
                                                         ::lngrad::aicore::SrcLoc::Current());
  funcPtr(std::forward<Args>(args)...);
}
