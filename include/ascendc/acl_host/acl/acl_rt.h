// lngrad: the ACL host runtime (`#include "acl/acl_rt.h"`, or "acl/acl.h") on the simulated device.
//
// What the vendor's operator samples call from their host `main`: initialisation, devices,
// contexts, streams, device and host memory, copies, the SoC name and error messages. Signatures,
// enum values and return codes are the vendor's (CANN's acl_rt.h, hicann/runtime
// include/external/acl/acl_rt.h; codes in acl/acl_base.h and acl/error_codes/rt_error_codes.h).
// Behaviour and every difference from the device: docs/ascendc_compat.md, "The ACL host runtime".
//
// The model in short:
// - Work is synchronous. A launch (`kernel<<<blocks, nullptr, stream>>>(...)`, see
//   lngrad_acl/launch.h) and aclrtMemcpyAsync run to completion before they return; a launch
//   whose kernel fails a check records the failure on its stream, and the next
//   aclrtSynchronizeStream of that stream returns ACL_ERROR_RT_AICORE_EXCEPTION once.
// - Device memory (aclrtMalloc) is bounds-checked global memory: kernels' DataCopy and
//   GlobalTensor accesses are checked against the allocation, and so are aclrtMemcpy/aclrtMemset.
// - Misuse never crashes: the call returns the vendor's error code, prints one line to stderr
//   ("lngrad acl: ...") and leaves the message for aclGetRecentErrMsg.
// - The aclrt* functions do not need aclInit (as with the vendor's runtime). Memory, streams and
//   copies need a device set on the calling thread (aclrtSetDevice or aclrtCreateContext), else
//   ACL_ERROR_RT_CONTEXT_NULL.
#ifndef LNGRAD_ASCENDC_ACL_ACL_RT_H_
#define LNGRAD_ASCENDC_ACL_ACL_RT_H_

#include <stddef.h>
#include <stdint.h>

#include "acl/acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

// The vendor's values (acl_rt.h): consecutive from 0.
typedef enum aclrtMemcpyKind {
  ACL_MEMCPY_HOST_TO_HOST,
  ACL_MEMCPY_HOST_TO_DEVICE,
  ACL_MEMCPY_DEVICE_TO_HOST,
  ACL_MEMCPY_DEVICE_TO_DEVICE,
  ACL_MEMCPY_DEFAULT,  // the direction follows from the pointers
  ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE,
  ACL_MEMCPY_INNER_DEVICE_TO_DEVICE,  // not accepted by aclrtMemcpy (vendor:
                                      // ACL_ERROR_INVALID_PARAM)
  ACL_MEMCPY_INTER_DEVICE_TO_DEVICE,  // not accepted by aclrtMemcpy (vendor:
                                      // ACL_ERROR_INVALID_PARAM)
} aclrtMemcpyKind;

// The vendor's values (acl_rt.h). On the CPU every policy allocates the same memory.
typedef enum aclrtMemMallocPolicy {
  ACL_MEM_MALLOC_HUGE_FIRST,
  ACL_MEM_MALLOC_HUGE_ONLY,
  ACL_MEM_MALLOC_NORMAL_ONLY,
  ACL_MEM_MALLOC_HUGE_FIRST_P2P,
  ACL_MEM_MALLOC_HUGE_ONLY_P2P,
  ACL_MEM_MALLOC_NORMAL_ONLY_P2P,
  ACL_MEM_MALLOC_HUGE1G_ONLY,
  ACL_MEM_MALLOC_HUGE1G_ONLY_P2P,
  ACL_MEM_TYPE_LOW_BAND_WIDTH = 0x0100,
  ACL_MEM_TYPE_HIGH_BAND_WIDTH = 0x1000,
  ACL_MEM_ACCESS_USER_SPACE_READONLY = 0x100000,
} aclrtMemMallocPolicy;

// The level of aclrtGetLastError / aclrtPeekAtLastError (the vendor's values; only the thread
// level exists). Its underlying type is fixed (int) so that a caller's other level is a value
// the functions can refuse, not undefined behaviour.
typedef enum aclrtLastErrLevel : int {
  ACL_RT_THREAD_LEVEL = 0,
} aclrtLastErrLevel;

// What aclrtGetDeviceInfo reports (the vendor's values, CANN 9.x aclrtDevAttr).
typedef enum aclrtDevAttr {
  ACL_DEV_ATTR_AICPU_CORE_NUM = 1,
  ACL_DEV_ATTR_AICORE_CORE_NUM = 101,
  ACL_DEV_ATTR_CUBE_CORE_NUM = 102,
  ACL_DEV_ATTR_VECTOR_CORE_NUM = 201,
  ACL_DEV_ATTR_WARP_SIZE = 202,
  ACL_DEV_ATTR_MAX_THREAD_PER_VECTOR_CORE = 203,
  ACL_DEV_ATTR_UBUF_PER_VECTOR_CORE = 204,
  ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE = 301,
  ACL_DEV_ATTR_L2_CACHE_SIZE = 302,
  ACL_DEV_ATTR_SMP_ID = 401,
  ACL_DEV_ATTR_PHY_CHIP_ID = 402,
  ACL_DEV_ATTR_SUPER_POD_DEVICE_ID = 403,
  ACL_DEV_ATTR_SUPER_POD_SERVER_ID = 404,
  ACL_DEV_ATTR_SUPER_POD_ID = 405,
  ACL_DEV_ATTR_CUST_OP_PRIVILEGE = 406,
  ACL_DEV_ATTR_MAINBOARD_ID = 407,
  ACL_DEV_ATTR_IS_VIRTUAL = 501,
} aclrtDevAttr;

// Initialisation. configPath may be nullptr or "" (no configuration); otherwise the file must be
// readable (else ACL_ERROR_INVALID_FILE); its content is not interpreted. A second aclInit
// without aclFinalize returns ACL_ERROR_REPEAT_INITIALIZE; aclFinalize without a matching aclInit
// returns ACL_ERROR_REPEAT_FINALIZE after an earlier aclFinalize, ACL_ERROR_UNINITIALIZE if
// aclInit never ran. aclFinalize releases the host memory kept after aclrtFreeHost.
ACL_FUNC_VISIBILITY aclError aclInit(const char* configPath);
ACL_FUNC_VISIBILITY aclError aclFinalize();

// Devices: ids 0..7 are simulated devices, all simulating the current product (LNGRAD_SOC,
// LNGRAD_DEFAULT_SOC, lngrad::SetCurrentSoc). aclrtSetDevice makes the device's default context
// current on the calling thread (and counts a reference); aclrtResetDevice drops one reference,
// and the last one destroys the default context and its streams. Other ids:
// ACL_ERROR_RT_INVALID_DEVICEID. aclrtGetDevice: the calling thread's device, or
// ACL_ERROR_RT_CONTEXT_NULL when none is set.
ACL_FUNC_VISIBILITY aclError aclrtSetDevice(int32_t deviceId);
ACL_FUNC_VISIBILITY aclError aclrtResetDevice(int32_t deviceId);
ACL_FUNC_VISIBILITY aclError aclrtGetDevice(int32_t* deviceId);
ACL_FUNC_VISIBILITY aclError aclrtGetDeviceCount(uint32_t* count);

// Contexts: aclrtCreateContext creates a context on deviceId and makes it current on the calling
// thread; aclrtDestroyContext destroys it and its streams (a default context from aclrtSetDevice
// is released by aclrtResetDevice instead: ACL_ERROR_RT_PARAM_INVALID).
ACL_FUNC_VISIBILITY aclError aclrtCreateContext(aclrtContext* context, int32_t deviceId);
ACL_FUNC_VISIBILITY aclError aclrtDestroyContext(aclrtContext context);

// Streams of the current context. A null stream in a launch, aclrtMemcpyAsync or
// aclrtSynchronizeStream means the current context's default stream; aclrtDestroyStream needs a
// stream from aclrtCreateStream (nullptr: ACL_ERROR_INVALID_PARAM; destroyed or unknown:
// ACL_ERROR_RT_PARAM_INVALID). aclrtSynchronizeStream returns the first failure recorded on the
// stream since the last synchronisation (ACL_ERROR_RT_AICORE_EXCEPTION for a failed kernel,
// whose report names the kernel, block and check) and clears it.
ACL_FUNC_VISIBILITY aclError aclrtCreateStream(aclrtStream* stream);
ACL_FUNC_VISIBILITY aclError aclrtDestroyStream(aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeStream(aclrtStream stream);
// Every stream of the current device (all its contexts): the first failure recorded on any of
// them since its last synchronisation (streams in creation order), after the launches of this
// thread that had no stream to fail; all are reported (aclGetRecentErrMsg) and cleared. No
// device set on this thread: ACL_ERROR_RT_CONTEXT_NULL. The kit's samples that launch on the
// default stream (<<<numBlocks, 0>>>) synchronise with it.
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeDevice();

// Device memory: size > 0 bytes of global memory, 32-byte aligned and zero-filled, bounded by
// `size` for kernels (checked mode) and copies. aclrtFree: nullptr is ACL_ERROR_INVALID_PARAM;
// a pointer that is not the start of a live allocation (freed already, host memory, an interior
// pointer) is ACL_ERROR_RT_PARAM_INVALID.
ACL_FUNC_VISIBILITY aclError aclrtMalloc(void** devPtr, size_t size, aclrtMemMallocPolicy policy);
ACL_FUNC_VISIBILITY aclError aclrtFree(void* devPtr);

// Host memory: size > 0 bytes, 64-byte aligned, not zero-filled. Freed blocks are kept (never
// handed out again) until aclFinalize, up to 256 MiB, so that a double aclrtFreeHost is always
// recognised and host code that reads a buffer after freeing it (one vendor sample does) reads
// what it wrote.
ACL_FUNC_VISIBILITY aclError aclrtMallocHost(void** hostPtr, size_t size);
ACL_FUNC_VISIBILITY aclError aclrtFreeHost(void* hostPtr);

// Copies count bytes (count <= destMax). A pointer is device memory when it lies inside a live
// aclrtMalloc allocation, host memory otherwise; the kind must match (ACL_MEMCPY_DEFAULT accepts
// any), and device ranges and aclrtMallocHost ranges must lie inside their allocation. Errors:
// nullptr or an unknown kind: ACL_ERROR_INVALID_PARAM; count > destMax, a kind that does not
// match the pointers, a range past an allocation: ACL_ERROR_RT_PARAM_INVALID. count == 0 does
// nothing and succeeds. Overlapping ranges are copied as by memmove.
ACL_FUNC_VISIBILITY aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count,
                                         aclrtMemcpyKind kind);
ACL_FUNC_VISIBILITY aclError aclrtMemcpyAsync(void* dst, size_t destMax, const void* src,
                                              size_t count, aclrtMemcpyKind kind,
                                              aclrtStream stream);
// Sets count bytes of device memory to (uint8_t)value; count <= maxCount, inside one allocation.
ACL_FUNC_VISIBILITY aclError aclrtMemset(void* devPtr, size_t maxCount, int32_t value,
                                         size_t count);

// A property of device deviceId (0..7) as the simulated product has it: the core counts of the
// product's platform (what platform_ascendc reports), the warp size (32), the threads a vector
// core holds (2048) and its UB bytes on the Ascend 950 (the SIMT attributes exist there only),
// the global memory and L2 sizes, and 0 for the ids of a physical, non-virtual machine. An
// attribute the product does not have, or an unknown value: ACL_ERROR_INVALID_PARAM; value
// nullptr: ACL_ERROR_INVALID_PARAM; another device id: ACL_ERROR_RT_INVALID_DEVICEID.
ACL_FUNC_VISIBILITY aclError aclrtGetDeviceInfo(uint32_t deviceId, aclrtDevAttr attr,
                                                int64_t* value);

// The calling thread's last runtime error: the code of the latest aclrt* or acl* call of this
// thread that failed (a launch that could not start counts; a kernel that failed a check is
// reported by the synchronisation that returns its error, as on the device where the kernel
// runs asynchronously). aclrtGetLastError returns it and clears it (ACL_SUCCESS until the next
// failure); aclrtPeekAtLastError returns it and leaves it. A level other than
// ACL_RT_THREAD_LEVEL: ACL_ERROR_INVALID_PARAM (the recorded error stays).
ACL_FUNC_VISIBILITY aclError aclrtGetLastError(aclrtLastErrLevel level);
ACL_FUNC_VISIBILITY aclError aclrtPeekAtLastError(aclrtLastErrLevel level);

// The simulated product's SoC name, e.g. "Ascend910B1". Never nullptr.
ACL_FUNC_VISIBILITY const char* aclrtGetSocName();

#ifdef __cplusplus
}
#endif

#endif  // LNGRAD_ASCENDC_ACL_ACL_RT_H_
