// lngrad SIMT API: the built-in types and variables of SIMT kernels (the vendor's
// simt_api/device_types.h): dim3, threadIdx, blockIdx, blockDim, gridDim, warpSize, the
// function qualifiers, and the vector types (lngrad_simt/vector_types.h).
//
// The built-in variables read the running SIMT thread (lngrad_simt/runtime.h); outside one they
// raise the check simt_context.
#pragma once

#include <cstdint>

#include "lngrad_aicore/defs.h"
#include "lngrad_simt/runtime.h"
#include "lngrad_simt/vector_types.h"

#ifndef __launch_bounds__
#define __launch_bounds__(...)
#endif
#ifndef __simt_vf__
#define __simt_vf__
#endif
#ifndef __simd_vf__
#define __simd_vf__
#endif
#ifndef __simt_callee__
#define __simt_callee__
#endif
#ifndef __host__
#define __host__
#endif
#ifndef __device__
#define __device__
#endif

#define threadIdx (::lngrad::simt::detail::CurrentThread("threadIdx").thread_idx)
#define blockIdx (::lngrad::simt::detail::CurrentBlock("blockIdx").block_idx)
#define blockDim (::lngrad::simt::detail::CurrentBlock("blockDim").block_dim)
#define gridDim (::lngrad::simt::detail::CurrentBlock("gridDim").grid_dim)

inline constexpr int32_t warpSize = static_cast<int32_t>(::lngrad::simt::kWarpSize);
