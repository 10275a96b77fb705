// lngrad: stand-in for the CANN CPU-debug host header of the legacy flow (`#include "tikicpulib.h"`
// in the host main). Everything it provides (ICPU_RUN_KF, GmAlloc, GmFree, SetKernelMode,
// ICPU_SET_TILING_KEY) comes with kernel_operator.h.
#ifndef LNGRAD_ASCENDC_TIKICPULIB_H_
#define LNGRAD_ASCENDC_TIKICPULIB_H_
#include "kernel_operator.h"
#endif  // LNGRAD_ASCENDC_TIKICPULIB_H_
