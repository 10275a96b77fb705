// torch_npu's device functions for lngrad's simulated device (issue 31, python/torch_npu): devices
// 0..7 of lngrad's ACL runtime, all simulating the current product. The current device is per
// thread, as torch_npu's is; setting it also sets the thread's ACL device (aclrtSetDevice).
#pragma once

#include <c10/core/Device.h>

namespace c10_npu {

c10::DeviceIndex device_count() noexcept;
c10::DeviceIndex current_device();
// An index outside [0, device_count()) is a c10::Error naming it.
void set_device(c10::DeviceIndex device);
// Waits for every stream of the current device (aclrtSynchronizeDevice); a kernel that failed
// raises c10::Error with the runtime's report.
void npuSynchronizeDevice();

}  // namespace c10_npu
