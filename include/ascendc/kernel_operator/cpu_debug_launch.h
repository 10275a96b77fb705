// lngrad: stand-in for the toolkit's CPU-debug launch header, which vendor samples include under
// `#ifdef ASCENDC_CPU_DEBUG`. Kernels always run on lngrad's simulated cores, so what it provides
// is what kernel_operator.h already brings: ICPU_RUN_KF, GmAlloc/GmFree, SetKernelMode and the
// kernel API. The `kernel<<<blocks, l2ctrl, stream>>>(args)` launches of a .asc file are
// rewritten by lngrad's ASC compiler driver, which also includes the launcher they call.
#ifndef LNGRAD_ASCENDC_CPU_DEBUG_LAUNCH_H_
#define LNGRAD_ASCENDC_CPU_DEBUG_LAUNCH_H_
#include "kernel_operator.h"
#endif  // LNGRAD_ASCENDC_CPU_DEBUG_LAUNCH_H_
