// Compiles kernels-inl.h once per Highway target and exports the run-time dispatch.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels_simd.cpp"
#include <hwy/foreach_target.h>  // must come before highway.h

#include <hwy/highway.h>

#include "kernels-inl.h"

#if HWY_ONCE
namespace lngrad::core {

HWY_EXPORT(GetKernelTable);

const KernelTable& SimdKernels(int64_t* target) {
  return *HWY_DYNAMIC_DISPATCH(GetKernelTable)(target);
}

int64_t CompiledSimdTargets() { return HWY_TARGETS; }

}  // namespace lngrad::core
#endif  // HWY_ONCE
