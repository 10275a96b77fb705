// lngrad Ascend C runtime: the cores of an AI core (the AIC/AIV split of Atlas A2/A3 and the
// 950). A launch runs numBlocks AI cores; a kernel's type (its __cube__, __vector__ or
// __mix__(aic, aiv) qualifier, read by lngrad-asc) says which cores of each it starts: one AIV
// (vector kernels, the default), one AIC (__cube__), or one AIC and one or two AIVs (__mix__).
// Every core is a block of the launch with its own memories; ASCEND_IS_AIC/ASCEND_IS_AIV,
// GetBlockIdx, GetBlockNum, GetSubBlockIdx and GetTaskRation answer per core as the reference
// defines them. CrossCoreSetFlag/CrossCoreWaitFlag are the cores' counters (modes 0, 1, 2 and the
// 950's 4); a wait that can never end raises cross_core naming the call, where the device hangs
// (docs/ascendc_kernels.md, "Mixed kernels").
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>

#include "check.h"
#include "sanitizer.h"
#include "sync.h"

// The kernel types of KERNEL_TASK_TYPE_DEFAULT / KERNEL_TASK_TYPE, in the vendor's order.
#ifndef __PLUGIN__KERNEL_META_TYPE_ENUME_DEFINED__
#define __PLUGIN__KERNEL_META_TYPE_ENUME_DEFINED__
enum KernelMetaType : uint8_t {
  KERNEL_TYPE_AIV_ONLY,
  KERNEL_TYPE_AIC_ONLY,
  KERNEL_TYPE_MIX_AIV_1_0,
  KERNEL_TYPE_MIX_AIC_1_0,
  KERNEL_TYPE_MIX_AIC_1_1,
  KERNEL_TYPE_MIX_AIC_1_2,
  KERNEL_TYPE_AICORE,
  KERNEL_TYPE_VECTORCORE,
  KERNEL_TYPE_MIX_AICORE,
  KERNEL_TYPE_MIX_VECTOR_CORE,
  KERNEL_TYPE_MAX,
};
#endif

// lngrad-asc reads a kernel's type from KERNEL_TASK_TYPE_DEFAULT in its body, else from its
// __cube__ / __mix__ qualifier; at run time these statements do nothing.
#ifndef KERNEL_TASK_TYPE_DEFAULT
#define KERNEL_TASK_TYPE_DEFAULT(type) ((void)(type))
#endif
#ifndef KERNEL_TASK_TYPE
#define KERNEL_TASK_TYPE(key, type) ((void)(key), (void)(type))
#endif

namespace lngrad::aicore {

namespace checks {
inline constexpr const char* kCrossCore =
    "cross_core";  // a CrossCoreSetFlag/WaitFlag misuse, or a wait no set can ever end
}  // namespace checks

// The split a kernel of this type runs (KERNEL_TYPE_AIV_ONLY: one AIV per block; AIC_ONLY: one
// AIC; MIX_AIV_1_0 / MIX_AIC_1_0: one core with cross-core flags; MIX_AIC_1_1 / 1_2).
CoreSplit SplitOf(KernelMetaType type) noexcept;

// The host address and size of the UB of AIV `sub` of the running AIC's AI core (Fixpipe to
// UB). Raises cube.position when the running block is not an AIC of a launch with that AIV.
std::byte* SubBlockUb(int32_t sub, uint32_t* bytes, const char* api);
// Tells the sanitizer of AIV `sub` that the running AIC wrote its UB bytes [offset, + bytes)
// (seen by that AIV at its next CrossCoreWaitFlag).
void NoteSubBlockUbWrite(int32_t sub, uint64_t offset, uint64_t bytes);

// The running AI core's object shared by its cores (the 950's L1, which its AIVs write through
// DataCopy UB -> L1): made by make() at the first call of any of them, under the launch's lock;
// nullptr outside a launch whose AI cores have an AIC and AIVs.
std::shared_ptr<void> AiCoreShared(const std::function<std::shared_ptr<void>()>& make);
// Whether the running core is the AIC of a kernel that has AIVs too (a __mix__ kernel).
bool AicOfMixedKernel() noexcept;

namespace detail {
void CrossCoreSet(uint8_t mode, pipe_t pipe, uint16_t flag, SrcLoc loc);
void CrossCoreWait(uint8_t mode, pipe_t pipe, uint16_t flag, SrcLoc loc);
}  // namespace detail
}  // namespace lngrad::aicore

namespace AscendC {

// The cores of the AI core report that their `pipe` work before the call is done: mode 0 to
// every core of their type in the launch, mode 1 to the AIVs of their AI core, mode 2 between
// the AIC and the AIVs of their AI core, mode 4 (950, __mix__(1, 2)) between the AIC and one AIV.
// Each round that every core of the mode's group has set adds 1 to the flag's counter of the
// cores that wait for it; CrossCoreWaitFlag blocks until its counter is not 0 and takes 1.
template <uint8_t modeId, pipe_t pipe>
void CrossCoreSetFlag(uint16_t flagId,
                      lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::aicore::detail::CrossCoreSet(modeId, pipe, flagId, loc);
}
template <uint8_t modeId = 0, pipe_t pipe = PIPE_S>
void CrossCoreWaitFlag(uint16_t flagId,
                       lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::aicore::detail::CrossCoreWait(modeId, pipe, flagId, loc);
}

}  // namespace AscendC
