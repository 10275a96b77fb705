// lngrad Ascend C runtime: the language extensions of Ascend C, mapped onto plain C++.
//
// Device code is written with BuiltIn qualifiers (__aicore__, __global__, __gm__, ...) that the
// device compiler understands. On the CPU they carry no meaning, so they are defined away, as the
// CANN CPU-debug mode does. Consequence (same as CANN): two functions that differ only in these
// qualifiers clash.
#pragma once

#include <cstdint>
#include <cstdio>

#ifndef __aicore__
#define __aicore__
#endif
#ifndef __global__
#define __global__
#endif
#ifndef __gm__
#define __gm__
#endif
#ifndef __vector__
#define __vector__
#endif
#ifndef __cube__
#define __cube__
#endif
#ifndef __ubuf__
#define __ubuf__
#endif
#ifndef __cbuf__
#define __cbuf__
#endif
#ifndef __ca__
#define __ca__
#endif
#ifndef __cb__
#define __cb__
#endif
#ifndef __cc__
#define __cc__
#endif
#ifndef __fbuf__
#define __fbuf__
#endif
#ifndef __inout_pipe__
#define __inout_pipe__(pipe)
#endif
#ifndef __in_pipe__
#define __in_pipe__(pipe)
#endif
#ifndef __out_pipe__
#define __out_pipe__(pipe)
#endif
#ifndef __sync_alias__
#define __sync_alias__
#endif
#ifndef __sync_noalias__
#define __sync_noalias__
#endif

// The kernel's compile-time architecture. The device compiler sets it from --npu-arch; a CPU
// build may pass -D__NPU_ARCH__=<nnnn>. Without it we assume Atlas A2/A3 (dav-2201), the default
// of the CANN CPU-debug flow. Note: the runtime product (LNGRAD_SOC / SetCurrentSoc) is chosen
// independently; see docs/ascendc_compat.md.
#ifndef __NPU_ARCH__
#define __NPU_ARCH__ 2201
#endif

// Kernel parameters pointing to global memory.
#ifndef GM_ADDR
#define GM_ADDR __gm__ uint8_t*
#endif

namespace AscendC {

// Core types. Every simulated block is a vector core (AIV); there is no cube core.
enum CoreType : int32_t { MIX = 0, AIC = 1, AIV = 2 };
inline constexpr int32_t g_coreType = AIV;

// Kernels may print with AscendC::printf; on the CPU it is the C library's.
using std::printf;

}  // namespace AscendC

// Used as `if ASCEND_IS_AIC { return; }` in kernels, hence the parentheses.
#ifndef ASCEND_IS_AIC
#define ASCEND_IS_AIC (::AscendC::g_coreType == ::AscendC::AIC)
#endif
#ifndef ASCEND_IS_AIV
#define ASCEND_IS_AIV (::AscendC::g_coreType == ::AscendC::AIV)
#endif
