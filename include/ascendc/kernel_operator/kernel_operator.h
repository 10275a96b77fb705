// lngrad: the Ascend C kernel header, for compiling unmodified Ascend C kernel code with g++ or
// clang and running it on lngrad's simulated AI cores (see docs/ascendc_compat.md).
//
// Compile kernels with -ffp-contract=off (the lngrad::ascendc CMake target adds it): the
// element-wise instructions run inside the library with strict IEEE semantics, but arithmetic
// a kernel writes itself (`half a = b * c + d`, scalar float code) is compiled with the
// kernel's own flags, and FMA contraction would change its bits.
//
// Also provides the host-side launch of the CANN CPU-debug flow (ICPU_RUN_KF, GmAlloc, GmFree,
// SetKernelMode, ICPU_SET_TILING_KEY), so a single include serves kernel and host code.
#ifndef LNGRAD_ASCENDC_KERNEL_OPERATOR_H_
#define LNGRAD_ASCENDC_KERNEL_OPERATOR_H_

// The standard assert, which kernels call as the vendor's headers let them (its CPU build
// includes <cassert>).
#include <cassert>

#include "lngrad_aicore/defs.h"
#include "lngrad_aicore/scalar_builtins.h"
#include "lngrad_aicore/half.h"
#include "lngrad_aicore/bfloat16.h"
#include "lngrad_aicore/check.h"
#include "lngrad_aicore/sync.h"
#include "lngrad_aicore/sanitizer.h"
#include "lngrad_aicore/tensor.h"
#include "lngrad_aicore/pipe.h"
#include "lngrad_aicore/ctrl.h"
#include "lngrad_aicore/sys.h"
#include "lngrad_aicore/static_tensor.h"
#include "lngrad_aicore/constants.h"
#include "lngrad_aicore/kernel_log.h"
#include "utils/debug/asc_printf.h"
#include "utils/debug/asc_assert.h"
#include "utils/std/type_traits.h"
#include "lngrad_aicore/data_copy.h"
#include "lngrad_aicore/atomic.h"
#include "lngrad_aicore/block_sync.h"
#include "lngrad_aicore/cores.h"
#include "lngrad_aicore/cache.h"
#include "lngrad_aicore/vector_ops.h"
#include "lngrad_aicore/reduce_ops.h"
#include "lngrad_aicore/compare_ops.h"
#include "lngrad_aicore/gather_ops.h"
#include "lngrad_aicore/compound_ops.h"
#include "lngrad_aicore/logic_ops.h"
#include "lngrad_aicore/tensor_expr.h"
#include "lngrad_aicore/transpose_ops.h"
#include "lngrad_aicore/sort_ops.h"
#include "lngrad_aicore/launch.h"

// The cube (layer cube): L1/L0 buffers, LoadData, Mmad, Fixpipe. The Matmul API (and the global
// CubeFormat it declares) comes with "lib/matmul_intf.h" only, as with the vendor's headers.
#include "lngrad_cube/cube.h"

// The Ascend 950's register API, C++ flavour (layer reg): AscendC::Reg, __simd_vf__,
// asc_vf_call.
#include "basic_api/reg_compute/kernel_reg_compute_intf.h"
// AscendC::DumpTensor (printed as the reg layer's asc_dump functions print).
#include "basic_api/kernel_operator_dump_tensor_intf.h"

// Device code names DataFormat without a namespace (e.g. `LayerNormGradShapeInfo
// info{DataFormat::ND}` outside `using namespace AscendC`), as the toolkit's headers allow.
using AscendC::DataFormat;

// The kernel-side tiling structs and the high-level APIs (layer adv), so that a kernel needs
// nothing but "kernel_operator.h", as with the vendor's toolkit.
#include "kernel_tiling/kernel_tiling.h"
#include "lib/normalization/layernormgrad.h"
#include "lib/normalization/layernormgradbeta.h"
#include "lib/normalization/layernorm.h"
#include "lib/normalization/normalize.h"
#include "lib/normalization/norm_ext.h"
#include "lib/math/math.h"
#include "lib/activation/eltwise.h"
#include "lib/activation/softmax_all.h"
#include "lib/reduce/reduce_api.h"
#include "lib/sort/sort_api.h"
#include "lib/quantization/quantization_family.h"
#include "lib/pad/transform.h"

#endif  // LNGRAD_ASCENDC_KERNEL_OPERATOR_H_
