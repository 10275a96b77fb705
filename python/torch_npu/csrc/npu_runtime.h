// torch_npu's runtime glue (python/torch_npu/csrc, not installed): devices and streams of
// lngrad's ACL runtime, shared by the stream API, the device guard, the allocator and the
// operators.
#pragma once

#include <c10/core/Device.h>
#include <c10/core/Stream.h>

#include "acl/acl_base.h"

namespace lngrad::torch_npu {

// Raises c10::Error naming the call, the ACL code and the runtime's message unless code is
// ACL_SUCCESS.
void CheckAcl(aclError code, const char* call);
// The device index (-1: this thread's current device), checked against the device count.
c10::DeviceIndex CheckedDevice(c10::DeviceIndex device);
// Makes the device the calling thread's ACL device (aclrtSetDevice) unless it is already.
void SetAclDevice(c10::DeviceIndex device);
// Gives a thread that has no ACL device its current device (the runtime's calls need one).
void EnsureAclDevice();
void SetCurrentDevice(c10::DeviceIndex device);
// The aclrtStream of a device's stream id (0: the default stream, created on first use).
aclrtStream StreamHandle(c10::DeviceIndex device, c10::StreamId id);
c10::StreamId NewPoolStream(c10::DeviceIndex device);
c10::StreamId CurrentStreamId(c10::DeviceIndex device);
void SetCurrentStreamId(c10::DeviceIndex device, c10::StreamId id);
// aclrtSynchronizeStream: a kernel that failed on the stream raises c10::Error with its report.
void SynchronizeStream(c10::DeviceIndex device, c10::StreamId id);

}  // namespace lngrad::torch_npu
